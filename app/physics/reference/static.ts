/**
 * The frame's statics in O(n): a tree clamped at its root is statically determinate, so every
 * element carries the resultant of the loads beyond it. One pass from the tips to the root sums the
 * loads into each element's end force and moment; one pass from the root to the tips adds each
 * element's own deflection (its exact flexibility, frame.ts) to the rigid motion of its parent joint.
 * The result is the exact small-displacement solution of K u = f for the assembled frame (the specs
 * check it against a dense solve). Plain TypeScript, no Babylon; allocation free after construction.
 */
import type { BeamFrame } from "./frame";

export class StaticSolver {
  /** Per joint: the force and moment (about the joint) of everything beyond its element. */
  private readonly resultant: Float64Array;

  constructor(readonly frame: BeamFrame) {
    this.resultant = new Float64Array(frame.dofCount);
  }

  /**
   * out = K⁻¹ load: load is 6 per joint (force xyz, moment xyz), the root's ignored (the ground
   * takes it); out is 6 per joint (displacement xyz, rotation xyz), the root's zero. out may be load.
   */
  solve(load: Float64Array, out: Float64Array): void {
    const fr = this.frame, R = this.resultant, par = fr.jointParent, x = fr.jointPosition;
    const ax = fr.axis, flex = fr.flexibility, n = fr.jointCount;
    R.set(load);
    for (let j = n - 1; j >= 1; j--) {
      const p = par[j], o = 6 * j, q = 6 * p;
      const Fx = R[o], Fy = R[o + 1], Fz = R[o + 2];
      const dx = x[3 * j] - x[3 * p], dy = x[3 * j + 1] - x[3 * p + 1], dz = x[3 * j + 2] - x[3 * p + 2];
      R[q] += Fx;
      R[q + 1] += Fy;
      R[q + 2] += Fz;
      R[q + 3] += R[o + 3] + dy * Fz - dz * Fy;
      R[q + 4] += R[o + 4] + dz * Fx - dx * Fz;
      R[q + 5] += R[o + 5] + dx * Fy - dy * Fx;
    }
    for (let c = 0; c < 6; c++) out[c] = 0;
    for (let j = 1; j < n; j++) {
      const p = par[j], o = 6 * j, q = 6 * p;
      const dx = x[3 * j] - x[3 * p], dy = x[3 * j + 1] - x[3 * p + 1], dz = x[3 * j + 2] - x[3 * p + 2];
      const rx = out[q + 3], ry = out[q + 4], rz = out[q + 5];
      // Rigid motion of the parent joint carried to this one.
      let ux = out[q] + ry * dz - rz * dy, uy = out[q + 1] + rz * dx - rx * dz, uz = out[q + 2] + rx * dy - ry * dx;
      let tx = rx, ty = ry, tz = rz;
      const f = 5 * j, B0 = flex[f], B1 = flex[f + 1], B2 = flex[f + 2], T0 = flex[f + 3], A0 = flex[f + 4];
      if (B0 !== 0 || A0 !== 0) {
        const ex = ax[3 * j], ey = ax[3 * j + 1], ez = ax[3 * j + 2];
        const Fx = R[o], Fy = R[o + 1], Fz = R[o + 2], Mx = R[o + 3], My = R[o + 4], Mz = R[o + 5];
        const tM = ex * Mx + ey * My + ez * Mz, tF = ex * Fx + ey * Fy + ez * Fz;
        tx += B0 * (Mx - tM * ex) + T0 * tM * ex + B1 * (ey * Fz - ez * Fy);
        ty += B0 * (My - tM * ey) + T0 * tM * ey + B1 * (ez * Fx - ex * Fz);
        tz += B0 * (Mz - tM * ez) + T0 * tM * ez + B1 * (ex * Fy - ey * Fx);
        ux += B1 * (My * ez - Mz * ey) + B2 * (Fx - tF * ex) + A0 * tF * ex;
        uy += B1 * (Mz * ex - Mx * ez) + B2 * (Fy - tF * ey) + A0 * tF * ey;
        uz += B1 * (Mx * ey - My * ex) + B2 * (Fz - tF * ez) + A0 * tF * ez;
      }
      out[o] = ux;
      out[o + 1] = uy;
      out[o + 2] = uz;
      out[o + 3] = tx;
      out[o + 4] = ty;
      out[o + 5] = tz;
    }
  }
}
