/**
 * The forest around the tree on show (Zioma 2007 §6.1: "large open environments with massive amounts of vegetation"):
 * `forest({ trees, area, variants, seed })` validates (a RangeError names what is allowed), builds
 * the variants' branch tables and the instanced meshes (forest-view.ts), and replaces the forest
 * only once the new one is built, so a bad spec leaves what a person had. Every frame, before the
 * scene draws, the wind texture is refilled for the clock's time and, when the camera has moved,
 * the trees' levels of detail are reassigned. A new tree or material rebuilds the forest with the
 * same spec. The motion is a function of the clock's time (forest-motion.ts): same seed, same frames.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import type { Camera } from "@babylonjs/core/Cameras/camera";
import type { PhysicalMaterial } from "../physics/material";
import type { TreeGeometry } from "../tree/geometry";
import type { TreeSkeleton } from "../tree/skeleton";
import type { WindField } from "../wind/wind-field";
import { ForestMotion, forestVariantTable, type ForestVariantTable } from "../forest/forest-motion";
import { DEFAULT_LOD, formatLod, validateLod, type ForestLodBands } from "../forest/forest-lod";
import { CURRENT_VARIANT, formatForest, parseForest, scatterForest, validateForestSpec, type ForestSpec } from "../forest/scatter";
import { isTreePreset, presetTree } from "./tree-source";
import type { SandboxChange } from "./events";
import { ForestView, type ForestVariant } from "./forest-view";

/** What the forest needs of the host. */
export interface ForestHost {
  readonly scene: Scene;
  readonly wind: WindField;
  time(): number;
  /** The first view's camera: the levels of detail follow it. */
  camera(): Camera;
  /** The tree on show and its materials (null before the first tree). */
  shown(): { skeleton: TreeSkeleton; geometry: TreeGeometry; bark: StandardMaterial; leaves: StandardMaterial } | null;
  material(): PhysicalMaterial;
  /** The method of the first view. */
  method(): string;
  /** Views on show (compare views: more than one). */
  views(): number;
  changed(what: SandboxChange): void;
  /** Frames the camera on a stand `height` tall and `width` across. */
  frame(height: number, width: number): void;
  /** The most vertices the forest may draw a frame on this renderer. */
  readonly vertexBudget: number;
}

/** Vertices a frame's forest may draw: a software renderer (SwiftShader, llvmpipe) takes about 0.7 s per million. */
export const FOREST_VERTEX_BUDGET = { software: 3_000_000, gpu: 40_000_000 } as const;

/** `sandbox.forestInfo()`: the forest on show. */
export interface ForestInfo extends ForestSpec {
  lod: ForestLodBands;
  /** Trees drawn at each level of detail (near, middle, far) after the last frame. */
  levels: number[];
  /** Vertices the trees on screen draw a frame, the budget, and the share of the bands in use to stay within it (1: as set). */
  drawn: { vertices: number; budget: number; lodScale: number };
  /** Chunks of ground on screen after the last frame, and in all (those off screen are not drawn). */
  chunks: [number, number];
  /** Vertices of one tree of each variant at each level of detail (bark and leaves). */
  vertices: number[][];
  /** What moves the forest and the tree on show. */
  note: string;
}

const GPU_METHODS = new Set(["procedural-wind"]);

export class ForestControl {
  private spec: ForestSpec | null = null;
  private bands: ForestLodBands = { ...DEFAULT_LOD };
  private view: ForestView | null = null;
  private motions: ForestMotion[] = [];
  private readonly observer: Observer<Scene>;
  private readonly cameraObserver: Observer<Camera>;
  private readonly tables = new Map<string, ForestVariantTable>();
  private readonly scratch = new Float64Array(8);

  constructor(private readonly host: ForestHost) {
    this.observer = host.scene.onBeforeRenderObservable.add(() => this.beforeRender());
    // Culling and levels of detail follow the first view's camera, once its matrices are this frame's.
    this.cameraObserver = host.scene.onBeforeCameraRenderObservable.add((camera) => {
      if (this.view && camera === host.camera()) this.view.cull(camera, host.views());
    });
  }

  /** The forest as asked, or null (one tree). */
  get current(): ForestSpec | null {
    return this.spec ? { ...this.spec, variants: [...this.spec.variants] } : null;
  }

  /** Shows a forest (validated; replaced only once built), or none (null). */
  set(spec: Partial<ForestSpec> | null): ForestInfo | null {
    if (spec === null) {
      this.clear();
      this.spec = null;
      this.host.changed("forest");
      return null;
    }
    const full = validateForestSpec(spec, (n) => n === CURRENT_VARIANT || isTreePreset(n));
    this.build(full);
    this.host.changed("forest");
    return this.info();
  }

  /** The page address's forest: validated now, built with the tree (rebuild()). */
  restore(text: string): void {
    this.spec = validateForestSpec(parseForest(text), (n) => n === CURRENT_VARIANT || isTreePreset(n));
  }

  /** The page address's texts: the forest ("" for none) and its bands. */
  get text(): string {
    return this.spec ? formatForest(this.spec) : "";
  }
  get lodText(): string {
    return formatLod(this.bands);
  }

  /** Sets the levels of detail's distance bands (validated). */
  setLod(patch: Partial<ForestLodBands>): ForestLodBands {
    this.bands = validateLod(patch, this.bands);
    this.view?.setBands(this.bands);
    this.host.changed("forest");
    return { ...this.bands };
  }

  get lod(): ForestLodBands {
    return { ...this.bands };
  }

  info(): ForestInfo | null {
    const s = this.spec, v = this.view;
    if (!s || !v) return null;
    const method = this.host.method();
    const note = GPU_METHODS.has(method)
      ? "Every tree moves in the vertex shader by Zioma's method at the wind where it stands."
      : `The forest moves by Zioma's method in the vertex shader; ${method} animates the tree in the middle only.`;
    return {
      ...s, variants: [...s.variants], lod: { ...this.bands }, levels: v.levelCounts(), note,
      chunks: [v.chunksOnScreen, v.buckets.chunks * v.buckets.chunks],
      drawn: { vertices: v.drawnVertices, budget: v.vertexBudget, lodScale: v.lodScale },
      vertices: v.levels.map((l) => l.bark.map((b, i) => b.vertexCount + (l.leaves ? l.leaves[i].vertexCount : 0))),
    };
  }

  /** The flat xyz of every forest tree's top at the clock's time, in the placement's order. */
  probe(): Float32Array {
    const v = this.view;
    if (!v) return new Float32Array(0);
    const t = this.host.time();
    v.grid.fill(this.host.wind, t);
    const p = v.placement, out = new Float32Array(3 * p.count), s = this.scratch, o = new Float64Array(3);
    for (let k = 0; k < p.count; k++) {
      s[0] = p.x[k]; s[1] = p.z[k]; s[2] = p.phase[k]; s[3] = 1 / p.stiffness[k];
      s[4] = Math.cos(p.yaw[k]); s[5] = Math.sin(p.yaw[k]); s[6] = 1; s[7] = 1;
      this.motions[p.variant[k]].topPosition(t, s.subarray(0, 4), s.subarray(4, 8), p.scale[k], o, 0);
      out[3 * k] = o[0]; out[3 * k + 1] = o[1]; out[3 * k + 2] = o[2];
    }
    return out;
  }

  /** The view (for tests and the GPU check). */
  get shownView(): ForestView | null {
    return this.view;
  }

  /** A new tree or material: the same forest again around it. */
  rebuild(): void {
    this.tables.clear();
    if (!this.spec) return;
    try {
      this.build(this.spec);
    } catch {
      this.clear();
    }
  }

  private build(spec: ForestSpec): void {
    const shown = this.host.shown();
    if (!shown) throw new Error("forest: there is no tree on show yet");
    const material = this.host.material();
    const variants: ForestVariant[] = spec.variants.map((name) => {
      const tree = name === CURRENT_VARIANT ? shown : { ...presetTree(name), bark: shown.bark, leaves: shown.leaves };
      let table = this.tables.get(name);
      if (!table) this.tables.set(name, (table = forestVariantTable(tree.skeleton, material)));
      return { name, skeleton: tree.skeleton, geometry: tree.geometry, table, bark: shown.bark, leaves: shown.leaves };
    });
    const view = new ForestView(this.host.scene, variants, scatterForest(spec), spec.area, this.bands, this.host.vertexBudget);
    // A forest where there was none: the camera steps back to show the trees around the one on show.
    if (!this.view) this.host.frame(view.height, Math.min(spec.area * 0.6, 70));
    this.clear();
    this.view = view;
    // The levels and the chunks on screen for the camera as it is (the next frame looks again).
    view.cull(this.host.camera(), this.host.views());
    this.motions = variants.map((v) => new ForestMotion(v.table, view.grid));
    this.spec = spec;
  }

  private beforeRender(): void {
    const v = this.view;
    if (!v) return;
    v.update(this.host.time(), this.host.wind);
  }

  private clear(): void {
    this.view?.dispose();
    this.view = null;
    this.motions = [];
  }

  dispose(): void {
    this.observer.remove();
    this.cameraObserver.remove();
    this.clear();
  }
}
