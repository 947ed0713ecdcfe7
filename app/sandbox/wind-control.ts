/**
 * The shared wind as people set it: its settings (validated by the WindField), the Beaufort
 * presets, a wind timeline (keyframes of speed, direction and gusts) that plays on the host's
 * fixed-step clock, so a recording made twice shows the same wind, and the wind primitives placed
 * in the scene (wind-primitives.ts).
 */
import type { Scene } from "@babylonjs/core/scene";
import { presetOf, timelineAt, validateTimeline, windPreset, type WindTimeline } from "../wind/conditions";
import type { WindField, WindSettings } from "../wind/wind-field";
import type { SandboxChange } from "./events";
import { WindPrimitives } from "./wind-primitives";

/** Fixed steps between the panel's updates of a wind a timeline moves (6 a second). */
const TIMELINE_NOTICE_STEPS = 10;

export class WindControl {
  private timeline: WindTimeline | null = null;
  private readonly now = { speed: 0, direction: 0, gust: 0 };
  /** Fixed steps since listeners were last told the timeline moved the wind. */
  private steps = 0;

  /** Blasts, vortices and fans in the shared wind, with their markers. */
  readonly primitives: WindPrimitives;

  /**
   * `scene`: where the primitives' markers are drawn (they go when the scene is disposed); `time`:
   * the host's clock, which times the primitives.
   */
  constructor(readonly field: WindField, private readonly changed: (what: SandboxChange) => void, scene: Scene | null = null, time: () => number = () => 0) {
    this.primitives = new WindPrimitives(field, time, changed, scene);
    scene?.onDisposeObservable.addOnce(() => this.primitives.dispose());
  }

  settings(): WindSettings {
    return this.field.settings();
  }

  /** Validates (a RangeError naming the range); setting speed, direction or gusts by hand stops a timeline. */
  set(patch: Partial<WindSettings>): void {
    this.field.set(patch);
    if (this.timeline && ("speed" in patch || "direction" in patch || "gust" in patch)) {
      this.timeline = null;
      this.changed("timeline");
    }
    this.changed("wind");
  }

  /** A Beaufort preset (calm, light-breeze, ..., storm): its mean speed, turbulence and gusts; stops a timeline. */
  setPreset(id: string): void {
    const p = windPreset(id);
    const had = this.timeline !== null;
    this.timeline = null;
    this.field.set({ speed: p.speed, turbulence: p.turbulence, gust: p.gust });
    if (had) this.changed("timeline");
    this.changed("wind");
  }

  /** The timeline playing (a copy), or null. */
  get current(): WindTimeline | null {
    return this.timeline ? { loop: this.timeline.loop, keys: this.timeline.keys.map((k) => ({ ...k })) } : null;
  }

  /** Plays a timeline (validated, with a message a person can act on), or stops it (null: the wind stays where it was left). */
  setTimeline(tl: WindTimeline | null, time: number): void {
    if (tl !== null) validateTimeline(tl);
    this.timeline = tl === null ? null : { loop: tl.loop, keys: tl.keys.map((k) => ({ ...k })) };
    if (this.timeline) this.play(time);
    this.changed("timeline");
  }

  /** The timeline's wind at clock time `time` (each fixed step, and at t = 0 when the methods restart). */
  play(time: number): void {
    if (!this.timeline) return;
    const w = this.now;
    timelineAt(this.timeline, time, w);
    this.field.setMean(w.speed, w.direction, w.gust);
    if (++this.steps >= TIMELINE_NOTICE_STEPS) {
      this.steps = 0;
      this.changed("windPlayed");
    }
  }

  /** What a video's caption says of the wind: the preset or timeline, speed and direction. */
  caption(): string {
    const w = this.field.settings();
    if (this.timeline) return `wind timeline (${this.timeline.keys.length} keys, ${this.timeline.loop ? "loop" : "once"})${this.primitives.caption()}`;
    const p = presetOf(w.speed);
    return `${p ? p.label.split(" (")[0].toLowerCase() + ", " : ""}wind ${w.speed.toFixed(1)} m/s toward ${w.direction.toFixed(0)}°${this.primitives.caption()}`;
  }
}
