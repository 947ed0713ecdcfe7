/**
 * Van Haevre et al. 2006, §4.3 "Capturing Animation Data": "a user defined number of samples is
 * taken from the branch joint positions at equal time intervals. This information is stored
 * together with the corresponding velocities and the forces applied to them at the time of
 * recording." A `Recording` is that store, one per capture, in plain float32 arrays laid out
 * sample-major (sample s, mass m, axis k at (s·M + m)·3 + k), which is also how the motion
 * graph (motion-graph.ts) and the pose blend (walk.ts) read it, and how a GPU texture can hold it.
 *
 * `Recorder` fills one from a running simulation: the caller offers the state after every step
 * and every `stride`-th one is kept, so the sampling interval is stride × dt. `captureRecording`
 * runs a system headless to make one (specs, benchmarks, and the app when nothing was recorded
 * live), and `turningWind` is a force function for it: drag of a wind that turns round the tree
 * swinging back and forth, with a slow gust, so the recording holds the tree leaning every way,
 * many times over (what a motion graph steered by a direction needs, §6.1.2).
 *
 * Plain TypeScript over typed arrays, no Babylon.
 */
import type { ImplicitEuler } from "./implicit";
import type { MassSpringSystem } from "./system";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { cos, sin, PI, floor } = Math;

/** One capture of the mass-spring tree (§4.3): positions, velocities and forces at equal intervals. */
export interface Recording {
  /** Assigned by the caller/store, 1-based. */
  readonly id: number;
  /** Human text, e.g. "10 s at 12 m/s, turning wind". */
  readonly label: string;
  /** M, masses per sample. */
  readonly masses: number;
  /** Seconds between samples. */
  readonly interval: number;
  /** N, samples. */
  readonly samples: number;
  /** N·M·3, metres, sample-major: index (s·M + m)·3 + k. */
  readonly positions: Float32Array;
  /** Same layout, m/s. */
  readonly velocities: Float32Array;
  /** Same layout, the external force applied at the time of recording, N. */
  readonly forces: Float32Array;
  /** M·3 rest positions, metres. */
  readonly rest: Float32Array;
}

export interface RecorderOptions {
  /** M. */
  masses: number;
  /** Simulation step, seconds. */
  dt: number;
  /** Keep every stride-th offered step: interval = stride × dt. */
  stride: number;
  /** N, samples to take. */
  samples: number;
  /** M·3 rest positions. */
  rest: ArrayLike<number>;
}

/** Takes samples "at equal time intervals" (§4.3) from a simulation stepped by the caller. */
export class Recorder {
  readonly masses: number;
  readonly interval: number;
  readonly stride: number;
  readonly samples: number;
  private readonly positions: Float32Array;
  private readonly velocities: Float32Array;
  private readonly forces: Float32Array;
  private readonly rest: Float32Array;
  private calls = 0;
  private count = 0;

  constructor(opts: RecorderOptions) {
    const { masses, dt, stride, samples, rest } = opts;
    if (!(Number.isInteger(masses) && masses >= 1)) throw new RangeError(`masses must be a positive integer; got ${masses}`);
    if (!(dt > 0)) throw new RangeError(`dt must be above 0; got ${dt}`);
    if (!(Number.isInteger(stride) && stride >= 1)) throw new RangeError(`stride must be a positive integer; got ${stride}`);
    if (!(Number.isInteger(samples) && samples >= 2)) throw new RangeError(`samples must be an integer of at least 2; got ${samples}`);
    if (rest.length !== 3 * masses) throw new RangeError(`rest must hold ${3 * masses} numbers; got ${rest.length}`);
    this.masses = masses;
    this.interval = stride * dt;
    this.stride = stride;
    this.samples = samples;
    const n = samples * masses * 3;
    this.positions = new Float32Array(n);
    this.velocities = new Float32Array(n);
    this.forces = new Float32Array(n);
    this.rest = Float32Array.from(rest);
  }

  /** Samples taken so far. */
  get taken(): number {
    return this.count;
  }

  /**
   * Call after every simulation step with the system's state (M·3 each). The first call and every
   * stride-th after it is a sample. Returns true once all samples are taken (further calls are ignored).
   */
  offer(positions: ArrayLike<number>, velocities: ArrayLike<number>, forces: ArrayLike<number>): boolean {
    if (this.count >= this.samples) return true;
    const call = this.calls++;
    if (call % this.stride !== 0) return false;
    const n = 3 * this.masses, o = this.count * n;
    const P = this.positions, V = this.velocities, F = this.forces;
    for (let i = 0; i < n; i++) {
      P[o + i] = positions[i];
      V[o + i] = velocities[i];
      F[o + i] = forces[i];
    }
    this.count++;
    return this.count >= this.samples;
  }

  /** taken / samples, 0..1. */
  progress(): number {
    return this.count / this.samples;
  }

  done(): boolean {
    return this.count >= this.samples;
  }

  /** The finished recording (its arrays are the recorder's own: offer nothing after this). */
  finish(id: number, label: string): Recording {
    if (!this.done()) throw new Error(`the recording is not done: ${this.count} of ${this.samples} samples taken`);
    return {
      id, label, masses: this.masses, interval: this.interval, samples: this.samples,
      positions: this.positions, velocities: this.velocities, forces: this.forces, rest: this.rest,
    };
  }
}

export interface CaptureOptions {
  /** Simulation step, seconds. */
  dt: number;
  /** Steps per sample. */
  stride: number;
  /** N. */
  samples: number;
  /** Fills sys.external for simulation time t before each step. */
  forces: (t: number) => void;
  id?: number;
  label?: string;
  /** Steps before sample 0 (the tree settles into the wind). */
  warmup?: number;
}

/**
 * Runs the system from its current state and records it (§4.3): `warmup` steps, then steps until
 * `samples` are taken, one every `stride` steps, the first right after the first recorded step.
 * Time t starts at 0 with the warm-up.
 */
export function captureRecording(sys: MassSpringSystem, solver: ImplicitEuler, opts: CaptureOptions): Recording {
  const { dt, stride, samples, forces } = opts;
  const rec = new Recorder({ masses: sys.count, dt, stride, samples, rest: sys.rest });
  let t = 0;
  for (let i = 0; i < (opts.warmup ?? 0); i++) {
    forces(t);
    solver.step(dt);
    t += dt;
  }
  for (;;) {
    forces(t);
    solver.step(dt);
    t += dt;
    if (rec.offer(sys.position, sys.velocity, sys.external)) break;
  }
  return rec.finish(opts.id ?? 1, opts.label ?? `${formatSeconds(samples * rec.interval)} s, ${samples} samples`);
}

function formatSeconds(s: number): string {
  return String(floor(s * 10 + 0.5) / 10);
}

/** Period of the slow gust of `turningWind`, seconds. */
export const GUST_PERIOD = 4.7;
/** Relative strength of that gust. */
export const GUST_DEPTH = 0.35;

/**
 * The turn of `turningWind`'s direction at time t, radians: `turns` circles over `seconds` plus
 * a swing of ±`swing` every `swingPeriod` seconds. The app's "turning wind while recording" turns
 * the shared wind by the same angle.
 */
export function turningAngle(t: number, seconds: number, turns = 1, swing = 2.5, swingPeriod = 2.5): number {
  return (2 * PI * turns * t) / seconds + swing * sin((2 * PI * t) / swingPeriod);
}

export interface TurningWindOptions {
  /** Amplitude of the direction's swing about its slow turn, radians. Default 2.5. */
  swing?: number;
  /** Period of that swing, seconds. Default 2.5. */
  swingPeriod?: number;
}

/**
 * A wind for captureRecording: drag (sys.windDrag) of a horizontal wind of `speed` m/s whose
 * direction turns by `turns` full circles over `seconds` while swinging back and forth about that
 * slow turn (±`swing` radians every `swingPeriod`), its strength varying by ±GUST_DEPTH with a slow
 * gust (GUST_PERIOD, plus a faster, weaker one). The swing is what makes the recording useful for
 * §5-§6: the tree goes back over the same leans many times from either side, so its path crosses
 * itself (transitions, §5.2.1) and can loop on any side of the tree (steering, §6.1.2); a wind that
 * only turns gives a path that spirals round without looping back (few transitions, and every
 * loop through them goes all the way round).
 */
export function turningWind(sys: MassSpringSystem, speed: number, seconds: number, turns = 1, opts: TurningWindOptions = {}): (t: number) => void {
  if (!(seconds > 0)) throw new RangeError(`seconds must be above 0; got ${seconds}`);
  const swing = opts.swing ?? 2.5, swingPeriod = opts.swingPeriod ?? 2.5;
  if (!(swingPeriod > 0)) throw new RangeError(`swingPeriod must be above 0; got ${swingPeriod}`);
  const gust = 2 * PI / GUST_PERIOD;
  return (t: number) => {
    const u = speed * (1 + GUST_DEPTH * sin(gust * t) + 0.5 * GUST_DEPTH * sin(2.9 * gust * t + 1));
    const a = turningAngle(t, seconds, turns, swing, swingPeriod);
    sys.windDrag(u * cos(a), 0, u * sin(a));
  };
}
