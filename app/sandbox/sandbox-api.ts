/**
 * Builds `window.sandbox` (a SandboxPanelApi, which is a SandboxApi) over the host's parts. This
 * is the one boundary where errors reach people: every call that throws or rejects has its
 * message shown (the panel's error line, `stats().errors`) and is thrown on unchanged.
 *
 * It is also the one place long work is guarded: while a model loads or a video is being recorded,
 * the calls that would change the tree or the methods under it (use, addView, removeView,
 * setFocusedMethod, loadTree, record) are refused with a message that says what is under way and
 * what to do, and nothing changes; the panel's buttons go through the same calls. A method's own
 * long work (mass-spring's recording) refuses its commands the same way.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { AnimatorRegistry, AnyProvider } from "../animators/animator";
import type { ParamDecl } from "../math/params";
import type { PhysicalMaterial } from "../physics/material";
import type { FormatSupport } from "../record/formats";
import type { RecordOptions, RecordResult, ScreenshotOptions } from "../record/recorder";
import type { WindSettings } from "../wind/wind-field";
import type { MethodInfo, SandboxPanelApi, SandboxStats } from "./api";
import type { FixedClock } from "./clock";
import { messageOf, type SandboxEvents } from "./events";
import type { MethodControls } from "./method-controls";
import type { ExportOptions, MotionExportControl } from "./motion-export";
import type { MotionSource } from "./motion-player";
import type { PhysicsControl } from "./physics-control";
import type { CalibrationControl, CalibrationOptions } from "./calibration-control";
import type { ReferenceControl, ReferenceOptions } from "./reference-control";
import type { ReferenceResult } from "../physics/reference/run";
import { GUI_LAYER, type Stages } from "./stages";
import type { TipPlot } from "./tip-plot";
import { RENDER_MODE_LABELS, RENDER_MODES } from "./tree-view";
import { CUSTOM_TREE, treeNames, type TreeSourceManager } from "./tree-source";
import { MAX_VIEWS } from "./compare-layout";
import type { ViewSet } from "./view-set";
import type { WindControl } from "./wind-control";
import { groundPoint } from "./wind-primitives";
import type { RenderQuality } from "./render-quality";
import type { ForestControl } from "./forest-control";
import type { ForestSpec } from "../forest/scatter";
import type { ForestLodBands } from "../forest/forest-lod";

/** What the API is built over: the host's parts and its run loop. */
export interface ApiHost {
  readonly scene: Scene;
  readonly env: { readonly quality: RenderQuality };
  readonly events: SandboxEvents;
  readonly registry: AnimatorRegistry;
  readonly clock: FixedClock;
  readonly stages: Stages;
  readonly views: ViewSet;
  readonly trees: TreeSourceManager;
  readonly windControl: WindControl;
  readonly methods: MethodControls;
  readonly tipPlot: TipPlot;
  readonly physics: PhysicsControl;
  readonly reference: ReferenceControl;
  readonly calibration: CalibrationControl;
  readonly motionExport: MotionExportControl;
  readonly forest: ForestControl;
  readonly isPaused: boolean;
  computeReference(opts?: ReferenceOptions): Promise<ReferenceResult>;
  pause(): void;
  resume(): void;
  step(frames: number): void;
  stats(): SandboxStats;
  record(opts: RecordOptions): Promise<RecordResult>;
  /** What makes videos and pictures (null where the page has none): whether a video is being made. */
  readonly videoRecorder: { readonly recording: boolean; screenshot(o?: ScreenshotOptions): Promise<Blob>; formats(): Promise<FormatSupport[]> } | null;
}

/** A call refused because long work is under way (a model loading, a video being recorded, a method's recording). */
export class BusyError extends Error {
  override name = "BusyError";
}

/** "40%" of a progress fraction. */
function percent(fraction: number): string {
  return `${Math.round(Math.max(0, Math.min(1, fraction)) * 100)}%`;
}

function methodInfo(p: AnyProvider): MethodInfo {
  return { id: p.id, label: p.label, source: p.source, params: p.params as Readonly<Record<string, ParamDecl>> };
}

export function sandboxApi(h: ApiHost, ready: Promise<void>): SandboxPanelApi {
  const { events, views, trees, windControl: wind, methods } = h;
  /** Shows what went wrong (with `prefix`) and throws or rejects on. */
  const shown = <A extends unknown[], R>(f: (...args: A) => R, prefix = "") => (...args: A): R => {
    const report = (e: unknown) => events.error(prefix + messageOf(e));
    try {
      const r = f(...args);
      if (r instanceof Promise) {
        return r.catch((e: unknown) => {
          report(e);
          throw e;
        }) as R;
      }
      return r;
    } catch (e) {
      report(e);
      throw e;
    }
  };
  const skeleton = () => views.firstTree?.skeleton ?? null;
  /** The long work under way that the tree and the methods must not change under, and when it is over; null when none. */
  const underWay = (): { what: string; wait: string } | null => {
    if (h.videoRecorder?.recording) return { what: "a video is being recorded", wait: "wait for the record() under way to resolve (the progress line above the view)" };
    if (h.motionExport.exporting) return { what: "the motion is being exported", wait: "wait for the exportMotion() under way to resolve (the Export section's progress bar)" };
    if (trees.models.importing) {
      const p = trees.models.progress();
      return { what: `a model is loading${p ? ` (${p.text}, ${percent(p.fraction)})` : ""}`, wait: "wait for the loadTree() under way to resolve (loadProgress() says how far it is)" };
    }
    return null;
  };
  /** Throws a BusyError naming `call` when long work is under way. */
  const idle = (call: string, then: string): void => {
    const w = underWay();
    if (w) throw new BusyError(`${call} refused: ${w.what}; ${w.wait}, then ${then}`);
  };
  /** A method's command: refused while the method's own long work (a recording) is under way and the command is not offered then. */
  const runAction = (id: string): void => {
    const p = methods.progress();
    const now = methods.actions();
    const a = now.find((x) => x.id === id);
    if (p && (!a || !a.enabled)) {
      const cancel = now.find((x) => x.enabled && x.id.startsWith("cancel"));
      throw new BusyError(
        `action("${id}") refused: a recording is under way (${p.text}, ${percent(p.fraction)}); wait for it to finish` +
          (cancel ? `, or cancel it with action("${cancel.id}")` : "") + `; the commands now are: ${now.filter((x) => x.enabled).map((x) => x.id).join(", ")}`,
      );
    }
    methods.run(id);
  };
  // An error reported before the panel watches (the page address's, read at start, before the panel
  // is made) is shown to it once it is up (`ready` resolves after), unless a newer one is on show.
  const unseen: string[] = events.errors.hasObservers() ? [] : [...events.recent];
  let newer = false;
  const early = events.errors.add((m) => (events.errors.observers.length > 1 ? (newer = true) : unseen.push(m)));
  void ready.then(
    () => {
      early?.remove();
      const last = unseen[unseen.length - 1];
      if (last !== undefined && !newer && events.errors.hasObservers()) events.errors.notifyObservers(last);
    },
    () => early?.remove(),
  );
  return {
    ready,
    animators: () => h.registry.list().map((p) => ({ id: p.id, label: p.label })),
    use: shown(async (ids: string | string[]) => {
      idle("use()", "change the methods");
      views.use(ids);
    }),
    views: () => views.info(),
    wind: shown((patch?: Partial<WindSettings>) => {
      if (patch) wind.set(patch);
      return wind.settings();
    }),
    params: shown((id: string, patch?: Record<string, number | boolean | string>) => {
      if (patch) methods.set(id, patch);
      return methods.get(id);
    }),
    loadTree: shown(async (src) => {
      idle("loadTree()", "change the tree");
      return trees.load(src);
    }),
    model: () => trees.modelInfo(),
    loadProgress: () => trees.models.progress(),
    trees: () => treeNames(),
    display: shown((patch) => {
      if (patch !== undefined) views.setDisplay(patch);
      return views.display;
    }),
    renderQuality: () => ({ ...h.env.quality }),
    pause: () => h.pause(),
    resume: () => h.resume(),
    step: shown((frames: number) => h.step(frames)),
    probe: () => Array.from(views.list[0]?.animator?.probe() ?? []),
    stats: () => h.stats(),
    record: shown(async (opts: RecordOptions) => {
      idle("record()", "record (one video at a time, of the tree and methods on show)");
      return h.record(opts);
    }, "Recording failed: "),
    screenshot: shown(async (opts?: ScreenshotOptions) => {
      const r = h.videoRecorder;
      if (!r) throw new Error("pictures are not set up in this page");
      if (r.recording) throw new BusyError("screenshot() refused: a video is being recorded; wait for the record() under way to resolve (the progress line above the view), then take the picture");
      return r.screenshot(opts);
    }, "Picture failed: "),
    videoFormats: shown(async () => (h.videoRecorder ? h.videoRecorder.formats() : [])),
    exportMotion: shown(async (opts: ExportOptions) => {
      idle("exportMotion()", "export (one at a time, of the tree and method on show)");
      return h.motionExport.run(opts);
    }, "Export failed: "),
    playMotion: shown(async (src: MotionSource | null) => {
      if (src === null) return (h.motionExport.player.stop(), null);
      return h.motionExport.player.play(src);
    }, "Motion file: "),
    motionPlaying: () => h.motionExport.player.playing,
    windPreset: shown((id: string) => wind.setPreset(id)),
    windTimeline: shown((tl) => {
      if (tl !== undefined) wind.setTimeline(tl, h.clock.time);
      return wind.current;
    }),
    windPrimitive: shown((spec) => wind.primitives.add(spec)),
    windPrimitives: () => wind.primitives.list(),
    moveWindPrimitive: shown((id: number, to: { x: number; z: number; direction?: number }) => wind.primitives.move(id, to)),
    removeWindPrimitive: shown((id: number) => wind.primitives.remove(id)),
    forest: shown((spec?: Partial<ForestSpec> | null) => (spec === undefined ? h.forest.info() : h.forest.set(spec))),
    forestLod: shown((patch?: Partial<ForestLodBands>) => (patch === undefined ? h.forest.lod : h.forest.setLod(patch))),
    forestProbe: () => Array.from(h.forest.probe()),
    plotTip: shown((branch?: number) => {
      if (branch !== undefined) h.tipPlot.choose(branch, skeleton(), views.list.length);
      return h.tipPlot.branch;
    }),
    physics: shown((patch?: Partial<PhysicalMaterial>) => {
      if (patch !== undefined) h.physics.set(patch);
      return h.physics.get();
    }),
    reference: shown((opts?: ReferenceOptions) => h.computeReference(opts)),
    calibration: shown((opts?: CalibrationOptions) => h.calibration.run(opts)),
    actions: () => methods.actions(),
    action: shown((id: string) => runAction(id)),
    branch: shown((index?: number, patch?: Record<string, number | null>) => {
      if (index !== undefined) {
        methods.select(index);
        if (patch && index >= 0) methods.edit(index, patch);
      }
      const b = methods.selected;
      return b >= 0 ? methods.info(b) : null;
    }),

    // Beyond the stable API: what the panel, the plots and the view labels need.
    scene: h.scene,
    guiLayer: GUI_LAYER,
    maxViews: MAX_VIEWS,
    events,
    methods: () => h.registry.list().map(methodInfo),
    focusedMethod: () => methodInfo(views.provider),
    focusedView: () => views.focused,
    focusView: shown((k: number) => views.focusView(k)),
    addView: shown(async (id?: string) => {
      idle("addView()", "add the view");
      views.addView(id);
    }),
    removeView: shown(async (k: number) => {
      idle("removeView()", "remove the view");
      views.removeView(k);
    }),
    setFocusedMethod: shown(async (id: string) => {
      idle("setFocusedMethod()", "change the method");
      views.setFocusedMethod(id);
    }),
    viewsVersion: () => views.version,
    setViewInset: (px: number) => {
      h.stages.viewInset = Math.max(0, px);
    },
    tree: () => ({ name: trees.name, fileName: trees.fileName, depth: trees.depth, taper: trees.taper, isModel: trees.isModel, shipped: trees.name !== CUSTOM_TREE, summary: trees.summary() }),
    renderMode: shown((mode) => {
      if (mode !== undefined) views.setRenderMode(mode);
      return views.renderMode;
    }),
    renderModes: () => RENDER_MODES.map((id) => ({ id, label: RENDER_MODE_LABELS[id] })),
    branchAt: (x: number, y: number) => views.branchAt(x, y),
    groundAt: (x: number, y: number) => groundPoint(h.scene, h.stages.cameraAt(x, y), x, y),
    selectedBranch: () => methods.selected,
    branchControls: () => methods.branchControls(),
    actionProgress: () => methods.progress(),
    plotData: () => h.tipPlot.data(views.list.map((v) => ({ id: v.provider.id, animator: v.animator })), h.clock.dt),
    referenceProgress: () => h.reference.progress(),
    latestReference: () => h.reference.latest(),
    exportProgress: () => h.motionExport.progress(),
    calibrationProgress: () => h.calibration.progress(),
    latestCalibration: () => h.calibration.latest(),
    time: () => h.clock.time,
    paused: () => h.isPaused,
    reportError: (message: string) => events.error(message),
  };
}
