/**
 * WebM muxer and reader for frame-exact recording (issue 8, item 4(b)).
 *
 * WebCodecs' `VideoEncoder` hands out `EncodedVideoChunk`s (VP8 or VP9); `WebmMuxer` packs their
 * bytes into a .webm file (a subset of Matroska) that Chromium's <video> element and ffmpeg play.
 * `readWebm` parses such files back (and general WebM whose elements have known sizes; an
 * unknown-size Segment or Cluster, as MediaRecorder writes, is tolerated) for tests and checks.
 * Plain bytes in and out: no Babylon, no DOM.
 *
 * Layout written (element IDs in hex, as they appear in the file):
 *
 *     EBML 1A45DFA3        EBMLVersion 4286, EBMLReadVersion 42F7, EBMLMaxIDLength 42F2,
 *                          EBMLMaxSizeLength 42F3, DocType 4282 "webm",
 *                          DocTypeVersion 4287 (2 for VP8, 4 for VP9), DocTypeReadVersion 4285 (2)
 *     Segment 18538067
 *       SeekHead 114D9B74  Seek 4DBB { SeekID 53AB, SeekPosition 53AC } for Info, Tracks and Cues
 *       Info 1549A966      TimecodeScale 2AD7B1 (1 000 000 ns), Duration 4489 (float64, ms),
 *                          MuxingApp 4D80, WritingApp 5741, Title 7BA9
 *       Tracks 1654AE6B    TrackEntry AE { TrackNumber D7, TrackUID 73C5, TrackType 83,
 *                          FlagLacing 9C, DefaultDuration 23E383, CodecID 86,
 *                          Video E0 { PixelWidth B0, PixelHeight BA } }
 *       Cues 1C53BB6B      CuePoint BB { CueTime B3, CueTrackPositions B7 { CueTrack F7,
 *                          CueClusterPosition F1 } }, before the clusters (as the WebM muxer
 *                          guidelines recommend), so seeking needs no read of the file's end
 *       Cluster 1F43B675   Timecode E7, SimpleBlock A3 (reader also takes BlockGroup A0 with
 *                          Block A1 and ReferenceBlock FB)
 *
 * Every element is written with its exact size (shortest EBML length encoding; the fixed-width
 * 8-byte SeekPosition keeps the SeekHead's size independent of where things land). Nothing is
 * streamed: `addFrame` only collects chunks and `finish` lays the file out bottom-up and
 * concatenates once. Known sizes matter because a player can only show a duration and seek
 * when the Segment's end, the Duration and the Cues are known; MediaRecorder's unknown-size
 * output is why its files show no duration in Chromium.
 *
 * Time: TimecodeScale is 1 ms, so frame times are stored rounded to the nearest millisecond
 * (relative to their cluster, as int16). A new cluster starts at every keyframe, when a cluster
 * would span 5 s or more, and when the relative timecode would not fit an int16. Cues hold one
 * CuePoint per cluster that begins with a keyframe (one per cluster when the encoder emits a
 * keyframe at least every 5 s); a cluster that begins with a delta frame gets none, since seeking
 * there could not decode (the Matroska spec recommends cueing keyframes only). Recorders should
 * ask the encoder for a keyframe every second or two so that seeking is fine-grained.
 */

export type WebmCodec = "V_VP8" | "V_VP9";

export interface WebmOptions {
  width: number;
  height: number;
  codec: WebmCodec;
  frameRate: number;
  /** written as the segment title, e.g. "spectral-beam, gale, seed 1" */
  title?: string;
}

/** Element IDs (with their length-marker bits, as written). */
const ID = {
  EBML: 0x1a45dfa3,
  EBMLVersion: 0x4286,
  EBMLReadVersion: 0x42f7,
  EBMLMaxIDLength: 0x42f2,
  EBMLMaxSizeLength: 0x42f3,
  DocType: 0x4282,
  DocTypeVersion: 0x4287,
  DocTypeReadVersion: 0x4285,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  SeekID: 0x53ab,
  SeekPosition: 0x53ac,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  MuxingApp: 0x4d80,
  WritingApp: 0x5741,
  Title: 0x7ba9,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackUID: 0x73c5,
  TrackType: 0x83,
  FlagLacing: 0x9c,
  DefaultDuration: 0x23e383,
  CodecID: 0x86,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  ReferenceBlock: 0xfb,
  Cues: 0x1c53bb6b,
  CuePoint: 0xbb,
  CueTime: 0xb3,
  CueTrackPositions: 0xb7,
  CueTrack: 0xf7,
  CueClusterPosition: 0xf1,
  Tags: 0x1254c367,
  Chapters: 0x1043a770,
  Attachments: 0x1941a469,
} as const;

const APP = "tree-wind-sandbox";
const TIMECODE_SCALE_NS = 1_000_000;
const MAX_CLUSTER_MS = 5000;
const TRACK = 1;
/** Largest EBML data size this module writes or reads (keeps arithmetic exact in doubles). */
const MAX_SIZE = Number.MAX_SAFE_INTEGER;

// ---------------------------------------------------------------------------------------------
// Writing

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

// ---------------------------------------------------------------------------------------------
// Reading

export interface WebmFrame {
  /** Absolute time in ms (cluster timecode + block offset, times the timecode scale). */
  timeMs: number;
  keyframe: boolean;
  /** Bytes of the frame (the block's payload after its header). */
  size: number;
  /** Offset of the frame's first byte in the file (`bytes.subarray(offset, offset + size)`). */
  offset: number;
}

export interface WebmInfo {
  codec: string;
  width: number;
  height: number;
  /** Segment title; "" when absent. */
  title: string;
  /** Info's Duration in ms; when absent, the last frame's time plus the track's DefaultDuration. */
  durationMs: number;
  /** Frames of the (first video) track, in file order. */
  frames: WebmFrame[];
  /** The EBML header's DocType ("webm" or "matroska"). */
  docType: string;
  /** Every cluster: byte offset relative to the Segment's data start, and its time in ms. */
  clusters: { offset: number; timeMs: number }[];
  /** Every cue point: time in ms, track, and cluster offset relative to the Segment's data start. */
  cues: { timeMs: number; track: number; clusterPosition: number }[];
}

interface Header {
  id: number;
  /** Offset of the element's first byte (its ID). */
  start: number;
  /** Offset of its data. */
  data: number;
  /** Data size, or null for "unknown". */
  size: number | null;
}

const hex = (id: number): string => "0x" + id.toString(16).toUpperCase();
function fail(offset: number, what: string): never {
  throw new Error(`readWebm: ${what} at byte ${offset}`);
}

/** Reads an element header at `pos`; `end` is where the enclosing data ends. */
function readHeader(bytes: Uint8Array, pos: number, end: number): Header {
  const first = bytes[pos];
  if (pos >= end || first === undefined) return fail(pos, "element header past the end of its parent");
  const idLen = Math.clz32(first) - 23;
  if (idLen < 1 || idLen > 4) return fail(pos, `invalid element ID byte ${hex(first)}`);
  if (pos + idLen > end) return fail(pos, "truncated element ID");
  let id = 0;
  for (let i = 0; i < idLen; i++) id = id * 256 + bytes[pos + i];
  const sp = pos + idLen;
  if (sp >= end) return fail(sp, `truncated size of element ${hex(id)}`);
  const s0 = bytes[sp];
  const sizeLen = Math.clz32(s0) - 23;
  if (sizeLen < 1 || sizeLen > 8) return fail(sp, `invalid size byte ${hex(s0)} of element ${hex(id)}`);
  if (sp + sizeLen > end) return fail(sp, `truncated size of element ${hex(id)}`);
  const mask = 0xff >> sizeLen;
  let size = s0 & mask;
  let allOnes = size === mask;
  for (let i = 1; i < sizeLen; i++) {
    const b = bytes[sp + i];
    allOnes = allOnes && b === 0xff;
    size = size * 256 + b;
  }
  if (allOnes) return { id, start: pos, data: sp + sizeLen, size: null };
  if (size > MAX_SIZE) return fail(sp, `size of element ${hex(id)} too large`);
  return { id, start: pos, data: sp + sizeLen, size };
}

/** The data end of a known-size element, checked against its parent's end. */
function dataEnd(h: Header, parentEnd: number, fileLength: number): number {
  if (h.size === null) return fail(h.start, `unknown size not allowed for element ${hex(h.id)}`);
  const end = h.data + h.size;
  if (end > parentEnd) {
    return fail(h.start, end > fileLength
      ? `element ${hex(h.id)} of ${h.size} bytes runs past the end of the input (${fileLength} bytes; truncated?)`
      : `element ${hex(h.id)} of ${h.size} bytes runs past the end of its parent at byte ${parentEnd}`);
  }
  return end;
}

/** Calls `visit` for each child of the data range [start, end). */
function eachChild(bytes: Uint8Array, start: number, end: number, visit: (h: Header, end: number) => void): void {
  for (let pos = start; pos < end;) {
    const h = readHeader(bytes, pos, end);
    const e = dataEnd(h, end, bytes.length);
    visit(h, e);
    pos = e;
  }
}

function readUint(bytes: Uint8Array, h: Header, end: number): number {
  const n = end - h.data;
  if (n > 8) return fail(h.start, `unsigned integer element ${hex(h.id)} of ${n} bytes`);
  let v = 0;
  for (let i = h.data; i < end; i++) v = v * 256 + bytes[i];
  return v;
}

function readFloat(bytes: Uint8Array, h: Header, end: number): number {
  const n = end - h.data;
  const view = new DataView(bytes.buffer, bytes.byteOffset + h.data, n);
  if (n === 0) return 0;
  if (n === 4) return view.getFloat32(0);
  if (n === 8) return view.getFloat64(0);
  return fail(h.start, `float element ${hex(h.id)} of ${n} bytes`);
}

const decoder = new TextDecoder("utf-8");
function readString(bytes: Uint8Array, h: Header, end: number): string {
  let e = end;
  while (e > h.data && bytes[e - 1] === 0) e--;
  return decoder.decode(bytes.subarray(h.data, e));
}

/** IDs that end an unknown-size Cluster (its siblings at the Segment level). */
const SEGMENT_CHILDREN = new Set<number>([ID.Cluster, ID.Cues, ID.Info, ID.Tracks, ID.SeekHead, ID.Tags, ID.Chapters, ID.Attachments]);

interface RawBlock { track: number; timeTc: number; keyframe: boolean; size: number; lacing: number; start: number; data: number }
interface RawTrack { number: number; type: number; codec: string; width: number; height: number; defaultDurationNs: number }

/**
 * Parses a WebM file: what `WebmMuxer` writes, and general WebM with known-size elements (an
 * unknown-size Segment or Cluster is tolerated). Returns the first video track's codec and size,
 * the title, the duration and every frame of that track. Throws an Error naming the byte offset
 * on malformed or truncated input, and on laced blocks in that track.
 */
export function readWebm(bytes: Uint8Array): WebmInfo {
  const n = bytes.length;
  let pos = 0;
  const ebml = readHeader(bytes, pos, n);
  if (ebml.id !== ID.EBML) fail(0, `not an EBML file (first element ${hex(ebml.id)})`);
  const ebmlEnd = dataEnd(ebml, n, n);
  let docType = "";
  eachChild(bytes, ebml.data, ebmlEnd, (h, e) => {
    if (h.id === ID.DocType) docType = readString(bytes, h, e);
  });
  if (docType !== "webm" && docType !== "matroska") fail(ebml.start, `DocType "${docType}" is not webm`);

  // Find the Segment (skipping Void and the like).
  pos = ebmlEnd;
  let seg: Header | undefined;
  while (pos < n) {
    const h = readHeader(bytes, pos, n);
    if (h.id === ID.Segment) {
      seg = h;
      break;
    }
    pos = dataEnd(h, n, n);
  }
  if (!seg) return fail(pos, "no Segment");
  const segStart = seg.data;
  const segEnd = seg.size === null ? n : dataEnd(seg, n, n);

  let timecodeScale = TIMECODE_SCALE_NS;
  let duration: number | undefined;
  let title = "";
  const tracks: RawTrack[] = [];
  const blocks: RawBlock[] = [];
  const clusters: { offset: number; timeTc: number }[] = [];
  const cues: { timeTc: number; track: number; clusterPosition: number }[] = [];

  const readBlock = (h: Header, e: number, clusterTc: number | undefined, keyframe: boolean | undefined): void => {
    if (clusterTc === undefined) fail(h.start, "block before its cluster's Timecode");
    let p = h.data;
    if (p >= e) fail(h.start, "empty block");
    const t0 = bytes[p];
    const tLen = Math.clz32(t0) - 23;
    if (tLen < 1 || tLen > 8) fail(p, "invalid block track number");
    let track = t0 & (0xff >> tLen);
    for (let i = 1; i < tLen; i++) track = track * 256 + bytes[p + i];
    p += tLen;
    if (p + 3 > e) fail(h.start, "block header runs past the block");
    const rel = (bytes[p] << 24) >> 16 | bytes[p + 1];
    const flags = bytes[p + 2];
    p += 3;
    blocks.push({
      track,
      timeTc: clusterTc + rel,
      keyframe: keyframe ?? (flags & 0x80) !== 0,
      size: e - p,
      lacing: (flags >> 1) & 3,
      start: h.start,
      data: p,
    });
  };

  const readCluster = (h: Header): number => {
    const known = h.size !== null;
    const end = known ? dataEnd(h, segEnd, n) : segEnd;
    let tc: number | undefined;
    let p = h.data;
    while (p < end) {
      const c = readHeader(bytes, p, end);
      if (!known && SEGMENT_CHILDREN.has(c.id)) break;
      const ce = dataEnd(c, end, n);
      if (c.id === ID.Timecode) tc = readUint(bytes, c, ce);
      else if (c.id === ID.SimpleBlock) readBlock(c, ce, tc, undefined);
      else if (c.id === ID.BlockGroup) {
        let block: [Header, number] | undefined;
        let referenced = false;
        eachChild(bytes, c.data, ce, (g, ge) => {
          if (g.id === ID.Block) block = [g, ge];
          else if (g.id === ID.ReferenceBlock) referenced = true;
        });
        if (!block) fail(c.start, "BlockGroup without a Block");
        else readBlock(block[0], block[1], tc, !referenced);
      }
      p = ce;
    }
    if (tc === undefined) fail(h.start, "Cluster without a Timecode");
    clusters.push({ offset: h.start - segStart, timeTc: tc });
    return p;
  };

  pos = segStart;
  while (pos < segEnd) {
    const h = readHeader(bytes, pos, segEnd);
    if (h.id === ID.Cluster) {
      pos = readCluster(h);
      continue;
    }
    const e = dataEnd(h, segEnd, n);
    if (h.id === ID.Info) {
      eachChild(bytes, h.data, e, (c, ce) => {
        if (c.id === ID.TimecodeScale) timecodeScale = readUint(bytes, c, ce);
        else if (c.id === ID.Duration) duration = readFloat(bytes, c, ce);
        else if (c.id === ID.Title) title = readString(bytes, c, ce);
      });
      if (!(timecodeScale > 0)) fail(h.start, "TimecodeScale of 0");
    } else if (h.id === ID.Tracks) {
      eachChild(bytes, h.data, e, (t, te) => {
        if (t.id !== ID.TrackEntry) return;
        const track: RawTrack = { number: 0, type: 0, codec: "", width: 0, height: 0, defaultDurationNs: 0 };
        eachChild(bytes, t.data, te, (c, ce) => {
          if (c.id === ID.TrackNumber) track.number = readUint(bytes, c, ce);
          else if (c.id === ID.TrackType) track.type = readUint(bytes, c, ce);
          else if (c.id === ID.CodecID) track.codec = readString(bytes, c, ce);
          else if (c.id === ID.DefaultDuration) track.defaultDurationNs = readUint(bytes, c, ce);
          else if (c.id === ID.Video) {
            eachChild(bytes, c.data, ce, (v, ve) => {
              if (v.id === ID.PixelWidth) track.width = readUint(bytes, v, ve);
              else if (v.id === ID.PixelHeight) track.height = readUint(bytes, v, ve);
            });
          }
        });
        tracks.push(track);
      });
    } else if (h.id === ID.Cues) {
      eachChild(bytes, h.data, e, (cp, cpe) => {
        if (cp.id !== ID.CuePoint) return;
        let timeTc = 0;
        eachChild(bytes, cp.data, cpe, (c, ce) => {
          if (c.id === ID.CueTime) timeTc = readUint(bytes, c, ce);
          else if (c.id === ID.CueTrackPositions) {
            let track = 0, clusterPosition = 0;
            eachChild(bytes, c.data, ce, (q, qe) => {
              if (q.id === ID.CueTrack) track = readUint(bytes, q, qe);
              else if (q.id === ID.CueClusterPosition) clusterPosition = readUint(bytes, q, qe);
            });
            cues.push({ timeTc, track, clusterPosition });
          }
        });
      });
    }
    pos = e;
  }

  const track = tracks.find((t) => t.type === 1) ?? tracks[0];
  if (!track) return fail(segStart, "no TrackEntry in the Segment");
  const toMs = (tc: number): number => (tc * timecodeScale) / 1e6;
  const frames: WebmFrame[] = [];
  for (const b of blocks) {
    if (b.track !== track.number) continue;
    if (b.lacing !== 0) fail(b.start, "laced block (not supported for the video track)");
    frames.push({ timeMs: toMs(b.timeTc), keyframe: b.keyframe, size: b.size, offset: b.data });
  }
  const last = frames[frames.length - 1];
  const durationMs = duration !== undefined
    ? toMs(duration)
    : last ? last.timeMs + track.defaultDurationNs / 1e6 : 0;
  return {
    codec: track.codec,
    width: track.width,
    height: track.height,
    title,
    durationMs,
    frames,
    docType,
    clusters: clusters.map((c) => ({ offset: c.offset, timeMs: toMs(c.timeTc) })),
    cues: cues.map((c) => ({ timeMs: toMs(c.timeTc), track: c.track, clusterPosition: c.clusterPosition })),
  };
}
