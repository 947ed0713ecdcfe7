/**
 * WebM muxer and reader for frame-exact recording (recorder.ts: the paused simulation is stepped
 * to each video frame's time, so the file has exactly fps × seconds frames whatever the machine
 * managed).
 *
 * WebCodecs' `VideoEncoder` hands out `EncodedVideoChunk`s (VP8 or VP9); `WebmMuxer` packs their
 * bytes into a .webm file (a subset of Matroska) that Chromium's <video> element and ffmpeg play.
 * `readWebm` parses such files back (and general WebM whose elements have known sizes; an
 * unknown-size Segment or Cluster, as MediaRecorder writes, is tolerated) for tests and checks.
 * Plain bytes in and out: no Babylon, no DOM. The writer is webm-writer.ts, the reader
 * webm-reader.ts, the element IDs ebml.ts; this module exports both.
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

export { WebmMuxer, type WebmCodec, type WebmOptions } from "./webm-writer";
export { readWebm, type WebmFrame, type WebmInfo } from "./webm-reader";
