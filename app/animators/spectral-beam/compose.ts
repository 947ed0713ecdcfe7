/**
 * The per-frame, per-branch half of the spectral-beam deformation (Habel, Kusternig and Wimmer
 * 2009, eqs. 18-23): each branch's ancestors' rigid motion (rotation and translation), its carried
 * frame and its own amplitude, written into the branch data texture for the vertex shader; and
 * the ease that keeps a branch from jumping when a parameter or texture changes. The per-branch
 * GPU pass (pass.glsl.ts, its twin pass.ts) computes the same per branch from its chain alone;
 * this composes the whole tree in order on the CPU, where the pass cannot run and when probed.
 */
import { growthParents, type TreeSkeleton } from "../../tree/skeleton";
import { arcLengthPosition } from "./length-correction";
import { branchTexel, slotChannel, slotTile } from "./layout";
import { easeFactor } from "./pass";
import { lookupAtlas, type DeformSource } from "./vertex";

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

export class BranchComposer {
  // Per-branch composition of the ancestors: the rigid motion p -> R_b p + T_b.
  private readonly rotation: Float64Array;
  private readonly translation: Float64Array;
  private readonly gScratch = new Float64Array(3);
  private readonly mScratch = new Float64Array(9);
  private readonly tScratch = new Float64Array(3);
  private readonly sample = new Float64Array(4);
  /**
   * The ease after a change (parameters, an edit, new textures): the motion as it was is kept when
   * the change comes (`hold`: the branch data, motion atlas and loads it was composed from); at the
   * first frame of the new motion (`startEase`) both are composed at that frame's time, and each
   * branch's A_r, A_s eases from the old motion's value into the new one's: the offset, old minus
   * new, fades as exp(-(t - easeStart) / EASE_TAU). A function of the time and these numbers, not
   * of the frames before: the GPU pass adds the same offsets (easeVersion counts their changes).
   */
  readonly easeOffset: Float64Array;
  easeStart = -1;
  easeVersion = 0;
  private held = false;
  private readonly old: { uniforms: Float32Array; branchData: Float32Array; branchCount: number; motionAtlas: Float32Array; motionSize: number };
  private readonly oldMean: Float64Array;
  private readonly oldTurbulent: Float64Array;

  /** Each branch's parent in the composition: the branch it grows from (skeleton.ts growthParents). */
  private readonly growth: { branch: Int32Array; x: Float32Array };

  constructor(skeleton: TreeSkeleton) {
    const branchCount = skeleton.branchCount;
    this.growth = growthParents(skeleton);
    this.rotation = new Float64Array(9 * branchCount);
    this.translation = new Float64Array(3 * branchCount);
    this.easeOffset = new Float64Array(2 * branchCount);
    this.old = { uniforms: new Float32Array(0), branchData: new Float32Array(0), branchCount, motionAtlas: new Float32Array(0), motionSize: 0 };
    this.oldMean = new Float64Array(3 * branchCount);
    this.oldTurbulent = new Float64Array(branchCount);
  }

  /** A change is coming: keep what the motion on show is composed from (copied into buffers made once). */
  hold(src: DeformSource, meanTip: Float64Array, turbulentTip: Float64Array): void {
    const old = this.old;
    if (old.branchData.length !== src.branchData.length) old.branchData = new Float32Array(src.branchData.length);
    if (old.motionAtlas.length !== src.motionAtlas.length) old.motionAtlas = new Float32Array(src.motionAtlas.length);
    old.branchData.set(src.branchData);
    old.motionAtlas.set(src.motionAtlas);
    old.motionSize = src.motionSize;
    old.uniforms = src.uniforms;
    this.oldMean.set(meanTip);
    this.oldTurbulent.set(turbulentTip);
    this.held = true;
  }

  /** Whether a change is held, waiting for the first frame of the new motion. */
  get holding(): boolean {
    return this.held;
  }

  /** The first frame of the new motion (`src`'s uniforms): the old motion then (with its own ease)
   *  and the new one (without), and the offsets that ease from one into the other from that time
   *  (the uniforms' own float32 time, which the compositions and the GPU pass read). */
  startEase(skeleton: TreeSkeleton, src: DeformSource, meanTip: Float64Array, turbulentTip: Float64Array): void {
    const old = this.old;
    old.uniforms = src.uniforms;
    this.compose(skeleton, old, this.oldMean, this.oldTurbulent);
    this.compose(skeleton, src, meanTip, turbulentTip, false);
    const was = old.branchData, now = src.branchData;
    for (let b = 0; b < src.branchCount; b++) {
      const o = branchTexel(b, 3);
      this.easeOffset[2 * b] = was[o] - now[o];
      this.easeOffset[2 * b + 1] = was[o + 1] - now[o + 1];
    }
    this.easeStart = src.uniforms[0];
    this.held = false;
    this.easeVersion++;
  }

  /**
   * The branch-constant part of eqs. 20-23, once per branch per frame, parents first (a parent's
   * index is always lower). A vertex's w-vector below its own level holds only attachment points
   * (§3), so what the levels above do to a vertex is the same for its whole branch: a rigid motion
   * p -> R_b p + T_b. Each ancestor moves the branch's attachment point c_b (its base node) by its
   * offset there (eq. 20 at x = w_i, summed down the chain) and turns the branch about it by the
   * ancestor's slope there: the rotation taking the ancestor's tangent t to t + u'_r r + u'_s s,
   * the direction eq. 22 gives it; on the ancestor's own normals it turns them as eq. 23 does. The
   * paper only translates the child (eq. 20) while turning its frames (eq. 22) and normals (eq. 23),
   * so in a strong wind a twig's normals leaned up to 44 degrees off its centre line; turning its
   * points as well keeps them perpendicular, and being rigid it keeps the twig's length. R_b turns
   * the points, the normals and the branch's frame alike. The branch's own amplitude A_{r,s}
   * (§5.4's trajectory lookup plus eqs. 18, 19) is constant along it too. The vertex shader then
   * applies R_b, T_b and the branch's own bend at the vertex's own x: the same result as walking
   * the hierarchy per vertex, with the per-branch work done once instead of once per vertex (as
   * Zioma 2007 §6.5.1 moves "simulation per branch" out of the per-vertex shader).
   */
  compose(skeleton: TreeSkeleton, src: DeformSource, meanTip: Float64Array, turbulentTip: Float64Array, withEase = true): void {
    const s = skeleton, d = src.branchData, u = src.uniforms;
    const R = this.rotation, T = this.translation;
    const time = u[0], mean = u[7], turb = u[8];
    const lengthCorrection = u[2] > 0.5;
    const smp = this.sample;
    const G = this.gScratch, M = this.mScratch;
    // After a change: the offset from what was shown decays (EASE_TAU).
    const ease = withEase ? easeFactor(time, this.easeStart) : 0;
    for (let b = 0; b < src.branchCount; b++) {
      const p = this.growth.branch[b];
      const j = 9 * b, k = 3 * b;
      if (p < 0) {
        for (let i = 0; i < 9; i++) R[j + i] = IDENTITY[i];
        T[k] = T[k + 1] = T[k + 2] = 0;
      } else {
        // The parent's own bend at this branch's attachment point (eqs. 20, 21, 13), in its carried frame.
        const q = branchTexel(p, 0);
        const tx = d[q], ty = d[q + 1], tz = d[q + 2], L = d[q + 3];
        const rx = d[q + 4], ry = d[q + 5], rz = d[q + 6], c2 = d[q + 7];
        const sx = d[q + 8], sy = d[q + 9], sz = d[q + 10], c4 = d[q + 11];
        const Ar = d[q + 12], As = d[q + 13];
        const x = this.growth.x[b];
        const y = lengthCorrection ? arcLengthPosition(x, Math.sqrt(Ar * Ar + As * As), c2, c4) : x;
        const y2 = y * y, P = y2 * (c2 + c4 * y2), dP = y * (2 * c2 + 4 * c4 * y2);
        const ka = L * (y - x), kr = L * Ar * P, ks = L * As * P;
        // The attachment point: moved by the parent's ancestors (R_p c + T_p), then by its own offset (eq. 20).
        const n0 = 3 * s.branchFirstNode[b];
        const cx = s.nodePosition[n0], cy = s.nodePosition[n0 + 1], cz = s.nodePosition[n0 + 2];
        const jp = 9 * p, kp = 3 * p;
        const ax = R[jp] * cx + R[jp + 1] * cy + R[jp + 2] * cz + T[kp] + ka * tx + kr * rx + ks * sx;
        const ay = R[jp + 3] * cx + R[jp + 4] * cy + R[jp + 5] * cz + T[kp + 1] + ka * ty + kr * ry + ks * sy;
        const az = R[jp + 6] * cx + R[jp + 7] * cy + R[jp + 8] * cz + T[kp + 2] + ka * tz + kr * rz + ks * sz;
        // The slope there (eq. 13): g = u'_r r + u'_s s. The rotation in the plane of t and g taking
        // t to (t + g) / sqrt(1 + |g|^2) (eq. 22's tangent):
        //   M = I + (g t^T - t g^T) / s + (1/s - 1) t t^T - g g^T / (s (1 + s)),  s = sqrt(1 + |g|^2).
        G[0] = dP * (Ar * rx + As * sx); G[1] = dP * (Ar * ry + As * sy); G[2] = dP * (Ar * rz + As * sz);
        const sq = Math.sqrt(1 + G[0] * G[0] + G[1] * G[1] + G[2] * G[2]);
        const ci = 1 / sq, cg = 1 / (sq * (1 + sq));
        const tv = this.tScratch;
        tv[0] = tx; tv[1] = ty; tv[2] = tz;
        for (let a = 0; a < 3; a++) {
          for (let c = 0; c < 3; c++) {
            M[3 * a + c] = (a === c ? 1 : 0) + ci * (G[a] * tv[c] - tv[a] * G[c]) + (ci - 1) * tv[a] * tv[c] - cg * G[a] * G[c];
          }
        }
        // R_b = M R_p; T_b = a - R_b c (the branch turns about its attachment point).
        for (let a = 0; a < 3; a++) {
          for (let c = 0; c < 3; c++) R[j + 3 * a + c] = M[3 * a] * R[jp + c] + M[3 * a + 1] * R[jp + 3 + c] + M[3 * a + 2] * R[jp + 6 + c];
        }
        T[k] = ax - (R[j] * cx + R[j + 1] * cy + R[j + 2] * cz);
        T[k + 1] = ay - (R[j + 3] * cx + R[j + 4] * cy + R[j + 5] * cz);
        T[k + 2] = az - (R[j + 6] * cx + R[j + 7] * cy + R[j + 8] * cz);
      }
      // The branch's frame, carried: R_b times its rest frame (normalised against rounding).
      const o = branchTexel(b, 0);
      for (let v = 0; v < 3; v++) {
        const f = 9 * b + 3 * v;
        const fx = s.branchFrame[f], fy = s.branchFrame[f + 1], fz = s.branchFrame[f + 2];
        const ex = R[j] * fx + R[j + 1] * fy + R[j + 2] * fz;
        const ey = R[j + 3] * fx + R[j + 4] * fy + R[j + 5] * fz;
        const ez = R[j + 6] * fx + R[j + 7] * fy + R[j + 8] * fz;
        const inv = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
        d[o + 4 * v] = ex * inv; d[o + 4 * v + 1] = ey * inv; d[o + 4 * v + 2] = ez * inv;
      }
      // Its own amplitude: §5.4's trajectory through its motion texture, eqs. 18 and 19 on top.
      const o3 = o + 12, o5 = o + 20, o6 = o + 24, o7 = o + 28, o8 = o + 32;
      // Every level, a branch deeper than 3 too (on the level-3 texture; geometry.ts wSlot gives its vertices their own x).
      const slot = Math.round(d[o5 + 3]);
      lookupAtlas(src.motionAtlas, src.motionSize, slotTile(slot), d[o6 + 3] + d[o8] * time, d[o7 + 3] + d[o8 + 1] * time, smp);
      const ch = slotChannel(slot);
      // The tip's deflection over L (u(1) = A): the turbulent drag 2 v σ_u through the branch's
      // oscillator (the texture: eq. 15 over its static response, times force / (m ω_h²)) plus the
      // mean drag's static bend (static-fit.ts; paper-literal, eq. 25) projected on the carried r and s (eqs. 18, 19).
      const soft = d[o8 + 3] / d[o + 3]; // 1 / (stiffness L): deflection goes as 1 / E (eq. 25)
      const tt = turb * turbulentTip[b], mx = meanTip[k], my = meanTip[k + 1], mz = meanTip[k + 2];
      let Ar = soft * (tt * smp[ch] + mean * (d[o + 4] * mx + d[o + 5] * my + d[o + 6] * mz));
      let As = soft * (tt * smp[ch + 1] + mean * (d[o + 8] * mx + d[o + 9] * my + d[o + 10] * mz));

      const amp = Math.sqrt(Ar * Ar + As * As), Amax = d[o + 19];
      if (amp > 0) {
        const f = (Amax * Math.tanh(amp / Amax)) / amp;
        Ar *= f; As *= f;
      }
      Ar += this.easeOffset[2 * b] * ease;
      As += this.easeOffset[2 * b + 1] * ease;
      d[o3] = Ar; d[o3 + 1] = As;
      const o4 = o + 16;
      d[o4] = T[k]; d[o4 + 1] = T[k + 1]; d[o4 + 2] = T[k + 2];
      for (let r = 0; r < 3; r++) {
        const t = o5 + 4 * r;
        d[t] = R[j + 3 * r]; d[t + 1] = R[j + 3 * r + 1]; d[t + 2] = R[j + 3 * r + 2];
      }
    }
  }

  /** Branch b's parent in the composition (-1: the root) and where on it it grows: the chain the
   *  per-branch pass walks (pass.ts). */
  parentOf(_skeleton: TreeSkeleton, b: number): number {
    return this.growth.branch[b];
  }
  attachmentOf(_skeleton: TreeSkeleton, b: number): number {
    return this.growth.x[b];
  }
  /** Whether branch b reads its motion texture (every level here). */
  moves(_skeleton: TreeSkeleton, _b: number): boolean {
    return true;
  }
}
