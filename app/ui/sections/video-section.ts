/**
 * A video of the view (the panel is left out of it): length, frames per second, frame-exact or
 * real time, caption, and the Record button (a .webm download).
 */
import type { SandboxPanelApi } from "../../sandbox/api";
import { VIDEO_PARAMS, VIDEO_TIMING_LABELS } from "../../record/video-settings";
import type { Scope } from "../widgets";
import type { PanelSection } from "./section";

export function videoSection(sb: SandboxPanelApi, scope: Scope): PanelSection {
  const video = { seconds: VIDEO_PARAMS.seconds.default, fps: VIDEO_PARAMS.fps.default, timing: VIDEO_PARAMS.timing.default as string, caption: VIDEO_PARAMS.caption.default as boolean };
  const set = (patch: Partial<typeof video>) => {
    Object.assign(video, patch);
    scope.refresh();
  };
  scope.section("Video");
  scope.control("video.seconds", VIDEO_PARAMS.seconds, () => video.seconds, (v: number) => set({ seconds: v }));
  scope.control("video.fps", VIDEO_PARAMS.fps, () => video.fps, (v: number) => set({ fps: v }));
  scope.control("video.mode", VIDEO_PARAMS.timing, () => video.timing, (v: string) => set({ timing: v }), { labels: (v) => VIDEO_TIMING_LABELS[v] ?? v });
  scope.control("video.caption", VIDEO_PARAMS.caption, () => video.caption, (v: boolean) => set({ caption: v }));
  scope.button("video.record", "Record video (.webm download)", () => sb.record({ seconds: video.seconds, fps: video.fps, frameExact: video.timing === "exact", caption: video.caption, download: true }));
  return { on: [], refresh: () => scope.refresh() };
}
