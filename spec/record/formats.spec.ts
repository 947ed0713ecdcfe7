/**
 * Which codec a recording uses, from what the browser says it can encode: each container takes its
 * first candidate that works, and a container with none is refused with what works instead.
 */
import { CODEC_CANDIDATES, chooseCodec, fileExtension, firstSupported, formatSupport, type CodecSupport } from "../../app/record/formats";

const ALL: CodecSupport = { avc: true, hevc: true, vp8: true, vp9: true, av1: true };

describe("codec choice", () => {
  it("tries WebM's VP8, VP9, AV1 and MP4's H.264, H.265, VP9, AV1 in that order", () => {
    expect(CODEC_CANDIDATES.webm).toEqual(["vp8", "vp9", "av1"]);
    expect(CODEC_CANDIDATES.mp4).toEqual(["avc", "hevc", "vp9", "av1"]);
  });

  it("takes the first codec of the container the browser can encode", () => {
    expect(chooseCodec("webm", ALL)).toBe("vp8");
    expect(chooseCodec("mp4", ALL)).toBe("avc");
    expect(chooseCodec("webm", { vp8: false, vp9: true, av1: true })).toBe("vp9");
    expect(chooseCodec("webm", { av1: true })).toBe("av1");
    // Debian's Chromium without an H.264 encoder: MP4 carries VP9.
    expect(chooseCodec("mp4", { avc: false, hevc: false, vp9: true, vp8: true })).toBe("vp9");
    expect(chooseCodec("mp4", { av1: true, vp8: true })).toBe("av1");
    // VP8 is not an MP4 codec here.
    expect(firstSupported("mp4", { vp8: true })).toBeNull();
  });

  it("refuses a container with no codec it can encode, naming what it needs and what to record instead", () => {
    expect(() => chooseCodec("mp4", { vp8: true })).toThrow(new Error("MP4 needs H.264, H.265, VP9 or AV1 encoding, which this browser cannot do: record WebM instead"));
    expect(() => chooseCodec("webm", { avc: true })).toThrow(new Error("WebM needs VP8, VP9 or AV1 encoding, which this browser cannot do: record MP4 instead"));
    expect(() => chooseCodec("webm", {})).toThrow(/^WebM needs VP8, VP9 or AV1 encoding, which this browser cannot do; it can encode no video codec at all/);
  });

  it("describes every container for the panel: its codec and label, or the problem", () => {
    expect(formatSupport({ vp9: true, avc: true })).toEqual([
      { format: "webm", codec: "vp9", label: "WebM (VP9)", problem: null },
      { format: "mp4", codec: "avc", label: "MP4 (H.264)", problem: null },
    ]);
    const [webm, mp4] = formatSupport({ vp8: true });
    expect(webm).toEqual({ format: "webm", codec: "vp8", label: "WebM (VP8)", problem: null });
    expect(mp4.codec).toBeNull();
    expect(mp4.label).toBe("MP4: cannot be encoded here");
    expect(mp4.problem).toMatch(/record WebM instead$/);
  });

  it("names the file after the container", () => {
    expect(fileExtension("webm")).toBe(".webm");
    expect(fileExtension("mp4")).toBe(".mp4");
  });
});
