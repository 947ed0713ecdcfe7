/**
 * The up axis of a model read from its wood: the trunk stands along it. In separate parts, the
 * trunk is the largest part; welded into one mesh, the trunk's base is the thickest of the
 * mesh's ends (the Reeb graph of the geodesic distance from one end, reeb.ts). Used to normalise
 * a model made elsewhere (tree/normalise.ts) before its hierarchy is extracted. Plain TypeScript
 * over typed arrays: no Babylon.
 */
import { centreLine, type CentreLine } from "./centre-line";
import { Geodesic } from "./geodesic";
import { meshGraph, meshParts, type MeshGraph, type WoodMesh } from "./mesh";
import { reebGraph } from "./reeb";

/**
 * A largest part holding more than this share of the wood's surface is the whole tree welded
 * into one mesh, not a trunk: its principal axis need not be the trunk's (upFromWelded reads it).
 * (By surface, as the trunk is chosen here; extractHierarchy tells welded wood by its share of
 * the vertices, WELDED_VERTEX_SHARE.)
 */
const WELDED_SURFACE_SHARE = 0.6;
/** A trunk whose thicker third is this much thicker than its thinner third clearly tapers. */
const TAPER_CLEAR = 0.15;
/** A trunk shorter than this many diameters is a stub whose axis says nothing. */
const TRUNK_ELONGATION = 3;

/**
 * The up axis of a model from its wood. In separate parts: the largest part (by surface) is the
 * trunk, it stands along the up axis, and its base is its thicker end when it clearly tapers (a
 * conifer's trunk), else the end farther from the rest of the wood (the crown is above it).
 * Welded into one mesh (the largest part most of the surface): upFromWelded. Returns the axis
 * (of the six) nearest the trunk's direction from its base, and how well it is aligned (the
 * cosine); null when there is no wood or it does not say.
 */
export function upFromWood(mesh: WoodMesh): FoundUp | null {
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
  // Wood that is mostly one piece is welded: its largest piece is the whole tree, not a trunk;
  // the trunk is the thickest of its ends.
  if (area[largest] > WELDED_SURFACE_SHARE * total) return upFromWelded(mesh, partOfVertex, graph, largest);
  const m: number[] = [];
  for (let i = 0; i < partOfVertex.length; i++) if (partOfVertex[i] === largest) m.push(i);
  if (m.length < 3) return null;
  const trunkVerts = Int32Array.from(m), trunkTris: number[] = [];
  for (let t = 0; t < idx.length; t += 3) if (partOfVertex[idx[t]] === largest) trunkTris.push(idx[t], idx[t + 1], idx[t + 2]);
  let trunk: CentreLine = centreLine(mesh.positions, trunkVerts, trunkTris, graph, geo);
  // Measured from both ends and averaged, so the answer does not depend on which end the
  // slicing started from.
  {
    const other = centreLine(mesh.positions, trunkVerts, trunkTris, graph, geo, true);
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
  return nearestAxis(d);
}

/** An up axis found, and how well the trunk is aligned with it (the cosine). */
export interface FoundUp {
  up: "+y" | "-y" | "+z" | "-z" | "+x" | "-x";
  cos: number;
}

/** The axis (of the six) nearest direction `d`, and the cosine between them; null for no direction. */
function nearestAxis(d: readonly number[]): FoundUp | null {
  const len = Math.hypot(d[0], d[1], d[2]);
  if (!(len > 0)) return null;
  const axes = [["+x", 0, 1], ["-x", 0, -1], ["+y", 1, 1], ["-y", 1, -1], ["+z", 2, 1], ["-z", 2, -1]] as const;
  let best: FoundUp = { up: "+y", cos: -Infinity };
  for (const [name, c, sign] of axes) {
    const cos = (sign * d[c]) / len;
    if (cos > best.cos) best = { up: name, cos };
  }
  return best;
}

/** The thickest end of welded wood is its trunk's base when it is this much thicker than the next thickest. */
const BASE_CLEAR = 1.5;
/** An end is the last this share of its arc's distance from the end measured from... */
const END_SHARE = 0.25;
/** ...and this many vertices at least (a ring: a coarse mesh's end may be its last ring alone). */
const END_VERTICES = 8;
/** The trunk's direction: from its base to the next this many times as many vertices along it. */
const TRUNK_RINGS = 3;

/**
 * The up axis of wood welded into one mesh (part `part`): its ends are its twigs' tips and its
 * trunk's base, and the base is by far the thickest (a twig's tip, a limb's, even a broken top is
 * thinner). The ends are the tip arcs of the Reeb graph of the geodesic distance from one end
 * (reeb.ts), each one's thickness the radius of its last ring or so; the trunk stands from the
 * base to the vertices nearest it along the surface. Null when no end is clearly the thickest,
 * or the wood does not branch.
 */
function upFromWelded(mesh: WoodMesh, partOfVertex: Int32Array, graph: MeshGraph, part: number): FoundUp | null {
  const P = mesh.positions, canon = graph.canon, n = canon.length;
  // One end: the vertex farthest along the surface from any vertex of the part.
  let v0 = -1;
  for (let i = 0; i < n && v0 < 0; i++) if (partOfVertex[i] === part && canon[i] === i) v0 = i;
  if (v0 < 0) return null;
  const geo = new Geodesic(n), settled = new Int32Array(n);
  geo.dist[v0] = 0;
  const reached = geo.run(graph, P, [v0], settled);
  geo.clear(settled.subarray(0, reached));
  let m = measureEnds(P, partOfVertex, graph, part, settled[reached - 1]);
  // The end measured from is the root, not a tip, its measure rough (its distance starts at one
  // point of it): where it may be the thickest, measure again from the end farthest from it.
  if (m && m.root * BASE_CLEAR > m.thick) m = measureEnds(P, partOfVertex, graph, part, m.far);
  if (!m || m.base.length === 0 || m.thick < BASE_CLEAR * Math.max(m.next, m.root)) return null;
  // The trunk: from the base's centre to the centre of the vertices nearest the base along the
  // surface (its next rings).
  for (const v of m.base) geo.dist[v] = 0;
  const count = geo.run(graph, P, m.base, settled);
  const foot = [0, 0, 0], head = [0, 0, 0];
  const k = Math.min(count, (TRUNK_RINGS + 1) * m.base.length);
  for (let j = 0; j < k; j++) {
    const v = settled[j], to = j < m.base.length ? foot : head;
    for (let c = 0; c < 3; c++) to[c] += P[3 * v + c];
  }
  if (k <= m.base.length) return null;
  return nearestAxis([0, 1, 2].map((c) => head[c] / (k - m.base.length) - foot[c] / m.base.length));
}

/**
 * The ends of welded part `part` seen from vertex `source`: the tip arcs of the Reeb graph of the
 * distance from it, each one's end its last END_SHARE of distance (END_VERTICES at least) and its
 * thickness that end's radius (from the middle eigenvalue of its vertices' covariance: r^2 / 2
 * for a ring, a short piece of tube or a long one alike). `base`: the vertices of the thickest
 * end, `thick` its radius, `next` the next thickest's; `root`: the radius of the end measured
 * from (rough); `far`: the vertex farthest from it. Null when the part has fewer than two tips
 * (a tube: it does not branch).
 */
function measureEnds(P: Float32Array, partOfVertex: Int32Array, graph: MeshGraph, part: number, source: number) {
  const reeb = reebGraph(P, graph, partOfVertex, part, source);
  const { arcCount, vArc, dist, order, kidStart, lower, rootArc } = reeb;
  if (reeb.tips < 2) return null;
  const lo = new Float64Array(arcCount).fill(Infinity), hi = new Float64Array(arcCount).fill(-Infinity);
  for (const v of reeb.verts) {
    const a = vArc[v];
    lo[a] = Math.min(lo[a], dist[v]);
    hi[a] = Math.max(hi[a], dist[v]);
  }
  // Each arc's end: its vertices from its farthest (`order` is by decreasing distance); the
  // root's from its start. Their sums and products, for the covariance.
  const taken = new Int32Array(arcCount), S = new Float64Array(10 * arcCount), inEnd = new Uint8Array(P.length / 3);
  const take = (v: number) => {
    const a = vArc[v], cut = END_SHARE * (hi[a] - lo[a]);
    if (taken[a] >= END_VERTICES && (a === rootArc ? dist[v] > lo[a] + cut : dist[v] < hi[a] - cut)) return;
    taken[a]++;
    inEnd[v] = 1;
    const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2], o = 10 * a;
    S[o] += 1; S[o + 1] += x; S[o + 2] += y; S[o + 3] += z;
    S[o + 4] += x * x; S[o + 5] += y * y; S[o + 6] += z * z; S[o + 7] += x * y; S[o + 8] += x * z; S[o + 9] += y * z;
  };
  for (let k = 0; k < order.length; k++) if (vArc[order[k]] !== rootArc) take(order[k]);
  for (let k = order.length - 1; k >= 0; k--) if (vArc[order[k]] === rootArc) take(order[k]);
  const radius = (a: number) => {
    const o = 10 * a, c = S[o];
    if (c < 3) return 0;
    const mx = S[o + 1] / c, my = S[o + 2] / c, mz = S[o + 3] / c;
    return Math.sqrt(Math.max(0, 2 * middleEigenvalue(S[o + 4] / c - mx * mx, S[o + 5] / c - my * my, S[o + 6] / c - mz * mz, S[o + 7] / c - mx * my, S[o + 8] / c - mx * mz, S[o + 9] / c - my * mz)));
  };
  let base = -1, thick = 0, next = 0;
  for (let a = 0; a < arcCount; a++) {
    if (a === rootArc || lower[a] < 0 || kidStart[a + 1] !== kidStart[a]) continue;
    const r = radius(a);
    if (r > thick) {
      next = thick;
      thick = r;
      base = a;
    } else if (r > next) next = r;
  }
  const baseVerts: number[] = [];
  for (const v of reeb.verts) if (inEnd[v] && vArc[v] === base) baseVerts.push(v);
  return { base: baseVerts, thick, next, root: radius(rootArc), far: order[0] };
}

/** The middle eigenvalue of a symmetric 3 x 3 matrix (xx, yy, zz, xy, xz, yz): the closed form for its three real roots. */
function middleEigenvalue(a: number, b: number, c: number, d: number, e: number, f: number): number {
  const p1 = d * d + e * e + f * f, q = (a + b + c) / 3;
  const p2 = (a - q) ** 2 + (b - q) ** 2 + (c - q) ** 2 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  if (!(p > 0)) return q;
  // B = (A - qI) / p; r = det(B) / 2.
  const A = (a - q) / p, B = (b - q) / p, C = (c - q) / p, D = d / p, E = e / p, F = f / p;
  const r = (A * (B * C - F * F) - D * (D * C - F * E) + E * (D * F - B * E)) / 2;
  const phi = Math.acos(Math.max(-1, Math.min(1, r))) / 3;
  const largest = q + 2 * p * Math.cos(phi), smallest = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  return 3 * q - largest - smallest;
}
