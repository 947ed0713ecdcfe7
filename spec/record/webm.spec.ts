import { Rng } from "../../app/math/rng";
import { readWebm, WebmMuxer, type WebmOptions } from "../../app/record/webm";

const OPTS: WebmOptions = { width: 640, height: 360, codec: "V_VP8", frameRate: 30, title: "spectral-beam, gale, seed 1" };

/** Random payloads: frame i's bytes, its timestamp (µs) and whether it is a keyframe. */
function synthetic(count: number, fps: number, keyEvery: number, seed = 1, maxSize = 20000) {
  const rng = new Rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const data = new Uint8Array(1 + rng.int(maxSize));
    for (let j = 0; j < data.length; j++) data[j] = rng.int(256);
    return { data, timestampUs: (i * 1e6) / fps, keyframe: i % keyEvery === 0 };
  });
}

function mux(frames: ReturnType<typeof synthetic>, opts: WebmOptions = OPTS): Uint8Array {
  const m = new WebmMuxer(opts);
  for (const f of frames) m.addFrame(f.data, f.timestampUs, f.keyframe);
  expect(m.frames).toBe(frames.length);
  return m.finish();
}

/** Offset of the Segment's data: after the EBML header, the Segment ID and its size (read here by hand). */
function segmentDataStart(bytes: Uint8Array): number {
  const headerEnd = 5 + (bytes[4] & 0x7f); // 1-byte header size, as the muxer writes it
  expect(Array.from(bytes.subarray(headerEnd, headerEnd + 4))).toEqual([0x18, 0x53, 0x80, 0x67]);
  const sizeLen = Math.clz32(bytes[headerEnd + 4]) - 23;
  let size = bytes[headerEnd + 4] & (0xff >> sizeLen);
  for (let i = 1; i < sizeLen; i++) size = size * 256 + bytes[headerEnd + 4 + i];
  const start = headerEnd + 4 + sizeLen;
  expect(start + size).toBe(bytes.length); // Segment size written exactly
  return start;
}

/** Byte equality (jest's deep equality is slow on megabytes). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function indexOf(hay: Uint8Array, needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe("WebmMuxer round trip", () => {
  const input = synthetic(60, 30, 30);
  const bytes = mux(input);
  const file = readWebm(bytes);

  it("writes the EBML header for webm, byte for byte", () => {
    const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
    expect(Array.from(bytes.subarray(0, 36))).toEqual([
      0x1a, 0x45, 0xdf, 0xa3, 0x9f, // EBML, 31 bytes
      0x42, 0x86, 0x81, 0x01, // EBMLVersion 1
      0x42, 0xf7, 0x81, 0x01, // EBMLReadVersion 1
      0x42, 0xf2, 0x81, 0x04, // EBMLMaxIDLength 4
      0x42, 0xf3, 0x81, 0x08, // EBMLMaxSizeLength 8
      0x42, 0x82, 0x84, ...ascii("webm"), // DocType
      0x42, 0x87, 0x81, 0x02, // DocTypeVersion 2 (VP8)
      0x42, 0x85, 0x81, 0x02, // DocTypeReadVersion 2
    ]);
    expect(file.docType).toBe("webm");
  });

  it("gives back every frame with its time, keyframe flag, size and bytes", () => {
    expect(file.frames).toHaveLength(60);
    file.frames.forEach((f, i) => {
      // TimecodeScale is 1 ms: times are stored rounded to the millisecond.
      expect(Math.abs(f.timeMs - (i * 1000) / 30)).toBeLessThanOrEqual(0.5);
      expect(f.timeMs).toBe(Math.round((i * 1000) / 30));
      expect(f.keyframe).toBe(i % 30 === 0);
      expect(f.size).toBe(input[i].data.length);
      expect(sameBytes(bytes.subarray(f.offset, f.offset + f.size), input[i].data)).toBe(true);
    });
  });

  it("gives back codec, size, title and duration", () => {
    expect(file.codec).toBe("V_VP8");
    expect(file.width).toBe(640);
    expect(file.height).toBe(360);
    expect(file.title).toBe("spectral-beam, gale, seed 1");
    expect(file.durationMs).toBeCloseTo((60 / 30) * 1000, 9);
  });

  it("writes the muxing app, TimecodeScale and DefaultDuration", () => {
    expect(indexOf(bytes, [0x4d, 0x80, 0x91, ...Array.from("tree-wind-sandbox", (c) => c.charCodeAt(0))])).toBeGreaterThan(0);
    expect(indexOf(bytes, [0x57, 0x41, 0x91])).toBeGreaterThan(0); // WritingApp, 17 bytes
    expect(indexOf(bytes, [0x2a, 0xd7, 0xb1, 0x83, 0x0f, 0x42, 0x40])).toBeGreaterThan(0); // 1 000 000
    expect(indexOf(bytes, [0x23, 0xe3, 0x83, 0x84, 0x01, 0xfc, 0xa0, 0x55])).toBeGreaterThan(0); // 33 333 333 ns
  });

  it("starts a cluster at each keyframe and cues every cluster at its offset", () => {
    const segStart = segmentDataStart(bytes);
    expect(file.clusters.map((c) => c.timeMs)).toEqual([0, 1000]);
    expect(file.cues).toEqual(file.clusters.map((c) => ({ timeMs: c.timeMs, track: 1, clusterPosition: c.offset })));
    for (const c of file.cues) {
      expect(Array.from(bytes.subarray(segStart + c.clusterPosition, segStart + c.clusterPosition + 4))).toEqual([0x1f, 0x43, 0xb6, 0x75]);
    }
  });

  it("points the SeekHead at Info, Tracks and Cues, with the Cues before the clusters", () => {
    const segStart = segmentDataStart(bytes);
    const positions: number[] = [];
    expect(Array.from(bytes.subarray(segStart, segStart + 4))).toEqual([0x11, 0x4d, 0x9b, 0x74]);
    for (const id of [[0x15, 0x49, 0xa9, 0x66], [0x16, 0x54, 0xae, 0x6b], [0x1c, 0x53, 0xbb, 0x6b]]) {
      const at = indexOf(bytes, [0x53, 0xab, 0x84, ...id]); // SeekID
      expect(at).toBeGreaterThan(0);
      expect(Array.from(bytes.subarray(at + 7, at + 10))).toEqual([0x53, 0xac, 0x88]); // SeekPosition, 8 bytes
      let pos = 0;
      for (let i = 0; i < 8; i++) pos = pos * 256 + bytes[at + 10 + i];
      expect(Array.from(bytes.subarray(segStart + pos, segStart + pos + 4))).toEqual(id);
      positions.push(pos);
    }
    expect(positions[0]).toBeLessThan(positions[1]);
    expect(positions[2]).toBeLessThan(file.clusters[0].offset);
  });

  it("is deterministic: the same frames give the same bytes", () => {
    expect(sameBytes(mux(synthetic(60, 30, 30)), bytes)).toBe(true);
  });

  it("copies frame data, so the caller may reuse its buffer", () => {
    const buf = new Uint8Array([1, 2, 3, 4]);
    const m = new WebmMuxer(OPTS);
    m.addFrame(buf, 0, true);
    buf.fill(9);
    const out = m.finish();
    const f = readWebm(out).frames[0];
    expect(Array.from(out.subarray(f.offset, f.offset + f.size))).toEqual([1, 2, 3, 4]);
  });
});

describe("WebmMuxer layout", () => {
  it("writes V_VP9 with DocTypeVersion 4", () => {
    const bytes = mux(synthetic(10, 25, 5, 2), { ...OPTS, codec: "V_VP9", width: 1280, height: 720, frameRate: 25, title: undefined });
    const file = readWebm(bytes);
    expect(Array.from(bytes.subarray(28, 32))).toEqual([0x42, 0x87, 0x81, 0x04]);
    expect(file).toMatchObject({ codec: "V_VP9", width: 1280, height: 720, title: "", durationMs: 400 });
    expect(file.frames.map((f) => f.timeMs)).toEqual([0, 40, 80, 120, 160, 200, 240, 280, 320, 360]);
    expect(file.clusters).toHaveLength(2);
  });

  it("splits a long stream with a single keyframe into clusters of under 5 s", () => {
    const input = synthetic(12 * 30, 30, Infinity, 3, 500);
    const bytes = mux(input);
    const file = readWebm(bytes);
    expect(file.frames).toHaveLength(360);
    expect(file.frames.filter((f) => f.keyframe)).toHaveLength(1);
    expect(file.clusters.map((c) => c.timeMs)).toEqual([0, 5000, 10000]);
    // Every block's time relative to its cluster fits an int16 and the cluster spans < 5 s.
    let c = 0;
    for (const f of file.frames) {
      while (c + 1 < file.clusters.length && file.clusters[c + 1].timeMs <= f.timeMs) c++;
      const rel = f.timeMs - file.clusters[c].timeMs;
      expect(rel).toBeGreaterThanOrEqual(0);
      expect(rel).toBeLessThan(5000);
      expect(rel).toBeLessThanOrEqual(32767);
    }
    // Only the cluster that starts with a keyframe is cued: seeking into the others cannot decode.
    expect(file.cues).toEqual([{ timeMs: 0, track: 1, clusterPosition: file.clusters[0].offset }]);
    expect(file.durationMs).toBeCloseTo(12000, 9);
  });

  it("cues every cluster when keyframes come every 2 s", () => {
    const file = readWebm(mux(synthetic(12 * 30, 30, 60, 4, 500)));
    expect(file.clusters.map((c) => c.timeMs)).toEqual([0, 2000, 4000, 6000, 8000, 10000]);
    expect(file.cues.map((c) => c.clusterPosition)).toEqual(file.clusters.map((c) => c.offset));
  });

  it("cues every cluster of an all-keyframe stream at the right offsets", () => {
    const bytes = mux(synthetic(400, 60, 1, 6, 300), { ...OPTS, frameRate: 60 });
    const file = readWebm(bytes);
    const segStart = segmentDataStart(bytes);
    expect(file.clusters).toHaveLength(400);
    expect(file.cues.map((c) => [c.timeMs, c.clusterPosition])).toEqual(file.clusters.map((c) => [c.timeMs, c.offset]));
    for (const c of file.cues) expect(bytes[segStart + c.clusterPosition]).toBe(0x1f);
  });

  it("starts a new cluster across a gap that would overflow int16", () => {
    const m = new WebmMuxer(OPTS);
    m.addFrame(new Uint8Array(3), 0, true);
    m.addFrame(new Uint8Array(3), 40_000_000, false);
    const file = readWebm(m.finish());
    expect(file.frames.map((f) => f.timeMs)).toEqual([0, 40000]);
    expect(file.clusters.map((c) => c.timeMs)).toEqual([0, 40000]);
  });

  it("encodes sizes around the 1-byte limit (127 is reserved for unknown size)", () => {
    const m = new WebmMuxer(OPTS);
    [122, 123, 124].forEach((n, i) => m.addFrame(new Uint8Array(n).fill(i), i * 33_333, i === 0));
    const bytes = m.finish();
    expect(indexOf(bytes, [0xa3, 0xfe, 0x81])).toBeGreaterThan(0); // 126 bytes: 1-byte size
    expect(indexOf(bytes, [0xa3, 0x40, 0x7f, 0x81])).toBeGreaterThan(0); // 127 bytes: 2-byte size
    expect(indexOf(bytes, [0xa3, 0x40, 0x80, 0x81])).toBeGreaterThan(0); // 128 bytes
    expect(readWebm(bytes).frames.map((f) => f.size)).toEqual([122, 123, 124]);
  });

  it("handles 600 frames of 50 KB", () => {
    const m = new WebmMuxer({ ...OPTS, width: 1280, height: 720 });
    const frame = new Uint8Array(50_000);
    for (let i = 0; i < 600; i++) m.addFrame(frame, (i * 1e6) / 30, i % 60 === 0);
    const bytes = m.finish();
    expect(bytes.length).toBeGreaterThan(600 * 50_000);
    expect(bytes.length).toBeLessThan(600 * 50_000 + 600 * 16 + 10_000);
    const file = readWebm(bytes);
    expect(file.frames).toHaveLength(600);
    expect(file.durationMs).toBeCloseTo(20000, 9);
    expect(file.cues).toHaveLength(10);
  });
});

describe("WebmMuxer errors", () => {
  it("rejects bad options with RangeError", () => {
    const bad: Partial<WebmOptions>[] = [
      { width: 0 }, { width: 12.5 }, { height: -1 }, { height: NaN }, { frameRate: 0 }, { frameRate: -30 },
      { frameRate: NaN }, { frameRate: Infinity }, { codec: "V_AV1" as never },
    ];
    for (const b of bad) expect(() => new WebmMuxer({ ...OPTS, ...b })).toThrow(RangeError);
    expect(() => new WebmMuxer({ ...OPTS, width: 0 })).toThrow(/width must be a positive integer/);
    expect(() => new WebmMuxer({ ...OPTS, frameRate: 0 })).toThrow(/frameRate/);
  });

  it("requires the first frame to be a keyframe", () => {
    const m = new WebmMuxer(OPTS);
    expect(() => m.addFrame(new Uint8Array(1), 0, false)).toThrow(/first frame must be a keyframe/);
    expect(m.frames).toBe(0);
  });

  it("requires increasing timestamps", () => {
    const m = new WebmMuxer(OPTS);
    m.addFrame(new Uint8Array(1), 1000, true);
    expect(() => m.addFrame(new Uint8Array(1), 1000, false)).toThrow(/timestamps must increase/);
    expect(() => m.addFrame(new Uint8Array(1), 500, false)).toThrow(/timestamps must increase/);
    expect(() => m.addFrame(new Uint8Array(1), -1, true)).toThrow(RangeError);
    expect(() => m.addFrame(new Uint8Array(1), NaN, true)).toThrow(RangeError);
    expect(m.frames).toBe(1);
  });

  it("refuses to finish with no frames", () => {
    expect(() => new WebmMuxer(OPTS).finish()).toThrow(/no frames/);
  });
});

// --- A hand-built file with unknown sizes and BlockGroups, as other muxers write ---------------

const vint = (n: number) => (n < 127 ? [0x80 | n] : [0x40 | (n >> 8), n & 0xff]);
const el = (id: number[], body: number[]) => [...id, ...vint(body.length), ...body];
const str = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const UNKNOWN = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];

describe("readWebm", () => {
  it("reads unknown-size Segment and Clusters, BlockGroups, and files without Duration", () => {
    const bytes = Uint8Array.from([
      ...el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], str("webm"))),
      0x18, 0x53, 0x80, 0x67, ...UNKNOWN,
      ...el([0xec], [0, 0, 0]), // Void
      ...el([0x15, 0x49, 0xa9, 0x66], el([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40])),
      ...el([0x16, 0x54, 0xae, 0x6b], [
        ...el([0xae], [...el([0xd7], [2]), ...el([0x83], [2]), ...el([0x86], str("A_OPUS"))]), // audio first
        ...el([0xae], [...el([0xd7], [1]), ...el([0x83], [1]), ...el([0x86], str("V_VP8")),
          ...el([0x23, 0xe3, 0x83], [0x02, 0x62, 0x5a, 0x00]), // 40 ms
          ...el([0xe0], [...el([0xb0], [0x01, 0x40]), ...el([0xba], [0xf0])])]),
      ]),
      0x1f, 0x43, 0xb6, 0x75, ...UNKNOWN,
      ...el([0xe7], [0]),
      ...el([0xa3], [0x81, 0, 0, 0x80, 1, 2, 3]),
      ...el([0xa3], [0x82, 0, 5, 0x86, 9, 9]), // laced audio: skipped, not an error
      ...el([0xa3], [0x81, 0, 40, 0x00, 4, 5]),
      0x1f, 0x43, 0xb6, 0x75, ...UNKNOWN,
      ...el([0xe7], [0x01, 0x2c]), // 300
      ...el([0xa0], [...el([0xa1], [0x81, 0xff, 0xf6, 0x00, 7]), ...el([0xfb], [0xd8])]), // -10, referenced
      ...el([0xa0], [...el([0xa1], [0x81, 0, 20, 0x00, 7, 8, 9, 10])]), // no reference: keyframe
      ...el([0x1c, 0x53, 0xbb, 0x6b], el([0xbb], [...el([0xb3], [0]), ...el([0xb7], [...el([0xf7], [1]), ...el([0xf1], [0x33])])])),
    ]);
    const file = readWebm(bytes);
    expect(file).toMatchObject({ codec: "V_VP8", width: 320, height: 240, title: "", docType: "webm" });
    expect(file.frames.map(({ timeMs, keyframe, size }) => ({ timeMs, keyframe, size }))).toEqual([
      { timeMs: 0, keyframe: true, size: 3 },
      { timeMs: 40, keyframe: false, size: 2 },
      { timeMs: 290, keyframe: false, size: 1 },
      { timeMs: 320, keyframe: true, size: 4 },
    ]);
    expect(file.durationMs).toBe(360);
    expect(file.clusters.map((c) => c.timeMs)).toEqual([0, 300]);
    expect(file.cues).toEqual([{ timeMs: 0, track: 1, clusterPosition: 0x33 }]);
  });

  it("throws with a byte offset on truncated input", () => {
    const bytes = mux(synthetic(40, 30, 10, 5, 2000));
    const cuts = [0, 1, 4, 10, 36, 41, 60, 200, bytes.length >> 1, bytes.length - 20, bytes.length - 1];
    for (const cut of cuts) expect(() => readWebm(bytes.subarray(0, cut))).toThrow(/^readWebm: .* at byte \d+$/);
    expect(() => readWebm(bytes.subarray(0, 100))).toThrow(/runs past the end of the input .* at byte 36$/);
  });

  it("throws on input that is not WebM", () => {
    expect(() => readWebm(new TextEncoder().encode("RIFF....WEBPVP8 "))).toThrow(/at byte 0/);
    const matroskaLike = Uint8Array.from(el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], str("mp4x"))));
    expect(() => readWebm(matroskaLike)).toThrow(/DocType "mp4x"/);
    const badSize = mux(synthetic(2, 30, 1));
    const copy = badSize.slice();
    copy[4] = 0x00; // size byte with no marker bit
    expect(() => readWebm(copy)).toThrow(/invalid size byte 0x0 .* at byte 4/);
  });
});

// An independent reader of the container: the end-to-end test "video: frame-exact 2 s ..." plays
// the app's file in Chromium's <video> element (its own WebM demuxer, not readWebm) and checks
// the size and the 2 s duration it reads, on every machine (no ffprobe needed, nothing skipped).
