/**
 * The procedural-wind method (Zioma 2007, GPU Gems 3 ch. 6) behind the Animator contract.
 * A thin adapter. Each step the twin does the per-tree part of the simulation (the trunk's
 * response, the uniforms); the per-branch simulation and the ancestors' concatenation run in a
 * GPU pass into a float texture (§6.5.1's stream-out split; gpu-pass.ts), which the material
 * plugin's skinning and the shadows read. Where the pass cannot run (no float render targets,
 * NullEngine, a tree deeper than the pass walks, a wind primitive it does not know) the twin
 * steps every branch on the CPU and uploads the texture, and the stats' notes say so. probe()
 * evaluates the twin when asked, probeTip() one branch's chain.
 */
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import type { ShaderMaterial } from "@babylonjs/core/Materials/shaderMaterial";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Scene } from "@babylonjs/core/scene";
import type { Animator, AnimatorContext, AnimatorProvider, AnimatorStats, TreeInstance } from "../animator";
import { floatTexture } from "../float-texture";
import { BRANCHES_PER_ROW, ProceduralWindTwin, TEXELS_PER_BRANCH } from "./twin";
import { ProceduralWindPluginMaterial, type BranchDataSource } from "./plugin";
import { copyStandardMaterial, deformedShadows } from "../shadow-depth";
import { deformDepthMaterial, refreshDepthTextures } from "../deform-depth-material";
import type { DeformShader } from "../deform-shader";
import { branchPassUnsupported, MAX_CHAIN } from "../branch-pass";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import type { TreeSkeleton } from "../../tree/skeleton";
import { BRANCH_SAMPLER, PROCEDURAL_WIND_FUNCTIONS } from "./procedural-wind.glsl";
import { proceduralWindParams, type ProceduralWindParams } from "./params";
import { ProceduralWindGpuPass } from "./gpu-pass";
import { defaultMaterial } from "../../physics/material";

export type { ProceduralWindParams } from "./params";

/** Creates the RGBA32F, NEAREST branch data texture of a twin. */
export function createBranchTexture(twin: ProceduralWindTwin, scene: Scene): RawTexture {
  return floatTexture(twin.branchData, twin.textureWidth, twin.textureHeight, scene, "procedural-wind branches");
}

/** The deepest chain of ancestors in the skeleton (branches from the root to a twig, the twig included). */
export function chainDepth(s: TreeSkeleton): number {
  let deepest = 0;
  for (let b = 0; b < s.branchCount; b++) {
    let n = 0;
    for (let c = b; c >= 0 && n <= s.branchCount; c = s.branchParent[c]) n++;
    deepest = Math.max(deepest, n);
  }
  return deepest;
}

/** The animator; exported for the GPU check and tests. */
export class ProceduralWindAnimator implements Animator<ProceduralWindParams>, BranchDataSource {
  readonly twin: ProceduralWindTwin;
  /** The CPU's upload of the twin's branch data: every step on the CPU path; the pass's static input otherwise. */
  readonly dataTexture: RawTexture;
  /** The per-branch pass, when this engine can run it (null: the CPU path only). */
  readonly gpu: ProceduralWindGpuPass | null;
  /** The plugin materials, one per tree part, in the order of ctx.tree.parts. */
  readonly materials: StandardMaterial[];
  private readonly depthMaterials: ShaderMaterial[] = [];
  private readonly undoShadows: (() => void)[] = [];
  private params: ProceduralWindParams;
  private readonly ctx: AnimatorContext;
  private readonly tips: Float32Array;
  /** The tree's world translation (place) and scratch for the tips' world positions (probe). */
  private readonly origin = new Vector3();
  private readonly tipScratch = new Vector3();
  private readonly tipLocal = new Float64Array(3);
  /** The tree's world matrix at the last update (probeTip reads the tips of that step). */
  private readonly world = new Matrix();
  /** Why the pass does not run (null: it does), for the stats' notes. */
  private readonly cpuReason: string | null;
  /** This step ran on the GPU. */
  private onGpu = false;
  private disposed = false;
  /** The vertex deformation for the shared depth material and GPU check. */
  readonly deformShader: DeformShader;

  constructor(ctx: AnimatorContext, params: ProceduralWindParams) {
    this.ctx = ctx;
    this.params = { ...params };
    const tree = ctx.tree;
    this.twin = new ProceduralWindTwin(tree.skeleton, this.params, ctx.rng.fork(0x2007), ctx.material ?? defaultMaterial());
    this.tips = new Float32Array(3 * tree.skeleton.branchCount);
    this.dataTexture = createBranchTexture(this.twin, ctx.scene);
    const unsupported = branchPassUnsupported(ctx.scene.getEngine());
    const depth = chainDepth(tree.skeleton);
    this.cpuReason = unsupported ?? (depth > MAX_CHAIN ? `a branch hangs ${depth} deep, past the pass's ${MAX_CHAIN}` : null);
    this.gpu = this.cpuReason ? null : new ProceduralWindGpuPass(ctx.scene, this.twin, tree.skeleton, this.dataTexture, ctx.wind);
    this.deformShader = {
      glsl: `uniform highp sampler2D ${BRANCH_SAMPLER};\n${PROCEDURAL_WIND_FUNCTIONS}`,
      call: `pwDeform(p, n, ${BINDING_ATTRIBUTES.branchIndex}, ${BINDING_ATTRIBUTES.wVector});`,
      attributes: [{ name: BINDING_ATTRIBUTES.branchIndex, size: 1 }, { name: BINDING_ATTRIBUTES.wVector, size: 4 }],
      uniforms: [],
      uniformData: new Float32Array(0),
      textures: () => ({ [BRANCH_SAMPLER]: this.branchTexture }),
      twin: (position, normal, attributes, out) => {
        this.twin.completeStep();
        this.twin.deformVertex(position, normal, attributes[0][0], attributes[1], out);
      },
      passCheck: async () => {
        if (!this.onGpu || !this.gpu) return null;
        this.twin.completeStep();
        return this.gpu.pass.compare(this.twin.branchData, this.twin.branchCount, TEXELS_PER_BRANCH, BRANCHES_PER_ROW, [1, 5, 6]);
      },
    };
    this.materials = tree.parts.map((part) => {
      const m = copyStandardMaterial(part.material, `procedural-wind ${part.role}`, ctx.scene);
      new ProceduralWindPluginMaterial(m, this);
      part.mesh.material = m;
      // Shadows follow the moving tree, through a depth-only twin of the material.
      const alpha = m.needAlphaTesting() && m.diffuseTexture ? { texture: m.diffuseTexture, cutOff: m.alphaCutOff } : null;
      this.undoShadows.push(deformedShadows(ctx.scene, part.mesh, () => {
        const d = deformDepthMaterial(`procedural-wind ${part.role} depth`, ctx.scene, this.deformShader, alpha, m.backFaceCulling);
        this.depthMaterials.push(d);
        return d;
      }));
      return m;
    });
    this.place();
  }

  /** The branch data the vertex shaders read this step: the pass's output, or the CPU's upload. */
  get branchTexture(): BaseTexture {
    return this.onGpu && this.gpu ? this.gpu.pass.texture : this.dataTexture;
  }

  branchDataReady(): boolean {
    return this.onGpu && this.gpu ? this.gpu.pass.isReady() : this.dataTexture.isReady();
  }

  /** Whether the last step's per-branch simulation ran on the GPU. */
  get simulatesOnGpu(): boolean {
    return this.onGpu;
  }

  /** The plugin material on the bark (for tests and the GPU check). */
  get barkMaterial(): StandardMaterial {
    return this.materials[this.ctx.tree.parts.findIndex((p) => p.role === "bark")];
  }

  /** The tree this animator moves. */
  get tree(): TreeInstance {
    return this.ctx.tree;
  }

  /**
   * The tree's world translation, where the local wind is sampled (§6.3.1): read at every step,
   * so a tree moved while the method runs samples the wind where it now stands, whether or not
   * anyone reads its tips (probe() changes nothing).
   */
  private place(): void {
    const m = this.ctx.tree.bark.computeWorldMatrix(true);
    this.world.copyFrom(m);
    m.getTranslationToRef(this.origin);
    this.twin.setPlacement(this.origin.x, this.origin.y, this.origin.z);
  }

  update(_dt: number): void {
    this.place();
    const twin = this.twin;
    twin.prepare(this.ctx.clock.time, this.ctx.wind);
    const gpu = !!this.gpu && this.gpu.run(twin);
    if (!gpu) {
      twin.completeStep();
      this.dataTexture.update(twin.branchData);
    }
    if (gpu !== this.onGpu) {
      this.onGpu = gpu;
      for (const m of this.depthMaterials) refreshDepthTextures(m, this.deformShader);
    }
  }

  setParams(patch: Partial<ProceduralWindParams>): void {
    this.params = { ...this.params, ...patch };
    this.twin.setParams(this.params);
    this.dataTexture.update(this.twin.branchData);
    this.gpu?.pass.invalidate();
  }

  probe(): Float32Array {
    this.twin.completeStep();
    const world = this.ctx.tree.bark.computeWorldMatrix(true);
    const v = this.tipScratch;
    for (let b = 0; b < this.twin.branchCount; b++) {
      this.twin.tipPosition(b, this.tips, 3 * b);
      Vector3.TransformCoordinatesFromFloatsToRef(this.tips[3 * b], this.tips[3 * b + 1], this.tips[3 * b + 2], world, v);
      this.tips[3 * b] = v.x; this.tips[3 * b + 1] = v.y; this.tips[3 * b + 2] = v.z;
    }
    return this.tips.slice();
  }

  /** World xyz of branch b's tip after the last update, from its own chain alone (the rest of the tree is not evaluated). */
  probeTip(b: number, out: Float64Array): boolean {
    const twin = this.twin, local = this.tipLocal;
    if (!(Number.isInteger(b) && b >= 0 && b < twin.branchCount)) return false;
    if (!twin.isComplete) twin.composeChain(b);
    twin.tipPosition(b, local, 0);
    const v = this.tipScratch;
    Vector3.TransformCoordinatesFromFloatsToRef(local[0], local[1], local[2], this.world, v);
    out[0] = v.x; out[1] = v.y; out[2] = v.z;
    return true;
  }

  stats(): AnimatorStats {
    const tree = this.ctx.tree;
    const vertices = tree.bark.getTotalVertices() + (tree.leaves ? tree.leaves.getTotalVertices() : 0);
    const notes = this.onGpu ? undefined
      : [`per-branch simulation on the CPU: ${this.cpuReason ?? "a wind primitive the GPU pass does not evaluate"}`];
    // updateMs: the host times update() (no clocks in app/animators). On the GPU the CPU sees the
    // uniforms (the trunk, the wind) and checks those; the branches' values stay on the GPU.
    const nonFinite = this.onGpu ? !this.gpu!.isFinite() : this.twin.hasNonFinite();
    return { updateMs: 0, counts: { branches: this.twin.branchCount, vertices }, nonFinite, notes };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const undo of this.undoShadows) undo();
    for (const part of this.ctx.tree.parts) part.mesh.material = part.material;
    for (const m of this.materials) {
      // Keep the shared textures (diffuse, opacity, bump): they belong to the sandbox's materials.
      m.dispose(false, false);
    }
    this.gpu?.dispose();
    this.dataTexture.dispose();
  }
}

export const proceduralWindProvider: AnimatorProvider<ProceduralWindParams> = {
  id: "procedural-wind",
  label: "Procedural wind (Zioma 2007)",
  source: "Zioma 2007, GPU-Generated Procedural Wind Animations for Trees (GPU Gems 3, ch. 6)",
  params: proceduralWindParams,
  create(ctx: AnimatorContext, params: ProceduralWindParams): Animator<ProceduralWindParams> {
    return new ProceduralWindAnimator(ctx, params);
  },
};
