/**
 * Decoding a recorded WebM video back in the browser, to check what was recorded: the
 * file is read with readWebm and every frame decoded by the browser's own VP8/VP9 decoder
 * (WebCodecs VideoDecoder); each decoded frame is shrunk to a 16 x 9 grey thumbnail, enough to
 * tell two recordings apart or the same.
 */
import { readWebm } from "./webm";

export interface DecodedVideo {
  codec: string;
  width: number;
  height: number;
  durationMs: number;
  /** Frames in the file, and frames the decoder gave back. */
  frames: number;
  decoded: number;
  /** Per decoded frame, 144 grey levels (16 x 9). */
  thumbs: number[][];
}

export async function decodeWebm(bytes: Uint8Array): Promise<DecodedVideo> {
  const file = readWebm(bytes);
  const codec = file.codec === "V_VP9" ? "vp09.00.10.08" : "vp8";
  const thumb = document.createElement("canvas");
  thumb.width = 16;
  thumb.height = 9;
  const g = thumb.getContext("2d", { willReadFrequently: true })!;
  const thumbs: number[][] = [];
  let failure: Error | null = null;
  const decoder = new VideoDecoder({
    output: (frame) => {
      g.drawImage(frame, 0, 0, 16, 9);
      frame.close();
      const px = g.getImageData(0, 0, 16, 9).data, t: number[] = [];
      for (let i = 0; i < px.length; i += 4) t.push(Math.round((px[i] + px[i + 1] + px[i + 2]) / 3));
      thumbs.push(t);
    },
    error: (e) => {
      failure = e instanceof Error ? e : new Error(String(e));
    },
  });
  decoder.configure({ codec, codedWidth: file.width, codedHeight: file.height });
  for (const f of file.frames) {
    const data = bytes.subarray(f.offset, f.offset + f.size);
    decoder.decode(new EncodedVideoChunk({ type: f.keyframe ? "key" : "delta", timestamp: Math.round(f.timeMs * 1000), data }));
  }
  await decoder.flush();
  decoder.close();
  if (failure) throw failure;
  return { codec: file.codec, width: file.width, height: file.height, durationMs: file.durationMs, frames: file.frames.length, decoded: thumbs.length, thumbs };
}
