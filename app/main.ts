/**
 * Entry point: engine, sandbox, panel, grammar files (chooser and drag and drop), and the
 * automation API on `window.sandbox`.
 */
import { Engine } from "@babylonjs/core/Engines/engine";
import { createRegistry } from "./animators/registry";
import { Sandbox } from "./sandbox/sandbox";
import { Panel } from "./ui/panel";
import { VideoRecorder, type PngSequenceOptions } from "./record/recorder";
import { decodeVideo } from "./record/video-input";
import { Plots } from "./ui/plots";
import { ViewLabels } from "./ui/view-labels";
import { installGrammarFiles, installMotionFile, type GrammarFiles } from "./ui/grammar-files";
import type { GroveView } from "./animators/mass-spring/grove-view";
import { compareGpuWithTwin } from "./animators/gpu-twin-check";
import { LoadedMotion } from "./export/playback";
import { tipNode } from "./tree/skeleton";
import type { DeformShader } from "./animators/deform-shader";
import type { TreeInstance } from "./animators/animator";
import type { RenderMode } from "./sandbox/tree-view";
import type { SandboxApi, SandboxPanelApi } from "./sandbox/api";
import type { ReferenceProgress, ReferenceRequest, ReferenceResult } from "./physics/reference/run";
import { chooseQuality, probeRenderer, searchWithQuality, type QualityLevel } from "./sandbox/render-quality";

declare global {
  interface Window {
    /** The stable automation API (README, "Automation API"). */
    sandbox: SandboxApi;
    /** Hooks for tests and experiments: not stable. */
    sandboxDebug: ReturnType<typeof debugHooks>;
  }
}

function debugHooks(sandbox: Sandbox, panel: Panel, files: GrammarFiles, labels: ViewLabels) {
  const api = sandbox.api();
  const progressSeen: { text: string; fraction: number }[] = [];
  sandbox.events.changes.add((what) => {
    const p = what === "progress" ? api.loadProgress() : null;
    if (p && progressSeen[progressSeen.length - 1]?.text !== p.text) progressSeen.push(p);
  });
  const view = () => sandbox.views.firstTree;
  let motion: LoadedMotion | null = null;
  return {
    /** What the compare views' labels say now (none for a single view). */
    viewLabels: () => labels.texts(),
    /** Per view camera: the nodes whose visible tree meshes it draws (each should draw its own view's only). */
    camerasDraw: () => (sandbox.scene.activeCameras ?? []).filter((c) => c.name !== "gui-camera").map((c) =>
      [...new Set(sandbox.scene.meshes.filter((m) => m.isEnabled() && m.isVisible && (m.layerMask & c.layerMask) !== 0 && m.parent?.name.startsWith("tree-root")).map((m) => m.parent!.name))]),
    /** Every view camera's orbit (alpha, beta, radius) and viewport: linked cameras agree. */
    cameras: () => (sandbox.scene.activeCameras ?? []).filter((c) => c.name !== "gui-camera").map((c) => {
      const a = c as unknown as { alpha: number; beta: number; radius: number };
      return { name: c.name, alpha: a.alpha, beta: a.beta, radius: a.radius, viewport: { x: c.viewport.x, y: c.viewport.y, width: c.viewport.width, height: c.viewport.height } };
    }),
    /** The tree on show: its summary, preset name ("custom" for a loaded grammar), grammar file name and depth. */
    tree: () => {
      const t = api.tree();
      return { ...t.summary, name: t.name, grammar: t.fileName, depth: t.depth, barkTexture: view()?.barkTextureOn ?? null };
    },
    /** Resolves when a chosen or dropped grammar file has been read and loaded (or refused). */
    grammarFileSettled: () => files.settled,
    controlCenter: (name: string) => panel.controlCenter(name),
    sliderRect: (name: string) => panel.controlRect(name),
    /** The value a panel slider's thumb shows (e.g. "wind.speed", "depth"). */
    sliderValue: (name: string) => panel.sliderValue(name),
    sceneCounts: () => sandbox.sceneCounts(),
    /** The active animator, for experiments and for tests that break it on purpose. */
    animator: () => sandbox.views.animator,
    /** Draws the frame once every view is ready to show its state (false: not yet, nothing drawn). */
    drawReady: () => sandbox.drawReady(),
    /** The Babylon scene, for experiments from the console. */
    scene: () => sandbox.scene,
    projectToScreen: (xyz: number[]) => sandbox.projectToScreen(xyz),
    panelVisible: () => panel.visible,
    plotData: () => api.plotData(),
    branchAt: (x: number, y: number) => api.branchAt(x, y),
    /** A level-1 branch whose middle node the mouse can hit, and where (page pixels); null if none. */
    pickableBranch: () => {
      const s = view()!.skeleton;
      for (let b = 1; b < s.branchCount; b++) {
        if (s.branchLevel[b] !== 1) continue;
        const n = s.branchFirstNode[b] + (s.branchNodeCount[b] >> 1);
        const [x, y] = sandbox.projectToScreen([s.nodePosition[3 * n], s.nodePosition[3 * n + 1], s.nodePosition[3 * n + 2]]);
        if (x > 320 && x < window.innerWidth - 460 && api.branchAt(x, y) === b) return { branch: b, x, y };
      }
      return null;
    },
    longestBranch: () => {
      const s = view()!.skeleton;
      let b = 0;
      for (let i = 1; i < s.branchCount; i++) if (s.branchLength[i] > s.branchLength[b]) b = i;
      return b;
    },
    /**
     * Decodes a WebM or MP4 video with mediabunny and the browser's own decoder (base64; default the
     * last video made): container, codec, size, duration, frames in the file and decoded, and a
     * 16 x 9 grey thumbnail of every frame.
     */
    async decodeVideo(base64?: string) {
      if (base64 !== undefined) return decodeVideo(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))]));
      const last = sandbox.videoRecorder?.last;
      if (!last) throw new Error("no video has been made yet");
      return decodeVideo(last.blob);
    },
    /** Plays a video (default the last made) in a <video> element: its size and duration as the browser reads them. */
    async playVideo() {
      const last = sandbox.videoRecorder?.last;
      if (!last) throw new Error("no video has been made yet");
      const v = document.createElement("video");
      v.muted = true;
      v.src = URL.createObjectURL(last.blob);
      await new Promise((ok, fail) => {
        v.onloadeddata = ok;
        v.onerror = () => fail(new Error(`the browser cannot play it: ${v.error?.message ?? "unknown error"}`));
      });
      const r = { width: v.videoWidth, height: v.videoHeight, duration: v.duration };
      URL.revokeObjectURL(v.src);
      return r;
    },
    /** The last video made (record() or the panel), as base64, with what record() said of it. */
    async lastVideo() {
      const last = sandbox.videoRecorder?.last;
      if (!last) return null;
      return { base64: await base64Of(last.blob), ...last.result };
    },
    /** The last picture screenshot() or the panel's Save picture took, as base64 PNG, or null. */
    async lastPicture() {
      const png = sandbox.videoRecorder?.lastPicture;
      return png ? base64Of(png) : null;
    },
    /**
     * A frame-exact recording as PNGs (npm run record -- --png-sequence): `onFrame` gets each
     * frame's index and PNG as base64, in order, and is awaited.
     */
    pngSequence(opts: PngSequenceOptions, onFrame: (index: number, base64: string) => unknown) {
      const r = sandbox.videoRecorder;
      if (!r) throw new Error("video recording is not set up in this page");
      return r.pngSequence(opts, async (i, png) => onFrame(i, await base64Of(png)));
    },
    setPanelVisible: (v: boolean) => panel.toggle(v),
    /** The text of a named panel text ("model.summary"). */
    panelText: (name: string) => panel.textOf(name),
    /** Every stage a model's progress bar showed since the page loaded. */
    loadProgressSeen: () => progressSeen.map((p) => ({ ...p })),
    /** The colour texture on the leaves of the tree on show (a model's own: its file name). */
    leafTexture: () => {
      const t = view()?.leafMaterial.diffuseTexture as { url?: string; name: string } | null | undefined;
      return t ? t.name || t.url || "" : null;
    },
    renderMode: (mode?: RenderMode) => api.renderMode(mode),
    async gpuTwinCheck(samples: number) {
      const a = sandbox.views.animator as unknown as { deformShader?: DeformShader; tree?: TreeInstance } | null;
      if (!a?.deformShader || !a.tree) throw new Error(`gpuTwinCheck needs a method that deforms in the vertex shader; "${sandbox.views.provider.id}" does not`);
      return compareGpuWithTwin(sandbox.scene, [a.tree.bark, a.tree.leaves], a.deformShader, samples);
    },
    /**
     * An exported motion (exportMotion()'s file) read back with Babylon's glTF loader: its bones,
     * its clip's length and, at each of `times` (seconds), the positions of the bones on the tree's
     * branch tips in probe()'s order (file coordinates, the sandbox's); then its clip plays beside
     * the tree, moved by `offset` (world xyz, metres), until the next call (null: none).
     */
    async playMotion(file: Blob | null, times: number[] = [], offset: number[] = [0, 0, 0]) {
      motion?.dispose();
      motion = null;
      if (!file) return null;
      motion = await LoadedMotion.load(sandbox.scene, file);
      const s = view()?.skeleton;
      const tips = s ? Array.from({ length: s.branchCount }, (_, b) => tipNode(s, b)) : [];
      const poses = times.map((t) => motion!.bonePositions(t, tips));
      motion.play(offset);
      return { bones: motion.bones, seconds: motion.seconds, clip: motion.clip, poses };
    },
    /** mass-spring's grove: the instanced trees' vertex shader against groveVertex, for grove tree `tree`. */
    async groveTwinCheck(samples: number, tree: number) {
      const a = sandbox.views.animator as unknown as { groveView?: GroveView | null } | null;
      const grove = a?.groveView;
      if (!grove) throw new Error(`groveTwinCheck needs mass-spring showing its grove; the method is "${sandbox.views.provider.id}"`);
      grove.setCheckTree(tree);
      return compareGpuWithTwin(sandbox.scene, grove.meshes, grove.deformShader, samples);
    },
    /**
     * npm run bench's forest figures: `still` makes the forest still (no motion in its shaders, no
     * wind texture) or moving again; with `frames`, the main thread's ms per frame of the forest's
     * own work over that many frames: the wind texture (fill and upload) and the clock, and the
     * levels, culling and instance buffers as when the camera moves every frame.
     */
    forestBench(opts: { still?: boolean; frames?: number }) {
      const view = sandbox.forest.shownView;
      if (!view) throw new Error("forestBench needs a forest");
      if (opts.still !== undefined) view.setStill(opts.still);
      const frames = opts.frames ?? 0;
      if (frames <= 0) return null;
      const t = sandbox.clock.time, dt = sandbox.clock.dt, cam = sandbox.env.camera.globalPosition;
      let update = 0, assign = 0;
      for (let i = 0; i < frames; i++) {
        const t0 = performance.now();
        view.update(t + i * dt, sandbox.windField);
        const t1 = performance.now();
        view.assign(cam.x + (i % 2) * 0.01, cam.z, null);
        assign += performance.now() - t1;
        update += t1 - t0;
      }
      view.recull(); // the buffers hold every chunk now: the next frame culls again
      return { updateMs: update / frames, assignMs: assign / frames, trees: view.placement.count };
    },
    /** The forest's vertex shader against its twin (forest-motion.ts), for forest tree `tree` drawn at level `lod`. */
    async forestTwinCheck(samples: number, tree: number, lod: number, part: "bark" | "leaves" = "bark") {
      const view = sandbox.forest.shownView;
      if (!view) throw new Error("forestTwinCheck needs a forest: sandbox.forest({ trees })");
      const variant = view.placement.variant[tree];
      const { shader } = view.deformShader(tree, lod, variant, part);
      const mesh = view.meshes.find((m) => m.name === `forest ${view.variants[variant].name} ${part} ${lod}`);
      if (!mesh) throw new RangeError(`the variant "${view.variants[variant].name}" draws no ${part} at level ${lod}`);
      return compareGpuWithTwin(sandbox.scene, [mesh], shader, samples);
    },
  };
}

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** The video recorder, wired to the canvas, the panel (hidden while recording) and the progress line. */
function videoRecorder(sandbox: Sandbox, canvas: HTMLCanvasElement, panel: Panel): VideoRecorder {
  const overlay = document.getElementById("record-overlay")!;
  const text = overlay.querySelector(".text")!, bar = overlay.querySelector(".bar") as HTMLElement;
  return new VideoRecorder({
    canvas,
    get dt() {
      return sandbox.clock.dt;
    },
    get isPaused() {
      return sandbox.isPaused;
    },
    pause: () => sandbox.pause(),
    resume: () => sandbox.resume(),
    step: (n) => sandbox.step(n),
    holdRenderLoop: (hold) => sandbox.holdRenderLoop(hold),
    afterEachFrame: (f) => {
      const o = sandbox.scene.onAfterRenderObservable.add(() => f());
      return () => sandbox.scene.onAfterRenderObservable.remove(o);
    },
    caption: () => sandbox.caption(),
    hideUi: (hidden) => panel.setDrawn(!hidden),
    progress: (fraction, message) => {
      overlay.style.display = fraction === null ? "none" : "block";
      text.textContent = message;
      bar.style.width = `${Math.round(100 * (fraction ?? 0))}%`;
    },
  });
}

/** Runs the reference solver in a Web Worker, so the frame loop never waits for it. */
function workerRunner(req: ReferenceRequest, progress: ReferenceProgress): Promise<ReferenceResult> {
  const worker = new Worker(new URL("./physics/reference/worker.ts", import.meta.url));
  return new Promise<ReferenceResult>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<{ progress?: { fraction: number; text: string }; result?: ReferenceResult; error?: string }>) => {
      const m = e.data;
      if (m.progress) progress(m.progress.fraction, m.progress.text);
      if (m.result || m.error !== undefined) {
        worker.terminate();
        if (m.result) resolve(m.result);
        else reject(new Error(m.error));
      }
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(`the reference worker failed: ${e.message}`));
    };
    worker.postMessage(req);
  });
}

function fatal(e: unknown): void {
  const el = document.getElementById("fatal")!;
  el.style.display = "block";
  el.textContent = `Tree Wind Sandbox could not start.\n\n${e instanceof Error ? e.stack ?? e.message : String(e)}`;
}

function main(): void {
  const canvas = document.getElementById("view") as HTMLCanvasElement;
  // Antialiasing is fixed with the context: the quality is chosen before the engine (render-quality.ts).
  const quality = chooseQuality(window.location.search, probeRenderer());
  const engine = new Engine(canvas, quality.antialias, { preserveDrawingBuffer: true, stencil: true, premultipliedAlpha: false }, true);
  window.addEventListener("resize", () => engine.resize());
  const sandbox = new Sandbox(engine, canvas, createRegistry(), { referenceRunner: workerRunner, quality });
  let api: SandboxPanelApi | null = null;
  const ready = sandbox.start(window.location.hash, window.location.search).then(() => {
    const ui = api!;
    const input = document.getElementById("grammar-file") as HTMLInputElement;
    const files = installGrammarFiles(ui, input, document.getElementById("drop-overlay"));
    const motionFile = installMotionFile(ui, document.getElementById("motion-file") as HTMLInputElement);
    const setQuality = (level: QualityLevel | "auto") => {
      window.location.search = searchWithQuality(window.location.search, level);
    };
    const panel = new Panel(ui, { openGrammarFile: () => files.open(), openMotionFile: () => motionFile.open(), setQuality });
    if (quality.problem) ui.reportError(quality.problem);
    sandbox.setRecorder(videoRecorder(sandbox, canvas, panel));
    const plots = new Plots(ui, document.getElementById("plots") as HTMLCanvasElement, () => (panel.visible ? 300 : 0));
    panel.setPlots(plots);
    const labels = new ViewLabels(ui);
    window.sandboxDebug = debugHooks(sandbox, panel, files, labels);
    // Ready means the first frame with the panel is on screen, and the model the address names loaded (or refused, with a message).
    return new Promise<void>((r) => sandbox.scene.onAfterRenderObservable.addOnce(() => r())).then(() => sandbox.loadStartModel());
  });
  api = sandbox.api(ready);
  window.sandbox = api;
  ready.catch(fatal);
}

try {
  main();
} catch (e) {
  fatal(e);
}
