/**
 * Writing video files with mediabunny (a maintained TypeScript muxer over WebCodecs): which codecs
 * the browser can encode at a size and rate (its `canEncodeVideo`, which asks
 * `VideoEncoder.isConfigSupported` with the full codec string), and an encoder plus muxer for one
 * recording, fed frame by frame from a canvas with exact times (frame-exact) or with the times the
 * frames were drawn (real time).
 */
import {
  BufferTarget, CanvasSource, Mp4OutputFormat, Output, VideoSampleSource, WebMOutputFormat, canEncodeVideo,
  type VideoEncodingConfig, type VideoSource,
} from "mediabunny";
import { CODEC_CANDIDATES, FORMAT_MIME, VIDEO_FORMATS, chooseCodec, formatSupport, type CodecSupport, type FormatSupport, type VideoCodecName, type VideoFormat } from "./formats";

/** What a recording is encoded with: size, rate, the container and its codec. */
export interface EncodeSettings {
  width: number;
  height: number;
  fps: number;
  format: VideoFormat;
}

/** Bits per second: 0.15 bit per pixel per frame (about 4 Mbit/s at 1280 x 720, 30 fps). */
export function bitrateFor(width: number, height: number, fps: number): number {
  return Math.round(0.15 * width * height * fps);
}

/** Whether this browser can encode each candidate codec of every container at this size and rate. */
export async function probeCodecs(width: number, height: number, fps: number): Promise<CodecSupport> {
  const support: CodecSupport = {};
  if (typeof VideoEncoder === "undefined") return support;
  const codecs = [...new Set(VIDEO_FORMATS.flatMap((f) => CODEC_CANDIDATES[f]))];
  const answers = await Promise.all(codecs.map((c) => canEncodeVideo(c, { width, height, bitrate: bitrateFor(width, height, fps), frameRate: fps }).catch(() => false)));
  codecs.forEach((c, k) => (support[c] = answers[k]));
  return support;
}

/** Every container with the codec it would use here at this size and rate, or why it cannot be recorded. */
export async function videoFormats(width: number, height: number, fps: number): Promise<FormatSupport[]> {
  return formatSupport(await probeCodecs(width, height, fps));
}

/** One recording's encoder and file: add frames through `source`, then `finish()`. */
export interface VideoOutput<S extends VideoSource> {
  readonly source: S;
  readonly codec: VideoCodecName;
  /** The codec string: the encoder's configuration, then its description of what it wrote (known once a frame is encoded). */
  readonly codecString: string;
  /** Encoded frames so far. */
  readonly packets: number;
  readonly mime: string;
  start(): Promise<void>;
  /** Flushes the encoder and writes the file's index (WebM: duration and cues; MP4: moov before the data). */
  finish(): Promise<Blob>;
  cancel(): Promise<void>;
}

/**
 * An output of `settings.format`, its codec the first the browser can encode (chooseCodec throws,
 * naming what can be recorded instead, when none can), fed by the source `makeSource` builds.
 */
export async function videoOutput<S extends VideoSource>(settings: EncodeSettings, makeSource: (config: VideoEncodingConfig) => S, frameExact: boolean): Promise<VideoOutput<S>> {
  if (typeof VideoEncoder === "undefined") throw new Error("this browser has no WebCodecs VideoEncoder, which recording needs; save pictures instead");
  const { width, height, fps, format } = settings;
  const codec = chooseCodec(format, await probeCodecs(width, height, fps));
  let codecString = "";
  let packets = 0;
  const config: VideoEncodingConfig = {
    codec,
    bitrate: bitrateFor(width, height, fps),
    // A key frame every 2 s: seeking stays fine-grained, the file small.
    keyFrameInterval: 2,
    // "quality": the encoder never drops a frame (a frame-exact video must hold every one).
    latencyMode: "quality",
    onEncoderConfig: (c) => (codecString = c.codec),
    // The encoder's own description of the stream it wrote, where it gives one. (Chromium's H.264
    // encoder says "avc1.64000b" for a stream whose SPS sets two informative constraint flags
    // more, which a reader of the file calls "avc1.640c0b": the same profile and level.)
    onEncodedPacket: (_packet, meta) => {
      packets++;
      if (meta?.decoderConfig?.codec) codecString = meta.decoderConfig.codec;
    },
  };
  const target = new BufferTarget();
  const output = new Output({ format: format === "mp4" ? new Mp4OutputFormat({ fastStart: "in-memory" }) : new WebMOutputFormat(), target });
  const source = makeSource(config);
  // Frame-exact: the times are exact multiples of 1 / fps; real time: the frames' own times (a
  // slow machine's video has fewer frames, each shown as long as it was on screen).
  output.addVideoTrack(source, frameExact ? { frameRate: fps } : {});
  const mime = FORMAT_MIME[format];
  return {
    source, codec, mime,
    get codecString() {
      return codecString;
    },
    get packets() {
      return packets;
    },
    start: () => output.start(),
    async finish() {
      await output.finalize();
      const buffer = target.buffer;
      if (!buffer) throw new Error("the video file was not written");
      return new Blob([buffer], { type: mime });
    },
    async cancel() {
      if (output.state !== "finalized" && output.state !== "canceled") await output.cancel();
    },
  };
}

/** A frame-exact output: frames added one by one from `canvas` with exact times. */
export function canvasOutput(settings: EncodeSettings, canvas: HTMLCanvasElement): Promise<VideoOutput<CanvasSource>> {
  return videoOutput(settings, (config) => new CanvasSource(canvas, config), true);
}

/**
 * A real-time output: the recorder adds each frame as the app draws it, stamped with the time it
 * went on screen and lasting until the next (recorder.ts). Why neither MediaRecorder remuxed nor
 * mediabunny's MediaStreamVideoTrackSource, the two ways that stream the canvas: both give each
 * frame a duration of its own guessing, not the time it was on screen, so the file's length is not
 * the length recorded. Measured here (Chromium 156, the machine drawing 2 to 4 frames in 2 s under
 * load): the track source wrote 2 s of real time as an MP4 0.17 s long (two frames) and as a WebM
 * of one frame with no duration at all. MediaRecorder's WebM has no duration and no cues (a live
 * stream's unknown-size Segment); remuxing it would write both, but from MediaRecorder's own frame
 * times and its own codec choice per container. Adding the frames ourselves, the last one held
 * until the recording ends, gives a file exactly as long as what was recorded, with the same codec
 * choice and encoder settings as a frame-exact video.
 */
export function sampleOutput(settings: EncodeSettings): Promise<VideoOutput<VideoSampleSource>> {
  return videoOutput(settings, (config) => new VideoSampleSource(config), false);
}
