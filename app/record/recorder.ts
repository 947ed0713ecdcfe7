/**
 * Videos of the view (ARCHITECTURE.md's `record()`), frame-exact or in real time.
 *
 * - Frame-exact: the sandbox is paused and its fixed clock stepped to each video frame's time
 *   (frame i shows t0 + i / fps), the frame drawn, copied into a canvas of the asked size (with the
 *   caption) and encoded with WebCodecs' VideoEncoder (VP8); the chunks go into a WebM file
 *   (webm.ts). The file has exactly fps × seconds frames and plays at fps whatever the machine
 *   managed, because nothing here depends on wall-clock time.
 * - Real time: the running view is copied into the same canvas after every drawn frame and that
 *   canvas recorded with MediaRecorder for the asked seconds of wall-clock time: what the person
 *   sees, at the rate the machine draws it.
 *
 * The panel is not in the video: it is hidden while recording (it is drawn on the same canvas), and
 * a progress line outside the canvas says how far the recording is.
 */
import { WebmMuxer } from "./webm";

export interface RecordOptions {
  /** Length, seconds (0.1 to 600). */
  seconds: number;
  /** Frames per second, a whole number from 1 to 60; default 30. */
  fps?: number;
  /** true: step the clock frame by frame (default); false: record in real time. */
  frameExact?: boolean;
  /** Video size in pixels (even, 16 to 3840); default the view's size. */
  width?: number;
  height?: number;
  /** Write the caption (methods, wind, seed) in the video's corner; default true. */
  caption?: boolean;
  /** Also save the file through the browser's download; default false (the panel asks for it). */
  download?: boolean;
}

export interface RecordResult {
  bytes: number;
  mime: string;
  frames: number;
  width: number;
  height: number;
  seconds: number;
  fps: number;
  frameExact: boolean;
  caption: string;
}

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

const MIME = "video/webm";
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

function evenSize(v: number): number {
  return Math.max(16, Math.floor(v / 2) * 2);
}

/** Validated options with defaults, or a RangeError saying what is wrong. */
export function recordSettings(o: RecordOptions, canvas: { width: number; height: number }): Required<RecordOptions> {
  if (typeof o !== "object" || o === null) throw new TypeError("record() takes an object such as { seconds: 10, fps: 30, frameExact: true }");
  const known = ["seconds", "fps", "frameExact", "width", "height", "caption", "download"];
  for (const k of Object.keys(o)) if (!known.includes(k)) throw new RangeError(`record() has no option "${k}"; its options are: ${known.join(", ")}`);
  const { seconds } = o;
  if (!(typeof seconds === "number" && seconds >= 0.1 && seconds <= 600)) throw new RangeError(`record(): seconds must be a number from 0.1 to 600; got ${JSON.stringify(seconds)}`);
  const fps = o.fps ?? 30;
  if (!(Number.isInteger(fps) && fps >= 1 && fps <= 60)) throw new RangeError(`record(): fps must be a whole number from 1 to 60; got ${JSON.stringify(o.fps)}`);
  const size = (v: number | undefined, name: string, fallback: number) => {
    if (v === undefined) return evenSize(fallback);
    if (!(Number.isInteger(v) && v >= 16 && v <= 3840 && v % 2 === 0)) throw new RangeError(`record(): ${name} must be an even whole number of pixels from 16 to 3840; got ${JSON.stringify(v)}`);
    return v;
  };
  return {
    seconds, fps, frameExact: o.frameExact ?? true, width: size(o.width, "width", canvas.width), height: size(o.height, "height", canvas.height),
    caption: o.caption ?? true, download: o.download ?? false,
  };
}

export class VideoRecorder {
  private busy = false;
  /** The last video made, for a download or a test. */
  last: { blob: Blob; result: RecordResult } | null = null;

  constructor(private readonly host: RecorderHost) {}

  get recording(): boolean {
    return this.busy;
  }

  async record(options: RecordOptions): Promise<RecordResult> {
    if (this.busy) throw new Error("a recording is under way; wait for it to finish");
    const o = recordSettings(options, this.host.canvas);
    this.busy = true;
    const caption = o.caption ? this.host.caption() : "";
    const composite = document.createElement("canvas");
    composite.width = o.width;
    composite.height = o.height;
    const g = composite.getContext("2d");
    if (!g) throw new Error("record(): no 2D canvas to compose the frames on");
    const draw = () => {
      g.drawImage(this.host.canvas, 0, 0, o.width, o.height);
      if (caption) drawCaption(g, caption, o.width, o.height);
    };
    this.host.hideUi(true);
    try {
      const { blob, frames } = o.frameExact ? await this.frameExact(o, draw, composite, caption) : await this.realTime(o, draw, composite);
      if (blob.size === 0) {
        throw new Error(
          `record(): the real-time recording holds no video: this machine drew ${frames} frame${frames === 1 ? "" : "s"} in ${o.seconds} s ` +
            `and the browser's encoder wrote nothing. Record frame-exact instead (it does not depend on the machine's speed), or make the view smaller.`,
        );
      }
      const result: RecordResult = { bytes: blob.size, mime: MIME, frames, width: o.width, height: o.height, seconds: o.seconds, fps: o.fps, frameExact: o.frameExact, caption };
      this.last = { blob, result };
      if (o.download) download(blob, fileName(caption));
      return result;
    } finally {
      this.host.hideUi(false);
      this.host.progress(null, "");
      this.busy = false;
    }
  }

  private async frameExact(o: Required<RecordOptions>, draw: () => void, composite: HTMLCanvasElement, caption: string): Promise<{ blob: Blob; frames: number }> {
    if (typeof VideoEncoder === "undefined" || typeof VideoFrame === "undefined") {
      throw new Error("this browser has no WebCodecs VideoEncoder, which frame-exact recording needs; record in real time (frameExact: false)");
    }
    // "realtime": the encoder favours speed (a software VP8 encoder at 1280 x 720 is otherwise the slowest step).
    const config: VideoEncoderConfig = { codec: "vp8", width: o.width, height: o.height, bitrate: Math.round(0.15 * o.width * o.height * o.fps), framerate: o.fps, latencyMode: "realtime" };
    const support = await VideoEncoder.isConfigSupported(config);
    if (!support.supported) throw new Error(`this browser cannot encode VP8 at ${o.width} x ${o.height}; try a smaller size`);
    const muxer = new WebmMuxer({ width: o.width, height: o.height, codec: "V_VP8", frameRate: o.fps, title: caption || undefined });
    let failure: Error | null = null;
    const encoder = new VideoEncoder({
      output: (chunk) => {
        const data = new Uint8Array(chunk.byteLength);
        chunk.copyTo(data);
        try {
          muxer.addFrame(data, chunk.timestamp, chunk.type === "key");
        } catch (e) {
          failure ??= e instanceof Error ? e : new Error(String(e));
        }
      },
      error: (e) => {
        failure ??= e instanceof Error ? e : new Error(String(e));
      },
    });
    encoder.configure(config);
    const host = this.host, wasPaused = host.isPaused;
    host.pause();
    host.holdRenderLoop(true);
    const n = Math.round(o.seconds * o.fps);
    let steps = 0;
    try {
      for (let i = 0; i < n; i++) {
        // Frame i shows the clock i / fps after the start, on the fixed steps' grid.
        const target = Math.round(i / o.fps / host.dt);
        await this.stepAndDraw(target - steps, i, n);
        steps = target;
        draw();
        const frame = new VideoFrame(composite, { timestamp: Math.round((i * 1e6) / o.fps), duration: Math.round(1e6 / o.fps) });
        encoder.encode(frame, { keyFrame: i % (2 * o.fps) === 0 });
        frame.close();
        if (failure) throw failure;
        host.progress((i + 1) / n, `Recording frame ${i + 1} of ${n} (frame-exact, ${o.fps} fps)`);
        // Let the encoder and the page breathe: the progress shows, the queue stays short.
        while (encoder.encodeQueueSize > 2) await new Promise((r) => setTimeout(r, 1));
        if (i % 4 === 3) await new Promise((r) => setTimeout(r, 0));
      }
      await encoder.flush();
      if (failure) throw failure;
    } finally {
      if (encoder.state !== "closed") encoder.close();
      host.holdRenderLoop(false);
      if (!wasPaused) host.resume();
    }
    if (muxer.frames !== n) throw new Error(`the encoder gave ${muxer.frames} frames for ${n}`);
    return { blob: new Blob([muxer.finish() as BlobPart], { type: MIME }), frames: n };
  }

  /**
   * Advances `frames` steps and has the app draw them, waiting as long as it takes: the app draws
   * no frame while work in the background (shaders, shadow-map depth materials) would leave
   * something out of it, so a frame-exact video is the same whatever the machine's speed. Asks
   * again once per animation frame, up to READY_TIMEOUT_MS, then fails saying so.
   */
  private async stepAndDraw(frames: number, i: number, n: number): Promise<void> {
    const host = this.host;
    if (host.step(frames)) return;
    const t0 = performance.now();
    for (;;) {
      await nextFrame();
      if (host.step(0)) return;
      if (performance.now() - t0 > READY_TIMEOUT_MS) {
        throw new Error(
          `record(): frame ${i + 1} of ${n} could not be drawn: the view was still not ready after ${READY_TIMEOUT_MS / 1000} s ` +
            `(shaders or shadow maps compiling, or the graphics context lost); no video was made`,
        );
      }
    }
  }

  private async realTime(o: Required<RecordOptions>, draw: () => void, composite: HTMLCanvasElement): Promise<{ blob: Blob; frames: number }> {
    if (typeof MediaRecorder === "undefined") throw new Error("this browser has no MediaRecorder, which real-time recording needs; record frame-exact (frameExact: true)");
    const mime = ["video/webm;codecs=vp8", "video/webm;codecs=vp9", "video/webm"].find((m) => MediaRecorder.isTypeSupported(m));
    if (!mime) throw new Error("this browser cannot record WebM video");
    const host = this.host;
    if (host.isPaused) host.resume();
    draw();
    const stream = composite.captureStream(o.fps);
    const recorder = new MediaRecorder(stream, { mimeType: mime, videoBitsPerSecond: Math.round(0.15 * o.width * o.height * o.fps) });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    let frames = 0;
    const stop = host.afterEachFrame(() => {
      draw();
      frames++;
    });
    const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
    recorder.start(250);
    const t0 = performance.now(), ms = o.seconds * 1000;
    try {
      while (performance.now() - t0 < ms) {
        host.progress((performance.now() - t0) / ms, `Recording ${((performance.now() - t0) / 1000).toFixed(1)} / ${o.seconds} s (real time)`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      recorder.stop();
      await stopped;
      stop();
      for (const t of stream.getTracks()) t.stop();
    }
    return { blob: new Blob(chunks, { type: MIME }), frames };
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

function fileName(caption: string): string {
  const base = caption.split(" · ").slice(0, 2).join("-").toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-").replace(/^-|-$/g, "");
  return `${base || "tree-wind"}.webm`;
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
