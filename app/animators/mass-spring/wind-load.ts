/**
 * The forces on the live mass-spring tree each step (Van Haevre, Di Fiore and Van Reeth 2006,
 * §4.2): the shared wind's drag and the weight of the wood.
 *
 * Calibrated (default): the one drag law (app/wind/drag.ts) with the tree's material. Per unit
 * length of a segment, q = ½ ρ C_d (2 r) |u⊥| u⊥ with u the wind relative to the moving wood
 * (motion against the wind is damped by the air) and ⊥ across the segment's current axis; q is
 * evaluated at both ends (the wind sampled at each mass, the radius at each end) and, varying
 * linearly between them, goes to the two end masses as L (2 q_a + q_b) / 6 and L (q_a + 2 q_b) / 6:
 * the same force and moment about either end as the distributed load (centre of pressure, not
 * the tip). A leaf's drag ½ ρ (C_d A) |u| u acts on its branch at its point along it, split
 * between the two masses either side in the proportions that keep its moment; it is taken in the
 * wind relative to those masses.
 *
 * Paper-literal: the drag this method had before calibration, across each mass's own segment,
 * ½ ρ C_d (2 r L) |u⊥| u⊥ at the mass (the shared constants, no leaves).
 */
import type { WindField } from "../../wind/wind-field";
import { branchDragPerLength, crossFlowDrag, cylinderDragFactor, G } from "../../wind/drag";
import type { MassSpringSystem } from "./system";

const { cos, sin, sqrt, max, min } = Math;

/** |a[o..o+2]|. */
function len(a: Float64Array, o: number): number {
  return sqrt(a[o] * a[o] + a[o + 1] * a[o + 1] + a[o + 2] * a[o + 2]);
}

export class WindLoad {
  /** Paper-literal: ½ ρ C_d (2 r L) per mass (0 on the fixed ones). */
  private readonly tipDrag: Float64Array;
  /** ½ ρ C_d (2 r) at each segment's two ends (its parent's end, its own), N s²/m⁴. */
  private readonly dragA: Float64Array;
  private readonly dragB: Float64Array;
  /** ½ ρ Σ (C_d A) of the leaves each mass carries, kg/m. */
  private readonly leaf: Float64Array;
  /** Wind at every mass this step, xyz. */
  private readonly wind: Float64Array;
  private readonly q = new Float64Array(6);
  private readonly s = new Float64Array(3);

  constructor(private readonly sys: MassSpringSystem) {
    const n = sys.count, m = sys.material, sk = sys.skeleton;
    this.tipDrag = new Float64Array(n);
    this.dragA = new Float64Array(n);
    this.dragB = new Float64Array(n);
    this.leaf = new Float64Array(n);
    this.wind = new Float64Array(3 * n);
    for (let i = 2; i < n; i++) {
      this.tipDrag[i] = cylinderDragFactor(sys.radius[i], sys.restLength[i]);
      this.dragA[i] = branchDragPerLength(m, sys.segmentRadiusA[i]);
      this.dragB[i] = branchDragPerLength(m, sys.segmentRadiusB[i]);
    }
    // Leaves: on their branch at leafX, between the nodes either side.
    const nx = sk.nodeX, half = 0.5 * m.airDensity * m.leafDragArea;
    for (let l = 0; l < sk.leafCount; l++) {
      const b = sk.leafBranch[l], x = sk.leafX[l];
      const first = sk.branchFirstNode[b], last = first + sk.branchNodeCount[b] - 1;
      if (last <= first) continue;
      let k = first;
      while (k < last - 1 && nx[k + 1] < x) k++;
      const span = nx[k + 1] - nx[k], f = span > 0 ? min(1, max(0, (x - nx[k]) / span)) : 0;
      this.leaf[sys.massOfNode[k]] += (1 - f) * half;
      this.leaf[sys.massOfNode[k + 1]] += f * half;
    }
  }

  /**
   * Wind drag and the weight of the wood, into the system's external forces. `turn` (radians)
   * turns the whole wind field about the vertical (a turning recording): sampled at the point
   * turned back, the air's velocity turned forward.
   */
  apply(wind: WindField, t: number, turn: number, gravity: number): void {
    const sys = this.sys, x = sys.position, F = sys.external, n = sys.count;
    const c = cos(turn), s = sin(turn), sample = this.s, u = this.wind;
    for (let i = 0; i < n; i++) {
      if (sys.fixed[i]) {
        u[3 * i] = u[3 * i + 1] = u[3 * i + 2] = 0;
        continue;
      }
      const px = x[3 * i], pz = x[3 * i + 2];
      wind.sample(c * px + s * pz, x[3 * i + 1], -s * px + c * pz, t, sample);
      u[3 * i] = c * sample[0] - s * sample[2];
      u[3 * i + 1] = sample[1];
      u[3 * i + 2] = s * sample[0] + c * sample[2];
    }
    F.fill(0);
    sys.dragDamping.fill(0);
    if (sys.settings.paperLiteral) this.tipLoads();
    else this.distributedLoads();
    if (gravity > 0) sys.addGravity(G * gravity);
    for (let i = 0; i < n; i++) if (sys.fixed[i]) F[3 * i] = F[3 * i + 1] = F[3 * i + 2] = 0;
  }

  /** Calibrated: the distributed drag of every segment and the leaves' (file comment). */
  private distributedLoads(): void {
    const sys = this.sys, x = sys.position, v = sys.velocity, F = sys.external, par = sys.parent, n = sys.count, u = this.wind, q = this.q;
    for (let i = 2; i < n; i++) {
      const j = par[i];
      const bx = x[3 * i] - x[3 * j], by = x[3 * i + 1] - x[3 * j + 1], bz = x[3 * i + 2] - x[3 * j + 2];
      // The parent's end sees the wind at the parent mass (the trunk base: the wind at its child).
      const wj = sys.fixed[j] ? i : j;
      crossFlowDrag(this.dragA[i], u[3 * wj] - v[3 * j], u[3 * wj + 1] - v[3 * j + 1], u[3 * wj + 2] - v[3 * j + 2], bx, by, bz, q, 0);
      crossFlowDrag(this.dragB[i], u[3 * i] - v[3 * i], u[3 * i + 1] - v[3 * i + 1], u[3 * i + 2] - v[3 * i + 2], bx, by, bz, q, 3);
      const L = sqrt(bx * bx + by * by + bz * bz) / 6;
      for (let e = 0; e < 3; e++) {
        F[3 * j + e] += L * (2 * q[e] + q[3 + e]);
        F[3 * i + e] += L * (q[e] + 2 * q[3 + e]);
      }
      // |∂(k|w|w)/∂v| ≤ 2 k |w|: each end's share of the segment's, for the implicit step.
      const ca = 2 * sqrt(this.dragA[i] * len(q, 0)), cb = 2 * sqrt(this.dragB[i] * len(q, 3));
      sys.dragDamping[j] += L * (2 * ca + cb);
      sys.dragDamping[i] += L * (ca + 2 * cb);
    }
    const leaf = this.leaf;
    for (let i = 2; i < n; i++) {
      const k = leaf[i];
      if (k === 0) continue;
      const rx = u[3 * i] - v[3 * i], ry = u[3 * i + 1] - v[3 * i + 1], rz = u[3 * i + 2] - v[3 * i + 2];
      const a = k * sqrt(rx * rx + ry * ry + rz * rz);
      sys.dragDamping[i] += 2 * a;
      F[3 * i] += a * rx;
      F[3 * i + 1] += a * ry;
      F[3 * i + 2] += a * rz;
    }
  }

  /** Paper-literal: each mass's segment's drag at the mass. */
  private tipLoads(): void {
    const sys = this.sys, x = sys.position, v = sys.velocity, F = sys.external, par = sys.parent, n = sys.count, u = this.wind;
    for (let i = 2; i < n; i++) {
      const p = par[i];
      crossFlowDrag(
        this.tipDrag[i], u[3 * i] - v[3 * i], u[3 * i + 1] - v[3 * i + 1], u[3 * i + 2] - v[3 * i + 2],
        x[3 * i] - x[3 * p], x[3 * i + 1] - x[3 * p + 1], x[3 * i + 2] - x[3 * p + 2], F, 3 * i,
      );
      sys.dragDamping[i] = 2 * sqrt(this.tipDrag[i] * len(F, 3 * i));
    }
  }
}
