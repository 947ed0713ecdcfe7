/**
 * Calibration for the tree on show: every method run off screen (a second sandbox on a NullEngine,
 * showing the same tree and material, with each method's parameters as set) in steady winds and
 * after the wind stops, beside the reference solver's static deflection and first mode
 * (app/physics/calibration.ts says what is measured). In slices between frames, one computation
 * at a time, with a progress bar; the last result is kept until the tree or the material changes.
 */
import type { ParamValue } from "../math/params";
import type { PhysicalMaterial } from "../physics/material";
import { amplitudeSpectrum, calibrateMethod, CALIBRATION_DEFAULTS, referenceFigure, spectrumTop, type CalibrationResult } from "../physics/calibration";
import { dampingRatio } from "../physics/damping";
import type { ReferenceProgress, ReferenceRequest, ReferenceResult } from "../physics/reference/run";
import type { TreeSkeleton } from "../tree/skeleton";
import type { WindSettings } from "../wind/wind-field";
import type { SandboxChange } from "./events";

/** The off-screen sandbox calibration drives: the stable API's calls it needs, and dispose. */
export interface OffscreenSandbox {
  wind(patch?: Partial<WindSettings>): WindSettings;
  use(ids: string | string[]): Promise<void>;
  params(id: string, patch?: Record<string, ParamValue>): Record<string, ParamValue>;
  step(frames: number): void;
  probe(): number[];
  dispose(): void;
}

/** What calibration needs of the host. */
export interface CalibrationHost {
  /** A sandbox with no canvas showing the tree and material on show. */
  offscreen(): Promise<OffscreenSandbox>;
  /** The methods there are (with the values each is calibrated with on top of its own), and each one's parameters as set. */
  methods(): { id: string; label: string; calibrationParams?: Record<string, ParamValue> }[];
  paramsOf(id: string): Record<string, ParamValue>;
  /** The tree on show, its name, its material, and a number that changes with either. */
  tree(): { skeleton: TreeSkeleton; name: string; material: PhysicalMaterial; version: number } | null;
  /** The reference solver, off the frame loop. */
  runReference(req: ReferenceRequest, progress: ReferenceProgress): Promise<ReferenceResult>;
}

export interface CalibrationOptions {
  methods?: string[];
  speeds?: number[];
}

/** The speeds of the table (5, 10, 20 m/s) and 30 m/s for the top of the plot. */
export const CALIBRATION_SPEEDS = [5, 10, 20, 30] as const;
const MAX_SPEED = 40;

/** Lets the page draw a frame between slices of work. */
const nextSlice = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * The least work between two frames the view draws, ms of the wall clock (a scheduling choice
 * only: what is computed does not depend on where the slices fall). The calibration offers to
 * yield every 30 steps, a few milliseconds for a light method; yielding each time spent most of
 * a calibration drawing the view (on SwiftShader, half of it).
 */
const SLICE_MS = 50;

export class CalibrationControl {
  private busy: { text: string; fraction: number } | null = null;
  private last: { version: number; result: CalibrationResult } | null = null;
  private disposed = false;

  constructor(private readonly host: CalibrationHost, private readonly changed: (what: SandboxChange) => void) {}

  /** Validated options with defaults; a RangeError names what is wrong. */
  settings(o: CalibrationOptions = {}): { methods: string[]; speeds: number[] } {
    if (typeof o !== "object" || o === null) throw new TypeError("calibration() takes an object such as { methods: [\"modal\", \"mass-spring\"] }");
    for (const k of Object.keys(o)) if (k !== "methods" && k !== "speeds") throw new RangeError(`calibration() has no option "${k}"; its options are: methods, speeds`);
    const all = this.host.methods().map((m) => m.id).filter((id) => id !== "rest");
    const methods = o.methods ?? all;
    if (!Array.isArray(methods) || methods.length === 0) throw new RangeError(`calibration(): methods must be a list of method ids from: ${all.join(", ")}`);
    for (const id of methods) if (!all.includes(id)) throw new RangeError(`calibration(): no method "${id}" to calibrate; the methods are: ${all.join(", ")}`);
    const speeds = o.speeds ?? [...CALIBRATION_SPEEDS];
    if (!Array.isArray(speeds) || speeds.length === 0 || speeds.length > 8 || !speeds.every((s) => typeof s === "number" && s > 0 && s <= MAX_SPEED)) {
      throw new RangeError(`calibration(): speeds must be a list of 1 to 8 wind speeds above 0 and up to ${MAX_SPEED} m/s; got ${JSON.stringify(o.speeds)}`);
    }
    return { methods, speeds };
  }

  /** Every method (or those asked) beside the reference, for the tree on show. */
  async run(o: CalibrationOptions = {}): Promise<CalibrationResult> {
    const { methods, speeds } = this.settings(o);
    const tree = this.host.tree();
    if (!tree) throw new Error("there is no tree on show yet");
    if (this.busy) throw new RangeError("a calibration is under way; wait for it to finish");
    const t0 = Date.now();
    const listed = new Map(this.host.methods().map((m) => [m.id, m]));
    const levels = Int32Array.from(tree.skeleton.branchLevel);
    const progress = (fraction: number, text: string) => {
      this.busy = { text, fraction };
      this.changed("progress");
    };
    progress(0, "the reference");
    let offscreen: OffscreenSandbox | null = null;
    try {
      const ref = await this.host.runReference({ skeleton: tree.skeleton, material: tree.material, speeds, modes: 6, direction: 0 }, (f, text) => progress(0.1 * f, `reference: ${text}`));
      const result: CalibrationResult = {
        tree: tree.name, speeds,
        reference: { static: ref.static.map((s) => referenceFigure(s.speed, s.tips, levels)), firstHz: ref.modes[0]?.hz ?? 0, modesHz: ref.modes.map((m) => m.hz) },
        methods: [], spectrumHz: spectrumTop(ref.modes[0]?.hz ?? 1), ms: 0,
      };
      offscreen = await this.host.offscreen();
      const sb = offscreen;
      let sliceStart = performance.now();
      for (let k = 0; k < methods.length; k++) {
        const id = methods[k], label = listed.get(id)?.label ?? id;
        // The method as set on screen: its parameters (the damping slider among them) go with it.
        const params = this.host.paramsOf(id);
        sb.params(id, { ...params, ...listed.get(id)?.calibrationParams });
        const m = await calibrateMethod({
          async restart(speed, turbulence = 0) {
            sb.wind({ speed, direction: 0, vertical: 0, turbulence, gust: 0 });
            await sb.use(id);
          },
          setSpeed: (speed) => void sb.wind({ speed }),
          step: (n) => sb.step(n),
          probe: () => sb.probe(),
        }, {
          ...CALIBRATION_DEFAULTS, speeds, levels,
          progress: (f, text) => progress(0.1 + (0.9 * (k + f)) / methods.length, `${label}: ${text}`),
          // Between slices: give up when the sandbox closed or the tree or material changed.
          yieldEvery: async () => {
            if (performance.now() - sliceStart < SLICE_MS) return;
            await nextSlice();
            sliceStart = performance.now();
            if (this.disposed) throw new Error("the sandbox was closed during the calibration");
            if (this.host.tree()?.version !== tree.version) throw new RangeError("the tree or its material changed during the calibration; run it again");
          },
        });
        const damping = params.damping;
        result.methods.push({
          id, label,
          static: m.static.map((s, i) => ({ ...s, ratio: s.levels.map((v, l) => (result.reference.static[i].levels[l] > 0 ? v / result.reference.static[i].levels[l] : NaN)) })),
          hz: m.free.hz, from: m.free.from, zeta: Number.isFinite(m.free.zeta) ? m.free.zeta : null,
          zetaSet: typeof damping === "number" ? dampingRatio(damping) : null,
          spectrum: Array.from(amplitudeSpectrum(m.free.trace, CALIBRATION_DEFAULTS.dt, result.spectrumHz)),
        });
        if (this.host.tree()?.version !== tree.version) throw new RangeError("the tree or its material changed during the calibration; run it again");
      }
      result.ms = Date.now() - t0;
      this.last = { version: tree.version, result };
      this.changed("calibration");
      return structuredClone(result);
    } finally {
      offscreen?.dispose();
      this.busy = null;
      this.changed("progress");
    }
  }

  /** Stops a run under way at its next slice (its off-screen sandbox is disposed then) and forgets the last result. */
  dispose(): void {
    this.disposed = true;
    this.last = null;
  }

  /** The calibration under way, for a progress bar; null when none. */
  progress(): { text: string; fraction: number } | null {
    return this.busy ? { ...this.busy } : null;
  }

  /** The last result, if it is for the tree and material on show (null otherwise). */
  latest(): CalibrationResult | null {
    const t = this.host.tree();
    return this.last && t && this.last.version === t.version ? structuredClone(this.last.result) : null;
  }
}
