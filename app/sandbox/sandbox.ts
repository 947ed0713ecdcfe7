/**
 * The host, a composition root (ARCHITECTURE.md, "The host"): it owns the engine's scene, the
 * environment, the fixed-step clock, the shared wind, the method registry, the typed events, the
 * run loop and the stats, and composes the parts, each given only what it needs:
 * - stages.ts: a node, camera and shadow map per view, their cells, linked cameras;
 * - view-set.ts: the methods on show, switching, failures, display and render mode;
 * - view-timing.ts, pointer-camera.ts: Babylon behaviours of the scene (per-view timing, the
 *   camera under the pointer);
 * - tree-source.ts, model-store.ts: the tree on show, grammars and models;
 * - wind-control.ts: wind settings, presets, timeline, the wind primitives (wind-primitives.ts);
 * - method-controls.ts: parameters, commands, the selected branch;
 * - physics-control.ts: the physical tree's material;
 * - tip-plot.ts: the plotted tip; url-sync.ts: the page address;
 * - context-loss.ts: a lost WebGL context (a message, the clock held, re-uploads on restore).
 * `window.sandbox` is built over them by sandbox-api.ts.
 */
import type { Engine } from "@babylonjs/core/Engines/engine";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { AnimatorRegistry } from "../animators/animator";
import { DEFAULT_METHOD } from "../animators/registry";
import { round3 } from "../math/round";
import type { RecordOptions, RecordResult, VideoRecorder } from "../record/recorder";
import { TAPER_RANGE } from "../tree/taper";
import { modelSample } from "../import/samples";
import { DEFAULT_WIND, WindField, type WindSettings } from "../wind/wind-field";
import type { SandboxPanelApi, SandboxStats } from "./api";
import { FixedClock } from "./clock";
import { FOREST_VERTEX_BUDGET, ForestControl } from "./forest-control";
import { parseLod } from "../forest/forest-lod";
import { createEnvironment, type Environment } from "./environment";
import { CalibrationControl, type OffscreenSandbox } from "./calibration-control";
import { canvasNotice, ContextLossBehavior } from "./context-loss";
import { messageOf, SandboxEvents } from "./events";
import { MethodControls } from "./method-controls";
import { MotionExportControl } from "./motion-export";
import { PhysicsControl } from "./physics-control";
import { PointerCameraBehavior } from "./pointer-camera";
import { inlineRunner, ReferenceControl, type ReferenceRunner } from "./reference-control";
import { sandboxApi } from "./sandbox-api";
import { Stages } from "./stages";
import { TipPlot } from "./tip-plot";
import { CUSTOM_TREE, DEFAULT_TREE, isTreePreset, TreeSourceManager, type TreeSource } from "./tree-source";
import { UrlSync, type AddressModel } from "./url-sync";
import { ViewSet } from "./view-set";
import { ema, ViewTimingBehavior } from "./view-timing";
import { WindControl } from "./wind-control";

/** The longest the paused render loop holds a frame back waiting for the views to be ready (a texture that never loads must not freeze the page). */
const HOLD_LIMIT_MS = 10_000;

export class Sandbox {
  readonly scene: Scene;
  readonly env: Environment;
  readonly clock = new FixedClock(1 / 60);
  readonly events = new SandboxEvents();
  readonly windField: WindField;
  readonly root: TransformNode;
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
  readonly urlSync: UrlSync;
  /** Counts the trees built, so a reference result is known to be for the tree on show. */
  private treeVersion = 0;
  private readonly timing: ViewTimingBehavior;
  private readonly pointerCamera: PointerCameraBehavior;
  private readonly contextLoss: ContextLossBehavior;
  private paused = false;
  private looping = false;
  private lastFrameAt = 0;
  private frameMsAvg = 0;
  private animatorMsAvg = 0;
  private recorder: VideoRecorder | null = null;
  /**
   * Whether a frame is drawn only once every view is ready (drawReady()): true with the render
   * loop; false when step() alone drives the scene (NullEngine, whose textures are never "ready").
   */
  private waitsForReady = false;
  /** Since when the paused loop has held a frame back, waiting for the views to be ready (0: not waiting). */
  private heldSince = 0;
  /** The model or sample the page address named, loaded once the panel is up. */
  private startModel: AddressModel | null = null;
  private apiObject: SandboxPanelApi | null = null;

  /**
   * `canvas`: where the camera takes the mouse; null under NullEngine (tests). `referenceRunner`:
   * where the reference solver runs (main.ts gives a worker; by default in this thread, in slices).
   * `quality`: render-quality.ts. `offscreen`: a sandbox that only computes (calibration's): it never writes the page address, and its wind's mean holds steady (no slow swings; turbulence and gusts as set).
   */
  constructor(readonly engine: Engine, canvas: HTMLCanvasElement | null, readonly registry: AnimatorRegistry, options: { referenceRunner?: ReferenceRunner; offscreen?: boolean; quality?: Environment["quality"] } = {}) {
    this.scene = new Scene(engine);
    this.env = createEnvironment(this.scene, canvas, options.quality);
    this.root = new TransformNode("tree-root", this.scene);
    this.windField = new WindField({ ...DEFAULT_WIND }, { modulation: !options.offscreen });
    const changed = this.events.changed.bind(this.events), error = this.events.error.bind(this.events);
    this.stages = new Stages(this.scene, this.env, this.root);
    this.windControl = new WindControl(this.windField, changed, this.scene, () => this.clock.time);
    this.tipPlot = new TipPlot(this.windField, changed);
    this.physics = new PhysicsControl(changed);
    const runReference = options.referenceRunner ?? inlineRunner;
    this.reference = new ReferenceControl(runReference, changed);
    let methods: MethodControls | null = null;
    this.views = new ViewSet({
      scene: this.scene, env: this.env, stages: this.stages, clock: this.clock, wind: this.windField, registry, changed, error,
      // A method may change the wind as the panel would, and frame the camera (a grove): the first view's, which the others follow.
      host: { setWind: (patch) => this.setWindShown(patch), frame: (height, width) => this.env.frame(height, width) },
      paramsOf: (id) => methods!.get(id),
      material: () => this.physics.get(),
      restarting: () => this.restarting(),
    }, DEFAULT_METHOD);
    this.methods = methods = new MethodControls(registry, this.views, changed);
    this.trees = new TreeSourceManager(this.scene, this.views, changed);
    this.forest = new ForestControl({ scene: this.scene, wind: this.windField, time: () => this.clock.time, camera: () => this.env.camera, shown: () => { const t = this.views.firstTree; return t && { skeleton: t.skeleton, geometry: t.geometry, bark: t.barkMaterial, leaves: t.leafMaterial }; }, material: () => this.physics.get(), method: () => this.views.methodIds[0], views: () => this.views.list.length, changed, frame: (h, w) => this.env.frame(h, w), vertexBudget: FOREST_VERTEX_BUDGET[this.env.quality.software ? "software" : "gpu"] });
    this.timing = new ViewTimingBehavior(this.stages, () => this.views.list, () => this.views.bump());
    this.timing.attach(this.scene);
    this.pointerCamera = new PointerCameraBehavior(this.stages);
    this.pointerCamera.attach(this.scene);
    // Nothing is drawn while the context is gone; on its return the simulation goes on from where it was.
    this.contextLoss = new ContextLossBehavior(() => (this.lastFrameAt = performance.now()), canvas ? canvasNotice(canvas) : null);
    this.contextLoss.attach(this.scene);
    // Every method starts from the material: a new one restarts them from rest, as a new tree does.
    this.events.changes.add((what) => {
      if (what === "physics") this.views.restart();
      if (what === "physics" || what === "tree") {
        this.treeVersion++;
        this.reference.forget();
        this.forest.rebuild();
      }
    });
    this.urlSync = new UrlSync(this.events.changes, () => (this.trees.tree && !options.offscreen ? this.addressState() : null), error);
    this.calibration = new CalibrationControl({
      offscreen: () => this.offscreen(),
      methods: () => registry.list().map((p) => ({ id: p.id, label: p.label, calibrationParams: p.calibrationParams })),
      paramsOf: (id) => this.methods.get(id),
      tree: () => (this.trees.tree ? { skeleton: this.trees.tree.skeleton, name: this.trees.fileName, material: this.physics.get(), version: this.treeVersion } : null),
      runReference,
    }, changed);
    this.motionExport = new MotionExportControl({ engine, scene: this.scene, time: () => this.clock.time, dt: this.clock.dt, shown: () => this.views.list[0] ?? null, treeName: () => this.trees.name === CUSTOM_TREE ? this.trees.fileName : this.trees.name, advance: (n) => { for (let i = 0; i < n; i++) this.advance(); }, paused: () => this.paused, pause: () => this.pause(), resume: () => this.resume() }, changed);
  }

  /** A sandbox with no canvas (NullEngine) showing this one's tree and material, stepped by hand: calibration's. */
  private async offscreen(): Promise<OffscreenSandbox> {
    const engine = new NullEngine();
    const s = new Sandbox(engine, null, this.registry, { offscreen: true });
    await s.start("", "", { renderLoop: false });
    s.trees.adopt(this.trees.tree!, this.trees.fileName);
    s.physics.set(this.physics.get());
    const api = s.api();
    const dispose = () => (s.dispose(), engine.dispose());
    return { wind: api.wind, use: api.use, params: api.params, step: api.step, probe: api.probe, dispose };
  }

  /** The wind as a method sets it (a wind arrow dragged in the scene): validated, and a refusal shown. */
  private setWindShown(patch: Partial<WindSettings>): void {
    try {
      this.windControl.set(patch);
    } catch (e) {
      this.events.error(messageOf(e));
      throw e;
    }
  }

  /** Before the methods restart at t = 0: the plotted tip, the timeline's wind at t = 0, the timers. */
  private restarting(): void {
    this.tipPlot.reset(this.views.firstTree?.skeleton ?? null, this.views.list.length);
    this.windControl.play(0);
    this.animatorMsAvg = 0;
    this.timing.restart();
  }

  /** The reference (static deflection and lowest modes) for the tree on show and its material, computed off the frame loop. */
  computeReference(opts: { speeds?: number[]; modes?: number } = {}) {
    const skeleton = this.views.firstTree?.skeleton;
    if (!skeleton) return Promise.reject(new Error("there is no tree on show yet"));
    return this.reference.run(opts, skeleton, this.physics.get(), this.windField.settings().direction, this.treeVersion);
  }

  /** `window.sandbox`: the typed API over the parts (made once). */
  api(ready: Promise<void> = Promise.resolve()): SandboxPanelApi {
    return (this.apiObject ??= sandboxApi(this, ready));
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Builds the first tree (from the page address when it names one) and starts the render loop;
   * resolves after the first frame. `loadStartModel()` then loads a model the address names.
   * `renderLoop: false`: no loop; the tree is drawn once and then by step().
   */
  async start(hash: string, search = "", options: { renderLoop?: boolean } = {}): Promise<void> {
    const url = this.urlSync;
    const asked = url.restore(hash, search, {
      setWind: (patch) => this.windField.set(patch as unknown as Partial<WindSettings>),
      restoreParams: (id, patch) => this.methods.restore(id, patch),
      setMethods: (ids) => this.views.setMethods(ids),
      setRenderMode: (mode) => this.views.setRenderMode(mode),
      setTimeline: (tl) => this.windControl.setTimeline(tl, 0),
      setPrimitives: (list) => this.windControl.primitives.restore(list),
      setForest: (text) => this.forest.restore(text), setForestLod: (text) => this.forest.setLod(parseLod(text)),
      setDisplay: (d) => this.views.applyDisplay(d),
      setPhysics: (patch) => this.physics.set(patch),
    }, (name) => modelSample(name) !== undefined);
    const preset = asked.tree && isTreePreset(asked.tree) ? asked.tree : DEFAULT_TREE;
    if (asked.tree && preset !== asked.tree) url.pageAsked(new Error(`no tree named "${asked.tree}"; showing "${DEFAULT_TREE}"`));
    try {
      this.trees.buildPreset(preset, asked.depth, asked.taper ?? TAPER_RANGE.default);
    } catch (e) {
      url.pageAsked(e);
      this.trees.buildPreset(DEFAULT_TREE, undefined, TAPER_RANGE.default);
    }
    url.restored();
    this.startModel = asked.model;
    if (options.renderLoop === false) {
      // Driven by step() alone (tests under NullEngine, whose textures are never "ready").
      this.scene.render();
      return;
    }
    this.waitsForReady = true;
    this.holdRenderLoop(false);
    await this.scene.whenReadyAsync();
    await new Promise<void>((resolve) => this.scene.onAfterRenderObservable.addOnce(() => resolve()));
  }

  /** Loads the model the page address named, once the panel is up to show its progress and any error; the tree built by start() stays if it cannot be loaded. */
  async loadStartModel(): Promise<void> {
    const src = this.startModel;
    this.startModel = null;
    if (src) await this.api().loadTree(src as TreeSource).catch(() => undefined);
  }

  private addressState() {
    const v = this.views;
    const params: Record<string, ReturnType<MethodControls["get"]>> = {};
    for (const id of v.methodIds) params[id] = this.methods.get(id);
    return { ...this.trees.addressFields(), methods: v.methodIds, mode: v.renderMode, wind: this.windField.settings(), timeline: this.windControl.current, primitives: this.windControl.primitives.text(), forest: this.forest.text, forestLod: this.forest.lodText, display: v.display, params, physics: this.physics.get() };
  }

  private frame(): void {
    const now = performance.now();
    const elapsed = (now - this.lastFrameAt) / 1000;
    this.frameMsAvg = ema(this.frameMsAvg, now - this.lastFrameAt);
    this.lastFrameAt = now;
    if (!this.paused) {
      const n = this.clock.stepsFor(elapsed);
      for (let i = 0; i < n; i++) this.advance();
      this.views.endFrame(n > 0);
      this.scene.render();
      return;
    }
    // Paused, the frame shows a state a script or a recording may look at: it is drawn only once
    // every view is ready (the last frame stays meanwhile). A view never ready (a texture that
    // never loads) holds the paused picture at most HOLD_LIMIT_MS.
    if (this.drawReady()) this.heldSince = 0;
    else if (!this.heldSince) this.heldSince = now;
    else if (now - this.heldSince > HOLD_LIMIT_MS) this.scene.render();
  }

  /**
   * Draws the frame if every view is ready to show its state (ViewSet.ready(): every material and
   * shadow-map depth material compiled, which asking starts in the background); otherwise draws
   * nothing. A frame drawn before then would leave the tree out of its shadow map, or a mesh out:
   * work done in the background may delay a frame, never change what it shows. Returns whether
   * it drew.
   */
  drawReady(): boolean {
    if (this.contextLoss.isLost) return false;
    if (this.waitsForReady && !this.views.ready()) return false;
    this.scene.render();
    return true;
  }

  /** One fixed step of every method on show, in the same wind at the same time. */
  private advance(): void {
    this.clock.tick();
    this.windControl.play(this.clock.time);
    const t0 = performance.now();
    this.views.step(this.clock.dt, (k, a) => this.tipPlot.record(k, a));
    this.animatorMsAvg = ema(this.animatorMsAvg, performance.now() - t0);
  }

  /**
   * Stops (hold) or restarts the render loop. A frame-exact video draws each frame itself; frames
   * the loop would draw in between cost as much and are not used.
   */
  holdRenderLoop(hold: boolean): void {
    if (hold) {
      this.engine.stopRenderLoop();
      this.looping = false;
    } else {
      this.lastFrameAt = performance.now();
      if (!this.looping) this.engine.runRenderLoop(this.loop);
      this.looping = true;
    }
  }
  private readonly loop = () => this.frame();

  pause(): void { this.paused = true; this.events.changed("paused"); }
  resume(): void {
    this.paused = false;
    this.lastFrameAt = performance.now();
    this.events.changed("paused");
  }
  get isPaused(): boolean { return this.paused; }

  /**
   * Advances frames × dt deterministically, then draws once if every view is ready (drawReady()).
   * While shaders compile in the background (after use(), a new tree, a display change) nothing is
   * drawn here: the simulation has advanced, and the next frame drawn (by the render loop, paused
   * or not, as soon as the views are ready) is complete. Returns whether it drew.
   */
  step(frames: number): boolean {
    if (!Number.isInteger(frames) || frames < 0 || frames > 100000) throw new RangeError(`step(frames) takes a whole number from 0 to 100000; got ${frames}`);
    for (let i = 0; i < frames; i++) this.advance();
    return this.drawReady();
  }

  /** Frame and update times (all views), vertices and state of the focused view, errors, notes. */
  stats(): SandboxStats {
    const a = this.views.animator?.stats();
    return {
      fps: round3(this.engine.getFps()),
      frameMs: round3(this.frameMsAvg),
      animatorMs: round3(this.animatorMsAvg),
      vertices: this.views.shownVertices(),
      nonFinite: this.views.list.some((v) => v.animator?.stats().nonFinite ?? false),
      errors: this.events.recent,
      notes: a?.notes ? [...a.notes] : [], counts: { ...a?.counts },
    };
  }

  // ---------------------------------------------------------------- video

  /** Sets what makes videos (main.ts gives it the canvas, the panel and the progress line). */
  setRecorder(r: VideoRecorder): void { this.recorder = r; }
  get videoRecorder(): VideoRecorder | null { return this.recorder; }

  /** A video of the view (app/record/recorder.ts). */
  record(opts: RecordOptions): Promise<RecordResult> {
    if (!this.recorder) return Promise.reject(new Error("video recording is not set up in this page"));
    return this.recorder.record(opts);
  }

  /** What a video's caption says: the methods, the wind (preset, timeline or speed and direction), the seed, the tree. */
  caption(): string {
    const t = this.trees;
    return `${this.views.methodIds.join(" | ")} · ${this.windControl.caption()} · seed ${this.windField.settings().seed} · ${t.name === CUSTOM_TREE ? t.fileName : t.name}`;
  }

  // ---------------------------------------------------------------- for tests and experiments

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

  /**
   * Stops the run loop and removes everything the host and its parts added: observers, timers,
   * the trees and models, the views' stages, the scene itself (the engine is left empty).
   */
  dispose(): void {
    this.holdRenderLoop(true);
    this.urlSync.dispose();
    this.pointerCamera.detach();
    this.timing.detach();
    this.contextLoss.dispose();
    this.calibration.dispose();
    this.motionExport.dispose();
    this.forest.dispose();
    this.trees.dispose();
    this.views.dispose();
    this.stages.dispose();
    this.events.dispose();
    this.scene.dispose();
  }
}
