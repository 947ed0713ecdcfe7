/**
 * The Reeb graph of the geodesic distance from the base of one welded part of the wood: where a
 * level set of the distance splits in two going up is a fork, and for a tree's surface the graph
 * is a tree. Computed exactly, vertex by vertex, by sweeping the distance down with a union-find
 * (the split tree of Carr, Snoeyink and Axen 2003): a component is born at a tip, grows down its
 * branch, and meets the others at the forks. Components that die out within about their own
 * width are bumps, not branches (persistence). Plain TypeScript over typed arrays: no Babylon.
 */
import { Geodesic } from "./geodesic";
import type { MeshGraph } from "./mesh";

/** The lowest vertices within this share of the wood's height are the base (the trunk's cut). */
const BASE_BAND = 0.01;
/** A component that ends within this many times its own spread of where it meets the others is a bump. */
const SPUR = 1.0;
/** A component of fewer vertices is a bump whatever its shape (a ring has three at least, and its tip). */
const MIN_BRANCH_VERTICES = 4;

/** The Reeb graph of one welded part: arcs (a tip's, or a fork's going down to the next fork) in a tree. */
export interface ReebGraph {
  /** The part's canonical vertices, and the same in decreasing geodesic distance (the sweep). */
  verts: Int32Array;
  order: Int32Array;
  /** Geodesic distance from the base, per vertex. */
  dist: Float64Array;
  /** Arc of every vertex of the part. */
  vArc: Int32Array;
  arcCount: number;
  /** Children of each arc (CSR): the arcs that meet at its upper end, a fork. */
  kidStart: Int32Array;
  kids: Int32Array;
  /** Arc below each arc, -1 for the root. */
  lower: Int32Array;
  rootArc: number;
  /** Centroid and mean radius of the base. */
  base: [number, number, number];
  baseRadius: number;
  /** Arcs that end in a tip (no children). */
  tips: number;
}

/**
 * The Reeb graph of the geodesic distance from the base of one welded part (its vertices:
 * partOfVertex === part), by a sweep from the tips down. `source`: a vertex of the part to
 * measure from instead of the base (the lowest band along +y), for a part whose up axis is not
 * known yet (up.ts: one end of the wood).
 */
export function reebGraph(P: Float32Array, graph: MeshGraph, partOfVertex: Int32Array, part: number, source?: number): ReebGraph {
  const { canon, start, next } = graph;
  const n = canon.length;
  // The part's canonical vertices.
  let m = 0;
  for (let i = 0; i < n; i++) if (partOfVertex[i] === part && canon[i] === i) m++;
  const verts = new Int32Array(m);
  m = 0;
  let minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    if (partOfVertex[i] !== part || canon[i] !== i) continue;
    verts[m++] = i;
    minY = Math.min(minY, P[3 * i + 1]);
    maxY = Math.max(maxY, P[3 * i + 1]);
  }
  // The base: the lowest vertices (+y is up), each starting at its height above the lowest, so
  // the level sets are level with the cut.
  const band = BASE_BAND * (maxY - minY);
  const geo = new Geodesic(n), dist = geo.dist;
  const sources: number[] = [];
  let bx = 0, by = 0, bz = 0;
  for (let k = 0; k < m; k++) {
    const v = verts[k], y = P[3 * v + 1];
    if (source === undefined ? y > minY + band : v !== graph.canon[source]) continue;
    sources.push(v);
    dist[v] = source === undefined ? y - minY : 0;
    bx += P[3 * v]; by += y; bz += P[3 * v + 2];
  }
  if (sources.length === 0) throw new RangeError(`vertex ${source} is not in part ${part} of the wood`);
  bx /= sources.length; by /= sources.length; bz /= sources.length;
  let baseRadius = 0;
  for (const v of sources) baseRadius += Math.hypot(P[3 * v] - bx, P[3 * v + 1] - by, P[3 * v + 2] - bz) / sources.length;
  if (!(baseRadius > 0)) baseRadius = 1e-3 * Math.max(1e-6, maxY - minY);
  // The sweep goes from the tips down: the reverse of the order the vertices settle in.
  const settled = new Int32Array(m);
  if (geo.run(graph, P, sources, settled) !== m) throw new RangeError("the welded wood is not connected: some of its vertices cannot be reached from the base");
  const order = settled.reverse();
  let maxDegree = 0;
  for (let k = 0; k < m; k++) maxDegree = Math.max(maxDegree, start[verts[k] + 1] - start[verts[k]]);
  const up = new Int32Array(n), done = new Uint8Array(n), stamp = new Int32Array(n);
  const top = new Float64Array(n), cn = new Float64Array(n), sx = new Float64Array(n), sy = new Float64Array(n), sz = new Float64Array(n), sq = new Float64Array(n);
  const compArc = new Int32Array(n), compFork = new Uint8Array(n);
  const vArc = new Int32Array(n).fill(-1);
  const roots = new Int32Array(Math.max(1, maxDegree)), significant = new Uint8Array(Math.max(1, maxDegree));
  // Arcs of the Reeb graph: a tip's (born at a maximum) or a fork's (born where components meet).
  const arcLower: number[] = [], arcInto: number[] = [], arcSaddle: number[] = [];
  const newArc = (v: number) => {
    arcLower.push(-1);
    arcInto.push(-1);
    arcSaddle.push(v);
    return arcLower.length - 1;
  };
  const find = (i: number): number => {
    while (up[i] !== i) {
      up[i] = up[up[i]];
      i = up[i];
    }
    return i;
  };
  /** Merges root b into root a (a stays the root). */
  const merge = (a: number, b: number) => {
    up[b] = a;
    top[a] = Math.max(top[a], top[b]);
    cn[a] += cn[b]; sx[a] += sx[b]; sy[a] += sy[b]; sz[a] += sz[b]; sq[a] += sq[b];
    compFork[a] |= compFork[b];
  };
  for (let oi = 0; oi < m; oi++) {
    const v = order[oi], dv = dist[v];
    const px = P[3 * v], py = P[3 * v + 1], pz = P[3 * v + 2];
    let k = 0;
    for (let e = start[v]; e < start[v + 1]; e++) {
      const u = next[e];
      if (!done[u]) continue;
      const r = find(u);
      if (stamp[r] === oi + 1) continue;
      stamp[r] = oi + 1;
      roots[k++] = r;
    }
    up[v] = v;
    done[v] = 1;
    top[v] = dv;
    cn[v] = 1; sx[v] = px; sy[v] = py; sz[v] = pz; sq[v] = px * px + py * py + pz * pz;
    compFork[v] = 0;
    if (k === 0) {
      // A maximum: a tip.
      compArc[v] = vArc[v] = newArc(v);
      continue;
    }
    // Which of the components meeting here are branches: those reaching farther beyond this
    // point than their own spread (a bump is about as high as it is wide), or holding a fork.
    let sig = 0, elder = roots[0], elderSig = -1;
    for (let i = 0; i < k; i++) {
      const r = roots[i], c = cn[r];
      const mx = sx[r] / c, my = sy[r] / c, mz = sz[r] / c;
      // (Spread about its centroid: a tube's is about its radius, a long one's a third of its length.)
      const spread = Math.sqrt(Math.max(0, sq[r] / c - (mx * mx + my * my + mz * mz)));
      const reach = top[r] - dv;
      const isBranch = compFork[r] === 1 || (c >= MIN_BRANCH_VERTICES && reach > SPUR * spread);
      significant[i] = isBranch ? 1 : 0;
      if (top[r] > top[elder]) elder = r;
      if (isBranch) {
        sig++;
        if (elderSig < 0 || top[r] > top[elderSig]) elderSig = r;
      }
    }
    if (sig >= 2) {
      // A fork: the branches end here, a new arc goes on down.
      const a = newArc(v);
      for (let i = 0; i < k; i++) {
        const r = roots[i];
        if (significant[i]) arcLower[compArc[r]] = a;
        else arcInto[compArc[r]] = compArc[elderSig];
      }
      for (let i = 0; i < k; i++) merge(v, roots[i]);
      compArc[v] = vArc[v] = a;
      compFork[v] = 1;
    } else {
      // One branch (or none yet) goes on; bumps join it.
      const keeper = sig === 1 ? elderSig : elder, arc = compArc[keeper];
      for (let i = 0; i < k; i++) if (roots[i] !== keeper) arcInto[compArc[roots[i]]] = arc;
      for (let i = 0; i < k; i++) merge(v, roots[i]);
      compArc[v] = vArc[v] = arc;
    }
  }
  const nArc = arcLower.length;
  const eff = (a: number): number => {
    let r = a;
    while (arcInto[r] >= 0) r = arcInto[r];
    while (arcInto[a] >= 0) {
      const nx = arcInto[a];
      arcInto[a] = r;
      a = nx;
    }
    return r;
  };
  // Forks side by side (a whorl: limbs leaving one ring at about the same distance) are one
  // fork: the short arc between them closer in distance than half their separation goes.
  const isFork = new Uint8Array(nArc);
  for (let c = 0; c < nArc; c++) if (arcLower[c] >= 0) isFork[arcLower[c]] = 1;
  for (let a = 0; a < nArc; a++) {
    const l = arcLower[a];
    if (l < 0 || arcInto[a] >= 0 || !isFork[a]) continue;
    const sa = arcSaddle[a], sl = arcSaddle[l];
    const dd = dist[sa] - dist[sl];
    const dp = Math.hypot(P[3 * sa] - P[3 * sl], P[3 * sa + 1] - P[3 * sl + 1], P[3 * sa + 2] - P[3 * sl + 2]);
    if (dd < 0.5 * dp) arcInto[a] = l;
  }
  const rootArc = eff(compArc[find(order[m - 1])]);
  // The tree of live arcs: children lists (CSR), lower first.
  const lower = new Int32Array(nArc).fill(-1), live = new Uint8Array(nArc);
  for (let a = 0; a < nArc; a++) {
    if (eff(a) !== a) continue;
    live[a] = 1;
    if (a !== rootArc) lower[a] = arcLower[a] >= 0 ? eff(arcLower[a]) : rootArc;
  }
  const kidStart = new Int32Array(nArc + 1);
  for (let a = 0; a < nArc; a++) if (live[a] && lower[a] >= 0) kidStart[lower[a] + 1]++;
  for (let a = 0; a < nArc; a++) kidStart[a + 1] += kidStart[a];
  const kidFill = kidStart.slice(0, nArc), kids = new Int32Array(kidStart[nArc]);
  for (let a = 0; a < nArc; a++) if (live[a] && lower[a] >= 0) kids[kidFill[lower[a]]++] = a;
  let tips = 0;
  for (let a = 0; a < nArc; a++) if (live[a] && kidStart[a + 1] === kidStart[a]) tips++;
  for (let k = 0; k < m; k++) vArc[verts[k]] = eff(vArc[verts[k]]);
  return { verts, order, dist, vArc, arcCount: nArc, kidStart, kids, lower, rootArc, base: [bx, by, bz], baseRadius, tips };
}

