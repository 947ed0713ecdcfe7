/**
 * The lsystem-particles method (Barron, Sorge and Davis, "Real-Time Procedural Animation of
 * Trees") behind the Animator contract. A thin adapter: the particle system and its update
 * (particles.ts, simulation.ts) run on the CPU, and the meshes it shows are regenerated from the
 * particles every frame (skin.ts, leaves.ts): spline-skinned bark, leaf cards riding on their
 * particles, and the skeleton as thin tubes through the curve points. They take the place of the
 * tree's own meshes (TreeInstance.substitute) with the sandbox's materials, so the render modes,
 * the bark texture toggle, shadows and picking work as for every method.
 *
 * An imported model (TreeGeometry.fromModel) keeps its own bark and leaves: they are
 * skinned to the particles through the binding extraction found (model-skin.ts) instead of
 * regenerated; the skeleton view is the spline tubes as for every tree.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { Scene } from "@babylonjs/core/scene";
import type { Animator, AnimatorContext, AnimatorProvider, AnimatorStats, TreePart } from "../animator";
import { toBabylonWinding } from "../../tree/geometry";
import { liveMesh } from "../live-mesh";
import { tipNode, type TreeSkeleton } from "../../tree/skeleton";
import type { PhysicalMaterial } from "../../physics/material";
import { buildParticleTree, type ParticleTree } from "./particles";
import { BarronSimulation, LOCKSTEP_SLACK, type SimulationSettings } from "./simulation";
import { buildSkinLayout, updateSkin, type SkinLayout } from "./skin";
import { bindLeaves, updateLeaves } from "./leaves";
import { bindModelSkin, updateModelSkin } from "./model-skin";
import { lsystemParticlesParams, type LsystemParticlesParams } from "./params";

export type { LsystemParticlesParams } from "./params";

/** Radius of the skeleton view's tubes, metres (as the tree view's own skeleton lines). */
const SKELETON_RADIUS = 0.012;

/** A mesh whose positions and normals are rewritten every frame. */
interface LiveMesh {
  readonly role: TreePart["role"];
  readonly mesh: Mesh;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  /** Simulation frame the buffers were last written for. */
  written: number;
  /** Writes positions and normals from the shown state. */
  fill(): void;
}

function simulationSettings(p: LsystemParticlesParams, material: PhysicalMaterial | undefined): SimulationSettings {
  return {
    damping: p.damping, stiffness: p.stiffness, gravity: p.gravity, timeStep: p.timeStep / 1000, spatial: p.spatial,
    paperLiteral: p.paperLiteral, material,
  };
}

/** §4.1's radius scaling (paper-literal), or the tree's own radii (calibrated: the physical tree). */
function particlesOf(s: TreeSkeleton, p: LsystemParticlesParams): ParticleTree {
  return buildParticleTree(s, p.paperLiteral ? p.minRadius / 1000 : null);
}

export class LsystemParticlesAnimator implements Animator<LsystemParticlesParams> {
  particles: ParticleTree;
  simulation: BarronSimulation;
  private params: LsystemParticlesParams;
  private live: LiveMesh[] = [];
  /** Vertices of the shown bark and leaves (the stats' counts). */
  private barkVertices = 0;
  private leafVertices = 0;
  private readonly tips: Float32Array;
  private frame = 0;
  private readonly renderObserver: Observer<Scene>;
  private notesFor = "";
  /** updateMs stays 0: the host times every method's update (stats().animatorMs). */
  private readonly stat: AnimatorStats = { updateMs: 0, counts: {}, nonFinite: false, notes: [] };

  constructor(private readonly ctx: AnimatorContext, params: LsystemParticlesParams) {
    this.params = { ...params };
    const s = ctx.tree.skeleton;
    this.particles = particlesOf(s, this.params);
    this.simulation = new BarronSimulation(this.particles, ctx.wind, simulationSettings(this.params, ctx.material), ctx.rng);
    this.tips = new Float32Array(3 * s.branchCount);
    this.readTips();
    this.buildMeshes();
    // Skins are written once per drawn frame, just before it is drawn, for the meshes on show
    // only (the host may run several updates per frame; a mode change while paused shows at once).
    // The host's animator time covers the particles; the skins land in its frame time.
    this.renderObserver = ctx.scene.onBeforeRenderObservable.add(() => this.writeMeshes());
    this.refreshStats();
  }

  /** Bark, leaves and skeleton meshes for the current particles, resolution and sides. */
  private buildMeshes(): void {
    const { tree } = this.ctx;
    const s = tree.skeleton;
    this.disposeMeshes();
    const sim = this.simulation;
    const fromModel = tree.geometry.fromModel === true;
    const layouts: ["bark" | "skeleton", SkinLayout][] = [];
    // Barron §4.2's skins: the bark regenerated from the particles (a model keeps its own bark, below).
    if (!fromModel) layouts.push(["bark", buildSkinLayout(s, this.particles, { sides: this.params.sides, resolution: this.params.curveResolution })]);
    layouts.push(["skeleton", buildSkinLayout(s, this.particles, { sides: 4, resolution: this.params.curveResolution, radius: SKELETON_RADIUS })]);
    for (const [role, layout] of layouts) {
      const positions = new Float32Array(3 * layout.vertexCount), normals = new Float32Array(3 * layout.vertexCount);
      const fill = () => updateSkin(layout, sim.shownPositions, sim.shownRotations, positions, normals);
      this.addLive(role, { positions, normals, uvs: layout.uvs, indices: layout.indices, branchIndex: layout.branchIndex }, fill);
      if (role === "bark") this.barkVertices = layout.vertexCount;
    }
    if (fromModel) {
      // The model's own bark on the particles (model-skin.ts).
      const bark = tree.geometry.bark;
      const skin = bindModelSkin(s, this.particles, bark);
      const positions = Float32Array.from(bark.positions), normals = Float32Array.from(bark.normals);
      this.addLive("bark", { positions, normals, uvs: bark.uvs, indices: bark.indices, branchIndex: bark.branchIndex }, () => updateModelSkin(skin, sim.shownPositions, sim.shownRotations, positions, normals));
      this.barkVertices = skin.vertexCount;
    }
    this.leafVertices = 0;
    const leaves = tree.geometry.leaves;
    if (leaves && tree.leaves) {
      const positions = Float32Array.from(leaves.positions), normals = Float32Array.from(leaves.normals);
      let fill: () => void;
      if (fromModel) {
        // A model's leaves are any shape, each vertex bound to its branch like the bark.
        const skin = bindModelSkin(s, this.particles, leaves);
        fill = () => updateModelSkin(skin, sim.shownPositions, sim.shownRotations, positions, normals);
      } else {
        const ride = bindLeaves(s, this.particles, leaves.positions, leaves.normals);
        fill = () => updateLeaves(ride, sim.shownPositions, sim.shownRotations, positions, normals);
      }
      this.addLive("leaves", { positions, normals, uvs: leaves.uvs, indices: leaves.indices, branchIndex: leaves.branchIndex }, fill);
      this.leafVertices = positions.length / 3;
    }
    for (const l of this.live) tree.substitute(l.role, l.mesh);
    this.frame++;
  }

  /** A live mesh for a part, filled once now; `indices` counter-clockwise (tree/geometry's winding). */
  private addLive(role: TreePart["role"], data: { positions: Float32Array; normals: Float32Array; uvs: Float32Array; indices: Uint32Array; branchIndex: Float32Array }, fill: () => void): void {
    const { scene, root, tree } = this.ctx;
    fill();
    const material = role === "leaves" ? tree.leafMaterial : tree.parts.find((p) => p.role === role)!.material;
    const mesh = liveMesh(`lsystem-particles ${role}`, scene, root, { ...data, indices: toBabylonWinding(data.indices) }, material);
    this.live.push({ role, mesh, positions: data.positions, normals: data.normals, written: -1, fill });
  }

  private writeMeshes(): void {
    for (const l of this.live) {
      if (!l.mesh.isVisible || l.written === this.frame) continue;
      l.fill();
      // Bounds follow the moving tree (the sun fits its shadow frustum to them; picking tests them).
      l.mesh.updateVerticesData(VertexBuffer.PositionKind, l.positions, true, false);
      l.mesh.updateVerticesData(VertexBuffer.NormalKind, l.normals, false, false);
      l.written = this.frame;
    }
  }

  update(dt: number): void {
    this.simulation.update(dt);
    this.frame++;
    this.readTips();
    this.stat.nonFinite = !this.simulation.dynamics.isFinite();
  }

  private readTips(): void {
    const s = this.ctx.tree.skeleton, P = this.particles.particleOfNode, C = this.simulation.shownPositions;
    for (let b = 0; b < s.branchCount; b++) {
      const p = P[tipNode(s, b)];
      this.tips[3 * b] = C[3 * p];
      this.tips[3 * b + 1] = C[3 * p + 1];
      this.tips[3 * b + 2] = C[3 * p + 2];
    }
  }

  setParams(patch: Partial<LsystemParticlesParams>): void {
    const before = this.params;
    this.params = { ...this.params, ...patch };
    if ((this.params.paperLiteral && this.params.minRadius !== before.minRadius) || this.params.paperLiteral !== before.paperLiteral) {
      // New radii or forces: new masses, springs and drag. The motion restarts from rest on the new tree.
      this.particles = particlesOf(this.ctx.tree.skeleton, this.params);
      this.simulation = new BarronSimulation(this.particles, this.ctx.wind, simulationSettings(this.params, this.ctx.material), this.ctx.rng, this.ctx.clock.time);
      this.readTips();
      this.buildMeshes();
    } else {
      this.simulation.configure(simulationSettings(this.params, this.ctx.material));
      if (this.params.curveResolution !== before.curveResolution || this.params.sides !== before.sides) this.buildMeshes();
    }
    this.refreshStats();
  }

  private refreshStats(): void {
    const st = this.stat;
    st.counts = {
      particles: this.particles.count,
      branches: this.ctx.tree.skeleton.branchCount,
      "skin vertices": this.barkVertices,
      "leaf vertices": this.leafVertices,
    };
  }

  probe(): Float32Array {
    return this.tips;
  }

  stats(): AnimatorStats {
    const st = this.stat;
    const sub = this.simulation.dynamics.subStepping;
    const sway = this.simulation.dynamics.swayHz;
    const key = `${sub.max}/${sub.particles}/${this.params.timeStep}/${this.ctx.clock.dt}/${sway}`;
    if (key !== this.notesFor) {
      // Rebuilt only when what they say changes: stats() is read after every step.
      this.notesFor = key;
      const notes: string[] = [];
      if (sway > 0) notes.push(`calibrated: beam-theory springs, the tree sways at ${sway.toFixed(2)} Hz (Rayleigh's quotient of its deflection in a steady wind)`);
      if (sub.max > 1) notes.push(`sub-stepping up to ×${sub.max} on ${sub.particles} of ${this.particles.count - 1} rods (one ${this.params.timeStep} ms step would blow up)`);
      if (this.params.timeStep / 1000 > this.ctx.clock.dt * LOCKSTEP_SLACK) notes.push(`time step ${this.params.timeStep} ms is longer than a frame: frames in between are blended`);
      st.notes = notes;
    }
    return st;
  }

  private disposeMeshes(): void {
    for (const l of this.live) {
      this.ctx.tree.substitute(l.role, null);
      l.mesh.dispose(false, false);
    }
    this.live = [];
  }

  dispose(): void {
    this.ctx.scene.onBeforeRenderObservable.remove(this.renderObserver);
    this.disposeMeshes();
  }
}

export const lsystemParticlesProvider: AnimatorProvider<LsystemParticlesParams> = {
  id: "lsystem-particles",
  label: "L-system particles (Barron)",
  source: "Barron, Sorge and Davis, Real-Time Procedural Animation of Trees: the turtle's particles on springs, rods turned by torque, Catmull-Rom skins",
  params: lsystemParticlesParams,
  create(ctx, params) {
    return new LsystemParticlesAnimator(ctx, params);
  },
};
