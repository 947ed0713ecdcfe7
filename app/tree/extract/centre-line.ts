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

/** A part's centre line: nodes (xyz), radii, from one end to the other. */
export interface CentreLine {
  nodes: Float64Array;
  radii: Float64Array;
  /** Lowest y of the part's vertices. */
  lowY: number;
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
  const bins = G > 0 ? Math.max(2, Math.min(MAX_NODES, Math.round(G / Math.max(1e-9, 2 * spread)))) : 1;
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
