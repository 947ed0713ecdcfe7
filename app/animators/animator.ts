/**
 * The Animator contract and registry (ARCHITECTURE.md, "The Animator contract"). A method is a
 * provider: an id, a label, the paper it implements, its parameter declarations, and a factory.
 * Everything a method needs arrives in the AnimatorContext; it owns nothing else.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import type { Rng } from "../math/rng";
import type { TreeSkeleton } from "../tree/skeleton";
import type { TreeGeometry } from "../tree/geometry";
import type { WindField, WindSettings } from "../wind/wind-field";
import type { ParamSpec, Params } from "../math/params";
import type { PhysicalMaterial } from "../physics/material";

/** One mesh of the tree with the material the sandbox gave it. */
export interface TreePart {
  readonly role: "bark" | "leaves" | "skeleton";
  readonly mesh: Mesh;
  readonly material: StandardMaterial;
}

/** The tree as the sandbox shows it: the skeleton, the geometry built from it, and its meshes. */
export interface TreeInstance {
  readonly skeleton: TreeSkeleton;
  readonly geometry: TreeGeometry;
  /** Bark tubes. Carries the per-vertex binding as custom attributes (see tree/geometry.ts, BINDING_ATTRIBUTES). */
  readonly bark: Mesh;
  /** Alpha-tested leaf cards, with the same binding. Null when the tree has no leaves. */
  readonly leaves: Mesh | null;
  /** The sandbox's materials for bark and leaves. An animator that needs its own shader code
   *  assigns its own materials and puts these back on dispose. */
  readonly barkMaterial: StandardMaterial;
  readonly leafMaterial: StandardMaterial;
  /** Every mesh the tree shows (bark, leaves, the skeleton drawn as thin tubes), all carrying the
   *  binding. A deforming method deforms them all, so every render mode shows its motion. */
  readonly parts: readonly TreePart[];
  /**
   * For a method that draws its own geometry (Barron's skins, regenerated every step): shows
   * `mesh` in place of the part's own mesh (hidden, out of the shadow map) following the render
   * mode; `null` puts the part's own mesh back. The method owns the substitute and disposes it.
   */
  substitute(role: TreePart["role"], mesh: Mesh | null): void;
}

/** The host's fixed-step clock, read-only to animators. */
export interface ClockView {
  /** Simulation time in seconds after the current step. */
  readonly time: number;
  /** The fixed step in seconds. */
  readonly dt: number;
}

/**
 * What a method may ask of the sandbox besides drawing: change the shared wind as the panel would
 * (a wind arrow dragged in the scene), and frame the camera on a region (a grove). Optional: a
 * context built in a test may leave it out.
 */
export interface AnimatorHost {
  /** As `sandbox.wind(patch)`: validated, shown in the panel, kept in the URL. */
  setWind(patch: Partial<WindSettings>): void;
  /** Frames the camera on a stand of trees `height` tall and `width` across (width 0: the tree alone). */
  frame(height: number, width: number): void;
}

export interface AnimatorContext {
  readonly scene: Scene;
  readonly host?: AnimatorHost;
  readonly tree: TreeInstance;
  readonly wind: WindField;
  /** Seeded: the same seed gives the same frames. */
  readonly rng: Rng;
  /** Parent of everything this view shows; the tree meshes hang under it. */
  readonly root: TransformNode;
  readonly clock: ClockView;
  /** The physical tree's material (wood density, Young's modulus, drag); the methods restart when it changes. Optional: a test's context may leave it out (the default species then). */
  readonly material?: PhysicalMaterial;
}

export interface AnimatorStats {
  /** Milliseconds spent in the last update (CPU side). */
  updateMs: number;
  /** Element counts worth showing ("branches", "vertices", ...). */
  counts: Record<string, number>;
  /** True when the method's state holds NaN or infinity. */
  nonFinite: boolean;
  /** Anything the method wants the stats line to say ("sub-stepping x4"). */
  notes?: string[];
}

/** A per-branch control the panel offers for a selected branch. */
export interface BranchControl {
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly unit: string;
  read(branch: number): number;
}

/**
 * Optional: a method whose branches can be selected and tuned one by one (Habel 2009 Fig. 11:
 * "every single parameter can be set or overridden in real time on a per-branch basis").
 */
export interface BranchEditor {
  /** Highlights a branch; -1 clears the selection. */
  select(branch: number): void;
  selected(): number;
  /** What the panel shows about a branch (name: value). */
  info(branch: number): Record<string, number | boolean | string>;
  /** Overrides a branch's parameters (keys of `controls`; null resets one). Throws RangeError. */
  edit(branch: number, patch: Record<string, number | null>): void;
  readonly controls: Readonly<Record<string, BranchControl>>;
}

/** A command a method offers besides its parameters (Van Haevre 2006 §4.3: "record"). */
export interface AnimatorAction {
  /** kebab-case, stable: `sandbox.action(id)`. */
  readonly id: string;
  readonly label: string;
  readonly help: string;
  readonly enabled: boolean;
  /** Shown highlighted (the recording in use). */
  readonly active?: boolean;
}

/** Optional: commands, and the progress of long work they start (the panel shows a bar). */
export interface AnimatorActions {
  /** The commands now; the list may change as the method's state does. */
  list(): readonly AnimatorAction[];
  /** Runs one; throws RangeError for an unknown id or a disabled action, saying why. */
  run(id: string): void;
  /** Long work under way (a recording), or null. */
  progress(): { text: string; fraction: number } | null;
}

export interface Animator<P extends Params> {
  /** Per-branch selection and overrides, when the method has them. */
  readonly branches?: BranchEditor;
  /** Commands beyond the parameters, when the method has them. */
  readonly actions?: AnimatorActions;
  /** Advance by one fixed step; the host owns time. */
  update(dt: number): void;
  setParams(patch: Partial<P>): void;
  /** World xyz of the skeleton's branch tips after the last update, one triple per branch (tip node order). */
  probe(): Float32Array;
  /**
   * World xyz of one branch's tip after the last update into out[0..2], as probe() has it, for a
   * method whose per-branch work runs on the GPU: without evaluating the whole tree on the CPU
   * (the plotted tip reads one every step). False (out untouched) when there is no such branch.
   */
  probeTip?(branch: number, out: Float64Array): boolean;
  stats(): AnimatorStats;
  /** Leaves the scene as it found it. */
  dispose(): void;
}

export interface AnimatorProvider<P extends Params> {
  /** kebab-case, stable: used in URLs, the automation API and recordings. */
  readonly id: string;
  readonly label: string;
  /** The paper it implements. */
  readonly source: string;
  /** The one declaration of its parameters. Every method declares `damping` (0 to 1). */
  readonly params: ParamSpec<P>;
  /**
   * Values the calibration sets on top of the method's parameters as shown, where a method would
   * otherwise stop being an elastic tree in its winds (sph-particles: unbreakable wood and leaves,
   * or a 20 m/s stage measures twigs falling off). None: the parameters as shown.
   */
  readonly calibrationParams?: Partial<P>;
  create(ctx: AnimatorContext, params: P): Animator<P>;
}

// The registry stores providers of any parameter shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProvider = AnimatorProvider<any>;

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** One map of providers; throws on a duplicate or malformed id. */
export class AnimatorRegistry {
  private readonly map = new Map<string, AnyProvider>();

  register(p: AnyProvider): void {
    if (!KEBAB.test(p.id)) throw new Error(`Animator id "${p.id}" must be kebab-case`);
    if (this.map.has(p.id)) throw new Error(`Animator id "${p.id}" is already registered`);
    const damping = (p.params as Record<string, { kind: string; min?: number; max?: number }>).damping;
    if (!damping || damping.kind !== "number" || damping.min !== 0 || damping.max !== 1) {
      throw new Error(`Animator "${p.id}" must declare a number parameter "damping" from 0 to 1`);
    }
    this.map.set(p.id, p);
  }

  get(id: string): AnyProvider {
    const p = this.map.get(id);
    if (!p) throw new RangeError(`Unknown method "${id}"; the methods are: ${this.ids().join(", ")}`);
    return p;
  }

  has(id: string): boolean {
    return this.map.has(id);
  }

  ids(): string[] {
    return [...this.map.keys()];
  }

  list(): AnyProvider[] {
    return [...this.map.values()];
  }
}
