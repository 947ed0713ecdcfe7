/**
 * The mean wind's bend of every branch, taken from the reference beam frame (app/physics/reference):
 * each branch's own tip deflection (eqs. 18, 19's mean amplitude, u(1) = A) chosen so that, after
 * its ancestors' rigid motion as compose.ts applies it (eqs. 20-22: the attachment point moved by
 * the parent's bend there, the branch turned by the parent's slope there), its tip lands where the
 * frame's static solve puts it. The same fit procedural-wind makes for its rotations (state.ts,
 * fitOwnRotations). Habel's beam is straight along the chord t of a branch; the frame follows the
 * centre line as modelled, so a curved or spiralling axis (a sympodial tree's) and a child hanging
 * off a slope the polynomial shape of eq. 7 does not have are both right at the tips.
 *
 * Small deflections: the composition is linearised (rotation vectors add, the length correction's
 * second-order shortening is left out), as the static solve is linear. Plain TypeScript, no Babylon.
 */
import { growthParents, type TreeSkeleton } from "../../tree/skeleton";

export class StaticBendFit {
  /** Per branch, its rigid motion from the ancestors: rotation vector ω and translation τ (q -> q + τ + ω × q). */
  private readonly omega: Float64Array;
  private readonly tau: Float64Array;

  /** Each branch's parent in the composition, as compose.ts follows it (skeleton.ts growthParents). */
  private readonly growth: { branch: Int32Array; x: Float32Array };

  constructor(skeleton: TreeSkeleton) {
    this.growth = growthParents(skeleton);
    this.omega = new Float64Array(3 * skeleton.branchCount);
    this.tau = new Float64Array(3 * skeleton.branchCount);
  }

  /**
   * `tips`: the frame's static tip displacement of every branch (3 per branch, tipNode order);
   * `shape(b)`: eq. 7's c2, c4 of branch b scaled to c2 + c4 = 1 (u(1) = 1). Writes into `own` (3
   * per branch) the own bend's tip displacement, across the branch's chord t: what compose.ts's
   * amplitude must add to the ancestors' motion to reach `tips`. Parents first (a parent's index is
   * lower). Allocates nothing.
   */
  fit(s: TreeSkeleton, tips: Float64Array, c2: Float64Array, c4: Float64Array, own: Float64Array): void {
    const W = this.omega, T = this.tau, f = s.branchFrame, np = s.nodePosition;
    for (let b = 0; b < s.branchCount; b++) {
      const k = 3 * b, p = this.growth.branch[b];
      if (p < 0) {
        W[k] = W[k + 1] = W[k + 2] = 0;
        T[k] = T[k + 1] = T[k + 2] = 0;
      } else {
        // The parent's bend at this branch's attachment x (eq. 20) and its slope there (eq. 21).
        const kp = 3 * p, x = this.growth.x[b], x2 = x * x;
        const P = x2 * (c2[p] + c4[p] * x2), dP = x * (2 * c2[p] + 4 * c4[p] * x2);
        const ex = own[kp], ey = own[kp + 1], ez = own[kp + 2];
        const L = Math.max(1e-3, s.branchLength[p]);
        const tx = f[9 * p], ty = f[9 * p + 1], tz = f[9 * p + 2];
        // The slope turns the child about t × g, g = dP e / L (eq. 22's tangent t + g, to first order).
        const gx = (dP * ex) / L, gy = (dP * ey) / L, gz = (dP * ez) / L;
        const wx = W[kp] + ty * gz - tz * gy, wy = W[kp + 1] + tz * gx - tx * gz, wz = W[kp + 2] + tx * gy - ty * gx;
        // The attachment point c: moved by the parent's motion and the parent's bend there.
        const c = 3 * s.branchFirstNode[b], cx = np[c], cy = np[c + 1], cz = np[c + 2];
        const ax = T[kp] + W[kp + 1] * cz - W[kp + 2] * cy + P * ex;
        const ay = T[kp + 1] + W[kp + 2] * cx - W[kp] * cz + P * ey;
        const az = T[kp + 2] + W[kp] * cy - W[kp + 1] * cx + P * ez;
        // The branch turns about c: τ = a - ω × c.
        W[k] = wx; W[k + 1] = wy; W[k + 2] = wz;
        T[k] = ax - (wy * cz - wz * cy);
        T[k + 1] = ay - (wz * cx - wx * cz);
        T[k + 2] = az - (wx * cy - wy * cx);
      }
      // What the ancestors do to the tip, and the rest across the chord is the branch's own.
      const n = 3 * (s.branchFirstNode[b] + s.branchNodeCount[b] - 1), qx = np[n], qy = np[n + 1], qz = np[n + 2];
      const rx = tips[k] - (T[k] + W[k + 1] * qz - W[k + 2] * qy);
      const ry = tips[k + 1] - (T[k + 1] + W[k + 2] * qx - W[k] * qz);
      const rz = tips[k + 2] - (T[k + 2] + W[k] * qy - W[k + 1] * qx);
      const tx = f[9 * b], ty = f[9 * b + 1], tz = f[9 * b + 2];
      const along = rx * tx + ry * ty + rz * tz;
      own[k] = rx - along * tx; own[k + 1] = ry - along * ty; own[k + 2] = rz - along * tz;
    }
  }
}
