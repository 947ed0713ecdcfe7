/**
 * The motion as an animated glTF: the clip's length, frames per second and loop, the Export
 * motion button (a .glb download of the first view's tree and method, sandbox.exportMotion()) and
 * its progress bar while it bakes; a motion file played back beside the tree (sandbox.playMotion()):
 * which one, and a button to take it off.
 */
import type { SandboxPanelApi } from "../../sandbox/api";
import { EXPORT_PARAMS } from "../../export/bake";
import { MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";

export function exportSection(sb: SandboxPanelApi, scope: Scope, openMotionFile?: () => void): PanelSection {
  const clip = { seconds: EXPORT_PARAMS.seconds.default, fps: EXPORT_PARAMS.fps.default, loop: EXPORT_PARAMS.loop.default as boolean };
  const set = (patch: Partial<typeof clip>) => {
    Object.assign(clip, patch);
    scope.refresh();
  };
  scope.section("Export motion");
  scope.note("The tree with a bone per skeleton node and the method's motion as a glTF clip, for Blender or a game engine.", 11, MUTED);
  scope.control("export.seconds", EXPORT_PARAMS.seconds, () => clip.seconds, (v: number) => set({ seconds: v }));
  scope.control("export.fps", EXPORT_PARAMS.fps, () => clip.fps, (v: number) => set({ fps: v }));
  scope.control("export.loop", EXPORT_PARAMS.loop, () => clip.loop, (v: boolean) => set({ loop: v }));
  scope.button("export.run", "Export motion (.glb download)", () => sb.exportMotion({ seconds: clip.seconds, fps: clip.fps, loop: clip.loop, format: "glb", download: true }));
  const progress = scope.progressBar("export.progress");
  if (openMotionFile) scope.button("export.playFile", "Play a motion file (.glb) beside the tree…", () => openMotionFile());
  const playing = scope.note("", 11, MUTED);
  scope.named.set("export.playing", playing);
  const stop = scope.button("export.stopPlaying", "Take the motion file off", () => sb.playMotion(null));
  const refresh = () => {
    const m = sb.motionPlaying();
    playing.text = m ? `Playing ${m.name}: clip "${m.clip}", ${m.seconds} s, ${m.bones} bones, on the sandbox's clock, ${m.offset[0].toFixed(1)} m beside the tree` : "";
    playing.isVisible = stop.isVisible = m !== null;
    scope.refresh();
  };
  refresh();
  return { on: ["progress", "tree"], refresh, frame: () => progress.set(sb.exportProgress()) };
}
