/**
 * The forest's motion (Zioma 2007 §6.4, §6.5), stateless and evaluated per vertex, as the vertex
 * shader evaluates it (forest.glsl.ts mirrors every line): no per-frame CPU step and no previous
 * frame. A tree's pose at time t is a function of t, the wind at the tree and the tree alone:
 *
 * - the wind at the tree: the scene's wind texture (ForestWindGrid, §6.3.1 "sampled from a
 *   two-dimensional texture in the vertex shader"), bilinear at the tree's (x, z): the WindField's
 *   horizontal wind now and WIND_POWER_DELAY earlier (Example 6-1's delayed wind power), gusts that
 *   roll and the wind primitives included, turned into the tree's own frame by its yaw;
 * - each branch's own rotation (§6.4, a rotation vector about its origin): the static bend of the
 *   physical tree under the drag |u| u (the calibrated procedural-wind's compliance, physics.ts),
 *   divided by the tree's stiffness, swaying about it at the branch's natural frequency
 *   (frequency × 1/√stiffness, Fig. 6-3) with the tree's and the branch's phase (§6.3.3), saturated
 *   as the single tree's twin saturates (MAX_TRUNK_ANGLE, MAX_BRANCH_ANGLE). The trunk leans under
 *   the mean of the drag now and WIND_POWER_DELAY ago: a two-tap version of the single tree's
 *   response window, which a vertex shader cannot afford per tree;
 * - skinning (§6.5): the vertex's own rotation blended with its parent's by 1 - (1 - x)^e, then
 *   every ancestor's about its origin, blended at the attachment point, parents last;
 * - simulation levels of detail (§6.3.2): the rotations of level 1 are weighted by w1, of levels 2
 *   and more by w2 (1 near, 0 far; forest-lod.ts), so far trees move with their trunk only; the
 *   geometry a coarser level of detail drops shrinks to its anchor across the same band.
 * Plain TypeScript over typed arrays, no Babylon.
 */
import type { TreeSkeleton } from "../tree/skeleton";
import { tipNode } from "../tree/skeleton";
import { nodeWVector } from "../tree/geometry";
import type { PhysicalMaterial } from "../physics/material";
import { defaultMaterial } from "../physics/material";
import { Rng } from "../math/rng";
import { ProceduralWindTwin, MAX_BRANCH_ANGLE, MAX_TRUNK_ANGLE, WIND_POWER_DELAY, branchTexel } from "../animators/procedural-wind/twin";
import { proceduralWindParams } from "../animators/procedural-wind/params";
import { defaultsOf } from "../math/params";

const { floor, hypot, max, min, pow, round, sin, sqrt, tanh } = Math;

/** Texels (RGBA32F) per branch in a variant's table:
 *  0: origin.xyz, parent (-1 for the trunk)
 *  1: compliance along x: rotation vector per (m/s)² of |u| u along the tree's x, level (0..3)
 *  2: compliance along z, joint exponent e (§6.5 blend)
 *  3: natural angular frequency ω (rad/s), phase (rad), blend of the parent at this branch's attachment, 0 */
export const FOREST_TEXELS = 4;
export const FOREST_BRANCHES_PER_ROW = 256;
export const FOREST_TABLE_WIDTH = FOREST_TEXELS * FOREST_BRANCHES_PER_ROW;
/** Sway about the static bend, as a share of it: the trunk's and the branches' (Branch sway's default third). */
export const TRUNK_SWAY = 0.15;
export const BRANCH_SWAY = 1 / 3;
/** Deepest chain of branches (a branch and its ancestors) the skinning walks: the GLSL loop's bound; a deeper tree is refused. */
export const MAX_CHAIN = 48;
/** Largest argument given to tanh: some GPUs' tanh overflows for large ones (tanh(10) = 1 - 4e-9). */
export const TANH_CLAMP = 10;
/** A vertex never dropped by a coarser level of detail. */
export const NEVER_DROPPED = 9;

/** Float offset of texel j of branch b in a table. */
export function forestTexel(b: number, j: number): number {
  const row = floor(b / FOREST_BRANCHES_PER_ROW);
  return 4 * (row * FOREST_TABLE_WIDTH + (b - row * FOREST_BRANCHES_PER_ROW) * FOREST_TEXELS + j);
}

/** A tree variant's static branch table (the content of its RGBA32F texture) and its top. */
export interface ForestVariantTable {
  readonly branchCount: number;
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
  /** The trunk's tip node at rest (tree-local) and its w-vector: forestProbe's point. */
  readonly top: Float64Array;
  readonly topW: Float64Array;
  /** Highest hierarchy level (capped at 3). */
  readonly maxLevel: number;
}

/** The table of a skeleton under a material (the physical tree's compliance and frequencies). */
export function forestVariantTable(skeleton: TreeSkeleton, material: PhysicalMaterial = defaultMaterial()): ForestVariantTable {
  // Every branch's chain to the trunk must fit the shader's walk.
  for (let b = 0; b < skeleton.branchCount; b++) {
    let depth = 1;
    for (let p = skeleton.branchParent[b]; p >= 0; p = skeleton.branchParent[p]) depth++;
    if (depth > MAX_CHAIN) throw new RangeError(`forest: a branch of this tree hangs ${depth} branches deep, past the forest's ${MAX_CHAIN}; use a lower depth or another tree`);
  }
  const twin = new ProceduralWindTwin(skeleton, defaultsOf(proceduralWindParams), new Rng(0x2007), material);
  const n = skeleton.branchCount;
  const height = max(1, Math.ceil(n / FOREST_BRANCHES_PER_ROW));
  const data = new Float32Array(4 * FOREST_TABLE_WIDTH * height);
  const src = twin.branchData, C = twin.compliance;
  const rng = new Rng(0xf0e5);
  let maxLevel = 0;
  for (let b = 0; b < n; b++) {
    const o0 = forestTexel(b, 0), o1 = forestTexel(b, 1), o2 = forestTexel(b, 2), o3 = forestTexel(b, 3);
    const s0 = branchTexel(b, 0), s3 = branchTexel(b, 3);
    const level = min(3, skeleton.branchLevel[b]);
    maxLevel = max(maxLevel, level);
    data[o0] = src[s0]; data[o0 + 1] = src[s0 + 1]; data[o0 + 2] = src[s0 + 2];
    data[o0 + 3] = skeleton.branchParent[b];
    data[o1] = C[6 * b]; data[o1 + 1] = C[6 * b + 1]; data[o1 + 2] = C[6 * b + 2]; data[o1 + 3] = level;
    data[o2] = C[6 * b + 3]; data[o2 + 1] = C[6 * b + 4]; data[o2 + 2] = C[6 * b + 5]; data[o2 + 3] = src[s3 + 3];
    data[o3] = twin.branchOmega[b];
    data[o3 + 1] = rng.range(0, 2 * Math.PI);
    const p = skeleton.branchParent[b];
    data[o3 + 2] = p < 0 ? 0 : 1 - pow(max(1 - skeleton.branchParentX[b], 0), src[branchTexel(p, 3) + 3]);
  }
  const node = tipNode(skeleton, 0);
  const top = new Float64Array([skeleton.nodePosition[3 * node], skeleton.nodePosition[3 * node + 1], skeleton.nodePosition[3 * node + 2]]);
  const topW = new Float64Array(4);
  nodeWVector(skeleton, node, topW);
  return { branchCount: n, data, width: FOREST_TABLE_WIDTH, height, top, topW, maxLevel };
}

/** What the wind grid is read through: the WindField's sample(). */
export interface ForestWindSource {
  sample(x: number, y: number, z: number, t: number, out: Float64Array, offset?: number): void;
}

/**
 * The wind over the forest as an N × N RGBA32F texture refreshed every frame (§6.3.1): texel
 * (i, j) at x = -half + i cell, z = -half + j cell holds the horizontal wind (x, z) at t and at
 * t - WIND_POWER_DELAY (before 0: at 0). Read bilinearly (at()), as the shader reads it.
 */
export class ForestWindGrid {
  readonly data: Float32Array;
  readonly cell: number;
  private readonly s = new Float64Array(3);

  constructor(readonly size: number, readonly half: number) {
    this.data = new Float32Array(4 * size * size);
    this.cell = (2 * half) / (size - 1);
  }

  /** Samples the wind at every texel for time t. No allocation. */
  fill(wind: ForestWindSource, t: number): void {
    const n = this.size, d = this.data, s = this.s, h = this.half, c = this.cell;
    const td = max(0, t - WIND_POWER_DELAY);
    for (let j = 0; j < n; j++) {
      const z = -h + j * c;
      for (let i = 0; i < n; i++) {
        const x = -h + i * c, o = 4 * (j * n + i);
        wind.sample(x, 0, z, t, s, 0);
        d[o] = s[0]; d[o + 1] = s[2];
        wind.sample(x, 0, z, td, s, 0);
        d[o + 2] = s[0]; d[o + 3] = s[2];
      }
    }
  }

  /** Bilinear read at (x, z), clamped to the grid: out[0..3] = (u_x, u_z, delayed u_x, delayed u_z). */
  at(x: number, z: number, out: Float64Array): void {
    const n = this.size, d = this.data;
    const a = min(max((x + this.half) / this.cell, 0), n - 1), b = min(max((z + this.half) / this.cell, 0), n - 1);
    const i0 = min(floor(a), n - 2), j0 = min(floor(b), n - 2);
    const fa = a - i0, fb = b - j0;
    for (let k = 0; k < 4; k++) {
      const o = 4 * (j0 * n + i0) + k;
      const lo = d[o] + (d[o + 4] - d[o]) * fa, hi = d[o + 4 * n] + (d[o + 4 * n + 4] - d[o + 4 * n]) * fa;
      out[k] = lo + (hi - lo) * fb;
    }
  }
}

/**
 * One tree of the forest as the shader sees it: tree = (x, z, phase, 1 / stiffness) and
 * lod = (cos yaw, sin yaw, w1, w2); the same vec4s as its per-instance attributes.
 */
export class ForestMotion {
  private readonly wind = new Float64Array(4);
  private readonly r = new Float64Array(3);
  private readonly q = new Float64Array(4);
  private readonly g = new Float64Array(4);

  constructor(readonly table: ForestVariantTable, readonly grid: ForestWindGrid) {}

  /** The tree's drag |u| u now and delayed, in its own frame, into g (read by branchRotation). */
  private treeWind(tree: ArrayLike<number>, lod: ArrayLike<number>): void {
    const w = this.wind, g = this.g;
    this.grid.at(tree[0], tree[1], w);
    const c = lod[0], s = lod[1];
    // World to the tree's frame: its x is (c, 0, s) and its z (-s, 0, c) in the world.
    const lx = w[0] * c + w[1] * s, lz = -w[0] * s + w[1] * c;
    const dx = w[2] * c + w[3] * s, dz = -w[2] * s + w[3] * c;
    const u = hypot(lx, lz), ud = hypot(dx, dz);
    g[0] = u * lx; g[1] = u * lz; g[2] = ud * dx; g[3] = ud * dz;
  }

  /** Branch b's own rotation vector at time t into r (see the file's comment). */
  private branchRotation(b: number, t: number, tree: ArrayLike<number>, lod: ArrayLike<number>): void {
    const d = this.table.data, g = this.g, r = this.r;
    const o1 = forestTexel(b, 1), o2 = o1 + 4, o3 = o1 + 8;
    const level = round(d[o1 + 3]);
    const trunk = level === 0;
    // The trunk leans under the mean of the drag now and delayed (two taps of the response window).
    const gx = trunk ? 0.5 * (g[0] + g[2]) : g[0], gz = trunk ? 0.5 * (g[1] + g[3]) : g[1];
    const invS = tree[3];
    const osc = 1 + (trunk ? TRUNK_SWAY : BRANCH_SWAY) * sin(d[o3] * sqrt(invS) * t + tree[2] + d[o3 + 1]);
    const k = invS * osc;
    let rx = (d[o1] * gx + d[o2] * gz) * k, ry = (d[o1 + 1] * gx + d[o2 + 1] * gz) * k, rz = (d[o1 + 2] * gx + d[o2 + 2] * gz) * k;
    const angle = hypot(rx, ry, rz);
    const limit = trunk ? MAX_TRUNK_ANGLE : MAX_BRANCH_ANGLE;
    const weight = trunk ? 1 : level === 1 ? lod[2] : lod[3];
    const sat = angle > 0 ? (limit * tanh(min(angle / limit, TANH_CLAMP)) * weight) / angle : 0;
    rx *= sat; ry *= sat; rz *= sat;
    r[0] = rx; r[1] = ry; r[2] = rz;
  }

  /** nlerp(identity, quaternion of r, k), normalised, into q. */
  private blended(k: number): void {
    const r = this.r, q = this.q;
    const angle = hypot(r[0], r[1], r[2]);
    const s = angle > 0 ? sin(0.5 * angle) / angle : 0;
    const x = r[0] * s * k, y = r[1] * s * k, z = r[2] * s * k, w = 1 - k + Math.cos(0.5 * angle) * k;
    const inv = 1 / sqrt(x * x + y * y + z * z + w * w);
    q[0] = x * inv; q[1] = y * inv; q[2] = z * inv; q[3] = w * inv;
  }

  /**
   * One vertex, tree-local: position and normal to out (position xyz, normal xyz). drop = (the
   * level of detail that drops it, anchor xyz); meshLod: the level of detail of the mesh it is in.
   */
  deformVertex(t: number, tree: ArrayLike<number>, lod: ArrayLike<number>, meshLod: number, position: ArrayLike<number>, normal: ArrayLike<number>, branchIndex: number, wVector: ArrayLike<number>, drop: ArrayLike<number>, out: Float64Array | Float32Array): void {
    let px = position[0], py = position[1], pz = position[2];
    let nx = normal[0], ny = normal[1], nz = normal[2];
    // Geometric level of detail: what the next level drops shrinks to its anchor across the band.
    if (round(drop[0]) === meshLod + 1) {
      const s = meshLod === 0 ? lod[3] : lod[2];
      px = drop[1] + (px - drop[1]) * s; py = drop[2] + (py - drop[2]) * s; pz = drop[3] + (pz - drop[3]) * s;
    }
    const b = round(branchIndex), d = this.table.data;
    if (b >= 0 && b < this.table.branchCount) {
      this.treeWind(tree, lod);
      const o0 = forestTexel(b, 0);
      const level = round(d[o0 + 7]);
      const x = wVector[level];
      this.branchRotation(b, t, tree, lod);
      this.blended(1 - pow(max(1 - x, 0), d[o0 + 11]));
      let c = b, ox = d[o0], oy = d[o0 + 1], oz = d[o0 + 2];
      for (let guard = 0; guard < MAX_CHAIN; guard++) {
        // p = o + q (p - o); n = q n.
        const q = this.q;
        const vx = px - ox, vy = py - oy, vz = pz - oz;
        const cx = q[1] * vz - q[2] * vy + q[3] * vx, cy = q[2] * vx - q[0] * vz + q[3] * vy, cz = q[0] * vy - q[1] * vx + q[3] * vz;
        px += 2 * (q[1] * cz - q[2] * cy); py += 2 * (q[2] * cx - q[0] * cz); pz += 2 * (q[0] * cy - q[1] * cx);
        const mx = q[1] * nz - q[2] * ny + q[3] * nx, my = q[2] * nx - q[0] * nz + q[3] * ny, mz = q[0] * ny - q[1] * nx + q[3] * nz;
        nx += 2 * (q[1] * mz - q[2] * my); ny += 2 * (q[2] * mx - q[0] * mz); nz += 2 * (q[0] * my - q[1] * mx);
        const oc = forestTexel(c, 0);
        const p = round(d[oc + 3]);
        if (p < 0) break;
        const kParent = d[oc + 14];
        const op = forestTexel(p, 0);
        ox = d[op]; oy = d[op + 1]; oz = d[op + 2];
        this.branchRotation(p, t, tree, lod);
        this.blended(kParent);
        c = p;
      }
    }
    out[0] = px; out[1] = py; out[2] = pz; out[3] = nx; out[4] = ny; out[5] = nz;
  }

  private readonly top = new Float64Array(6);
  private static readonly UP = [0, 1, 0];
  private static readonly KEEP = [NEVER_DROPPED, 0, 0, 0];

  /** The tree's top (the trunk's tip) in the world at time t: scale and yaw as its instance matrix, into out[o..o+2]. */
  topPosition(t: number, tree: ArrayLike<number>, lod: ArrayLike<number>, scale: number, out: Float64Array | Float32Array, o: number): void {
    const tb = this.table, v = this.top;
    this.deformVertex(t, tree, lod, 0, tb.top, ForestMotion.UP, 0, tb.topW, ForestMotion.KEEP, v);
    const c = lod[0], s = lod[1];
    out[o] = tree[0] + scale * (v[0] * c - v[2] * s);
    out[o + 1] = scale * v[1];
    out[o + 2] = tree[1] + scale * (v[0] * s + v[2] * c);
  }
}
