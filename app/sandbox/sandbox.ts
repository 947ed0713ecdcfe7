/**
 * The host: engine, scene, environment, fixed-step clock, the tree on show, the active method,
 * the shared wind, and the automation API (`window.sandbox`, ARCHITECTURE.md). The GUI panel
 * drives the app only through this class's public methods, exactly as a script would.
 */
import type { Engine } from "@babylonjs/core/Engines/engine";
import { Scene } from "@babylonjs/core/scene";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { Viewport } from "@babylonjs/core/Maths/math.viewport";
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera";
import type { Camera } from "@babylonjs/core/Cameras/camera";
import type { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents";
import { cellAt, compareCells, MAX_VIEWS, type ViewCell } from "./compare-layout";
import type { Animator, AnyProvider, BranchEditor } from "../animators/animator";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import "@babylonjs/core/Culling/ray";
import type { AnimatorRegistry } from "../animators/animator";
import { DEFAULT_METHOD } from "../animators/registry";
import { Rng } from "../math/rng";
import { defaultsOf, validatePatch, type Params } from "../math/params";
import { applyTaper, TAPER_RANGE } from "../tree/taper";
import { formatTimeline, parseTimeline, presetOf, timelineAt, validateTimeline, windPreset, type WindPreset, type WindTimeline } from "../wind/conditions";
import type { RecordOptions, RecordResult, VideoRecorder } from "../record/recorder";
import { TipHistory } from "./tip-history";
import { BINDING_ATTRIBUTES, buildTreeGeometry } from "../tree/geometry";
import { tipNode, treeHeight, type TreeSkeleton, type TreeSummary } from "../tree/skeleton";
import { grammarToSkeleton, parseGrammar } from "../lsystem/lsystem";
import { TREE_PRESETS } from "../lsystem/presets";
import { DEFAULT_WIND, WindField, type WindSettings } from "../wind/wind-field";
import { FixedClock } from "./clock";
import { createEnvironment, type Environment } from "./environment";
import { RENDER_MODES, TreeView, type RenderMode, type TreeLook } from "./tree-view";
import { fetchModelFiles, readModel, type LoadedModel, type ModelFile } from "../import/load";
import { importModel, type ImportedTree, type ImportOptions } from "../import/build";
import { guessRoles } from "../import/classify";
import type { PartRole } from "../import/model";
import { MODEL_SAMPLES, modelSample, type ModelSample } from "../import/samples";
import { UP_AXES, type UpAxis } from "../tree/normalise";
import { DEFAULT_DISPLAY, formatHash, parseHash, type DisplaySettings } from "./url-state";

export type { DisplaySettings } from "./url-state";

/** The derivation depth a person or script may ask for; the module cap stops explosions inside it. */
export const DEPTH_RANGE = { min: 0, max: 40 } as const;
/** The slider's range: deeper than this is for scripts that know what they ask for. */
export const DEPTH_SLIDER_MAX = 12;
export const DEFAULT_TREE = "habel";
/** Vertices a tree may have: past this a software renderer stalls and a real one gains nothing visible. */
export const MAX_TREE_VERTICES = 2_000_000;

export interface TreeSource {
  /** A shipped grammar or a sample model (`trees()`). */
  preset?: string;
  /** Grammar text (the .lsys format); derived to its own `#depth` unless `depth` is given. */
  grammar?: string;
  /** With `grammar`: the file it came from ("oak.lsys"), for error messages and the panel. */
  name?: string;
  /** A model file's URL (.glb, .gltf, .obj); the files it names are fetched from beside it. */
  url?: string;
  /** A model's files, as picked or dropped: the model file and its companions (.bin, .mtl, textures). */
  files?: readonly File[];
  /** The model's up axis, when the one detected is wrong ("auto": detect again). */
  up?: UpAxis | "auto";
  /** Corrections of the model's wood and leaves, by material name. */
  roles?: Record<string, PartRole>;
  /** The tree to show when the model's file holds several (`model().trees`). */
  object?: string;
  taper?: number;
  depth?: number;
}

/** What `model()` says of the model on show, or of the last one that could not be shown. */
export interface ModelInfo {
  file: string;
  /** The sample's id, or null for a file given by a person. */
  sample: string | null;
  url: string | null;
  /** Every material, its role now, why, and whether a person corrected it. */
  roles: { material: string; role: PartRole; reason: string; corrected: boolean }[];
  trees: string[];
  tree: string;
  up: UpAxis | null;
  upDetected: boolean;
  scale: number;
  height: number;
  welded: boolean;
  pieces: number;
  leafPieces: number;
  notes: string[];
  /** Why it is not on show (a model that failed to become a tree, kept so it can be corrected); null when it is. */
  error: string | null;
}

/** A model on show, or loaded and waiting for a correction. */
interface ModelSource {
  readonly loaded: LoadedModel;
  readonly imported: ImportedTree | null;
  readonly url: string | null;
  readonly sample: ModelSample | null;
  readonly options: ImportOptions;
  readonly error: string | null;
  /** For a model not shown: its materials' guessed roles (worked out once). */
  readonly guesses?: readonly { material: string; role: PartRole; reason: string }[];
}

/** The name a grammar without a file name goes by in messages. */
export const UNNAMED_GRAMMAR = "grammar.lsys";
/** The tree name (in the URL and `treeName`) of a grammar that is not a shipped preset. */
export const CUSTOM_TREE = "custom";

export interface SandboxStats {
  fps: number;
  frameMs: number;
  animatorMs: number;
  vertices: number;
  nonFinite: boolean;
  errors: string[];
  /** What the active method wants the stats line to say ("sub-stepping up to ×4 ..."). */
  notes: string[];
}

/** What the panel shows and listens to. */
export interface SandboxListener {
  /** Something changed (tree, method, wind, params, mode): re-read the state. */
  changed(): void;
  /** An error a person should see (bad grammar, out-of-range value, unstable simulation). */
  error(message: string): void;
}

/**
 * Layer bits: view k's meshes and camera carry bit k, so each camera draws its own tree over the
 * shared ground and sky (whose default mask has every view bit). The panel and the view labels
 * are on GUI_LAYER, drawn by a full-canvas camera of their own.
 */
export const GUI_LAYER = 0x10000000;
const VIEW_LAYER = (k: number) => 1 << k;

/** Where a compare view draws: its node, camera and shadow map (issue 8, item 1). */
interface Stage {
  readonly root: TransformNode;
  readonly camera: ArcRotateCamera;
  readonly shadows: ShadowGenerator;
  readonly mask: number;
  /** Null for the first stage, which is the environment's own camera and shadow map. */
  readonly dispose: (() => void) | null;
}

/** One method on show: its copy of the tree, its animator and its stage. */
interface MethodView {
  provider: AnyProvider;
  readonly stage: Stage;
  tree: TreeView;
  animator: Animator<Params> | null;
  /** The plotted tip's last 10 s in this view. */
  readonly tips: TipHistory;
  /** Milliseconds of this frame's steps so far, and the averages per frame: updates, drawing. */
  stepMs: number;
  updateMs: number;
  drawMs: number;
  /** Its shadow map's drawing time in this (timed) frame. */
  shadowMs: number;
  /** updateMs + drawMs as of the last timed frame: what its label shows. */
  shownMs: number;
}

/** What `views()` reports of each view. */
export interface ViewInfo {
  id: string;
  label: string;
  /** Canvas pixels (CSS), y down. */
  cell: ViewCell;
  /**
   * Its own milliseconds per frame: the method's updates and the drawing of its tree and shadow
   * map, as of the last timed frame (every DRAW_TIMING_EVERY frames; 0 before the first).
   */
  frameMs: number;
  updateMs: number;
  drawMs: number;
  focused: boolean;
}

/** The plots' data (issue 8, item 2): the plotted tip in every view. */
export interface PlotData {
  branch: number;
  /** Samples per second. */
  fs: number;
  /** The first view's series (as `views[0]`). */
  along: Float32Array;
  across: Float32Array;
  meanSpeed: number;
  resonanceHz: number | null;
  views: { id: string; along: Float32Array; across: Float32Array; resonanceHz: number | null }[];
}

/** Every this many frames the GPU is waited for around each view's drawing, to time it. */
const DRAW_TIMING_EVERY = 15;

/** The tree as the source defined it, before taper: kept so taper can rebuild without re-deriving. */
interface SourceTree {
  /** Preset name, or CUSTOM_TREE. */
  name: string;
  /** The grammar's file name ("habel.lsys", "oak.lsys"): in messages and on the panel. */
  fileName: string;
  grammar: string;
  depth: number;
  skeleton: TreeSkeleton;
  /** A model made elsewhere (issue 7): its own geometry and materials. */
  model?: ModelSource;
}

/** The tree name (in the URL and `treeName`) of a model given as files or by a URL that is not a sample. */
export const MODEL_TREE = "model";

export class Sandbox {
  readonly scene: Scene;
  readonly env: Environment;
  readonly clock = new FixedClock(1 / 60);
  readonly windField: WindField;
  readonly root: TransformNode;
  private source!: SourceTree;
  private taperValue: number = TAPER_RANGE.default;
  /** The methods on show, 1 to 4 (issue 8, item 1), each with its own copy of the tree. */
  private methodViews: MethodView[] = [];
  /** The methods asked for (kept when the tree cannot be built yet). */
  private providers: AnyProvider[];
  /** The view the panel edits (parameters, branch, commands). */
  private focus = 0;
  private readonly stages: Stage[] = [];
  /** Draws the panel and labels over the whole canvas in compare mode. */
  private readonly guiCamera: ArcRotateCamera;
  private viewInset = 0;
  private cells: ViewCell[] = [];
  /** Canvas width, height, panel inset and view count the cells were laid out for. */
  private readonly layoutFor = new Float64Array(4).fill(NaN);
  /** Counts changes of what views() reports (layout, methods, focus, timed figures), so a reader need not poll it. */
  private viewsChanges = 0;
  /** The scene's mesh count when the views' layer bits were last given, and whether a mesh came since. */
  private meshesTagged = -1;
  private meshAdded = false;
  private drawFrame = 0;
  private drawT0 = 0;
  private pointerCameraHeld = false;
  /**
   * The camera the scene calls active between frames. Babylon leaves the last one drawn (the GUI
   * camera) active, and behaviours (a mesh dragged with the mouse) build their rays and detach
   * camera controls through the active camera: it must be the view's under the pointer.
   */
  private pointerCamera: Camera;
  private readonly paramValues = new Map<string, Params>();
  private mode: RenderMode = "shaded";
  private displayState: DisplaySettings = { ...DEFAULT_DISPLAY };
  private paused = false;
  private lastFrameAt = 0;
  private frameMsAvg = 0;
  private animatorMsAvg = 0;
  private readonly errorLog: string[] = [];
  private readonly listeners: SandboxListener[] = [];
  private hashTimer: ReturnType<typeof setTimeout> | null = null;
  private restoringHash = false;
  /** The wind timeline playing (issue 8, item 3), or null: the wind is what was set. */
  private timeline: WindTimeline | null = null;
  private readonly timelineNow = { speed: 0, direction: 0, gust: 0 };
  /** Fixed steps since the panel was last told the timeline moved the wind. */
  private timelineSteps = 0;
  private recorder: VideoRecorder | null = null;
  /** The plotted tip's branch (-1: the longest) and rest position (issue 8, item 2). */
  private plotBranch = -1;
  private plotted = 0;
  private readonly plotRest = new Float64Array(3);

  constructor(readonly engine: Engine, canvas: HTMLCanvasElement, readonly registry: AnimatorRegistry) {
    this.scene = new Scene(engine);
    this.env = createEnvironment(this.scene, canvas);
    this.root = new TransformNode("tree-root", this.scene);
    this.windField = new WindField({ ...DEFAULT_WIND });
    this.providers = [registry.get(DEFAULT_METHOD)];
    for (const p of registry.list()) this.paramValues.set(p.id, defaultsOf(p.params));
    this.stages.push({ root: this.root, camera: this.env.camera, shadows: this.env.shadows, mask: VIEW_LAYER(0), dispose: null });
    this.env.camera.layerMask = VIEW_LAYER(0);
    this.guiCamera = new ArcRotateCamera("gui-camera", 0, 1, 10, Vector3.Zero(), this.scene);
    this.guiCamera.layerMask = GUI_LAYER;
    this.scene.activeCameras = [this.env.camera, this.guiCamera];
    this.scene.cameraToUseForPointers = this.env.camera;
    this.pointerCamera = this.env.camera;
    this.scene.onAfterRenderObservable.add(() => {
      if (this.scene.activeCamera !== this.pointerCamera) this.scene.activeCamera = this.pointerCamera;
    });
    // Babylon announces a new mesh a tick later; the count catches one made and drawn in one call.
    this.scene.onNewMeshAddedObservable.add(() => (this.meshAdded = true));
    this.scene.onBeforeRenderObservable.add(() => this.beforeRender());
    this.installViewTiming();
    this.installPointerCamera();
  }

  // ---------------------------------------------------------------- compare views (issue 8, item 1)

  /** Before each frame: the layout, the linked cameras, the new meshes' layer bits. */
  private beforeRender(): void {
    this.layout();
    const c0 = this.env.camera;
    for (let k = 1; k < this.stages.length; k++) {
      const c = this.stages[k].camera;
      c.alpha = c0.alpha;
      c.beta = c0.beta;
      c.radius = c0.radius;
      c.fov = c0.fov;
      c.target.copyFrom(c0.target);
    }
    if (this.meshAdded || this.scene.meshes.length !== this.meshesTagged) this.tagMeshes();
  }

  /** Gives every mesh under a view's node that view's layer bit, so only its camera draws it. */
  private tagMeshes(): void {
    this.meshAdded = false;
    const meshes = this.scene.meshes;
    this.meshesTagged = meshes.length;
    for (let i = 0; i < meshes.length; i++) {
      const m = meshes[i];
      for (let n = m.parent; n; n = n.parent) {
        const st = this.stages.find((s) => s.root === n);
        if (st) {
          m.layerMask = st.mask;
          break;
        }
      }
    }
  }

  /** Puts each view's camera on its cell: the canvas right of the panel, split into a grid. */
  private layout(): void {
    const canvas = this.engine.getRenderingCanvas();
    const W = canvas?.clientWidth || this.engine.getRenderWidth(), H = canvas?.clientHeight || this.engine.getRenderHeight();
    const n = this.methodViews.length || 1;
    const f = this.layoutFor;
    if (f[0] === W && f[1] === H && f[2] === this.viewInset && f[3] === n) return;
    f[0] = W;
    f[1] = H;
    f[2] = this.viewInset;
    f[3] = n;
    this.viewsChanges++;
    // One view fills the canvas (the panel floats over it, as before); more share what is right of the panel.
    this.cells = n === 1 ? [{ x: 0, y: 0, width: W, height: H }] : compareCells(n, W, H, this.viewInset);
    for (let k = 0; k < this.stages.length; k++) {
      const c = this.cells[k] ?? this.cells[0];
      this.stages[k].camera.viewport = new Viewport(c.x / W, 1 - (c.y + c.height) / H, c.width / W, c.height / H);
    }
    this.scene.cameraToUseForPointers = n === 1 ? this.env.camera : this.guiCamera;
    this.pointerCamera = this.env.camera;
  }

  /** The pixels on the left the panel covers (0 when it is hidden or left out of a video). */
  setViewInset(px: number): void {
    this.viewInset = Math.max(0, px);
  }

  /**
   * Picking uses the camera under the pointer (held from a press to its release): the panel's
   * and the labels' full-canvas camera over the panel, a view's camera over its cell, so a click
   * or drag in the scene picks in the view it is in.
   */
  private installPointerCamera(): void {
    this.scene.onPrePointerObservable.add((pi) => {
      if (this.methodViews.length < 2) return;
      if (pi.type === PointerEventTypes.POINTERUP) {
        this.pointerCameraHeld = false;
        return;
      }
      if (this.pointerCameraHeld) return;
      if (pi.type === PointerEventTypes.POINTERDOWN) this.pointerCameraHeld = true;
      const x = this.scene.pointerX, y = this.scene.pointerY;
      const k = x < this.viewInset ? -1 : cellAt(this.cells, x, y);
      this.scene.cameraToUseForPointers = k >= 0 ? this.stages[k].camera : this.guiCamera;
      this.pointerCamera = k >= 0 ? this.stages[k].camera : this.env.camera;
      this.scene.activeCamera = this.pointerCamera;
    }, undefined, true);
  }

  /**
   * Each view's own ms per frame: its method's updates (timed every step) and, every
   * DRAW_TIMING_EVERY frames, the drawing of its camera and its shadow map with the GPU waited
   * for before and after (WebGL queues work; without the wait the times would be the CPU's only).
   * What the views share (clearing the canvas, switching between the shadow maps and the canvas)
   * is nobody's: a camera's time starts after the shadow maps, so the first view, whose pass
   * draws them all, is not charged for them.
   */
  private installViewTiming(): void {
    const gl = (this.engine as unknown as { _gl?: WebGLRenderingContext })._gl;
    // Reading a pixel waits for the GPU to finish the work queued before it (Chromium's finish() does not).
    const pixel = new Uint8Array(4);
    const finish = () => gl?.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    const viewOfCamera = (c: Camera | null) => this.methodViews.find((v) => v.stage.camera === c);
    const timing = () => this.methodViews.length > 1 && this.drawFrame === 0;
    this.scene.onBeforeRenderObservable.add(() => {
      this.drawFrame = (this.drawFrame + 1) % DRAW_TIMING_EVERY;
    });
    const start = () => {
      if (!timing()) return;
      finish();
      this.drawT0 = performance.now();
    };
    this.scene.onBeforeCameraRenderObservable.add(start);
    // Inside each camera's pass, after the render targets (the first camera's: every shadow map).
    this.scene.onAfterRenderTargetsRenderObservable.add(start);
    this.scene.onAfterCameraRenderObservable.add((c) => {
      if (!timing()) return;
      finish();
      const v = viewOfCamera(c);
      if (!v) return;
      v.drawMs = ema(v.drawMs, performance.now() - this.drawT0 + v.shadowMs);
      v.shadowMs = 0;
      v.shownMs = v.updateMs + v.drawMs;
      this.viewsChanges++;
    });
    // Shadow maps are drawn inside the first camera's pass: each is timed (outside its own
    // framebuffer, where the canvas's pixel can be read) and given to its view.
    const shadowTimer = (k: number) => {
      let t0 = 0;
      const map = this.stages[k].shadows.getShadowMap();
      if (!map) return;
      map.onBeforeBindObservable.add(() => {
        if (!timing()) return;
        finish();
        t0 = performance.now();
      });
      map.onAfterUnbindObservable.add(() => {
        if (!timing()) return;
        finish();
        const v = this.methodViews[k];
        if (v) v.shadowMs += performance.now() - t0;
      });
    };
    this.shadowTimer = shadowTimer;
    shadowTimer(0);
  }
  private shadowTimer: ((k: number) => void) | null = null;

  /** Stages for n views: the first is the environment's; more are made or disposed as needed. */
  private ensureStages(n: number): void {
    while (this.stages.length < n) {
      const k = this.stages.length;
      const { camera, shadows, dispose } = this.env.addView(`view-camera-${k}`);
      camera.layerMask = VIEW_LAYER(k);
      const root = new TransformNode(`tree-root-${k}`, this.scene);
      this.stages.push({ root, camera, shadows, mask: VIEW_LAYER(k), dispose: () => {
        dispose();
        root.dispose();
      } });
      this.shadowTimer?.(k);
    }
    while (this.stages.length > n) this.stages.pop()!.dispose?.();
    this.scene.activeCameras = [...this.stages.map((s) => s.camera), this.guiCamera];
    this.layoutFor[0] = NaN;
  }

  /** Changes whenever what views() reports may have. */
  get viewsVersion(): number {
    return this.viewsChanges;
  }

  /** The views on show: method, cell, own ms per frame. */
  views(): ViewInfo[] {
    this.layout();
    return this.methodViews.map((v, k) => ({
      id: v.provider.id, label: v.provider.label, cell: { ...(this.cells[k] ?? this.cells[0] ?? { x: 0, y: 0, width: 0, height: 0 }) },
      frameMs: round3(v.shownMs), updateMs: round3(v.updateMs), drawMs: round3(v.drawMs), focused: k === this.focus,
    }));
  }

  /** The first view's tree (every view shows a copy of the same tree). */
  private get view(): TreeView | null {
    return this.methodViews[0]?.tree ?? null;
  }
  /** The focused view's animator and method: what the panel's parameters, branch and commands act on. */
  private get animator(): Animator<Params> | null {
    return this.methodViews[this.focus]?.animator ?? null;
  }
  private get provider(): AnyProvider {
    return this.providers[this.focus] ?? this.providers[0];
  }

  /** The ids of the methods on show, in view order. */
  get methodIds(): string[] {
    return this.providers.map((p) => p.id);
  }

  /** The view the panel edits; its method's parameters, branch and commands. */
  get focusedView(): number {
    return this.focus;
  }

  focusView(k: number): void {
    if (!(Number.isInteger(k) && k >= 0 && k < this.methodViews.length)) {
      const e = new RangeError(`view must be from 0 to ${this.methodViews.length - 1}; got ${k}`);
      this.reportError(e.message);
      throw e;
    }
    this.focus = k;
    this.viewsChanges++;
    this.changed();
  }

  /** The camera of the view under canvas point (x, y), or null when the point is on no view. */
  private cameraAt(x: number, y: number): Camera | null {
    if (this.methodViews.length < 2) return this.env.camera;
    const k = cellAt(this.cells, x, y);
    return k >= 0 ? this.stages[k].camera : null;
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Builds the first tree (from the URL hash when it names one) and starts the render loop; then
   * loads the model the address names (`?model=<url>`, `#model=<url>`, or a sample's id as the tree).
   */
  async start(hash: string, search = ""): Promise<void> {
    this.restoringHash = true;
    const s = parseHash(hash);
    const modelUrl = new URLSearchParams(search).get("model") ?? s.model;
    const sampleId = s.tree !== undefined && modelSample(s.tree) ? s.tree : undefined;
    if (sampleId) s.tree = undefined;
    const warn = (e: unknown) => this.reportError(`The page address asked for something the sandbox cannot do: ${messageOf(e)}`);
    try {
      if (Object.keys(s.wind).length) this.windField.set(s.wind as unknown as Partial<WindSettings>);
    } catch (e) {
      warn(e);
    }
    for (const [id, patch] of Object.entries(s.params)) {
      try {
        const p = this.registry.get(id);
        this.paramValues.set(id, { ...this.paramValues.get(id)!, ...validatePatch(id, p.params, patch) });
      } catch (e) {
        warn(e);
      }
    }
    if (s.method) {
      try {
        this.providers = this.checkMethods(s.method.split(","));
      } catch (e) {
        warn(e);
      }
    }
    if (s.mode && (RENDER_MODES as readonly string[]).includes(s.mode)) this.mode = s.mode as RenderMode;
    if (s.timeline !== undefined) {
      try {
        const tl = parseTimeline(s.timeline);
        validateTimeline(tl);
        this.timeline = tl;
      } catch (e) {
        warn(e);
      }
    }
    this.applyDisplay({ ...DEFAULT_DISPLAY, ...s.display });
    const preset = s.tree && TREE_PRESETS.some((p) => p.name === s.tree) ? s.tree : DEFAULT_TREE;
    if (s.tree && preset !== s.tree) warn(new Error(`no tree named "${s.tree}"; showing "${DEFAULT_TREE}"`));
    try {
      this.buildTree(preset, `${preset}.lsys`, presetText(preset), s.depth ?? presetDepth(preset), s.taper ?? TAPER_RANGE.default);
    } catch (e) {
      warn(e);
      this.buildTree(DEFAULT_TREE, `${DEFAULT_TREE}.lsys`, presetText(DEFAULT_TREE), presetDepth(DEFAULT_TREE), TAPER_RANGE.default);
    }
    this.restoringHash = false;
    this.writeHashSoon();

    this.lastFrameAt = performance.now();
    this.engine.runRenderLoop(() => this.frame());
    await this.scene.whenReadyAsync();
    await new Promise<void>((resolve) => this.scene.onAfterRenderObservable.addOnce(() => resolve()));
    this.startModel = modelUrl ? { url: modelUrl } : sampleId ? { preset: sampleId } : null;
  }

  /** The model the page address named, if any. */
  private startModel: TreeSource | null = null;

  /**
   * Loads the model the page address named (`?model=<url>`, `#model=<url>`, a sample's id as the
   * tree), once the panel is up to show its progress and any error; the tree built by start() stays
   * if it cannot be loaded.
   */
  async loadStartModel(): Promise<void> {
    const src = this.startModel;
    this.startModel = null;
    if (src) await this.loadTree(src).catch(() => undefined);
  }

  addListener(l: SandboxListener): void {
    this.listeners.push(l);
  }

  private frame(): void {
    const now = performance.now();
    const elapsed = (now - this.lastFrameAt) / 1000;
    this.frameMsAvg = ema(this.frameMsAvg, now - this.lastFrameAt);
    this.lastFrameAt = now;
    if (!this.paused) {
      const n = this.clock.stepsFor(elapsed);
      for (let i = 0; i < n; i++) this.advance();
      this.endFrameTiming(n > 0);
    }
    this.scene.render();
  }

  /** Each view's update time this frame into its average (frames without a step keep it). */
  private endFrameTiming(stepped: boolean): void {
    for (const v of this.methodViews) {
      if (stepped) v.updateMs = ema(v.updateMs, v.stepMs);
      v.stepMs = 0;
    }
  }

  /** One fixed step of every method on show, in the same wind at the same time. */
  private advance(): void {
    this.clock.tick();
    if (this.timeline) this.playTimeline();
    const t0 = performance.now();
    for (let k = 0; k < this.methodViews.length; k++) {
      const v = this.methodViews[k], a = v.animator;
      if (!a) continue;
      const t = performance.now();
      try {
        a.update(this.clock.dt);
        // An unstable simulation is stopped with a message, not drawn as NaN.
        if (a.stats().nonFinite) throw new Error(`its state went non-finite (NaN or infinity) at t = ${this.clock.time.toFixed(2)} s`);
        this.recordTip(v);
      } catch (e) {
        this.failAnimator(k, e);
      }
      v.stepMs += performance.now() - t;
    }
    this.animatorMsAvg = ema(this.animatorMsAvg, performance.now() - t0);
  }

  /**
   * Stops (hold) or restarts the render loop. A frame-exact video draws each frame itself; frames
   * the loop would draw in between cost as much and are not used.
   */
  holdRenderLoop(hold: boolean): void {
    if (hold) this.engine.stopRenderLoop();
    else {
      this.lastFrameAt = performance.now();
      this.engine.runRenderLoop(() => this.frame());
    }
  }

  /** Sets what makes videos (main.ts gives it the canvas, the panel and the progress line). */
  setRecorder(r: VideoRecorder): void {
    this.recorder = r;
  }

  get videoRecorder(): VideoRecorder | null {
    return this.recorder;
  }

  /** A video of the view (app/record/recorder.ts); errors are shown and rejected. */
  async record(opts: RecordOptions): Promise<RecordResult> {
    try {
      if (!this.recorder) throw new Error("video recording is not set up in this page");
      return await this.recorder.record(opts);
    } catch (e) {
      this.reportError(`Recording failed: ${messageOf(e)}`);
      throw e;
    }
  }

  /** What a video's caption says: the method, the wind (preset, timeline or speed and direction), the seed. */
  caption(): string {
    const w = this.windField.settings();
    let wind: string;
    if (this.timeline) wind = `wind timeline (${this.timeline.keys.length} keys, ${this.timeline.loop ? "loop" : "once"})`;
    else {
      const p = presetOf(w.speed);
      wind = `${p ? p.label.split(" (")[0].toLowerCase() + ", " : ""}wind ${w.speed.toFixed(1)} m/s toward ${w.direction.toFixed(0)}°`;
    }
    return `${this.providers.map((p) => p.id).join(" | ")} · ${wind} · seed ${w.seed} · ${this.source.name === CUSTOM_TREE ? this.source.fileName : this.source.name}`;
  }

  /** The plotted tip's displacement this step in a view, along and across the wind. */
  private recordTip(v: MethodView): void {
    const p = v.animator!.probe(), b = this.plotted, r = this.plotRest;
    if (3 * b + 2 >= p.length) return;
    const a = (this.windField.direction * Math.PI) / 180;
    v.tips.push(p[3 * b] - r[0], p[3 * b + 2] - r[2], Math.cos(a), Math.sin(a));
  }

  /** Starts the plotted tip's history afresh: the chosen branch (or the longest) and its rest position. */
  private resetTipHistory(): void {
    for (const v of this.methodViews) v.tips.clear();
    const s = this.view?.skeleton;
    if (!s) return;
    let b = this.plotBranch;
    if (!(b >= 0 && b < s.branchCount)) {
      b = 0;
      for (let i = 1; i < s.branchCount; i++) if (s.branchLength[i] > s.branchLength[b]) b = i;
    }
    this.plotted = b;
    const n = tipNode(s, b);
    for (let c = 0; c < 3; c++) this.plotRest[c] = s.nodePosition[3 * n + c];
  }

  /** The branch whose tip the plots follow (-1: the longest, the default); clears its history. */
  setPlotTip(branch: number): void {
    const count = this.view?.skeleton.branchCount ?? 0;
    if (!(Number.isInteger(branch) && branch >= -1 && branch < count)) {
      const e = new RangeError(`the plotted tip must be a branch from 0 to ${count - 1}, or -1 for the longest branch; got ${branch}`);
      this.reportError(e.message);
      throw e;
    }
    this.plotBranch = branch;
    this.resetTipHistory();
    this.changed();
  }

  /**
   * What the plots show, for every view: the plotted tip's displacement along and across the wind
   * over the last 10 s (oldest first, 60 samples a second) and the branch's resonance frequency
   * where the method has one (spectral-beam's f_h, Habel 2009 eq. 17); and the mean wind speed.
   * `along`, `across` and `resonanceHz` at the top are the first view's.
   */
  plotData(): PlotData {
    const series = this.methodViews.map((v) => {
      const n = v.tips.length;
      const along = new Float32Array(n), across = new Float32Array(n);
      v.tips.read(along, across);
      let resonanceHz: number | null = null;
      const f = v.animator?.branches?.info(this.plotted)?.["f_h (Hz)"];
      if (typeof f === "number" && Number.isFinite(f)) resonanceHz = f;
      return { id: v.provider.id, along, across, resonanceHz };
    });
    const first = series[0] ?? { along: new Float32Array(0), across: new Float32Array(0), resonanceHz: null };
    return { branch: this.plotted, fs: 1 / this.clock.dt, along: first.along, across: first.across, meanSpeed: this.windField.meanSpeed, resonanceHz: first.resonanceHz, views: series };
  }

  /** The timeline's wind at the clock's time; the panel hears of it a few times a second. */
  private playTimeline(): void {
    const w = this.timelineNow;
    timelineAt(this.timeline!, this.clock.time, w);
    this.windField.setMean(w.speed, w.direction, w.gust);
    if (++this.timelineSteps >= 10) {
      this.timelineSteps = 0;
      for (const l of this.listeners) l.changed();
    }
  }

  /** The wind timeline playing, or null. */
  get windTimeline(): WindTimeline | null {
    return this.timeline;
  }

  /**
   * Plays a wind timeline (keyframes of speed, direction and gust; validated, with a message a
   * person can act on), or stops it (null: the wind stays where the timeline left it). It plays
   * on the host's clock, which restarts with the method.
   */
  setWindTimeline(tl: WindTimeline | null): void {
    try {
      if (tl !== null) validateTimeline(tl);
    } catch (e) {
      this.reportError(messageOf(e));
      throw e;
    }
    this.timeline = tl === null ? null : { loop: tl.loop, keys: tl.keys.map((k) => ({ ...k })) };
    if (this.timeline) this.playTimeline();
    this.changed();
  }

  /** A Beaufort preset (calm, light-breeze, ..., storm): its mean speed, turbulence and gusts; stops a timeline. */
  setWindPreset(id: string): void {
    let p: WindPreset;
    try {
      p = windPreset(id);
    } catch (e) {
      this.reportError(messageOf(e));
      throw e;
    }
    this.timeline = null;
    this.setWind({ speed: p.speed, turbulence: p.turbulence, gust: p.gust });
  }

  /**
   * A method that throws or goes non-finite is replaced by `rest` in its view, with a message;
   * the app and the other views keep running.
   */
  private failAnimator(k: number, e: unknown): void {
    const v = this.methodViews[k], p = v.provider;
    const where = this.methodViews.length > 1 ? ` (view ${k + 1})` : "";
    this.reportError(`${p.label}${where} stopped: ${messageOf(e)}. Showing the tree at rest; change a parameter and pick the method again.`);
    v.animator?.dispose();
    v.animator = null;
    if (p.id === "rest") return;
    const rest = this.registry.get("rest");
    v.provider = rest;
    this.providers[k] = rest;
    v.animator = this.createAnimator(v);
    v.tree.applyRenderMode();
    this.changed();
  }

  // ---------------------------------------------------------------- tree

  /** `depth` undefined: the grammar's own `#depth`. */
  private buildTree(name: string, fileName: string, grammar: string, depth: number | undefined, taper: number): TreeSummary {
    // A grammar error throws here (located in `fileName`), before anything is replaced.
    depth ??= parseGrammar(grammar, fileName).depth;
    if (!Number.isInteger(depth) || depth < DEPTH_RANGE.min || depth > DEPTH_RANGE.max) {
      throw new RangeError(`depth must be a whole number from ${DEPTH_RANGE.min} to ${DEPTH_RANGE.max}; got ${depth}`);
    }
    if (!(taper >= TAPER_RANGE.min && taper <= TAPER_RANGE.max)) {
      throw new RangeError(`taper must be a number from ${TAPER_RANGE.min} to ${TAPER_RANGE.max}; got ${taper}`);
    }
    // Derive first: a grammar error or an exploding depth throws here, before anything is replaced.
    const skeleton = grammarToSkeleton(grammar, { depth, seed: 1, fileName });
    return this.rebuild({ name, fileName, grammar, depth, skeleton }, taper);
  }

  /** Applies taper to the source skeleton, rebuilds the meshes and restarts the method on them. */
  private rebuild(source: SourceTree, taper: number): TreeSummary {
    const imported = source.model?.imported;
    // A model keeps its own bark: taper shapes trees grown from grammars.
    const skeleton = imported ? imported.skeleton : applyTaper(source.skeleton, taper);
    const geometry = imported ? imported.geometry : buildTreeGeometry(skeleton);
    if (geometry.vertexCount > MAX_TREE_VERTICES) {
      throw new RangeError(
        `${source.name === CUSTOM_TREE ? source.fileName : source.name} at depth ${source.depth} would have ${(geometry.vertexCount / 1e6).toFixed(1)} million vertices ` +
          `(budget ${MAX_TREE_VERTICES.toLocaleString("en-US")}); lower the depth`,
      );
    }
    // Nothing has been replaced until here: an error above leaves the tree the person had.
    this.disposeViews();
    const old = this.source?.model;
    if (old && old.loaded !== source.model?.loaded) old.loaded.dispose();
    // A model that failed is forgotten once another tree is shown (unless it is the one shown).
    if (this.pendingModel && this.pendingModel.loaded !== source.model?.loaded && this.pendingModel.loaded !== old?.loaded) this.pendingModel.loaded.dispose();
    this.pendingModel = null;
    this.source = source;
    this.taperValue = taper;
    const m = source.model;
    const look = m && imported ? { bark: m.loaded.looks.get(imported.woodMaterial)!, leaves: imported.leafMaterial !== null ? m.loaded.looks.get(imported.leafMaterial) ?? null : null } : null;
    this.tree0 = { skeleton, geometry, look };
    this.env.frame(treeHeight(skeleton));
    this.switchTo(this.providers);
    return this.summary();
  }

  /** The tree every view shows a copy of (skeleton and geometry are shared, read-only). */
  private tree0: { skeleton: TreeSkeleton; geometry: ReturnType<typeof buildTreeGeometry>; look: TreeLook | null } | null = null;

  /** Disposes every view's animator and tree meshes. */
  private disposeViews(): void {
    for (const v of this.methodViews) {
      v.animator?.dispose();
      v.animator = null;
      v.tree.dispose();
    }
    this.methodViews = [];
  }

  summary(): TreeSummary {
    const s = this.tree0!.skeleton;
    const out: TreeSummary & { model?: ModelInfo } = { branches: s.branchCount, levels: s.levels, leaves: s.leafCount, vertices: this.tree0!.geometry.vertexCount, tips: s.branchCount, height: round3(treeHeight(s)) };
    if (this.source.model) out.model = this.modelInfo()!;
    return out;
  }

  /** A model made elsewhere is on show (not a tree grown from a grammar). */
  get isModel(): boolean {
    return this.source?.model !== undefined;
  }

  /** The preset on show, or "custom" for a grammar loaded as text or from a file. */
  get treeName(): string {
    return this.source.name;
  }
  /** The file name of the grammar on show: "habel.lsys" for a preset, the loaded file's name, or "grammar.lsys". */
  get grammarName(): string {
    return this.source.fileName;
  }
  get depth(): number {
    return this.source.depth;
  }
  get taper(): number {
    return this.taperValue;
  }
  get renderMode(): RenderMode {
    return this.mode;
  }
  get methodId(): string {
    return this.provider.id;
  }
  get activeProvider(): AnyProvider {
    return this.provider;
  }
  get tree(): TreeView | null {
    return this.view;
  }
  get activeAnimator(): Animator<Params> | null {
    return this.animator;
  }

  // ---------------------------------------------------------------- methods

  /**
   * Shows the methods, one view each, on copies of the tree, from rest at t = 0 with the same
   * seed. Views are kept where the count allows (their meshes are reused) and made or dropped
   * to match.
   */
  private switchTo(providers: AnyProvider[]): void {
    for (const v of this.methodViews) {
      v.animator?.dispose();
      v.animator = null;
    }
    const t = this.tree0!;
    while (this.methodViews.length > providers.length) this.methodViews.pop()!.tree.dispose();
    this.ensureStages(providers.length);
    while (this.methodViews.length < providers.length) {
      const stage = this.stages[this.methodViews.length];
      const tree = new TreeView(t.skeleton, t.geometry, this.scene, stage.root, stage.shadows, t.look);
      tree.setRenderMode(this.mode);
      tree.setBarkTexture(this.displayState.barkTexture);
      tree.setHierarchyOverlay(this.displayState.hierarchy);
      this.methodViews.push({ provider: providers[0], stage, tree, animator: null, tips: new TipHistory(600), stepMs: 0, updateMs: 0, drawMs: 0, shadowMs: 0, shownMs: 0 });
    }
    this.providers = [...providers];
    this.focus = Math.min(this.focus, providers.length - 1);
    // The third frame is timed, so the labels have figures soon; not the first, which compiles
    // the views' shaders (and would charge the first view for every view's).
    this.drawFrame = DRAW_TIMING_EVERY - 3;
    this.clock.reset();
    this.resetTipHistory();
    if (this.timeline) this.playTimeline(); // the wind at t = 0
    this.animatorMsAvg = 0;
    for (let k = 0; k < providers.length; k++) {
      const v = this.methodViews[k];
      v.provider = providers[k];
      v.updateMs = v.drawMs = v.stepMs = v.shadowMs = v.shownMs = 0;
      v.animator = this.createAnimator(v);
      v.tree.applyRenderMode();
    }
    this.tagMeshes();
    this.viewsChanges++;
    this.changed();
  }

  private createAnimator(v: MethodView): Animator<Params> {
    const stage = v.stage;
    return v.provider.create(
      {
        scene: this.scene, tree: v.tree, wind: this.windField, rng: new Rng(this.windField.settings().seed), root: stage.root, clock: this.clock,
        // A method frames the camera (a grove): the first view's, which the others follow.
        host: { setWind: (patch) => this.setWind(patch), frame: (height, width) => this.env.frame(height, width) },
      },
      this.paramValues.get(v.provider.id)!,
    );
  }

  /** The methods as providers: 1 to MAX_VIEWS known ids (throws naming the methods). */
  private checkMethods(ids: unknown): AnyProvider[] {
    const list = typeof ids === "string" ? [ids] : ids;
    if (!Array.isArray(list) || list.length < 1 || list.length > MAX_VIEWS) {
      throw new RangeError(`use() takes one method id, or 2 to ${MAX_VIEWS} ids to compare side by side; got ${JSON.stringify(ids)}`);
    }
    return list.map((id) => {
      if (typeof id !== "string") throw new TypeError(`method ids are strings; got ${JSON.stringify(id)}`);
      return this.registry.get(id.trim());
    });
  }

  /** What is drawn besides the tree: bark texture, background (sky and ground), shadows. */
  get display(): DisplaySettings {
    return { ...this.displayState };
  }

  /** Switches the bark texture, the background and the shadows; throws on an unknown key or a non-boolean. */
  setDisplay(patch: Partial<DisplaySettings>): void {
    try {
      if (typeof patch !== "object" || patch === null) throw new TypeError("display() takes an object such as { shadows: false }");
      for (const [k, v] of Object.entries(patch)) {
        if (!(k in DEFAULT_DISPLAY)) throw new RangeError(`display has no setting "${k}"; its settings are: ${Object.keys(DEFAULT_DISPLAY).join(", ")}`);
        if (typeof v !== "boolean") throw new RangeError(`display.${k} must be true or false; got ${JSON.stringify(v)}`);
      }
    } catch (e) {
      this.reportError(messageOf(e));
      throw e;
    }
    this.applyDisplay({ ...this.displayState, ...patch });
    this.changed();
  }

  private applyDisplay(d: DisplaySettings): void {
    this.displayState = { ...d };
    this.env.setBackground(d.background);
    this.env.setShadows(d.shadows);
    for (const v of this.methodViews) {
      v.tree.setBarkTexture(d.barkTexture);
      v.tree.setHierarchyOverlay(d.hierarchy);
    }
  }

  setRenderMode(mode: RenderMode): void {
    if (!RENDER_MODES.includes(mode)) throw new RangeError(`render mode must be one of ${RENDER_MODES.join(", ")}; got ${JSON.stringify(mode)}`);
    this.mode = mode;
    for (const v of this.methodViews) v.tree.setRenderMode(mode);
    this.changed();
  }

  // ---------------------------------------------------------------- automation API

  /** The stable automation API (ARCHITECTURE.md); `window.sandbox`. */
  api(ready: Promise<void>) {
    return {
      ready,
      animators: () => this.registry.list().map((p) => ({ id: p.id, label: p.label })),
      use: (ids: string | string[]) => this.use(ids),
      wind: (patch?: Partial<WindSettings>): WindSettings => {
        if (patch) this.setWind(patch);
        return this.windField.settings();
      },
      params: (id: string, patch?: Record<string, number | boolean | string>) => {
        if (patch) this.setParams(id, patch);
        return this.getParams(id);
      },
      loadTree: (src: TreeSource) => this.loadTree(src),
      display: (patch?: Partial<DisplaySettings>): DisplaySettings => {
        if (patch !== undefined) this.setDisplay(patch);
        return this.display;
      },
      trees: () => [...TREE_PRESETS.map((p) => p.name), ...MODEL_SAMPLES.map((m) => m.id)],
      model: () => this.modelInfo(),
      loadProgress: () => this.loadProgress(),
      pause: () => this.pause(),
      resume: () => this.resume(),
      step: (frames: number) => this.step(frames),
      probe: () => Array.from(this.methodViews[0]?.animator?.probe() ?? []),
      views: () => this.views(),
      stats: () => this.stats(),
      record: (opts: RecordOptions) => this.record(opts),
      windPreset: (id: string) => this.setWindPreset(id),
      windTimeline: (tl?: WindTimeline | null) => {
        if (tl !== undefined) this.setWindTimeline(tl);
        return this.timeline ? { loop: this.timeline.loop, keys: this.timeline.keys.map((k) => ({ ...k })) } : null;
      },
      plotTip: (branch?: number) => {
        if (branch !== undefined) this.setPlotTip(branch);
        return this.plotted;
      },
      actions: () => this.actionList(),
      action: (id: string) => this.runAction(id),
      branch: (index?: number, patch?: Record<string, number | null>) => {
        if (index !== undefined) {
          this.selectBranch(index);
          if (patch && index >= 0) this.editBranch(index, patch);
        }
        const b = this.selectedBranch;
        return b >= 0 ? this.branchInfo(b) : null;
      },
    };
  }

  // ---------------------------------------------------------------- the method's commands

  /** The active method's commands (Van Haevre's "record", the recordings to play), as plain objects. */
  actionList(): { id: string; label: string; help: string; enabled: boolean; active: boolean }[] {
    return (this.animator?.actions?.list() ?? []).map((a) => ({ id: a.id, label: a.label, help: a.help, enabled: a.enabled, active: a.active ?? false }));
  }

  /** Runs one of the active method's commands; throws (and shows why) on an unknown or disabled one. */
  runAction(id: string): void {
    try {
      const actions = this.animator?.actions;
      if (!actions) throw new RangeError(`${this.provider.label} has no commands (mass-spring has: record, use a recording)`);
      actions.run(id);
    } catch (e) {
      this.reportError(messageOf(e));
      throw e;
    }
    this.changed();
  }

  /** Long work the active method has under way (a recording), for a progress bar; null when none. */
  actionProgress(): { text: string; fraction: number } | null {
    return this.animator?.actions?.progress() ?? null;
  }

  // ---------------------------------------------------------------- selected branch (Habel 2009 Fig. 11)

  private branchEditor(): BranchEditor {
    const e = this.animator?.branches;
    if (!e) throw new Error(`${this.provider.label} has no per-branch controls; pick a method that has them (spectral-beam)`);
    return e;
  }

  /** The selected branch of the active method, -1 for none (or when the method has no selection). */
  get selectedBranch(): number {
    return this.animator?.branches?.selected() ?? -1;
  }

  /** Selects (highlights) a branch; -1 clears. Throws when the method has no per-branch controls. */
  selectBranch(branch: number): void {
    try {
      const count = this.view?.skeleton.branchCount ?? 0;
      if (!(Number.isInteger(branch) && branch >= -1 && branch < count)) throw new RangeError(`branch must be an integer from 0 to ${count - 1}, or -1 for none; got ${branch}`);
      this.branchEditor().select(branch);
    } catch (e) {
      this.reportError(messageOf(e));
      throw e;
    }
    this.changed();
  }

  /** Overrides the selected branch's parameters (the method's branch controls; null resets one). */
  editBranch(branch: number, patch: Record<string, number | null>): void {
    try {
      const editor = this.branchEditor();
      for (const key of Object.keys(patch)) {
        if (!(key in editor.controls)) throw new RangeError(`unknown branch parameter "${key}"; the parameters are: ${Object.keys(editor.controls).join(", ")}`);
      }
      editor.edit(branch, patch);
    } catch (e) {
      this.reportError(messageOf(e));
      throw e;
    }
    this.changed();
  }

  branchInfo(branch: number): Record<string, number | boolean | string> {
    return this.branchEditor().info(branch);
  }

  /**
   * The branch under a canvas point (CSS pixels), by picking the tree's meshes at rest and reading
   * the picked vertex's branch index; -1 when the point misses the tree.
   */
  branchAt(x: number, y: number): number {
    // The view under the point, picked with its own camera (every view shows the same tree).
    const camera = this.cameraAt(x, y);
    const view = this.methodViews.find((v) => v.stage.camera === camera)?.tree;
    if (!view || !camera) return -1;
    const meshes = new Set<AbstractMesh>(view.displayedMeshes());
    const hit = this.scene.pick(x, y, (m) => meshes.has(m), false, camera);
    if (!hit?.hit || !hit.pickedMesh || hit.faceId < 0) return -1;
    const mesh = hit.pickedMesh as Mesh;
    const indices = mesh.getIndices();
    const branch = mesh.getVerticesData(BINDING_ATTRIBUTES.branchIndex);
    if (!indices || !branch) return -1;
    return Math.round(branch[indices[3 * hit.faceId]]);
  }

  /**
   * One id: a single view. 2 to 4 ids: side by side (issue 8, item 1), the same tree, wind, seed
   * and clock, cameras linked. Restarts the clock at t = 0 from rest.
   */
  async use(ids: string | string[]): Promise<void> {
    try {
      const providers = this.checkMethods(ids);
      if (providers.length !== this.methodViews.length) this.focus = 0;
      this.switchTo(providers);
    } catch (e) {
      this.reportError(messageOf(e));
      throw e;
    }
  }

  /** Adds a view (the first method not on show); the new view gets the panel's focus. */
  async addView(id?: string): Promise<void> {
    const ids = this.methodIds;
    const next = id ?? this.registry.ids().find((m) => !ids.includes(m) && m !== "rest") ?? ids[0];
    await this.use([...ids, next]);
    this.focus = ids.length;
    this.viewsChanges++;
    this.changed();
  }

  /** Removes view k (at least one stays). */
  removeView(k: number): Promise<void> {
    const ids = this.methodIds;
    if (ids.length < 2) return Promise.reject(this.refuse(new RangeError("the last view cannot be removed; pick another method instead")));
    if (!(Number.isInteger(k) && k >= 0 && k < ids.length)) return Promise.reject(this.refuse(new RangeError(`view must be from 0 to ${ids.length - 1}; got ${k}`)));
    ids.splice(k, 1);
    this.focus = Math.min(this.focus > k ? this.focus - 1 : this.focus, ids.length - 1);
    return this.use(ids);
  }

  /** Shows the focused view's method as `id`, keeping the others. */
  setFocusedMethod(id: string): Promise<void> {
    const ids = this.methodIds;
    ids[this.focus] = id;
    return this.use(ids);
  }

  private refuse(e: Error): Error {
    this.reportError(e.message);
    return e;
  }

  getParams(id: string): Params {
    this.registry.get(id); // throws on an unknown id, naming the methods
    return { ...this.paramValues.get(id)! };
  }

  setWind(patch: Partial<WindSettings>): void {
    this.windField.set(patch); // validates: throws RangeError naming the range
    // Setting the speed, direction or gusts by hand takes over from a timeline.
    if (this.timeline && ("speed" in patch || "direction" in patch || "gust" in patch)) this.timeline = null;
    this.changed();
  }

  setParams(id: string, patch: Record<string, unknown>): void {
    const p = this.registry.get(id);
    const valid = validatePatch(id, p.params, patch);
    // The method first (in every view that shows it): a value it refuses is shown and not kept
    // (in the URL, for the next start).
    for (const v of this.methodViews) {
      if (!v.animator || v.provider.id !== id) continue;
      try {
        v.animator.setParams(valid);
      } catch (e) {
        this.reportError(`${p.label} refused ${JSON.stringify(valid)}: ${messageOf(e)}`);
        throw e;
      }
    }
    this.paramValues.set(id, { ...this.paramValues.get(id)!, ...valid });
    this.changed();
  }

  async loadTree(src: TreeSource): Promise<TreeSummary> {
    try {
      if (typeof src !== "object" || src === null) throw new TypeError("loadTree takes an object such as { preset: \"habel\" }, { grammar }, { url } or { files }");
      // A sample by its id, or by its address (its list of files not shipped comes with it).
      const sample = typeof src.preset === "string" ? modelSample(src.preset) : typeof src.url === "string" ? MODEL_SAMPLES.find((m) => m.url === (src.url as string).replace(/^\.?\//, "")) : undefined;
      if (sample && src.url !== undefined) src = { ...src, url: undefined };
      if (sample || src.url !== undefined || src.files !== undefined || src.up !== undefined || src.roles !== undefined || src.object !== undefined) return await this.loadModel(src, sample ?? null);
      if (this.importing) throw new RangeError("a model is loading; wait for it to finish, then change the tree");
      if (src.preset !== undefined && src.grammar !== undefined) throw new RangeError("loadTree takes a preset or a grammar, not both");
      if (src.name !== undefined && src.grammar === undefined) throw new RangeError("loadTree's name goes with a grammar: loadTree({ grammar, name })");
      if (src.grammar !== undefined && typeof src.grammar !== "string") throw new TypeError(`loadTree's grammar must be the grammar's text (a string); got ${typeof src.grammar}`);
      const taper = src.taper ?? this.taperValue;
      let summary: TreeSummary;
      if (src.grammar !== undefined) {
        summary = this.buildTree(CUSTOM_TREE, grammarFileName(src.name), src.grammar, src.depth, taper);
      } else if (src.preset !== undefined) {
        if (!TREE_PRESETS.some((p) => p.name === src.preset)) throw new RangeError(`No tree preset "${src.preset}"; the trees are: ${[...TREE_PRESETS.map((p) => p.name), ...MODEL_SAMPLES.map((m) => m.id)].join(", ")}`);
        summary = this.buildTree(src.preset, `${src.preset}.lsys`, presetText(src.preset), src.depth ?? presetDepth(src.preset), taper);
      } else if (this.source.model && (src.depth !== undefined || src.taper !== undefined)) {
        throw new RangeError(`${this.source.fileName} is a model: derivation depth and taper shape trees grown from grammars; a model keeps its own branches and bark`);
      } else if (src.depth !== undefined && src.depth !== this.source.depth) {
        summary = this.buildTree(this.source.name, this.source.fileName, this.source.grammar, src.depth, taper);
      } else {
        if (!(taper >= TAPER_RANGE.min && taper <= TAPER_RANGE.max)) throw new RangeError(`taper must be a number from ${TAPER_RANGE.min} to ${TAPER_RANGE.max}; got ${taper}`);
        summary = this.rebuild(this.source, taper);
      }
      return summary;
    } catch (e) {
      this.reportError(messageOf(e));
      throw e;
    }
  }

  /** The model on show, or the last one loaded that could not be shown (with why); null when neither. */
  modelInfo(): ModelInfo | null {
    // The one that failed first: the panel's corrections are for it.
    const m = this.pendingModel ?? this.source?.model;
    if (!m) return null;
    const i = m.imported;
    const roles = i ? i.roles.map((r) => ({ material: r.material, role: r.role, reason: r.reason, corrected: r.corrected })) : (m.guesses ?? []).map((g) => ({ material: g.material, role: m.options.roles?.[g.material] ?? g.role, reason: g.reason, corrected: m.options.roles?.[g.material] !== undefined }));
    return {
      file: m.loaded.data.name, sample: m.sample?.id ?? null, url: m.url, roles, trees: i ? [...i.trees] : [], tree: i?.tree ?? "",
      up: i?.up ?? m.options.up ?? null, upDetected: i?.upDetected ?? m.options.up === undefined, scale: i ? round3(i.scale) : 1, height: i ? round3(i.height) : 0,
      welded: i?.welded ?? false, pieces: i?.pieces ?? 0, leafPieces: i?.leafPieces ?? 0, error: m.error,
      // A sample's credit first (CC-BY asks for it wherever the model is shown).
      notes: [...(m.sample ? [`by ${m.sample.credit}`] : []), ...(i ? i.notes : m.loaded.data.warnings)],
    };
  }

  /** A model loaded but not shown (its import failed), kept so its wood and leaves can be corrected. */
  private pendingModel: ModelSource | null = null;
  private importing = false;
  private importProgress: { text: string; fraction: number } | null = null;

  /** Loading and analysing a model, for a progress bar; null when no model is loading. */
  loadProgress(): { text: string; fraction: number } | null {
    return this.importProgress ? { ...this.importProgress } : null;
  }

  private setLoadProgress(p: { text: string; fraction: number } | null): void {
    this.importProgress = p;
    for (const l of this.listeners) l.changed();
  }

  /**
   * Loads a model (issue 7): from files, a URL or a sample; or shows the model on show (or the one
   * that failed) again with corrections (`up`, `roles`, `object`). Nothing is replaced until the
   * new tree is built: a model that cannot be read or has no wood leaves the tree on screen.
   */
  private async loadModel(src: TreeSource, sample: ModelSample | null): Promise<TreeSummary> {
    if (src.grammar !== undefined || src.depth !== undefined) throw new RangeError("a model takes no grammar or depth: loadTree({ url }) or loadTree({ files })");
    if ([src.url !== undefined, src.files !== undefined, sample !== null].filter(Boolean).length > 1) throw new RangeError("loadTree takes one of url, files or preset");
    if (src.url !== undefined && (typeof src.url !== "string" || src.url.trim() === "")) throw new TypeError(`loadTree's url must be the model's address (a string); got ${JSON.stringify(src.url)}`);
    if (src.files !== undefined && (!Array.isArray(src.files) || src.files.length === 0 || !src.files.every((f) => f instanceof Blob && typeof (f as File).name === "string"))) throw new TypeError("loadTree's files must be the model's File objects (from a file chooser or a drop)");
    if (src.up !== undefined && src.up !== "auto" && !UP_AXES.includes(src.up)) throw new RangeError(`up must be "auto" or one of ${UP_AXES.join(", ")}; got ${JSON.stringify(src.up)}`);
    if (this.importing) throw new RangeError("a model is loading; wait for it to finish");
    this.importing = true;
    let fresh: LoadedModel | null = null;
    try {
      let base: { loaded: LoadedModel; url: string | null; sample: ModelSample | null; options: ImportOptions };
      if (src.url !== undefined || src.files !== undefined || sample) {
        const url = sample ? sample.url : src.url ?? null;
        this.setLoadProgress({ text: `reading ${url ? url.split("/").pop() : src.files![0].name}`, fraction: 0 });
        await nextFrame();
        const files: ModelFile[] = src.files ? src.files.map((f) => ({ name: f.name, data: f })) : await fetchModelFiles(url!, sample?.extra ?? [], sample?.absent ?? []);
        fresh = await readModel(files, this.scene, url);
        base = { loaded: fresh, url, sample, options: {} };
      } else {
        const m = this.pendingModel ?? this.source.model;
        if (!m) throw new RangeError("there is no model to correct: load one first (loadTree({ url }), the panel's model button, or drop a file on the view)");
        base = { loaded: m.loaded, url: m.url, sample: m.sample, options: { ...m.options, roles: m.options.roles ? { ...m.options.roles } : undefined } };
      }
      const options = base.options;
      if (src.up !== undefined) options.up = src.up === "auto" ? undefined : src.up;
      if (src.roles !== undefined) {
        if (typeof src.roles !== "object" || src.roles === null) throw new TypeError("roles maps material names to \"wood\", \"leaves\" or \"ignore\"");
        options.roles = { ...options.roles, ...src.roles };
      }
      if (src.object !== undefined) options.tree = src.object;
      let imported: ImportedTree;
      try {
        imported = await importModel(base.loaded.data, options, async (fraction, text) => {
          this.setLoadProgress({ text, fraction });
          await nextFrame();
        });
      } catch (e) {
        // Kept (and not shown) so the person can correct what went wrong: wood, leaves, up; a
        // correction that still fails keeps what was corrected so far.
        if (fresh || (this.pendingModel && this.pendingModel.loaded === base.loaded)) {
          if (fresh && this.pendingModel && this.pendingModel.loaded !== this.source.model?.loaded) this.pendingModel.loaded.dispose();
          const guesses = this.pendingModel?.loaded === base.loaded ? this.pendingModel.guesses : guessRoles(base.loaded.data.primitives);
          this.pendingModel = { ...base, imported: null, error: messageOf(e), guesses };
          fresh = null;
        }
        throw e;
      }
      // A pending model shown now is no longer pending (rebuild would dispose it otherwise).
      if (this.pendingModel?.loaded === base.loaded) this.pendingModel = null;
      const summary = this.rebuild({ name: base.sample?.id ?? MODEL_TREE, fileName: base.loaded.data.name, grammar: "", depth: 0, skeleton: imported.skeleton, model: { ...base, imported, error: null } }, this.taperValue);
      fresh = null;
      return summary;
    } finally {
      fresh?.dispose();
      this.importing = false;
      this.setLoadProgress(null);
    }
  }

  pause(): void {
    this.paused = true;
    this.changed();
  }
  resume(): void {
    this.paused = false;
    this.lastFrameAt = performance.now();
    this.changed();
  }
  get isPaused(): boolean {
    return this.paused;
  }

  /** Advances frames × dt deterministically, then renders once. */
  step(frames: number): void {
    if (!Number.isInteger(frames) || frames < 0 || frames > 100000) throw new RangeError(`step(frames) takes a whole number from 0 to 100000; got ${frames}`);
    for (let i = 0; i < frames; i++) this.advance();
    this.scene.render();
  }

  /** Frame and update times (all views), vertices and state of the focused view, errors, notes. */
  stats(): SandboxStats {
    const a = this.animator?.stats();
    return {
      fps: round3(this.engine.getFps()),
      frameMs: round3(this.frameMsAvg),
      animatorMs: round3(this.animatorMsAvg),
      vertices: this.shownVertices(),
      nonFinite: this.methodViews.some((v) => v.animator?.stats().nonFinite ?? false),
      errors: [...this.errorLog],
      notes: a?.notes ? [...a.notes] : [],
    };
  }

  /** Vertices of the bark and leaves on show in the focused view (a method that draws its own skins may have more than the tree's own meshes). */
  private shownVertices(): number {
    const v = this.methodViews[this.focus]?.tree;
    if (!v) return 0;
    let n = 0;
    for (const role of ["bark", "leaves"] as const) n += v.displayed(role)?.getTotalVertices() ?? 0;
    return n;
  }

  reportError(message: string): void {
    this.errorLog.push(message);
    if (this.errorLog.length > 20) this.errorLog.shift();
    for (const l of this.listeners) l.error(message);
  }

  // ---------------------------------------------------------------- debug hooks for tests

  sceneCounts(): { meshes: number; materials: number; textures: number } {
    return { meshes: this.scene.meshes.length, materials: this.scene.materials.length, textures: this.scene.textures.length };
  }

  projectToScreen(xyz: number[]): number[] {
    const engine = this.engine, camera = this.env.camera;
    const vp = camera.viewport.toGlobal(engine.getRenderWidth(), engine.getRenderHeight());
    const m = camera.getViewMatrix().multiply(camera.getProjectionMatrix());
    const canvas = engine.getRenderingCanvas()!;
    const rect = canvas.getBoundingClientRect();
    const sx = rect.width / engine.getRenderWidth(), sy = rect.height / engine.getRenderHeight();
    const out: number[] = [];
    for (let i = 0; i + 2 < xyz.length; i += 3) {
      const p = Vector3.Project(new Vector3(xyz[i], xyz[i + 1], xyz[i + 2]), Matrix.Identity(), m, vp);
      out.push(rect.left + p.x * sx, rect.top + p.y * sy);
    }
    return out;
  }

  // ---------------------------------------------------------------- URL state

  private changed(): void {
    this.writeHashSoon();
    for (const l of this.listeners) l.changed();
  }

  private writeHashSoon(): void {
    if (this.restoringHash || typeof window === "undefined" || !this.view) return;
    if (this.hashTimer) clearTimeout(this.hashTimer);
    this.hashTimer = setTimeout(() => {
      this.hashTimer = null;
      const params: Record<string, Params> = {};
      for (const p of this.providers) params[p.id] = this.paramValues.get(p.id)!;
      const hash = formatHash({
        tree: this.source.model ? (this.source.model.sample?.id ?? DEFAULT_TREE) : this.source.name, model: this.source.model && !this.source.model.sample ? this.source.model.url ?? undefined : undefined, depth: this.source.model ? presetDepth(DEFAULT_TREE) : this.source.depth, taper: this.taperValue, method: this.methodIds.join(","), mode: this.mode, wind: this.windField.settings(),
        timeline: this.timeline ? formatTimeline(this.timeline) : undefined, display: this.displayState, params,
      });
      // The query is dropped: a ?model= would load that model again on reload; the hash says what is on show.
      window.history.replaceState(null, "", window.location.pathname + hash);
    }, 100);
  }
}

/** The name a loaded grammar goes by: the file's own name (no folders), or UNNAMED_GRAMMAR. */
/** Waits for the page to draw a frame (a progress bar), then goes on; at once where there is no page. */
function nextFrame(): Promise<void> {
  if (typeof requestAnimationFrame === "undefined") return Promise.resolve();
  // A background tab runs no frames: a timer goes on without one.
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => setTimeout(() => (clearTimeout(timer), resolve()), 0));
  });
}

function grammarFileName(name: string | undefined): string {
  if (name === undefined) return UNNAMED_GRAMMAR;
  if (typeof name !== "string") throw new TypeError(`loadTree's name must be a file name such as "oak.lsys"; got ${typeof name}`);
  const base = name.split(/[\\/]/).pop()!.trim();
  return base === "" ? UNNAMED_GRAMMAR : base.length > 80 ? base.slice(0, 77) + "..." : base;
}

function presetText(name: string): string {
  const p = TREE_PRESETS.find((t) => t.name === name);
  if (!p) throw new RangeError(`No tree preset "${name}"`);
  return p.text;
}
function presetDepth(name: string): number {
  return TREE_PRESETS.find((t) => t.name === name)?.defaultDepth ?? 5;
}
function ema(avg: number, x: number): number {
  return avg === 0 ? x : avg * 0.9 + x * 0.1;
}
function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
