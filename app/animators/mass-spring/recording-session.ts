/**
 * A recording under way (Van Haevre, Di Fiore and Van Reeth 2006, §4.3): the live simulation's
 * masses sampled "at equal time intervals", SAMPLE_RATE times a second for the chosen length, in
 * the shared wind, turned once round and swung back and forth when asked so that the tree leans
 * every way (what a motion graph steered by a direction needs, §6.1.2).
 */
import { Recorder, turningAngle, type Recording } from "./capture";
import type { MassSpringSystem } from "./system";

/** Samples a second of a recording (§4.3: "at equal time intervals"). */
export const SAMPLE_RATE = 30;

export class RecordingSession {
  private readonly recorder: Recorder;
  /** Seconds recorded so far. */
  private time = 0;
  /** What the recording will be labelled with (the wind when it started). */
  private readonly label: string;

  /** `seconds` long, the wind turning when `turning`; `wind` is the shared wind's settings now. */
  constructor(sys: MassSpringSystem, dt: number, readonly seconds: number, readonly turning: boolean, wind: { speed: number; direction: number }) {
    const stride = Math.max(1, Math.round(1 / (SAMPLE_RATE * dt)));
    const samples = Math.round(seconds / (stride * dt)) + 1;
    this.recorder = new Recorder({ masses: sys.count, dt, stride, samples, rest: sys.rest });
    this.label = `${seconds} s, ${wind.speed.toFixed(0)} m/s${turning ? ", turning" : ` toward ${wind.direction.toFixed(0)}°`}`;
  }

  /** How far the wind is turned now, radians about the vertical (0 unless turning). */
  turn(): number {
    return this.turning ? turningAngle(this.time, this.seconds) : 0;
  }

  /** Offers the state after a step of dt; true once the recording is full. */
  offer(sys: MassSpringSystem, dt: number): boolean {
    const full = this.recorder.offer(sys.position, sys.velocity, sys.external);
    this.time += dt;
    return full;
  }

  /** The recording, numbered `id`. */
  finish(id: number): Recording {
    return this.recorder.finish(id, `#${id}: ${this.label}`);
  }

  progress(): { text: string; fraction: number } {
    return { text: `Recording ${this.time.toFixed(1)} / ${this.seconds} s`, fraction: this.recorder.progress() };
  }

  /** What the stats line says while it runs. */
  note(): string {
    return `recording ${this.seconds} s at ${Math.round(1 / this.recorder.interval)} samples/s${this.turning ? ", the wind turning once round and swinging ±143° every 2.5 s" : ""}`;
  }
}
