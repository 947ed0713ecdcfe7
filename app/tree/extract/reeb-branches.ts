/**
 * The branches of a welded part from its Reeb graph (reeb.ts). A branch goes on through a fork
 * along the child that keeps its direction (within 60 degrees, as the turtle's sympodial
 * continuation does); every other child starts a branch one level deeper. Centre lines are the
 * centroids of the level-set slices, radii the vertices' mean distance from the local axis.
 * Plain TypeScript over typed arrays: no Babylon.
 */
import { SAME_POINT } from "../skeleton";
import { fillRadii } from "./centre-line";
import { MAX_NODES, nodeRadius } from "./constants";
import type { ReebGraph } from "./reeb";

/** A child continues its parent's axis only when it turns less than this (cos 60°, as the turtle). */
const CONTINUATION_COS = 0.5;
/** Level-set slices are at least this many base radii long... */
const MIN_SLICE = 0.25;
/** ...and about a diameter: this many times their own spread (1.5 gives 1.7 radii). */
const SLICE_SPREAD = 1.5;
/** Directions at a fork are measured over this many slices on either side. */
const DIRECTION_SLICES = 3;
/** An inner node measuring under this share of the thinner of its neighbours' radii has not measured its own (a fork point's few vertices). */
const RADIUS_DIP = 0.5;

/** One branch found in the welded wood, before it goes to the SkeletonBuilder. */
export interface FoundBranch {
  /** Parent branch (physical: the one it grows from), -1 for the trunk. */
  parent: number;
  /** Node of the parent it grows from. */
  originNode: number;
  nodes: number[];
  radii: number[];
}

/**
 * The branches of a welded part from its Reeb graph: appends them to `found` (parents first)
 * and returns the branch of every canonical vertex of the part (-1 elsewhere).
 */
export function reebBranches(P: Float32Array, reeb: ReebGraph, found: FoundBranch[]): Int32Array {
  const { verts, order, dist, vArc, kidStart, kids, lower, rootArc, baseRadius } = reeb;
  const [bx, by, bz] = reeb.base;
  const n = dist.length, m = verts.length, nArc = reeb.arcCount;
  // Each arc's vertices in increasing distance (counting sort over the sweep order, reversed).
  const arcStart = new Int32Array(nArc + 1);
  for (let k = 0; k < m; k++) arcStart[vArc[verts[k]] + 1]++;
  for (let a = 0; a < nArc; a++) arcStart[a + 1] += arcStart[a];
  const arcFill = arcStart.slice(0, nArc), arcVerts = new Int32Array(m);
  for (let oi = m - 1; oi >= 0; oi--) {
    const v = order[oi], a = vArc[v];
    arcVerts[arcFill[a]++] = v;
  }

  // Level-set slices of each arc, about a diameter long: their centroids are the centre line.
  const minSlice = MIN_SLICE * baseRadius;
  const sliceOf = new Int32Array(n).fill(-1);
  const sliceFirst = new Int32Array(nArc + 1);
  const slice: number[] = []; // x, y, z, count, extent per slice
  for (let a = 0; a < nArc; a++) {
    sliceFirst[a] = slice.length / 5;
    let c = 0, ax = 0, ay = 0, az = 0, aq = 0, d0 = 0, d1 = 0;
    const close = () => {
      slice.push(ax / c, ay / c, az / c, c, d1 - d0);
      c = ax = ay = az = aq = 0;
    };
    for (let k = arcStart[a]; k < arcStart[a + 1]; k++) {
      const v = arcVerts[k], x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2];
      if (c > 0) {
        const mx = ax / c, my = ay / c, mz = az / c;
        const spread = Math.sqrt(Math.max(0, aq / c - (mx * mx + my * my + mz * mz)));
        if (dist[v] - d0 >= Math.max(minSlice, SLICE_SPREAD * spread)) close();
      }
      if (c === 0) d0 = dist[v];
      d1 = dist[v];
      c++;
      ax += x; ay += y; az += z; aq += x * x + y * y + z * z;
      sliceOf[v] = slice.length / 5;
    }
    if (c > 0) close();
  }
  sliceFirst[nArc] = slice.length / 5;

  // At each fork, the child that keeps the incoming direction (within 60°) continues the branch.
  // The incoming direction: over the last slices of the branch so far, from its start at most.
  const continuation = (a: number, chainFirst: number, sx0: number, sy0: number, sz0: number): number => {
    const ks = kidStart[a], ke = kidStart[a + 1];
    if (ke === ks) return -1;
    const f = 5 * (sliceFirst[a + 1] - 1), fx = slice[f], fy = slice[f + 1], fz = slice[f + 2];
    let bx0 = sx0, by0 = sy0, bz0 = sz0;
    {
      let arc = a, s = sliceFirst[a + 1] - 1;
      for (let i = 0; i < DIRECTION_SLICES - 1 && arc >= 0; i++) {
        s--;
        while (arc >= 0 && s < sliceFirst[arc]) {
          arc = arc === chainFirst ? -1 : lower[arc];
          if (arc >= 0) s = sliceFirst[arc + 1] - 1;
        }
      }
      if (arc >= 0) {
        bx0 = slice[5 * s]; by0 = slice[5 * s + 1]; bz0 = slice[5 * s + 2];
      }
    }
    let ix = fx - bx0, iy = fy - by0, iz = fz - bz0;
    let il = Math.hypot(ix, iy, iz);
    if (!(il > 0)) {
      ix = 0; iy = 1; iz = 0; il = 1;
    }
    let best = -1, bestCos = CONTINUATION_COS;
    for (let k = ks; k < ke; k++) {
      const c = kids[k];
      const s = 5 * Math.min(sliceFirst[c] + DIRECTION_SLICES - 1, sliceFirst[c + 1] - 1);
      const ox = slice[s] - fx, oy = slice[s + 1] - fy, oz = slice[s + 2] - fz;
      const ol = Math.hypot(ox, oy, oz);
      if (!(ol > 0)) continue;
      const cos = (ix * ox + iy * oy + iz * oz) / (il * ol);
      if (cos > bestCos) {
        bestCos = cos;
        best = c;
      }
    }
    return best;
  };

  // Branches: chains of arcs from the root, parents first.
  const branchOfArc = new Int32Array(nArc).fill(-1);
  const first = found.length;
  const stack: number[] = [rootArc, -1, -1]; // arc, parent branch, fork arc
  const chain: number[] = [];
  const nodeOfSlice = new Int32Array(sliceFirst[nArc]);
  while (stack.length > 0) {
    const forkArc = stack.pop()!, parent = stack.pop()!;
    let a = stack.pop()!;
    const b = found.length;
    chain.length = 0;
    const chainFirst = a;
    const sx0 = parent >= 0 ? found[parent].nodes[3 * nodeOfSlice[sliceFirst[forkArc + 1] - 1]] : bx;
    const sy0 = parent >= 0 ? found[parent].nodes[3 * nodeOfSlice[sliceFirst[forkArc + 1] - 1] + 1] : by;
    const sz0 = parent >= 0 ? found[parent].nodes[3 * nodeOfSlice[sliceFirst[forkArc + 1] - 1] + 2] : bz;
    for (;;) {
      chain.push(a);
      branchOfArc[a] = b;
      const c = continuation(a, chainFirst, sx0, sy0, sz0);
      for (let k = kidStart[a]; k < kidStart[a + 1]; k++) if (kids[k] !== c) stack.push(kids[k], b, a);
      if (c < 0) break;
      a = c;
    }
    // Nodes: the fork point on the parent (or the base), then the slices, grouped to MAX_NODES.
    const nodes: number[] = [];
    let originNode = -1;
    if (parent >= 0) {
      const fs = sliceFirst[forkArc + 1] - 1;
      originNode = nodeOfSlice[fs];
      const pn = found[parent].nodes;
      nodes.push(pn[3 * originNode], pn[3 * originNode + 1], pn[3 * originNode + 2]);
    } else {
      nodes.push(bx, by, bz);
    }
    let total = 0;
    for (const arc of chain) total += sliceFirst[arc + 1] - sliceFirst[arc];
    const group = Math.max(1, Math.ceil(total / (MAX_NODES - 1)));
    let inGroup = 0, gx = 0, gy = 0, gz = 0, gc = 0, lastExtent = 0;
    for (const arc of chain) {
      for (let s = sliceFirst[arc]; s < sliceFirst[arc + 1]; s++) {
        const c = slice[5 * s + 3];
        gx += slice[5 * s] * c; gy += slice[5 * s + 1] * c; gz += slice[5 * s + 2] * c; gc += c;
        lastExtent = slice[5 * s + 4];
        nodeOfSlice[s] = nodes.length / 3;
        if (++inGroup === group) {
          nodes.push(gx / gc, gy / gc, gz / gc);
          inGroup = gc = gx = gy = gz = 0;
        }
      }
    }
    if (gc > 0) nodes.push(gx / gc, gy / gc, gz / gc);
    // The trunk's base node is the base itself; a first slice on top of it adds nothing.
    if (parent < 0 && nodes.length >= 6 && Math.hypot(nodes[3] - nodes[0], nodes[4] - nodes[1], nodes[5] - nodes[2]) <= SAME_POINT) {
      nodes.splice(3, 3);
      for (const arc of chain) for (let s = sliceFirst[arc]; s < sliceFirst[arc + 1]; s++) nodeOfSlice[s] = Math.max(0, nodeOfSlice[s] - 1);
    }
    // A tip: the last slice's centroid lies half a slice inside the end.
    const last = nodes.length / 3 - 1;
    if (kidStart[a + 1] === kidStart[a] && last >= 1) {
      const j = 3 * last;
      const dx = nodes[j] - nodes[j - 3], dy = nodes[j + 1] - nodes[j - 2], dz = nodes[j + 2] - nodes[j - 1];
      const l = Math.hypot(dx, dy, dz);
      if (l > 0) {
        const h = (0.5 * lastExtent) / l;
        nodes[j] += h * dx; nodes[j + 1] += h * dy; nodes[j + 2] += h * dz;
      }
    }
    found.push({ parent, originNode, nodes, radii: [] });
  }

  // Radii: each node's mean distance of its vertices from the local axis (as centreLine).
  const branchOfVertex = new Int32Array(n).fill(-1);
  const nodeBase = new Int32Array(found.length - first + 1);
  for (let b = first; b < found.length; b++) nodeBase[b - first + 1] = nodeBase[b - first] + found[b].nodes.length / 3;
  const rsum = new Float64Array(nodeBase[found.length - first]), rcount = new Float64Array(rsum.length);
  const axis = new Float64Array(3 * rsum.length);
  for (let b = first; b < found.length; b++) {
    const nd = found[b].nodes, nn = nd.length / 3, o = nodeBase[b - first];
    for (let j = 0; j < nn; j++) {
      const p = Math.max(0, j - 1), q = Math.min(nn - 1, j + 1);
      const dx = nd[3 * q] - nd[3 * p], dy = nd[3 * q + 1] - nd[3 * p + 1], dz = nd[3 * q + 2] - nd[3 * p + 2];
      const l = Math.hypot(dx, dy, dz) || 1;
      axis[3 * (o + j)] = dx / l; axis[3 * (o + j) + 1] = dy / l; axis[3 * (o + j) + 2] = dz / l;
    }
  }
  for (let k = 0; k < m; k++) {
    const v = verts[k], b = branchOfArc[vArc[v]];
    branchOfVertex[v] = b;
    const nd = found[b].nodes, j = nodeOfSlice[sliceOf[v]], g = nodeBase[b - first] + j;
    const dx = P[3 * v] - nd[3 * j], dy = P[3 * v + 1] - nd[3 * j + 1], dz = P[3 * v + 2] - nd[3 * j + 2];
    const t = dx * axis[3 * g] + dy * axis[3 * g + 1] + dz * axis[3 * g + 2];
    rsum[g] += Math.sqrt(Math.max(0, dx * dx + dy * dy + dz * dz - t * t));
    rcount[g]++;
  }
  for (let b = first; b < found.length; b++) {
    const o = nodeBase[b - first], nn = nodeBase[b - first + 1] - o, radii = found[b].radii;
    let lastR = 0;
    for (let j = 0; j < nn; j++) if (rcount[o + j] > 0) {
      lastR = rsum[o + j] / rcount[o + j];
      break;
    }
    for (let j = 0; j < nn; j++) {
      if (rcount[o + j] > 0) lastR = rsum[o + j] / rcount[o + j];
      radii.push(lastR); // a node with no vertices of its own (the fork point) takes its neighbour's
    }
    // A fork node whose few vertices lie near it measures a radius far below its neighbours' (down
    // to 0): a hinge in the middle of a branch for every method (bending stiffness goes as r⁴). It
    // gets its neighbours' radius, interpolated.
    const measured = radii.slice();
    fillRadii(radii, nn, (j) => Number.isFinite(measured[j]) && measured[j] > 0 && (j === 0 || j === nn - 1 || measured[j] >= RADIUS_DIP * Math.min(measured[j - 1], measured[j + 1])));
    for (let j = 0; j < nn; j++) radii[j] = nodeRadius(radii[j]);
  }
  return branchOfVertex;
}
