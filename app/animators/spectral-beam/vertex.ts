/**
 * The per-vertex half of the spectral-beam deformation (Habel, Kusternig and Wimmer 2009, eqs.
 * 20-23 and §7's leaves): the same math as spectral-beam.glsl.ts line for line, reading the same
 * arrays. The twin's probe() and the tests use it to check what the shader does.
 */
import { arcLengthPosition } from "./length-correction";
import { sampleWrapped } from "./motion";
import { branchTexel, IN_PLANE_FLUTTER, LEAF_SAMPLE_SPREAD, LEAF_TILE, MAX_FLUTTER, tileFloats, UNIFORM_FLOATS } from "./layout";
import { nodeWVector } from "../../tree/geometry";
import type { TreeSkeleton } from "../../tree/skeleton";

/** What the vertex shader reads: the twin's branch data texture, motion atlas and uniforms. */
export interface DeformSource {
  readonly uniforms: Float32Array;
  readonly branchData: Float32Array;
  readonly branchCount: number;
  readonly motionAtlas: Float32Array;
  readonly motionSize: number;
}

// Scratch (no allocation per vertex).
const SAMPLE = new Float64Array(4);
const LEAF_AMP = new Float64Array(3);

export function lookupAtlas(atlas: Float32Array, size: number, tile: number, u: number, v: number, out: Float64Array): void {
  const base = tileFloats(size) * tile;
  for (let k = 0; k < 4; k++) out[k] = sampleWrapped(atlas, size, 4, base + k, u, v);
}

/**
 * The deformation of one vertex in the tree's local space (eqs. 20-23, §7), the same math as
 * spectral-beam.glsl.ts. Inputs are the vertex attributes; writes position xyz, normal xyz
 * (unnormalised, as the shader hands it on) into out.
 */
export function deformVertex(
  src: DeformSource, position: ArrayLike<number>, normal: ArrayLike<number>, branchIndex: number, w: ArrayLike<number>,
  leafFrame: ArrayLike<number>, leafCoord: ArrayLike<number>, out: Float32Array | Float64Array | number[],
): void {
  const u = src.uniforms, d = src.branchData;
  let px = position[0], py = position[1], pz = position[2];
  let nx = normal[0], ny = normal[1], nz = normal[2];
  const b = Math.round(branchIndex);
  if (!(b >= 0 && b < src.branchCount)) {
    out[0] = px; out[1] = py; out[2] = pz; out[3] = nx; out[4] = ny; out[5] = nz;
    return;
  }
  // ---- §7 leaves: flutter first, in the leaf's own frame, then every branch's bend -----------
  const leafSize = leafFrame[3];
  if (leafSize > 0 && u[11] > 0.5) {
    // Leafless mode: every leaf collapses to the origin (degenerate triangles draw nothing, in
    // the view and in the shadow map alike).
    out[0] = out[1] = out[2] = 0; out[3] = normal[0]; out[4] = normal[1]; out[5] = normal[2];
    return;
  }
  if (leafSize > 0 && u[9] > 0) {
    const amp = LEAF_AMP, smp = SAMPLE;
    amp[0] = amp[1] = amp[2] = 0;
    const inv = u[10];
    const bx = leafFrame[0], by = leafFrame[1], bz = leafFrame[2]; // b_l: the stipe
    const n0x = normal[0], n0y = normal[1], n0z = normal[2]; // n_l
    // t_l = b_l x n_l: across the leaf (the direction its coordinate across grows).
    const tx = by * n0z - bz * n0y, ty = bz * n0x - bx * n0z, tz = bx * n0y - by * n0x;
    const across = leafCoord[0], along = leafCoord[1];
    // The sample point: LEAF_SAMPLE_SPREAD of the way from the petiole to the vertex.
    const pull = (1 - LEAF_SAMPLE_SPREAD) * leafSize;
    const qx = px - pull * (along * bx + across * tx), qy = py - pull * (along * by + across * ty), qz = pz - pull * (along * bz + across * tz);
    // Projections onto the planes z = 0, y = 0, x = 0, turned and moved by -W t (§7.2, Fig. 10).
    for (let plane = 0; plane < 3; plane++) {
      const a = plane === 2 ? qy : qx, bb = plane === 0 ? qy : qz;
      const c = u[plane < 2 ? 12 + 2 * plane : 16], s = u[plane < 2 ? 13 + 2 * plane : 17];
      const weight = u[18 + plane];
      const off = 24 + 2 * plane;
      lookupAtlas(src.motionAtlas, src.motionSize, LEAF_TILE, (c * a - s * bb) * inv - u[off], (s * a + c * bb) * inv - u[off + 1], smp);
      amp[0] += weight * smp[0]; amp[1] += weight * smp[1]; amp[2] += weight * smp[2];
    }
    // u^l(x) = A^l x (§7.1); eqs. 8-10 turn that linear shear into an exact rotation.
    // Torsion (Fig. 9): frame (t_l, b_l, n_l), x = across; opposite sides move opposite ways.
    let A = MAX_FLUTTER * Math.tanh((u[9] * amp[1]) / MAX_FLUTTER);
    let s = Math.sqrt(1 + A * A);
    let k1 = leafSize * across * (1 / s - 1), k2 = (leafSize * across * A) / s;
    px += k1 * tx + k2 * n0x; py += k1 * ty + k2 * n0y; pz += k1 * tz + k2 * n0z;
    let rn = n0x * nx + n0y * ny + n0z * nz;
    nx -= A * rn * tx; ny -= A * rn * ty; nz -= A * rn * tz; // eq. 23
    // Translational flutter: frame (b_l, n_l, t_l), x = along the stipe.
    A = MAX_FLUTTER * Math.tanh((u[9] * amp[0]) / MAX_FLUTTER);
    s = Math.sqrt(1 + A * A);
    k1 = leafSize * along * (1 / s - 1); k2 = (leafSize * along * A) / s;
    px += k1 * bx + k2 * n0x; py += k1 * by + k2 * n0y; pz += k1 * bz + k2 * n0z;
    rn = n0x * nx + n0y * ny + n0z * nz;
    nx -= A * rn * bx; ny -= A * rn * by; nz -= A * rn * bz;
    // ... and in the leaf's plane (the third channel), frame (b_l, t_l, n_l).
    A = MAX_FLUTTER * Math.tanh((IN_PLANE_FLUTTER * u[9] * amp[2]) / MAX_FLUTTER);
    s = Math.sqrt(1 + A * A);
    k1 = leafSize * along * (1 / s - 1); k2 = (leafSize * along * A) / s;
    px += k1 * bx + k2 * tx; py += k1 * by + k2 * ty; pz += k1 * bz + k2 * tz;
    rn = tx * nx + ty * ny + tz * nz;
    nx -= A * rn * bx; ny -= A * rn * by; nz -= A * rn * bz;
  }
  // ---- §6: hierarchical vertex displacement: the ancestors (composed per branch), then its own bend
  const o = branchTexel(b, 0);
  const tx = d[o], ty = d[o + 1], tz = d[o + 2], L = d[o + 3];
  const rx = d[o + 4], ry = d[o + 5], rz = d[o + 6], c2 = d[o + 7];
  const sx = d[o + 8], sy = d[o + 9], sz = d[o + 10], c4 = d[o + 11];
  const Ar = d[o + 12], As = d[o + 13];
  // The ancestors' rigid motion (compose.ts): p = R_b p + T_b, n = R_b n.
  const r0x = d[o + 20], r0y = d[o + 21], r0z = d[o + 22];
  const r1x = d[o + 24], r1y = d[o + 25], r1z = d[o + 26];
  const r2x = d[o + 28], r2y = d[o + 29], r2z = d[o + 30];
  const qx = r0x * px + r0y * py + r0z * pz, qy = r1x * px + r1y * py + r1z * pz, qz = r2x * px + r2y * py + r2z * pz;
  px = qx; py = qy; pz = qz;
  const mx = r0x * nx + r0y * ny + r0z * nz, my = r1x * nx + r1y * ny + r1z * nz, mz = r2x * nx + r2y * ny + r2z * nz;
  nx = mx; ny = my; nz = mz;
  const level = Math.round(d[o + 14]);
  const x = w[level];
  // §4.2 length correction (eq. 21's x_D), taken to the arc-length parameter.
  const y = u[2] > 0.5 ? arcLengthPosition(x, Math.sqrt(Ar * Ar + As * As), c2, c4) : x;
  const y2 = y * y;
  const P = y2 * (c2 + c4 * y2); // eq. 7
  const dP = y * (2 * c2 + 4 * c4 * y2);
  // eq. 20: p_D = R_b p_o + T_b + L ((x_D - x) t + u_r r + u_s s)
  const ka = L * (y - x), kr = L * Ar * P, ks = L * As * P;
  px += d[o + 16] + ka * tx + kr * rx + ks * sx;
  py += d[o + 17] + ka * ty + kr * ry + ks * sy;
  pz += d[o + 18] + ka * tz + kr * rz + ks * sz;
  // eq. 13 slopes at the corrected x; eq. 23 for the normal.
  const gr = Ar * dP, gs = As * dP;
  const kn = gr * (rx * nx + ry * ny + rz * nz) + gs * (sx * nx + sy * ny + sz * nz);
  nx -= kn * tx; ny -= kn * ty; nz -= kn * tz;
  out[0] = px; out[1] = py; out[2] = pz; out[3] = nx; out[4] = ny; out[5] = nz;
}

const UP = [0, 1, 0];
const NO_LEAF = [0, 0, 0, 0];
const NO_COORD = [0, 0];
const W_SCRATCH = new Float64Array(4);
const POS_SCRATCH = new Float64Array(3);
const OUT_SCRATCH = new Float64Array(6);

/** Deformed tree-local position of branch b's tip node (deformVertex of its tip) into out[o..o+2]. No allocation. */
export function tipPosition(src: DeformSource, s: TreeSkeleton, b: number, out: Float32Array | Float64Array, o: number): void {
  const node = s.branchFirstNode[b] + s.branchNodeCount[b] - 1;
  nodeWVector(s, node, W_SCRATCH);
  POS_SCRATCH[0] = s.nodePosition[3 * node]; POS_SCRATCH[1] = s.nodePosition[3 * node + 1]; POS_SCRATCH[2] = s.nodePosition[3 * node + 2];
  deformVertex(src, POS_SCRATCH, UP, b, W_SCRATCH, NO_LEAF, NO_COORD, OUT_SCRATCH);
  out[o] = OUT_SCRATCH[0]; out[o + 1] = OUT_SCRATCH[1]; out[o + 2] = OUT_SCRATCH[2];
}

/** True when the uniforms or (`branches`) the branch data (c2, c4, A_r, A_s, T_b) hold NaN or infinity. */
export function hasNonFinite(src: DeformSource, branches: boolean): boolean {
  for (let i = 0; i < UNIFORM_FLOATS; i++) if (!Number.isFinite(src.uniforms[i])) return true;
  if (!branches) return false;
  const d = src.branchData;
  for (let b = 0; b < src.branchCount; b++) {
    const o = branchTexel(b, 0);
    if (!Number.isFinite(d[o + 7] + d[o + 11] + d[o + 12] + d[o + 13] + d[o + 16] + d[o + 17] + d[o + 18])) return true;
  }
  return false;
}
