/**
 * What the spectral-beam method takes from each branch's wood and leaves, once per tree (Habel,
 * Kusternig and Wimmer 2009): the beam fit of its taper (eq. 7) and, for the paper-literal mode
 * only, the wind load it carries by frontal area (eq. 1), its compliance (eq. 25's prefactor) and
 * the per-level scale that sets each hierarchy level's median sway (LEVEL_SWAY). By default the
 * loads and the bend come from the physical tree (wind-load.ts).
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import { fitBeam } from "./beam";
import { DRAG_COEFFICIENT, LEAF_FILL, LEVEL_SWAY, REFERENCE_WIND_SPEED } from "./layout";

/** Frontal area per unit length the wind pushes on (m): the branch's own wood, its sub-branches'
 *  wood and every leaf they carry (the load of eq. 1, spread along the branch). Into `out`, per branch. */
export function loadWidths(s: TreeSkeleton, leafless: boolean, out: Float64Array): void {
  const n = s.branchCount;
  const area = new Float64Array(n);
  for (let b = 0; b < n; b++) area[b] = s.branchLength[b] * (s.branchRootRadius[b] + s.branchTipRadius[b]);
  if (!leafless) for (let i = 0; i < s.leafCount; i++) area[s.leafBranch[i]] += LEAF_FILL * s.leafSize[i] * s.leafSize[i];
  for (let b = n - 1; b > 0; b--) area[s.branchParent[b]] += area[b];
  for (let b = 0; b < n; b++) out[b] = area[b] / Math.max(1e-4, s.branchLength[b]);
}

/** Raw compliance of eq. 25's prefactor per unit wind force: ½ρC_d width L^3 / (E s1^4), E = 1. */
export function rawCompliance(s: TreeSkeleton, loadWidth: Float64Array, b: number): number {
  const L = Math.max(1e-3, s.branchLength[b]);
  const s1 = Math.max(1e-4, s.branchRootRadius[b]);
  return (DRAG_COEFFICIENT * loadWidth[b] * L * L * L) / (s1 * s1 * s1 * s1);
}

/** eq. 7's c2, c4 by taper ratio, fitted once per ratio (to 1/1000). */
export class BeamFits {
  private readonly cache = new Map<number, { c2: number; c4: number }>();

  fit(alpha: number): { c2: number; c4: number } {
    const key = Math.round(Math.min(1, Math.max(0.01, alpha)) * 1000);
    let f = this.cache.get(key);
    if (!f) {
      const fit = fitBeam(key / 1000);
      f = { c2: fit.c2, c4: fit.c4 };
      this.cache.set(key, f);
    }
    return f;
  }
}

/** LEVEL_SWAY: each level's median tip deflection at the reference wind, on the loads given
 *  (those with leaves). Into `out`, per level 0..3: the factor on the raw compliance. */
export function levelScales(s: TreeSkeleton, levelOf: Uint8Array, referenceLoad: Float64Array, fits: BeamFits, out: Float64Array): void {
  const byLevel: number[][] = [[], [], [], []];
  for (let b = 0; b < s.branchCount; b++) {
    const { c2, c4 } = fits.fit(s.branchTaperRatio[b]);
    byLevel[levelOf[b]].push(rawCompliance(s, referenceLoad, b) * (c2 + c4) * REFERENCE_WIND_SPEED * REFERENCE_WIND_SPEED);
  }
  for (let l = 0; l < 4; l++) {
    const v = byLevel[l].sort((a, b) => a - b);
    const median = v.length > 0 ? v[v.length >> 1] : 0;
    out[l] = median > 0 ? LEVEL_SWAY[l] / median : 1;
  }
}
