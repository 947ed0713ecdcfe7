/**
 * The wind timeline's editor: a plot of the timeline (speed, direction, gusts) with a playhead at
 * the clock's time, the key being edited and its sliders (time, speed, direction, gusts), and
 * buttons to add or remove a key and to play once or in a loop. Every edit writes the whole
 * timeline through `windTimeline()`, which validates it.
 */
import { Control } from "@babylonjs/gui/2D/controls/control";
import { Image } from "@babylonjs/gui/2D/controls/image";
import { Rectangle } from "@babylonjs/gui/2D/controls/rectangle";
import type { SandboxPanelApi } from "../../sandbox/api";
import { numberParam } from "../../math/params";
import { WIND_PARAMS } from "../../wind/wind-field";
import { formatTimeline, timelineAt, type WindKey, type WindTimeline } from "../../wind/conditions";
import { MUTED, PANEL_WIDTH, type Group } from "../widgets";

/** Height of the timeline's plot, page pixels. */
const PLOT_HEIGHT = 70;

export function timelineEditor(sb: SandboxPanelApi, group: Group): { refresh(): void; frame(): void } {
  /** The key being edited. */
  let key = 0;
  let plot: Image | null = null, plotFor = "", head: Rectangle | null = null;

  /** Writes the timeline with key `k` changed by `patch` (the sandbox validates it). */
  const editKey = (k: number, patch: Partial<WindKey>) => {
    const tl = sb.windTimeline();
    if (!tl) return;
    return sb.windTimeline({ loop: tl.loop, keys: tl.keys.map((x, i) => (i === k ? { ...x, ...patch } : { ...x })) });
  };

  const refresh = () => {
    const tl = sb.windTimeline();
    const k = tl ? Math.min(key, tl.keys.length - 1) : 0;
    key = k;
    const plotKey = tl ? `${formatTimeline(tl)}|${k}` : "";
    if (tl && plot && plotKey !== plotFor) plot.source = timelinePlot(tl, k);
    plotFor = plotKey;
    const shape = tl ? `${tl.keys.length}|${k}|${tl.loop}|${tl.keys[k - 1]?.t}|${tl.keys[k + 1]?.t}` : "none";
    const rebuilt = group.rebuild(shape, (g) => {
      plot = null;
      head = null;
      if (!tl) return;
      const frame = new Rectangle("timeline-plot-frame");
      frame.height = `${PLOT_HEIGHT}px`;
      frame.width = "100%";
      frame.thickness = 0;
      plot = new Image("timeline-plot", timelinePlot(tl, k));
      plot.stretch = Image.STRETCH_FILL;
      frame.addControl(plot);
      head = new Rectangle("timeline-playhead");
      head.width = "2px";
      head.thickness = 0;
      head.background = "#ffffff";
      head.horizontalAlignment = Control.HORIZONTAL_ALIGNMENT_LEFT;
      frame.addControl(head);
      g.into.addControl(frame);
      g.named.set("timeline.plot", frame);
      g.note(`Orange: speed, blue dots: direction, green: gusts.  Key ${k + 1} of ${tl.keys.length}`, 11, MUTED);
      g.choice("timeline.key", () => [{ value: "prev", label: "◀ Previous key" }, { value: "next", label: "Next key ▶" }], () => "", (v) => {
        key = Math.max(0, Math.min(tl.keys.length - 1, key + (v === "next" ? 1 : -1)));
        refresh();
      });
      const cur = () => sb.windTimeline()?.keys[key];
      if (k > 0) {
        const lo = tl.keys[k - 1].t + 0.1, hi = k + 1 < tl.keys.length ? tl.keys[k + 1].t - 0.1 : Math.max(tl.keys[k].t, lo) + 60;
        const keyTime = numberParam("Key time", Math.round(lo * 10) / 10, Math.round(hi * 10) / 10, 0.1, tl.keys[k].t, "s", "When this key's wind is reached, seconds from the start (between its neighbours' times)");
        g.control("timeline.t", keyTime, () => cur()?.t ?? 0, (v: number) => editKey(k, { t: v }), { apply: "release" });
      }
      g.control("timeline.speed", { ...WIND_PARAMS.speed, label: "Key speed" }, () => cur()?.speed ?? 0, (v: number) => editKey(k, { speed: v }), { apply: "release" });
      g.control("timeline.direction", { ...WIND_PARAMS.direction, label: "Key direction" }, () => cur()?.direction ?? 0, (v: number) => editKey(k, { direction: v }), { apply: "release" });
      g.control("timeline.gust", { ...WIND_PARAMS.gust, label: "Key gusts" }, () => cur()?.gust ?? 0, (v: number) => editKey(k, { gust: v }), { apply: "release" });
      g.choice("timeline.edit", () => [
        { value: "add", label: "Add a key after this one" },
        ...(k > 0 ? [{ value: "remove", label: "Remove this key" }] : []),
        { value: "loop", label: tl.loop ? "Plays in a loop (click: once)" : "Plays once (click: loop)" },
      ], () => "", (v) => {
        const now = sb.windTimeline();
        if (!now) return;
        const keys = now.keys.map((x) => ({ ...x }));
        if (v === "add") {
          const t0 = keys[k].t, t1 = k + 1 < keys.length ? keys[k + 1].t : t0 + 10;
          keys.splice(k + 1, 0, { ...keys[k], t: Math.round(((t0 + t1) / 2) * 10) / 10 });
          key = k + 1;
        } else if (v === "remove") {
          keys.splice(k, 1);
          key = k - 1;
        }
        return sb.windTimeline({ loop: v === "loop" ? !now.loop : now.loop, keys });
      });
    });
    if (!rebuilt) group.refresh();
  };

  /** Moves the playhead to the clock's time. */
  const frame = () => {
    if (!head) return;
    const tl = sb.windTimeline();
    if (!tl) return;
    const end = Math.max(1e-6, tl.keys[tl.keys.length - 1].t);
    let t = sb.time();
    t = tl.loop ? t % end : Math.min(t, end);
    const width = head.parent?._currentMeasure.width ?? PANEL_WIDTH - 28;
    const px = `${Math.round((t / end) * (width - 2))}px`;
    if (head.left !== px) head.left = px;
  };

  refresh();
  return { refresh, frame };
}

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
