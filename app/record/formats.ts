/**
 * The video files the sandbox writes, and which encoder each uses: plain data and the choice of a
 * codec from what the browser says it can encode (no DOM, no mediabunny; the probe itself is in
 * video-output.ts).
 *
 * A container takes the first codec of its list the browser can encode: WebM VP8 (the cheapest to
 * encode in software: a frame-exact recording cost 1.14 times the frame drawn alone with VP8 and
 * 1.44 with VP9 here, record.exact.overhead), else VP9, else AV1; MP4 H.264 (plays almost everywhere: slides, phones, editors), else H.265, else VP9 or AV1
 * (mediabunny writes both into MP4; modern browsers play them, not every editor does).
 */

export const VIDEO_FORMATS = ["webm", "mp4"] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

/** Codecs by mediabunny's names (its `VideoCodec`). */
export type VideoCodecName = "avc" | "hevc" | "vp8" | "vp9" | "av1";

/** Per container, the codecs to try, best first. */
export const CODEC_CANDIDATES: Readonly<Record<VideoFormat, readonly VideoCodecName[]>> = {
  webm: ["vp8", "vp9", "av1"],
  mp4: ["avc", "hevc", "vp9", "av1"],
};

export const FORMAT_LABELS: Readonly<Record<VideoFormat, string>> = { webm: "WebM", mp4: "MP4" };
export const CODEC_LABELS: Readonly<Record<VideoCodecName, string>> = { avc: "H.264", hevc: "H.265", vp8: "VP8", vp9: "VP9", av1: "AV1" };
export const FORMAT_MIME: Readonly<Record<VideoFormat, string>> = { webm: "video/webm", mp4: "video/mp4" };

/** Whether the browser can encode each codec (at the size and rate asked); a codec not named: no. */
export type CodecSupport = Partial<Record<VideoCodecName, boolean>>;

/** What one container can be written with here: its codec, or why not. */
export interface FormatSupport {
  format: VideoFormat;
  /** The codec it would use, or null when none of its codecs can be encoded here. */
  codec: VideoCodecName | null;
  /** "MP4 (H.264)", or "MP4: cannot be encoded here". */
  label: string;
  /** Why it cannot be recorded and what works instead; null when it can. */
  problem: string | null;
}

/** "H.264, VP9 or AV1". */
function either(names: readonly string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** The first codec of the container's list that `support` says yes to, or null. */
export function firstSupported(format: VideoFormat, support: CodecSupport): VideoCodecName | null {
  return CODEC_CANDIDATES[format].find((c) => support[c] === true) ?? null;
}

/** Every container with its codec here, or what stands in the way and what to record instead. */
export function formatSupport(support: CodecSupport): FormatSupport[] {
  const codecs = VIDEO_FORMATS.map((f) => firstSupported(f, support));
  return VIDEO_FORMATS.map((format, k) => {
    const codec = codecs[k];
    if (codec) return { format, codec, label: `${FORMAT_LABELS[format]} (${CODEC_LABELS[codec]})`, problem: null };
    const instead = VIDEO_FORMATS.filter((_, j) => codecs[j] !== null).map((f) => FORMAT_LABELS[f]);
    const needs = either(CODEC_CANDIDATES[format].map((c) => CODEC_LABELS[c]));
    return {
      format,
      codec: null,
      label: `${FORMAT_LABELS[format]}: cannot be encoded here`,
      problem: `${FORMAT_LABELS[format]} needs ${needs} encoding, which this browser cannot do` +
        (instead.length ? `: record ${either(instead)} instead` : "; it can encode no video codec at all (WebCodecs' VideoEncoder), so no video can be made here: save pictures instead"),
    };
  });
}

/** The codec a recording in `format` uses, or an Error saying what the browser cannot do and what works instead. */
export function chooseCodec(format: VideoFormat, support: CodecSupport): VideoCodecName {
  const s = formatSupport(support).find((x) => x.format === format)!;
  if (!s.codec) throw new Error(s.problem!);
  return s.codec;
}

/** The file name's extension. */
export function fileExtension(format: VideoFormat): string {
  return format === "mp4" ? ".mp4" : ".webm";
}
