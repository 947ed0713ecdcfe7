/**
 * The automation API, typed once. `window.sandbox` is a `SandboxApi`: the names and shapes the
 * README's "Automation API" lists, stable. The panel, the plots and the view labels use a
 * `SandboxPanelApi`, which adds what a GUI needs beyond it (not stable). Every call that fails
 * throws (or rejects) with a message a person can act on, and the message is also shown in the
 * panel (sandbox-api.ts is that one boundary).
 *
 * Long work is one at a time and nothing changes under it: while a model loads (`loadTree` with a
 * url, files or a sample) or a video is being recorded (`record`), `use`, `addView`, `removeView`,
 * `setFocusedMethod`, `loadTree` and `record` reject with a `BusyError` ("use() refused: a model is
 * loading (reading pine.gltf, 0%); wait for the loadTree() under way to resolve ..., then change the
 * methods") and change nothing; the panel's buttons make the same calls and show the same message.
 * Nothing is queued: call again once the work under way has resolved.
 */
import type { ForestSpec } from "../forest/scatter";
import type { ForestLodBands } from "../forest/forest-lod";
import type { ForestInfo } from "./forest-control";
import type { Scene } from "@babylonjs/core/scene";
import type { Observable } from "@babylonjs/core/Misc/observable";
import type { BranchControl } from "../animators/animator";
import type { ParamDecl } from "../math/params";
import type { CalibrationResult } from "../physics/calibration";
import type { PhysicalMaterial } from "../physics/material";
import type { ReferenceResult } from "../physics/reference/run";
import type { FormatSupport } from "../record/formats";
import type { RecordOptions, RecordResult, ScreenshotOptions } from "../record/recorder";
import type { TreeSummary } from "../tree/skeleton";
import type { WindTimeline } from "../wind/conditions";
import type { WindPrimitiveInfo, WindPrimitiveSpec } from "../wind/primitives";
import type { WindSettings } from "../wind/wind-field";
import type { SandboxChange } from "./events";
import type { ActionInfo } from "./method-controls";
import type { ModelInfo } from "./model-store";
import type { ExportOptions, MotionExportResult } from "./motion-export";
import type { MotionSource, PlayingMotion } from "./motion-player";
import type { PlotData } from "./tip-plot";
import type { RenderQuality } from "./render-quality";
import type { RenderMode } from "./tree-view";
import type { TreeSource } from "./tree-source";
import type { DisplaySettings } from "./url-state";
import type { ViewInfo } from "./view-set";

export type { ForestInfo, ForestSpec, ForestLodBands };
export type { CalibrationResult, ExportOptions, MotionExportResult, MotionSource, PlayingMotion, PhysicalMaterial, ReferenceResult };
export type { ActionInfo, DisplaySettings, RenderQuality, FormatSupport, ModelInfo, PlotData, RecordOptions, RecordResult, RenderMode, SandboxChange, ScreenshotOptions, TreeSource, TreeSummary, ViewInfo, WindPrimitiveInfo, WindPrimitiveSpec, WindSettings, WindTimeline };

/** A parameter value as the API takes and returns it. */
export type ParamValue = number | boolean | string;

export interface SandboxStats {
  fps: number;
  frameMs: number;
  animatorMs: number;
  vertices: number;
  nonFinite: boolean;
  errors: string[];
  /** What the focused method wants the stats line to say ("sub-stepping up to ×4 ..."). */
  notes: string[];
  /** The focused method's element counts (its AnimatorStats.counts: sph-particles' windParticles, treeParticles, brokenLinks, brokenBranches, fallenLeaves; mass-spring's masses, ...). */
  counts: Record<string, number>;
}

/** The stable automation API (`window.sandbox`). */
export interface SandboxApi {
  /** Resolves once the first frame of the tree is drawn with the panel up (and a model the address names loaded or refused). */
  readonly ready: Promise<void>;
  /** The methods: id (for use(), params(), the URL) and label. */
  animators(): { id: string; label: string }[];
  /** One id: a single view; 2 to 4 ids: side by side (same tree, wind, seed and clock; linked cameras). Restarts the clock at t = 0 from rest. Refused (BusyError) while a model loads or a video is recorded. */
  use(ids: string | string[]): Promise<void>;
  /** The views on show: their cells (canvas CSS pixels) and own ms per frame. */
  views(): ViewInfo[];
  /** Changes the wind (validated: a RangeError names the range) and returns it. */
  wind(patch?: Partial<WindSettings>): WindSettings;
  /** A method's parameters; with a patch, changes them in every view showing it (a RangeError on an unknown key or out of range). */
  params(id: string, patch?: Record<string, ParamValue>): Record<string, ParamValue>;
  /** A shipped grammar or sample, a grammar's text, a model (url or files), corrections of the model on show, or the tree on show at another depth or taper. Restarts the clock. Refused (BusyError) while a model loads or a video is recorded. */
  loadTree(src: TreeSource): Promise<TreeSummary>;
  /** The model on show, or the last one that failed (its `error` says why); null for a grammar tree. */
  model(): ModelInfo | null;
  /** A model loading and being analysed, or null. */
  loadProgress(): { text: string; fraction: number } | null;
  /** The shipped grammars, then the sample models. */
  trees(): string[];
  /** Bark texture, background, shadows and the skeleton overlay; throws on an unknown key or a non-boolean. */
  display(patch?: Partial<DisplaySettings>): DisplaySettings;
  /** What the renderer is asked to do per frame, chosen when the page opened (`?quality=full|light|auto`; auto is light on a software renderer): level, renderer, antialiasing, shadow map size. */
  renderQuality(): RenderQuality;
  pause(): void;
  resume(): void;
  /**
   * Advances frames × dt (1/60 s) deterministically, then renders once if every view is ready to
   * show it. While shaders or shadow maps compile in the background (just after use(), a new tree
   * or a display change) it draws nothing: the simulation has advanced, and the next frame drawn
   * (by the render loop, as soon as everything is ready) is complete. A frame-exact record() waits
   * for each frame that way.
   */
  step(frames: number): void;
  /** Flat xyz of every branch tip of the first view, world space. */
  probe(): number[];
  stats(): SandboxStats;
  /**
   * A video of the view, the panel left out: frame-exact (fps × seconds frames, the clock stepped)
   * or real time, WebM (default) or MP4, the codec the container's first the browser can encode
   * (`codec` in the result says which). A container the browser cannot encode is refused with an
   * Error naming what it can record instead. One at a time; refused (BusyError) while a model loads.
   */
  record(opts: RecordOptions): Promise<RecordResult>;
  /**
   * A picture of the view now, the panel left out: a PNG `Blob` ("image/png") of the asked size
   * (16 to 7680 pixels; default the view's), the view's middle when the shapes differ (scaled, never
   * stretched), with the caption if asked (default no). A RangeError names the allowed range;
   * refused (BusyError) while a video is being recorded.
   */
  screenshot(opts?: ScreenshotOptions): Promise<Blob>;
  /** Which files record() can write here, at the view's size: each container with its codec, or why not and what works instead. */
  videoFormats(): Promise<FormatSupport[]>;
  /**
   * The motion as an animated glTF (GLB): the first view's tree (its own meshes and materials)
   * skinned to one bone per skeleton node with the sandbox's per-vertex binding, and one clip
   * ("wind") of its method's motion from the state on show, sampled frame-exact (seconds × fps + 1
   * keys; the clock paused and stepped, then left there and resumed if it ran) in the wind as set.
   * `loop`: the last second cross-fades into the first, so the last key equals the first.
   * { seconds 0.5..600, fps 1..60 (default 30), format "glb", loop, download }; a RangeError names
   * the range, or the 200 MB budget a clip would pass. Refused (BusyError) while a model loads, a
   * video is recorded or another export runs; those are refused while it runs.
   */
  exportMotion(opts: ExportOptions): Promise<MotionExportResult>;
  /**
   * Plays a motion file back beside the tree on show: exportMotion()'s GLB (its `file`), a picked
   * or dropped one, or one at a URL; any glTF with a skinned animation. Its clip runs on the
   * sandbox's clock (the pose at clock time t, repeating), so it pauses, steps and records with the
   * live method. Replaces the file playing once the new one is loaded; null takes it off. Resolves
   * to { name, bones, seconds, clip, offset } (offset: where it stands, beside the tree); a file
   * that is no motion glTF is refused with an Error saying so, and the one playing stays.
   */
  playMotion(src: MotionSource | null): Promise<PlayingMotion | null>;
  /** The motion file playing beside the tree, or null. */
  motionPlaying(): PlayingMotion | null;
  /** A Beaufort preset (calm, light-breeze, fresh-breeze, strong-breeze, gale, storm); stops a timeline. */
  windPreset(id: string): void;
  /** Plays (validated), stops (null) or reads the wind timeline. */
  windTimeline(tl?: WindTimeline | null): WindTimeline | null;
  /**
   * Places a wind primitive in the shared wind (Zioma 2007 §6.3.1), felt by every method and marked
   * on the ground, and returns its id: { kind: "blast" (a front expanding from the point at 30 m/s,
   * losing a factor e every radius it travels) | "vortex" (a swirl about a vertical axis, fastest at
   * the radius) | "fan" (a jet blowing one way, the radius its half-width), x, z (m, -100..100),
   * strength (m/s, 0.1..60), radius (m, 0.5..50), duration? (s, 0.1..3600; left out or null: until
   * removed), direction? (degrees, fans only: 0 toward +x, 90 toward +z; left out: toward the tree at
   * the origin), start? (s; left out: the clock's time now) }. Timed by the fixed-step clock only (a
   * clock restarted at 0 plays it again at its start). A RangeError names the allowed range; at most
   * 16 at once. Kept in the page address.
   */
  windPrimitive(spec: WindPrimitiveSpec): number;
  /** The wind primitives in the scene, in the order placed: { id, kind, x, z, strength, radius, duration (null: until removed), direction, start }. */
  windPrimitives(): WindPrimitiveInfo[];
  /** Moves one to { x, z } (a fan may turn: direction); the rest stays. A RangeError names the range, or the ids there are. */
  moveWindPrimitive(id: number, to: { x: number; z: number; direction?: number }): WindPrimitiveInfo;
  /** Removes one; a RangeError names the ids there are. */
  removeWindPrimitive(id: number): void;
  /**
   * A forest around the tree on show (Zioma 2007 at scale): { trees (1..10000), area (m, 10..400,
   * a square centred on the tree), variants (1 to 4 names: "current", the tree on show or a loaded
   * model, or a shipped grammar), seed }; missing fields take { trees: 400, area: 120, variants:
   * ["current"], seed: 1 }. Thin instances in chunks, each tree moved in the vertex shader by the
   * wind where it stands, with levels of detail (forestLod). null: back to one tree; no argument:
   * the forest on show ({ ...spec, lod, levels: trees per level, vertices, note }) or null. A
   * RangeError names what is allowed, and the forest a person had stays.
   */
  forest(spec?: Partial<ForestSpec> | null): ForestInfo | null;
  /** The levels of detail's bands: { near, far, band } metres (near < far, band <= near); no argument: the current ones. */
  forestLod(patch?: Partial<ForestLodBands>): ForestLodBands;
  /** The flat xyz of every forest tree's top at the clock's time, in a fixed order ([] without a forest). */
  forestProbe(): number[];
  /** The branch whose tip the plots follow (-1: the longest); returns the branch plotted. */
  plotTip(branch?: number): number;
  /**
   * The physical tree's material: { woodDensity kg/m³, youngModulus Pa, dragCoefficient,
   * leafDragArea m², airDensity kg/m³, species }. A species ("oak", "pine", "birch", "maple") sets
   * its green-wood density and modulus; setting either by hand makes it "custom". Throws a
   * RangeError naming the allowed range.
   */
  physics(patch?: Partial<PhysicalMaterial>): PhysicalMaterial;
  /**
   * The reference solver for the tree on show and its material (the skeleton as a frame of tapered
   * Euler-Bernoulli beams): the lowest modes' frequencies and, per steady wind speed (blowing the way
   * the wind is set), the static xyz displacement of every branch tip in probe()'s order. Computed
   * off the frame loop; defaults { speeds: [5, 10, 20], modes: 20 }.
   */
  reference(opts?: { speeds?: number[]; modes?: number }): Promise<ReferenceResult>;
  /**
   * Every method (or those named) beside the reference, for the tree and material on show, each
   * with its parameters as set, run off screen in slices: per steady wind speed (toward +x, no
   * turbulence or gusts; default 5, 10, 20, 30 m/s) the mean tip deflection per hierarchy level and
   * its ratio to the reference's; the trunk's dominant frequency (of its free motion after a
   * 10 m/s wind stops, or the peak of its sway spectrum for a method with none) beside the
   * reference's first mode; the ζ measured by the logarithmic decrement beside the one its damping
   * slider sets. Throws a RangeError for an unknown method or a speed out of range.
   */
  calibration(opts?: { methods?: string[]; speeds?: number[] }): Promise<CalibrationResult>;
  /** The focused method's commands now. */
  actions(): ActionInfo[];
  /** Runs one of the focused method's commands; throws on an unknown or disabled one (a BusyError naming the recording under way and its cancel command, when that is why). */
  action(id: string): void;
  /** The selected branch of a method with per-branch controls: select (-1 clears), override its own parameters; its info, or null. */
  branch(index?: number, patch?: Record<string, number | null>): Record<string, ParamValue> | null;
}

/** A method as the panel shows it: its parameter declarations and the paper it implements. */
export interface MethodInfo {
  id: string;
  label: string;
  source: string;
  params: Readonly<Record<string, ParamDecl>>;
}

/** The tree on show as the panel shows it. */
export interface TreeState {
  /** The preset, "custom" (a grammar's text or file), a sample's id or "model". */
  name: string;
  /** The grammar's file name ("habel.lsys", "oak.lsys"), or the model's. */
  fileName: string;
  depth: number;
  taper: number;
  isModel: boolean;
  /** A shipped grammar (false for a grammar loaded as text or from a file, and for a model). */
  shipped: boolean;
  summary: TreeSummary;
}

/**
 * What the panel, plots and view labels use beyond the stable API. NOT stable: it changes with
 * the panel.
 */
export interface SandboxPanelApi extends SandboxApi {
  /** The scene (the GUI draws on it; pointer and frame observers). */
  readonly scene: Scene;
  /** The layer mask of GUI layers (drawn once, over every view). */
  readonly guiLayer: number;
  /** At most this many views side by side. */
  readonly maxViews: number;
  /** Typed changes and errors to show. */
  readonly events: { readonly changes: Observable<SandboxChange>; readonly errors: Observable<string> };
  /** Every method with its declarations. */
  methods(): MethodInfo[];
  /** The focused view's method. */
  focusedMethod(): MethodInfo;
  /** The view the panel edits. */
  focusedView(): number;
  focusView(k: number): void;
  /** Adds a view (the first method not on show, or `id`) and focuses it. addView, removeView and setFocusedMethod are refused as use() is. */
  addView(id?: string): Promise<void>;
  removeView(k: number): Promise<void>;
  /** Shows `id` in the focused view, keeping the others. */
  setFocusedMethod(id: string): Promise<void>;
  /** Changes whenever what views() reports may have (the labels redraw then). */
  viewsVersion(): number;
  /** The pixels on the left the panel covers (0 when hidden). */
  setViewInset(px: number): void;
  tree(): TreeState;
  renderMode(mode?: RenderMode): RenderMode;
  /** The render modes and their labels. */
  renderModes(): { id: RenderMode; label: string }[];
  /** The branch under a canvas point (CSS pixels), -1 for none. */
  branchAt(x: number, y: number): number;
  /** The point on the ground under a canvas point (CSS pixels), through the camera of the view there; null off the ground (sky, panel, past 100 m). */
  groundAt(x: number, y: number): { x: number; z: number } | null;
  selectedBranch(): number;
  /** The focused method's per-branch controls, or null when it has none. */
  branchControls(): Readonly<Record<string, BranchControl>> | null;
  /** Long work the focused method has under way (a recording), or null. */
  actionProgress(): { text: string; fraction: number } | null;
  plotData(): PlotData;
  /** A reference computation under way, or null. */
  referenceProgress(): { text: string; fraction: number } | null;
  /** The last reference computed for the tree and material on show, or null. */
  latestReference(): ReferenceResult | null;
  /** A motion export under way, or null. */
  exportProgress(): { text: string; fraction: number } | null;
  /** A calibration under way, or null. */
  calibrationProgress(): { text: string; fraction: number } | null;
  /** The last calibration of the tree and material on show, or null. */
  latestCalibration(): CalibrationResult | null;
  /** The clock's time, seconds, and whether it is paused. */
  time(): number;
  paused(): boolean;
  /** Shows a message in the panel (a file that is not a tree, say). */
  reportError(message: string): void;
}
