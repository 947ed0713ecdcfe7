/**
 * The per-vertex binding every animation method reads, for a model's own vertices: each bound to
 * the nearest point on its branch's centre line. Plain TypeScript over typed arrays: no Babylon.
 */
import { branchWBase, wSlot } from "../geometry";
import type { TreeSkeleton } from "../skeleton";
import { nearestOnLine } from "./polyline";

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
 * Binds a model's own vertices to a skeleton: each vertex to the nearest point
 * on its branch's centre line (`vertexBranch`), giving its w-vector (its x along the branch at
 * its level, the attachment positions of its ancestors below; Habel 2009 §3) and skinning weights
 * between the segment's two nodes. A vertex on branch -1 (used by no triangle of the wood) is left
 * unbound: branch index -1, zero weights.
 */
export function bindVertices(s: TreeSkeleton, positions: Float32Array, vertexBranch: Int32Array): VertexBinding {
  const n = vertexBranch.length;
  if (positions.length !== 3 * n) throw new RangeError(`binding needs xyz for each of the ${n} vertices; got ${positions.length} coordinates`);
  const branchIndex = new Float32Array(n), wVector = new Float32Array(4 * n), skinNodes = new Float32Array(4 * n), skinWeights = new Float32Array(4 * n);
  const base = branchWBase(s);
  const near = { d2: 0, seg: 0, f: 0 };
  for (let i = 0; i < n; i++) {
    const b = vertexBranch[i];
    if (b === -1) {
      branchIndex[i] = -1; // a vertex no triangle of the wood uses: left unbound
      continue;
    }
    if (!(b >= 0 && b < s.branchCount)) throw new RangeError(`vertex ${i} is on branch ${b}; the skeleton has ${s.branchCount}`);
    const first = s.branchFirstNode[b];
    nearestOnLine(s.nodePosition, positions[3 * i], positions[3 * i + 1], positions[3 * i + 2], near, first, s.branchNodeCount[b]);
    const bestJ = first + near.seg, bestF = near.f;
    branchIndex[i] = b;
    for (let c = 0; c < 4; c++) wVector[4 * i + c] = base[4 * b + c];
    const level = s.branchLevel[b];
    wVector[4 * i + wSlot(level)] = s.nodeX[bestJ] + bestF * (s.nodeX[bestJ + 1] - s.nodeX[bestJ]);
    skinNodes[4 * i] = bestJ;
    skinNodes[4 * i + 1] = bestJ + 1;
    skinWeights[4 * i] = 1 - bestF;
    skinWeights[4 * i + 1] = bestF;
  }
  return { branchIndex, wVector, skinNodes, skinWeights };
}
