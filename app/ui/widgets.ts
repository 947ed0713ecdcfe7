/**
 * The panel's one widget factory. `control()` turns a parameter declaration into its control (a
 * slider for a number, an on/off pair for a boolean, a row of buttons for a choice), bound to a
 * read and a write: every parameter-like thing in the panel (the methods' parameters, the wind,
 * the timeline's keys, a branch's overrides, depth, taper, the video settings) goes through it,
 * and each control's `refresh()` shows the state now. A `Scope` is a stack of controls that can
 * be refreshed or cleared together; a `Group` is a scope rebuilt when its key changes (the
 * method's parameters when the method changes, say), so the bookkeeping of rebuilt sections is
 * in one place.
 */
import { Control } from "@babylonjs/gui/2D/controls/control";
import { Rectangle } from "@babylonjs/gui/2D/controls/rectangle";
import { StackPanel } from "@babylonjs/gui/2D/controls/stackPanel";
import { TextBlock } from "@babylonjs/gui/2D/controls/textBlock";
import { Slider } from "@babylonjs/gui/2D/controls/sliders/slider";
import { Button } from "@babylonjs/gui/2D/controls/button";
import type { NumberParam, ParamDecl } from "../math/params";

export const PANEL_WIDTH = 300;
export const ACCENT = "#e0a040";
export const TEXT = "#f2f2ee";
export const MUTED = "#b8bcb4";
const OFF_BACKGROUND = "rgba(255,255,255,0.08)";

/**
 * When a slider applies its value: "change" on every change, "release" when the mouse lets go,
 * "live" while dragging, at most once per rendered frame (the latest value wins), and on release.
 */
export type SliderApply = "change" | "release" | "live";

/** A control bound to the state. */
export interface Bound {
  readonly control: Control;
  /** Shows the state now (a slider the mouse holds keeps its thumb). */
  refresh(): void;
}

export interface ControlOptions {
  apply?: SliderApply;
  /** Choices and booleans: one line of small buttons side by side. */
  row?: boolean;
  /** Choices: the label of each option (default: the option itself). */
  labels?: (value: string) => string;
}

type Write<T> = (v: T) => unknown;

/** Runs a write; a write that throws or rejects (the sandbox has shown why) puts the control back to the state. */
function attempt(write: () => unknown, failed: () => void): void {
  try {
    const r = write();
    if (r instanceof Promise) r.catch(failed);
  } catch {
    failed();
  }
}

/** A stack of controls, refreshed and cleared together. Controls with a name can be found by tests (`named`). */
export class Scope {
  private readonly bound: Bound[] = [];
  private readonly groups: Group[] = [];

  constructor(readonly into: StackPanel, readonly named: Map<string, Control>) {}

  /** A line of text (height 0: as tall as its text). */
  text(s: string, size: number, color: string, height: number): TextBlock {
    const t = new TextBlock();
    t.text = s;
    t.fontSize = size;
    t.color = color;
    t.textHorizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
    if (height > 0) t.height = `${height}px`;
    else t.resizeToFit = true;
    t.width = "100%";
    this.into.addControl(t);
    return t;
  }

  /** Wrapping text as tall as it needs. */
  note(s: string, size: number, color: string): TextBlock {
    const t = this.text(s, size, color, 0);
    t.textWrapping = true;
    return t;
  }

  section(s: string): void {
    const t = this.text(s.toUpperCase(), 12, ACCENT, 26);
    t.paddingTop = "8px";
    t.fontWeight = "bold";
  }

  /** A full-width push button. */
  button(name: string, label: string, onClick: () => unknown): Button {
    const b = Button.CreateSimpleButton(name, label);
    b.height = "26px";
    b.width = "100%";
    b.fontSize = 13;
    b.thickness = 1;
    b.cornerRadius = 3;
    b.paddingBottom = "2px";
    b.color = TEXT;
    b.background = OFF_BACKGROUND;
    b.onPointerClickObservable.add(() => attempt(onClick, () => this.refresh()));
    this.into.addControl(b);
    this.named.set(name, b);
    return b;
  }

  /** A button that shows "label: on/off" (then `suffix`) and flips a boolean. */
  toggle(name: string, label: string, read: () => boolean, write: Write<boolean>, suffix = ""): Bound {
    let bound: Bound | null = null;
    const b = this.button(name, label, () => {
      const r = write(!read());
      bound?.refresh();
      return r;
    });
    bound = this.bind(b, () => {
      const on = read();
      b.textBlock!.text = `${label}: ${on ? "on" : "off"}${suffix}`;
      highlight(b, on);
    });
    return bound;
  }

  /** The control for a declaration: slider, on/off pair or choice row. */
  control(name: string, decl: ParamDecl, read: () => unknown, write: Write<never>, o: ControlOptions = {}): Bound {
    if (decl.kind === "number") return this.slider(name, decl, read as () => number, write as Write<number>, o.apply);
    if (decl.kind === "boolean") {
      return this.choice(name, () => [{ value: "true", label: `${decl.label}: on` }, { value: "false", label: `${decl.label}: off` }], () => String(read()), (v) => (write as Write<boolean>)(v === "true"), o.row);
    }
    return this.choice(name, () => decl.options.map((v) => ({ value: v, label: o.labels?.(v) ?? v })), () => String(read()), write as Write<string>, o.row);
  }

  /**
   * A labelled slider. A "live" slider's write may throw or reject: a value that failed is not
   * tried again in the same drag, nor any value past it (a deeper depth only grows), and the thumb
   * goes back to the state when the mouse lets go.
   */
  slider(name: string, decl: NumberParam, read: () => number, write: Write<number>, apply: SliderApply = "change"): Bound {
    const label = this.text("", 13, TEXT, 20);
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
    this.into.addControl(s);
    const spacer = new Rectangle();
    spacer.height = "6px";
    spacer.thickness = 0;
    this.into.addControl(spacer);
    // As many decimals as the step has (0.05: 2, 0.0005: 4; at most 4), at least 2 below 0.1.
    const stepDecimals = (String(decl.step).split(".")[1] ?? "").length;
    const digits = decl.step >= 1 ? 0 : decl.step >= 0.1 ? 1 : Math.min(4, Math.max(2, stepDecimals));
    const show = (v: number) => {
      // Values read back from other settings (wind x from speed and direction) may be -0.00001: no "-0.0".
      const shown = Math.abs(v) < 0.5 * Math.pow(10, -digits) ? 0 : v;
      label.text = `${decl.label}: ${shown.toFixed(digits)}${decl.unit ? " " + decl.unit : ""}`;
    };
    show(s.value);
    let held = false, syncing = false, pending: number | null = null, scheduled = false;
    /** In a live drag: the smallest value that failed; it and larger ones are not tried again. */
    let failedFrom = Infinity;
    const refresh = () => {
      if (held) return;
      const v = read();
      syncing = true;
      if (s.value !== v) s.value = v;
      syncing = false;
    };
    const tryWrite = (v: number) => attempt(() => write(v), () => {
      failedFrom = Math.min(failedFrom, v);
      refresh();
    });
    const flush = () => {
      scheduled = false;
      if (pending === null) return;
      const v = pending;
      pending = null;
      if (v !== read() && v < failedFrom) tryWrite(v);
    };
    s.onValueChangedObservable.add((v) => {
      show(v);
      if (syncing) return;
      if (apply === "change") tryWrite(v);
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
      refresh();
    });
    this.named.set(name, s);
    return this.bind(s, refresh);
  }

  /** A row of buttons, one per option, the current one highlighted; a click writes its value. */
  choice(name: string, options: () => { value: string; label: string }[], read: () => string, write: Write<string>, row = false): Bound {
    const list = options();
    let target = this.into;
    if (row) {
      target = new StackPanel(`${name}-row`);
      target.isVertical = false;
      target.height = "24px";
      target.width = "100%";
      this.into.addControl(target);
    }
    const buttons = new Map<string, Button>();
    const refresh = () => {
      const cur = read();
      for (const [value, b] of buttons) highlight(b, value === cur);
    };
    for (const o of list) {
      const b = Button.CreateSimpleButton(`${name}:${o.value}`, o.label);
      b.height = "24px";
      b.width = row ? `${Math.floor((PANEL_WIDTH - 30) / list.length)}px` : "100%";
      b.fontSize = 13;
      b.thickness = 1;
      b.cornerRadius = 3;
      b.paddingBottom = "2px";
      b.onPointerClickObservable.add(() => {
        if (read() === o.value) return;
        attempt(() => write(o.value), refresh);
        refresh();
      });
      target.addControl(b);
      buttons.set(o.value, b);
      this.named.set(`${name}:${o.value}`, b);
    }
    const first = buttons.values().next().value;
    if (first) this.named.set(name, first);
    return this.bind(first ?? target, refresh);
  }

  /** A progress bar, hidden until there is progress to show. */
  progressBar(name: string): { set(p: { text: string; fraction: number } | null): void } {
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
    this.into.addControl(box);
    this.named.set(name, box);
    return {
      set(p) {
        box.isVisible = p !== null;
        if (!p) return;
        const w = `${Math.round(100 * Math.min(1, Math.max(0, p.fraction)))}%`;
        if (fill.width !== w) fill.width = w;
        if (text.text !== p.text) text.text = p.text;
      },
    };
  }

  /** A group of controls inside this scope, rebuilt when its key changes. */
  group(name: string): Group {
    const panel = new StackPanel(name);
    panel.width = "100%";
    this.into.addControl(panel);
    const g = new Group(panel, this.named);
    this.groups.push(g);
    return g;
  }

  /** Keeps a control bound: `refresh()` of this scope refreshes it. */
  bind(control: Control, refresh: () => void): Bound {
    const b = { control, refresh };
    this.bound.push(b);
    refresh();
    return b;
  }

  /** Shows the state now in every control of this scope and its groups. */
  refresh(): void {
    for (const b of this.bound) b.refresh();
    for (const g of this.groups) g.refresh();
  }

  /** Disposes every control of this scope and forgets their names. */
  clear(): void {
    for (const g of this.groups) g.clear();
    const gone = new Set<Control>();
    for (const c of [...this.into.children]) {
      collect(c, gone);
      c.dispose();
    }
    for (const [k, v] of this.named) if (gone.has(v)) this.named.delete(k);
    this.bound.length = 0;
    this.groups.length = 0;
  }
}

/** A scope rebuilt when its key changes. */
export class Group extends Scope {
  private key: string | null = null;

  /** Rebuilds (clear, then `build`) when `key` differs from the last; returns whether it did. */
  rebuild(key: string, build: (g: Scope) => void): boolean {
    if (key === this.key) return false;
    this.key = key;
    this.clear();
    build(this);
    return true;
  }
}

function collect(c: Control, into: Set<Control>): void {
  into.add(c);
  const children = (c as { children?: Control[] }).children;
  if (children) for (const x of children) collect(x, into);
}

/** The selected look (orange) or the plain one. */
export function highlight(b: Button, on: boolean): void {
  b.background = on ? ACCENT : OFF_BACKGROUND;
  b.color = on ? "#1b1b1b" : TEXT;
}
