/**
 * What `record()` and `screenshot()` take, checked: defaults filled in, or a RangeError that names
 * the option and its allowed range. Plain data (no DOM), so jest checks every rule.
 */
import { VIDEO_FORMATS, type VideoFormat } from "./formats";

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
  /** The file: "webm" (default) or "mp4"; the codec is the first of the container's the browser can encode (formats.ts). */
  format?: VideoFormat;
  /** Also save the file through the browser's download; default false (the panel asks for it). */
  download?: boolean;
}

export interface RecordResult {
  bytes: number;
  /** "video/webm" or "video/mp4". */
  mime: string;
  format: VideoFormat;
  /** The codec string of the file's video ("vp09.00.11.08", "avc1.640c0c", ...), as a player reads it. */
  codec: string;
  frames: number;
  width: number;
  height: number;
  seconds: number;
  fps: number;
  frameExact: boolean;
  caption: string;
}

export interface ScreenshotOptions {
  /** Picture size in pixels (16 to 7680); default the view's size. */
  width?: number;
  height?: number;
  /** Write the caption (methods, wind, seed, tree) in the corner, as in a video; default false. */
  caption?: boolean;
  /** Also save the PNG through the browser's download; default false (the panel asks for it). */
  download?: boolean;
}

const RECORD_OPTIONS = ["seconds", "fps", "frameExact", "width", "height", "caption", "format", "download"];
const PNG_SEQUENCE_OPTIONS = ["seconds", "fps", "width", "height", "caption"];
const SCREENSHOT_OPTIONS = ["width", "height", "caption", "download"];
export const MAX_PICTURE_SIZE = 7680;

function evenSize(v: number): number {
  return Math.max(16, Math.floor(v / 2) * 2);
}

function knownKeys(call: string, o: object, known: string[]): void {
  for (const k of Object.keys(o)) if (!known.includes(k)) throw new RangeError(`${call} has no option "${k}"; its options are: ${known.join(", ")}`);
}

function flag(call: string, name: string, v: unknown, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== "boolean") throw new RangeError(`${call}: ${name} must be true or false; got ${JSON.stringify(v)}`);
  return v;
}

/** The options of a PNG sequence (`npm run record -- --png-sequence DIR`): a frame-exact recording's, as pictures. */
export type PngSequenceOptions = Pick<RecordOptions, "seconds" | "fps" | "width" | "height" | "caption">;

/** Validated options with defaults, or a RangeError saying what is wrong. */
export function recordSettings(o: RecordOptions, canvas: { width: number; height: number }, call = "record()", known = RECORD_OPTIONS): Required<RecordOptions> {
  if (typeof o !== "object" || o === null) throw new TypeError(`${call} takes an object such as { seconds: 10, fps: 30${call === "record()" ? ", frameExact: true" : ""} }`);
  knownKeys(call, o, known);
  const { seconds } = o;
  if (!(typeof seconds === "number" && seconds >= 0.1 && seconds <= 600)) throw new RangeError(`${call}: seconds must be a number from 0.1 to 600; got ${JSON.stringify(seconds)}`);
  const fps = o.fps ?? 30;
  if (!(Number.isInteger(fps) && fps >= 1 && fps <= 60)) throw new RangeError(`${call}: fps must be a whole number from 1 to 60; got ${JSON.stringify(o.fps)}`);
  const size = (v: number | undefined, name: string, fallback: number) => {
    if (v === undefined) return evenSize(fallback);
    if (!(Number.isInteger(v) && v >= 16 && v <= 3840 && v % 2 === 0)) throw new RangeError(`${call}: ${name} must be an even whole number of pixels from 16 to 3840; got ${JSON.stringify(v)}`);
    return v;
  };
  const format = o.format ?? "webm";
  if (!VIDEO_FORMATS.includes(format)) throw new RangeError(`${call}: format must be one of ${VIDEO_FORMATS.map((f) => `"${f}"`).join(", ")}; got ${JSON.stringify(o.format)}`);
  return {
    seconds, fps, frameExact: flag(call, "frameExact", o.frameExact, true), width: size(o.width, "width", canvas.width), height: size(o.height, "height", canvas.height),
    caption: flag(call, "caption", o.caption, true), format, download: flag(call, "download", o.download, false),
  };
}

/** Validated PNG-sequence options with defaults (frame-exact, as record()'s), or a RangeError. */
export function pngSequenceSettings(o: PngSequenceOptions, canvas: { width: number; height: number }): Required<PngSequenceOptions> {
  const { seconds, fps, width, height, caption } = recordSettings(o, canvas, "pngSequence()", PNG_SEQUENCE_OPTIONS);
  return { seconds, fps, width, height, caption };
}

/** Validated screenshot options with defaults, or a RangeError saying what is wrong. */
export function screenshotSettings(o: ScreenshotOptions | undefined, canvas: { width: number; height: number }): Required<ScreenshotOptions> {
  if (o === undefined) o = {};
  if (typeof o !== "object" || o === null) throw new TypeError("screenshot() takes nothing or an object such as { width: 1920, height: 1080, caption: true }");
  knownKeys("screenshot()", o, SCREENSHOT_OPTIONS);
  const size = (v: number | undefined, name: string, fallback: number) => {
    if (v === undefined) return Math.max(16, Math.min(MAX_PICTURE_SIZE, Math.round(fallback)));
    if (!(Number.isInteger(v) && v >= 16 && v <= MAX_PICTURE_SIZE)) throw new RangeError(`screenshot(): ${name} must be a whole number of pixels from 16 to ${MAX_PICTURE_SIZE}; got ${JSON.stringify(v)}`);
    return v;
  };
  return {
    width: size(o.width, "width", canvas.width), height: size(o.height, "height", canvas.height),
    caption: flag("screenshot()", "caption", o.caption, false), download: flag("screenshot()", "download", o.download, false),
  };
}

/** A file name from the caption's methods and wind ("spectral-beam-gale.webm"). */
export function fileName(caption: string, extension: string): string {
  const base = caption.split(" · ").slice(0, 2).join("-").toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-").replace(/^-|-$/g, "");
  return `${base || "tree-wind"}${extension}`;
}
