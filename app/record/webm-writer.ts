/**
 * Writes WebM: `WebmMuxer` packs WebCodecs' encoded VP8/VP9 frames into a file with known sizes,
 * a duration and cues (layout and timing in webm.ts).
 */
import { ID, MAX_SIZE, TIMECODE_SCALE_NS } from "./ebml";

export type WebmCodec = "V_VP8" | "V_VP9";

export interface WebmOptions {
  width: number;
  height: number;
  codec: WebmCodec;
  frameRate: number;
  /** written as the segment title, e.g. "spectral-beam, gale, seed 1" */
  title?: string;
}

const APP = "tree-wind-sandbox";
const MAX_CLUSTER_MS = 5000;
const TRACK = 1;
const utf8 = new TextEncoder();

/** Bytes of an element ID: its natural big-endian length (1 to 4 bytes, marker bits included). */
function encodeId(id: number): Uint8Array {
  const n = id >= 0x1000000 ? 4 : id >= 0x10000 ? 3 : id >= 0x100 ? 2 : 1;
  const out = new Uint8Array(n);
  for (let i = n - 1, v = id; i >= 0; i--, v = Math.floor(v / 256)) out[i] = v & 0xff;
  return out;
}

/**
 * An EBML data size in the fewest bytes. A length-n size holds
 * values up to 2^(7n) - 2; all value bits set means "unknown size", which this module never writes.
 */
function encodeSize(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`webm: bad element size ${value}`);
  let n = 1;
  while (n < 8 && value >= 2 ** (7 * n) - 1) n++;
  const out = new Uint8Array(n);
  let v = value;
  for (let i = n - 1; i >= 0; i--, v = Math.floor(v / 256)) out[i] = v % 256;
  out[0] |= 0x80 >> (n - 1);
  return out;
}

/** Unsigned integer payload in the fewest bytes (at least one), or exactly `width` bytes. */
function encodeUint(value: number, width?: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`webm: bad unsigned value ${value}`);
  let n = 1;
  while (n < 8 && value >= 2 ** (8 * n)) n++;
  if (width !== undefined) {
    if (width < n) throw new RangeError(`webm: ${value} does not fit ${width} bytes`);
    n = width;
  }
  const out = new Uint8Array(n);
  let v = value;
  for (let i = n - 1; i >= 0; i--, v = Math.floor(v / 256)) out[i] = v % 256;
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function byteLength(parts: readonly Uint8Array[]): number {
  let n = 0;
  for (const p of parts) n += p.length;
  return n;
}

/** An element as a list of parts: ID and size header, then the children's parts as they are. */
function element(id: number, children: readonly Uint8Array[]): Uint8Array[] {
  return [encodeId(id), encodeSize(byteLength(children)), ...children];
}

/** A small element flattened to one array. */
function small(id: number, children: readonly Uint8Array[]): Uint8Array {
  return concat(element(id, children));
}

const uintEl = (id: number, value: number, width?: number): Uint8Array => small(id, [encodeUint(value, width)]);
const stringEl = (id: number, value: string): Uint8Array => small(id, [utf8.encode(value)]);
function floatEl(id: number, value: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, value);
  return small(id, [b]);
}

interface PendingCluster {
  timecodeMs: number;
  startsWithKeyframe: boolean;
  /** SimpleBlock parts: for each block a header array then the frame data. */
  parts: Uint8Array[];
}

/** Packs encoded VP8/VP9 frames into a WebM file with known sizes, a duration and cues. */
export class WebmMuxer {
  private readonly opts: Required<WebmOptions>;
  private readonly clusters: PendingCluster[] = [];
  private count = 0;
  private lastUs = -Infinity;
  private lastMs = 0;

  constructor(opts: WebmOptions) {
    const { width, height, codec, frameRate } = opts;
    if (!Number.isInteger(width) || width <= 0) throw new RangeError(`WebmMuxer: width must be a positive integer, got ${width}`);
    if (!Number.isInteger(height) || height <= 0) throw new RangeError(`WebmMuxer: height must be a positive integer, got ${height}`);
    if (!(Number.isFinite(frameRate) && frameRate > 0)) throw new RangeError(`WebmMuxer: frameRate must be a positive number, got ${frameRate}`);
    if (codec !== "V_VP8" && codec !== "V_VP9") throw new RangeError(`WebmMuxer: codec must be "V_VP8" or "V_VP9", got ${String(codec)}`);
    this.opts = { width, height, codec, frameRate, title: opts.title ?? "" };
  }

  /** Frames added so far. */
  get frames(): number {
    return this.count;
  }

  /**
   * Adds one encoded frame; timestamps in microseconds, increasing; the first frame must be a
   * keyframe. The bytes are copied, so the caller may reuse its buffer.
   */
  addFrame(data: Uint8Array, timestampUs: number, keyframe: boolean): void {
    if (!Number.isFinite(timestampUs) || timestampUs < 0) throw new RangeError(`WebmMuxer.addFrame: timestamp must be a finite number of microseconds >= 0, got ${timestampUs}`);
    if (timestampUs <= this.lastUs) throw new Error(`WebmMuxer.addFrame: timestamps must increase (frame ${this.count} at ${timestampUs} us after ${this.lastUs} us)`);
    if (this.count === 0 && !keyframe) throw new Error("WebmMuxer.addFrame: the first frame must be a keyframe");
    const ms = Math.round(timestampUs / 1000);
    if (ms > MAX_SIZE) throw new RangeError(`WebmMuxer.addFrame: timestamp ${timestampUs} us is too large`);

    let cluster = this.clusters[this.clusters.length - 1];
    const rel = cluster ? ms - cluster.timecodeMs : 0;
    if (!cluster || keyframe || rel >= MAX_CLUSTER_MS || rel > 0x7fff) {
      cluster = { timecodeMs: ms, startsWithKeyframe: keyframe, parts: [] };
      this.clusters.push(cluster);
    }
    const relative = ms - cluster.timecodeMs;
    // SimpleBlock payload: track number (EBML varint), int16 relative timecode, flags, frame.
    const head = new Uint8Array(4);
    head[0] = 0x80 | TRACK;
    head[1] = (relative >> 8) & 0xff;
    head[2] = relative & 0xff;
    head[3] = keyframe ? 0x80 : 0x00;
    cluster.parts.push(encodeId(ID.SimpleBlock), encodeSize(head.length + data.length), head, new Uint8Array(data));

    this.count++;
    this.lastUs = timestampUs;
    this.lastMs = timestampUs / 1000;
  }

  /** The finished file (may be called again after more frames are added). */
  finish(): Uint8Array {
    if (this.count === 0) throw new Error("WebmMuxer.finish: no frames were added");
    const { width, height, codec, frameRate, title } = this.opts;
    const frameMs = 1000 / frameRate;

    const header = small(ID.EBML, [
      uintEl(ID.EBMLVersion, 1),
      uintEl(ID.EBMLReadVersion, 1),
      uintEl(ID.EBMLMaxIDLength, 4),
      uintEl(ID.EBMLMaxSizeLength, 8),
      stringEl(ID.DocType, "webm"),
      uintEl(ID.DocTypeVersion, codec === "V_VP9" ? 4 : 2),
      uintEl(ID.DocTypeReadVersion, 2),
    ]);

    const info = small(ID.Info, [
      uintEl(ID.TimecodeScale, TIMECODE_SCALE_NS),
      floatEl(ID.Duration, this.lastMs + frameMs),
      stringEl(ID.MuxingApp, APP),
      stringEl(ID.WritingApp, APP),
      ...(title ? [stringEl(ID.Title, title)] : []),
    ]);

    const tracks = small(ID.Tracks, [
      small(ID.TrackEntry, [
        uintEl(ID.TrackNumber, TRACK),
        uintEl(ID.TrackUID, TRACK),
        uintEl(ID.TrackType, 1),
        uintEl(ID.FlagLacing, 0),
        uintEl(ID.DefaultDuration, Math.round(1e9 / frameRate)),
        stringEl(ID.CodecID, codec),
        small(ID.Video, [uintEl(ID.PixelWidth, width), uintEl(ID.PixelHeight, height)]),
      ]),
    ]);

    const clusters = this.clusters.map((c) => element(ID.Cluster, [uintEl(ID.Timecode, c.timecodeMs), ...c.parts]));

    // Positions are relative to the first byte of the Segment's data. The SeekHead's size does
    // not depend on the positions (8-byte SeekPosition), so lay it out once with zeros first.
    const seekHead = (infoAt: number, tracksAt: number, cuesAt: number): Uint8Array =>
      small(ID.SeekHead, [
        [ID.Info, infoAt],
        [ID.Tracks, tracksAt],
        [ID.Cues, cuesAt],
      ].map(([id, at]) => small(ID.Seek, [small(ID.SeekID, [encodeId(id)]), uintEl(ID.SeekPosition, at, 8)])));
    const infoAt = seekHead(0, 0, 0).length;
    const tracksAt = infoAt + info.length;
    const cuesAt = tracksAt + tracks.length;
    const clusterLengths = clusters.map(byteLength);
    // Cues go before the Clusters, so a player has them without reading the file's end. Their
    // length depends on the cluster positions it contains, which depend on their length: iterate
    // to the fixed point (lengths only grow, so this ends after a step or two).
    const buildCues = (cuesLength: number): Uint8Array => {
      let at = cuesAt + cuesLength;
      const points: Uint8Array[] = [];
      this.clusters.forEach((c, i) => {
        if (c.startsWithKeyframe) {
          points.push(small(ID.CuePoint, [
            uintEl(ID.CueTime, c.timecodeMs),
            small(ID.CueTrackPositions, [uintEl(ID.CueTrack, TRACK), uintEl(ID.CueClusterPosition, at)]),
          ]));
        }
        at += clusterLengths[i];
      });
      return small(ID.Cues, points);
    };
    let cues = buildCues(0);
    for (let previous = -1; cues.length !== previous;) {
      previous = cues.length;
      cues = buildCues(previous);
    }

    const body: Uint8Array[] = [seekHead(infoAt, tracksAt, cuesAt), info, tracks, cues];
    for (const c of clusters) for (const p of c) body.push(p);
    return concat([header, ...element(ID.Segment, body)]);
  }
}
