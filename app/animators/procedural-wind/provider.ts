/**
 * The procedural-wind method (Zioma 2007, GPU Gems 3 ch. 6) behind the Animator contract.
 * A thin adapter: the twin simulates every branch per frame (§6.4, §6.5.1), the quaternions go
 * to a float data texture, and the material plugin skins every vertex in the vertex shader.
 */
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { Scene } from "@babylonjs/core/scene";
import type { Animator, AnimatorContext, AnimatorProvider, AnimatorStats, TreeInstance } from "../animator";
import { floatTexture } from "../float-texture";
import { ProceduralWindTwin } from "./twin";
import { ProceduralWindPluginMaterial } from "./plugin";
import { copyStandardMaterial, deformedShadows } from "../shadow-depth";
import { deformDepthMaterial } from "../deform-depth-material";
import type { DeformShader } from "../deform-shader";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import { BRANCH_SAMPLER, PROCEDURAL_WIND_FUNCTIONS } from "./procedural-wind.glsl";
import { proceduralWindParams, type ProceduralWindParams } from "./params";
import { defaultMaterial } from "../../physics/material";

export type { ProceduralWindParams } from "./params";

/** Creates the RGBA32F, NEAREST branch data texture of a twin. */
export function createBranchTexture(twin: ProceduralWindTwin, scene: Scene): RawTexture {
  return floatTexture(twin.branchData, twin.textureWidth, twin.textureHeight, scene, "procedural-wind branches");
}

/** A StandardMaterial with the sandbox material's look and the procedural-wind plugin. */
function windMaterial(source: StandardMaterial, name: string, scene: Scene, texture: RawTexture): StandardMaterial {
  const m = copyStandardMaterial(source, name, scene);
  new ProceduralWindPluginMaterial(m, texture);
  return m;
}

/** The animator; exported for the GPU check and tests. */
export class ProceduralWindAnimator implements Animator<ProceduralWindParams> {
  readonly twin: ProceduralWindTwin;
  readonly branchTexture: RawTexture;
  /** The plugin materials, one per tree part, in the order of ctx.tree.parts. */
  readonly materials: StandardMaterial[];
  private readonly undoShadows: (() => void)[] = [];
  private params: ProceduralWindParams;
  private readonly ctx: AnimatorContext;
  private readonly tips: Float32Array;
  /** The tree's world translation (place) and scratch for the tips' world positions (probe). */
  private readonly origin = new Vector3();
  private readonly tipScratch = new Vector3();
  private disposed = false;
  /** The vertex deformation for the shared depth material and GPU check. */
  readonly deformShader: DeformShader;

  constructor(ctx: AnimatorContext, params: ProceduralWindParams) {
    this.ctx = ctx;
    this.params = { ...params };
    const tree = ctx.tree;
    this.twin = new ProceduralWindTwin(tree.skeleton, this.params, ctx.rng.fork(0x2007), ctx.material ?? defaultMaterial());
    this.tips = new Float32Array(3 * tree.skeleton.branchCount);
    this.branchTexture = createBranchTexture(this.twin, ctx.scene);
    this.deformShader = {
      glsl: `uniform highp sampler2D ${BRANCH_SAMPLER};\n${PROCEDURAL_WIND_FUNCTIONS}`,
      call: `pwDeform(p, n, ${BINDING_ATTRIBUTES.branchIndex}, ${BINDING_ATTRIBUTES.wVector});`,
      attributes: [{ name: BINDING_ATTRIBUTES.branchIndex, size: 1 }, { name: BINDING_ATTRIBUTES.wVector, size: 4 }],
      uniforms: [],
      uniformData: new Float32Array(0),
      textures: () => ({ [BRANCH_SAMPLER]: this.branchTexture }),
      twin: (position, normal, attributes, out) => this.twin.deformVertex(position, normal, attributes[0][0], attributes[1], out),
    };
    this.materials = tree.parts.map((part) => {
      const m = windMaterial(part.material, `procedural-wind ${part.role}`, ctx.scene, this.branchTexture);
      part.mesh.material = m;
      // Shadows follow the moving tree, through a depth-only twin of the material.
      const alpha = m.needAlphaTesting() && m.diffuseTexture ? { texture: m.diffuseTexture, cutOff: m.alphaCutOff } : null;
      this.undoShadows.push(deformedShadows(ctx.scene, part.mesh, () => deformDepthMaterial(`procedural-wind ${part.role} depth`, ctx.scene, this.deformShader, alpha, m.backFaceCulling)));
      return m;
    });
    this.place();
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
    m.getTranslationToRef(this.origin);
    this.twin.setPlacement(this.origin.x, this.origin.y, this.origin.z);
  }

  update(dt: number): void {
    this.place();
    this.twin.step(this.ctx.clock.time, dt, this.ctx.wind);
    this.branchTexture.update(this.twin.branchData);
  }

  setParams(patch: Partial<ProceduralWindParams>): void {
    this.params = { ...this.params, ...patch };
    this.twin.setParams(this.params);
    this.branchTexture.update(this.twin.branchData);
  }

  probe(): Float32Array {
    const mesh: Mesh = this.ctx.tree.bark;
    const world = mesh.computeWorldMatrix(true);
    const v = this.tipScratch;
    for (let b = 0; b < this.twin.branchCount; b++) {
      this.twin.tipPosition(b, this.tips, 3 * b);
      Vector3.TransformCoordinatesFromFloatsToRef(this.tips[3 * b], this.tips[3 * b + 1], this.tips[3 * b + 2], world, v);
      this.tips[3 * b] = v.x; this.tips[3 * b + 1] = v.y; this.tips[3 * b + 2] = v.z;
    }
    return this.tips.slice();
  }

  stats(): AnimatorStats {
    const tree = this.ctx.tree;
    const vertices = tree.bark.getTotalVertices() + (tree.leaves ? tree.leaves.getTotalVertices() : 0);
    // updateMs: the host times update() (no clocks in app/animators).
    return { updateMs: 0, counts: { branches: this.twin.branchCount, vertices }, nonFinite: this.twin.hasNonFinite() };
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
    this.branchTexture.dispose();
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
