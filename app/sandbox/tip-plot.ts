/**
 * The plotted tip: one branch tip (the longest branch's, or one a person picked), its horizontal
 * displacement from rest along and across the wind recorded every fixed step in every view, for
 * the plots of its motion and spectrum.
 */
import type { Animator } from "../animators/animator";
import type { Params } from "../math/params";
import { tipNode, type TreeSkeleton } from "../tree/skeleton";
import type { WindField } from "../wind/wind-field";
import type { SandboxChange } from "./events";
import { TipHistory } from "./tip-history";

/** 10 s at 60 steps a second. */
const HISTORY_STEPS = 600;

/** The plots' data: the plotted tip in every view. */
export interface PlotData {
  branch: number;
  /** Samples per second. */
  fs: number;
  /** The first view's series (as `views[0]`). */
  along: Float32Array;
  across: Float32Array;
  meanSpeed: number;
  resonanceHz: number | null;
  views: { id: string; along: Float32Array; across: Float32Array; resonanceHz: number | null }[];
}

export class TipPlot {
  /** One history per view, in view order. */
  private readonly histories: TipHistory[] = [];
  /** The branch asked for (-1: the longest) and the one plotted, with its rest position. */
  private asked = -1;
  private plotted = 0;
  private readonly rest = new Float64Array(3);

  constructor(private readonly wind: WindField, private readonly changed: (what: SandboxChange) => void) {}

  get branch(): number {
    return this.plotted;
  }

  /** Starts afresh on `skeleton` with `views` views: the chosen branch (or the longest) and its rest position. */
  reset(skeleton: TreeSkeleton | null, views: number): void {
    while (this.histories.length < views) this.histories.push(new TipHistory(HISTORY_STEPS));
    this.histories.length = Math.max(views, 0);
    for (const h of this.histories) h.clear();
    if (!skeleton) return;
    let b = this.asked;
    if (!(b >= 0 && b < skeleton.branchCount)) {
      b = 0;
      for (let i = 1; i < skeleton.branchCount; i++) if (skeleton.branchLength[i] > skeleton.branchLength[b]) b = i;
    }
    this.plotted = b;
    const n = tipNode(skeleton, b);
    for (let c = 0; c < 3; c++) this.rest[c] = skeleton.nodePosition[3 * n + c];
  }

  /** The branch whose tip the plots follow (-1: the longest); clears the history. */
  choose(branch: number, skeleton: TreeSkeleton | null, views: number): void {
    const count = skeleton?.branchCount ?? 0;
    if (!(Number.isInteger(branch) && branch >= -1 && branch < count)) {
      throw new RangeError(`the plotted tip must be a branch from 0 to ${count - 1}, or -1 for the longest branch; got ${branch}`);
    }
    this.asked = branch;
    this.reset(skeleton, views);
    this.changed("plot");
  }

  /** The plotted tip's displacement this step in view k, along and across the wind. */
  record(k: number, a: Animator<Params>): void {
    const b = this.plotted, r = this.rest, h = this.histories[k];
    if (!h) return;
    const angle = (this.wind.direction * Math.PI) / 180;
    if (a.probeTip) {
      const p = this.tip;
      if (!a.probeTip(b, p)) return;
      h.push(p[0] - r[0], p[2] - r[2], Math.cos(angle), Math.sin(angle));
      return;
    }
    const p = a.probe();
    if (3 * b + 2 >= p.length) return;
    h.push(p[3 * b] - r[0], p[3 * b + 2] - r[2], Math.cos(angle), Math.sin(angle));
  }
  private readonly tip = new Float64Array(3);

  /**
   * What the plots show, for every view: the plotted tip's displacement along and across the wind
   * over the last 10 s (oldest first) and the branch's resonance frequency where the method has
   * one (spectral-beam's f_h, Habel 2009 eq. 17); and the mean wind speed.
   */
  data(views: readonly { id: string; animator: Animator<Params> | null }[], dt: number): PlotData {
    const series = views.map((v, k) => {
      const h = this.histories[k], n = h?.length ?? 0;
      const along = new Float32Array(n), across = new Float32Array(n);
      h?.read(along, across);
      let resonanceHz: number | null = null;
      const f = v.animator?.branches?.info(this.plotted)?.["f_h (Hz)"];
      if (typeof f === "number" && Number.isFinite(f)) resonanceHz = f;
      return { id: v.id, along, across, resonanceHz };
    });
    const first = series[0] ?? { along: new Float32Array(0), across: new Float32Array(0), resonanceHz: null };
    return { branch: this.plotted, fs: 1 / dt, along: first.along, across: first.across, meanSpeed: this.wind.meanSpeed, resonanceHz: first.resonanceHz, views: series };
  }
}
