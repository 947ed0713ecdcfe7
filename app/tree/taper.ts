/**
 * Taper: the tree parameter that sets how much each branch thins from root to tip
 * (ARCHITECTURE.md, "The Animator contract": changing it rebuilds the tree and every method
 * feels it). Habel 2009 §4.1 models a branch as a linearly tapered beam with root radius r1 and
 * tip radius r2, taper ratio alpha = r2 / r1; the deflection grows strongly as alpha falls,
 * because the area moment I = pi r^4 / 4 is quartic in the radius (eq. 5).
 *
 * Here `taper` = 1 - alpha: 0 keeps uniform tubes, 0.95 thins every branch to 5 % of its root.
 */
import { numberParam, type NumberParam } from "../math/params";
import type { TreeSkeleton } from "./skeleton";

/** taper = 1 - tip radius / root radius of every branch (Habel 2009 §4.1, alpha = 1 - taper). */
export const TAPER_RANGE = { min: 0, max: 0.95, default: 0.6 } as const;

/** The tree's taper as a declared parameter (GUI, URL state, automation API). */
export const TAPER_PARAM: NumberParam = numberParam(
  "Taper", TAPER_RANGE.min, TAPER_RANGE.max, 0.05, TAPER_RANGE.default, "",
  "How much each branch thins from root to tip: tip radius = root radius x (1 - taper) (Habel 2009 §4.1).",
);

/** Thinnest tip radius, metres. */
export const MIN_TIP_RADIUS = 0.002;
/** A child's root radius is at most this share of its parent's radius where it attaches. */
export const CHILD_RADIUS_SHARE = 0.9;

/**
 * Returns a new skeleton with every branch's radius falling linearly along it (by nodeX) from
 * its root radius to root x (1 - taper), tips no thinner than MIN_TIP_RADIUS (nor thicker than
 * the root). The root radius is the source's, except that a child's is clamped to
 * CHILD_RADIUS_SHARE of the parent's new radius at the attachment point, so it never pokes
 * out of its parent. Arrays that do not change are shared with the source.
 */
export function applyTaper(skeleton: TreeSkeleton, taper: number): TreeSkeleton {
  if (!(taper >= TAPER_RANGE.min && taper <= TAPER_RANGE.max)) {
    throw new RangeError(`taper must be a number from ${TAPER_RANGE.min} to ${TAPER_RANGE.max}; got ${taper}`);
  }
  const s = skeleton;
  const nb = s.branchCount;
  const nodeRadius = new Float32Array(s.nodeCount);
  const branchRootRadius = new Float32Array(nb);
  const branchTipRadius = new Float32Array(nb);
  const branchTaperRatio = new Float32Array(nb);
  // Parents before children: by level (a parent always has a lower level).
  const order = byLevel(s);
  for (let o = 0; o < nb; o++) {
    const b = order[o];
    let root = s.branchRootRadius[b];
    const p = s.branchParent[b];
    if (p >= 0) root = Math.min(root, CHILD_RADIUS_SHARE * radiusAt(s, nodeRadius, p, s.branchParentX[b]));
    root = Math.max(root, 0);
    const tip = Math.min(root, Math.max(root * (1 - taper), MIN_TIP_RADIUS));
    branchRootRadius[b] = root;
    branchTipRadius[b] = tip;
    branchTaperRatio[b] = root > 0 ? tip / root : 1;
    const first = s.branchFirstNode[b], nn = s.branchNodeCount[b];
    for (let k = first; k < first + nn; k++) nodeRadius[k] = root + (tip - root) * s.nodeX[k];
  }
  return { ...s, nodeRadius, branchRootRadius, branchTipRadius, branchTaperRatio };
}

/** Radius of branch b at normalised position x, interpolated between its nodes in `radius`. */
export function radiusAt(s: TreeSkeleton, radius: Float32Array, b: number, x: number): number {
  const first = s.branchFirstNode[b], nn = s.branchNodeCount[b];
  let k = first;
  while (k < first + nn - 2 && s.nodeX[k + 1] < x) k++;
  const xa = s.nodeX[k], xb = s.nodeX[k + 1];
  const f = xb > xa ? Math.min(1, Math.max(0, (x - xa) / (xb - xa))) : 0;
  return radius[k] + (radius[k + 1] - radius[k]) * f;
}

function byLevel(s: TreeSkeleton): Int32Array {
  const nb = s.branchCount;
  let maxLevel = 0;
  for (let b = 0; b < nb; b++) maxLevel = Math.max(maxLevel, s.branchLevel[b]);
  const start = new Int32Array(maxLevel + 2);
  for (let b = 0; b < nb; b++) start[s.branchLevel[b] + 1]++;
  for (let l = 1; l < start.length; l++) start[l] += start[l - 1];
  const order = new Int32Array(nb);
  for (let b = 0; b < nb; b++) order[start[s.branchLevel[b]]++] = b;
  return order;
}
