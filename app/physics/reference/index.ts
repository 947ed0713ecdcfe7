/**
 * The reference solver: the tree as a 3D frame of tapered Euler-Bernoulli beams (frame.ts), its
 * static deflection under a steady wind's drag in O(n) (static.ts, loads.ts) and its lowest natural
 * modes by shift-invert block Lanczos over that same solve (eigen.ts). A yardstick for the methods'
 * approximations, not an animator. Plain TypeScript over typed arrays, no Babylon.
 */
import type { PhysicalMaterial } from "../material";
import { tipNode, type TreeSkeleton } from "../../tree/skeleton";
import { BeamFrame, type FrameOptions } from "./frame";
import { StaticSolver } from "./static";
import { addLinearLoad, windLoads } from "./loads";
import { lowestModes, type FrameModes, type LanczosOptions } from "./eigen";

export { BeamFrame, StaticSolver, windLoads, addLinearLoad, lowestModes };
export type { FrameModes, FrameOptions, LanczosOptions };

export interface ReferenceModes {
  /** Natural frequencies, Hz, ascending. */
  readonly hz: Float64Array;
  /** Per mode: xyz displacement of every skeleton node, scaled so the largest is 1. */
  readonly shapes: Float32Array[];
  /** The frame's modes themselves (6 dofs per joint, M-orthonormal), residual and Krylov size. */
  readonly frame: FrameModes;
}

export class ReferenceTree {
  readonly frame: BeamFrame;
  readonly solver: StaticSolver;
  /** The last static solve: 6 per joint (displacement, rotation). */
  readonly displacement: Float64Array;
  private readonly load: Float64Array;
  private readonly scratch = new Float64Array(6);

  constructor(readonly skeleton: TreeSkeleton, readonly material: PhysicalMaterial, options: FrameOptions = {}) {
    this.frame = new BeamFrame(skeleton, material, options);
    this.solver = new StaticSolver(this.frame);
    this.load = new Float64Array(this.frame.dofCount);
    this.displacement = new Float64Array(this.frame.dofCount);
  }

  /**
   * The static deflection under a steady wind of `speed` m/s along (dirX, 0, dirZ): xyz displacement
   * of every branch's tip (tipNode(s, b), b = 0 .. branchCount - 1), metres, into `out` (3 per branch).
   * Linear (small deflections), without gravity (the modelled shape already carries its weight).
   * `dirY`: an updraft's share of the direction (0 by default: a horizontal wind).
   */
  staticDeflection(speed: number, dirX: number, dirZ: number, out?: Float64Array, dirY = 0): Float64Array {
    const s = this.skeleton, nb = s.branchCount;
    const result = out ?? new Float64Array(3 * nb);
    if (result.length < 3 * nb) throw new RangeError(`out needs ${3 * nb} numbers, has ${result.length}`);
    windLoads(this.frame, s, this.material, speed, dirX, dirZ, this.load, this.scratch, dirY);
    this.solver.solve(this.load, this.displacement);
    const u = this.displacement, nj = this.frame.nodeJoint;
    for (let b = 0; b < nb; b++) {
      const j = nj[tipNode(s, b)];
      result[3 * b] = u[6 * j];
      result[3 * b + 1] = u[6 * j + 1];
      result[3 * b + 2] = u[6 * j + 2];
    }
    return result;
  }

  /** The `count` lowest natural modes: frequencies and shapes at the skeleton's nodes. */
  modes(count: number, options: LanczosOptions = {}): ReferenceModes {
    const fm = lowestModes(this.frame, this.solver, count, options);
    const s = this.skeleton, nj = this.frame.nodeJoint;
    const hz = new Float64Array(fm.omega2.length);
    const shapes: Float32Array[] = [];
    for (let i = 0; i < hz.length; i++) {
      hz[i] = Math.sqrt(Math.max(0, fm.omega2[i])) / (2 * Math.PI);
      const v = fm.vectors[i], shape = new Float32Array(3 * s.nodeCount);
      let big = 0, at = 0;
      for (let k = 0; k < s.nodeCount; k++) {
        const j = 6 * nj[k];
        const m2 = v[j] * v[j] + v[j + 1] * v[j + 1] + v[j + 2] * v[j + 2];
        if (m2 > big) { big = m2; at = j; }
      }
      // Largest displacement 1, its largest component positive.
      let sign = 1, c = 0;
      for (let d = 0; d < 3; d++) if (Math.abs(v[at + d]) > Math.abs(c)) c = v[at + d];
      if (c < 0) sign = -1;
      const k0 = big > 0 ? sign / Math.sqrt(big) : 0;
      for (let k = 0; k < s.nodeCount; k++) {
        const j = 6 * nj[k];
        shape[3 * k] = v[j] * k0;
        shape[3 * k + 1] = v[j + 1] * k0;
        shape[3 * k + 2] = v[j + 2] * k0;
      }
      shapes.push(shape);
    }
    return { hz, shapes, frame: fm };
  }
}
