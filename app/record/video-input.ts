/**
 * Reading a recorded video back with mediabunny, to check what was recorded (the end-to-end tests,
 * `sandboxDebug.decodeVideo`): the container and codec, the size, the duration, the frames in the
 * file, and every frame decoded by the browser's own decoder (WebCodecs VideoDecoder) and shrunk to
 * a 16 x 9 grey thumbnail: enough to tell two recordings apart, or the same.
 */
import { BlobSource, EncodedPacketSink, Input, MP4, VideoSampleSink, WEBM } from "mediabunny";

export interface DecodedVideo {
  /** "webm" or "mp4", as the file's own bytes say. */
  container: string;
  /** mediabunny's codec name ("vp9", "vp8", "av1", "avc", "hevc") and the full codec string. */
  codec: string;
  codecString: string;
  width: number;
  height: number;
  durationMs: number;
  /** Frames in the file, and frames the decoder gave back. */
  frames: number;
  decoded: number;
  /** Per decoded frame, 144 grey levels (16 x 9). */
  thumbs: number[][];
}

export async function decodeVideo(file: Blob): Promise<DecodedVideo> {
  const input = new Input({ source: new BlobSource(file), formats: [WEBM, MP4] });
  try {
    const format = await input.getFormat();
    const track = await input.getPrimaryVideoTrack();
    if (!track) throw new Error(`the ${format.name} file holds no video track`);
    if (!(await track.canDecode())) throw new Error(`this browser cannot decode the file's ${track.codec ?? "unknown"} video`);
    let frames = 0;
    const packets = new EncodedPacketSink(track).packets();
    for (let p = await packets.next(); !p.done; p = await packets.next()) frames++;
    const thumb = document.createElement("canvas");
    thumb.width = 16;
    thumb.height = 9;
    const g = thumb.getContext("2d", { willReadFrequently: true })!;
    const thumbs: number[][] = [];
    for await (const sample of new VideoSampleSink(track).samples()) {
      sample.draw(g, 0, 0, 16, 9);
      sample.close();
      const px = g.getImageData(0, 0, 16, 9).data, t: number[] = [];
      for (let i = 0; i < px.length; i += 4) t.push(Math.round((px[i] + px[i + 1] + px[i + 2]) / 3));
      thumbs.push(t);
    }
    return {
      container: format === MP4 ? "mp4" : format === WEBM ? "webm" : format.name,
      codec: track.codec ?? "unknown",
      codecString: (await track.getCodecParameterString()) ?? "",
      width: await track.getDisplayWidth(),
      height: await track.getDisplayHeight(),
      durationMs: Math.round((await track.computeDuration()) * 1e6) / 1e3,
      frames,
      decoded: thumbs.length,
      thumbs,
    };
  } finally {
    input.dispose();
  }
}
