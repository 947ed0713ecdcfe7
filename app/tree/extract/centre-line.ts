/**
 * Centre line of one part of the wood: the level sets of the geodesic distance from one end are
 * its cross-sections, as a tube's rings are, however it bends; a part nearly straight is sliced
 * along its principal axis instead (exact for a straight tube, and no geodesic to measure).
 * Plain TypeScript over typed arrays: no Babylon.
 */
import { MAX_NODES } from "./constants";
import type { Geodesic } from "./geodesic";
import type { MeshGraph } from "./mesh";

/** A part whose vertices are all within this many times their mean distance of its axis is straight. */
const PLAINLY_STRAIGHT = 2.5;
/** A part whose geodesic length is under this many times its length along its axis is straight. */
const STRAIGHT = 1.2;

/** A triangle is sampled at this many points, at least, per slice its key spans... */
const SAMPLES_PER_SLICE = 4;
/** ...cut into this many squared at most. */
const SAMPLES_MAX = 12;

/** A part's centre line: nodes (xyz), radii, from one end to the other. */
export interface CentreLine {
  nodes: Float64Array;
  radii: Float64Array;
  /** Lowest y of the part's vertices. */
  lowY: number;
  /**
   * The same line through the mean of each slice's vertices (its rings), with the radii measured
   * from it: where the parts' hierarchy looks for the point a child grows from (parts.ts). A
   * child's base lies on its parent's ring, where the parent's tube bends; a slice's surface
   * centroid cuts the corner of that bend (1 to 3 cm on the sympodial tree's twigs, over half
   * their radius), the ring's centre does not. Not a skeleton's nodes: on a low-poly tube a slice
   * that caught part of a ring puts its centre on the bark, with a radius of 0.
   */
  rings: Float64Array;
  ringRadii: Float64Array;
}

/**
 * Centre line of one part (its vertices `verts`, merged ones included, and its triangles `tris`,
 * three vertex indices each): the level sets of the geodesic distance from one end (the rim at an
 * extreme of the part's principal axis) are its cross-sections, as a tube's rings are, however it
 * bends. The centroids of the surface between them are the nodes, their vertices' mean distance
 * from the local axis the radii.
 */
export function centreLine(positions: Float32Array, verts: Int32Array, tris: ArrayLike<number>, graph: MeshGraph, geo: Geodesic, fromOtherEnd = false): CentreLine {
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
  const bins = G > 0 ? Math.max(2, Math.min(MAX_NODES, Math.round(G / Math.max(1e-9, 2 * spread)))) : 1;
  // Each slice's centre is the centroid of the part's surface inside it (its triangles sampled
  // finely enough along the slicing key), not of its vertices: a low-poly tube's rings lie about
  // a slice apart, and a slice that caught part of a ring (or a lone vertex, or one position
  // written three times along a seam) put its node on the bark (a zigzag of short segments
  // turning back on themselves) with a radius of 0 (a hinge in the middle of a branch). A band of
  // a tube's surface surrounds its axis however the rings fall.
  const surf = new Float64Array(4 * bins);
  const keyOf = (i: number) => (straight ? (positions[3 * i] - cx) * ax + (positions[3 * i + 1] - cy) * ay + (positions[3 * i + 2] - cz) * az - smin : geo.dist[graph.canon[i]]);
  const width = G / bins;
  for (let t = 0; t + 2 < tris.length && G > 0; t += 3) {
    const a = tris[t], b = tris[t + 1], c = tris[t + 2];
    const ka = keyOf(a), kb = keyOf(b), kc = keyOf(c);
    if (!Number.isFinite(ka) || !Number.isFinite(kb) || !Number.isFinite(kc)) continue;
    const Ax = positions[3 * a], Ay = positions[3 * a + 1], Az = positions[3 * a + 2];
    const ux = positions[3 * b] - Ax, uy = positions[3 * b + 1] - Ay, uz = positions[3 * b + 2] - Az;
    const vx = positions[3 * c] - Ax, vy = positions[3 * c + 1] - Ay, vz = positions[3 * c + 2] - Az;
    const area = 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    if (!(area > 0)) continue;
    // Cut into n² equal triangles, each a sample at its centroid, a few to a slice along the key.
    const n = Math.min(SAMPLES_MAX, Math.max(1, Math.ceil((SAMPLES_PER_SLICE * (Math.max(ka, kb, kc) - Math.min(ka, kb, kc))) / width)));
    const w = area / (n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; i + j < n; j++) {
        for (let flip = 0; flip < (i + j < n - 1 ? 2 : 1); flip++) {
          const u = (i + (flip ? 2 : 1) / 3) / n, v = (j + (flip ? 2 : 1) / 3) / n;
          const d = ka + u * (kb - ka) + v * (kc - ka);
          const q = 4 * Math.max(0, Math.min(bins - 1, Math.floor(d / width)));
          surf[q] += w * (Ax + u * ux + v * vx);
          surf[q + 1] += w * (Ay + u * uy + v * vy);
          surf[q + 2] += w * (Az + u * uz + v * vz);
          surf[q + 3] += w;
        }
      }
    }
  }
  // The vertices in each slice: the radius is measured from them (and the centre, where a slice has no surface: a part without triangles).
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
  const nodes: number[] = [], rings: number[] = [], counts: number[] = [], idOfBin = new Int32Array(bins).fill(-1);
  for (let b = 0; b < bins; b++) {
    // A node where the part has vertices (as many nodes as before: a long segment between two
    // rings is one segment), at its surface's centroid; its ring at its vertices' mean.
    const ws = surf[4 * b + 3], c = sum[4 * b + 3];
    if (c === 0) continue;
    rings.push(sum[4 * b] / c, sum[4 * b + 1] / c, sum[4 * b + 2] / c);
    if (ws > 0) nodes.push(surf[4 * b] / ws, surf[4 * b + 1] / ws, surf[4 * b + 2] / ws);
    else nodes.push(sum[4 * b] / c, sum[4 * b + 1] / c, sum[4 * b + 2] / c);
    idOfBin[b] = counts.length;
    counts.push(c);
  }
  const nn = counts.length;
  /** Radii measured from the line through `at` (a node a slice), its ends moved out to the part's: the line's nodes and radii. */
  const finish = (at: number[]): { nodes: Float64Array; radii: Float64Array } => {
    // The local axis at each node, from its neighbours (the principal axis for a single node).
    const dir = new Float64Array(3 * nn);
    for (let j = 0; j < nn; j++) {
      const a = Math.max(0, j - 1), b = Math.min(nn - 1, j + 1);
      let dx = at[3 * b] - at[3 * a], dy = at[3 * b + 1] - at[3 * a + 1], dz = at[3 * b + 2] - at[3 * a + 2];
      let l = Math.hypot(dx, dy, dz);
      if (!(l > 0)) {
        dx = ax; dy = ay; dz = az; l = 1;
      }
      dir[3 * j] = dx / l; dir[3 * j + 1] = dy / l; dir[3 * j + 2] = dz / l;
    }
    const radii = new Float64Array(Math.max(2, nn));
    for (let k = 0; k < m; k++) {
      const i = 3 * verts[k], j = idOfBin[bin[k]];
      const dx = positions[i] - at[3 * j], dy = positions[i + 1] - at[3 * j + 1], dz = positions[i + 2] - at[3 * j + 2];
      const s = straight ? dx * ax + dy * ay + dz * az : dx * dir[3 * j] + dy * dir[3 * j + 1] + dz * dir[3 * j + 2];
      radii[j] += Math.sqrt(Math.max(0, dx * dx + dy * dy + dz * dz - s * s)) / counts[j];
    }
    if (nn === 1) {
      // One cross-section: a short piece along the principal axis through it.
      const h = Math.max(1e-6, G / 2);
      const p = [at[0], at[1], at[2]];
      return { nodes: Float64Array.of(p[0] - h * ax, p[1] - h * ay, p[2] - h * az, p[0] + h * ax, p[1] + h * ay, p[2] + h * az), radii: Float64Array.of(radii[0], radii[0]) };
    }
    // The end slices' centres sit inside the part: move them out to its ends (for a straight part
    // exactly to its extremes along the axis; for a bent one half a slice along the line).
    const line = Float64Array.from(at), last = nn - 1;
    if (straight) {
      const along = (j: number) => (line[3 * j] - cx) * ax + (line[3 * j + 1] - cy) * ay + (line[3 * j + 2] - cz) * az;
      const d0 = along(0) - smin, d1 = smax - along(last);
      line[0] -= d0 * ax; line[1] -= d0 * ay; line[2] -= d0 * az;
      line[3 * last] += d1 * ax; line[3 * last + 1] += d1 * ay; line[3 * last + 2] += d1 * az;
    } else {
      const half = G / bins / 2;
      for (let c = 0; c < 3; c++) {
        line[c] -= half * dir[c];
        line[3 * last + c] += half * dir[3 * last + c];
      }
    }
    return { nodes: line, radii };
  };
  const centre = finish(nodes), ring = finish(rings);
  // A node whose vertices measure no radius (all on its axis) has its neighbours', interpolated
  // along the line; none is 0 or not finite. (The rings' radii stay as measured.)
  fillRadii(centre.radii, centre.radii.length, (j) => Number.isFinite(centre.radii[j]) && centre.radii[j] > 0);
  return { nodes: centre.nodes, radii: centre.radii, lowY, rings: ring.nodes, ringRadii: ring.radii };
}

/**
 * The radii of a line's nodes that `good` says were not measured (0, not finite, or a dip)
 * interpolated linearly (by node) between the nearest good ones; the nearest one's at the ends.
 * Left as they are where none is good.
 */
export function fillRadii(radii: { [j: number]: number }, nn: number, good: (j: number) => boolean): void {
  const ok = Uint8Array.from({ length: nn }, (_, j) => (good(j) ? 1 : 0));
  let prev = -1;
  for (let j = 0; j <= nn; j++) {
    if (j < nn && !ok[j]) continue;
    const lo = prev, hi = j < nn ? j : -1;
    if (lo < 0 && hi < 0) return;
    for (let k = lo + 1; k < (hi < 0 ? nn : hi); k++) radii[k] = lo < 0 ? radii[hi] : hi < 0 ? radii[lo] : radii[lo] + ((k - lo) / (hi - lo)) * (radii[hi] - radii[lo]);
    prev = j;
  }
}
