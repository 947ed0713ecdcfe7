/**
 * Videos and pictures of the view (the panel is left out of them): length, frames per second,
 * frame-exact or real time, the file (WebM or MP4), caption, the Record button (a download named
 * after the format) and Save picture (a PNG of the view now). Which files this browser can encode
 * is asked once: a format it cannot is greyed, its label says so, and choosing it says what to
 * record instead.
 */
import type { Button } from "@babylonjs/gui/2D/controls/button";
import type { FormatSupport, SandboxPanelApi } from "../../sandbox/api";
import { FORMAT_LABELS, fileExtension, type VideoFormat } from "../../record/formats";
import { VIDEO_PARAMS, VIDEO_TIMING_LABELS } from "../../record/video-settings";
import { MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";

export function videoSection(sb: SandboxPanelApi, scope: Scope): PanelSection {
  const video = {
    seconds: VIDEO_PARAMS.seconds.default, fps: VIDEO_PARAMS.fps.default, timing: VIDEO_PARAMS.timing.default as string,
    format: VIDEO_PARAMS.format.default as VideoFormat, caption: VIDEO_PARAMS.caption.default as boolean,
  };
  /** What the browser said it can encode (null until it has answered). */
  let formats: FormatSupport[] | null = null;
  const set = (patch: Partial<typeof video>) => {
    Object.assign(video, patch);
    scope.refresh();
  };
  const chooseFormat = (v: string) => {
    const problem = formats?.find((f) => f.format === v)?.problem;
    if (problem) {
      sb.reportError(problem);
      throw new Error(problem);
    }
    set({ format: v as VideoFormat });
  };
  scope.section("Video");
  scope.control("video.seconds", VIDEO_PARAMS.seconds, () => video.seconds, (v: number) => set({ seconds: v }));
  scope.control("video.fps", VIDEO_PARAMS.fps, () => video.fps, (v: number) => set({ fps: v }));
  scope.control("video.mode", VIDEO_PARAMS.timing, () => video.timing, (v: string) => set({ timing: v }), { labels: (v) => VIDEO_TIMING_LABELS[v] ?? v });
  scope.control("video.format", VIDEO_PARAMS.format, () => video.format, chooseFormat, { row: true, labels: (v) => FORMAT_LABELS[v as VideoFormat] ?? v });
  const note = scope.note("", 11, MUTED);
  note.isVisible = false;
  scope.control("video.caption", VIDEO_PARAMS.caption, () => video.caption, (v: boolean) => set({ caption: v }));
  const record = scope.button("video.record", "", () =>
    sb.record({ seconds: video.seconds, fps: video.fps, frameExact: video.timing === "exact", format: video.format, caption: video.caption, download: true }));
  scope.bind(record, () => (record.textBlock!.text = `Record video (${fileExtension(video.format)} download)`));
  // The labels that change, found by name (panelText) like the panel's other texts.
  scope.named.set("video.record.label", record.textBlock!);
  scope.button("video.picture", "Save picture (.png download)", () => sb.screenshot({ caption: video.caption, download: true }));

  // Ask once which containers this browser can encode (once the page is up: the recorder is made
  // after the panel): label each with its codec, grey the ones it cannot.
  void sb.ready.then(() => sb.videoFormats()).then((list) => {
    formats = list;
    for (const f of list) {
      const b = scope.named.get(`video.format:${f.format}`) as Button | undefined;
      if (!b) continue;
      if (b.textBlock) {
        b.textBlock.text = f.codec ? f.label : `${FORMAT_LABELS[f.format]}: not here`;
        scope.named.set(`video.format:${f.format}.label`, b.textBlock);
      }
      b.alpha = f.codec ? 1 : 0.45;
    }
    const problems = list.filter((f) => f.problem).map((f) => f.problem);
    note.text = problems.join("\n");
    note.isVisible = problems.length > 0;
    // The default cannot be encoded here: offer the one that can.
    const usable = list.find((f) => f.codec);
    if (usable && !list.find((f) => f.format === video.format)?.codec) set({ format: usable.format });
  }, () => undefined);
  return { on: [], refresh: () => scope.refresh() };
}
