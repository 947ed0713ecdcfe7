/**
 * Calibration: how far a method's motion is from the reference solver's, measured the same way for
 * every method. Three figures per method, each beside the reference's:
 *
 * - static deflection: in a steady wind (no turbulence, no gusts), the mean tip displacement from
 *   rest per hierarchy level, averaged over the last seconds of a settling run (the reference:
 *   its linear static solve, ReferenceTree.staticDeflection);
 * - the trunk's dominant frequency: of its free motion after a steady wind stops (the reference:
 *   its first mode); for a method with no free motion (no dynamics), the peak of its sway spectrum;
 * - the damping ratio ζ of that free motion, by the logarithmic decrement of its successive peaks,
 *   δ = ln(a_k / a_{k+1}), ζ = δ / √(4π² + δ²).
 *
 * Plain TypeScript over typed arrays, no Babylon: a driver (the sandbox's API in the app, a
 * NullEngine sandbox in tests) restarts the method in a wind, steps it and reads its tips.
 */
const { sqrt, abs, log, PI, max, min, hypot } = Math;

/** What calibration needs of a running method: restart it in a wind, step it, read its tips. */
export interface CalibrationDriver {
  /** Restart the method from rest in a wind of `speed` m/s toward +x, with no gusts and the given turbulence (0: steady). */
  restart(speed: number, turbulence?: number): Promise<void> | void;
  /** Set the steady wind's speed without restarting (0: the wind stops). */
  setSpeed(speed: number): void;
  /** Advance `frames` fixed steps of `dt` seconds. */
  step(frames: number): void;
  /** World xyz of every branch tip, in probe()'s order (branch 0's tip first: the trunk's). */
  probe(): ArrayLike<number>;
}

export interface CalibrationOptions {
  /** Wind speeds of the static figures, m/s. */
  speeds: readonly number[];
  /** Hierarchy level of every branch (probe order). */
  levels: ArrayLike<number>;
  /** The fixed step, s. */
  dt: number;
  /** Seconds to settle before averaging, and seconds averaged. */
  settle: number;
  average: number;
  /** Wind that is then stopped for the free motion, m/s, and seconds of free motion recorded. */
  releaseSpeed: number;
  freeSeconds: number;
  /** A method with no free motion (it stops with the wind): the turbulence and seconds of the sway whose spectral peak is its frequency. */
  turbulence: number;
  swaySeconds: number;
  /** Hears of progress (0 to 1) and what is being done. */
  progress?: (fraction: number, text: string) => void;
  /** Called between pieces of work (the app awaits a frame there). */
  yieldEvery?: () => Promise<void>;
}

export const CALIBRATION_DEFAULTS = { speeds: [5, 10, 20], dt: 1 / 60, settle: 6, average: 2, releaseSpeed: 10, freeSeconds: 8, turbulence: 0.35, swaySeconds: 64 } as const;

export interface StaticFigure {
  speed: number;
  /** Per level: mean |tip displacement| from rest, m. */
  levels: number[];
  /** Over every tip: mean |tip displacement| from rest, m. */
  all: number;
}

export interface FreeMotion {
  /** Dominant frequency of the trunk tip's free motion, Hz (0 when it does not swing). */
  hz: number;
  /** Damping ratio from the logarithmic decrement (NaN when fewer than two peaks). */
  zeta: number;
}

export interface TrunkMotion extends FreeMotion {
  /** "free": the motion after the wind stopped; "sway": the method has none, so the peak of its sway spectrum in turbulent wind. */
  from: "free" | "sway";
  /** The trunk tip's displacement along the wind, every dt, that the figures came from. */
  trace: Float32Array;
}

export interface MethodCalibration {
  static: StaticFigure[];
  free: TrunkMotion;
}

/** Per level: the mean length of the tips' displacement `d` (3 per branch) over the branches of that level. */
export function levelMeans(d: ArrayLike<number>, levels: ArrayLike<number>): number[] {
  let top = 0;
  for (let b = 0; b < levels.length; b++) top = max(top, levels[b]);
  const sum = new Array<number>(top + 1).fill(0), count = new Array<number>(top + 1).fill(0);
  for (let b = 0; b < levels.length; b++) {
    sum[levels[b]] += hypot(d[3 * b], d[3 * b + 1], d[3 * b + 2]);
    count[levels[b]]++;
  }
  return sum.map((s, l) => (count[l] > 0 ? s / count[l] : 0));
}

/**
 * The dominant frequency and damping ratio of a decaying oscillation x[0..n) sampled every dt:
 * the mean is removed; the frequency from the mean spacing of the peaks, ζ from the logarithmic
 * decrement between the first and the last peak above 2 % of the largest (ζ = δ / √(4π² + δ²),
 * δ the decrement per period). A motion with fewer than two peaks gives hz 0 and ζ NaN.
 */
export function freeMotionOf(x: ArrayLike<number>, dt: number): FreeMotion {
  const n = x.length;
  if (n < 3) return { hz: 0, zeta: NaN };
  // The rest position is the end of a decaying motion: the mean of its last quarter.
  let rest = 0;
  const q = max(1, n >> 2);
  for (let i = n - q; i < n; i++) rest += x[i];
  rest /= q;
  let largest = 0;
  for (let i = 0; i < n; i++) largest = max(largest, abs(x[i] - rest));
  if (largest === 0) return { hz: 0, zeta: NaN };
  // Peaks of |x - rest| between zero crossings: one per half period (sign alternates).
  const peaks: { t: number; a: number }[] = [];
  let sign = 0, best = 0, bestAt = -1;
  for (let i = 0; i < n; i++) {
    const v = x[i] - rest, s = v > 0 ? 1 : v < 0 ? -1 : 0;
    if (s !== 0 && s !== sign) {
      if (bestAt >= 0 && best > 0.02 * largest) peaks.push({ t: bestAt * dt, a: best });
      sign = s;
      best = 0;
      bestAt = -1;
    }
    if (abs(v) > best) {
      best = abs(v);
      bestAt = i;
    }
  }
  // The last lobe counts only if it closed (a crossing after it); it was not pushed above.
  if (peaks.length < 3) return { hz: peaks.length >= 2 ? 1 / (2 * (peaks[1].t - peaks[0].t)) : 0, zeta: NaN };
  // Half periods from peak spacing; the first lobe may be the release itself, so skip it.
  const first = peaks[1], last = peaks[peaks.length - 1], halves = peaks.length - 2;
  const hz = halves / (2 * (last.t - first.t));
  // Decrement per full period (two half periods) between the first and last peaks.
  const delta = (2 * log(first.a / last.a)) / halves;
  const zeta = delta / sqrt(4 * PI * PI + delta * delta);
  return { hz, zeta };
}

/**
 * The peak frequency of a motion's spectrum (for methods with no free motion), Hz, over [fmin, fmax].
 * A motion longer than 1.5 `segment` seconds is cut into segments of that length overlapping by half,
 * each Hann-windowed, and their power spectra averaged (Welch): a single periodogram of a random
 * sway scatters like χ² with two degrees of freedom in every bin, so its largest bin is often not
 * where the spectrum peaks. A shorter motion gets one plain periodogram. Frequencies are stepped a
 * quarter of the resolution apart.
 */
export function spectralPeak(x: ArrayLike<number>, dt: number, fmin = 0.05, fmax = 5, segment = 16): number {
  const n = x.length;
  const m = n * dt > 1.5 * segment ? Math.round(segment / dt) : n;
  const hop = m === n ? n : m >> 1;
  const starts: number[] = [];
  for (let a = 0; a + m <= n; a += hop) starts.push(a);
  const df = 1 / (m * dt);
  let bestF = 0, bestP = -1;
  for (let f = max(df, fmin); f <= fmax; f += df / 4) {
    const w = 2 * PI * f * dt;
    let p = 0;
    for (const a of starts) {
      let mean = 0;
      for (let i = 0; i < m; i++) mean += x[a + i];
      mean /= m;
      let re = 0, im = 0;
      for (let i = 0; i < m; i++) {
        const win = m === n ? 1 : 0.5 - 0.5 * Math.cos((2 * PI * (i + 0.5)) / m);
        const v = (x[a + i] - mean) * win;
        re += v * Math.cos(w * i);
        im -= v * Math.sin(w * i);
      }
      p += re * re + im * im;
    }
    if (p > bestP) {
      bestP = p;
      bestF = f;
    }
  }
  return bestF;
}

/** The calibration figures of one method through its driver. */
export async function calibrateMethod(driver: CalibrationDriver, o: CalibrationOptions): Promise<MethodCalibration> {
  const report = o.progress ?? (() => undefined);
  const pause = o.yieldEvery ?? (() => Promise.resolve());
  const nb = o.levels.length;
  const settleFrames = Math.round(o.settle / o.dt), averageFrames = max(1, Math.round(o.average / o.dt));
  const stages = o.speeds.length + 2;
  // Rest: the tips in no wind.
  report(0, "rest");
  await driver.restart(0);
  driver.step(1);
  const rest = Float64Array.from(driver.probe() as ArrayLike<number>);
  if (rest.length < 3 * nb) throw new RangeError(`calibration: the method reports ${rest.length / 3} tips, the tree has ${nb} branches`);
  const statics: StaticFigure[] = [];
  const sum = new Float64Array(3 * nb);
  for (let k = 0; k < o.speeds.length; k++) {
    const speed = o.speeds[k];
    report((k + 1) / stages, `steady wind at ${speed} m/s`);
    await driver.restart(speed);
    await settle(driver, settleFrames, pause);
    sum.fill(0);
    for (let f = 0; f < averageFrames; f++) {
      driver.step(1);
      const p = driver.probe();
      for (let i = 0; i < 3 * nb; i++) sum[i] += p[i] - rest[i];
      if (f % 30 === 29) await pause();
    }
    for (let i = 0; i < 3 * nb; i++) sum[i] /= averageFrames;
    statics.push({ speed, levels: levelMeans(sum, o.levels), all: meanLength(sum, nb) });
  }
  // Free motion: settle in a steady wind, stop it, follow the trunk tip along the wind (x).
  report((o.speeds.length + 1) / stages, `free motion after ${o.releaseSpeed} m/s stops`);
  await driver.restart(o.releaseSpeed);
  await settle(driver, settleFrames, pause);
  driver.setSpeed(0);
  const x = await trace(driver, Math.round(o.freeSeconds / o.dt), rest[0], pause);
  let free: TrunkMotion = { ...freeMotionOf(x, o.dt), from: "free", trace: Float32Array.from(x) };
  if (!(free.hz > 0)) {
    // No free motion (a method with no dynamics stops with the wind): the peak of its sway spectrum.
    report((o.speeds.length + 1.5) / stages, `sway in turbulent wind at ${o.releaseSpeed} m/s`);
    await driver.restart(o.releaseSpeed, o.turbulence);
    await settle(driver, Math.round(2 / o.dt), pause);
    const sway = await trace(driver, Math.round(o.swaySeconds / o.dt), rest[0], pause);
    free = { hz: spectralPeak(sway, o.dt), zeta: NaN, from: "sway", trace: Float32Array.from(sway) };
  }
  report(1, "done");
  return { static: statics, free };
}

async function settle(driver: CalibrationDriver, frames: number, pause: () => Promise<void>): Promise<void> {
  for (let f = 0; f < frames; f += 30) {
    driver.step(min(30, frames - f));
    await pause();
  }
}

/** The trunk tip's x less `x0`, every step for `frames` steps. */
async function trace(driver: CalibrationDriver, frames: number, x0: number, pause: () => Promise<void>): Promise<Float64Array> {
  const x = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    driver.step(1);
    x[f] = driver.probe()[0] - x0;
    if (f % 30 === 29) await pause();
  }
  return x;
}

/** Amplitude spectrum of `x` (mean removed) at `count` frequencies from 0 to fmax, for plots. */
export function amplitudeSpectrum(x: ArrayLike<number>, dt: number, fmax = 4, count = 160): Float32Array {
  const n = x.length, out = new Float32Array(count);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= max(1, n);
  for (let k = 0; k < count; k++) {
    const w = 2 * PI * ((k * fmax) / (count - 1)) * dt;
    let re = 0, im = 0;
    for (let i = 0; i < n; i++) {
      const v = x[i] - mean;
      re += v * Math.cos(w * i);
      im -= v * Math.sin(w * i);
    }
    out[k] = (2 * sqrt(re * re + im * im)) / max(1, n);
  }
  return out;
}

/** The mean length of `n` displacements (3 numbers each). */
export function meanLength(d: ArrayLike<number>, n: number): number {
  let sum = 0;
  for (let b = 0; b < n; b++) sum += hypot(d[3 * b], d[3 * b + 1], d[3 * b + 2]);
  return n > 0 ? sum / n : 0;
}

/** The reference's figure at one speed from its tips (3 per branch, probe order). */
export function referenceFigure(speed: number, tips: ArrayLike<number>, levels: ArrayLike<number>): StaticFigure {
  return { speed, levels: levelMeans(tips, levels), all: meanLength(tips, levels.length) };
}

/** What `sandbox.calibration()` returns: every method beside the reference, for the tree on show. */
export interface CalibrationResult {
  /** The tree's name (a preset, a grammar's file or a model's). */
  tree: string;
  /** The steady wind speeds, m/s (toward +x, no turbulence, no gusts). */
  speeds: number[];
  reference: {
    /** Per speed: the reference's mean static tip deflection per level and over all tips, m. */
    static: StaticFigure[];
    /** Its first natural frequency, Hz. */
    firstHz: number;
    /** Its lowest natural frequencies, Hz (for the spectrum plot). */
    modesHz: number[];
  };
  methods: {
    id: string;
    label: string;
    /** Per speed: the method's mean tip deflection per level and over all tips, m, and per level its ratio to the reference's. */
    static: (StaticFigure & { ratio: number[] })[];
    /** The trunk's dominant frequency, Hz; from its free motion or (a method with none) its sway spectrum. */
    hz: number;
    from: "free" | "sway";
    /** ζ measured by the logarithmic decrement of the free motion (null without one). */
    zeta: number | null;
    /** ζ its damping slider sets for the first mode (dampingRatio), null for a method without the slider. */
    zetaSet: number | null;
    /** Amplitude spectrum of the trunk's motion, from 0 to `spectrumHz`, for the plot. */
    spectrum: number[];
  }[];
  /** The spectra go from 0 to this many Hz (twice the reference's first mode, 2 to 10 Hz). */
  spectrumHz: number;
  /** Milliseconds it took. */
  ms: number;
}

/** The top of the calibration spectra for a tree whose first mode is `firstHz`: twice it, from 2 to 10 Hz. */
export function spectrumTop(firstHz: number): number {
  return Math.min(10, Math.max(2, 2 * firstHz));
}

/** method / reference, per level (NaN where the reference does not move). */
export function ratios(method: readonly number[], reference: readonly number[]): number[] {
  return reference.map((r, l) => (r > 0 ? (method[l] ?? 0) / r : NaN));
}
