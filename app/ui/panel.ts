/**
 * The control panel (@babylonjs/gui), drawn on the canvas. Method and tree pickers, depth and
 * taper, the shared wind, damping, then the active method's own parameters generated from its
 * declarations, render mode, a stats line and an error line. Key H hides it.
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
import type { NumberParam, ParamDecl } from "../math/params";
import { DEPTH_SLIDER_MAX, type Sandbox } from "../sandbox/sandbox";
import { RENDER_MODE_LABELS, RENDER_MODES, type RenderMode } from "../sandbox/tree-view";
import { TAPER_PARAM } from "../tree/taper";
import { TREE_PRESETS } from "../lsystem/presets";
import { WIND_PARAMS, type WindSettings } from "../wind/wind-field";

const PANEL_WIDTH = 300;
const ACCENT = "#e0a040";
const TEXT = "#f2f2ee";
const MUTED = "#b8bcb4";

interface SliderRow {
  slider: Slider;
  read: () => number;
}

export class Panel {
  readonly ui: AdvancedDynamicTexture;
  private readonly frame: Rectangle;
  private readonly stack: StackPanel;
  private readonly methodStack: StackPanel;
  private readonly branchStack: StackPanel;
  /** "method#branch" the branch section was built for. */
  private branchSectionFor = "";
  private readonly named = new Map<string, Control>();
  private readonly sliders: SliderRow[] = [];
  private readonly choiceRows: { buttons: Map<string, Button>; read: () => string }[] = [];
  private readonly statsText: TextBlock;
  private readonly errorText: TextBlock;
  private methodParamsFor = "";
  private syncing = false;
  private errorTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly sandbox: Sandbox) {
    this.ui = AdvancedDynamicTexture.CreateFullscreenUI("panel", true, sandbox.scene);
    this.frame = new Rectangle("panel-frame");
    this.frame.width = `${PANEL_WIDTH}px`;
    this.frame.height = "100%";
    this.frame.horizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    this.frame.background = "rgba(24, 28, 24, 0.78)";
    this.frame.thickness = 0;
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

    this.heading("Tree Wind Sandbox", 22, 34);
    this.statsText = this.text("", 12, MUTED, 50);
    this.errorText = this.text("", 13, "#ff8a78", 0);
    this.errorText.textWrapping = true;
    this.errorText.isVisible = false;

    this.section("Method");
    this.choice("method", () => sandbox.registry.list().map((p) => ({ value: p.id, label: p.label })), () => sandbox.methodId, (id) => this.guard(() => sandbox.use(id)));

    // Habel 2009 Fig. 11: a clicked branch, its properties and its own stiffness and damping.
    this.branchStack = new StackPanel("branch-section");
    this.branchStack.width = "100%";
    this.stack.addControl(this.branchStack);

    this.section("Tree");
    this.choice("tree", () => TREE_PRESETS.map((p) => ({ value: p.name, label: p.label })), () => sandbox.treeName, (name) => this.guard(() => sandbox.loadTree({ preset: name })));
    this.slider("depth", { kind: "number", label: "Derivation depth", min: 0, max: DEPTH_SLIDER_MAX, step: 1, default: 5, unit: "", help: "" }, () => sandbox.depth, (v) => this.guard(() => sandbox.loadTree({ depth: v })), true);
    this.slider("taper", TAPER_PARAM, () => sandbox.taper, (v) => this.guard(() => sandbox.loadTree({ taper: v })), true);

    this.section("Wind");
    for (const key of ["speed", "direction", "turbulence", "gust"] as const) {
      this.slider(`wind.${key}`, WIND_PARAMS[key], () => sandbox.windField.settings()[key], (v) => this.guard(() => sandbox.setWind({ [key]: v } as Partial<WindSettings>)));
    }

    this.section("Method parameters");
    this.methodStack = new StackPanel("method-params");
    this.methodStack.width = "100%";
    this.stack.addControl(this.methodStack);

    this.section("View");
    this.choice("mode", () => RENDER_MODES.map((m) => ({ value: m, label: RENDER_MODE_LABELS[m] })), () => sandbox.renderMode, (m) => this.guard(() => sandbox.setRenderMode(m as RenderMode)));
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

  toggle(visible = !this.frame.isVisible): void {
    this.frame.isVisible = visible;
  }

  get visible(): boolean {
    return this.frame.isVisible;
  }

  /** Page-pixel centre of a named control (for tests driving the real mouse). */
  controlCenter(name: string): { x: number; y: number } | null {
    const r = this.controlRect(name);
    return r ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
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

  /** A labelled slider for a number declaration. `onRelease`: apply when the mouse is released (for rebuilds). */
  private slider(name: string, decl: NumberParam, read: () => number, write: (v: number) => void, onRelease = false, into: StackPanel = this.stack): void {
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
      label.text = `${decl.label}: ${v.toFixed(digits)}${decl.unit ? " " + decl.unit : ""}`;
    };
    show(s.value);
    let pending: number | null = null;
    s.onValueChangedObservable.add((v) => {
      show(v);
      if (this.syncing) return;
      if (onRelease) pending = v;
      else write(v);
    });
    if (onRelease) {
      s.onPointerUpObservable.add(() => {
        if (pending !== null && pending !== read()) write(pending);
        pending = null;
      });
    }
    this.named.set(name, s);
    this.sliders.push({ slider: s, read });
  }

  /** A row of buttons, one per option, the current one highlighted. */
  private choice(name: string, options: () => { value: string; label: string }[], read: () => string, write: (v: string) => void, into: StackPanel = this.stack): void {
    const buttons = new Map<string, Button>();
    for (const o of options()) {
      const b = Button.CreateSimpleButton(`${name}:${o.value}`, o.label);
      b.height = "24px";
      b.width = "100%";
      b.fontSize = 13;
      b.thickness = 1;
      b.cornerRadius = 3;
      b.paddingBottom = "2px";
      b.onPointerClickObservable.add(() => {
        if (read() !== o.value) write(o.value);
      });
      into.addControl(b);
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
      if (this.methodParamsFor !== this.sandbox.methodId) this.buildMethodParams();
      const branchKey = `${this.sandbox.methodId}#${this.sandbox.selectedBranch}`;
      if (branchKey !== this.branchSectionFor) this.buildBranchSection(branchKey);
      else this.refreshBranchInfo();
      for (const row of this.sliders) {
        const v = row.read();
        if (row.slider.value !== v) row.slider.value = v;
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
      if (d.kind === "number") this.slider(name, d, () => read() as number, write, false, this.methodStack);
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
      this.slider(`branch.${key}`, decl, () => c.read(b), (v) => this.guard(() => sb.editBranch(b, { [key]: v })), false, this.branchStack);
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

  private updateStats(): void {
    const st = this.sandbox.stats();
    const s = this.sandbox.tree?.skeleton;
    this.statsText.text =
      `${st.fps.toFixed(0)} fps  ${st.frameMs.toFixed(1)} ms/frame  ${st.animatorMs.toFixed(2)} ms animator${this.sandbox.isPaused ? "  (paused)" : ""}\n` +
      `${st.vertices.toLocaleString("en")} vertices  ${s?.branchCount ?? 0} branches\n${s?.leafCount ?? 0} leaves  t = ${this.sandbox.clock.time.toFixed(1)} s`;
  }

  private showError(message: string): void {
    this.errorText.text = message;
    this.errorText.isVisible = true;
    if (this.errorTimer) clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => {
      this.errorText.isVisible = false;
    }, 12000);
  }

  dispose(): void {
    this.ui.dispose();
  }
}
