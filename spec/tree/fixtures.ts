/**
 * Hand-built skeletons for the tree specs (not a spec itself): a small 4-level tree whose
 * numbers can be checked by eye, and a seeded random tree at the scale of Habel 2009's example
 * (about 1,500 branches, 10,000 leaves).
 */
import { Rng } from "../../app/math/rng";
import { SkeletonBuilder, type TreeSkeleton } from "../../app/tree/skeleton";

type V3 = [number, number, number];

/** Point at normalised arc length x along a polyline. */
export function pointAt(nodes: V3[], x: number): V3 {
  const cum = [0];
  for (let i = 1; i < nodes.length; i++) cum.push(cum[i - 1] + Math.hypot(nodes[i][0] - nodes[i - 1][0], nodes[i][1] - nodes[i - 1][1], nodes[i][2] - nodes[i - 1][2]));
  const s = x * cum[cum.length - 1];
  let i = 0;
  while (i < nodes.length - 2 && cum[i + 1] < s) i++;
  const f = cum[i + 1] > cum[i] ? (s - cum[i]) / (cum[i + 1] - cum[i]) : 0;
  const a = nodes[i], b = nodes[i + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

function addChain(sb: SkeletonBuilder, b: number, nodes: V3[], r0: number, r1: number): void {
  for (let i = 0; i < nodes.length; i++) {
    const t = i / (nodes.length - 1);
    sb.addNode(b, nodes[i][0], nodes[i][1], nodes[i][2], r0 + (r1 - r0) * t);
  }
}

/** A chain starting at `start` heading along `dir` with a gentle bend toward `bend`. */
function chain(start: V3, dir: V3, bend: V3, length: number, count: number): V3[] {
  const out: V3[] = [start];
  let d: V3 = [...dir];
  let p: V3 = [...start];
  const step = length / (count - 1);
  for (let i = 1; i < count; i++) {
    const l = Math.hypot(d[0], d[1], d[2]);
    p = [p[0] + (d[0] / l) * step, p[1] + (d[1] / l) * step, p[2] + (d[2] / l) * step];
    out.push(p);
    d = [d[0] + bend[0] * step, d[1] + bend[1] * step, d[2] + bend[2] * step];
  }
  return out;
}

export interface HandTree {
  skeleton: TreeSkeleton;
  /** Branch indices by name. */
  b: { trunk: number; left: number; right: number; leftTwig: number; rightTwig: number; leftLeafy: number };
}

/**
 * Trunk (level 0) with two children (level 1), a grandchild on each (level 2) and one level-3
 * twig; five leaves on the upper levels.
 */
export function handTree(): HandTree {
  const sb = new SkeletonBuilder();
  const trunkNodes: V3[] = [[0, 0, 0], [0, 1, 0], [0.05, 2, 0], [0.02, 3, 0], [0, 4, 0.03]];
  const trunk = sb.addBranch(-1, 0);
  addChain(sb, trunk, trunkNodes, 0.2, 0.06);

  const leftX = 0.45;
  const leftNodes = chain(pointAt(trunkNodes, leftX), [-1, 0.6, 0], [0, -0.15, 0.05], 1.6, 5);
  const left = sb.addBranch(trunk, leftX, [0, 0, 1]);
  addChain(sb, left, leftNodes, 0.08, 0.02);

  const rightX = 0.7;
  const rightNodes = chain(pointAt(trunkNodes, rightX), [1, 0.8, 0.2], [0, -0.2, -0.1], 1.2, 4);
  const right = sb.addBranch(trunk, rightX);
  addChain(sb, right, rightNodes, 0.06, 0.015);

  const ltX = 0.6;
  const ltNodes = chain(pointAt(leftNodes, ltX), [0, 0.5, 1], [0.2, 0, 0], 0.7, 4);
  const leftTwig = sb.addBranch(left, ltX);
  addChain(sb, leftTwig, ltNodes, 0.025, 0.008);

  const rtX = 0.3;
  const rtNodes = chain(pointAt(rightNodes, rtX), [0.3, 1, -0.5], [0, 0, 0.3], 0.5, 3);
  const rightTwig = sb.addBranch(right, rtX);
  addChain(sb, rightTwig, rtNodes, 0.02, 0.006);

  const llX = 0.5;
  const llNodes = chain(pointAt(ltNodes, llX), [1, 0.3, 0.2], [0, 0.3, 0], 0.3, 3);
  const leftLeafy = sb.addBranch(leftTwig, llX);
  addChain(sb, leftLeafy, llNodes, 0.008, 0.003);

  const leaf = (b: number, nodes: V3[], x: number, normal: V3, axis: V3, size: number) => {
    const c = pointAt(nodes, x);
    const l = Math.hypot(axis[0], axis[1], axis[2]);
    sb.addLeaf(b, x, [c[0] + (axis[0] / l) * size * 0.5, c[1] + (axis[1] / l) * size * 0.5, c[2] + (axis[2] / l) * size * 0.5], normal, axis, size);
  };
  leaf(leftLeafy, llNodes, 0.3, [0, 1, 0], [1, 0, 0], 0.08);
  leaf(leftLeafy, llNodes, 1, [0, 0, 1], [0, 1, 0], 0.1);
  leaf(leftTwig, ltNodes, 0.9, [1, 0, 0], [0, 0, 1], 0.07);
  leaf(rightTwig, rtNodes, 0.5, [0, 1, 0], [0, 0, -1], 0.06);
  leaf(right, rightNodes, 0.95, [0, 0.6, 0.8], [1, 0, 0], 0.09);
  return { skeleton: sb.build(), b: { trunk, left, right, leftTwig, rightTwig, leftLeafy } };
}

export interface RandomTreeOptions {
  seed?: number;
  /** Children per branch at each level below the trunk (levels 1..3). */
  children?: [number, number, number];
  nodesPerBranch?: number;
  leavesPerTip?: number;
}

/**
 * A seeded random 4-level tree. Defaults give 1 + 12 + 12*10 + 12*10*12 = 1,573 branches and
 * about 10,000 leaves: the scale of Habel 2009's example tree.
 */
export function randomTree(opts: RandomTreeOptions = {}): TreeSkeleton {
  const rng = new Rng(opts.seed ?? 7);
  const [c1, c2, c3] = opts.children ?? [12, 10, 12];
  const nodes = opts.nodesPerBranch ?? 8;
  const leavesPerTip = opts.leavesPerTip ?? 7;
  const sb = new SkeletonBuilder();
  const rand = (): V3 => [rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)];
  const grow = (parent: number, parentNodes: V3[] | null, x: number, level: number, dir: V3, length: number, radius: number) => {
    const start: V3 = parentNodes ? pointAt(parentNodes, x) : [0, 0, 0];
    const r = rand();
    const ns = chain(start, dir, [r[0] * 0.3, r[1] * 0.3 - 0.1 * level, r[2] * 0.3], length, nodes);
    const b = sb.addBranch(parent, x);
    addChain(sb, b, ns, radius, radius * 0.4);
    const kids = [c1, c2, c3][level] ?? 0;
    for (let k = 0; k < kids; k++) {
      const cx = 0.2 + 0.75 * (k + rng.next()) / kids;
      const d = rand();
      grow(b, ns, cx, level + 1, [d[0], Math.abs(d[1]) + 0.3, d[2]], length * 0.45, radius * 0.35);
    }
    if (level === 3) {
      for (let k = 0; k < leavesPerTip; k++) {
        const lx = 0.3 + 0.7 * rng.next();
        const c = pointAt(ns, lx);
        const n = rand(), a = rand();
        sb.addLeaf(b, lx, [c[0] + a[0] * 0.03, c[1] + a[1] * 0.03, c[2] + a[2] * 0.03], n, cross(n, cross(a, n)), 0.06 + 0.03 * rng.next());
      }
    }
  };
  grow(-1, null, 0, 0, [0, 1, 0], 8, 0.3);
  return sb.build();
}

function cross(a: V3, b: V3): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
