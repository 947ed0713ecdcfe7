/**
 * The wood as the extraction reads it: a triangle mesh, its connected parts (vertices joined by a
 * triangle or at one position) and its vertex graph over triangle edges, on which geodesic
 * distances are measured (geodesic.ts). Plain TypeScript over typed arrays: no Babylon.
 */
import type { TreeSkeleton } from "../skeleton";

/** A triangle mesh: xyz per vertex (metres, +y up, base on the ground) and three indices per triangle. */
export interface WoodMesh {
  positions: Float32Array;
  indices: Uint32Array | Uint16Array;
}

/** A branch hierarchy found in a mesh's wood, with the branch of each of its vertices. */
export interface PartsHierarchy {
  skeleton: TreeSkeleton;
  /** Branch of every vertex of the mesh (the binding's branch index); -1 for a vertex no triangle uses. */
  vertexBranch: Int32Array;
  /** Parts found (connected pieces of wood). */
  parts: number;
}

/** The connected parts of a mesh (meshParts). */
export interface MeshParts {
  count: number;
  /** Part of every vertex (0 .. count - 1, numbered by first vertex); -1 for a vertex no triangle uses. */
  partOfVertex: Int32Array;
  /** The first vertex at each vertex's position (itself when it is the first). */
  canon: Int32Array;
}

/** Vertices closer than this fraction of the model's size are one (seams split by UVs or normals). */
const WELD = 1e-6;

/**
 * Connected parts of a mesh: vertices joined by a triangle, or at the same position, are one part.
 * Returns the part of every vertex (0 .. count - 1, numbered by first vertex); -1 for a vertex no
 * triangle uses (a buffer shared with the leaves holds theirs too).
 */
export function meshParts(mesh: WoodMesh): MeshParts {
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

/** Vertices of each part, part by part (a counting sort): part p's are order[start[p]] .. order[start[p + 1] - 1]. */
export function verticesByPart(partOfVertex: Int32Array, count: number): { start: Int32Array; order: Int32Array } {
  const start = new Int32Array(count + 1);
  for (let i = 0; i < partOfVertex.length; i++) if (partOfVertex[i] >= 0) start[partOfVertex[i] + 1]++;
  for (let p = 0; p < count; p++) start[p + 1] += start[p];
  const fill = start.slice(0, count), order = new Int32Array(start[count]);
  for (let i = 0; i < partOfVertex.length; i++) if (partOfVertex[i] >= 0) order[fill[partOfVertex[i]]++] = i;
  return { start, order };
}

/**
 * Triangles of each part, part by part: part p's are the vertex triples
 * corners[3 * k .. 3 * k + 2] for k in start[p] .. start[p + 1] - 1.
 */
export function trianglesByPart(indices: ArrayLike<number>, partOfVertex: Int32Array, count: number): { start: Int32Array; corners: Uint32Array } {
  const start = new Int32Array(count + 1);
  for (let t = 0; t < indices.length; t += 3) start[partOfVertex[indices[t]] + 1]++;
  for (let p = 0; p < count; p++) start[p + 1] += start[p];
  const fill = start.slice(0, count), corners = new Uint32Array(3 * start[count]);
  for (let t = 0; t < indices.length; t += 3) {
    const k = fill[partOfVertex[indices[t]]]++;
    corners[3 * k] = indices[t];
    corners[3 * k + 1] = indices[t + 1];
    corners[3 * k + 2] = indices[t + 2];
  }
  return { start, corners };
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
