/**
 * The Video section's settings, declared like every other control: length, frame rate, timing
 * (frame-exact or real time), the file's format and the caption (of videos and pictures alike).
 * `record()` validates what scripts pass (settings.ts's recordSettings); these are the panel's
 * choices within that.
 */
import { booleanParam, choiceParam, numberParam } from "../math/params";
import { VIDEO_FORMATS } from "./formats";

/** Frame-exact: the clock stepped to each frame's time; live: what the machine draws, in real time. */
export const VIDEO_TIMINGS = ["exact", "live"] as const;
export const VIDEO_TIMING_LABELS: Readonly<Record<string, string>> = { exact: "Frame-exact (every frame, however slow)", live: "Real time (what the machine draws)" };

export const VIDEO_PARAMS = {
  seconds: numberParam("Video length", 1, 60, 1, 5, "s", "How long the video runs, in the sandbox's own time (a frame-exact video of 10 s has 10 s of motion however long it takes to make)"),
  fps: numberParam("Frames per second", 5, 60, 1, 30, "", "Frames in each second of video; a frame-exact video has exactly seconds × fps frames"),
  timing: choiceParam("Timing", VIDEO_TIMINGS, "exact", "Frame-exact: the clock is stepped to every frame's time, so the video is the same however slow the machine; real time: what the machine draws as it draws it"),
  format: choiceParam("File", VIDEO_FORMATS, "webm", "WebM plays in browsers and VLC; MP4 (H.264 where the browser can encode it) also in slides, phones and video editors. The codec is the container's first one this browser can encode"),
  caption: booleanParam("Caption", true, "Writes the methods, the wind (preset, timeline or speed and direction), the seed and the tree in the corner of a video or picture"),
} as const;

