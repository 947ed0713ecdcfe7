/**
 * The spectral-beam per-branch pass's TypeScript twin and inputs (pass.glsl.ts line by line;
 * Habel, Kusternig and Wimmer 2009 §6: the per-branch part of eqs. 18-23 and the motion-texture
 * lookups of §5.4). `composeChain` writes one branch's per-frame texels (its carried frame, own
 * amplitude, the ancestors' rigid motion R_b, T_b) from its chain of ancestors alone, walked from
 * the root down with the same operations compose.ts applies to the whole tree in order: no other
 * branch's texels and no earlier frame are read. The pass's table holds what the pass reads
 * besides the branch data: each branch's rest frame, its composition parent and the attachment
 * point on it, its response to the wind (the twin's meanTip and turbulentTip) and the ease
 * offsets after a change (compose.ts). No Babylon.
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import { arcLengthPosition } from "./length-correction";
import { branchTexel, BRANCHES_PER_ROW, EASE_TAU, EASE_SPAN, slotChannel, slotTile } from "./layout";
import { lookupAtlas, type DeformSource } from "./vertex";

/** Texels (RGBA32F) per branch of the pass's table:
 *  0: rest t.xyz, composition parent (-1: the root)     1: rest r.xyz, attachment x on the parent
 *  2: rest s.xyz, 1 when the branch reads its motion texture (0: none, its A is 0)
 *  3: attachment point c_b (its base node, tree-local), 0
 *  4: its tip's static deflection per (m/s)² of mean wind (xyz), its turbulent response (meanTip, turbulentTip)
 *  5: ease offsets of A_r, A_s after the last change, 0, 0 */
export const TABLE_TEXELS = 6;
export const TABLE_WIDTH = TABLE_TEXELS * BRANCHES_PER_ROW;
/** Uniform vec4s of the pass: the twin's eight (layout.ts) and (ease start, branch count, 0, 0). */
export const FRAME_VEC4S = 9;

/** Float offset of texel j of branch b in the table. */
export function tableTexel(b: number, j: number): number {
  const row = Math.floor(b / BRANCHES_PER_ROW);
  return 4 * (row * TABLE_WIDTH + (b - row * BRANCHES_PER_ROW) * TABLE_TEXELS + j);
}

/** Each branch's parent in the composition and where on it it grows (compose.ts composes along these). */
export interface CompositionParents {
  readonly branch: ArrayLike<number>;
  readonly x: ArrayLike<number>;
  /** Whether the branch reads its motion texture (a deeper level than the textures has none). */
  readonly moves: ArrayLike<number>;
}

/** The static texels of the table (0 to 3), into out (TABLE_WIDTH x rows floats x 4). */
export function writeTableStatic(s: TreeSkeleton, parents: CompositionParents, out: Float32Array): void {
  for (let b = 0; b < s.branchCount; b++) {
    const o = tableTexel(b, 0), n0 = 3 * s.branchFirstNode[b];
    for (let v = 0; v < 3; v++) for (let k = 0; k < 3; k++) out[o + 4 * v + k] = s.branchFrame[9 * b + 3 * v + k];
    out[o + 3] = parents.branch[b];
    out[o + 7] = parents.x[b];
    out[o + 11] = parents.moves[b];
    out[o + 12] = s.nodePosition[n0]; out[o + 13] = s.nodePosition[n0 + 1]; out[o + 14] = s.nodePosition[n0 + 2]; out[o + 15] = 0;
  }
}

/** The wind-response and ease texels (4, 5): again when the loads or an ease change. */
export function writeTableLoads(branchCount: number, meanTip: ArrayLike<number>, turbulentTip: ArrayLike<number>, easeOffset: ArrayLike<number>, out: Float32Array): void {
  for (let b = 0; b < branchCount; b++) {
    const o = tableTexel(b, 4);
    out[o] = meanTip[3 * b]; out[o + 1] = meanTip[3 * b + 1]; out[o + 2] = meanTip[3 * b + 2]; out[o + 3] = turbulentTip[b];
    out[o + 4] = easeOffset[2 * b]; out[o + 5] = easeOffset[2 * b + 1]; out[o + 6] = 0; out[o + 7] = 0;
  }
}

/** exp(-(t - start) / EASE_TAU) while an ease lasts, else 0 (compose.ts and the pass alike). */
export function easeFactor(t: number, start: number): number {
  const age = t - start;
  return start >= 0 && age >= 0 && age < EASE_SPAN ? Math.exp(-age / EASE_TAU) : 0;
}

/**
 * Branch b's own amplitude A_r, A_s (§5.4's trajectory lookup, eqs. 18 and 19, the tanh cap, the
 * ease) given its carried r and s, into out[0..1]: compose.ts's amplitude line by line.
 */
export function ownAmplitude(
  src: DeformSource, b: number, r: ArrayLike<number>, ro: number, s: ArrayLike<number>, so: number,
  mean: ArrayLike<number>, mo: number, turbulent: number, moves: boolean, ease: number, ex: number, ey: number, out: Float64Array,
): void {
  const d = src.branchData, u = src.uniforms, o = branchTexel(b, 0), smp = SAMPLE;
  const time = u[0];
  let Ar = 0, As = 0;
  if (moves) {
    const slot = Math.round(d[o + 23]);
    lookupAtlas(src.motionAtlas, src.motionSize, slotTile(slot), d[o + 27] + d[o + 32] * time, d[o + 31] + d[o + 33] * time, smp);
    const ch = slotChannel(slot);
    const soft = d[o + 35] / d[o + 3];
    const tt = u[8] * turbulent;
    const m = u[7] * (r[ro] * mean[mo] + r[ro + 1] * mean[mo + 1] + r[ro + 2] * mean[mo + 2]);
    const n = u[7] * (s[so] * mean[mo] + s[so + 1] * mean[mo + 1] + s[so + 2] * mean[mo + 2]);
    Ar = soft * (tt * smp[ch] + m);
    As = soft * (tt * smp[ch + 1] + n);
    const amp = Math.sqrt(Ar * Ar + As * As), Amax = d[o + 19];
    if (amp > 0) {
      const f = (Amax * Math.tanh(Math.min(amp / Amax, 10))) / amp; // the pass clamps tanh's argument
      Ar *= f; As *= f;
    }
  }
  out[0] = Ar + ex * ease;
  out[1] = As + ey * ease;
}
const SAMPLE = new Float64Array(4);

/**
 * The per-branch pass's twin: branch b's texels 0 to 7 (their per-frame parts) written into
 * `out` (a branch data array, branchTexel layout) from the static data in `src`, the table and
 * the uniforms alone. No allocation.
 */
export class ChainComposer {
  private readonly chain = new Int32Array(64);
  private readonly R = new Float64Array(9);
  private readonly T = new Float64Array(3);
  private readonly M = new Float64Array(9);
  private readonly frame = new Float64Array(9);
  private readonly A = new Float64Array(2);
  private readonly G = new Float64Array(3);

  constructor(private readonly table: Float32Array) {}

  /** The carried frame of branch c under the current R: R times its rest frame, normalised. */
  private carry(c: number): void {
    const R = this.R, F = this.frame, tb = this.table, o = tableTexel(c, 0);
    for (let v = 0; v < 3; v++) {
      const fx = tb[o + 4 * v], fy = tb[o + 4 * v + 1], fz = tb[o + 4 * v + 2];
      const ex = R[0] * fx + R[1] * fy + R[2] * fz;
      const ey = R[3] * fx + R[4] * fy + R[5] * fz;
      const ez = R[6] * fx + R[7] * fy + R[8] * fz;
      const inv = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
      F[3 * v] = ex * inv; F[3 * v + 1] = ey * inv; F[3 * v + 2] = ez * inv;
    }
  }

  /** Branch c's carried frame (into frame) and own amplitude (into A) under the current R. */
  private own(src: DeformSource, c: number, ease: number): void {
    const tb = this.table, o = tableTexel(c, 0);
    this.carry(c);
    ownAmplitude(src, c, this.frame, 3, this.frame, 6, tb, o + 16, tb[o + 19], tb[o + 11] > 0.5, ease, tb[o + 20], tb[o + 21], this.A);
  }

  composeChain(src: DeformSource, b: number, easeStart: number, out: Float32Array): void {
    const d = src.branchData, u = src.uniforms, tb = this.table, chain = this.chain;
    const R = this.R, T = this.T, M = this.M, F = this.frame, A = this.A, G = this.G;
    const lengthCorrection = u[2] > 0.5, ease = easeFactor(u[0], easeStart);
    let n = 0;
    for (let c = b; c >= 0 && n < chain.length; c = Math.round(tb[tableTexel(c, 0) + 3])) chain[n++] = c;
    R.fill(0); R[0] = R[4] = R[8] = 1; T.fill(0);
    for (let i = n - 1; i >= 1; i--) {
      const p = chain[i], c = chain[i - 1];
      this.own(src, p, ease);
      // The parent's own bend at the child's attachment point (eqs. 20, 21, 13), in its carried frame.
      const q = branchTexel(p, 0), L = d[q + 3], c2 = d[q + 7], c4 = d[q + 11], Ar = A[0], As = A[1];
      const tx = F[0], ty = F[1], tz = F[2], rx = F[3], ry = F[4], rz = F[5], sx = F[6], sy = F[7], sz = F[8];
      const oc = tableTexel(c, 0), x = tb[oc + 7];
      const y = lengthCorrection ? arcLengthPosition(x, Math.sqrt(Ar * Ar + As * As), c2, c4) : x;
      const y2 = y * y, P = y2 * (c2 + c4 * y2), dP = y * (2 * c2 + 4 * c4 * y2);
      const ka = L * (y - x), kr = L * Ar * P, ks = L * As * P;
      const cx = tb[oc + 12], cy = tb[oc + 13], cz = tb[oc + 14];
      const ax = R[0] * cx + R[1] * cy + R[2] * cz + T[0] + ka * tx + kr * rx + ks * sx;
      const ay = R[3] * cx + R[4] * cy + R[5] * cz + T[1] + ka * ty + kr * ry + ks * sy;
      const az = R[6] * cx + R[7] * cy + R[8] * cz + T[2] + ka * tz + kr * rz + ks * sz;
      // The rotation in the plane of t and g = u'_r r + u'_s s taking t to (t + g) / sqrt(1 + |g|^2).
      G[0] = dP * (Ar * rx + As * sx); G[1] = dP * (Ar * ry + As * sy); G[2] = dP * (Ar * rz + As * sz);
      const sq = Math.sqrt(1 + G[0] * G[0] + G[1] * G[1] + G[2] * G[2]);
      const ci = 1 / sq, cg = 1 / (sq * (1 + sq));
      for (let a = 0; a < 3; a++) {
        const ta = F[a];
        for (let k = 0; k < 3; k++) M[3 * a + k] = (a === k ? 1 : 0) + ci * (G[a] * F[k] - ta * G[k]) + (ci - 1) * ta * F[k] - cg * G[a] * G[k];
      }
      // R_c = M R_p; T_c = a - R_c c.
      for (let a = 0; a < 3; a++) {
        const m0 = M[3 * a], m1 = M[3 * a + 1], m2 = M[3 * a + 2];
        const r0 = m0 * R[0] + m1 * R[3] + m2 * R[6], r1 = m0 * R[1] + m1 * R[4] + m2 * R[7], r2 = m0 * R[2] + m1 * R[5] + m2 * R[8];
        M[3 * a] = r0; M[3 * a + 1] = r1; M[3 * a + 2] = r2;
      }
      R.set(M);
      T[0] = ax - (R[0] * cx + R[1] * cy + R[2] * cz);
      T[1] = ay - (R[3] * cx + R[4] * cy + R[5] * cz);
      T[2] = az - (R[6] * cx + R[7] * cy + R[8] * cz);
    }
    this.own(src, b, ease);
    const o = branchTexel(b, 0);
    for (let v = 0; v < 3; v++) {
      out[o + 4 * v] = F[3 * v]; out[o + 4 * v + 1] = F[3 * v + 1]; out[o + 4 * v + 2] = F[3 * v + 2];
    }
    out[o + 12] = A[0]; out[o + 13] = A[1];
    out[o + 16] = T[0]; out[o + 17] = T[1]; out[o + 18] = T[2];
    for (let r = 0; r < 3; r++) {
      const t = o + 20 + 4 * r;
      out[t] = R[3 * r]; out[t + 1] = R[3 * r + 1]; out[t + 2] = R[3 * r + 2];
    }
  }
}
