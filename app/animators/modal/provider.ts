/**
 * The modal method (Shinya and Fournier 1992, Stam 1997, Diener et al. 2009) behind the Animator
 * contract: the tree moves as the superposition of its lowest natural modes (the reference beam
 * frame's, app/physics/reference, precomputed once per tree, material and mode count), each a damped
 * oscillator driven by the shared wind's drag projected on it (modes.ts).
 *
 * Where the work is done: on the CPU, per frame, the wind's load (sampled at every joint, relative to
 * the joints' modal velocities), its projection on the modes, their exact step, and the composition
 * of every skeleton node's displacement d_n = Σ_k q_k φ_k(n) (node count × modes multiply-adds),
 * uploaded as an RGBA32F texture, one texel per node. On the GPU, in the vertex shader (a material
 * plugin on every tree part, and the depth material of the deformed shadows): each vertex's blend
 * of its skin nodes' displacements (twin.ts and modal.glsl.ts, the same arithmetic). Normals are
 * not turned (translation only: small deflections).
 */
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Scene } from "@babylonjs/core/scene";
import type { Animator, AnimatorContext, AnimatorProvider, AnimatorStats, TreeInstance } from "../animator";
import { floatTexture } from "../float-texture";
import { defaultMaterial } from "../../physics/material";
import { tipNode } from "../../tree/skeleton";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import { copyStandardMaterial, deformedShadows } from "../shadow-depth";
import { deformDepthMaterial } from "../deform-depth-material";
import type { DeformShader } from "../deform-shader";
import { ModalDynamics, dampingRatio, modalBasis } from "./modes";
import { ModalTwin } from "./twin";
import { ModalPluginMaterial } from "./plugin";
import { MODAL_FUNCTIONS, NODE_SAMPLER } from "./modal.glsl";
import { modalParams, type ModalParams } from "./params";

export type { ModalParams } from "./params";

/** The RGBA32F, NEAREST node displacement texture of a twin. */
function createNodeTexture(twin: ModalTwin, scene: Scene): RawTexture {
  return floatTexture(twin.nodeData, twin.textureWidth, twin.textureHeight, scene, "modal nodes");
}

/** The animator; exported for the GPU check and tests. */
export class ModalAnimator implements Animator<ModalParams> {
  private dyn: ModalDynamics;
  readonly twin: ModalTwin;
  readonly nodeTexture: RawTexture;
  /** The plugin materials, one per tree part, in the order of ctx.tree.parts. */
  readonly materials: StandardMaterial[];
  /** The vertex deformation for the shared depth material and GPU check. */
  readonly deformShader: DeformShader;
  private readonly undoShadows: (() => void)[] = [];
  private params: ModalParams;
  private readonly ctx: AnimatorContext;
  private readonly tips: Float32Array;
  private readonly origin = new Vector3();
  private readonly tipScratch = new Vector3();
  private disposed = false;

  constructor(ctx: AnimatorContext, params: ModalParams) {
    this.ctx = ctx;
    this.params = { ...params };
    const tree = ctx.tree, s = tree.skeleton;
    const material = ctx.material ?? defaultMaterial();
    // The basis holds the most modes the slider offers only when asked: more modes later re-solve.
    const basis = modalBasis(s, material, Math.round(this.params.modes));
    this.dyn = new ModalDynamics(s, material, basis, basis.count, dampingRatio(this.params.damping));
    this.dyn.staticCorrection = this.params.staticCorrection;
    this.twin = new ModalTwin(s);
    this.tips = new Float32Array(3 * s.branchCount);
    this.nodeTexture = createNodeTexture(this.twin, ctx.scene);
    this.deformShader = {
      glsl: `uniform highp sampler2D ${NODE_SAMPLER};\n${MODAL_FUNCTIONS}`,
      call: `mdDeform(p, n, ${BINDING_ATTRIBUTES.skinNodes}, ${BINDING_ATTRIBUTES.skinWeights});`,
      attributes: [{ name: BINDING_ATTRIBUTES.skinNodes, size: 4 }, { name: BINDING_ATTRIBUTES.skinWeights, size: 4 }],
      uniforms: [],
      uniformData: new Float32Array(0),
      textures: () => ({ [NODE_SAMPLER]: this.nodeTexture }),
      twin: (position, normal, attributes, out) => this.twin.deformVertex(position, normal, attributes[0], attributes[1], out),
    };
    this.materials = tree.parts.map((part) => {
      const m = copyStandardMaterial(part.material, `modal ${part.role}`, ctx.scene);
      new ModalPluginMaterial(m, this.nodeTexture);
      part.mesh.material = m;
      const alpha = m.needAlphaTesting() && m.diffuseTexture ? { texture: m.diffuseTexture, cutOff: m.alphaCutOff } : null;
      this.undoShadows.push(deformedShadows(ctx.scene, part.mesh, () => deformDepthMaterial(`modal ${part.role} depth`, ctx.scene, this.deformShader, alpha, m.backFaceCulling)));
      return m;
    });
    this.place();
  }

  /** The modal state (replaced when more modes are asked for than were solved). */
  get dynamics(): ModalDynamics {
    return this.dyn;
  }

  /** The tree this animator moves (the GPU check's meshes). */
  get tree(): TreeInstance {
    return this.ctx.tree;
  }

  /** The tree's world translation, where the wind is sampled: read at every step. */
  private place(): void {
    const m = this.ctx.tree.bark.computeWorldMatrix(true);
    m.getTranslationToRef(this.origin);
    this.dynamics.setPlacement(this.origin.x, this.origin.y, this.origin.z);
  }

  update(dt: number): void {
    this.place();
    this.dynamics.step(this.ctx.wind, this.ctx.clock.time, dt);
    this.twin.setDisplacements(this.dynamics.nodeDisplacement);
    this.nodeTexture.update(this.twin.nodeData);
  }

  setParams(patch: Partial<ModalParams>): void {
    const before = this.params;
    this.params = { ...this.params, ...patch };
    this.dynamics.setDamping(dampingRatio(this.params.damping));
    const count = Math.round(this.params.modes);
    if (count !== Math.round(before.modes)) {
      if (count > this.dynamics.basis.count) {
        // More modes than solved: re-solve (cached per tree) and start the new dynamics from rest.
        const material = this.ctx.material ?? defaultMaterial();
        const basis = modalBasis(this.ctx.tree.skeleton, material, count);
        this.dyn = new ModalDynamics(this.ctx.tree.skeleton, material, basis, count, dampingRatio(this.params.damping));
        this.dyn.staticCorrection = this.params.staticCorrection;
        this.place();
      } else {
        this.dynamics.setModeCount(count);
      }
    }
    if (this.params.staticCorrection !== this.dynamics.staticCorrection) this.dynamics.setStaticCorrection(this.params.staticCorrection);
    if (count !== Math.round(before.modes) || this.params.staticCorrection !== before.staticCorrection) {
      this.dynamics.composeNodes();
      this.twin.setDisplacements(this.dynamics.nodeDisplacement);
      this.nodeTexture.update(this.twin.nodeData);
    }
  }

  probe(): Float32Array {
    const s = this.ctx.tree.skeleton, np = s.nodePosition, d = this.dynamics.nodeDisplacement;
    const world = this.ctx.tree.bark.computeWorldMatrix(true);
    const v = this.tipScratch;
    for (let b = 0; b < s.branchCount; b++) {
      const k = tipNode(s, b);
      Vector3.TransformCoordinatesFromFloatsToRef(np[3 * k] + d[3 * k], np[3 * k + 1] + d[3 * k + 1], np[3 * k + 2] + d[3 * k + 2], world, v);
      this.tips[3 * b] = v.x; this.tips[3 * b + 1] = v.y; this.tips[3 * b + 2] = v.z;
    }
    return this.tips.slice();
  }

  stats(): AnimatorStats {
    const tree = this.ctx.tree, dyn = this.dynamics;
    const vertices = tree.bark.getTotalVertices() + (tree.leaves ? tree.leaves.getTotalVertices() : 0);
    const hz = dyn.basis.omega.length > 0 ? dyn.basis.omega[0] / (2 * Math.PI) : 0;
    return {
      updateMs: 0,
      counts: { modes: dyn.modeCount, joints: dyn.basis.frame.jointCount, nodes: tree.skeleton.nodeCount, vertices },
      nonFinite: dyn.hasNonFinite(),
      notes: [`lowest mode ${hz.toFixed(2)} Hz, ζ = ${dyn.zeta.toFixed(3)}`],
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const undo of this.undoShadows) undo();
    for (const part of this.ctx.tree.parts) part.mesh.material = part.material;
    for (const m of this.materials) m.dispose(false, false);
    this.nodeTexture.dispose();
  }
}

export const modalProvider: AnimatorProvider<ModalParams> = {
  id: "modal",
  label: "Modal (Stam 1997)",
  source: "Shinya and Fournier 1992, Stochastic motion: motion under the influence of wind; Stam 1997, Stochastic dynamics: simulating the effects of turbulence on flexible structures; Diener et al. 2009, Wind projection basis for real-time animation of trees",
  params: modalParams,
  create(ctx: AnimatorContext, params: ModalParams): Animator<ModalParams> {
    return new ModalAnimator(ctx, params);
  },
};
