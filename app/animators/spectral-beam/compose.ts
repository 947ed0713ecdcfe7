/**
 * The per-frame, per-branch half of the spectral-beam deformation (Habel, Kusternig and Wimmer
 * 2009, eqs. 18-23): each branch's ancestors' displacement and normal transform, its carried
 * frame and its own amplitude, written into the branch data texture for the vertex shader; and
 * the ease that keeps a branch from jumping when a parameter or texture changes.
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import { arcLengthPosition } from "./length-correction";
import { branchTexel, EASE_TAU } from "./layout";
import { lookupAtlas, type DeformSource } from "./vertex";

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

export class BranchComposer {
  // Per-branch composition of the ancestors.
  private readonly tangentMap: Float64Array;
  private readonly normalMap: Float64Array;
  private readonly displacement: Float64Array;
  private readonly gScratch = new Float64Array(3);
  private readonly sample = new Float64Array(4);
  /** Each branch's A_r, A_s as shown last frame; after a change, the offset from the new motion
   *  that decays (EASE_TAU) and when it started. */
  private readonly previousA: Float64Array;
  private readonly olderA: Float64Array;
  private readonly easeOffset: Float64Array;
  private easePending = false;
  private easeStart = -1;
  private lastComposeTime = -1;

  constructor(branchCount: number) {
    this.tangentMap = new Float64Array(9 * branchCount);
    this.normalMap = new Float64Array(9 * branchCount);
    this.displacement = new Float64Array(3 * branchCount);
    this.previousA = new Float64Array(2 * branchCount);
    this.olderA = new Float64Array(2 * branchCount);
    this.easeOffset = new Float64Array(2 * branchCount);
  }

  /** The motion has changed (parameters, an edit, new textures): once a frame has been shown, the
   *  next compose starts from what was shown and eases into the new motion. */
  easeIn(): void {
    this.easePending = this.lastComposeTime >= 0;
  }

  /**
   * The branch-constant part of eqs. 20-23, once per branch per frame, parents first (a parent's
   * index is always lower). A vertex's w-vector below its own level holds only attachment points
   * (§3), so what the levels above do to a vertex is the same for its whole branch: the ancestors'
   * displacement Δ_b (eq. 20 at the attachment points, summed), their normal transform N_b
   * (eq. 23, composed), and the branch's frame carried by them (eq. 22). Its own amplitude A_{r,s}
   * (§5.4's trajectory lookup plus eqs. 18, 19) is constant along it too. The vertex shader then
   * applies Δ_b, N_b and the branch's own bend at the vertex's own x: the same result as walking the
   * hierarchy per vertex, with the per-branch work done once instead of once per vertex (as
   * Zioma 2007 §6.5.1 moves "simulation per branch" out of the per-vertex shader).
   */
  compose(skeleton: TreeSkeleton, src: DeformSource): void {
    const s = skeleton, d = src.branchData, u = src.uniforms;
    const J = this.tangentMap, N = this.normalMap, D = this.displacement;
    const time = u[0], wdx = u[4], wdy = u[5], wdz = u[6], mean = u[7], turb = u[8];
    const lengthCorrection = u[2] > 0.5;
    const smp = this.sample;
    const G = this.gScratch;
    // After a change: the offset from what was shown decays (EASE_TAU); captured on the first frame.
    const capture = this.easePending;
    this.easePending = false;
    if (capture) this.easeStart = time;
    const ease = this.easeStart >= 0 && time - this.easeStart < 8 * EASE_TAU ? Math.exp(-(time - this.easeStart) / EASE_TAU) : 0;
    this.lastComposeTime = time;
    for (let b = 0; b < src.branchCount; b++) {
      const p = s.branchParent[b];
      const j = 9 * b, k = 3 * b;
      if (p < 0) {
        for (let i = 0; i < 9; i++) { J[j + i] = IDENTITY[i]; N[j + i] = IDENTITY[i]; }
        D[k] = D[k + 1] = D[k + 2] = 0;
      } else {
        // The parent's own bend at this branch's attachment point (eqs. 20, 21, 13).
        const q = branchTexel(p, 0);
        const tx = d[q], ty = d[q + 1], tz = d[q + 2], L = d[q + 3];
        const rx = d[q + 4], ry = d[q + 5], rz = d[q + 6], c2 = d[q + 7];
        const sx = d[q + 8], sy = d[q + 9], sz = d[q + 10], c4 = d[q + 11];
        const Ar = d[q + 12], As = d[q + 13];
        const x = s.branchParentX[b];
        const y = lengthCorrection ? arcLengthPosition(x, Math.sqrt(Ar * Ar + As * As), c2, c4) : x;
        const y2 = y * y, P = y2 * (c2 + c4 * y2), dP = y * (2 * c2 + 4 * c4 * y2);
        const ka = L * (y - x), kr = L * Ar * P, ks = L * As * P;
        const kp = 3 * p;
        D[k] = D[kp] + ka * tx + kr * rx + ks * sx;
        D[k + 1] = D[kp + 1] + ka * ty + kr * ry + ks * sy;
        D[k + 2] = D[kp + 2] + ka * tz + kr * rz + ks * sz;
        G[0] = dP * (Ar * rx + As * sx); G[1] = dP * (Ar * ry + As * sy); G[2] = dP * (Ar * rz + As * sz);
        // eq. 22: J_b = (I + G t^T) J_p;  eq. 23: N_b = (I - t G^T) N_p.
        const jp = 9 * p;
        for (let c = 0; c < 3; c++) {
          const tj = tx * J[jp + c] + ty * J[jp + 3 + c] + tz * J[jp + 6 + c];
          const gn = G[0] * N[jp + c] + G[1] * N[jp + 3 + c] + G[2] * N[jp + 6 + c];
          J[j + c] = J[jp + c] + G[0] * tj; J[j + 3 + c] = J[jp + 3 + c] + G[1] * tj; J[j + 6 + c] = J[jp + 6 + c] + G[2] * tj;
          N[j + c] = N[jp + c] - tx * gn; N[j + 3 + c] = N[jp + 3 + c] - ty * gn; N[j + 6 + c] = N[jp + 6 + c] - tz * gn;
        }
      }
      // The branch's frame, carried: J_b times its rest frame, normalised.
      const o = branchTexel(b, 0);
      for (let v = 0; v < 3; v++) {
        const f = 9 * b + 3 * v;
        const fx = s.branchFrame[f], fy = s.branchFrame[f + 1], fz = s.branchFrame[f + 2];
        const ex = J[j] * fx + J[j + 1] * fy + J[j + 2] * fz;
        const ey = J[j + 3] * fx + J[j + 4] * fy + J[j + 5] * fz;
        const ez = J[j + 6] * fx + J[j + 7] * fy + J[j + 8] * fz;
        const inv = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
        d[o + 4 * v] = ex * inv; d[o + 4 * v + 1] = ey * inv; d[o + 4 * v + 2] = ez * inv;
      }
      // Its own amplitude: §5.4's trajectory through its motion texture, eqs. 18 and 19 on top.
      const o3 = o + 12, o5 = o + 20, o6 = o + 24, o7 = o + 28, o8 = o + 32;
      let Ar = 0, As = 0;
      if (s.branchLevel[b] < 4) {
        const slot = Math.round(d[o5 + 3]);
        lookupAtlas(src.motionAtlas, src.motionSize, slot >> 1, d[o6 + 3] + d[o8] * time, d[o7 + 3] + d[o8 + 1] * time, smp);
        const ch = 2 * (slot & 1);
        const soft = d[o8 + 3]; // load / stiffness relative to the reference: deflection goes as F / E (eq. 25)
        Ar = soft * (turb * smp[ch] + mean * (d[o + 4] * wdx + d[o + 5] * wdy + d[o + 6] * wdz));
        As = soft * (turb * smp[ch + 1] + mean * (d[o + 8] * wdx + d[o + 9] * wdy + d[o + 10] * wdz));

        const amp = Math.sqrt(Ar * Ar + As * As), Amax = d[o + 19];
        if (amp > 0) {
          const f = (Amax * Math.tanh(amp / Amax)) / amp;
          Ar *= f; As *= f;
        }
      }
      if (capture) {
        // What the branch would show now had nothing changed (the last two frames, extrapolated),
        // minus the new motion: the new motion starts from there and keeps its sway.
        const k = 2 * b;
        this.easeOffset[k] = 2 * this.previousA[k] - this.olderA[k] - Ar;
        this.easeOffset[k + 1] = 2 * this.previousA[k + 1] - this.olderA[k + 1] - As;
      }
      if (ease > 0) {
        Ar += this.easeOffset[2 * b] * ease;
        As += this.easeOffset[2 * b + 1] * ease;
      }
      d[o3] = Ar; d[o3 + 1] = As;
      this.olderA[2 * b] = this.previousA[2 * b]; this.olderA[2 * b + 1] = this.previousA[2 * b + 1];
      this.previousA[2 * b] = Ar; this.previousA[2 * b + 1] = As;
      const o4 = o + 16;
      d[o4] = D[k]; d[o4 + 1] = D[k + 1]; d[o4 + 2] = D[k + 2];
      for (let r = 0; r < 3; r++) {
        const t = o5 + 4 * r;
        d[t] = N[j + 3 * r]; d[t + 1] = N[j + 3 * r + 1]; d[t + 2] = N[j + 3 * r + 2];
      }
    }
  }
}
