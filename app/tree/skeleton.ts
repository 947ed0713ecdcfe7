/**
 * TreeSkeleton: the one description of a tree that every source produces and every animator
 * reads (ARCHITECTURE.md, "The tree"). Structure of arrays over typed arrays.
 *
 * Nodes are the points of the branch centre lines. Each branch is a chain of consecutive nodes
 * `branchFirstNode[b] .. branchFirstNode[b] + branchNodeCount[b] - 1`, base first, tip last.
 * A branch's base node is its own node (a copy of the attachment point on the parent), so every
 * branch has at least two nodes. Branch 0 is the trunk (level 0, parent -1).
 *
 * Frames: t is the principal axis (base to tip, unit), r and s complete a right-handed
 * orthonormal frame (t x r = s). Habel 2009 §3/§6 deflects a branch in its r/s plane.
 */
export interface TreeSkeleton {
  /** Number of hierarchy levels present (max branchLevel + 1). */
  readonly levels: number;

  readonly nodeCount: number;
  /** xyz per node, metres, tree base at the origin, +y up. */
  readonly nodePosition: Float32Array;
  /** Radius of the bark tube at the node, metres. */
  readonly nodeRadius: Float32Array;
  /** Previous node on the same branch; for a branch's base node, the node of the parent branch it grows from; -1 for the trunk base. */
  readonly nodeParent: Int32Array;
  /** Branch the node belongs to. */
  readonly nodeBranch: Int32Array;
  /** Normalised arc-length position of the node along its branch, 0 at base, 1 at tip. */
  readonly nodeX: Float32Array;

  readonly branchCount: number;
  /** Hierarchy level: 0 trunk, 1 its children, ... */
  readonly branchLevel: Uint8Array;
  /** Parent branch, -1 for the trunk. Always of a lower level. */
  readonly branchParent: Int32Array;
  /** Normalised position along the parent where the branch starts, in [0, 1] (Habel 2009 §3). */
  readonly branchParentX: Float32Array;
  readonly branchFirstNode: Int32Array;
  /**
   * The node a branch physically grows from (its base node sits on it; Barron §4.1's particle the
   * turtle stood on), -1 for the trunk. Usually the base node's nodeParent; it differs where a
   * source re-parents a branch (the turtle's level cap keeps a deep twig's nodes where they were
   * drawn but hangs it off a level-2 ancestor).
   */
  readonly branchOrigin: Int32Array;
  readonly branchNodeCount: Int32Array;
  /** Local frame per branch, 9 floats: t.xyz, r.xyz, s.xyz. */
  readonly branchFrame: Float32Array;
  /** Arc length of the branch, metres. */
  readonly branchLength: Float32Array;
  readonly branchRootRadius: Float32Array;
  readonly branchTipRadius: Float32Array;
  /** Habel 2009 §4.1: alpha = tip radius / root radius, in (0, 1]. */
  readonly branchTaperRatio: Float32Array;

  readonly leafCount: number;
  readonly leafBranch: Int32Array;
  /** Normalised position along the leaf's branch, [0, 1]. */
  readonly leafX: Float32Array;
  /** Centre of the leaf card, xyz. */
  readonly leafCenter: Float32Array;
  /** Unit normal of the leaf card, xyz. */
  readonly leafNormal: Float32Array;
  /** Unit direction from the petiole to the leaf tip (in the card's plane), xyz. */
  readonly leafAxis: Float32Array;
  /** Edge length of the leaf card, metres. */
  readonly leafSize: Float32Array;
}

/** Summary the automation API returns for a loaded tree. */
export interface TreeSummary {
  branches: number;
  levels: number;
  leaves: number;
  vertices: number;
  tips: number;
  height: number;
}

export const MAX_LEVELS = 4;

/** Positions closer than this (metres) are one point: a branch's base node and its origin. */
export const SAME_POINT = 1e-5;

/** The tree's joints: its nodes, each branch's base merged into the node it grows from. */
export interface SkeletonJoints {
  /** Joint of every node (a merged base shares its origin's). */
  readonly jointOfNode: Int32Array;
  /** Node of every joint. */
  readonly node: Int32Array;
  /** Parent joint of every joint, -1 for the root; parent[j] < j. */
  readonly parent: Int32Array;
}

/**
 * The skeleton as one connected tree of joints, for the methods that put a particle or a mass on
 * every joint (Barron §4.1, Van Haevre §4.2): one joint per node, except that a branch's base
 * node, where it is the same point as the node it grows from (TreeSkeleton.branchOrigin), merges
 * with it; a base apart from its origin (imported models) is a joint of its own, child of the
 * origin. Parents come before children. Throws, naming `what` ("particle", "mass"), when a branch
 * other than the first has no origin or grows from a node that comes after it.
 */
export function skeletonJoints(s: TreeSkeleton, what: string): SkeletonJoints {
  const np = s.nodePosition;
  const jointOfNode = new Int32Array(s.nodeCount).fill(-1);
  const nodeOf: number[] = [];
  const parentOf: number[] = [];
  for (let b = 0; b < s.branchCount; b++) {
    const first = s.branchFirstNode[b], count = s.branchNodeCount[b];
    for (let k = first; k < first + count; k++) {
      let parentNode = k - 1;
      if (k === first) {
        if (b === 0 || s.branchOrigin[b] < 0) {
          if (nodeOf.length > 0) throw new Error(`branch ${b} has no origin: a ${what} tree has one root`);
          jointOfNode[k] = 0;
          nodeOf.push(k);
          parentOf.push(-1);
          continue;
        }
        const o = s.branchOrigin[b];
        if (jointOfNode[o] < 0) throw new Error(`branch ${b} grows from node ${o}, which comes after it`);
        const dx = np[3 * k] - np[3 * o], dy = np[3 * k + 1] - np[3 * o + 1], dz = np[3 * k + 2] - np[3 * o + 2];
        if (Math.sqrt(dx * dx + dy * dy + dz * dz) <= SAME_POINT) {
          jointOfNode[k] = jointOfNode[o];
          continue;
        }
        parentNode = o;
      }
      jointOfNode[k] = nodeOf.length;
      nodeOf.push(k);
      parentOf.push(jointOfNode[parentNode]);
    }
  }
  return { jointOfNode, node: Int32Array.from(nodeOf), parent: Int32Array.from(parentOf) };
}

/**
 * Per branch, the branch it physically grows from and where along it (normalised x): the branch of
 * its origin node (branchOrigin) and that node's x, where a source re-parented it in the hierarchy
 * (the level cap); otherwise its hierarchy parent and branchParentX. -1 for the trunk. A method that
 * composes each branch's motion from its parent's follows these, so a capped twig rides the branch
 * it grows on, not the level-2 ancestor the hierarchy hangs it off.
 */
export function growthParents(s: TreeSkeleton): { branch: Int32Array; x: Float32Array } {
  const branch = new Int32Array(s.branchCount), x = new Float32Array(s.branchCount);
  for (let b = 0; b < s.branchCount; b++) {
    const o = s.branchOrigin[b], p = s.branchParent[b];
    const from = o >= 0 ? s.nodeBranch[o] : p;
    if (from >= 0 && from !== p && from < b) {
      branch[b] = from;
      x[b] = s.nodeX[o];
    } else {
      branch[b] = p;
      x[b] = s.branchParentX[b];
    }
  }
  return { branch, x };
}

/** Index of a branch's tip node. */
export function tipNode(s: TreeSkeleton, branch: number): number {
  return s.branchFirstNode[branch] + s.branchNodeCount[branch] - 1;
}

/** The tree's horizontal reach from its base (the farthest node or leaf edge from the y axis), metres. */
export function treeReach(s: TreeSkeleton): number {
  let r = 0;
  for (let i = 0; i < s.nodeCount; i++) r = Math.max(r, Math.hypot(s.nodePosition[3 * i], s.nodePosition[3 * i + 2]));
  for (let i = 0; i < s.leafCount; i++) r = Math.max(r, Math.hypot(s.leafCenter[3 * i], s.leafCenter[3 * i + 2]) + 0.5 * s.leafSize[i]);
  return r;
}

/** Height of the tree: highest node or leaf y. */
export function treeHeight(s: TreeSkeleton): number {
  let h = 0;
  for (let i = 0; i < s.nodeCount; i++) h = Math.max(h, s.nodePosition[3 * i + 1]);
  for (let i = 0; i < s.leafCount; i++) h = Math.max(h, s.leafCenter[3 * i + 1] + 0.5 * s.leafSize[i]);
  return h;
}

/**
 * Accumulates branches, nodes and leaves in any order a source finds them, then packs them into
 * a TreeSkeleton. Lengths, node x, frames, radii and taper ratios are derived in `build()`.
 */
export class SkeletonBuilder {
  private readonly branches: { level: number; parent: number; parentX: number; nodes: number[][]; radii: number[]; roll: number[] | null; origin: { branch: number; node: number } | null }[] = [];
  private readonly leaves: { branch: number; x: number; center: number[]; normal: number[]; axis: number[]; size: number }[] = [];

  /**
   * Starts a branch. `parentX` is where it leaves its parent (normalised); `roll` is an optional
   * reference vector for the frame's r axis (projected to be orthogonal to t). `origin`: the node
   * (branch, index along it) the branch physically grows from, when that is not the parent's node
   * at parentX (see TreeSkeleton.branchOrigin).
   * Returns the branch index.
   */
  addBranch(parent: number, parentX: number, roll: number[] | null = null, origin: { branch: number; node: number } | null = null): number {
    const level = parent < 0 ? 0 : this.branches[parent].level + 1;
    if (parent >= this.branches.length) throw new Error(`SkeletonBuilder: parent branch ${parent} does not exist yet`);
    if (origin && !(origin.branch >= 0 && origin.branch < this.branches.length)) throw new Error(`SkeletonBuilder: origin branch ${origin.branch} does not exist yet`);
    this.branches.push({ level, parent, parentX: Math.min(1, Math.max(0, parentX)), nodes: [], radii: [], roll, origin });
    return this.branches.length - 1;
  }

  /** Appends a centre-line node (base first) with its radius. */
  addNode(branch: number, x: number, y: number, z: number, radius: number): void {
    const b = this.branches[branch];
    b.nodes.push([x, y, z]);
    b.radii.push(radius);
  }

  addLeaf(branch: number, x: number, center: number[], normal: number[], axis: number[], size: number): void {
    this.leaves.push({ branch, x, center, normal, axis, size });
  }

  get branchCount(): number {
    return this.branches.length;
  }

  /** Nodes so far on a branch. */
  nodeCountOf(branch: number): number {
    return this.branches[branch].nodes.length;
  }

  /** Packs into typed arrays. Branches with fewer than two nodes or zero length are an error. */
  build(): TreeSkeleton {
    const nb = this.branches.length;
    if (nb === 0) throw new Error("The tree has no branches: the grammar drew nothing (no F in the derived string?)");
    let nodeCount = 0;
    for (let b = 0; b < nb; b++) {
      if (this.branches[b].nodes.length < 2) throw new Error(`Branch ${b} has fewer than two nodes`);
      nodeCount += this.branches[b].nodes.length;
    }
    const nodePosition = new Float32Array(3 * nodeCount);
    const nodeRadius = new Float32Array(nodeCount);
    const nodeParent = new Int32Array(nodeCount);
    const nodeBranch = new Int32Array(nodeCount);
    const nodeX = new Float32Array(nodeCount);
    const branchLevel = new Uint8Array(nb);
    const branchParent = new Int32Array(nb);
    const branchParentX = new Float32Array(nb);
    const branchFirstNode = new Int32Array(nb);
    const branchNodeCount = new Int32Array(nb);
    const branchFrame = new Float32Array(9 * nb);
    const branchLength = new Float32Array(nb);
    const branchRootRadius = new Float32Array(nb);
    const branchTipRadius = new Float32Array(nb);
    const branchTaperRatio = new Float32Array(nb);
    let levels = 0;
    let n = 0;
    for (let b = 0; b < nb; b++) {
      const br = this.branches[b];
      branchLevel[b] = br.level;
      levels = Math.max(levels, br.level + 1);
      branchParent[b] = br.parent;
      branchParentX[b] = br.parentX;
      branchFirstNode[b] = n;
      branchNodeCount[b] = br.nodes.length;
      let len = 0;
      const cum: number[] = [0];
      for (let i = 1; i < br.nodes.length; i++) {
        const p = br.nodes[i], q = br.nodes[i - 1];
        len += Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
        cum.push(len);
      }
      if (!(len > 0)) throw new Error(`Branch ${b} has zero length`);
      branchLength[b] = len;
      for (let i = 0; i < br.nodes.length; i++) {
        const k = n + i;
        nodePosition.set(br.nodes[i], 3 * k);
        nodeRadius[k] = br.radii[i];
        nodeBranch[k] = b;
        nodeX[k] = cum[i] / len;
        nodeParent[k] = i > 0 ? k - 1 : -1; // base nodes fixed up below, once parents are packed
      }
      branchRootRadius[b] = br.radii[0];
      branchTipRadius[b] = br.radii[br.radii.length - 1];
      branchTaperRatio[b] = br.radii[0] > 0 ? Math.min(1, Math.max(1e-3, br.radii[br.radii.length - 1] / br.radii[0])) : 1;
      // Frame: t from base to tip (chord), r from the roll hint or a stable perpendicular.
      const p0 = br.nodes[0], p1 = br.nodes[br.nodes.length - 1];
      const t = normalize([p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]]);
      let hint = br.roll ?? (Math.abs(t[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0]);
      let r = sub(hint, scale(t, dot(hint, t)));
      if (Math.hypot(r[0], r[1], r[2]) < 1e-6) {
        hint = Math.abs(t[0]) < 0.9 ? [1, 0, 0] : [0, 0, 1];
        r = sub(hint, scale(t, dot(hint, t)));
      }
      r = normalize(r);
      const s = cross(t, r);
      branchFrame.set(t, 9 * b);
      branchFrame.set(r, 9 * b + 3);
      branchFrame.set(s, 9 * b + 6);
      n += br.nodes.length;
    }
    // A branch's base node hangs off the parent's node nearest to its start position.
    for (let b = 0; b < nb; b++) {
      const p = branchParent[b];
      if (p < 0) continue;
      const first = branchFirstNode[p], count = branchNodeCount[p];
      let best = first;
      for (let k = first; k < first + count; k++) if (nodeX[k] <= branchParentX[b] + 1e-6) best = k;
      nodeParent[branchFirstNode[b]] = best;
    }
    const branchOrigin = new Int32Array(nb);
    for (let b = 0; b < nb; b++) {
      const o = this.branches[b].origin;
      if (!o) {
        branchOrigin[b] = branchParent[b] < 0 ? -1 : nodeParent[branchFirstNode[b]];
        continue;
      }
      if (!(o.node >= 0 && o.node < branchNodeCount[o.branch])) throw new Error(`Branch ${b}: origin node ${o.node} is not on branch ${o.branch}`);
      branchOrigin[b] = branchFirstNode[o.branch] + o.node;
    }
    const nl = this.leaves.length;
    const leafBranch = new Int32Array(nl);
    const leafX = new Float32Array(nl);
    const leafCenter = new Float32Array(3 * nl);
    const leafNormal = new Float32Array(3 * nl);
    const leafAxis = new Float32Array(3 * nl);
    const leafSize = new Float32Array(nl);
    for (let i = 0; i < nl; i++) {
      const l = this.leaves[i];
      leafBranch[i] = l.branch;
      leafX[i] = Math.min(1, Math.max(0, l.x));
      leafCenter.set(l.center, 3 * i);
      leafNormal.set(normalize(l.normal), 3 * i);
      leafAxis.set(normalize(l.axis), 3 * i);
      leafSize[i] = l.size;
    }
    return {
      levels, nodeCount, nodePosition, nodeRadius, nodeParent, nodeBranch, nodeX,
      branchCount: nb, branchLevel, branchParent, branchParentX, branchFirstNode, branchOrigin, branchNodeCount, branchFrame,
      branchLength, branchRootRadius, branchTipRadius, branchTaperRatio,
      leafCount: nl, leafBranch, leafX, leafCenter, leafNormal, leafAxis, leafSize,
    };
  }
}

function dot(a: number[], b: number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function sub(a: number[], b: number[]): number[] {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function scale(a: number[], k: number): number[] {
  return [a[0] * k, a[1] * k, a[2] * k];
}
function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function normalize(a: number[]): number[] {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
}
