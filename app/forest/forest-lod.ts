/**
 * Levels of detail of the forest (Zioma 2007 §6.3.2: "simulation LOD"), plain TypeScript:
 * - bands: near trees (closer than `near`) get the full hierarchy and geometry (level 0); farther
 *   ones (to `far`) the trunk and first-level branches (level 1); the farthest the trunk only
 *   (level 2), with half and then an eighth of the leaves. Across `band` metres before each
 *   boundary the dropped branches' motion fades out (w2, then w1) and their geometry shrinks to its
 *   anchor, so a tree changes level with nothing left to pop.
 * - geometry: each variant's bark and leaves cut to what a level keeps (lodArrays), every vertex
 *   carrying the level that drops it and the anchor it shrinks to (forestDrop).
 * - buckets: per variant and level, the instance data (matrix, tree, lod) of the trees on screen,
 *   the ground cut into square chunks that are culled as a whole, rewritten when the camera has
 *   moved (ForestBuckets.assign), in preallocated arrays; budgetScale shrinks the bands to keep
 *   within a vertex budget.
 */
import type { MeshArrays } from "../tree/geometry";
import type { TreeSkeleton } from "../tree/skeleton";
import { Rng } from "../math/rng";
import type { ForestPlacement } from "./scatter";
import { NEVER_DROPPED } from "./forest-motion";

export interface ForestLodBands {
  /** Metres to the end of level 0 (full hierarchy). */
  near: number;
  /** Metres to the end of level 1 (trunk and first level). */
  far: number;
  /** Width of the blend before each boundary, metres. */
  band: number;
}

export const DEFAULT_LOD: ForestLodBands = { near: 35, far: 90, band: 12 };
export const LOD_LEVELS = 3;
export const LOD_RANGE = { min: 2, max: 800 } as const;

/** Checks bands (a RangeError names the rule) and returns a full copy. */
export function validateLod(patch: unknown, current: ForestLodBands = DEFAULT_LOD): ForestLodBands {
  if (typeof patch !== "object" || patch === null) throw new RangeError(`forestLod({ near, far, band }); got ${JSON.stringify(patch)}`);
  for (const key of Object.keys(patch)) if (!(key in DEFAULT_LOD)) throw new RangeError(`forestLod: unknown setting "${key}"; the settings are near, far, band`);
  const b = { ...current, ...(patch as Partial<ForestLodBands>) };
  for (const k of ["near", "far"] as const) {
    if (!(typeof b[k] === "number" && b[k] >= LOD_RANGE.min && b[k] <= LOD_RANGE.max)) throw new RangeError(`forestLod.${k} must be metres from ${LOD_RANGE.min} to ${LOD_RANGE.max}; got ${JSON.stringify(b[k])}`);
  }
  if (!(b.far > b.near)) throw new RangeError(`forestLod: far (${b.far} m) must be beyond near (${b.near} m)`);
  // Each blend must end before the next begins: a band past far - near would shrink at `near` what the middle mesh draws.
  const most = Math.min(b.near, b.far - b.near);
  if (!(typeof b.band === "number" && b.band >= 0 && b.band <= most)) throw new RangeError(`forestLod.band must be metres from 0 to ${most} (the smaller of near and far - near); got ${JSON.stringify(b.band)}`);
  return { near: b.near, far: b.far, band: b.band };
}

function smoothstep(e0: number, e1: number, x: number): number {
  if (e1 <= e0) return x < e1 ? 0 : 1;
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
}

/** Level of a tree `d` metres from the camera, and its motion weights w1 (level 1) and w2 (levels 2+) into out[0..1]. */
export function lodAt(d: number, bands: ForestLodBands, out: Float64Array | Float32Array, o = 0): number {
  out[o] = 1 - smoothstep(bands.far - bands.band, bands.far, d);
  out[o + 1] = 1 - smoothstep(bands.near - bands.band, bands.near, d);
  return d < bands.near ? 0 : d < bands.far ? 1 : 2;
}

/** A mesh of one level of detail: the binding the forest reads, and forestDrop (level that drops it, anchor xyz). */
export interface LodArrays extends Pick<MeshArrays, "positions" | "normals" | "uvs" | "indices" | "branchIndex" | "wVector"> {
  readonly drop: Float32Array;
  readonly vertexCount: number;
}

/**
 * forestDrop of every vertex (4 per vertex). Bark: branches of level 2 and more go at level 1, of
 * level 1 at level 2, shrinking to their origin. Leaves (each connected card): half go at level 1,
 * three eighths more at level 2 (an eighth stays), shrinking to the card's centre; the rank is seeded per card.
 */
export function dropAttributes(arrays: MeshArrays, skeleton: TreeSkeleton, leaves: boolean): Float32Array {
  const n = arrays.positions.length / 3, out = new Float32Array(4 * n);
  if (!leaves) {
    for (let v = 0; v < n; v++) {
      const b = Math.round(arrays.branchIndex[v]);
      const level = b >= 0 && b < skeleton.branchCount ? skeleton.branchLevel[b] : -1;
      out[4 * v] = level >= 2 ? 1 : level === 1 ? 2 : NEVER_DROPPED;
      if (level >= 1) {
        const node = skeleton.branchFirstNode[b];
        out[4 * v + 1] = skeleton.nodePosition[3 * node]; out[4 * v + 2] = skeleton.nodePosition[3 * node + 1]; out[4 * v + 3] = skeleton.nodePosition[3 * node + 2];
      }
    }
    return out;
  }
  // Cards: connected components of the triangles (union-find), each shrinking to its centre.
  const parent = new Int32Array(n);
  for (let v = 0; v < n; v++) parent[v] = v;
  const find = (v: number): number => {
    while (parent[v] !== v) { parent[v] = parent[parent[v]]; v = parent[v]; }
    return v;
  };
  const idx = arrays.indices;
  for (let i = 0; i < idx.length; i += 3) {
    const a = find(idx[i]), b = find(idx[i + 1]), c = find(idx[i + 2]);
    parent[b] = a; parent[find(c)] = a;
  }
  const sum = new Float64Array(4 * n);
  for (let v = 0; v < n; v++) {
    const r = find(v);
    sum[4 * r] += arrays.positions[3 * v]; sum[4 * r + 1] += arrays.positions[3 * v + 1]; sum[4 * r + 2] += arrays.positions[3 * v + 2]; sum[4 * r + 3] += 1;
  }
  const rank = new Float64Array(n).fill(-1);
  const rng = new Rng(0x1eaf);
  for (let v = 0; v < n; v++) {
    const r = find(v);
    if (rank[r] < 0) rank[r] = rng.next();
    const k = rank[r], c = sum[4 * r + 3];
    out[4 * v] = k >= 0.5 ? 1 : k >= 0.125 ? 2 : NEVER_DROPPED;
    out[4 * v + 1] = sum[4 * r] / c; out[4 * v + 2] = sum[4 * r + 1] / c; out[4 * v + 3] = sum[4 * r + 2] / c;
  }
  return out;
}

/** The vertices and triangles level `lod` keeps (those whose forestDrop level is beyond it). */
export function lodArrays(arrays: MeshArrays, drop: Float32Array, lod: number): LodArrays {
  const n = arrays.positions.length / 3;
  const map = new Int32Array(n).fill(-1);
  let kept = 0;
  for (let v = 0; v < n; v++) if (drop[4 * v] > lod) map[v] = kept++;
  const positions = new Float32Array(3 * kept), normals = new Float32Array(3 * kept), uvs = new Float32Array(2 * kept);
  const branchIndex = new Float32Array(kept), wVector = new Float32Array(4 * kept), dropOut = new Float32Array(4 * kept);
  for (let v = 0; v < n; v++) {
    const k = map[v];
    if (k < 0) continue;
    for (let c = 0; c < 3; c++) { positions[3 * k + c] = arrays.positions[3 * v + c]; normals[3 * k + c] = arrays.normals[3 * v + c]; }
    uvs[2 * k] = arrays.uvs[2 * v]; uvs[2 * k + 1] = arrays.uvs[2 * v + 1];
    branchIndex[k] = arrays.branchIndex[v];
    for (let c = 0; c < 4; c++) { wVector[4 * k + c] = arrays.wVector[4 * v + c]; dropOut[4 * k + c] = drop[4 * v + c]; }
  }
  const idx = arrays.indices, tri: number[] = [];
  for (let i = 0; i < idx.length; i += 3) {
    const a = map[idx[i]], b = map[idx[i + 1]], c = map[idx[i + 2]];
    if (a >= 0 && b >= 0 && c >= 0) tri.push(a, b, c);
  }
  return { positions, normals, uvs, indices: Uint32Array.from(tri), branchIndex, wVector, drop: dropOut, vertexCount: kept };
}

/** Shares of the bands tried, largest first, when the trees on screen would pass the vertex budget (0: every tree at the coarsest level). */
export const BUDGET_SCALES = [1, 0.75, 0.55, 0.4, 0.3, 0.2, 0.14, 0.1, 0.07, 0.05, 0];

/** Floats per instance in each bucket: the matrix (16), tree (4: x, z, phase, 1/stiffness), lod (4: cos yaw, sin yaw, w1, w2). */
export const MATRIX_FLOATS = 16;

/**
 * The forest's instances, bucketed by variant and level of detail (bucket k = variant ×
 * LOD_LEVELS + level), and the square chunks the ground is cut into for culling: `assign` writes
 * the instances of the trees in the chunks on screen (in the trees' order) and every tree's level;
 * no allocation after construction.
 */
export class ForestBuckets {
  readonly chunks: number;
  readonly chunkSize: number;
  readonly bucketCount: number;
  readonly matrices: Float32Array[] = [];
  readonly trees: Float32Array[] = [];
  readonly lods: Float32Array[] = [];
  readonly counts: Int32Array;
  /** Trees of each bucket's variant (whatever their level): its most instances. */
  readonly capacity: Int32Array;
  /** Each tree's level of detail after the last assign. */
  readonly level: Uint8Array;
  /** Each tree's chunk (row-major, -z first). */
  readonly chunkOf: Int32Array;
  private readonly w = new Float64Array(2);
  /** Per tree, what assign writes that the camera does not change: s cos yaw, s sin yaw, cos yaw, sin yaw, 1 / stiffness. */
  private readonly fixed: Float32Array;

  constructor(readonly placement: ForestPlacement, readonly variants: number, readonly area: number) {
    this.chunks = Math.max(1, Math.min(8, Math.round(area / 40)));
    this.chunkSize = area / this.chunks;
    this.bucketCount = variants * LOD_LEVELS;
    this.counts = new Int32Array(this.bucketCount);
    this.level = new Uint8Array(placement.count);
    this.chunkOf = new Int32Array(placement.count);
    const capacity = (this.capacity = new Int32Array(this.bucketCount));
    this.fixed = new Float32Array(5 * placement.count);
    for (let t = 0; t < placement.count; t++) {
      const c = Math.cos(placement.yaw[t]), sn = Math.sin(placement.yaw[t]), sc = placement.scale[t];
      this.fixed.set([c * sc, sn * sc, c, sn, 1 / placement.stiffness[t]], 5 * t);
      const cx = Math.min(this.chunks - 1, Math.max(0, Math.floor((placement.x[t] + area / 2) / this.chunkSize)));
      const cz = Math.min(this.chunks - 1, Math.max(0, Math.floor((placement.z[t] + area / 2) / this.chunkSize)));
      this.chunkOf[t] = cz * this.chunks + cx;
      for (let l = 0; l < LOD_LEVELS; l++) capacity[placement.variant[t] * LOD_LEVELS + l]++;
    }
    for (let k = 0; k < this.bucketCount; k++) {
      const c = Math.max(1, capacity[k]);
      this.matrices.push(new Float32Array(MATRIX_FLOATS * c));
      this.trees.push(new Float32Array(4 * c));
      this.lods.push(new Float32Array(4 * c));
    }
  }

  /** Centre (x, z) of chunk c. */
  chunkCentre(c: number, out: Float64Array): void {
    out[0] = -this.area / 2 + ((c % this.chunks) + 0.5) * this.chunkSize;
    out[1] = -this.area / 2 + (Math.floor(c / this.chunks) + 0.5) * this.chunkSize;
  }

  /**
   * The largest share k of BUDGET_SCALES such that the trees on screen (chunks `visible`, null:
   * all), at the levels the bands times k give them, draw at most `budget` vertices; `vertices[
   * variant × LOD_LEVELS + level]` is one tree's. Writes the vertices drawn at that share into
   * drawn[0]. No allocation.
   */
  budgetScale(cx: number, cz: number, bands: ForestLodBands, vertices: ArrayLike<number>, budget: number, visible: Uint8Array | null, drawn: Float64Array): number {
    const p = this.placement;
    let total = 0;
    for (const k of BUDGET_SCALES) {
      const near = bands.near * k, far = bands.far * k;
      total = 0;
      for (let t = 0; t < p.count; t++) {
        if (visible && !visible[this.chunkOf[t]]) continue;
        const dx = p.x[t] - cx, dz = p.z[t] - cz, d = Math.sqrt(dx * dx + dz * dz);
        total += vertices[p.variant[t] * LOD_LEVELS + (d < near ? 0 : d < far ? 1 : 2)];
      }
      if (total <= budget) {
        drawn[0] = total;
        return k;
      }
    }
    drawn[0] = total;
    return 0;
  }

  /**
   * Every tree's level and weights for a camera at (cx, cz), and the instances of the trees whose
   * chunk is on screen (`visible[chunk]` non-zero; null: every chunk) written into the buckets.
   */
  assign(cx: number, cz: number, bands: ForestLodBands, visible: Uint8Array | null = null): void {
    const p = this.placement, w = this.w, counts = this.counts, f = this.fixed;
    counts.fill(0);
    for (let t = 0; t < p.count; t++) {
      const x = p.x[t], z = p.z[t], dx = x - cx, dz = z - cz;
      const level = lodAt(Math.sqrt(dx * dx + dz * dz), bands, w);
      this.level[t] = level;
      if (visible && !visible[this.chunkOf[t]]) continue;
      const k = p.variant[t] * LOD_LEVELS + level;
      const i = counts[k]++;
      const m = this.matrices[k], o = MATRIX_FLOATS * i, q = 5 * t;
      const sc = f[q], ss = f[q + 1];
      // Row vectors (Babylon): x -> (c, 0, s), y -> up, z -> (-s, 0, c), scaled; then the translation.
      m[o] = sc; m[o + 1] = 0; m[o + 2] = ss; m[o + 3] = 0;
      m[o + 4] = 0; m[o + 5] = p.scale[t]; m[o + 6] = 0; m[o + 7] = 0;
      m[o + 8] = -ss; m[o + 9] = 0; m[o + 10] = sc; m[o + 11] = 0;
      m[o + 12] = x; m[o + 13] = 0; m[o + 14] = z; m[o + 15] = 1;
      const tr = this.trees[k], ld = this.lods[k], j = 4 * i;
      tr[j] = x; tr[j + 1] = z; tr[j + 2] = p.phase[t]; tr[j + 3] = f[q + 4];
      ld[j] = f[q + 2]; ld[j + 1] = f[q + 3]; ld[j + 2] = w[0]; ld[j + 3] = w[1];
    }
  }
}

/** The page address's text of the bands: "near,far,band". */
export function formatLod(b: ForestLodBands): string {
  return `${b.near},${b.far},${b.band}`;
}

/** Reads formatLod's text (validate with validateLod). */
export function parseLod(text: string): ForestLodBands {
  const parts = text.split(",").map(Number);
  if (parts.length !== 3) throw new RangeError("forestLod must read near,far,band in metres (e.g. 35,90,12)");
  return { near: parts[0], far: parts[1], band: parts[2] };
}
