/**
 * Branch hierarchy from a tree model's wood (issue 7, item 4; Habel 2009 §8: "just the geometric
 * description" turned into a hierarchy): the case where every branch is a part of its own (a tube
 * that shares no vertices with the others, as SpeedTree, EZ-Tree and our own exporter write
 * them). Each part becomes a branch: its centre line from slices along its principal axis, its
 * radius from the slices' spread, its base the end nearest the wood already placed, its parent
 * the part it grows from (grown outward from the trunk, nearest first, like Prim's tree).
 * Plain TypeScript over typed arrays: no Babylon.
 */
import { MAX_LEVELS, SkeletonBuilder, type TreeSkeleton } from "./skeleton";
import { branchWBase } from "./geometry";

/** A triangle mesh: xyz per vertex (metres, +y up, base on the ground) and three indices per triangle. */
export interface WoodMesh {
  positions: Float32Array;
  indices: Uint32Array | Uint16Array;
}

export interface PartsHierarchy {
  skeleton: TreeSkeleton;
  /** Branch of every vertex of the mesh (the binding's branch index); -1 for a vertex no triangle uses. */
  vertexBranch: Int32Array;
  /** Parts found (connected pieces of wood), one branch each. */
  parts: number;
}

/** Vertices closer than this fraction of the model's size are one (seams split by UVs or normals). */
const WELD = 1e-6;
/** A placed part offers itself as parent to the part ends within this many of its radii (plus 2% of the model). */
const SEARCH_RADII = 4;
/** A part whose vertices are all within this many times their mean distance of its axis is straight. */
const PLAINLY_STRAIGHT = 2.5;
/** A part whose geodesic length is under this many times its length along its axis is straight. */
const STRAIGHT = 1.2;
/** A trunk whose thicker third is this much thicker than its thinner third clearly tapers. */
const TAPER_CLEAR = 0.15;
/** upFromWood: a largest piece with more than this share of the wood's surface is the whole tree (welded), not a trunk. */
const WELDED_SHARE = 0.6;
/** upFromWood: a trunk shorter than this many diameters is a stub whose axis says nothing. */
const TRUNK_ELONGATION = 3;
/** Centre-line nodes per branch at most (the slices along its axis). */
const MAX_SLICES = 40;

/**
 * Connected parts of a mesh: vertices joined by a triangle, or at the same position, are one part.
 * Returns the part of every vertex (0 .. count - 1, numbered by first vertex); -1 for a vertex no
 * triangle uses (a buffer shared with the leaves holds theirs too).
 */
export function meshParts(mesh: WoodMesh): { count: number; partOfVertex: Int32Array; canon: Int32Array } {
  const { positions, indices } = mesh;
  const n = positions.length / 3;
  if (!Number.isInteger(n) || indices.length % 3 !== 0) throw new RangeError(`a mesh needs xyz per vertex and three indices per triangle; got ${positions.length} coordinates and ${indices.length} indices`);
  const up = new Int32Array(n);
  for (let i = 0; i < n; i++) up[i] = i;
  const find = (i: number): number => {
    while (up[i] !== i) {
      up[i] = up[up[i]];
      i = up[i];
    }
    return i;
  };
  const join = (a: number, b: number) => {
    const ra = find(a), rb = find(b);
    if (ra !== rb) up[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const used = new Uint8Array(n);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    if (a >= n || b >= n || c >= n) throw new RangeError(`triangle ${t / 3} uses vertex ${Math.max(a, b, c)}, but the mesh has ${n}`);
    used[a] = used[b] = used[c] = 1;
    join(a, b);
    join(b, c);
  }
  // Weld equal positions: sort by a quantised key.
  let size = 0;
  for (let c = 0; c < 3; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = c; i < positions.length; i += 3) {
      lo = Math.min(lo, positions[i]);
      hi = Math.max(hi, positions[i]);
    }
    size = Math.max(size, hi - lo);
  }
  const q = 1 / Math.max(1e-12, size * WELD);
  const keys = new Array<string>(n);
  for (let i = 0; i < n; i++) if (used[i]) keys[i] = `${Math.round(positions[3 * i] * q)},${Math.round(positions[3 * i + 1] * q)},${Math.round(positions[3 * i + 2] * q)}`;
  const seen = new Map<string, number>();
  const canon = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    canon[i] = i;
    if (!used[i]) continue;
    const j = seen.get(keys[i]);
    if (j === undefined) seen.set(keys[i], i);
    else {
      join(i, j);
      canon[i] = j;
    }
  }
  const partOfVertex = new Int32Array(n);
  const label = new Int32Array(n).fill(-1);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (!used[i]) {
      partOfVertex[i] = -1;
      continue;
    }
    const r = find(i);
    if (label[r] < 0) label[r] = count++;
    partOfVertex[i] = label[r];
  }
  return { count, partOfVertex, canon };
}

/** A part's centre line: nodes (xyz), radii, from one end to the other. */
export interface CentreLine {
  nodes: Float64Array;
  radii: Float64Array;
  /** Lowest y of the part's vertices. */
  lowY: number;
}

/**
 * Vertex adjacency of a mesh over triangle edges (CSR), with vertices at one position merged
 * into the first of them (`canon`): the graph geodesic distances are measured on.
 */
export interface MeshGraph {
  canon: Int32Array;
  start: Int32Array;
  next: Int32Array;
}

export function meshGraph(mesh: WoodMesh, canon: Int32Array): MeshGraph {
  const n = canon.length, idx = mesh.indices;
  const degree = new Int32Array(n + 1);
  for (let t = 0; t < idx.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      degree[canon[idx[t + e]] + 1]++;
      degree[canon[idx[t + ((e + 1) % 3)]] + 1]++;
    }
  }
  for (let i = 0; i < n; i++) degree[i + 1] += degree[i];
  const fill = degree.slice(0, n), next = new Int32Array(degree[n]);
  for (let t = 0; t < idx.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = canon[idx[t + e]], b = canon[idx[t + ((e + 1) % 3)]];
      next[fill[a]++] = b;
      next[fill[b]++] = a;
    }
  }
  return { canon, start: degree, next };
}

/** Scratch for geodesic distances, reused across parts (sized to the mesh). */
export class Geodesic {
  readonly dist: Float64Array;
  private readonly heap: Int32Array;
  private readonly pos: Int32Array;
  private size = 0;
  constructor(n: number) {
    this.dist = new Float64Array(n).fill(Infinity);
    this.heap = new Int32Array(n);
    this.pos = new Int32Array(n).fill(-1);
  }
  /**
   * Dijkstra over `g` from the vertices whose `dist` the caller has set (the sources), distances
   * in `dist` (Infinity where not reached; reset by `clear`).
   */
  run(g: MeshGraph, positions: Float32Array, sources: readonly number[]): void {
    const d = this.dist;
    for (const v of sources) if (this.pos[v] < 0) this.push(v);
    while (this.size > 0) {
      const u = this.pop();
      for (let k = g.start[u]; k < g.start[u + 1]; k++) {
        const v = g.next[k];
        const w = d[u] + Math.hypot(positions[3 * v] - positions[3 * u], positions[3 * v + 1] - positions[3 * u + 1], positions[3 * v + 2] - positions[3 * u + 2]);
        if (w < d[v]) {
          d[v] = w;
          if (this.pos[v] < 0) this.push(v);
          else this.up(this.pos[v]);
        }
      }
    }
  }
  clear(verts: ArrayLike<number>): void {
    for (let k = 0; k < verts.length; k++) {
      this.dist[verts[k]] = Infinity;
      this.pos[verts[k]] = -1;
    }
  }
  private push(v: number): void {
    this.heap[this.size] = v;
    this.pos[v] = this.size;
    this.up(this.size++);
  }
  private pop(): number {
    const top = this.heap[0];
    this.pos[top] = -2; // settled
    const last = this.heap[--this.size];
    if (this.size > 0) {
      this.heap[0] = last;
      this.pos[last] = 0;
      this.down(0);
    }
    return top;
  }
  private up(i: number): void {
    const h = this.heap, d = this.dist;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (d[h[p]] <= d[h[i]]) break;
      this.swap(i, p);
      i = p;
    }
  }
  private down(i: number): void {
    const h = this.heap, d = this.dist;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < this.size && d[h[l]] < d[h[m]]) m = l;
      if (r < this.size && d[h[r]] < d[h[m]]) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
  private swap(a: number, b: number): void {
    const h = this.heap, t = h[a];
    h[a] = h[b];
    h[b] = t;
    this.pos[h[a]] = a;
    this.pos[h[b]] = b;
  }
}

/**
 * Centre line of one part (its vertices `verts`, merged ones included): the level sets of the
 * geodesic distance from one end (the rim at an extreme of the part's principal axis) are its
 * cross-sections, as a tube's rings are, however it bends. Their centres are the nodes, their
 * mean distance from the local axis the radii.
 */
export function centreLine(positions: Float32Array, verts: Int32Array, graph: MeshGraph, geo: Geodesic, fromOtherEnd = false): CentreLine {
  const m = verts.length;
  let cx = 0, cy = 0, cz = 0, lowY = Infinity;
  for (let k = 0; k < m; k++) {
    const i = 3 * verts[k];
    cx += positions[i];
    cy += positions[i + 1];
    cz += positions[i + 2];
    lowY = Math.min(lowY, positions[i + 1]);
  }
  cx /= m;
  cy /= m;
  cz /= m;
  // The principal axis (power iteration on the covariance): its extreme vertex is an end.
  let xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
  for (let k = 0; k < m; k++) {
    const i = 3 * verts[k];
    const dx = positions[i] - cx, dy = positions[i + 1] - cy, dz = positions[i + 2] - cz;
    xx += dx * dx; xy += dx * dy; xz += dx * dz; yy += dy * dy; yz += dy * dz; zz += dz * dz;
  }
  let ax = xx >= yy && xx >= zz ? 1 : 0, ay = yy > xx && yy >= zz ? 1 : 0, az = ax === 0 && ay === 0 ? 1 : 0;
  for (let it = 0; it < 40; it++) {
    const nx = xx * ax + xy * ay + xz * az, ny = xy * ax + yy * ay + yz * az, nz = xz * ax + yz * ay + zz * az;
    const l = Math.hypot(nx, ny, nz);
    if (l === 0) break;
    ax = nx / l; ay = ny / l; az = nz / l;
  }
  // (The eigenvector's sign is arbitrary; `fromOtherEnd` starts from the other extreme.)
  if (fromOtherEnd) {
    ax = -ax; ay = -ay; az = -az;
  }
  let smin = Infinity;
  const proj = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const i = verts[k];
    proj[k] = (positions[3 * i] - cx) * ax + (positions[3 * i + 1] - cy) * ay + (positions[3 * i + 2] - cz) * az;
    smin = Math.min(smin, proj[k]);
  }
  let spread = 0, farthest = 0, smax = -Infinity;
  for (let k = 0; k < m; k++) {
    const i = 3 * verts[k];
    const dx = positions[i] - cx, dy = positions[i + 1] - cy, dz = positions[i + 2] - cz;
    const off = Math.sqrt(Math.max(0, dx * dx + dy * dy + dz * dz - proj[k] * proj[k]));
    spread += off / m;
    farthest = Math.max(farthest, off);
    smax = Math.max(smax, proj[k]);
  }
  // Every vertex near the axis: a straight part, sliced along it without measuring geodesics.
  const plainlyStraight = farthest < PLAINLY_STRAIGHT * spread;
  // The sources: the end's rim (the vertices within a radius of the extreme along the axis), each
  // starting at its own distance along the axis, so the level sets are cross-sections.
  const sources: number[] = [];
  for (let k = 0; k < m && !plainlyStraight; k++) {
    if (proj[k] > smin + spread) continue;
    const c = graph.canon[verts[k]];
    if (geo.dist[c] === Infinity) sources.push(c);
    geo.dist[c] = Math.min(geo.dist[c], proj[k] - smin);
  }
  let G = 0;
  if (!plainlyStraight) {
    geo.run(graph, positions, sources);
    for (let k = 0; k < m; k++) {
      const d = geo.dist[graph.canon[verts[k]]];
      if (Number.isFinite(d)) G = Math.max(G, d);
    }
  }
  // A nearly straight part is sliced along its axis (exact for a straight tube); a bent one by
  // the geodesic distance, whose level sets follow it round the bend.
  const straight = plainlyStraight || G < STRAIGHT * (smax - smin);
  if (straight) G = smax - smin;
  const key = (k: number) => (straight ? proj[k] - smin : geo.dist[graph.canon[verts[k]]]);
  // Slices about a diameter long: the diameter from the spread about the principal axis (a bent
  // part's is larger, which only makes fewer slices).
  const bins = G > 0 ? Math.max(2, Math.min(MAX_SLICES, Math.round(G / Math.max(1e-9, 2 * spread)))) : 1;
  const sum = new Float64Array(4 * bins), bin = new Int32Array(m);
  for (let k = 0; k < m; k++) {
    const i = verts[k], d = key(k);
    const b = Number.isFinite(d) && G > 0 ? Math.min(bins - 1, Math.floor((d / G) * bins)) : 0;
    bin[k] = b;
    sum[4 * b] += positions[3 * i];
    sum[4 * b + 1] += positions[3 * i + 1];
    sum[4 * b + 2] += positions[3 * i + 2];
    sum[4 * b + 3]++;
  }
  if (!plainlyStraight) geo.clear(Array.from(verts, (i) => graph.canon[i]));
  const nodes: number[] = [], counts: number[] = [], idOfBin = new Int32Array(bins).fill(-1);
  for (let b = 0; b < bins; b++) {
    const c = sum[4 * b + 3];
    if (c === 0) continue;
    idOfBin[b] = counts.length;
    nodes.push(sum[4 * b] / c, sum[4 * b + 1] / c, sum[4 * b + 2] / c);
    counts.push(c);
  }
  const nn = counts.length;
  // The local axis at each node, from its neighbours (the principal axis for a single node).
  const dir = new Float64Array(3 * nn);
  for (let j = 0; j < nn; j++) {
    const a = Math.max(0, j - 1), b = Math.min(nn - 1, j + 1);
    let dx = nodes[3 * b] - nodes[3 * a], dy = nodes[3 * b + 1] - nodes[3 * a + 1], dz = nodes[3 * b + 2] - nodes[3 * a + 2];
    let l = Math.hypot(dx, dy, dz);
    if (!(l > 0)) {
      dx = ax; dy = ay; dz = az; l = 1;
    }
    dir[3 * j] = dx / l; dir[3 * j + 1] = dy / l; dir[3 * j + 2] = dz / l;
  }
  const radii = new Float64Array(Math.max(2, nn));
  for (let k = 0; k < m; k++) {
    const i = 3 * verts[k], j = idOfBin[bin[k]];
    const dx = positions[i] - nodes[3 * j], dy = positions[i + 1] - nodes[3 * j + 1], dz = positions[i + 2] - nodes[3 * j + 2];
    const s = straight ? dx * ax + dy * ay + dz * az : dx * dir[3 * j] + dy * dir[3 * j + 1] + dz * dir[3 * j + 2];
    radii[j] += Math.sqrt(Math.max(0, dx * dx + dy * dy + dz * dz - s * s)) / counts[j];
  }
  if (nn === 1) {
    // One cross-section: a short piece along the principal axis through it.
    const h = Math.max(1e-6, G / 2);
    const p = [nodes[0], nodes[1], nodes[2]];
    return { nodes: Float64Array.of(p[0] - h * ax, p[1] - h * ay, p[2] - h * az, p[0] + h * ax, p[1] + h * ay, p[2] + h * az), radii: Float64Array.of(radii[0], radii[0]), lowY };
  }
  // The end slices' centres sit inside the part: move them out to its ends (for a straight part
  // exactly to its extremes along the axis; for a bent one half a slice along the line).
  const last = nn - 1;
  if (straight) {
    const at = (j: number) => (nodes[3 * j] - cx) * ax + (nodes[3 * j + 1] - cy) * ay + (nodes[3 * j + 2] - cz) * az;
    const d0 = at(0) - smin, d1 = smax - at(last);
    nodes[0] -= d0 * ax; nodes[1] -= d0 * ay; nodes[2] -= d0 * az;
    nodes[3 * last] += d1 * ax; nodes[3 * last + 1] += d1 * ay; nodes[3 * last + 2] += d1 * az;
  } else {
    const half = G / bins / 2;
    for (let c = 0; c < 3; c++) {
      nodes[c] -= half * dir[c];
      nodes[3 * last + c] += half * dir[3 * last + c];
    }
  }
  return { nodes: Float64Array.from(nodes), radii, lowY };
}

/**
 * Nearest point to p of the polyline through points `first` .. `first + count - 1` of `line`
 * (xyz each; default all): squared distance, the segment (counted from `first`) and the fraction along it.
 */
export function nearestOnLine(line: ArrayLike<number>, px: number, py: number, pz: number, out: { d2: number; seg: number; f: number }, first = 0, count = line.length / 3): void {
  out.d2 = Infinity;
  out.seg = 0;
  out.f = 0;
  for (let j = 3 * first; j < 3 * (first + count - 1); j += 3) {
    const ax = line[j], ay = line[j + 1], az = line[j + 2];
    const ex = line[j + 3] - ax, ey = line[j + 4] - ay, ez = line[j + 5] - az;
    const ll = ex * ex + ey * ey + ez * ez;
    let f = ll > 0 ? ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / ll : 0;
    f = Math.min(1, Math.max(0, f));
    const dx = ax + f * ex - px, dy = ay + f * ey - py, dz = az + f * ez - pz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < out.d2) {
      out.d2 = d2;
      out.seg = j / 3 - first;
      out.f = f;
    }
  }
}

/** Arc-length fraction of the point `f` along segment `seg` of polyline `line`, from its start (or its end when `reversed`). */
export function arcFraction(line: Float64Array, seg: number, f: number, reversed: boolean): number {
  let total = 0, upTo = 0;
  for (let j = 0; j + 5 < line.length; j += 3) {
    const l = Math.hypot(line[j + 3] - line[j], line[j + 4] - line[j + 1], line[j + 5] - line[j + 2]);
    if (j / 3 < seg) upTo += l;
    else if (j / 3 === seg) upTo += f * l;
    total += l;
  }
  const x = total > 0 ? upTo / total : 0;
  return reversed ? 1 - x : x;
}

/**
 * The branch hierarchy of wood made of separate parts. The trunk is the part reaching lowest;
 * then, nearest first, each part joins the wood already placed at the end of its centre line
 * nearest to it. Levels past MAX_LEVELS hang off their level-3 ancestor, as the L-system turtle
 * does, with `branchOrigin` the node they physically grow from.
 */
export function extractFromParts(mesh: WoodMesh, known?: { parts: ReturnType<typeof meshParts>; graph: MeshGraph }): PartsHierarchy {
  // The parts and the graph, when the caller has them already (extractHierarchy).
  const { count, partOfVertex, canon } = known?.parts ?? meshParts(mesh);
  if (count === 0) throw new RangeError("the wood has no triangles");
  const graph = known?.graph ?? meshGraph(mesh, canon), geo = new Geodesic(canon.length);
  // Vertices of each part (counting sort).
  const start = new Int32Array(count + 1);
  for (let i = 0; i < partOfVertex.length; i++) if (partOfVertex[i] >= 0) start[partOfVertex[i] + 1]++;
  for (let p = 0; p < count; p++) start[p + 1] += start[p];
  const fill = start.slice(0, count), order = new Int32Array(start[count]);
  for (let i = 0; i < partOfVertex.length; i++) if (partOfVertex[i] >= 0) order[fill[partOfVertex[i]]++] = i;
  const lines: CentreLine[] = [];
  for (let p = 0; p < count; p++) lines.push(centreLine(mesh.positions, order.subarray(start[p], start[p + 1]), graph, geo));

  let trunk = 0;
  for (let p = 1; p < count; p++) if (lines[p].lowY < lines[trunk].lowY) trunk = p;

  // Prim: best[p * 2 + e] = how near end e of part p is to the placed wood (see place()).
  const best = new Float64Array(2 * count).fill(Infinity);
  const bestParent = new Int32Array(2 * count).fill(-1), bestSeg = new Int32Array(2 * count), bestF = new Float64Array(2 * count);
  const placed = new Uint8Array(count);
  const near = { d2: 0, seg: 0, f: 0 };
  const attachOrder: number[] = [];
  const baseEnd = new Uint8Array(count), parentOf = new Int32Array(count).fill(-1), seg = new Int32Array(count), segF = new Float64Array(count);
  /** Whether the nearest point found on part p's line is within two base radii of p's base. */
  const nearBase = (p: number, at: { seg: number; f: number }): boolean => {
    const l = lines[p].nodes, radii = lines[p].radii, last = radii.length - 1;
    const j = 3 * at.seg, k = baseEnd[p] === 0 ? 0 : last;
    const x = l[j] + at.f * (l[j + 3] - l[j]) - l[3 * k], y = l[j + 1] + at.f * (l[j + 4] - l[j + 1]) - l[3 * k + 1], z = l[j + 2] + at.f * (l[j + 5] - l[j + 2]) - l[3 * k + 2];
    return Math.hypot(x, y, z) < 2 * radii[k];
  };
  // The parts' ends in a uniform grid: a placed part updates only the ends near it (within
  // SEARCH_RADII of its radius, or a small share of the model), not every part.
  let lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const l of lines) {
    for (let j = 0; j < l.nodes.length; j += 3) {
      for (let c = 0; c < 3; c++) {
        lo[c] = Math.min(lo[c], l.nodes[j + c]);
        hi[c] = Math.max(hi[c], l.nodes[j + c]);
      }
    }
  }
  lo = lo.map((v) => v - 1e-6);
  const modelSize = Math.max(1e-6, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const cell = modelSize / 64;
  const cellOf = (v: number, c: number) => Math.max(0, Math.min(1023, Math.floor((v - lo[c]) / cell)));
  const grid = new Map<number, number[]>();
  for (let q = 0; q < count; q++) {
    const l = lines[q].nodes;
    for (let e = 0; e < 2; e++) {
      const o = e === 0 ? 0 : l.length - 3;
      const key = cellOf(l[o], 0) + 1024 * (cellOf(l[o + 1], 1) + 1024 * cellOf(l[o + 2], 2));
      const list = grid.get(key);
      if (list) list.push(2 * q + e);
      else grid.set(key, [2 * q + e]);
    }
  }
  const update = (p: number, q: number, e: number) => {
    const line = lines[p].nodes, radii = lines[p].radii;
    {
      const l = lines[q].nodes, last = l.length - 3;
      {
        const o = e === 0 ? 0 : last;
        nearestOnLine(line, l[o], l[o + 1], l[o + 2], near);
        // Distance in the candidate's radii (under 1: inside it), so a twig starting on a thin
        // branch is not given to a thick one it passes near. A candidate whose nearest point is its
        // own base is a sibling starting at the same point, not the branch both grow from.
        const r = Math.max(1e-9, radii[near.seg] + near.f * (radii[Math.min(radii.length - 1, near.seg + 1)] - radii[near.seg]));
        const d = Math.sqrt(near.d2) / r + (nearBase(p, near) ? 1 : 0);
        if (d < best[2 * q + e]) {
          best[2 * q + e] = d;
          bestParent[2 * q + e] = p;
          bestSeg[2 * q + e] = near.seg;
          bestF[2 * q + e] = near.f;
        }
      }
    }
  };
  const place = (p: number) => {
    placed[p] = 1;
    attachOrder.push(p);
    const l = lines[p];
    let maxR = 0;
    for (let j = 0; j < l.radii.length; j++) maxR = Math.max(maxR, l.radii[j]);
    const margin = SEARCH_RADII * maxR + 0.02 * modelSize;
    const a = [Infinity, Infinity, Infinity], z = [-Infinity, -Infinity, -Infinity];
    for (let j = 0; j < l.nodes.length; j += 3) {
      for (let c = 0; c < 3; c++) {
        a[c] = Math.min(a[c], l.nodes[j + c] - margin);
        z[c] = Math.max(z[c], l.nodes[j + c] + margin);
      }
    }
    for (let iz = cellOf(a[2], 2); iz <= cellOf(z[2], 2); iz++) {
      for (let iy = cellOf(a[1], 1); iy <= cellOf(z[1], 1); iy++) {
        for (let ix = cellOf(a[0], 0); ix <= cellOf(z[0], 0); ix++) {
          const list = grid.get(ix + 1024 * (iy + 1024 * iz));
          if (!list) continue;
          for (const end of list) if (!placed[end >> 1]) update(p, end >> 1, end & 1);
        }
      }
    }
  };
  /** Every unplaced end against every placed part: for pieces far from everything placed so far. */
  const updateAll = () => {
    for (const p of attachOrder) for (let q = 0; q < count; q++) if (!placed[q]) for (let e = 0; e < 2; e++) update(p, q, e);
  };
  // The trunk's base is its lower end.
  {
    const l = lines[trunk].nodes;
    baseEnd[trunk] = l[1] <= l[l.length - 2] ? 0 : 1;
  }
  place(trunk);
  let measuredAll = false;
  for (let k = 1; k < count; k++) {
    let pick = -1, end = 0, d = Infinity;
    for (let q = 0; q < count; q++) {
      if (placed[q]) continue;
      for (let e = 0; e < 2; e++) {
        if (best[2 * q + e] < d) {
          d = best[2 * q + e];
          pick = q;
          end = e;
        }
      }
    }
    if (pick < 0) {
      // Nothing unplaced is near the placed wood: measure the far pieces against all of it.
      if (measuredAll) throw new RangeError(`part ${k} of the wood cannot be placed (its centre line is not finite)`);
      updateAll();
      measuredAll = true;
      k--;
      continue;
    }
    measuredAll = false;
    baseEnd[pick] = end;
    parentOf[pick] = bestParent[2 * pick + end];
    seg[pick] = bestSeg[2 * pick + end];
    segF[pick] = bestF[2 * pick + end];
    place(pick);
  }

  // Branches in placing order: parents before children. Nodes from the base end.
  const branchOfPart = new Int32Array(count);
  const level: number[] = [], attachX: number[] = [], parentBranch: number[] = [];
  const builder = new SkeletonBuilder();
  const nodeOrder = (p: number, k: number) => (baseEnd[p] === 0 ? k : lines[p].radii.length - 1 - k);
  for (const p of attachOrder) {
    const b = builder.branchCount;
    const line = lines[p], n = line.radii.length;
    if (p === trunk) {
      builder.addBranch(-1, 0);
      level.push(0);
      attachX.push(0);
      parentBranch.push(-1);
    } else {
      const q = parentOf[p], qb = branchOfPart[q], ql = lines[q];
      // Where along the parent (its own base-to-tip order), as a fraction of its arc length.
      const qn = ql.radii.length, fromBase = baseEnd[q] === 0 ? seg[p] + segF[p] : qn - 1 - (seg[p] + segF[p]);
      const x = arcFraction(ql.nodes, seg[p], segF[p], baseEnd[q] === 1);
      const originNode = Math.round(fromBase);
      let parent = qb, at = x;
      while (parent >= 0 && level[parent] + 1 >= MAX_LEVELS) {
        at = attachX[parent];
        parent = parentBranch[parent];
      }
      builder.addBranch(parent, at, null, { branch: qb, node: originNode });
      level.push(parent < 0 ? 0 : level[parent] + 1);
      attachX.push(at);
      parentBranch.push(parent);
    }
    branchOfPart[p] = b;
    for (let k = 0; k < n; k++) {
      const j = nodeOrder(p, k);
      builder.addNode(b, line.nodes[3 * j], line.nodes[3 * j + 1], line.nodes[3 * j + 2], Math.max(1e-4, line.radii[j]));
    }
  }
  const vertexBranch = new Int32Array(partOfVertex.length);
  for (let i = 0; i < vertexBranch.length; i++) vertexBranch[i] = partOfVertex[i] >= 0 ? branchOfPart[partOfVertex[i]] : -1;
  return { skeleton: builder.build(), vertexBranch, parts: count };
}

/** The per-vertex binding every method reads (tree/geometry.ts, BINDING_ATTRIBUTES), for a model's own vertices. */
export interface VertexBinding {
  branchIndex: Float32Array;
  /** 4 per vertex: Habel 2009 §3's w-vector. */
  wVector: Float32Array;
  /** 4 per vertex: the two nearest centre-line nodes of the vertex's branch (then 0, 0). */
  skinNodes: Float32Array;
  /** 4 per vertex, summing to 1. */
  skinWeights: Float32Array;
}

/**
 * Binds a model's own vertices to a skeleton (issue 7, item 4): each vertex to the nearest point
 * on its branch's centre line (`vertexBranch`), giving its w-vector (its x along the branch at
 * its level, the attachment positions of its ancestors below; Habel 2009 §3) and skinning weights
 * between the segment's two nodes. A vertex on branch -1 (used by no triangle of the wood) is left
 * unbound: branch index -1, zero weights.
 */
export function bindVertices(s: TreeSkeleton, positions: Float32Array, vertexBranch: Int32Array): VertexBinding {
  const n = vertexBranch.length;
  if (positions.length !== 3 * n) throw new RangeError(`binding needs xyz for each of the ${n} vertices; got ${positions.length} coordinates`);
  const branchIndex = new Float32Array(n), wVector = new Float32Array(4 * n), skinNodes = new Float32Array(4 * n), skinWeights = new Float32Array(4 * n);
  const base = branchWBase(s);
  const near = { d2: 0, seg: 0, f: 0 };
  for (let i = 0; i < n; i++) {
    const b = vertexBranch[i];
    if (b === -1) {
      branchIndex[i] = -1; // a vertex no triangle of the wood uses: left unbound
      continue;
    }
    if (!(b >= 0 && b < s.branchCount)) throw new RangeError(`vertex ${i} is on branch ${b}; the skeleton has ${s.branchCount}`);
    const first = s.branchFirstNode[b];
    nearestOnLine(s.nodePosition, positions[3 * i], positions[3 * i + 1], positions[3 * i + 2], near, first, s.branchNodeCount[b]);
    const bestJ = first + near.seg, bestF = near.f;
    branchIndex[i] = b;
    for (let c = 0; c < 4; c++) wVector[4 * i + c] = base[4 * b + c];
    const level = s.branchLevel[b];
    if (level < 4) wVector[4 * i + level] = s.nodeX[bestJ] + bestF * (s.nodeX[bestJ + 1] - s.nodeX[bestJ]);
    skinNodes[4 * i] = bestJ;
    skinNodes[4 * i + 1] = bestJ + 1;
    skinWeights[4 * i] = 1 - bestF;
    skinWeights[4 * i + 1] = bestF;
  }
  return { branchIndex, wVector, skinNodes, skinWeights };
}

/**
 * The up axis of a model from its wood in separate parts (issue 7, item 2): the largest part
 * (by surface) is the trunk, it stands along the up axis, and its base is its thicker end when it
 * clearly tapers (a conifer's trunk), else the end farther from the rest of the wood (the crown is
 * above it). Returns the axis (of the six) nearest the trunk's
 * direction from its base, and how well it is aligned (the cosine); null when there is no wood.
 */
export function upFromWood(mesh: WoodMesh): { up: "+y" | "-y" | "+z" | "-z" | "+x" | "-x"; cos: number } | null {
  const { count, partOfVertex, canon } = meshParts(mesh);
  if (count === 0) return null;
  const graph = meshGraph(mesh, canon), geo = new Geodesic(canon.length);
  // The trunk: the part with the largest surface (a sum over its triangles; radii estimated from
  // slices can mislead on a bent limb).
  const area = new Float64Array(count), P = mesh.positions, idx = mesh.indices;
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2];
    const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
    area[partOfVertex[idx[t]]] += 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  }
  let largest = 0, total = 0;
  for (let q = 0; q < count; q++) {
    total += area[q];
    if (area[q] > area[largest]) largest = q;
  }
  // Wood that is mostly one piece is welded: its largest piece is the whole tree, not a trunk.
  if (area[largest] > WELDED_SHARE * total) return null;
  const m: number[] = [];
  for (let i = 0; i < partOfVertex.length; i++) if (partOfVertex[i] === largest) m.push(i);
  if (m.length < 3) return null;
  const trunkVerts = Int32Array.from(m);
  let trunk: CentreLine = centreLine(mesh.positions, trunkVerts, graph, geo);
  // Measured from both ends and averaged, so the answer does not depend on which end the
  // slicing started from.
  {
    const other = centreLine(mesh.positions, trunkVerts, graph, geo, true);
    if (other.radii.length === trunk.radii.length) {
      const n = trunk.radii.length, radii = new Float64Array(n);
      for (let j = 0; j < n; j++) radii[j] = (trunk.radii[j] + other.radii[n - 1 - j]) / 2;
      trunk = { ...trunk, radii };
    }
  }
  // Else its base is the end farther from the rest of the wood (the crown is above the trunk).
  let cx = 0, cy = 0, cz = 0, k = 0;
  for (let i = 0; i < partOfVertex.length; i++) {
    if (partOfVertex[i] < 0) continue;
    cx += mesh.positions[3 * i];
    cy += mesh.positions[3 * i + 1];
    cz += mesh.positions[3 * i + 2];
    k++;
  }
  cx /= k;
  cy /= k;
  cz /= k;
  const n = trunk.radii.length, t = trunk.nodes;
  const far = (j: number) => Math.hypot(t[3 * j] - cx, t[3 * j + 1] - cy, t[3 * j + 2] - cz);
  // A trunk that clearly tapers says it first: its thicker end is its base.
  // (The end slices are left out: how an end is closed or cut changes them, not the taper.)
  const third = Math.max(1, Math.floor(n / 3));
  let r0 = 0, r1 = 0;
  for (let j = n > 4 ? 1 : 0; j < (n > 4 ? third + 1 : third); j++) {
    r0 += trunk.radii[j];
    r1 += trunk.radii[n - 1 - j];
  }
  const tapers = Math.abs(r0 - r1) > TAPER_CLEAR * Math.max(r0, r1);
  // The direction from its base to its top.
  const [a, b] = (tapers ? r0 > r1 : far(0) > far(n - 1)) ? [0, n - 1] : [n - 1, 0];
  const d = [t[3 * b] - t[3 * a], t[3 * b + 1] - t[3 * a + 1], t[3 * b + 2] - t[3 * a + 2]];
  const len = Math.hypot(d[0], d[1], d[2]);
  if (!(len > 0)) return null;
  // A stub (a low-poly tree's cube of a trunk) has no direction to tell.
  let meanRadius = 0;
  for (let j = 0; j < n; j++) meanRadius += trunk.radii[j] / n;
  if (len < TRUNK_ELONGATION * 2 * meanRadius) return null;
  const axes = [["+x", 0, 1], ["-x", 0, -1], ["+y", 1, 1], ["-y", 1, -1], ["+z", 2, 1], ["-z", 2, -1]] as const;
  let best: { up: (typeof axes)[number][0]; cos: number } = { up: "+y", cos: -Infinity };
  for (const [name, c, sign] of axes) {
    const cos = (sign * d[c]) / len;
    if (cos > best.cos) best = { up: name, cos };
  }
  return best;
}
