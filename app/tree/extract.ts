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
  /** Branch of every vertex of the mesh (the binding's branch index). */
  vertexBranch: Int32Array;
  /** Parts found (connected pieces of wood), one branch each. */
  parts: number;
}

/** Vertices closer than this fraction of the model's size are one (seams split by UVs or normals). */
const WELD = 1e-6;
/** A placed part offers itself as parent to the part ends within this many of its radii (plus 2% of the model). */
const SEARCH_RADII = 4;
/** Centre-line nodes per branch at most (the slices along its axis). */
const MAX_SLICES = 40;

/**
 * Connected parts of a mesh: vertices joined by a triangle, or at the same position, are one part.
 * Returns the part of every vertex (0 .. count - 1, numbered by first vertex).
 */
export function meshParts(mesh: WoodMesh): { count: number; partOfVertex: Int32Array } {
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
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    if (a >= n || b >= n || c >= n) throw new RangeError(`triangle ${t / 3} uses vertex ${Math.max(a, b, c)}, but the mesh has ${n}`);
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
  for (let i = 0; i < n; i++) keys[i] = `${Math.round(positions[3 * i] * q)},${Math.round(positions[3 * i + 1] * q)},${Math.round(positions[3 * i + 2] * q)}`;
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const j = seen.get(keys[i]);
    if (j === undefined) seen.set(keys[i], i);
    else join(i, j);
  }
  const partOfVertex = new Int32Array(n);
  const label = new Int32Array(n).fill(-1);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const r = find(i);
    if (label[r] < 0) label[r] = count++;
    partOfVertex[i] = label[r];
  }
  return { count, partOfVertex };
}

/** A part's centre line: nodes (xyz), radii, from one end to the other. */
interface CentreLine {
  nodes: Float64Array;
  radii: Float64Array;
  /** Lowest y of the part's vertices. */
  lowY: number;
}

/** Centre line of the vertices `verts` (indices into positions): slices along the principal axis. */
function centreLine(positions: Float32Array, verts: Int32Array): CentreLine {
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
  // Covariance, then its principal eigenvector by power iteration.
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
  let smin = Infinity, smax = -Infinity;
  for (let k = 0; k < m; k++) {
    const i = 3 * verts[k];
    const s = (positions[i] - cx) * ax + (positions[i + 1] - cy) * ay + (positions[i + 2] - cz) * az;
    smin = Math.min(smin, s);
    smax = Math.max(smax, s);
  }
  const length = Math.max(1e-9, smax - smin);
  // The spread across the axis sets how many slices the part is worth (about one per diameter).
  let spread = 0;
  for (let k = 0; k < m; k++) {
    const i = 3 * verts[k];
    const dx = positions[i] - cx, dy = positions[i + 1] - cy, dz = positions[i + 2] - cz;
    const s = dx * ax + dy * ay + dz * az;
    spread += Math.sqrt(Math.max(0, dx * dx + dy * dy + dz * dz - s * s));
  }
  spread /= m;
  const bins = Math.max(2, Math.min(MAX_SLICES, Math.round(length / Math.max(1e-9, 2 * spread))));
  const sum = new Float64Array(4 * bins);
  const bin = new Int32Array(m);
  for (let k = 0; k < m; k++) {
    const i = 3 * verts[k];
    const s = (positions[i] - cx) * ax + (positions[i + 1] - cy) * ay + (positions[i + 2] - cz) * az;
    const b = Math.min(bins - 1, Math.floor(((s - smin) / length) * bins));
    bin[k] = b;
    sum[4 * b] += positions[i];
    sum[4 * b + 1] += positions[i + 1];
    sum[4 * b + 2] += positions[i + 2];
    sum[4 * b + 3]++;
  }
  const nodes: number[] = [], counts: number[] = [], idOfBin = new Int32Array(bins).fill(-1);
  for (let b = 0; b < bins; b++) {
    const c = sum[4 * b + 3];
    if (c === 0) continue;
    idOfBin[b] = counts.length;
    nodes.push(sum[4 * b] / c, sum[4 * b + 1] / c, sum[4 * b + 2] / c);
    counts.push(c);
  }
  const radii = new Float64Array(counts.length);
  for (let k = 0; k < m; k++) {
    const i = 3 * verts[k], j = idOfBin[bin[k]];
    const dx = positions[i] - nodes[3 * j], dy = positions[i + 1] - nodes[3 * j + 1], dz = positions[i + 2] - nodes[3 * j + 2];
    const s = dx * ax + dy * ay + dz * az;
    radii[j] += Math.sqrt(Math.max(0, dx * dx + dy * dy + dz * dz - s * s)) / counts[j];
  }
  // The end slices' centroids sit inside the part: stretch the line to the part's ends along the axis.
  const last = counts.length - 1;
  if (last >= 1) {
    const s0 = (nodes[0] - cx) * ax + (nodes[1] - cy) * ay + (nodes[2] - cz) * az;
    const s1 = (nodes[3 * last] - cx) * ax + (nodes[3 * last + 1] - cy) * ay + (nodes[3 * last + 2] - cz) * az;
    const d0 = s0 - smin, d1 = smax - s1;
    nodes[0] -= d0 * ax; nodes[1] -= d0 * ay; nodes[2] -= d0 * az;
    nodes[3 * last] += d1 * ax; nodes[3 * last + 1] += d1 * ay; nodes[3 * last + 2] += d1 * az;
  } else {
    nodes.push(nodes[0] + length * ax * 0.5, nodes[1] + length * ay * 0.5, nodes[2] + length * az * 0.5);
    nodes[0] -= length * ax * 0.5; nodes[1] -= length * ay * 0.5; nodes[2] -= length * az * 0.5;
    return { nodes: Float64Array.from(nodes), radii: Float64Array.of(radii[0], radii[0]), lowY };
  }
  return { nodes: Float64Array.from(nodes), radii, lowY };
}

/** Nearest point of polyline `line` to p: squared distance, the segment and the fraction along it. */
function nearestOnLine(line: Float64Array, px: number, py: number, pz: number, out: { d2: number; seg: number; f: number }): void {
  out.d2 = Infinity;
  for (let j = 0; j + 5 < line.length; j += 3) {
    const ax = line[j], ay = line[j + 1], az = line[j + 2];
    const ex = line[j + 3] - ax, ey = line[j + 4] - ay, ez = line[j + 5] - az;
    const ll = ex * ex + ey * ey + ez * ez;
    let f = ll > 0 ? ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / ll : 0;
    f = Math.min(1, Math.max(0, f));
    const dx = ax + f * ex - px, dy = ay + f * ey - py, dz = az + f * ez - pz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < out.d2) {
      out.d2 = d2;
      out.seg = j / 3;
      out.f = f;
    }
  }
}

/** Arc-length fraction of the point `f` along segment `seg` of polyline `line`, from its start (or its end when `reversed`). */
function arcFraction(line: Float64Array, seg: number, f: number, reversed: boolean): number {
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
export function extractFromParts(mesh: WoodMesh): PartsHierarchy {
  const { count, partOfVertex } = meshParts(mesh);
  if (count === 0) throw new RangeError("the wood has no vertices");
  // Vertices of each part (counting sort).
  const start = new Int32Array(count + 1);
  for (let i = 0; i < partOfVertex.length; i++) start[partOfVertex[i] + 1]++;
  for (let p = 0; p < count; p++) start[p + 1] += start[p];
  const fill = start.slice(0, count), order = new Int32Array(partOfVertex.length);
  for (let i = 0; i < partOfVertex.length; i++) order[fill[partOfVertex[i]]++] = i;
  const lines: CentreLine[] = [];
  for (let p = 0; p < count; p++) lines.push(centreLine(mesh.positions, order.subarray(start[p], start[p + 1])));

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
  for (let i = 0; i < vertexBranch.length; i++) vertexBranch[i] = branchOfPart[partOfVertex[i]];
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
 * between the segment's two nodes.
 */
export function bindVertices(s: TreeSkeleton, positions: Float32Array, vertexBranch: Int32Array): VertexBinding {
  const n = vertexBranch.length;
  if (positions.length !== 3 * n) throw new RangeError(`binding needs xyz for each of the ${n} vertices; got ${positions.length} coordinates`);
  const branchIndex = new Float32Array(n), wVector = new Float32Array(4 * n), skinNodes = new Float32Array(4 * n), skinWeights = new Float32Array(4 * n);
  const base = branchWBase(s);
  for (let i = 0; i < n; i++) {
    const b = vertexBranch[i];
    if (!(b >= 0 && b < s.branchCount)) throw new RangeError(`vertex ${i} is on branch ${b}; the skeleton has ${s.branchCount}`);
    const px = positions[3 * i], py = positions[3 * i + 1], pz = positions[3 * i + 2];
    const first = s.branchFirstNode[b], count = s.branchNodeCount[b];
    let bestD = Infinity, bestJ = first, bestF = 0;
    for (let j = first; j < first + count - 1; j++) {
      const ax = s.nodePosition[3 * j], ay = s.nodePosition[3 * j + 1], az = s.nodePosition[3 * j + 2];
      const ex = s.nodePosition[3 * j + 3] - ax, ey = s.nodePosition[3 * j + 4] - ay, ez = s.nodePosition[3 * j + 5] - az;
      const ll = ex * ex + ey * ey + ez * ez;
      const f = ll > 0 ? Math.min(1, Math.max(0, ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / ll)) : 0;
      const dx = ax + f * ex - px, dy = ay + f * ey - py, dz = az + f * ez - pz;
      const d = dx * dx + dy * dy + dz * dz;
      if (d < bestD) {
        bestD = d;
        bestJ = j;
        bestF = f;
      }
    }
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
