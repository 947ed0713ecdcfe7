/**
 * The mass-spring method (Van Haevre, Di Fiore and Van Reeth 2006, "Physically-based driven tree
 * animations", §4.2) behind the Animator contract. A thin adapter: the masses and springs
 * (system.ts) step by implicit Euler (implicit.ts) on the CPU, pushed by the shared wind (drag
 * across each mass's segment, sampled at the mass) and the weight of the wood; the tree's own
 * bark, leaves and skeleton lines are copied into updatable meshes, skinned to the masses through
 * the binding every vertex carries (skinning.ts), and shown in the parts' place
 * (TreeInstance.substitute) with the sandbox's materials, so the render modes, the bark texture,
 * shadows and picking work as for every method.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { Scene } from "@babylonjs/core/scene";
import type { Animator, AnimatorContext, AnimatorProvider, AnimatorStats, TreePart } from "../animator";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import { liveMesh } from "../live-mesh";
import { tipNode } from "../../tree/skeleton";
import { DEFAULT_MASS_SPRING, MassSpringSystem, type MassSpringSettings } from "./system";
import { crossFlowDrag, cylinderDragFactor, G } from "../../wind/drag";
import { ImplicitEuler } from "./implicit";
import { NodeFrames, skinVertices, type SkinBinding } from "./skinning";
import { massSpringParams, type MassSpringParams } from "./params";

export type { MassSpringParams } from "./params";


/** A tree part's copy whose positions and normals are rewritten from the masses. */
interface LiveMesh {
  readonly role: TreePart["role"];
  readonly mesh: Mesh;
  readonly bind: SkinBinding;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  /** Simulation frame the buffers were last written for. */
  written: number;
}

function systemSettings(p: MassSpringParams): MassSpringSettings {
  return { ...DEFAULT_MASS_SPRING, damping: p.damping, stiffness: p.stiffness, bendHz: p.sway };
}

/** An updatable copy of a part's mesh (indices already in Babylon's winding), hidden until substituted. */
function copyPart(part: TreePart, scene: Scene, parent: AnimatorContext["root"]): LiveMesh {
  const src = part.mesh;
  const read = (kind: string) => {
    const d = src.getVerticesData(kind);
    if (!d) throw new Error(`the tree's ${part.role} mesh has no ${kind} data`);
    return Float32Array.from(d);
  };
  const bind: SkinBinding = {
    positions: read(VertexBuffer.PositionKind),
    normals: read(VertexBuffer.NormalKind),
    skinNodes: read(BINDING_ATTRIBUTES.skinNodes),
    skinWeights: read(BINDING_ATTRIBUTES.skinWeights),
  };
  const positions = Float32Array.from(bind.positions), normals = Float32Array.from(bind.normals);
  const mesh = liveMesh(`mass-spring ${part.role}`, scene, parent, {
    positions, normals, uvs: read(VertexBuffer.UVKind), indices: Uint32Array.from(src.getIndices()!), branchIndex: read(BINDING_ATTRIBUTES.branchIndex),
  }, part.material);
  return { role: part.role, mesh, bind, positions, normals, written: -1 };
}

export class MassSpringAnimator implements Animator<MassSpringParams> {
  readonly system: MassSpringSystem;
  readonly solver: ImplicitEuler;
  readonly frames: NodeFrames;
  private params: MassSpringParams;
  private live: LiveMesh[] = [];
  private readonly tips: Float32Array;
  private readonly tipMass: Int32Array;
  /** ½ ρ C_d (2 r L) per mass (0 on the fixed ones). */
  private readonly drag: Float64Array;
  private readonly u = new Float64Array(3);
  private frame = 0;
  private framesFor = -1;
  private readonly renderObserver: Observer<Scene>;
  private notesFor = "";
  /** updateMs stays 0: the host times every method's update (stats().animatorMs). */
  private readonly stat: AnimatorStats = { updateMs: 0, counts: {}, nonFinite: false, notes: [] };

  constructor(private readonly ctx: AnimatorContext, params: MassSpringParams) {
    this.params = { ...params };
    const s = ctx.tree.skeleton;
    this.system = new MassSpringSystem(s, systemSettings(this.params));
    this.solver = new ImplicitEuler(this.system);
    this.frames = new NodeFrames(s, this.system.massOfNode);
    const sys = this.system;
    this.drag = new Float64Array(sys.count);
    for (let i = 0; i < sys.count; i++) {
      if (!sys.fixed[i]) this.drag[i] = cylinderDragFactor(sys.radius[i], sys.restLength[i]);
    }
    this.tipMass = new Int32Array(s.branchCount);
    for (let b = 0; b < s.branchCount; b++) this.tipMass[b] = sys.massOfNode[tipNode(s, b)];
    this.tips = new Float32Array(3 * s.branchCount);
    this.readTips();
    const { scene, root, tree } = ctx;
    for (const part of tree.parts) {
      const l = copyPart(part, scene, root);
      this.live.push(l);
    }
    for (const l of this.live) tree.substitute(l.role, l.mesh);
    // Skins are written once per drawn frame, just before it is drawn, for the meshes on show only.
    this.renderObserver = scene.onBeforeRenderObservable.add(() => this.writeMeshes());
    this.stat.counts = {
      masses: sys.count,
      springs: 2 * (sys.count - 2),
      branches: s.branchCount,
      vertices: this.live.reduce((n, l) => n + l.positions.length / 3, 0),
    };
  }

  private writeMeshes(): void {
    for (const l of this.live) {
      if (!l.mesh.isVisible || l.written === this.frame) continue;
      if (this.framesFor !== this.frame) {
        this.frames.update(this.system.position);
        this.framesFor = this.frame;
      }
      skinVertices(this.frames, l.bind, l.positions, l.normals);
      // Bounds follow the moving tree (the sun fits its shadow frustum to them; picking tests them).
      l.mesh.updateVerticesData(VertexBuffer.PositionKind, l.positions, true, false);
      l.mesh.updateVerticesData(VertexBuffer.NormalKind, l.normals, false, false);
      l.written = this.frame;
    }
  }

  update(dt: number): void {
    this.applyForces(this.ctx.clock.time);
    this.solver.step(dt);
    this.frame++;
    this.readTips();
    this.stat.nonFinite = !this.system.isFinite();
  }

  /** Wind drag across every segment, sampled at its mass, and the weight of the wood, into system.external. */
  private applyForces(t: number): void {
    const sys = this.system, w = this.ctx.wind, x = sys.position, v = sys.velocity, F = sys.external, u = this.u, drag = this.drag, par = sys.parent;
    for (let i = 0; i < sys.count; i++) {
      if (drag[i] === 0) {
        F[3 * i] = F[3 * i + 1] = F[3 * i + 2] = 0;
        continue;
      }
      w.sample(x[3 * i], x[3 * i + 1], x[3 * i + 2], t, u);
      // The air past the mass, across its segment only.
      const p = par[i];
      crossFlowDrag(
        drag[i], u[0] - v[3 * i], u[1] - v[3 * i + 1], u[2] - v[3 * i + 2],
        x[3 * i] - x[3 * p], x[3 * i + 1] - x[3 * p + 1], x[3 * i + 2] - x[3 * p + 2], F, 3 * i,
      );
    }
    if (this.params.gravity > 0) sys.addGravity(G * this.params.gravity);
  }

  private readTips(): void {
    const x = this.system.position, m = this.tipMass;
    for (let b = 0; b < m.length; b++) {
      const p = 3 * m[b];
      this.tips[3 * b] = x[p];
      this.tips[3 * b + 1] = x[p + 1];
      this.tips[3 * b + 2] = x[p + 2];
    }
  }

  setParams(patch: Partial<MassSpringParams>): void {
    this.params = { ...this.params, ...patch };
    this.system.configure(systemSettings(this.params));
  }

  probe(): Float32Array {
    return this.tips;
  }

  stats(): AnimatorStats {
    const st = this.stat, cg = this.solver.stats;
    const key = `${cg.iterations}/${cg.converged}`;
    if (key !== this.notesFor) {
      // Rebuilt only when what they say changes: stats() is read after every step.
      this.notesFor = key;
      st.notes = [`implicit Euler: ${cg.iterations} CG iterations${cg.converged ? "" : " (not converged)"}`];
    }
    return st;
  }

  dispose(): void {
    this.ctx.scene.onBeforeRenderObservable.remove(this.renderObserver);
    for (const l of this.live) {
      this.ctx.tree.substitute(l.role, null);
      l.mesh.dispose(false, false);
    }
    this.live = [];
  }
}

export const massSpringProvider: AnimatorProvider<MassSpringParams> = {
  id: "mass-spring",
  label: "Mass-spring (Van Haevre 2006)",
  source: "Van Haevre, Di Fiore and Van Reeth 2006, Physically-based driven tree animations, §4.2: masses on the skeleton's joints, linear and angular springs, implicit Euler with conjugate gradients",
  params: massSpringParams,
  create(ctx, params) {
    return new MassSpringAnimator(ctx, params);
  },
};
