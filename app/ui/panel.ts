/**
 * The control panel (@babylonjs/gui), drawn on the canvas: a frame that scrolls, the stats line,
 * the method's notes and the error line, and the sections (sections/): method and views, selected
 * branch, tree, physical tree, wind with the timeline editor, method parameters and commands, view, video. Key H
 * hides it. It drives the app only through the sandbox's API (types only are imported from the
 * sandbox), and refreshes a section when a change it shows is announced.
 */
import type { Observer } from "@babylonjs/core/Misc/observable";
import { AdvancedDynamicTexture } from "@babylonjs/gui/2D/advancedDynamicTexture";
import { Control } from "@babylonjs/gui/2D/controls/control";
import { Rectangle } from "@babylonjs/gui/2D/controls/rectangle";
import { StackPanel } from "@babylonjs/gui/2D/controls/stackPanel";
import { TextBlock } from "@babylonjs/gui/2D/controls/textBlock";
import { Slider } from "@babylonjs/gui/2D/controls/sliders/slider";
import { ScrollViewer } from "@babylonjs/gui/2D/controls/scrollViewers/scrollViewer";
import type { SandboxChange, SandboxPanelApi } from "../sandbox/api";
import type { Plots } from "./plots";
import { branchSection } from "./sections/branch-section";
import { calibrationSection } from "./sections/calibration-section";
import { exportSection } from "./sections/export-section";
import { forestSection } from "./sections/forest-section";
import { methodSection } from "./sections/method-section";
import { paramsSection } from "./sections/params-section";
import { physicsSection } from "./sections/physics-section";
import { primitivesSection } from "./sections/primitives-section";
import type { PanelSection } from "./sections/section";
import { treeSection } from "./sections/tree-section";
import { videoSection } from "./sections/video-section";
import { viewSection } from "./sections/view-section";
import type { QualityLevel } from "../sandbox/render-quality";
import { windSection } from "./sections/wind-section";
import { MUTED, PANEL_WIDTH, Scope, TEXT } from "./widgets";

export interface PanelOptions {
  /** Opens the browser's file chooser for a grammar or model file (the panel shows a button for it when given). */
  openGrammarFile?: () => void;
  /** Opens the chooser for a motion file to play beside the tree (the Export section shows a button for it when given). */
  openMotionFile?: () => void;
  /** Opens the page again at another render quality (the View section shows the choice when given). */
  setQuality?: (level: QualityLevel | "auto") => void;
}

/** How long an error stays on screen unless clicked away, ms. */
const ERROR_SHOWN_MS = 12000;

export class Panel {
  readonly ui: AdvancedDynamicTexture;
  private readonly frame: Rectangle;
  private readonly stack: StackPanel;
  private readonly named = new Map<string, Control>();
  private readonly sections: PanelSection[] = [];
  private readonly statsText: TextBlock;
  /** The method's own notes under the stats (sub-stepping, blended frames). */
  private readonly notesText: TextBlock;
  private readonly errorText: TextBlock;
  private readonly errorBox: Rectangle;
  private errorTimer: ReturnType<typeof setTimeout> | null = null;
  private plots: Plots | null = null;
  private drawn = true;
  /** Branches and leaves of the tree on show, for the stats line. */
  private counts = { branches: 0, leaves: 0 };
  private readonly observers: Observer<unknown>[] = [];
  private readonly onKey = (e: KeyboardEvent) => {
    if (e.key === "h" || e.key === "H") this.toggle();
  };

  constructor(private readonly sandbox: SandboxPanelApi, options: PanelOptions = {}) {
    this.ui = AdvancedDynamicTexture.CreateFullscreenUI("panel", true, sandbox.scene);
    // Drawn once, over the whole canvas, by the sandbox's GUI camera (not once per compare view).
    if (this.ui.layer) this.ui.layer.layerMask = sandbox.guiLayer;
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

    const top = new Scope(this.stack, this.named);
    top.text("Tree Wind Sandbox", 22, TEXT, 34).fontWeight = "bold";
    this.statsText = top.text("", 12, MUTED, 50);
    this.notesText = top.note("", 12, "#f0c070");
    this.notesText.isVisible = false;
    ({ box: this.errorBox, text: this.errorText } = this.errorLine());

    const section = (make: (scope: Scope) => PanelSection) => {
      const s = make(new Scope(this.stack, this.named));
      this.sections.push(s);
      return s;
    };
    section((s) => methodSection(sandbox, s));
    section((s) => branchSection(sandbox, s, (x) => this.frame.isVisible && x < PANEL_WIDTH));
    section((s) => treeSection(sandbox, s, options.openGrammarFile));
    section((s) => physicsSection(sandbox, s));
    section((s) => calibrationSection(sandbox, s));
    section((s) => windSection(sandbox, s));
    section((s) => primitivesSection(sandbox, s, (x) => this.frame.isVisible && x < PANEL_WIDTH));
    section((s) => forestSection(sandbox, s));
    section((s) => paramsSection(sandbox, s));
    section((s) => viewSection(sandbox, s, options.setQuality));
    section((s) => videoSection(sandbox, s));
    section((s) => exportSection(sandbox, s, options.openMotionFile));
    section((s) => {
      const plots = s.toggle("view.plots", "Plots", () => this.plots?.visible ?? false, (on) => this.plots?.setVisible(on), " (tip motion and spectrum)");
      s.text("Drag to orbit, wheel to zoom.  H hides this panel.", 12, MUTED, 40);
      return { on: [], refresh: () => plots.refresh() };
    });
    this.readCounts();

    const ev = sandbox.events;
    this.watch(ev.changes.add((what) => this.changed(what)));
    this.watch(ev.errors.add((m) => this.showError(m)));
    this.watch(sandbox.scene.onAfterRenderObservable.add(() => this.everyFrame()));
    window.addEventListener("keydown", this.onKey);
  }

  private watch<T>(o: Observer<T> | null): void {
    if (o) this.observers.push(o as Observer<unknown>);
  }

  /** The error line floats at the foot of the panel, over the controls: seen wherever the panel is scrolled, and it does not push a slider under the mouse away. A click dismisses it. */
  private errorLine(): { box: Rectangle; text: TextBlock } {
    const box = new Rectangle("panel-error");
    box.width = "100%";
    box.adaptHeightToChildren = true;
    box.verticalAlignment = Control.VERTICAL_ALIGNMENT_BOTTOM;
    box.background = "rgba(48, 18, 14, 0.95)";
    box.thickness = 0;
    box.isVisible = false;
    box.isPointerBlocker = true;
    const text = new TextBlock("panel-error-text");
    text.fontSize = 13;
    text.color = "#ff8a78";
    text.textWrapping = true;
    text.resizeToFit = true;
    text.width = "100%";
    text.paddingLeft = "10px";
    text.paddingRight = "12px";
    text.paddingTop = "8px";
    text.paddingBottom = "10px";
    text.textHorizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    box.addControl(text);
    box.onPointerClickObservable.add(() => {
      box.isVisible = false;
    });
    this.frame.addControl(box);
    this.named.set("error", box);
    return { box, text };
  }

  /** Refreshes the sections that show `what`. */
  private changed(what: SandboxChange): void {
    if (what === "tree") this.readCounts();
    for (const s of this.sections) if (s.on.includes(what)) s.refresh();
  }

  private readCounts(): void {
    const s = this.sandbox.tree().summary;
    this.counts = { branches: s.branches, leaves: s.leaves };
  }

  /** The plots the "Plots" button shows and hides. */
  setPlots(plots: Plots): void {
    this.plots = plots;
    for (const s of this.sections) s.refresh();
  }

  /** Whether the panel is drawn on the canvas at all (a video leaves it out). */
  setDrawn(drawn: boolean): void {
    if (this.ui.layer) this.ui.layer.isEnabled = drawn;
    this.drawn = drawn;
    this.sandbox.setViewInset(this.drawn && this.frame.isVisible ? PANEL_WIDTH : 0);
  }

  toggle(visible = !this.frame.isVisible): void {
    this.frame.isVisible = visible;
    this.sandbox.setViewInset(this.drawn && visible ? PANEL_WIDTH : 0);
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
    const engine = this.sandbox.scene.getEngine();
    const rect = engine.getRenderingCanvas()!.getBoundingClientRect();
    const sx = rect.width / engine.getRenderWidth();
    const sy = rect.height / engine.getRenderHeight();
    return { left: rect.left + m.left * sx, top: rect.top + m.top * sy, width: m.width * sx, height: m.height * sy };
  }

  private everyFrame(): void {
    for (const s of this.sections) s.frame?.();
    const sb = this.sandbox, st = sb.stats(), c = this.counts;
    this.statsText.text =
      `${st.fps.toFixed(0)} fps  ${st.frameMs.toFixed(1)} ms/frame  ${st.animatorMs.toFixed(2)} ms animator${sb.paused() ? "  (paused)" : ""}\n` +
      `${st.vertices.toLocaleString("en")} vertices  ${c.branches} branches\n${c.leaves} leaves  t = ${sb.time().toFixed(1)} s`;
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
    }, ERROR_SHOWN_MS);
  }

  /** Removes every observer and listener the panel and its sections added, and its GUI texture. */
  dispose(): void {
    for (const o of this.observers.splice(0)) o.remove();
    for (const s of this.sections) s.dispose?.();
    window.removeEventListener("keydown", this.onKey);
    if (this.errorTimer) clearTimeout(this.errorTimer);
    this.ui.dispose();
  }
}
