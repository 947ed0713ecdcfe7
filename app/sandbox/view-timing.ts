/**
 * Each compare view's own milliseconds per frame: its method's updates (timed every step by the
 * run loop) and, every DRAW_TIMING_EVERY frames, the drawing of its camera and its shadow map with
 * the GPU waited for before and after (WebGL queues work; without the wait the times would be the
 * CPU's only). What the views share (clearing the canvas, switching between the shadow maps and
 * the canvas) is nobody's: a camera's time starts after the shadow maps, so the first view, whose
 * pass draws them all, is not charged for them. A Babylon Behavior of the scene: `detach()`
 * removes every observer it added, the shadow maps' included.
 */
import type { Behavior } from "@babylonjs/core/Behaviors/behavior";
import type { Scene } from "@babylonjs/core/scene";
import type { Camera } from "@babylonjs/core/Cameras/camera";
import type { Stages } from "./stages";

/** Every this many frames the GPU is waited for around each view's drawing, to time it. */
export const DRAW_TIMING_EVERY = 15;

/** What a view's timing is kept in. */
export interface ViewTimes {
  /** Milliseconds of this frame's steps so far, and the averages per frame: updates, drawing. */
  stepMs: number;
  updateMs: number;
  drawMs: number;
  /** Its shadow map's drawing time in this (timed) frame. */
  shadowMs: number;
  /** updateMs + drawMs as of the last timed frame: what its label shows. */
  shownMs: number;
}

export class ViewTimingBehavior implements Behavior<Scene> {
  readonly name = "ViewTiming";
  /** Frames since the last timed one. */
  private drawFrame = 0;
  private drawT0 = 0;
  private readonly removers: (() => void)[] = [];
  /** Per stage: what removes its shadow map's timers (a stage made again replaces them). */
  private readonly shadowRemovers = new Map<number, (() => void)[]>();
  attachedNode: Scene | null = null;

  /** `views()`: each view's camera and times, in view order; `changed()`: a timed figure changed. */
  constructor(private readonly stages: Stages, private readonly views: () => readonly { readonly camera: Camera; readonly times: ViewTimes }[], private readonly changed: () => void) {}

  init(): void {}

  /** Times the third frame from now: soon, but not the first, which compiles every view's shaders. */
  restart(): void {
    this.drawFrame = DRAW_TIMING_EVERY - 3;
  }

  private get timing(): boolean {
    return this.views().length > 1 && this.drawFrame === 0;
  }

  attach(scene: Scene): void {
    this.detach();
    this.attachedNode = scene;
    const gl = (scene.getEngine() as unknown as { _gl?: WebGLRenderingContext })._gl;
    // Reading a pixel waits for the GPU to finish the work queued before it (Chromium's finish() does not).
    const pixel = new Uint8Array(4);
    const finish = () => gl?.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    const add = <T>(o: { add(f: (x: T) => void): unknown; removeCallback(f: (x: T) => void): boolean }, f: (x: T) => void, into = this.removers) => {
      o.add(f);
      into.push(() => o.removeCallback(f));
    };
    add(scene.onBeforeRenderObservable, () => {
      this.drawFrame = (this.drawFrame + 1) % DRAW_TIMING_EVERY;
    });
    const start = () => {
      if (!this.timing) return;
      finish();
      this.drawT0 = performance.now();
    };
    add(scene.onBeforeCameraRenderObservable, start);
    // Inside each camera's pass, after the render targets (the first camera's: every shadow map).
    add(scene.onAfterRenderTargetsRenderObservable, start);
    add(scene.onAfterCameraRenderObservable, (c: Camera) => {
      if (!this.timing) return;
      finish();
      const v = this.views().find((x) => x.camera === c);
      if (!v) return;
      const t = v.times;
      t.drawMs = ema(t.drawMs, performance.now() - this.drawT0 + t.shadowMs);
      t.shadowMs = 0;
      t.shownMs = t.updateMs + t.drawMs;
      this.changed();
    });
    // Shadow maps are drawn inside the first camera's pass: each is timed (outside its own
    // framebuffer, where the canvas's pixel can be read) and given to its view.
    const shadowTimer = (k: number) => {
      let t0 = 0;
      for (const r of this.shadowRemovers.get(k) ?? []) r();
      const removers: (() => void)[] = [];
      this.shadowRemovers.set(k, removers);
      const map = this.stages.list[k].shadows.getShadowMap();
      if (!map) return;
      add(map.onBeforeBindObservable, () => {
        if (!this.timing) return;
        finish();
        t0 = performance.now();
      }, removers);
      add(map.onAfterUnbindObservable, () => {
        if (!this.timing) return;
        finish();
        const v = this.views()[k];
        if (v) v.times.shadowMs += performance.now() - t0;
      }, removers);
    };
    for (let k = 0; k < this.stages.list.length; k++) shadowTimer(k);
    this.stages.onStageAdded = shadowTimer;
  }

  detach(): void {
    for (const r of this.removers.splice(0)) r();
    for (const list of this.shadowRemovers.values()) for (const r of list) r();
    this.shadowRemovers.clear();
    if (this.attachedNode) this.stages.onStageAdded = null;
    this.attachedNode = null;
  }
}

/** An exponential moving average (0: none yet, so the first value is taken as it is). */
export function ema(avg: number, x: number): number {
  return avg === 0 ? x : avg * 0.9 + x * 0.1;
}
