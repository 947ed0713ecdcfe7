/**
 * A big tree's finest branches left out of the particle tree. Every branch costs at least one
 * station and a ring of three (particle-tree.ts), so the Habel-scale tree's 1,400 branches are
 * 7,000 particles at any bone spacing. Under a budget the provider simulates the branches down to
 * a level; a finer branch rides rigidly on the station of the kept branch it grows from (its nodes
 * move with that node), and its leaves hang on that kept branch, so their drag still loads it.
 * Plain TypeScript, no Babylon.
 */
import { SkeletonBuilder, type TreeSkeleton } from "../../tree/skeleton";

const { hypot } = Math;

export interface ReducedTree {
  /** The branches of level ≤ maxLevel, with every leaf (a finer branch's moved to its kept ancestor). */
  readonly skeleton: TreeSkeleton;
  /** Per node of the original skeleton: its node in `skeleton` (a finer branch's: the kept node it grows from). */
  readonly nodeOf: Int32Array;
  readonly maxLevel: number;
}

/** The deepest level of the skeleton's branches. */
export function deepestLevel(s: TreeSkeleton): number {
  let l = 0;
  for (let b = 0; b < s.branchCount; b++) l = Math.max(l, s.branchLevel[b]);
  return l;
}

/** The skeleton's branches down to `maxLevel` (see the file's comment); the skeleton itself when none is finer. */
export function reduceLevels(s: TreeSkeleton, maxLevel: number): ReducedTree {
  if (maxLevel >= deepestLevel(s)) return { skeleton: s, nodeOf: Int32Array.from({ length: s.nodeCount }, (_, k) => k), maxLevel };
  const nb = s.branchCount, P = s.nodePosition;
  const newIndex = new Int32Array(nb).fill(-1), newFirst = new Int32Array(nb).fill(-1);
  const b0 = new SkeletonBuilder();
  let nodes = 0;
  for (let b = 0; b < nb; b++) {
    if (s.branchLevel[b] > maxLevel) continue;
    const parent = b === 0 ? -1 : newIndex[s.branchParent[b]];
    if (b > 0 && parent < 0) continue; // (a kept level under a cut one cannot happen: levels grow down the tree)
    const o = s.branchOrigin[b];
    const po = s.branchParent[b];
    const origin = b > 0 && o >= 0 && s.nodeBranch[o] === po ? { branch: parent, node: o - s.branchFirstNode[po] } : null;
    const roll = [s.branchFrame[9 * b + 3], s.branchFrame[9 * b + 4], s.branchFrame[9 * b + 5]];
    const nb2 = b0.addBranch(parent, s.branchParentX[b], roll, origin);
    newIndex[b] = nb2;
    newFirst[b] = nodes;
    for (let k = s.branchFirstNode[b]; k < s.branchFirstNode[b] + s.branchNodeCount[b]; k++) {
      b0.addNode(nb2, P[3 * k], P[3 * k + 1], P[3 * k + 2], s.nodeRadius[k]);
      nodes++;
    }
  }
  // Each cut branch's attachment: the node of its kept ancestor it grows from (its origin, or the nearest to its base).
  const keptOf = new Int32Array(nb).fill(-1), attach = new Int32Array(nb).fill(-1);
  for (let b = 0; b < nb; b++) {
    if (newIndex[b] >= 0) continue;
    const p = s.branchParent[b];
    if (newIndex[p] < 0) {
      keptOf[b] = keptOf[p];
      attach[b] = attach[p];
      continue;
    }
    keptOf[b] = p;
    const o = s.branchOrigin[b];
    if (o >= 0 && s.nodeBranch[o] === p) attach[b] = o;
    else {
      const base = 3 * s.branchFirstNode[b];
      let best = s.branchFirstNode[p], bestD = Infinity;
      for (let k = s.branchFirstNode[p]; k < s.branchFirstNode[p] + s.branchNodeCount[p]; k++) {
        const d = hypot(P[3 * k] - P[base], P[3 * k + 1] - P[base + 1], P[3 * k + 2] - P[base + 2]);
        if (d < bestD) { bestD = d; best = k; }
      }
      attach[b] = best;
    }
  }
  const newNode = (k: number) => newFirst[s.nodeBranch[k]] + (k - s.branchFirstNode[s.nodeBranch[k]]);
  const nodeOf = new Int32Array(s.nodeCount);
  for (let k = 0; k < s.nodeCount; k++) {
    const b = s.nodeBranch[k];
    nodeOf[k] = newIndex[b] >= 0 ? newNode(k) : newNode(attach[b]);
  }
  for (let l = 0; l < s.leafCount; l++) {
    const b = s.leafBranch[l];
    const kept = newIndex[b] >= 0 ? b : keptOf[b];
    const x = newIndex[b] >= 0 ? s.leafX[l] : s.nodeX[attach[b]];
    const c = [s.leafCenter[3 * l], s.leafCenter[3 * l + 1], s.leafCenter[3 * l + 2]];
    const n = [s.leafNormal[3 * l], s.leafNormal[3 * l + 1], s.leafNormal[3 * l + 2]];
    const a = [s.leafAxis[3 * l], s.leafAxis[3 * l + 1], s.leafAxis[3 * l + 2]];
    b0.addLeaf(newIndex[kept], x, c, n, a, s.leafSize[l]);
  }
  return { skeleton: b0.build(), nodeOf, maxLevel };
}
