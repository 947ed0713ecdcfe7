/**
 * The methods on show: 1 to MAX_VIEWS views side by side, each with its own copy of the tree's
 * meshes (skeleton and geometry are shared, read-only), its own animator and its stage. Every view
 * gets the same wind, the same seed (a new Rng from it) and the same fixed-step clock: every step
 * advances every view. Switching restarts them all from rest at t = 0. A method that throws or
 * goes non-finite is replaced by `rest` in its own view; the other views keep running.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import "@babylonjs/core/Culling/ray";
import type { Animator, AnimatorHost, AnimatorRegistry, AnyProvider } from "../animators/animator";
import type { Params } from "../math/params";
import type { PhysicalMaterial } from "../physics/material";
import { Rng } from "../math/rng";
import { round3 } from "../math/round";
import { BINDING_ATTRIBUTES } from "../tree/geometry";
import { treeHeight } from "../tree/skeleton";
import type { WindField } from "../wind/wind-field";
import type { FixedClock } from "./clock";
import { MAX_VIEWS, type ViewCell } from "./compare-layout";
import type { Environment } from "./environment";
import { messageOf, type SandboxChange } from "./events";
import type { Stage, Stages } from "./stages";
import { RENDER_MODES, TreeView, type RenderMode } from "./tree-view";
import type { ShownTree, TreeStage } from "./tree-source";
import { DEFAULT_DISPLAY, type DisplaySettings } from "./url-state";
import { ema, type ViewTimes } from "./view-timing";

/** One method on show: its copy of the tree, its animator and its stage. */
export interface MethodView {
  provider: AnyProvider;
  readonly stage: Stage;
  tree: TreeView;
  animator: Animator<Params> | null;
  readonly times: ViewTimes;
  /** Its stage's camera (for the timing behaviour). */
  readonly camera: Stage["camera"];
}

/** What `views()` reports of each view. */
export interface ViewInfo {
  id: string;
  label: string;
  /** Canvas pixels (CSS), y down. */
  cell: ViewCell;
  /** Its own milliseconds per frame: the method's updates and the drawing of its tree and shadow map, as of the last timed frame (0 before the first). */
  frameMs: number;
  updateMs: number;
  drawMs: number;
  focused: boolean;
}

export interface ViewSetDeps {
  readonly scene: Scene;
  readonly env: Environment;
  readonly stages: Stages;
  readonly clock: FixedClock;
  readonly wind: WindField;
  readonly registry: AnimatorRegistry;
  /** What a method may ask of the host (set the wind, frame the camera). */
  readonly host: AnimatorHost;
  /** A method's parameter values now. */
  readonly paramsOf: (id: string) => Params;
  /** The physical tree's material now. */
  readonly material: () => PhysicalMaterial;
  /** Before the methods are made afresh at t = 0 (the plotted tip, the timeline's wind at t = 0). */
  readonly restarting: () => void;
  readonly changed: (what: SandboxChange) => void;
  readonly error: (message: string) => void;
}

export class ViewSet implements TreeStage {
  /** The methods on show, 1 to 4, in view order. */
  readonly list: MethodView[] = [];
  /** The methods asked for (kept when the tree cannot be built yet). */
  private providers: AnyProvider[];
  /** The view the panel edits (parameters, branch, commands). */
  private focus = 0;
  private tree: ShownTree | null = null;
  private mode: RenderMode = "shaded";
  private displayState: DisplaySettings = { ...DEFAULT_DISPLAY };
  /** Counts changes of what views() reports besides the layout (methods, focus, timed figures). */
  private changes = 0;

  constructor(private readonly d: ViewSetDeps, defaultMethod: string) {
    this.providers = [d.registry.get(defaultMethod)];
  }

  /** Changes whenever what views() reports may have. */
  get version(): number {
    return this.changes + this.d.stages.version;
  }
  bump(): void {
    this.changes++;
  }

  get methodIds(): string[] {
    return this.providers.map((p) => p.id);
  }
  get focused(): number {
    return this.focus;
  }
  /** The focused view's method and animator: what the panel's parameters, branch and commands act on. */
  get provider(): AnyProvider {
    return this.providers[this.focus] ?? this.providers[0];
  }
  get animator(): Animator<Params> | null {
    return this.list[this.focus]?.animator ?? null;
  }
  /** The first view's tree (every view shows a copy of the same tree). */
  get firstTree(): TreeView | null {
    return this.list[0]?.tree ?? null;
  }
  get focusedTree(): TreeView | null {
    return this.list[this.focus]?.tree ?? null;
  }

  /** The methods as providers: 1 to MAX_VIEWS known ids (throws naming the methods). */
  checkMethods(ids: unknown): AnyProvider[] {
    const list = typeof ids === "string" ? [ids] : ids;
    if (!Array.isArray(list) || list.length < 1 || list.length > MAX_VIEWS) {
      throw new RangeError(`use() takes one method id, or 2 to ${MAX_VIEWS} ids to compare side by side; got ${JSON.stringify(ids)}`);
    }
    return list.map((id) => {
      if (typeof id !== "string") throw new TypeError(`method ids are strings; got ${JSON.stringify(id)}`);
      return this.d.registry.get(id.trim());
    });
  }

  /** The methods to show once a tree is built (the page address at start). */
  setMethods(ids: unknown): void {
    this.providers = this.checkMethods(ids);
  }

  /** One id: a single view; 2 to 4: side by side. Restarts every view from rest at t = 0. */
  use(ids: unknown): void {
    const providers = this.checkMethods(ids);
    if (providers.length !== this.list.length) this.focus = 0;
    this.switchTo(providers);
  }

  /** Adds a view (the first method not on show, or `id`); the new view gets the panel's focus. */
  addView(id?: string): void {
    const ids = this.methodIds;
    const next = id ?? this.d.registry.ids().find((m) => !ids.includes(m) && m !== "rest") ?? ids[0];
    this.use([...ids, next]);
    this.focus = ids.length;
    this.changes++;
    this.d.changed("focus");
  }

  /** Removes view k (at least one stays). */
  removeView(k: number): void {
    const ids = this.methodIds;
    if (ids.length < 2) throw new RangeError("the last view cannot be removed; pick another method instead");
    if (!(Number.isInteger(k) && k >= 0 && k < ids.length)) throw new RangeError(`view must be from 0 to ${ids.length - 1}; got ${k}`);
    ids.splice(k, 1);
    this.focus = Math.min(this.focus > k ? this.focus - 1 : this.focus, ids.length - 1);
    this.use(ids);
  }

  /** Shows the focused view's method as `id`, keeping the others. */
  setFocusedMethod(id: string): void {
    const ids = this.methodIds;
    ids[this.focus] = id;
    this.use(ids);
  }

  focusView(k: number): void {
    if (!(Number.isInteger(k) && k >= 0 && k < this.list.length)) throw new RangeError(`view must be from 0 to ${this.list.length - 1}; got ${k}`);
    this.focus = k;
    this.changes++;
    this.d.changed("focus");
  }

  /** Disposes every view's animator and tree meshes (before the tree is replaced). */
  clear(): void {
    for (const v of this.list) {
      v.animator?.dispose();
      v.animator = null;
      v.tree.dispose();
    }
    this.list.length = 0;
  }

  /** Shows a new tree in every view, the camera framed on it, the methods restarted. */
  show(tree: ShownTree): void {
    this.clear();
    this.tree = tree;
    this.d.env.frame(treeHeight(tree.skeleton));
    this.switchTo(this.providers);
  }

  /** Restarts the methods on show from rest at t = 0 (the material changed). */
  restart(): void {
    if (this.tree) this.switchTo(this.providers);
  }

  /**
   * Shows the methods, one view each, on copies of the tree, from rest at t = 0 with the same
   * seed. Views are kept where the count allows (their meshes are reused) and made or dropped.
   */
  private switchTo(providers: AnyProvider[]): void {
    const t = this.tree;
    if (!t) throw new Error("there is no tree to show the methods on yet");
    for (const v of this.list) {
      v.animator?.dispose();
      v.animator = null;
    }
    const stages = this.d.stages;
    while (this.list.length > providers.length) this.list.pop()!.tree.dispose();
    stages.ensure(providers.length);
    while (this.list.length < providers.length) {
      const stage = stages.list[this.list.length];
      const tree = new TreeView(t.skeleton, t.geometry, this.d.scene, stage.root, stage.shadows, t.look);
      tree.setRenderMode(this.mode);
      tree.setBarkTexture(this.displayState.barkTexture);
      tree.setHierarchyOverlay(this.displayState.hierarchy);
      this.list.push({ provider: providers[0], stage, camera: stage.camera, tree, animator: null, times: { stepMs: 0, updateMs: 0, drawMs: 0, shadowMs: 0, shownMs: 0 } });
    }
    this.providers = [...providers];
    this.focus = Math.min(this.focus, providers.length - 1);
    this.d.clock.reset();
    this.d.restarting();
    for (let k = 0; k < providers.length; k++) {
      const v = this.list[k], times = v.times;
      v.provider = providers[k];
      times.updateMs = times.drawMs = times.stepMs = times.shadowMs = times.shownMs = 0;
      v.animator = this.createAnimator(v);
      v.tree.applyRenderMode();
    }
    stages.tagMeshes();
    this.changes++;
    this.d.changed("views");
  }

  private createAnimator(v: MethodView): Animator<Params> {
    const d = this.d;
    return v.provider.create(
      { scene: d.scene, tree: v.tree, wind: d.wind, rng: new Rng(d.wind.settings().seed), root: v.stage.root, clock: d.clock, host: d.host, material: d.material() },
      d.paramsOf(v.provider.id),
    );
  }

  /**
   * One fixed step of every view's method; `stepped(k, animator)` after each (the plotted tip).
   * An unstable simulation is stopped with a message, not drawn as NaN.
   */
  step(dt: number, stepped: (k: number, a: Animator<Params>) => void): void {
    for (let k = 0; k < this.list.length; k++) {
      const v = this.list[k], a = v.animator;
      if (!a) continue;
      const t = performance.now();
      try {
        a.update(dt);
        if (a.stats().nonFinite) throw new Error(`its state went non-finite (NaN or infinity) at t = ${this.d.clock.time.toFixed(2)} s`);
        stepped(k, a);
      } catch (e) {
        this.fail(k, e);
      }
      v.times.stepMs += performance.now() - t;
    }
  }

  /** Each view's update time this frame into its average (frames without a step keep it). */
  endFrame(stepped: boolean): void {
    for (const v of this.list) {
      if (stepped) v.times.updateMs = ema(v.times.updateMs, v.times.stepMs);
      v.times.stepMs = 0;
    }
  }

  /** A method that throws or goes non-finite is replaced by `rest` in its view, with a message. */
  private fail(k: number, e: unknown): void {
    const v = this.list[k], p = v.provider;
    const where = this.list.length > 1 ? ` (view ${k + 1})` : "";
    this.d.error(`${p.label}${where} stopped: ${messageOf(e)}. Showing the tree at rest; change a parameter and pick the method again.`);
    v.animator?.dispose();
    v.animator = null;
    if (p.id === "rest") return;
    const rest = this.d.registry.get("rest");
    v.provider = rest;
    this.providers[k] = rest;
    v.animator = this.createAnimator(v);
    v.tree.applyRenderMode();
    this.d.changed("views");
  }

  /**
   * True when the next drawn frame shows every view as its state says: every mesh's material and
   * every shadow map's materials compiled. A method's deforming depth materials are compiled anew
   * for each animator (ShadowDepthWrapper, shadow-depth.ts) and in the background (parallel shader
   * compilation): until they are, the shadow maps leave the tree out, so a frame drawn then differs
   * from the same frame drawn later. Asking also starts the compilation. Whoever draws a frame that
   * must be the same every time (a frame-exact video) waits for this; it never changes a step.
   */
  ready(): boolean {
    const scene = this.d.scene;
    let ready = scene.isReady(false);
    for (const light of scene.lights) {
      const map = light.getShadowGenerator()?.getShadowMap();
      if (map && !map.isReadyForRendering()) ready = false;
    }
    return ready;
  }

  /** The views on show: method, cell, own ms per frame. */
  info(): ViewInfo[] {
    const stages = this.d.stages;
    stages.layout();
    return this.list.map((v, k) => ({
      id: v.provider.id, label: v.provider.label, cell: { ...(stages.cells[k] ?? stages.cells[0] ?? { x: 0, y: 0, width: 0, height: 0 }) },
      frameMs: round3(v.times.shownMs), updateMs: round3(v.times.updateMs), drawMs: round3(v.times.drawMs), focused: k === this.focus,
    }));
  }

  get display(): DisplaySettings {
    return { ...this.displayState };
  }

  /** Switches the bark texture, the background and the shadows; throws on an unknown key or a non-boolean. */
  setDisplay(patch: Partial<DisplaySettings>): void {
    if (typeof patch !== "object" || patch === null) throw new TypeError("display() takes an object such as { shadows: false }");
    for (const [k, v] of Object.entries(patch)) {
      if (!(k in DEFAULT_DISPLAY)) throw new RangeError(`display has no setting "${k}"; its settings are: ${Object.keys(DEFAULT_DISPLAY).join(", ")}`);
      if (typeof v !== "boolean") throw new RangeError(`display.${k} must be true or false; got ${JSON.stringify(v)}`);
    }
    this.applyDisplay({ ...this.displayState, ...patch });
    this.d.changed("display");
  }

  applyDisplay(d: DisplaySettings): void {
    this.displayState = { ...d };
    this.d.env.setBackground(d.background);
    this.d.env.setShadows(d.shadows);
    for (const v of this.list) {
      v.tree.setBarkTexture(d.barkTexture);
      v.tree.setHierarchyOverlay(d.hierarchy);
    }
  }

  get renderMode(): RenderMode {
    return this.mode;
  }

  setRenderMode(mode: RenderMode): void {
    if (!RENDER_MODES.includes(mode)) throw new RangeError(`render mode must be one of ${RENDER_MODES.join(", ")}; got ${JSON.stringify(mode)}`);
    this.mode = mode;
    for (const v of this.list) v.tree.setRenderMode(mode);
    this.d.changed("display");
  }

  /**
   * The branch under a canvas point (CSS pixels), by picking the tree's meshes at rest in the view
   * under the point, with its own camera, and reading the picked vertex's branch index; -1 when
   * the point misses the tree.
   */
  branchAt(x: number, y: number): number {
    const camera = this.d.stages.cameraAt(x, y);
    const view = this.list.find((v) => v.camera === camera)?.tree;
    if (!view || !camera) return -1;
    const meshes = new Set<AbstractMesh>(view.displayedMeshes());
    const hit = this.d.scene.pick(x, y, (m) => meshes.has(m), false, camera);
    if (!hit?.hit || !hit.pickedMesh || hit.faceId < 0) return -1;
    const mesh = hit.pickedMesh as Mesh;
    const indices = mesh.getIndices();
    const branch = mesh.getVerticesData(BINDING_ATTRIBUTES.branchIndex);
    if (!indices || !branch) return -1;
    return Math.round(branch[indices[3 * hit.faceId]]);
  }

  /** Vertices of the bark and leaves on show in the focused view (a method that draws its own skins may have more than the tree's own meshes). */
  shownVertices(): number {
    const v = this.focusedTree;
    if (!v) return 0;
    let n = 0;
    for (const role of ["bark", "leaves"] as const) n += v.displayed(role)?.getTotalVertices() ?? 0;
    return n;
  }

  dispose(): void {
    this.clear();
    this.tree = null;
  }
}
