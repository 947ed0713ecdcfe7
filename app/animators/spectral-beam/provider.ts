/**
 * The spectral-beam method (Habel, Kusternig and Wimmer 2009) behind the Animator contract. A thin
 * adapter: the twin keeps the branch data and motion textures and the per-frame uniforms; each
 * branch's composition (its ancestors' eqs. 20-23, its motion-texture lookup) runs in a GPU pass
 * into a float texture (gpu-pass.ts, §6's branch data texture); the material plugin deforms every
 * vertex in the vertex shader, shadows follow through the shared deforming depth material. Where
 * the pass cannot run (no float render targets, NullEngine, a tree deeper than the pass walks) the
 * twin composes on the CPU and uploads, and the stats' notes say so. probe() composes on the CPU
 * when asked, probeTip() one branch's chain.
 */
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import type { ShaderMaterial } from "@babylonjs/core/Materials/shaderMaterial";
import { Constants } from "@babylonjs/core/Engines/constants";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Scene } from "@babylonjs/core/scene";
import type { Animator, AnimatorContext, AnimatorProvider, AnimatorStats, BranchEditor, TreeInstance } from "../animator";
import { copyStandardMaterial, deformedShadows } from "../shadow-depth";
import { deformDepthMaterial, refreshDepthTextures } from "../deform-depth-material";
import type { DeformShader } from "../deform-shader";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import { BRANCHES_PER_ROW, LEAF_TILE, TEXELS_PER_BRANCH, tileFloats } from "./layout";
import { branchPassUnsupported, MAX_CHAIN } from "../branch-pass";
import { compositionParents, SpectralBeamGpuPass } from "./gpu-pass";
import { SpectralBeamTwin, type BranchOverride } from "./twin";
import { SpectralBeamPluginMaterial, type SpectralBeamBindings } from "./plugin";
import { BRANCH_SAMPLER, LEAF_SAMPLER, SPECTRAL_BEAM_DECLARATIONS, SPECTRAL_BEAM_FUNCTIONS, UNIFORM_NAMES, HARDWARE_FILTER_DEFINE, POSITION_ONLY_DEFINE, LEAVES_DEFINE } from "./spectral-beam.glsl";
import { spectralBeamParams, type SpectralBeamParams } from "./params";
import { defaultMaterial } from "../../physics/material";

export type { SpectralBeamParams } from "./params";

function floatTexture(data: Float32Array, width: number, height: number, scene: Scene, name: string, linearRepeat = false): RawTexture {
  const tex = new RawTexture(
    data, width, height, Constants.TEXTUREFORMAT_RGBA, scene, false, false,
    linearRepeat ? Constants.TEXTURE_BILINEAR_SAMPLINGMODE : Constants.TEXTURE_NEAREST_SAMPLINGMODE, Constants.TEXTURETYPE_FLOAT,
  );
  tex.name = name;
  tex.wrapU = tex.wrapV = linearRepeat ? Constants.TEXTURE_WRAP_ADDRESSMODE : Constants.TEXTURE_CLAMP_ADDRESSMODE;
  return tex;
}

/** The leaf tile of the twin's motion atlas (a view, no copy). */
function leafTile(twin: SpectralBeamTwin): Float32Array {
  const n = tileFloats(twin.motionSize);
  return twin.motionAtlas.subarray(LEAF_TILE * n, (LEAF_TILE + 1) * n);
}

export class SpectralBeamAnimator implements Animator<SpectralBeamParams> {
  readonly twin: SpectralBeamTwin;
  readonly materials: StandardMaterial[];
  readonly deformShader: DeformShader;
  readonly branches: BranchEditor;
  private readonly bindings: SpectralBeamBindings;
  private readonly depthMaterials: ShaderMaterial[] = [];
  private readonly plugins: SpectralBeamPluginMaterial[] = [];
  private readonly undoShadows: (() => void)[] = [];
  private readonly ctx: AnimatorContext;
  private readonly tips: Float32Array;
  private readonly origin = new Vector3();
  private readonly tipLocal = new Float64Array(3);
  /** The tree's world matrix at the last update (probeTip reads the tips of that step). */
  private readonly world = new Matrix();
  /** The CPU's upload of the twin's branch data: every step on the CPU path; the pass's static input otherwise. */
  readonly dataTexture: RawTexture;
  /** The per-branch pass, when this engine can run it (null: the CPU path, for `cpuReason`). */
  readonly gpu: SpectralBeamGpuPass | null;
  private readonly cpuReason: string | null;
  private branchVersion: number;
  private atlasVersion: number;
  private disposed = false;

  constructor(ctx: AnimatorContext, params: SpectralBeamParams) {
    this.ctx = ctx;
    const tree = ctx.tree;
    this.twin = new SpectralBeamTwin(tree.skeleton, params, ctx.rng.fork(0x2009), ctx.material ?? defaultMaterial());
    this.tips = new Float32Array(3 * tree.skeleton.branchCount);
    const twin = this.twin;
    const hardwareFilter = !!ctx.scene.getEngine().getCaps().textureFloatLinearFiltering;
    this.dataTexture = floatTexture(twin.branchData, twin.textureWidth, twin.textureHeight, ctx.scene, "spectral-beam branches");
    const parents = compositionParents(twin, tree.skeleton);
    const unsupported = branchPassUnsupported(ctx.scene.getEngine());
    this.cpuReason = unsupported ?? (parents.depth > MAX_CHAIN ? `a branch hangs ${parents.depth} deep, past the pass's ${MAX_CHAIN}` : null);
    this.gpu = this.cpuReason ? null : new SpectralBeamGpuPass(ctx.scene, twin, tree.skeleton, parents, this.dataTexture);
    const gpu = this.gpu;
    this.bindings = {
      branchTexture: gpu ? gpu.pass.texture : this.dataTexture,
      branchReady: () => (gpu ? gpu.pass.isReady() : this.dataTexture.isReady()),
      leafTexture: floatTexture(leafTile(twin), twin.motionSize, twin.motionSize, ctx.scene, "spectral-beam leaf motion", hardwareFilter),
      hardwareFilter,
      highlight: false,
      uniforms: twin.uniforms,
    };
    this.branchVersion = twin.branchVersion;
    this.atlasVersion = twin.atlasVersion;
    // The shader for the GPU check and the leaves' shadows; the bark's shadows leave the leaf
    // attributes and code out (as its visible material does, SB_LEAVES).
    const shader = (leaves: boolean): DeformShader => ({
      glsl: `${leaves ? `#define ${LEAVES_DEFINE}\n` : ""}${hardwareFilter ? `#define ${HARDWARE_FILTER_DEFINE}\n` : ""}${SPECTRAL_BEAM_DECLARATIONS}\n${SPECTRAL_BEAM_FUNCTIONS}`,
      call: leaves
        ? `sbDeform(p, n, ${BINDING_ATTRIBUTES.branchIndex}, ${BINDING_ATTRIBUTES.wVector}, ${BINDING_ATTRIBUTES.leafFrame}, ${BINDING_ATTRIBUTES.leafCoord});`
        : `sbDeform(p, n, ${BINDING_ATTRIBUTES.branchIndex}, ${BINDING_ATTRIBUTES.wVector}, vec4(0.0), vec2(0.0));`,
      attributes: [
        { name: BINDING_ATTRIBUTES.branchIndex, size: 1 }, { name: BINDING_ATTRIBUTES.wVector, size: 4 },
        ...(leaves ? [{ name: BINDING_ATTRIBUTES.leafFrame, size: 4 as const }, { name: BINDING_ATTRIBUTES.leafCoord, size: 2 as const }] : []),
      ],
      depthDefines: [POSITION_ONLY_DEFINE],
      uniforms: UNIFORM_NAMES,
      uniformData: twin.uniforms,
      textures: () => ({ [BRANCH_SAMPLER]: this.bindings.branchTexture, [LEAF_SAMPLER]: this.bindings.leafTexture }),
      twin: leaves
        ? (position, normal, a, out) => { twin.compose(); twin.deformVertex(position, normal, a[0][0], a[1], a[2], a[3], out); }
        : (position, normal, a, out) => { twin.compose(); twin.deformVertex(position, normal, a[0][0], a[1], NO_LEAF, NO_COORD, out); },
      passCheck: async () => {
        if (!this.gpu) return null;
        twin.compose();
        return this.gpu.pass.compare(twin.branchData, twin.branchCount, TEXELS_PER_BRANCH, BRANCHES_PER_ROW, [3, 4]);
      },
    });
    this.deformShader = shader(true);
    const barkShader = shader(false);
    this.materials = tree.parts.map((part) => {
      const m = copyStandardMaterial(part.material, `spectral-beam ${part.role}`, ctx.scene);
      this.plugins.push(new SpectralBeamPluginMaterial(m, this.bindings, part.role === "leaves"));
      part.mesh.material = m;
      const alpha = m.needAlphaTesting() && m.diffuseTexture ? { texture: m.diffuseTexture, cutOff: m.alphaCutOff } : null;
      this.undoShadows.push(deformedShadows(ctx.scene, part.mesh, () => {
        const depth = deformDepthMaterial(`spectral-beam ${part.role} depth`, ctx.scene, part.role === "leaves" ? this.deformShader : barkShader, alpha, m.backFaceCulling);
        this.depthMaterials.push(depth);
        return depth;
      }));
      return m;
    });
    this.world.copyFrom(tree.bark.computeWorldMatrix(true));
    this.branches = {
      select: (b) => {
        if (b >= twin.branchCount) throw new RangeError(`branch must be from 0 to ${twin.branchCount - 1} (or -1 for none); got ${b}`);
        twin.select(b < 0 ? -1 : b);
        if (this.bindings.highlight !== b >= 0) {
          this.bindings.highlight = b >= 0;
          for (const p of this.plugins) p.refreshDefines();
        }
        this.upload();
      },
      selected: () => twin.selected,
      info: (b) => {
        const i = twin.branchInfo(b);
        return {
          branch: i.branch, level: i.level, "length (m)": round(i.length, 3), "taper ratio": round(i.taperRatio, 3),
          "f_h (Hz)": round(i.resonance, 3), "mass (kg)": round(i.mass, 3), "damping ratio": round(i.dampingRatio, 3),
          "air damping ratio": round(i.airDampingRatio, 3),
          stiffness: i.stiffness, "own damping": i.ownDamping,
        };
      },
      edit: (b, patch: BranchOverride) => {
        twin.setBranchOverride(b, patch);
        this.upload();
      },
      controls: {
        stiffness: { label: "Branch stiffness", min: 0.05, max: 20, step: 0.05, unit: "×", read: (b) => twin.branchInfo(b).stiffness },
        damping: { label: "Branch damping ratio", min: 0.02, max: 2, step: 0.01, unit: "ζ", read: (b) => twin.branchInfo(b).dampingRatio },
      },
    };
  }

  get tree(): TreeInstance {
    return this.ctx.tree;
  }

  /** Sends what changed in the twin to the GPU (on the GPU path: the static branch data when edited, the pass's inputs and uniforms). */
  private upload(): void {
    const twin = this.twin;
    if (twin.branchVersion !== this.branchVersion) {
      this.dataTexture.update(twin.branchData);
      this.branchVersion = twin.branchVersion;
      this.gpu?.pass.invalidate();
    }
    if (this.gpu) this.gpu.run(twin);
    if (twin.atlasVersion !== this.atlasVersion) {
      // Only the leaves' textures live on the GPU; the branches' are read per branch (BranchComposer, compose.ts).
      const tex = this.bindings.leafTexture;
      if (tex.getSize().width !== twin.motionSize) {
        tex.dispose();
        this.bindings.leafTexture = floatTexture(leafTile(twin), twin.motionSize, twin.motionSize, this.ctx.scene, "spectral-beam leaf motion", this.bindings.hardwareFilter);
        for (const m of this.depthMaterials) refreshDepthTextures(m, this.deformShader);
      } else {
        tex.update(leafTile(twin));
      }
      this.atlasVersion = twin.atlasVersion;
    }
  }

  update(_dt: number): void {
    // Where the tree stands: the wind's gusts and the primitives are felt at its crown there.
    const m = this.ctx.tree.bark.computeWorldMatrix(true);
    this.world.copyFrom(m);
    m.getTranslationToRef(this.origin);
    this.twin.setPlacement(this.origin.x, this.origin.y, this.origin.z);
    this.twin.advance(this.ctx.clock.time, this.ctx.wind);
    if (!this.gpu) this.twin.compose();
    this.upload();
  }

  /** The branch data the vertex shaders read: the pass's output, or the CPU's upload. */
  get branchTexture(): BaseTexture {
    return this.bindings.branchTexture;
  }

  setParams(patch: Partial<SpectralBeamParams>): void {
    this.twin.setParams({ ...this.twin.parameters, ...patch });
    this.upload();
  }

  probe(): Float32Array {
    this.twin.compose();
    const world = this.ctx.tree.bark.computeWorldMatrix(true);
    const v = this.origin;
    for (let b = 0; b < this.twin.branchCount; b++) {
      this.twin.tipPosition(b, this.tips, 3 * b);
      Vector3.TransformCoordinatesFromFloatsToRef(this.tips[3 * b], this.tips[3 * b + 1], this.tips[3 * b + 2], world, v);
      this.tips[3 * b] = v.x; this.tips[3 * b + 1] = v.y; this.tips[3 * b + 2] = v.z;
    }
    return this.tips.slice();
  }

  /** World xyz of branch b's tip after the last update, from its own chain alone on the GPU path (the rest of the tree is not composed). */
  probeTip(b: number, out: Float64Array): boolean {
    const twin = this.twin, local = this.tipLocal;
    if (!(Number.isInteger(b) && b >= 0 && b < twin.branchCount)) return false;
    if (this.gpu) this.gpu.chain.composeChain(twin, b, twin.branchComposer.easeStart, twin.branchData);
    else twin.compose();
    twin.tipPosition(b, local, 0);
    Vector3.TransformCoordinatesFromFloatsToRef(local[0], local[1], local[2], this.world, this.origin);
    out[0] = this.origin.x; out[1] = this.origin.y; out[2] = this.origin.z;
    return true;
  }

  stats(): AnimatorStats {
    const tree = this.ctx.tree;
    const vertices = tree.bark.getTotalVertices() + (tree.leaves ? tree.leaves.getTotalVertices() : 0);
    const pending = this.twin.pendingTextures;
    const notes = pending > 0 ? [`regenerating ${pending} motion texture${pending > 1 ? "s" : ""}`] : [];
    if (this.cpuReason) notes.push(`per-branch composition on the CPU: ${this.cpuReason}`);
    return {
      updateMs: 0, // the host times update() (no clocks in app/animators)
      counts: { branches: this.twin.branchCount, vertices, leaves: tree.skeleton.leafCount, "motion texture": this.twin.motionSize },
      // On the GPU path the CPU checks what it computes (the uniforms); the branches' values stay on the GPU.
      nonFinite: this.twin.hasNonFinite(!this.gpu),
      notes: notes.length > 0 ? notes : undefined,
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const undo of this.undoShadows) undo();
    const tree = this.ctx.tree;
    for (const part of tree.parts) part.mesh.material = part.material;
    for (const m of this.materials) m.dispose(false, false); // the shared textures belong to the sandbox
    this.gpu?.dispose();
    this.dataTexture.dispose();
    this.bindings.leafTexture.dispose();
  }
}

const NO_LEAF = [0, 0, 0, 0];
const NO_COORD = [0, 0];

function round(x: number, digits: number): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

export const spectralBeamProvider: AnimatorProvider<SpectralBeamParams> = {
  id: "spectral-beam",
  label: "Spectral beams (Habel 2009)",
  source: "Habel, Kusternig and Wimmer 2009, Physically Guided Animation of Trees (Eurographics)",
  params: spectralBeamParams,
  create(ctx: AnimatorContext, params: SpectralBeamParams): Animator<SpectralBeamParams> {
    return new SpectralBeamAnimator(ctx, params);
  },
};
