/**
 * The motion as an animated glTF (app/export/): the first view's tree and method, sampled
 * frame-exact on the host's fixed clock in the wind as set (a preset or timeline included),
 * baked into one bone per skeleton node and written as a GLB. The clip starts at the state on
 * show: the clock is paused and stepped (without drawing) to each frame's time, as a frame-exact
 * video is; afterwards the clock stays where the bake left it, as after a recording, and runs on
 * if it was running. One export at a time, with a progress bar; refused (sandbox-api.ts) while a
 * model loads or a video is recorded, and those are refused while it runs.
 */
import type { Engine } from "@babylonjs/core/Engines/engine";
import type { Animator, TreeInstance } from "../animators/animator";
import { bakeClip, boneRig, checkBudget, clipFrames, estimateBytes, exportSettings, type ExportOptions } from "../export/bake";
import { addClip, CLIP_NAME, meshCounts, writeSkinnedTree } from "../export/gltf";
import { nodeReader } from "../export/nodes";
import { SANDBOX_SOURCE } from "../export/motion-file";
import type { Params } from "../math/params";
import { treeReach } from "../tree/skeleton";
import type { SandboxChange } from "./events";
import { MotionPlayer, type MotionPlayerHost } from "./motion-player";

export type { ExportOptions };

/** What exportMotion() resolves to. */
export interface MotionExportResult {
  /** The GLB file. */
  file: Blob;
  /** Its name ("<tree>-<method>-<seconds>s.glb"). */
  fileName: string;
  bytes: number;
  mime: "model/gltf-binary";
  method: string;
  /** Bones: one per skeleton node. */
  bones: number;
  frames: number;
  fps: number;
  seconds: number;
  loop: boolean;
  /** The animation's name in the file. */
  clip: string;
  /** Wall-clock milliseconds the bake and the writing took. */
  ms: number;
}

/** What the export and the player need of the host. */
export interface MotionExportHost extends Omit<MotionPlayerHost, "treeReach"> {
  readonly engine: Engine;
  /** The fixed step, seconds. */
  readonly dt: number;
  /** The first view: its method, animator and tree. */
  shown(): { provider: { id: string }; animator: Animator<Params> | null; tree: TreeInstance } | null;
  /** The tree's name for the file name. */
  treeName(): string;
  /** Advances every view `steps` fixed steps, without drawing. */
  advance(steps: number): void;
  paused(): boolean;
  pause(): void;
  resume(): void;
}

/** Milliseconds of baking between two frames drawn. */
const SLICE_MS = 500;

/** Lets the page draw (the progress bar) between slices. */
const nextSlice = () => new Promise<void>((r) => setTimeout(r, 0));

function download(blob: Blob, name: string): void {
  if (typeof document === "undefined") return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

export class MotionExportControl {
  private busy: { text: string; fraction: number } | null = null;
  /** A motion file played back beside the tree (an export loaded back, or any skinned glTF clip). */
  readonly player: MotionPlayer;

  constructor(private readonly host: MotionExportHost, private readonly changed: (what: SandboxChange) => void) {
    this.player = new MotionPlayer({
      scene: host.scene,
      time: () => host.time(),
      treeReach: () => {
        const s = host.shown()?.tree.skeleton;
        return s ? treeReach(s) : 0;
      },
    }, changed);
  }

  dispose(): void {
    this.player.dispose();
  }

  /** An export under way, for a progress bar; null when none. */
  progress(): { text: string; fraction: number } | null {
    return this.busy ? { ...this.busy } : null;
  }

  get exporting(): boolean {
    return this.busy !== null;
  }

  async run(o: ExportOptions): Promise<MotionExportResult> {
    const settings = exportSettings(o);
    if (this.busy) throw new RangeError("exportMotion(): an export is under way; wait for it to finish");
    const view = this.host.shown();
    if (!view) throw new Error("exportMotion(): there is no tree on show yet");
    const { tree } = view, method = view.provider.id;
    const frames = clipFrames(settings);
    const counts = meshCounts(tree);
    checkBudget(estimateBytes(tree.skeleton.nodeCount, frames, counts.vertices, counts.indices));
    const read = nodeReader(method, view.animator, tree);
    const t0 = Date.now();
    const host = this.host, wasPaused = host.paused();
    const progress = (fraction: number, text: string) => {
      this.busy = { fraction, text };
      this.changed("progress");
    };
    progress(0, `Exporting the motion: frame 0 of ${frames}`);
    host.pause();
    try {
      const rig = boneRig(tree.skeleton);
      let lastSlice = Date.now();
      const clip = await bakeClip(rig, { dt: host.dt, advance: (n) => host.advance(n), nodes: read }, settings,
        (f) => (this.busy = { fraction: 0.9 * f, text: `Exporting the motion: frame ${Math.min(frames, Math.round(f * frames))} of ${frames} (${method}, ${settings.fps} fps)` }),
        async () => {
          // Give the page a frame for the progress bar twice a second (wall-clock time decides only
          // when, never what is sampled): a drawn frame can cost more than the bake's slice.
          if (Date.now() - lastSlice < SLICE_MS) return;
          this.changed("progress");
          await nextSlice();
          lastSlice = Date.now();
          if (this.host.shown()?.animator !== view.animator) throw new Error("exportMotion(): the method or tree changed during the export; export again");
        });
      progress(0.9, "Exporting the motion: writing the glTF");
      await nextSlice();
      const name = `${host.treeName()}-${method}`.replace(/[^A-Za-z0-9_-]+/g, "_");
      const skinned = await writeSkinnedTree(host.engine, tree, rig, name);
      const bytes = addClip(skinned, clip, rig.count, { method, fps: settings.fps, seconds: clip.seconds, loop: settings.loop, source: SANDBOX_SOURCE });
      const file = new Blob([bytes as BlobPart], { type: "model/gltf-binary" });
      const fileName = `${name}-${clip.seconds}s.glb`;
      if (settings.download) download(file, fileName);
      return {
        file, fileName, bytes: bytes.length, mime: "model/gltf-binary", method, bones: rig.count, frames: clip.frames,
        fps: clip.fps, seconds: clip.seconds, loop: clip.loop, clip: CLIP_NAME, ms: Date.now() - t0,
      };
    } finally {
      if (!wasPaused) host.resume();
      this.busy = null;
      this.changed("progress");
    }
  }
}
