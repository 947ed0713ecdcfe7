/**
 * Branch hierarchy from wood that is ONE welded mesh (issue 7, item 4): trunk and branches share
 * vertices, so extract.ts's parts say nothing about the branches. Habel 2009 §8's "just the
 * geometric description" turned into a hierarchy through the geodesic distance from the base:
 * its level sets are the wood's cross-sections, and where a level set splits in two going up is
 * a fork (the Reeb graph of the distance, a tree for a tree's surface). It is computed exactly,
 * vertex by vertex, by sweeping the distance down with a union-find (the split tree of Carr,
 * Snoeyink and Axen 2003): a component is born at a tip, grows down its branch, and meets the
 * others at the forks. Components that die out within about their own width are bumps, not
 * branches (persistence). A branch goes on through a fork along the child that keeps its
 * direction (within 60 degrees, as the turtle's sympodial continuation does); every other child
 * starts a branch one level deeper. Centre lines are the centroids of the level-set slices.
 * Plain TypeScript over typed arrays: no Babylon.
 */
import { MAX_LEVELS, SAME_POINT, SkeletonBuilder } from "./skeleton";
import type { TreeSkeleton } from "./skeleton";
import type { MeshArrays } from "./geometry";
import { arcFraction, centreLine, extractFromParts, Geodesic, meshGraph, meshParts, nearestOnLine, type CentreLine, type MeshGraph, type PartsHierarchy, type WoodMesh } from "./extract";

/** The lowest vertices within this share of the wood's height are the base (the trunk's cut). */
const BASE_BAND = 0.01;
/** A component that ends within this many times its own spread of where it meets the others is a bump. */
const SPUR = 1.0;
/** A child continues its parent's axis only when it turns less than this (cos 60°, as the turtle). */
const CONTINUATION_COS = 0.5;
/** A component of fewer vertices is a bump whatever its shape (a ring has three at least, and its tip). */
const MIN_BRANCH_VERTICES = 4;
/** Level-set slices are at least this many base radii long... */
const MIN_SLICE = 0.25;
/** ...and about a diameter: this many times their own spread (1.5 gives 1.7 radii). */
const SLICE_SPREAD = 1.5;
/** Directions at a fork are measured over this many slices on either side. */
const DIRECTION_SLICES = 3;
/** A branch placed offers itself as parent to the separate parts' ends within this many of its radii (plus 2% of the model), as extractFromParts. */
const SEARCH_RADII = 4;
/** Centre-line nodes per branch at most. */
const MAX_NODES = 40;
/** The wood is welded when one part holds more than this share of the used vertices... */
const WELDED_SHARE = 0.5;
/** ...or branches: its Reeb graph has this many tips (a lone tube lying down has two, its ends). */
const WELDED_TIPS = 3;

/**
 * Our own bark (buildTreeGeometry's, one tube per branch) as ONE welded mesh: each branch's base
 * ring is replaced by the vertices of the tube it grows from (branchOrigin's branch) nearest to
 * where that ring meets it (the ring pushed out along the branch by the parent's radius), so the
 * branch shares their indices. Triangles that collapse are dropped; the replaced vertices stay in
 * `positions`, used by no triangle (the vertex order, and so the bark's own attributes, still
 * line up). Deterministic.
 */
export function weldTree(s: TreeSkeleton, bark: MeshArrays): WoodMesh {
  const P = bark.positions, BI = bark.branchIndex, SN = bark.skinNodes, SW = bark.skinWeights, idx = bark.indices;
  const n = P.length / 3, nb = s.branchCount;
  // Vertices of each branch (counting sort).
  const start = new Int32Array(nb + 1);
  for (let v = 0; v < n; v++) {
    const b = Math.round(BI[v]);
    if (!(b >= 0 && b < nb)) throw new RangeError(`bark vertex ${v} is on branch ${BI[v]}; the skeleton has ${nb}`);
    start[b + 1]++;
  }
  for (let b = 0; b < nb; b++) start[b + 1] += start[b];
  const fill = start.slice(0, nb), byBranch = new Int32Array(n);
  for (let v = 0; v < n; v++) byBranch[fill[Math.round(BI[v])]++] = v;
  const remap = new Int32Array(n);
  for (let v = 0; v < n; v++) remap[v] = v;
  const np = s.nodePosition;
  for (let b = 1; b < nb; b++) {
    const first = s.branchFirstNode[b];
    const o = s.branchOrigin[b] >= 0 ? s.branchOrigin[b] : s.nodeParent[first];
    if (o < 0) continue;
    const pb = s.nodeBranch[o];
    let tx = np[3 * first + 3] - np[3 * first], ty = np[3 * first + 4] - np[3 * first + 1], tz = np[3 * first + 5] - np[3 * first + 2];
    const tl = Math.hypot(tx, ty, tz) || 1;
    const push = s.nodeRadius[o] / tl;
    tx *= push; ty *= push; tz *= push;
    let ring = 0;
    for (let k = start[b]; k < start[b + 1]; k++) {
      const v = byBranch[k];
      // The base ring: the vertices skinned to the base node alone.
      if (SN[4 * v] !== first || SW[4 * v] !== 1) continue;
      ring++;
      const qx = P[3 * v] + tx, qy = P[3 * v + 1] + ty, qz = P[3 * v + 2] + tz;
      let best = -1, bestD2 = Infinity;
      for (let j = start[pb]; j < start[pb + 1]; j++) {
        const u = byBranch[j];
        if (remap[u] !== u) continue; // the parent's own base ring, itself replaced
        const dx = P[3 * u] - qx, dy = P[3 * u + 1] - qy, dz = P[3 * u + 2] - qz;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < bestD2) {
          bestD2 = d2;
          best = u;
        }
      }
      if (best >= 0) remap[v] = best;
    }
    if (ring === 0) throw new RangeError(`branch ${b} has no base ring in the bark: weldTree needs the bark buildTreeGeometry makes for this skeleton`);
  }
  let kept = 0;
  const out = new Uint32Array(idx.length);
  for (let t = 0; t < idx.length; t += 3) {
    const a = remap[idx[t]], b = remap[idx[t + 1]], c = remap[idx[t + 2]];
    if (a === b || b === c || a === c) continue;
    out[kept++] = a;
    out[kept++] = b;
    out[kept++] = c;
  }
  return { positions: P, indices: out.slice(0, kept) };
}

/** One branch found in the welded wood, before it goes to the SkeletonBuilder. */
interface FoundBranch {
  /** Parent branch (physical: the one it grows from), -1 for the trunk. */
  parent: number;
  /** Node of the parent it grows from. */
  originNode: number;
  nodes: number[];
  radii: number[];
}

/**
 * The branch hierarchy of wood that is one welded mesh (see the file comment). Pieces of wood
 * apart from the welded part (separate twigs, say) join it as extractFromParts joins parts.
 * Levels past MAX_LEVELS hang off their level-3 ancestor, as the L-system turtle does, with
 * `branchOrigin` the node they physically grow from.
 */
export function extractFromWelded(mesh: WoodMesh): PartsHierarchy {
  const parts = meshParts(mesh);
  if (parts.count === 0) throw noWood(mesh);
  const graph = meshGraph(mesh, parts.canon);
  const { main, reeb } = mainPart(mesh, parts, graph);
  return welded(mesh, parts, graph, main, reeb);
}

function noWood(mesh: WoodMesh): RangeError {
  return new RangeError(`the wood has no triangles (${mesh.positions.length / 3} vertices, ${mesh.indices.length / 3} indices): there is no branch to find`);
}

/**
 * The hierarchy of any wood, the dispatcher the app calls: extractFromWelded where one part
 * holds most of the wood (more than half the used vertices) or is itself a branching tree (three
 * tips or more: trunk and limbs welded, the twigs maybe separate); extractFromParts where the
 * wood is separate tubes. `welded` says which was used.
 */
export function extractHierarchy(mesh: WoodMesh): PartsHierarchy & { welded: boolean } {
  const parts = meshParts(mesh);
  if (parts.count === 0) throw noWood(mesh);
  const graph = meshGraph(mesh, parts.canon);
  const { main, share, reeb } = mainPart(mesh, parts, graph);
  if (share > WELDED_SHARE || reeb.tips >= WELDED_TIPS) return { ...welded(mesh, parts, graph, main, reeb), welded: true };
  return { ...extractFromParts(mesh, { parts, graph }), welded: false };
}

function partSizes(partOfVertex: Int32Array, count: number): Int32Array {
  const size = new Int32Array(count);
  for (let i = 0; i < partOfVertex.length; i++) if (partOfVertex[i] >= 0) size[partOfVertex[i]]++;
  return size;
}

type Parts = ReturnType<typeof meshParts>;

/** The largest part (most used vertices) and its Reeb graph. */
function mainPart(mesh: WoodMesh, parts: Parts, graph: MeshGraph): { main: number; share: number; reeb: ReebGraph } {
  const size = partSizes(parts.partOfVertex, parts.count);
  let main = 0, used = 0;
  for (let p = 0; p < parts.count; p++) {
    used += size[p];
    if (size[p] > size[main]) main = p;
  }
  return { main, share: size[main] / used, reeb: reebGraph(mesh.positions, graph, parts.partOfVertex, main) };
}

function welded(mesh: WoodMesh, parts: Parts, graph: MeshGraph, main: number, reeb: ReebGraph): PartsHierarchy {
  const { count, partOfVertex, canon } = parts;
  const P = mesh.positions, n = canon.length;
  const found: FoundBranch[] = [];
  const branchOfVertex = reebBranches(P, reeb, found);
  const vertexBranch = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) if (partOfVertex[i] === main) vertexBranch[i] = branchOfVertex[canon[i]];
  if (count > 1) attachParts(P, graph, partOfVertex, main, count, found, vertexBranch);
  return { skeleton: buildSkeleton(found), vertexBranch, parts: count };
}

/** The Reeb graph of one welded part: arcs (a tip's, or a fork's going down to the next fork) in a tree. */
interface ReebGraph {
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
 * partOfVertex === part), by a sweep from the tips down.
 */
function reebGraph(P: Float32Array, graph: MeshGraph, partOfVertex: Int32Array, part: number): ReebGraph {
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
  const dist = new Float64Array(n).fill(Infinity);
  const sources: number[] = [];
  let bx = 0, by = 0, bz = 0;
  for (let k = 0; k < m; k++) {
    const v = verts[k], y = P[3 * v + 1];
    if (y > minY + band) continue;
    sources.push(v);
    dist[v] = y - minY;
    bx += P[3 * v]; by += y; bz += P[3 * v + 2];
  }
  bx /= sources.length; by /= sources.length; bz /= sources.length;
  let baseRadius = 0;
  for (const v of sources) baseRadius += Math.hypot(P[3 * v] - bx, P[3 * v + 1] - by, P[3 * v + 2] - bz) / sources.length;
  if (!(baseRadius > 0)) baseRadius = 1e-3 * Math.max(1e-6, maxY - minY);
  // The sweep goes from the tips down: the reverse of the order the vertices settle in.
  const settled = new Int32Array(m);
  if (geodesic(P, graph, dist, sources, settled) !== m) throw new RangeError("the welded wood is not connected: some of its vertices cannot be reached from the base");
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

/**
 * The branches of a welded part from its Reeb graph: appends them to `found` (parents first)
 * and returns the branch of every canonical vertex of the part (-1 elsewhere).
 */
function reebBranches(P: Float32Array, reeb: ReebGraph, found: FoundBranch[]): Int32Array {
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
      radii.push(Math.max(1e-4, lastR)); // a node with no vertices of its own (the fork point) takes its neighbour's
    }
  }
  return branchOfVertex;
}

/**
 * Dijkstra over the mesh graph (edge lengths) from `sources`, whose `dist` the caller has set;
 * writes the vertices in the order they settle (increasing distance) into `settled` and returns
 * how many did. (extract.ts's Geodesic, with the order kept and without Math.hypot's cost.)
 */
function geodesic(P: Float32Array, g: MeshGraph, dist: Float64Array, sources: readonly number[], settled: Int32Array): number {
  const n = dist.length, heap = new Int32Array(n), pos = new Int32Array(n).fill(-1), start = g.start, next = g.next;
  let size = 0, count = 0;
  for (const v of sources) {
    if (pos[v] >= 0) continue;
    // Sift up.
    let i = size++;
    const d = dist[v];
    while (i > 0) {
      const p = (i - 1) >> 1, u = heap[p];
      if (dist[u] <= d) break;
      heap[i] = u;
      pos[u] = i;
      i = p;
    }
    heap[i] = v;
    pos[v] = i;
  }
  while (size > 0) {
    const u = heap[0];
    pos[u] = -2; // settled
    settled[count++] = u;
    const last = heap[--size];
    if (size > 0) {
      // Sift down.
      let i = 0;
      const d = dist[last];
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1, c = r < size && dist[heap[r]] < dist[heap[l]] ? r : l;
        if (dist[heap[c]] >= d) break;
        heap[i] = heap[c];
        pos[heap[i]] = i;
        i = c;
      }
      heap[i] = last;
      pos[last] = i;
    }
    const ux = P[3 * u], uy = P[3 * u + 1], uz = P[3 * u + 2], du = dist[u];
    for (let k = start[u], ke = start[u + 1]; k < ke; k++) {
      const v = next[k];
      const pv = pos[v];
      if (pv === -2) continue;
      const dx = P[3 * v] - ux, dy = P[3 * v + 1] - uy, dz = P[3 * v + 2] - uz;
      const w = du + Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (w >= dist[v]) continue;
      dist[v] = w;
      // Sift up from where it is (or from a new leaf).
      let i = pv < 0 ? size++ : pv;
      while (i > 0) {
        const p = (i - 1) >> 1, q = heap[p];
        if (dist[q] <= w) break;
        heap[i] = q;
        pos[q] = i;
        i = p;
      }
      heap[i] = v;
      pos[v] = i;
    }
  }
  return count;
}

/**
 * Pieces of wood apart from the welded part: each a branch of its own (extract.ts's centreLine),
 * grown onto the wood already placed nearest first (Prim, as extractFromParts), its base the end
 * nearest that wood, measured in the radii of the branch it would join.
 */
function attachParts(P: Float32Array, graph: MeshGraph, partOfVertex: Int32Array, main: number, count: number, found: FoundBranch[], vertexBranch: Int32Array): void {
  const n = partOfVertex.length;
  const start = new Int32Array(count + 1);
  for (let i = 0; i < n; i++) if (partOfVertex[i] >= 0) start[partOfVertex[i] + 1]++;
  for (let p = 0; p < count; p++) start[p + 1] += start[p];
  const fill = start.slice(0, count), order = new Int32Array(start[count]);
  for (let i = 0; i < n; i++) if (partOfVertex[i] >= 0) order[fill[partOfVertex[i]]++] = i;
  const geo = new Geodesic(n);
  const lines: (CentreLine | null)[] = [];
  for (let p = 0; p < count; p++) lines.push(p === main ? null : centreLine(P, order.subarray(start[p], start[p + 1]), graph, geo));
  // best[2p + e]: how near end e of part p is to the placed wood, in the radii of the branch it would join.
  const best = new Float64Array(2 * count).fill(Infinity), bestBranch = new Int32Array(2 * count).fill(-1), bestNode = new Int32Array(2 * count);
  const near = { d2: 0, seg: 0, f: 0 };
  // The parts' ends in a uniform grid (as extractFromParts): a placed branch measures only the
  // ends near it, within SEARCH_RADII of its largest radius plus 2% of the model.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < P.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      lo[c] = Math.min(lo[c], P[i + c]);
      hi[c] = Math.max(hi[c], P[i + c]);
    }
  }
  const modelSize = Math.max(1e-6, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]), cell = modelSize / 64;
  const cellOf = (v: number, c: number) => Math.max(0, Math.min(1023, Math.floor((v - lo[c]) / cell)));
  const grid = new Map<number, number[]>();
  for (let p = 0; p < count; p++) {
    const l = lines[p];
    if (!l) continue;
    for (let e = 0; e < 2; e++) {
      const o = e === 0 ? 0 : l.nodes.length - 3;
      const key = cellOf(l.nodes[o], 0) + 1024 * (cellOf(l.nodes[o + 1], 1) + 1024 * cellOf(l.nodes[o + 2], 2));
      const list = grid.get(key);
      if (list) list.push(2 * p + e);
      else grid.set(key, [2 * p + e]);
    }
  }
  const a3 = [0, 0, 0], z3 = [0, 0, 0];
  const measureEnd = (b: number, p: number, e: number) => {
    const nodes = found[b].nodes, radii = found[b].radii, l = lines[p]!;
    const o = e === 0 ? 0 : l.nodes.length - 3;
    nearestOnLine(nodes, l.nodes[o], l.nodes[o + 1], l.nodes[o + 2], near);
    const j = Math.min(radii.length - 1, near.seg + (near.f > 0.5 ? 1 : 0));
    // A branch whose nearest point is its own base is a sibling starting at the same point,
    // not the branch both grow from (as extractFromParts).
    const atBase = j === 0 && Math.hypot(nodes[0] - l.nodes[o], nodes[1] - l.nodes[o + 1], nodes[2] - l.nodes[o + 2]) < 2 * radii[0];
    const d = Math.sqrt(near.d2) / Math.max(1e-9, radii[j]) + (atBase && found[b].parent >= 0 ? 1 : 0);
    if (d < best[2 * p + e]) {
      best[2 * p + e] = d;
      bestBranch[2 * p + e] = b;
      bestNode[2 * p + e] = j;
    }
  };
  /** Updates the unplaced ends near branch b (or all of them). */
  const measure = (b: number, all = false) => {
    if (all) {
      for (let p = 0; p < count; p++) if (lines[p]) for (let e = 0; e < 2; e++) measureEnd(b, p, e);
      return;
    }
    const nodes = found[b].nodes, radii = found[b].radii;
    let maxR = 0;
    for (let j = 0; j < radii.length; j++) maxR = Math.max(maxR, radii[j]);
    const margin = SEARCH_RADII * maxR + 0.02 * modelSize;
    for (let c = 0; c < 3; c++) {
      a3[c] = Infinity;
      z3[c] = -Infinity;
    }
    for (let j = 0; j < nodes.length; j += 3) {
      for (let c = 0; c < 3; c++) {
        a3[c] = Math.min(a3[c], nodes[j + c] - margin);
        z3[c] = Math.max(z3[c], nodes[j + c] + margin);
      }
    }
    const x0 = cellOf(a3[0], 0), x1 = cellOf(z3[0], 0), y0 = cellOf(a3[1], 1), y1 = cellOf(z3[1], 1), z0 = cellOf(a3[2], 2), z1 = cellOf(z3[2], 2);
    for (let iz = z0; iz <= z1; iz++) {
      for (let iy = y0; iy <= y1; iy++) {
        for (let ix = x0; ix <= x1; ix++) {
          const list = grid.get(ix + 1024 * (iy + 1024 * iz));
          if (list) for (const end of list) if (lines[end >> 1]) measureEnd(b, end >> 1, end & 1);
        }
      }
    }
  };
  for (let b = 0; b < found.length; b++) measure(b);
  let measuredAll = false;
  for (let k = 1; k < count; k++) {
    let pick = -1, end = 0, d = Infinity;
    for (let p = 0; p < count; p++) {
      if (!lines[p]) continue;
      for (let e = 0; e < 2; e++) {
        if (best[2 * p + e] < d) {
          d = best[2 * p + e];
          pick = p;
          end = e;
        }
      }
    }
    if (pick < 0) {
      // Nothing unplaced is near the placed wood: measure the far pieces against all of it.
      if (measuredAll) throw new RangeError(`a part of the wood cannot be placed (its centre line is not finite)`);
      for (let b = 0; b < found.length; b++) measure(b, true);
      measuredAll = true;
      k--;
      continue;
    }
    measuredAll = false;
    const l = lines[pick]!, nn = l.radii.length, nodes: number[] = [], radii: number[] = [];
    for (let j = 0; j < nn; j++) {
      const s = end === 0 ? j : nn - 1 - j;
      nodes.push(l.nodes[3 * s], l.nodes[3 * s + 1], l.nodes[3 * s + 2]);
      radii.push(Math.max(1e-4, l.radii[s]));
    }
    const b = found.length;
    found.push({ parent: bestBranch[2 * pick + end], originNode: bestNode[2 * pick + end], nodes, radii });
    for (let i = start[pick]; i < start[pick + 1]; i++) vertexBranch[order[i]] = b;
    lines[pick] = null;
    measure(b);
  }
}

/** The branches found into a TreeSkeleton: levels capped at MAX_LEVELS as the turtle caps them. */
function buildSkeleton(found: FoundBranch[]): TreeSkeleton {
  const builder = new SkeletonBuilder();
  const level: number[] = [], attachX: number[] = [], parentBranch: number[] = [];
  for (let b = 0; b < found.length; b++) {
    const f = found[b];
    if (f.parent < 0) {
      builder.addBranch(-1, 0);
      level.push(0);
      attachX.push(0);
      parentBranch.push(-1);
    } else {
      const pn = found[f.parent].nodes;
      const x = arcFraction(Float64Array.from(pn), f.originNode, 0, false);
      let parent = f.parent, at = x;
      while (parent >= 0 && level[parent] + 1 >= MAX_LEVELS) {
        at = attachX[parent];
        parent = parentBranch[parent];
      }
      builder.addBranch(parent, at, null, { branch: f.parent, node: f.originNode });
      level.push(parent < 0 ? 0 : level[parent] + 1);
      attachX.push(at);
      parentBranch.push(parent);
    }
    const nd = f.nodes;
    // Two nodes at least, and some length: a stub gets a tip a hair along.
    if (nd.length < 6 || Math.hypot(nd[nd.length - 3] - nd[0], nd[nd.length - 2] - nd[1], nd[nd.length - 1] - nd[2]) <= 0) {
      nd.push(nd[nd.length - 3], nd[nd.length - 2] + SAME_POINT, nd[nd.length - 1]);
      f.radii.push(f.radii[f.radii.length - 1] ?? 1e-4);
    }
    for (let j = 0; j < nd.length / 3; j++) builder.addNode(b, nd[3 * j], nd[3 * j + 1], nd[3 * j + 2], f.radii[j]);
  }
  return builder.build();
}
