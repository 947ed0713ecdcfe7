/**
 * The control panel (@babylonjs/gui), drawn on the canvas. Method and tree pickers (the shipped
 * grammars, the grammar on show, a button that loads a grammar file), depth (rebuilt live while
 * dragging) and taper, the shared wind (speed and direction, its x, y, z components, turbulence,
 * gusts, a calm button), damping, then the active method's own parameters generated from its
 * declarations, render mode and display toggles, a stats line and an error line. Key H hides it.
 *
 * The panel writes only through the Sandbox's public methods (the same ones `window.sandbox`
 * exposes), and re-reads the state when the sandbox says something changed.
 */
import { AdvancedDynamicTexture } from "@babylonjs/gui/2D/advancedDynamicTexture";
import { Control } from "@babylonjs/gui/2D/controls/control";
import { Rectangle } from "@babylonjs/gui/2D/controls/rectangle";
import { StackPanel } from "@babylonjs/gui/2D/controls/stackPanel";
import { TextBlock } from "@babylonjs/gui/2D/controls/textBlock";
import { Slider } from "@babylonjs/gui/2D/controls/sliders/slider";
import { Button } from "@babylonjs/gui/2D/controls/button";
import { ScrollViewer } from "@babylonjs/gui/2D/controls/scrollViewers/scrollViewer";
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents";
import { numberParam, type NumberParam, type ParamDecl } from "../math/params";
import { CUSTOM_TREE, DEPTH_SLIDER_MAX, GUI_LAYER, type DisplaySettings, type Sandbox } from "../sandbox/sandbox";
import { MAX_VIEWS } from "../sandbox/compare-layout";
import { RENDER_MODE_LABELS, RENDER_MODES, type RenderMode } from "../sandbox/tree-view";
import { TAPER_PARAM } from "../tree/taper";
import { TREE_PRESETS } from "../lsystem/presets";
import { MODEL_SAMPLES } from "../import/samples";
import { PART_ROLES, type PartRole } from "../import/model";
import { UP_AXES, type UpAxis } from "../tree/normalise";
import { WIND_PARAMS, type WindSettings } from "../wind/wind-field";
import { EXAMPLE_TIMELINES, formatTimeline, presetOf, timelineAt, WIND_PRESETS, type WindKey, type WindTimeline } from "../wind/conditions";
import { Image } from "@babylonjs/gui/2D/controls/image";
import type { Plots } from "./plots";

const PANEL_WIDTH = 300;
const ACCENT = "#e0a040";
const TEXT = "#f2f2ee";
const MUTED = "#b8bcb4";

interface SliderRow {
  slider: Slider;
  read: () => number;
  /** True while the mouse holds the slider: sync() leaves its thumb where the person has it. */
  held: () => boolean;
}

/**
 * When a slider applies its value: "change" on every change, "release" when the mouse lets go,
 * "live" while dragging, at most once per rendered frame (the latest value wins), and on release.
 */
type SliderApply = "change" | "release" | "live";

export interface PanelOptions {
  /** Opens the browser's file chooser for a grammar file (the panel shows a button for it when given). */
  openGrammarFile?: () => void;
}

/** The display toggles of the View section (Barron §5.3, §6.3). */
const DISPLAY_TOGGLES: readonly { key: keyof DisplaySettings; label: string }[] = [
  { key: "barkTexture", label: "Bark texture" },
  { key: "background", label: "Background" },
  { key: "shadows", label: "Shadows" },
  { key: "hierarchy", label: "Skeleton overlay (by level)" },
];

/** Barron §6.1's wind sliders, one per axis, m/s: x and z edit speed and direction, y the vertical wind. */
const WIND_X = numberParam("Wind x", -WIND_PARAMS.speed.max, WIND_PARAMS.speed.max, 0.1, 0, "m/s", "The wind's x component: toward +x when positive");
const WIND_Y: NumberParam = { ...WIND_PARAMS.vertical, label: "Wind y (vertical)" };
const WIND_Z = numberParam("Wind z", -WIND_PARAMS.speed.max, WIND_PARAMS.speed.max, 0.1, 0, "m/s", "The wind's z component: toward +z when positive");

export class Panel {
  readonly ui: AdvancedDynamicTexture;
  private readonly frame: Rectangle;
  private readonly stack: StackPanel;
  private readonly methodStack: StackPanel;
  private readonly branchStack: StackPanel;
  /** The active method's commands (AnimatorActions) and the progress bar of long work. */
  private readonly actionStack: StackPanel;
  private readonly progressBox: Rectangle;
  private readonly progressFill: Rectangle;
  private readonly progressText: TextBlock;
  /** Signature of the command list the buttons were built for. */
  private actionsFor = "";
  /** The wind timeline's editor (plot, key, its sliders), rebuilt when the timeline's shape changes. */
  private timelineStack!: StackPanel;
  private timelineFor = "";
  private timelineKey = 0;
  private timelinePlot: Image | null = null;
  private timelinePlotFor = "";
  /** The video the Record button makes. */
  private readonly video = { seconds: 5, fps: 30, frameExact: true, caption: true };
  private timelinePlayhead: Rectangle | null = null;
  /** "method#branch" the branch section was built for. */
  private branchSectionFor = "";
  private readonly named = new Map<string, Control>();
  private readonly sliders: SliderRow[] = [];
  private readonly choiceRows: { buttons: Map<string, Button>; read: () => string }[] = [];
  private readonly statsText: TextBlock;
  /** The method's own notes under the stats (sub-stepping, blended frames). */
  private readonly notesText: TextBlock;
  private readonly errorText: TextBlock;
  private readonly errorBox: Rectangle;
  private readonly grammarText: TextBlock;
  private readonly modelStack: StackPanel;
  private modelFor = "";
  private readonly loadBar: { box: Rectangle; fill: Rectangle; text: TextBlock };
  /** The depth and taper rows: greyed out for a model (they shape trees grown from grammars). */
  private readonly grammarOnly: Control[];
  private readonly toggles: { key: keyof DisplaySettings; label: string; button: Button }[] = [];
  private methodParamsFor = "";
  private syncing = false;
  private errorTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly sandbox: Sandbox, options: PanelOptions = {}) {
    this.ui = AdvancedDynamicTexture.CreateFullscreenUI("panel", true, sandbox.scene);
    // Drawn once, over the whole canvas, by the sandbox's GUI camera (not once per compare view).
    if (this.ui.layer) this.ui.layer.layerMask = GUI_LAYER;
    sandbox.setViewInset(PANEL_WIDTH);
    this.frame = new Rectangle("panel-frame");
    this.frame.width = `${PANEL_WIDTH}px`;
    this.frame.height = "100%";
    this.frame.horizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    this.frame.background = "rgba(24, 28, 24, 0.78)";
    this.frame.thickness = 0;
    // The wheel over the panel scrolls it, and a drag on it moves nothing: the camera does not see them.
    this.frame.isPointerBlocker = true;
    this.ui.addControl(this.frame);

    const scroll = new ScrollViewer("panel-scroll");
    scroll.thickness = 0;
    scroll.barSize = 8;
    scroll.barColor = "#777";
    this.frame.addControl(scroll);
    this.stack = new StackPanel("panel-stack");
    this.stack.width = `${PANEL_WIDTH - 12}px`;
    this.stack.paddingLeft = "10px";
    this.stack.paddingRight = "6px";
    this.stack.horizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    scroll.addControl(this.stack);
    // The wheel scrolls the panel wherever the pointer is over it. (The ScrollViewer's own wheel
    // handling only works once the pointer has entered it through a control that is not a pointer
    // blocker, so over a button or slider reached straight from the view it did nothing; and it
    // moved a fixed 5% of the length per event.)
    scroll.onWheelObservable.clear();
    scroll.onWheelObservable.add((d) => {
      const bar = scroll.verticalBar;
      const range = this.stack._currentMeasure.height - scroll._currentMeasure.height;
      if (!bar.isVisible || range <= 0 || d.y === 0) return;
      const px = Math.sign(d.y) * Math.min(160, Math.max(40, Math.abs(d.y)));
      bar.value = Math.min(bar.maximum, Math.max(0, bar.value + px / range));
    });

    this.heading("Tree Wind Sandbox", 22, 34);
    this.statsText = this.text("", 12, MUTED, 50);
    this.notesText = this.text("", 12, "#f0c070", 0);
    this.notesText.textWrapping = true;
    this.notesText.isVisible = false;
    // The error line floats at the foot of the panel, over the controls: it is seen wherever the
    // panel is scrolled, and it does not push the controls down (a slider under the mouse stays put).
    // A click dismisses it.
    this.errorBox = new Rectangle("panel-error");
    this.errorBox.width = "100%";
    this.errorBox.adaptHeightToChildren = true;
    this.errorBox.verticalAlignment = Control.VERTICAL_ALIGNMENT_BOTTOM;
    this.errorBox.background = "rgba(48, 18, 14, 0.95)";
    this.errorBox.thickness = 0;
    this.errorBox.isVisible = false;
    this.errorBox.isPointerBlocker = true;
    this.errorText = new TextBlock("panel-error-text");
    this.errorText.fontSize = 13;
    this.errorText.color = "#ff8a78";
    this.errorText.textWrapping = true;
    this.errorText.resizeToFit = true;
    this.errorText.width = "100%";
    this.errorText.paddingLeft = "10px";
    this.errorText.paddingRight = "12px";
    this.errorText.paddingTop = "8px";
    this.errorText.paddingBottom = "10px";
    this.errorText.textHorizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    this.errorBox.addControl(this.errorText);
    this.errorBox.onPointerClickObservable.add(() => {
      this.errorBox.isVisible = false;
    });
    this.frame.addControl(this.errorBox);
    this.named.set("error", this.errorBox);

    this.section("Method");
    this.choice("method", () => sandbox.registry.list().map((p) => ({ value: p.id, label: p.label })), () => sandbox.methodId, (id) => this.guard(() => sandbox.setFocusedMethod(id)));
    // Issue 8, item 1: 2 to 4 methods side by side. The method row above picks the focused view's.
    this.compareStack = new StackPanel("compare-views");
    this.compareStack.width = "100%";
    this.stack.addControl(this.compareStack);

    // Habel 2009 Fig. 11: a clicked branch, its properties and its own stiffness and damping.
    this.branchStack = new StackPanel("branch-section");
    this.branchStack.width = "100%";
    this.stack.addControl(this.branchStack);

    this.section("Tree");
    // Issue 7, item 8: the shipped grammars, then the sample models.
    this.choice("tree", () => [...TREE_PRESETS.map((p) => ({ value: p.name, label: p.label })), ...MODEL_SAMPLES.map((m) => ({ value: m.id, label: m.label }))], () => sandbox.treeName, (name) => this.guard(() => sandbox.loadTree({ preset: name })));
    this.grammarText = this.text("", 12, MUTED, 20);
    this.named.set("tree.grammar", this.grammarText);
    if (options.openGrammarFile) {
      const open = options.openGrammarFile;
      this.button("tree.loadFile", "Load a file (grammar or model)…", () => open());
      this.text("or drop a .lsys grammar, or a .glb / .gltf / .obj\nwith its .bin, .mtl and textures, on the view", 11, MUTED, 30);
    }
    this.loadBar = this.progressBar("tree.progress", this.stack);
    // Issue 7, items 2, 3, 6, 8: the model's summary and the corrections a person can make.
    this.modelStack = new StackPanel("model-section");
    this.modelStack.width = "100%";
    this.stack.addControl(this.modelStack);
    // Depth re-derives live while dragging (once per frame at most); a depth past the module cap
    // shows the cap's message and the tree stays.
    this.slider("depth", numberParam("Derivation depth", 0, DEPTH_SLIDER_MAX, 1, 5, "", ""), () => sandbox.depth, (v) => sandbox.loadTree({ depth: v }), "live");
    this.slider("taper", TAPER_PARAM, () => sandbox.taper, (v) => this.guard(() => sandbox.loadTree({ taper: v })), "release");
    this.grammarOnly = ["depth", "taper"].map((n) => this.named.get(n)!);

    this.section("Wind");
    const wind = (key: keyof WindSettings) => this.slider(`wind.${key}`, WIND_PARAMS[key], () => sandbox.windField.settings()[key], (v) => this.guard(() => sandbox.setWind({ [key]: v } as Partial<WindSettings>)));
    wind("speed");
    wind("direction");
    // Barron 2006 §6.1: one slider per axis. x and z are the horizontal wind in Cartesian form.
    this.slider("wind.x", WIND_X, () => this.windXZ().x, (v) => this.guard(() => sandbox.setWind(horizontalWind(v, this.windXZ().z, "x", sandbox.windField.settings().direction))));
    this.slider("wind.vertical", WIND_Y, () => sandbox.windField.settings().vertical, (v) => this.guard(() => sandbox.setWind({ vertical: v })));
    this.slider("wind.z", WIND_Z, () => this.windXZ().z, (v) => this.guard(() => sandbox.setWind(horizontalWind(this.windXZ().x, v, "z", sandbox.windField.settings().direction))));
    wind("turbulence");
    wind("gust");
    this.button("wind.calm", "Calm (reset wind)", () => this.guard(() => sandbox.setWind({ speed: 0, vertical: 0 })));
    // Issue 8, item 3: wind conditions on the Beaufort scale, and a wind timeline.
    this.text("Beaufort presets", 12, MUTED, 20);
    this.choice("wind.preset", () => WIND_PRESETS.map((p) => ({ value: p.id, label: p.label })), () => (sandbox.windTimeline ? "" : presetOf(sandbox.windField.settings().speed)?.id ?? ""), (id) => this.guard(() => sandbox.setWindPreset(id)));
    this.text("Wind timeline", 12, MUTED, 20);
    this.choice("wind.timeline", () => [{ value: "off", label: "No timeline (steady wind)" }, ...Object.keys(EXAMPLE_TIMELINES).map((n) => ({ value: n, label: `Timeline: ${n}` }))], () => this.timelineName(), (v) => this.guard(() => sandbox.setWindTimeline(v === "off" ? null : structuredClone(EXAMPLE_TIMELINES[v]) as WindTimeline)));
    this.timelineStack = new StackPanel("timeline-editor");
    this.timelineStack.width = "100%";
    this.stack.addControl(this.timelineStack);

    this.section("Method parameters");
    this.methodStack = new StackPanel("method-params");
    this.methodStack.width = "100%";
    this.stack.addControl(this.methodStack);
    // Progress of long work a method runs (a recording), then its commands.
    this.progressBox = new Rectangle("progress");
    this.progressBox.height = "18px";
    this.progressBox.width = "100%";
    this.progressBox.thickness = 1;
    this.progressBox.color = "#222";
    this.progressBox.background = "#3a3f38";
    this.progressBox.isVisible = false;
    this.progressFill = new Rectangle("progress-fill");
    this.progressFill.width = "0%";
    this.progressFill.thickness = 0;
    this.progressFill.background = ACCENT;
    this.progressFill.horizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    this.progressBox.addControl(this.progressFill);
    this.progressText = new TextBlock("progress-text", "");
    this.progressText.fontSize = 11;
    this.progressText.color = TEXT;
    this.progressBox.addControl(this.progressText);
    this.stack.addControl(this.progressBox);
    this.named.set("progress", this.progressBox);
    this.actionStack = new StackPanel("method-actions");
    this.actionStack.width = "100%";
    this.stack.addControl(this.actionStack);

    this.section("View");
    this.choice("mode", () => RENDER_MODES.map((m) => ({ value: m, label: RENDER_MODE_LABELS[m] })), () => sandbox.renderMode, (m) => this.guard(() => sandbox.setRenderMode(m as RenderMode)));
    for (const t of DISPLAY_TOGGLES) {
      const button = this.button(`display.${t.key}`, t.label, () => this.guard(() => sandbox.setDisplay({ [t.key]: !sandbox.display[t.key] })));
      this.toggles.push({ ...t, button });
    }
    // Issue 8, item 4: a video of the view (the panel is left out of it).
    this.section("Video");
    this.slider("video.seconds", numberParam("Video length", 1, 60, 1, 5, "s", ""), () => this.video.seconds, (v) => (this.video.seconds = v));
    this.slider("video.fps", numberParam("Frames per second", 5, 60, 1, 30, "", ""), () => this.video.fps, (v) => (this.video.fps = v));
    this.choice("video.mode", () => [{ value: "exact", label: "Frame-exact (every frame, however slow)" }, { value: "live", label: "Real time (what the machine draws)" }], () => (this.video.frameExact ? "exact" : "live"), (v) => {
      this.video.frameExact = v === "exact";
      this.sync();
    });
    this.choice("video.caption", () => [{ value: "on", label: "Caption: on" }, { value: "off", label: "Caption: off" }], () => (this.video.caption ? "on" : "off"), (v) => {
      this.video.caption = v === "on";
      this.sync();
    });
    this.button("video.record", "Record video (.webm download)", () => this.guard(() => sandbox.record({ ...this.video, download: true })));

    this.plotsButton = this.button("view.plots", "Plots: off", () => {
      if (!this.plots) return;
      this.plots.setVisible(!this.plots.visible);
      this.sync();
    });

    this.text("Drag to orbit, wheel to zoom.  H hides this panel.", 12, MUTED, 40);

    sandbox.addListener({ changed: () => this.sync(), error: (m) => this.showError(m) });
    window.addEventListener("keydown", (e) => {
      if (e.key === "h" || e.key === "H") this.toggle();
    });
    sandbox.scene.onAfterRenderObservable.add(() => this.updateStats());
    // A click (not a drag) on the tree selects the branch under the mouse, for methods that have
    // per-branch controls.
    sandbox.scene.onPointerObservable.add((pi) => {
      if (pi.type !== PointerEventTypes.POINTERTAP || !sandbox.activeAnimator?.branches) return;
      const x = sandbox.scene.pointerX, y = sandbox.scene.pointerY;
      if (this.frame.isVisible && x < PANEL_WIDTH) return;
      const b = sandbox.branchAt(x, y);
      if (b >= 0) this.guard(() => sandbox.selectBranch(b));
    });
    this.sync();
  }

  private plots: Plots | null = null;
  private plotsButton!: Button;

  /** The plots the "Plots" button shows and hides (issue 8, item 2). */
  setPlots(plots: Plots): void {
    this.plots = plots;
  }

  /** Whether the panel is drawn on the canvas at all (a video leaves it out). */
  setDrawn(drawn: boolean): void {
    if (this.ui.layer) this.ui.layer.isEnabled = drawn;
    this.drawn = drawn;
    this.sandbox.setViewInset(this.drawn && this.frame.isVisible ? PANEL_WIDTH : 0);
  }
  private drawn = true;

  toggle(visible = !this.frame.isVisible): void {
    this.frame.isVisible = visible;
    this.sandbox.setViewInset(this.drawn && visible ? PANEL_WIDTH : 0);
  }

  private readonly compareStack: StackPanel;
  /** The views and the focus the compare rows were built for. */
  private compareFor = "";

  /** A progress bar (hidden until there is progress to show). */
  private progressBar(name: string, into: StackPanel): { box: Rectangle; fill: Rectangle; text: TextBlock } {
    const box = new Rectangle(name);
    box.height = "18px";
    box.width = "100%";
    box.thickness = 1;
    box.color = "#222";
    box.background = "#3a3f38";
    box.isVisible = false;
    const fill = new Rectangle(`${name}-fill`);
    fill.width = "0%";
    fill.thickness = 0;
    fill.background = ACCENT;
    fill.horizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    box.addControl(fill);
    const text = new TextBlock(`${name}-text`, "");
    text.fontSize = 11;
    text.color = TEXT;
    box.addControl(text);
    into.addControl(box);
    this.named.set(name, box);
    return { box, fill, text };
  }

  /** Shows a model's load progress (issue 7, item 1). */
  private refreshLoadBar(): void {
    const p = this.sandbox.loadProgress();
    this.loadBar.box.isVisible = p !== null;
    if (p) {
      this.loadBar.fill.width = `${Math.round(100 * Math.min(1, Math.max(0, p.fraction)))}%`;
      const t = `Loading model: ${p.text}`;
      if (this.loadBar.text.text !== t) this.loadBar.text.text = t;
    }
  }

  /**
   * The model rows (issue 7): what was found (branches, levels, leaves, vertices, scale, up), the
   * up axis, each material's role (wood, leaves, ignore: click to correct), and the tree to show
   * when the file holds several. Rebuilt when the model or its analysis changes.
   */
  private buildModelSection(): void {
    const sb = this.sandbox, m = sb.modelInfo();
    const key = m ? JSON.stringify(m) + sb.treeName : "";
    if (key === this.modelFor) return;
    this.modelFor = key;
    for (const c of [...this.modelStack.children]) {
      this.forget(c);
      c.dispose();
    }
    for (const c of this.grammarOnly) {
      c.isEnabled = !sb.tree || !sb.isModel;
      c.alpha = c.isEnabled ? 1 : 0.4;
    }
    if (!m) return;
    const t = sb.isModel && !m.error ? sb.summary() : null;
    const lines = [
      m.error ? `${m.file}: not shown (correct it below)` : `${m.file}${m.trees.length > 1 ? ` (${m.tree})` : ""}`,
      t ? `${t.branches} branches in ${t.levels} levels, ${m.leafPieces} leaves` : "",
      t ? `${t.vertices.toLocaleString("en")} vertices, ${m.height.toFixed(1)} m tall, ${m.welded ? "welded wood" : `${m.pieces} pieces of wood`}` : "",
      t ? `scale ${m.scale === 1 ? "1 (metres)" : `×${m.scale.toPrecision(3)}`}, up ${m.up} (${m.upDetected ? "detected" : "set"})` : "",
      ...m.notes.map((n) => `· ${n}`),
    ].filter((l) => l !== "");
    const summary = this.text(lines.join("\n"), 12, m.error ? "#ff8a78" : ACCENT, 0, this.modelStack);
    summary.textWrapping = true;
    summary.resizeToFit = true;
    this.named.set("model.summary", summary);
    this.text("Up axis", 12, MUTED, 20, this.modelStack);
    this.choice("model.up", () => [{ value: "auto", label: "auto" }, ...UP_AXES.map((a) => ({ value: a, label: a }))], () => (m.upDetected ? "auto" : m.up ?? "auto"), (v) => this.guard(() => sb.loadTree({ up: v as UpAxis | "auto" })), this.modelStack, true);
    this.text("Wood and leaves (click to correct)", 12, MUTED, 20, this.modelStack);
    m.roles.forEach((r, k) => {
      this.text(`${r.material || "(no material)"}: ${r.reason}${r.corrected ? " (corrected)" : ""}`, 11, MUTED, 16, this.modelStack);
      this.choice(`model.role.${k}`, () => PART_ROLES.map((role) => ({ value: role, label: role })), () => r.role, (v) => this.guard(() => sb.loadTree({ roles: { [r.material]: v as PartRole } })), this.modelStack, true);
    });
    if (m.trees.length > 1) {
      this.text(`The file holds ${m.trees.length} trees: pick one`, 12, MUTED, 20, this.modelStack);
      this.choice("model.tree", () => m.trees.map((n) => ({ value: n, label: n })), () => m.tree, (v) => this.guard(() => sb.loadTree({ object: v })), this.modelStack);
    }
  }

  /**
   * The compare rows: one button per view (method; the focused one highlighted: the method row,
   * parameters, branch and commands are its), "Add a view", and "Remove view N".
   */
  private buildCompareSection(): void {
    const sb = this.sandbox, ids = sb.methodIds, focus = sb.focusedView;
    const key = `${ids.join(",")}#${focus}`;
    if (key === this.compareFor) return;
    this.compareFor = key;
    for (const c of [...this.compareStack.children]) {
      this.forget(c);
      c.dispose();
    }
    if (ids.length > 1) {
      this.text(`Side by side: ${ids.length} views (click one to edit it)`, 12, MUTED, 22, this.compareStack);
      const label = (id: string) => sb.registry.get(id).label;
      this.choice("compare.view", () => ids.map((id, k) => ({ value: String(k), label: `View ${k + 1}: ${label(id)}` })), () => String(sb.focusedView), (k) => this.guard(() => sb.focusView(Number(k))), this.compareStack);
    }
    if (ids.length < MAX_VIEWS) this.button("compare.add", ids.length === 1 ? "Compare: add a view side by side" : "Add a view", () => this.guard(() => sb.addView()), this.compareStack);
    if (ids.length > 1) this.button("compare.remove", `Remove view ${focus + 1}`, () => this.guard(() => sb.removeView(sb.focusedView)), this.compareStack);
  }

  get visible(): boolean {
    return this.frame.isVisible;
  }

  /** The text of a named text block (for tests); null when there is none. */
  textOf(name: string): string | null {
    const c = this.named.get(name);
    return c instanceof TextBlock ? c.text : null;
  }

  /** Page-pixel centre of a named control (for tests driving the real mouse). */
  controlCenter(name: string): { x: number; y: number } | null {
    const r = this.controlRect(name);
    return r ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
  }

  /** The value a named slider shows now (its thumb), or null when there is no such slider. */
  sliderValue(name: string): number | null {
    const c = this.named.get(name);
    return c instanceof Slider ? c.value : null;
  }

  /** Page-pixel rectangle of a named control. Choice rows also answer "name:value" for each button. */
  controlRect(name: string): { left: number; top: number; width: number; height: number } | null {
    const c = this.named.get(name);
    if (!c || !c.isVisible || !this.frame.isVisible) return null;
    // _currentMeasure: the control's last layout, in the texture's pixels (transformedMeasure is only kept for clipped controls).
    const m = c._currentMeasure;
    const canvas = this.sandbox.engine.getRenderingCanvas()!;
    const rect = canvas.getBoundingClientRect();
    const sx = rect.width / this.sandbox.engine.getRenderWidth();
    const sy = rect.height / this.sandbox.engine.getRenderHeight();
    return { left: rect.left + m.left * sx, top: rect.top + m.top * sy, width: m.width * sx, height: m.height * sy };
  }

  // ---------------------------------------------------------------- building blocks

  private heading(s: string, size: number, height: number): TextBlock {
    const t = this.text(s, size, TEXT, height);
    t.fontWeight = "bold";
    return t;
  }

  private section(s: string): void {
    const t = this.text(s.toUpperCase(), 12, ACCENT, 26);
    t.paddingTop = "8px";
    t.fontWeight = "bold";
  }

  private text(s: string, size: number, color: string, height: number, into: StackPanel = this.stack): TextBlock {
    const t = new TextBlock();
    t.text = s;
    t.fontSize = size;
    t.color = color;
    t.textHorizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    if (height > 0) t.height = `${height}px`;
    else t.resizeToFit = true;
    t.width = "100%";
    into.addControl(t);
    return t;
  }

  /**
   * A labelled slider for a number declaration. `apply`: when a value is written (see SliderApply).
   * A "live" slider's `write` may throw or reject (the sandbox has shown why): a value that failed
   * is not tried again in the same drag, nor any value past it (a deeper depth only grows), and the
   * thumb goes back to the state when the mouse lets go.
   */
  private slider(name: string, decl: NumberParam, read: () => number, write: (v: number) => unknown, apply: SliderApply = "change", into: StackPanel = this.stack): void {
    const label = this.text("", 13, TEXT, 20, into);
    const s = new Slider(name);
    s.minimum = decl.min;
    s.maximum = decl.max;
    s.step = decl.step;
    s.value = read();
    s.height = "18px";
    s.width = "100%";
    s.color = ACCENT;
    s.background = "#4a4f48";
    s.borderColor = "#222";
    s.thumbWidth = "14px";
    s.isThumbClamped = true;
    into.addControl(s);
    const spacer = new Rectangle();
    spacer.height = "6px";
    spacer.thickness = 0;
    into.addControl(spacer);
    const digits = decl.step >= 1 ? 0 : decl.step >= 0.1 ? 1 : 2;
    const show = (v: number) => {
      // Values read back from other settings (wind x from speed and direction) may be -0.00001: no "-0.0".
      const shown = Math.abs(v) < 0.5 * Math.pow(10, -digits) ? 0 : v;
      label.text = `${decl.label}: ${shown.toFixed(digits)}${decl.unit ? " " + decl.unit : ""}`;
    };
    show(s.value);
    let held = false;
    let pending: number | null = null;
    let scheduled = false;
    /** In a live drag: the smallest value that failed; it and larger ones are not tried again. */
    let failedFrom = Infinity;
    const fail = (v: number) => {
      failedFrom = Math.min(failedFrom, v);
      if (!held) this.sync();
    };
    const attempt = (v: number) => {
      try {
        const r = write(v);
        if (r instanceof Promise) r.catch(() => fail(v));
      } catch {
        fail(v);
      }
    };
    const flush = () => {
      scheduled = false;
      if (pending === null) return;
      const v = pending;
      pending = null;
      if (v !== read() && v < failedFrom) attempt(v);
    };
    s.onValueChangedObservable.add((v) => {
      show(v);
      if (this.syncing) return;
      if (apply === "change") write(v);
      else {
        pending = v;
        if (apply === "live" && !scheduled) {
          scheduled = true;
          requestAnimationFrame(flush);
        }
      }
    });
    s.onPointerDownObservable.add(() => {
      held = true;
      failedFrom = Infinity;
    });
    s.onPointerUpObservable.add(() => {
      held = false;
      flush();
      // Whatever the drag left (a refused depth, a clamped wind component): show the real state.
      this.sync();
    });
    this.named.set(name, s);
    this.sliders.push({ slider: s, read, held: () => held });
  }

  /** A full-width push button. */
  private button(name: string, label: string, onClick: () => void, into: StackPanel = this.stack): Button {
    const b = Button.CreateSimpleButton(name, label);
    b.height = "26px";
    b.width = "100%";
    b.fontSize = 13;
    b.thickness = 1;
    b.cornerRadius = 3;
    b.paddingBottom = "2px";
    b.color = TEXT;
    b.background = "rgba(255,255,255,0.08)";
    b.onPointerClickObservable.add(() => onClick());
    into.addControl(b);
    this.named.set(name, b);
    return b;
  }

  /** The horizontal wind in Cartesian form, m/s (x toward +x, z toward +z). */
  private windXZ(): { x: number; z: number } {
    const w = this.sandbox.windField.settings();
    const a = (w.direction * Math.PI) / 180;
    return { x: clean(w.speed * Math.cos(a)), z: clean(w.speed * Math.sin(a)) };
  }

  /** A row of buttons, one per option, the current one highlighted. */
  private choice(name: string, options: () => { value: string; label: string }[], read: () => string, write: (v: string) => void, into: StackPanel = this.stack, row = false): void {
    const buttons = new Map<string, Button>();
    const list = options();
    let target = into;
    if (row) {
      // One line of small buttons side by side.
      target = new StackPanel(`${name}-row`);
      target.isVertical = false;
      target.height = "24px";
      target.width = "100%";
      into.addControl(target);
    }
    for (const o of list) {
      const b = Button.CreateSimpleButton(`${name}:${o.value}`, o.label);
      b.height = "24px";
      b.width = row ? `${Math.floor((PANEL_WIDTH - 30) / list.length)}px` : "100%";
      b.fontSize = 13;
      b.thickness = 1;
      b.cornerRadius = 3;
      b.paddingBottom = "2px";
      b.onPointerClickObservable.add(() => {
        if (read() !== o.value) write(o.value);
      });
      target.addControl(b);
      buttons.set(o.value, b);
      this.named.set(`${name}:${o.value}`, b);
    }
    const first = buttons.values().next().value;
    if (first) this.named.set(name, first);
    this.choiceRows.push({ buttons, read });
  }

  // ---------------------------------------------------------------- state

  private guard(f: () => unknown): void {
    try {
      const r = f();
      if (r instanceof Promise) r.catch(() => this.sync());
    } catch {
      // Sandbox.reportError has shown the message; put the controls back to the real state.
      this.sync();
    }
  }

  private sync(): void {
    this.syncing = true;
    try {
      this.buildCompareSection();
      this.buildModelSection();
      if (this.methodParamsFor !== this.sandbox.methodId) this.buildMethodParams();
      this.buildTimelineEditor();
      const branchKey = `${this.sandbox.methodId}#${this.sandbox.selectedBranch}`;
      if (branchKey !== this.branchSectionFor) this.buildBranchSection(branchKey);
      else this.refreshBranchInfo();
      for (const row of this.sliders) {
        if (row.held()) continue;
        const v = row.read();
        if (row.slider.value !== v) row.slider.value = v;
      }
      const custom = this.sandbox.treeName === CUSTOM_TREE;
      this.grammarText.text = `Grammar: ${this.sandbox.grammarName}${custom ? "" : " (shipped)"}`;
      this.grammarText.color = custom ? ACCENT : MUTED;
      if (this.plotsButton) {
        const on = this.plots?.visible ?? false;
        this.plotsButton.textBlock!.text = `Plots: ${on ? "on" : "off"} (tip motion and spectrum)`;
        this.plotsButton.background = on ? ACCENT : "rgba(255,255,255,0.08)";
        this.plotsButton.color = on ? "#1b1b1b" : TEXT;
      }
      const display = this.sandbox.display;
      for (const t of this.toggles) {
        const on = display[t.key];
        t.button.textBlock!.text = `${t.label}: ${on ? "on" : "off"}`;
        t.button.background = on ? ACCENT : "rgba(255,255,255,0.08)";
        t.button.color = on ? "#1b1b1b" : TEXT;
      }
      for (const row of this.choiceRows) {
        const cur = row.read();
        for (const [value, b] of row.buttons) {
          const on = value === cur;
          b.background = on ? ACCENT : "rgba(255,255,255,0.08)";
          b.color = on ? "#1b1b1b" : TEXT;
        }
      }
    } finally {
      this.syncing = false;
    }
  }

  /** The example timeline playing, "off", or "" for an edited one. */
  private timelineName(): string {
    const tl = this.sandbox.windTimeline;
    if (!tl) return "off";
    const text = formatTimeline(tl);
    return Object.keys(EXAMPLE_TIMELINES).find((n) => formatTimeline(EXAMPLE_TIMELINES[n]) === text) ?? "";
  }

  /** Writes the timeline with key `k` changed by `patch` (the sandbox validates it). */
  private editKey(k: number, patch: Partial<WindKey>): void {
    const tl = this.sandbox.windTimeline;
    if (!tl) return;
    const next: WindTimeline = { loop: tl.loop, keys: tl.keys.map((key, i) => (i === k ? { ...key, ...patch } : { ...key })) };
    this.guard(() => this.sandbox.setWindTimeline(next));
  }

  /** The timeline's editor: a plot of it with a playhead, the key being edited and its sliders. */
  private buildTimelineEditor(): void {
    const tl = this.sandbox.windTimeline;
    const k = tl ? Math.min(this.timelineKey, tl.keys.length - 1) : 0;
    this.timelineKey = k;
    const key = tl ? `${tl.keys.length}|${k}|${tl.loop}|${tl.keys[k - 1]?.t}|${tl.keys[k + 1]?.t}` : "none";
    const plotKey = tl ? `${formatTimeline(tl)}|${k}` : "";
    if (tl && this.timelinePlot && plotKey !== this.timelinePlotFor) this.timelinePlot.source = timelinePlot(tl, k);
    this.timelinePlotFor = plotKey;
    if (key === this.timelineFor) return;
    this.timelineFor = key;
    for (const c of [...this.timelineStack.children]) {
      this.forget(c);
      c.dispose();
    }
    for (let i = this.sliders.length - 1; i >= 0; i--) if (this.sliders[i].slider.parent === null) this.sliders.splice(i, 1);
    this.timelinePlot = null;
    this.timelinePlayhead = null;
    if (!tl) return;
    const into = this.timelineStack;
    const frame = new Rectangle("timeline-plot-frame");
    frame.height = `${PLOT_HEIGHT}px`;
    frame.width = "100%";
    frame.thickness = 0;
    const plot = new Image("timeline-plot", timelinePlot(tl, k));
    plot.stretch = Image.STRETCH_FILL;
    frame.addControl(plot);
    const head = new Rectangle("timeline-playhead");
    head.width = "2px";
    head.thickness = 0;
    head.background = "#ffffff";
    head.horizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    frame.addControl(head);
    into.addControl(frame);
    this.named.set("timeline.plot", frame);
    this.timelinePlot = plot;
    this.timelinePlayhead = head;
    this.text(`Orange: speed, blue dots: direction, green: gusts.  Key ${k + 1} of ${tl.keys.length}`, 11, MUTED, 0, into).textWrapping = true;
    this.choice("timeline.key", () => [{ value: "prev", label: "◀ Previous key" }, { value: "next", label: "Next key ▶" }], () => "", (v) => {
      this.timelineKey = Math.max(0, Math.min(tl.keys.length - 1, this.timelineKey + (v === "next" ? 1 : -1)));
      this.sync();
    }, into);
    const cur = () => this.sandbox.windTimeline?.keys[this.timelineKey];
    if (k > 0) {
      const lo = tl.keys[k - 1].t + 0.1, hi = k + 1 < tl.keys.length ? tl.keys[k + 1].t - 0.1 : Math.max(tl.keys[k].t, lo) + 60;
      this.slider("timeline.t", numberParam("Key time", Math.round(lo * 10) / 10, Math.round(hi * 10) / 10, 0.1, tl.keys[k].t, "s", ""), () => cur()?.t ?? 0, (v) => this.editKey(k, { t: v }), "release", into);
    }
    this.slider("timeline.speed", { ...WIND_PARAMS.speed, label: "Key speed" }, () => cur()?.speed ?? 0, (v) => this.editKey(k, { speed: v }), "release", into);
    this.slider("timeline.direction", { ...WIND_PARAMS.direction, label: "Key direction" }, () => cur()?.direction ?? 0, (v) => this.editKey(k, { direction: v }), "release", into);
    this.slider("timeline.gust", { ...WIND_PARAMS.gust, label: "Key gusts" }, () => cur()?.gust ?? 0, (v) => this.editKey(k, { gust: v }), "release", into);
    this.choice("timeline.edit", () => [
      { value: "add", label: "Add a key after this one" },
      ...(k > 0 ? [{ value: "remove", label: "Remove this key" }] : []),
      { value: "loop", label: tl.loop ? "Plays in a loop (click: once)" : "Plays once (click: loop)" },
    ], () => "", (v) => {
      const now = this.sandbox.windTimeline;
      if (!now) return;
      const keys = now.keys.map((x) => ({ ...x }));
      if (v === "add") {
        const t0 = keys[k].t, t1 = k + 1 < keys.length ? keys[k + 1].t : t0 + 10;
        keys.splice(k + 1, 0, { ...keys[k], t: Math.round(((t0 + t1) / 2) * 10) / 10 });
        this.timelineKey = k + 1;
      } else if (v === "remove") {
        keys.splice(k, 1);
        this.timelineKey = k - 1;
      }
      this.guard(() => this.sandbox.setWindTimeline({ loop: v === "loop" ? !now.loop : now.loop, keys }));
    }, into);
  }

  /** Moves the timeline plot's playhead to the clock's time. */
  private movePlayhead(): void {
    const tl = this.sandbox.windTimeline, head = this.timelinePlayhead;
    if (!tl || !head) return;
    const end = Math.max(1e-6, tl.keys[tl.keys.length - 1].t);
    let t = this.sandbox.clock.time;
    t = tl.loop ? t % end : Math.min(t, end);
    const width = head.parent?._currentMeasure.width ?? PANEL_WIDTH - 28;
    const px = `${Math.round((t / end) * (width - 2))}px`;
    if (head.left !== px) head.left = px;
  }

  private buildMethodParams(): void {
    const sb = this.sandbox;
    const p = sb.activeProvider;
    this.methodParamsFor = p.id;
    for (const c of [...this.methodStack.children]) {
      this.forget(c);
      c.dispose();
    }
    // Drop the sliders that belonged to the previous method.
    for (let i = this.sliders.length - 1; i >= 0; i--) if (this.sliders[i].slider.parent === null) this.sliders.splice(i, 1);
    const decls = p.params as Record<string, ParamDecl>;
    // damping first: the shared control every method declares.
    const keys = ["damping", ...Object.keys(decls).filter((k) => k !== "damping")];
    for (const key of keys) {
      const d = decls[key];
      const read = () => sb.getParams(p.id)[key];
      const write = (v: number | string | boolean) => this.guard(() => sb.setParams(p.id, { [key]: v }));
      const name = key === "damping" ? "damping" : `${p.id}.${key}`;
      if (d.kind === "number") this.slider(name, d, () => read() as number, write, "change", this.methodStack);
      else if (d.kind === "boolean") this.choice(name, () => [{ value: "true", label: `${d.label}: on` }, { value: "false", label: `${d.label}: off` }], () => String(read()), (v) => write(v === "true"), this.methodStack);
      else this.choice(name, () => d.options.map((o) => ({ value: o, label: o })), () => read() as string, write, this.methodStack);
    }
    this.text(p.source, 11, MUTED, 0, this.methodStack).textWrapping = true;
  }

  private branchInfoText: TextBlock | null = null;

  private buildBranchSection(key: string): void {
    const sb = this.sandbox;
    this.branchSectionFor = key;
    for (const c of [...this.branchStack.children]) {
      this.forget(c);
      c.dispose();
    }
    for (let i = this.sliders.length - 1; i >= 0; i--) if (this.sliders[i].slider.parent === null) this.sliders.splice(i, 1);
    this.branchInfoText = null;
    const editor = sb.activeAnimator?.branches;
    const b = sb.selectedBranch;
    if (!editor) return;
    if (b < 0) {
      this.text("Click a branch to select it.", 12, MUTED, 22, this.branchStack);
      return;
    }
    const heading = this.text(`SELECTED BRANCH ${b}`, 13, ACCENT, 26, this.branchStack);
    heading.fontWeight = "bold";
    this.branchInfoText = this.text("", 12, TEXT, 0, this.branchStack);
    this.branchInfoText.textWrapping = true;
    this.refreshBranchInfo();
    for (const [key, c] of Object.entries(editor.controls)) {
      const decl: NumberParam = { kind: "number", label: c.label, min: c.min, max: c.max, step: c.step, default: c.read(b), unit: c.unit, help: "" };
      this.slider(`branch.${key}`, decl, () => c.read(b), (v) => this.guard(() => sb.editBranch(b, { [key]: v })), "change", this.branchStack);
    }
    const reset = Object.fromEntries(Object.keys(editor.controls).map((k) => [k, k === "stiffness" ? 1 : null]));
    this.choice("branch.actions", () => [{ value: "reset", label: "Reset this branch" }, { value: "clear", label: "Clear selection" }], () => "", (v) => {
      if (v === "reset") this.guard(() => sb.editBranch(b, reset));
      else this.guard(() => sb.selectBranch(-1));
    }, this.branchStack);
  }

  private refreshBranchInfo(): void {
    const b = this.sandbox.selectedBranch;
    if (!this.branchInfoText || b < 0) return;
    const info = this.sandbox.branchInfo(b);
    this.branchInfoText.text = Object.entries(info)
      .filter(([k]) => k !== "branch")
      .map(([k, v]) => `${k}: ${typeof v === "number" ? v.toLocaleString("en", { maximumFractionDigits: 3 }) : String(v)}`)
      .join("   ");
  }

  private forget(c: Control): void {
    for (const [k, v] of this.named) if (v === c) this.named.delete(k);
    for (let i = this.choiceRows.length - 1; i >= 0; i--) {
      if ([...this.choiceRows[i].buttons.values()].includes(c as Button)) this.choiceRows.splice(i, 1);
    }
  }

  /** Rebuilds the command buttons when the method's list changes; moves the progress bar. */
  private refreshActions(): void {
    const list = this.sandbox.actionList();
    const key = `${this.sandbox.methodId}|${list.map((a) => `${a.id}:${a.label}:${a.enabled}:${a.active}`).join("|")}`;
    if (key !== this.actionsFor) {
      this.actionsFor = key;
      for (const c of [...this.actionStack.children]) {
        this.forget(c);
        c.dispose();
      }
      for (const a of list) {
        const b = this.button(`action.${a.id}`, a.label, () => this.guard(() => this.sandbox.runAction(a.id)), this.actionStack);
        b.isEnabled = a.enabled;
        b.alpha = a.enabled ? 1 : 0.5;
        if (a.active) {
          b.background = ACCENT;
          b.color = "#1b1b1b";
        }
      }
    }
    const p = this.sandbox.actionProgress();
    this.progressBox.isVisible = p !== null;
    if (p) {
      this.progressFill.width = `${Math.round(100 * Math.min(1, Math.max(0, p.fraction)))}%`;
      if (this.progressText.text !== p.text) this.progressText.text = p.text;
    }
  }

  private updateStats(): void {
    this.refreshActions();
    this.refreshLoadBar();
    this.movePlayhead();
    const st = this.sandbox.stats();
    const s = this.sandbox.tree?.skeleton;
    this.statsText.text =
      `${st.fps.toFixed(0)} fps  ${st.frameMs.toFixed(1)} ms/frame  ${st.animatorMs.toFixed(2)} ms animator${this.sandbox.isPaused ? "  (paused)" : ""}\n` +
      `${st.vertices.toLocaleString("en")} vertices  ${s?.branchCount ?? 0} branches\n${s?.leafCount ?? 0} leaves  t = ${this.sandbox.clock.time.toFixed(1)} s`;
    const notes = st.notes.join("\n");
    if (notes !== this.notesText.text) {
      this.notesText.text = notes;
      this.notesText.isVisible = notes.length > 0;
    }
  }

  private showError(message: string): void {
    this.errorText.text = message;
    this.errorBox.isVisible = true;
    if (this.errorTimer) clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => {
      this.errorBox.isVisible = false;
    }, 12000);
  }

  dispose(): void {
    this.ui.dispose();
  }
}

/** Rounds away float noise (1e-15) so a slider reads 0, not -0.0000001. */
function clean(v: number): number {
  return Math.round(v * 1e6) / 1e6 + 0;
}

/**
 * Speed and direction from the wind's x and z components (Barron 2006 §6.1), direction 0 toward
 * +x and 90 toward +z. Past the speed limit the component being edited (`edited`) gives way, so the
 * other one stays where it was; at no horizontal wind the direction is kept.
 */
export function horizontalWind(x: number, z: number, edited: "x" | "z", direction: number): Pick<WindSettings, "speed" | "direction"> {
  const max = WIND_PARAMS.speed.max;
  if (Math.hypot(x, z) > max) {
    if (edited === "x") x = Math.sign(x) * Math.sqrt(Math.max(0, max * max - z * z));
    else z = Math.sign(z) * Math.sqrt(Math.max(0, max * max - x * x));
  }
  const speed = Math.min(max, Math.hypot(x, z));
  if (speed < 1e-9) return { speed: 0, direction };
  const deg = (Math.atan2(z, x) * 180) / Math.PI;
  return { speed, direction: clean((deg + 360) % 360) };
}

/** Height of the wind timeline's plot, page pixels. */
const PLOT_HEIGHT = 70;

/**
 * The wind timeline as a small picture (a data URL for the panel's Image): speed in orange, gusts
 * in green (both on 0 to the timeline's top speed), direction as blue dots (0 to 360°), keys as
 * ticks, the key being edited brighter.
 */
function timelinePlot(tl: WindTimeline, selected: number): string {
  const w = 2 * (PANEL_WIDTH - 20), h = 2 * PLOT_HEIGHT;
  const c = document.createElement("canvas");
  c.width = w;
  c.height = h;
  const g = c.getContext("2d")!;
  g.fillStyle = "#2a2f28";
  g.fillRect(0, 0, w, h);
  const end = Math.max(1e-6, tl.keys[tl.keys.length - 1].t), top = Math.max(1, ...tl.keys.map((k) => k.speed)) * 1.1;
  const x = (t: number) => (t / end) * (w - 4) + 2, y = (v: number, max: number) => h - 4 - (v / max) * (h - 8);
  const now = { speed: 0, direction: 0, gust: 0 };
  const curve = (color: string, value: () => number, max: number, dots: boolean) => {
    g.strokeStyle = g.fillStyle = color;
    g.lineWidth = 3;
    g.beginPath();
    for (let i = 0; i <= 120; i++) {
      const t = (i / 120) * end;
      timelineAt({ ...tl, loop: false }, t, now);
      if (dots) g.fillRect(x(t) - 2, y(value(), max) - 2, 4, 4);
      else if (i === 0) g.moveTo(x(t), y(value(), max));
      else g.lineTo(x(t), y(value(), max));
    }
    if (!dots) g.stroke();
  };
  curve("#6fbf60", () => now.gust * top, top, false);
  curve("#5aa0ff", () => now.direction, 360, true);
  curve("#e0a040", () => now.speed, top, false);
  tl.keys.forEach((k, i) => {
    g.fillStyle = i === selected ? "#ffffff" : "#999999";
    g.fillRect(x(k.t) - (i === selected ? 3 : 1), 0, i === selected ? 6 : 2, 10);
  });
  g.fillStyle = "#dddddd";
  g.font = "20px sans-serif";
  g.fillText(`${top.toFixed(0)} m/s`, 6, 22);
  g.fillText(`${end.toFixed(0)} s${tl.loop ? ", loop" : ", once"}`, w - 130, 22);
  return c.toDataURL();
}
