/**
 * The up axis of a model read from its wood when the wood is in separate parts: the trunk (the
 * largest part) stands along it. Used to normalise a model made elsewhere (tree/normalise.ts)
 * before its hierarchy is extracted. Plain TypeScript over typed arrays: no Babylon.
 */
import { centreLine, type CentreLine } from "./centre-line";
import { Geodesic } from "./geodesic";
import { meshGraph, meshParts, type WoodMesh } from "./mesh";

/**
 * A largest part holding more than this share of the wood's surface is the whole tree welded
 * into one mesh, not a trunk: its principal axis need not be the trunk's, so it says nothing.
 * (By surface, as the trunk is chosen here; extractHierarchy tells welded wood by its share of
 * the vertices, WELDED_VERTEX_SHARE.)
 */
const WELDED_SURFACE_SHARE = 0.6;
/** A trunk whose thicker third is this much thicker than its thinner third clearly tapers. */
const TAPER_CLEAR = 0.15;
/** A trunk shorter than this many diameters is a stub whose axis says nothing. */
const TRUNK_ELONGATION = 3;

/**
 * The up axis of a model from its wood in separate parts: the largest part
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
  if (area[largest] > WELDED_SURFACE_SHARE * total) return null;
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
