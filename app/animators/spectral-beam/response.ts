/**
 * What spectral-beam knows of each branch's response to the wind, per tree and per mean wind
 * direction (Habel, Kusternig and Wimmer 2009, §4, §5): its own tip deflection in a steady wind
 * (eqs. 18, 19's mean amplitude), its turbulent response (eqs. 15, 16 at f = 0) and the air's
 * damping ratio per m/s of mean wind. Calibrated from the physical tree, or paper-literal from
 * LEVEL_SWAY. Plain TypeScript, no Babylon.
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import { ReferenceTree } from "../../physics/reference";
import type { PhysicalMaterial } from "../../physics/material";
import { BeamFits, levelScales, loadWidths, rawCompliance } from "./loads";
import { branchMasses } from "./motion";
import { StaticBendFit } from "./static-fit";
import { BranchWindLoads, branchLength } from "./wind-load";

export class BranchResponse {
  /** Per branch, its own tip deflection in a steady wind of 1 m/s along the mean wind (xyz, m per
   *  (m/s)²; eqs. 18, 19 project it on the carried r and s), and its tip's turbulent response per
   *  unit of the turbulent force 2 v σ_u (m per (m/s)²): force / (m ω_h²), eqs. 15, 16. */
  readonly meanTip: Float64Array;
  readonly turbulentTip: Float64Array;
  /**
   * Per branch, the aerodynamic damping ratio per m/s of mean wind. The drag of the wind relative to
   * the moving branch, F = k |U - v| (U - v) (drag.ts), linearised about the mean wind U, is a damper
   * c = 2 k U; with k U² = F₁ U² the cross force carried (eq. 15's load) and eq. 16's mass m,
   * ζ_air = c / (2 m ω_h) = F₁ U / (m ω_h) = turbulentTip · ω_h · U. Spectral synthesis keeps no
   * velocity, so the air's damping enters as this ζ in each texture's eq. 15 (0 when paper-literal).
   */
  readonly airZetaPerSpeed: Float64Array;
  /** Eq. 16 per branch, the tree's wood. */
  readonly mass: Float64Array;
  /** Per branch, eq. 7's c2 and c4 (Table 1's fit of eq. 25 at its taper ratio) scaled to c2 + c4 = 1. */
  readonly shapeC2: Float64Array;
  readonly shapeC4: Float64Array;
  /** The mean wind's direction the loads were computed for (NaN: compute again). */
  readonly direction = new Float64Array([NaN, NaN, NaN]);

  private readonly windLoads: BranchWindLoads;
  /** The reference beam frame (with or without the leaves' drag, as `leafless` says), made when first needed. */
  private reference: ReferenceTree | null = null;
  private referenceLeafless = false;
  private readonly referenceTips: Float64Array;
  private readonly bendFit: StaticBendFit;
  private readonly fits = new BeamFits();
  /** Paper-literal: the load width of the tree as it is (leafless or not). */
  private readonly loadWidth: Float64Array;
  /** The load width with leaves: c2 and c4 are built on it; leafless scales the amplitude instead. */
  private readonly referenceLoad: Float64Array;
  /** Paper-literal: per level, LEVEL_SWAY over the level's median raw compliance (from the tree with leaves). */
  private readonly levelScale = new Float64Array(4).fill(1);

  constructor(private readonly skeleton: TreeSkeleton, private readonly levelOf: Uint8Array, private readonly material: PhysicalMaterial) {
    const n = skeleton.branchCount;
    this.mass = branchMasses(skeleton, undefined, material.woodDensity); // eq. 16 with the tree's wood
    this.meanTip = new Float64Array(3 * n);
    this.turbulentTip = new Float64Array(n);
    this.airZetaPerSpeed = new Float64Array(n);
    this.windLoads = new BranchWindLoads(n);
    this.referenceTips = new Float64Array(3 * n);
    this.bendFit = new StaticBendFit(skeleton);
    this.shapeC2 = new Float64Array(n);
    this.shapeC4 = new Float64Array(n);
    for (let b = 0; b < n; b++) {
      const { c2, c4 } = this.fits.fit(skeleton.branchTaperRatio[b]);
      this.shapeC2[b] = c2 / (c2 + c4);
      this.shapeC4[b] = c4 / (c2 + c4);
    }
    this.loadWidth = new Float64Array(n);
    this.referenceLoad = new Float64Array(n);
    // Paper-literal: per level, LEVEL_SWAY over the level's median raw compliance, on the loads with leaves.
    loadWidths(skeleton, false, this.referenceLoad);
    levelScales(skeleton, levelOf, this.referenceLoad, this.fits, this.levelScale);
  }

  /** Paper-literal: the load of eq. 1 per unit length, with or without the leaves; the loads are computed again at the next `loadsFor`. */
  computeLoads(leafless: boolean): void {
    loadWidths(this.skeleton, leafless, this.loadWidth);
    this.direction[0] = NaN;
  }

  /**
   * Each branch's response to a steady wind of 1 m/s along (dx, dy, dz) (unit): meanTip and
   * turbulentTip. By default from the physical tree: the mean bend from the reference beam frame's
   * static solve of drag.ts's drag (static-fit.ts: each branch's own tip deflection that, after its
   * ancestors' motion, puts its tip where the frame does; E from the material), and for the
   * turbulence, the drag across it (wind-load.ts) over eq. 16's mass times ω_h² (eq. 15 at f = 0:
   * x = F / (m ω_h²)); `resonance(b)` gives f_h. Paper-literal: LEVEL_SWAY's compliance (eq. 25's
   * prefactor per level), the same for both.
   */
  loadsFor(dx: number, dy: number, dz: number, literal: boolean, leafless: boolean, resonance: (b: number) => number): void {
    const s = this.skeleton, n = s.branchCount, mean = this.meanTip, turb = this.turbulentTip;
    this.direction[0] = dx; this.direction[1] = dy; this.direction[2] = dz;
    if (literal) {
      for (let b = 0; b < n; b++) {
        const { c2, c4 } = this.fits.fit(s.branchTaperRatio[b]);
        // u(1) L = A (c2 + c4) L with A = v² times the compliance (layout.ts, LEVEL_SWAY).
        const tip = branchLength(s, b) * (c2 + c4) * rawCompliance(s, this.referenceLoad, b) * this.levelScale[this.levelOf[b]] * (this.loadWidth[b] / this.referenceLoad[b]);
        mean[3 * b] = tip * dx; mean[3 * b + 1] = tip * dy; mean[3 * b + 2] = tip * dz;
        turb[b] = tip;
      }
      this.airZetaPerSpeed.fill(0);
      return;
    }
    const w = this.windLoads;
    w.compute(s, this.material, this.material.youngModulus, dx, dy, dz, leafless);
    if (!this.reference || this.referenceLeafless !== leafless) {
      this.reference = new ReferenceTree(s, leafless ? { ...this.material, leafDragArea: 0 } : this.material);
      this.referenceLeafless = leafless;
    }
    this.reference.staticDeflection(1, dx, dz, this.referenceTips, dy);
    this.bendFit.fit(s, this.referenceTips, this.shapeC2, this.shapeC4, mean);
    for (let b = 0; b < n; b++) {
      const wh = 2 * Math.PI * resonance(b);
      turb[b] = w.crossForce(s, b) / (this.mass[b] * wh * wh); // eq. 15 at f = 0, eq. 16's m
      this.airZetaPerSpeed[b] = turb[b] * wh;
    }
  }
}
