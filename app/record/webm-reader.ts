/**
 * Reads WebM back (`readWebm`): the files webm-writer.ts makes, and general WebM whose elements
 * have known sizes; an unknown-size Segment or Cluster, as MediaRecorder writes, is tolerated.
 * For tests and checks (layout in webm.ts).
 */
import { ID, MAX_SIZE, TIMECODE_SCALE_NS } from "./ebml";

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
