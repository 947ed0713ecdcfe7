/**
 * Videos and pictures of the view (ARCHITECTURE.md's `record()`): frame-exact or real-time videos
 * in WebM or MP4, a PNG of the view now, and a PNG per frame-exact frame.
 *
 * - Frame-exact: the sandbox is paused and its fixed clock stepped to each video frame's time
 *   (frame i shows t0 + i / fps), the frame drawn, copied into a canvas of the asked size (with the
 *   caption) and handed to mediabunny, which encodes it with WebCodecs (the container's first codec
 *   the browser can encode, formats.ts) and muxes it (video-output.ts). The file has exactly
 *   fps × seconds frames and plays at fps whatever the machine managed, because nothing here
 *   depends on wall-clock time. A PNG sequence steps the same way and writes each frame as a PNG.
 * - Real time: the running view is copied into the same canvas after every drawn frame and encoded
 *   with the time it went on screen, for the asked seconds of wall-clock time: what the person sees,
 *   at the rate the machine draws it (a frame drawn while the encoder is still busy is left out).
 * - A picture: the view drawn once more without the panel, copied at the asked size, as a PNG.
 *
 * The panel is in none of them: it is hidden while recording (it is drawn on the same canvas), and
 * a progress line outside the canvas says how far the recording is.
 */
import { fileExtension, type FormatSupport } from "./formats";
import {
  fileName, pngSequenceSettings, recordSettings, screenshotSettings,
  type PngSequenceOptions, type RecordOptions, type RecordResult, type ScreenshotOptions,
} from "./settings";
import { VideoSample } from "mediabunny";
import { canvasOutput, sampleOutput, videoFormats } from "./video-output";

export type { PngSequenceOptions, RecordOptions, RecordResult, ScreenshotOptions };

/** What the recorder needs from the app. */
export interface RecorderHost {
  readonly canvas: HTMLCanvasElement;
  /** The fixed step, seconds. */
  readonly dt: number;
  readonly isPaused: boolean;
  pause(): void;
  resume(): void;
  /** Stops the app's own drawing while a frame-exact video draws each frame itself (false: restarts it). */
  holdRenderLoop(hold: boolean): void;
  /**
   * Advances `frames` fixed steps and draws (0: just draws) if the view is ready to show them;
   * returns whether it drew (false while shaders compile in the background, or the graphics
   * context is lost: the recorder then asks again with step(0) on the next animation frames).
   */
  step(frames: number): boolean;
  /** Calls `f` after every frame the app draws, until the returned function is called. */
  afterEachFrame(f: () => void): () => void;
  /** The caption: methods, wind preset or timeline, seed. */
  caption(): string;
  /** Hides the panel (drawn on the same canvas) while recording. */
  hideUi(hidden: boolean): void;
  /** Shows how far the recording is (null: done). */
  progress(fraction: number | null, text: string): void;
}

/** How long a frame-exact recording waits for the view to be ready to draw one frame. */
export const READY_TIMEOUT_MS = 60_000;

/** The next animation frame (or 100 ms, where the page is hidden and animation frames stop). */
function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      clearTimeout(t);
      resolve();
    });
  });
}

/** A canvas of the asked size that `draw()` fills with the view (its middle, when the shapes differ: nothing stretched) and the caption. */
function compositor(view: HTMLCanvasElement, width: number, height: number, caption: string): { canvas: HTMLCanvasElement; draw(): void } {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext("2d");
  if (!g) throw new Error("no 2D canvas to compose the frames on");
  return {
    canvas,
    draw() {
      const scale = Math.max(width / view.width, height / view.height), sw = width / scale, sh = height / scale;
      g.drawImage(view, (view.width - sw) / 2, (view.height - sh) / 2, sw, sh, 0, 0, width, height);
      if (caption) drawCaption(g, caption, width, height);
    },
  };
}

function toPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error("the browser could not write the PNG"))), "image/png"));
}

export class VideoRecorder {
  /** What is under way: a video or a PNG sequence, a picture, or nothing. */
  private work: "video" | "picture" | null = null;
  /** The last video made, for a download or a test. */
  last: { blob: Blob; result: RecordResult } | null = null;
  /** The last picture taken (screenshot()), for a test. */
  lastPicture: Blob | null = null;

  constructor(private readonly host: RecorderHost) {}

  /** Whether a video (or a PNG sequence) is being made. */
  get recording(): boolean {
    return this.work === "video";
  }

  /** Which containers can be recorded here, with which codec, at the view's size and 30 fps. */
  formats(): Promise<FormatSupport[]> {
    const even = (v: number) => Math.max(16, Math.floor(v / 2) * 2);
    return videoFormats(even(this.host.canvas.width), even(this.host.canvas.height), 30);
  }

  private begin(call: string, work: "video" | "picture"): void {
    if (this.work) throw new Error(`${call} refused: ${this.work === "video" ? "a recording is under way" : "a picture is being taken"}; wait for it to finish`);
    this.work = work;
  }

  async record(options: RecordOptions): Promise<RecordResult> {
    const o = recordSettings(options, this.host.canvas);
    this.begin("record()", "video");
    const caption = o.caption ? this.host.caption() : "";
    try {
      const c = compositor(this.host.canvas, o.width, o.height, caption);
      const { blob, frames, codec } = o.frameExact ? await this.frameExactVideo(o, c) : await this.realTimeVideo(o, c);
      const result: RecordResult = { bytes: blob.size, mime: blob.type, format: o.format, codec, frames, width: o.width, height: o.height, seconds: o.seconds, fps: o.fps, frameExact: o.frameExact, caption };
      this.last = { blob, result };
      if (o.download) download(blob, fileName(this.host.caption(), fileExtension(o.format)));
      return result;
    } finally {
      this.host.progress(null, "");
      this.work = null;
    }
  }

  /** The view now, without the panel, as a PNG of the asked size (default the view's). */
  async screenshot(options?: ScreenshotOptions): Promise<Blob> {
    const o = screenshotSettings(options, this.host.canvas);
    this.begin("screenshot()", "picture");
    const host = this.host;
    try {
      const c = compositor(host.canvas, o.width, o.height, o.caption ? host.caption() : "");
      host.holdRenderLoop(true);
      host.hideUi(true);
      try {
        await this.stepAndDraw(0, "the picture");
        c.draw();
      } finally {
        host.hideUi(false);
        host.holdRenderLoop(false);
      }
      const png = await toPng(c.canvas);
      this.lastPicture = png;
      if (o.download) download(png, fileName(host.caption(), ".png"));
      return png;
    } finally {
      this.work = null;
    }
  }

  /** A frame-exact recording as pictures: `onFrame` gets each frame's PNG in turn (and is awaited). */
  async pngSequence(options: PngSequenceOptions, onFrame: (index: number, png: Blob) => unknown): Promise<{ frames: number; width: number; height: number; fps: number; caption: string }> {
    const o = pngSequenceSettings(options, this.host.canvas);
    this.begin("pngSequence()", "video");
    const caption = o.caption ? this.host.caption() : "";
    try {
      const c = compositor(this.host.canvas, o.width, o.height, caption);
      const frames = await this.exactFrames(o, "PNG", async (i) => {
        c.draw();
        await onFrame(i, await toPng(c.canvas));
      });
      return { frames, width: o.width, height: o.height, fps: o.fps, caption };
    } finally {
      this.host.progress(null, "");
      this.work = null;
    }
  }

  /**
   * Steps the paused clock to each of fps × seconds frames' times, draws it without the panel and
   * calls `each` with the frame on the canvas (awaited: the encoder's or the file's backpressure
   * holds the next frame back). Puts the clock's run and the panel back as they were. Returns the
   * frames made.
   */
  private async exactFrames(o: { seconds: number; fps: number }, what: string, each: (i: number) => Promise<void>): Promise<number> {
    const host = this.host, wasPaused = host.isPaused;
    host.pause();
    host.holdRenderLoop(true);
    host.hideUi(true);
    const n = Math.round(o.seconds * o.fps);
    let steps = 0;
    try {
      for (let i = 0; i < n; i++) {
        // Frame i shows the clock i / fps after the start, on the fixed steps' grid.
        const target = Math.round(i / o.fps / host.dt);
        await this.stepAndDraw(target - steps, `frame ${i + 1} of ${n}`);
        steps = target;
        await each(i);
        host.progress((i + 1) / n, `Recording frame ${i + 1} of ${n} (${what}, frame-exact, ${o.fps} fps)`);
        // Let the page breathe: the progress shows.
        if (i % 4 === 3) await new Promise((r) => setTimeout(r, 0));
      }
    } finally {
      host.hideUi(false);
      host.holdRenderLoop(false);
      if (!wasPaused) host.resume();
    }
    return n;
  }

  private async frameExactVideo(o: Required<RecordOptions>, c: { canvas: HTMLCanvasElement; draw(): void }): Promise<{ blob: Blob; frames: number; codec: string }> {
    const out = await canvasOutput(o, c.canvas);
    try {
      await out.start();
      const n = await this.exactFrames(o, o.format === "mp4" ? "MP4" : "WebM", async (i) => {
        c.draw();
        await out.source.add(i / o.fps, 1 / o.fps);
      });
      const blob = await out.finish();
      if (out.packets !== n) throw new Error(`record(): the encoder gave ${out.packets} frames for ${n}; no video was made`);
      return { blob, frames: n, codec: out.codecString };
    } catch (e) {
      await out.cancel().catch(() => undefined);
      throw e;
    }
  }

  /**
   * Draws the frame (after `frames` steps) without the panel, waiting as long as it takes: the app
   * draws no frame while work in the background (shaders, shadow-map depth materials) would leave
   * something out of it, so a frame-exact video is the same whatever the machine's speed. Asks
   * again once per animation frame, up to READY_TIMEOUT_MS, then fails saying so.
   */
  private async stepAndDraw(frames: number, what: string): Promise<void> {
    const host = this.host;
    if (host.step(frames)) return;
    const t0 = performance.now();
    for (;;) {
      await nextFrame();
      if (host.step(0)) return;
      if (performance.now() - t0 > READY_TIMEOUT_MS) {
        throw new Error(
          `${what} could not be drawn: the view was still not ready after ${READY_TIMEOUT_MS / 1000} s ` +
            `(shaders or shadow maps compiling, or the graphics context lost); nothing was made`,
        );
      }
    }
  }

  private async realTimeVideo(o: Required<RecordOptions>, c: { canvas: HTMLCanvasElement; draw(): void }): Promise<{ blob: Blob; frames: number; codec: string }> {
    const host = this.host;
    const out = await sampleOutput(o);
    let failure: unknown = null, drawn = 0, taken = 0, adding: Promise<void> | null = null, held: VideoSample | null = null, first = 0;
    /** Hands a frame to the encoder once its duration is known (when the next one is taken, or the recording ends). */
    const submit = (sample: VideoSample, end: number) => {
      sample.setDuration(Math.max(1e-3, end - sample.timestamp));
      adding = out.source.add(sample).then(
        () => void sample.close(),
        (e: unknown) => void ((failure ??= e), sample.close()),
      ).finally(() => (adding = null));
    };
    const take = () => {
      drawn++;
      // The encoder is still taking the last frame: this one is left out (real time: what the machine manages).
      if (adding || failure) return;
      c.draw();
      const now = performance.now() / 1000;
      if (!held) first = now;
      const sample = new VideoSample(c.canvas, { timestamp: now - first });
      taken++;
      if (held) submit(held, sample.timestamp);
      held = sample;
    };
    host.hideUi(true);
    if (host.isPaused) host.resume();
    let unwatch: (() => void) | null = null;
    try {
      await out.start();
      unwatch = host.afterEachFrame(take);
      const t0 = performance.now(), ms = o.seconds * 1000;
      while (performance.now() - t0 < ms && !failure) {
        host.progress((performance.now() - t0) / ms, `Recording ${((performance.now() - t0) / 1000).toFixed(1)} / ${o.seconds} s (real time)`);
        await new Promise((r) => setTimeout(r, 100));
      }
      unwatch();
      unwatch = null;
      await adding;
      const last = held as VideoSample | null;
      held = null;
      // The last frame lasts until the asked seconds are over (the file is as long as what was recorded).
      if (last) {
        submit(last, t0 / 1000 + o.seconds - first);
        await adding;
      }
      if (failure) throw failure;
      if (taken === 0) {
        throw new Error(
          `record(): the real-time recording holds no video: this machine drew ${drawn} frame${drawn === 1 ? "" : "s"} in ${o.seconds} s ` +
            `and none could be encoded. Record frame-exact instead (it does not depend on the machine's speed), or make the view smaller.`,
        );
      }
      const blob = await out.finish();
      if (out.packets !== taken) throw new Error(`record(): the encoder gave ${out.packets} frames for ${taken}; no video was made`);
      return { blob, frames: taken, codec: out.codecString };
    } catch (e) {
      await out.cancel().catch(() => undefined);
      throw e;
    } finally {
      unwatch?.();
      (held as VideoSample | null)?.close();
      host.hideUi(false);
    }
  }
}

/** The caption, bottom left, white on a dark band. */
function drawCaption(g: CanvasRenderingContext2D, text: string, w: number, h: number): void {
  const size = Math.max(10, Math.round(h / 36));
  g.font = `${size}px sans-serif`;
  const pad = Math.round(size / 2);
  const tw = Math.min(w - 2 * pad, g.measureText(text).width);
  g.fillStyle = "rgba(0, 0, 0, 0.55)";
  g.fillRect(pad, h - 2 * pad - size, tw + 2 * pad, size + pad);
  g.fillStyle = "#ffffff";
  g.fillText(text, 2 * pad, h - 1.5 * pad, w - 4 * pad);
}

function download(blob: Blob, name: string): void {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}
