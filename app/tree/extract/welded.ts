/**
 * Branch hierarchy of wood that is ONE welded mesh: trunk and branches share vertices, so the
 * parts (parts.ts) say nothing about the branches. Habel 2009 §8's "just the geometric
 * description" turned into a hierarchy through the geodesic distance from the base: its level
 * sets are the wood's cross-sections, and the Reeb graph of the distance (reeb.ts) has a fork
 * wherever a branch leaves; its arcs chained into branches (reeb-branches.ts) make the hierarchy.
 * Pieces of wood apart from the welded part (separate twigs, say) join it as parts.ts joins
 * parts. Plain TypeScript over typed arrays: no Babylon.
 */
import { SAME_POINT, type TreeSkeleton } from "../skeleton";
import { centreLine, type CentreLine } from "./centre-line";
import { MIN_RADIUS, nodeRadius } from "./constants";
import { EndGrid } from "./end-grid";
import { Geodesic } from "./geodesic";
import { CappedSkeletonBuilder } from "./levels";
import { meshGraph, meshParts, trianglesByPart, verticesByPart, type MeshGraph, type MeshParts, type PartsHierarchy, type WoodMesh } from "./mesh";
import { arcFraction, nearestOnLine } from "./polyline";
import { reebBranches, type FoundBranch } from "./reeb-branches";
import { reebGraph, type ReebGraph } from "./reeb";

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
  return weldedHierarchy(mesh, parts, graph, main, reeb);
}

export function noWood(mesh: WoodMesh): RangeError {
  return new RangeError(`the wood has no triangles (${mesh.positions.length / 3} vertices, ${mesh.indices.length / 3} indices): there is no branch to find`);
}

/** The largest part (most used vertices), its share of the used vertices, and its Reeb graph. */
export function mainPart(mesh: WoodMesh, parts: MeshParts, graph: MeshGraph): { main: number; share: number; reeb: ReebGraph } {
  const size = new Int32Array(parts.count);
  for (let i = 0; i < parts.partOfVertex.length; i++) if (parts.partOfVertex[i] >= 0) size[parts.partOfVertex[i]]++;
  let main = 0, used = 0;
  for (let p = 0; p < parts.count; p++) {
    used += size[p];
    if (size[p] > size[main]) main = p;
  }
  return { main, share: size[main] / used, reeb: reebGraph(mesh.positions, graph, parts.partOfVertex, main) };
}

/** The hierarchy from the main part's Reeb graph, with the other parts attached to it. */
export function weldedHierarchy(mesh: WoodMesh, parts: MeshParts, graph: MeshGraph, main: number, reeb: ReebGraph): PartsHierarchy {
  const { count, partOfVertex, canon } = parts;
  const P = mesh.positions, n = canon.length;
  const found: FoundBranch[] = [];
  const branchOfVertex = reebBranches(P, reeb, found);
  const vertexBranch = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) if (partOfVertex[i] === main) vertexBranch[i] = branchOfVertex[canon[i]];
  if (count > 1) attachParts(P, mesh.indices, graph, partOfVertex, main, count, found, vertexBranch);
  return { skeleton: buildSkeleton(found), vertexBranch, parts: count };
}

/**
 * Pieces of wood apart from the welded part: each a branch of its own (centre-line.ts), grown
 * onto the wood already placed nearest first (Prim, as extractFromParts), its base the end
 * nearest that wood, measured in the radii of the branch it would join.
 */
function attachParts(P: Float32Array, indices: WoodMesh["indices"], graph: MeshGraph, partOfVertex: Int32Array, main: number, count: number, found: FoundBranch[], vertexBranch: Int32Array): void {
  const n = partOfVertex.length;
  const { start, order } = verticesByPart(partOfVertex, count), tris = trianglesByPart(indices, partOfVertex, count);
  const geo = new Geodesic(n);
  const lines: (CentreLine | null)[] = [];
  for (let p = 0; p < count; p++) lines.push(p === main ? null : centreLine(P, order.subarray(start[p], start[p + 1]), tris.corners.subarray(3 * tris.start[p], 3 * tris.start[p + 1]), graph, geo));
  // best[2p + e]: how near end e of part p is to the placed wood, in the radii of the branch it would join.
  const best = new Float64Array(2 * count).fill(Infinity), bestBranch = new Int32Array(2 * count).fill(-1), bestNode = new Int32Array(2 * count);
  const near = { d2: 0, seg: 0, f: 0 };
  // The parts' ends in a grid over the whole mesh: a placed branch measures only the ends near it.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < P.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      lo[c] = Math.min(lo[c], P[i + c]);
      hi[c] = Math.max(hi[c], P[i + c]);
    }
  }
  const grid = new EndGrid(lo, Math.max(1e-6, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
  for (let p = 0; p < count; p++) {
    const l = lines[p];
    if (l) grid.add(p, l.nodes);
  }
  /** Measures end e of part p against branch b. */
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
    grid.near(found[b].nodes, found[b].radii, (end) => {
      if (lines[end >> 1]) measureEnd(b, end >> 1, end & 1);
    });
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
      radii.push(nodeRadius(l.radii[s]));
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
  const builder = new CappedSkeletonBuilder();
  for (let b = 0; b < found.length; b++) {
    const f = found[b];
    if (f.parent < 0) builder.addTrunk();
    else builder.addChild(f.parent, arcFraction(Float64Array.from(found[f.parent].nodes), f.originNode, 0, false), f.originNode);
    const nd = f.nodes;
    // Two nodes at least, and some length: a stub gets a tip a hair along.
    if (nd.length < 6 || Math.hypot(nd[nd.length - 3] - nd[0], nd[nd.length - 2] - nd[1], nd[nd.length - 1] - nd[2]) <= 0) {
      nd.push(nd[nd.length - 3], nd[nd.length - 2] + SAME_POINT, nd[nd.length - 1]);
      f.radii.push(f.radii[f.radii.length - 1] ?? MIN_RADIUS);
    }
    for (let j = 0; j < nd.length / 3; j++) builder.addNode(b, nd[3 * j], nd[3 * j + 1], nd[3 * j + 2], f.radii[j]);
  }
  return builder.build();
}
