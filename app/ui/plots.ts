/**
 * The plots, because people would rather look than read: for the plotted tip
 * (the longest branch's, or the one clicked), its displacement along and across the wind over the
 * last 10 s, and its power spectrum (Welch) with the wind's spectrum (Simiu-Scanlan, Habel 2009
 * eq. 14, scaled to the tip's) and, where the method has one, the branch's resonance frequency
 * marked. Drawn on a canvas of its own over the view's corner, a few times a second.
 */
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents";
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { PlotData, SandboxPanelApi } from "../sandbox/api";
import { simiuScanlan, welch } from "../math/spectra";

const W = 440, H = 300, REDRAW_EVERY = 15;
/** One colour per compare view, in view order. */
const VIEW_COLOURS = ["#e0a040", "#5aa0ff", "#e060c0", "#60d0b0"];

export class Plots {
  private readonly g: CanvasRenderingContext2D;
  private frames = 0;
  private on = false;

  /** `panelWidth()`: page pixels the panel covers on the left (clicks there are the panel's). */
  private readonly observers: Observer<unknown>[] = [];

  constructor(private readonly sandbox: SandboxPanelApi, readonly canvas: HTMLCanvasElement, panelWidth: () => number) {
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    canvas.style.width = `${W}px`;
    canvas.style.height = `${H}px`;
    this.g = canvas.getContext("2d")!;
    this.g.scale(dpr, dpr);
    const after = sandbox.scene.onAfterRenderObservable.add(() => {
      if (this.on && ++this.frames >= REDRAW_EVERY) {
        this.frames = 0;
        this.draw();
      }
    });
    // A click (not a drag) on a branch: its tip is plotted.
    const tap = sandbox.scene.onPointerObservable.add((pi) => {
      if (!this.on || pi.type !== PointerEventTypes.POINTERTAP) return;
      const x = sandbox.scene.pointerX, y = sandbox.scene.pointerY;
      if (x < panelWidth()) return;
      const b = sandbox.branchAt(x, y);
      if (b >= 0) sandbox.plotTip(b);
    });
    for (const o of [after, tap]) if (o) this.observers.push(o as Observer<unknown>);
  }

  dispose(): void {
    for (const o of this.observers.splice(0)) o.remove();
  }

  get visible(): boolean {
    return this.on;
  }

  setVisible(on: boolean): void {
    this.on = on;
    this.canvas.style.display = on ? "block" : "none";
    if (on) this.draw();
  }

  draw(): void {
    const g = this.g, d = this.sandbox.plotData();
    g.clearRect(0, 0, W, H);
    g.fillStyle = "rgba(24, 28, 24, 0.85)";
    g.fillRect(0, 0, W, H);
    g.font = "12px sans-serif";
    g.fillStyle = "#f2f2ee";
    const single = d.views.length === 1;
    g.fillText(`Tip of branch ${d.branch} (click a branch to plot another)${single ? `: ${d.views[0].id}` : ""}`, 10, 16);
    this.series(d, 10, 26, W - 20, 110);
    this.spectrum(d, 10, 160, W - 20, 130);
  }

  /** Colours of the views' lines (single view: along orange, across blue, as before). */
  private colours(d: PlotData, k: number): { along: string; across: string } {
    return d.views.length === 1 ? { along: "#e0a040", across: "#5aa0ff" } : { along: VIEW_COLOURS[k], across: VIEW_COLOURS[k] };
  }

  /**
   * Displacement over the last 10 s on shared axes: along the wind (solid) and across it (blue,
   * or dashed in the view's colour when several views are compared).
   */
  private series(d: PlotData, x0: number, y0: number, w: number, h: number): void {
    const g = this.g, span = 10, fs = d.fs;
    let m = 0.01;
    for (const v of d.views) for (let i = 0; i < v.along.length; i++) m = Math.max(m, Math.abs(v.along[i]), Math.abs(v.across[i]));
    this.axes(x0, y0, w, h);
    g.strokeStyle = "#666";
    g.beginPath();
    g.moveTo(x0, y0 + h / 2);
    g.lineTo(x0 + w, y0 + h / 2);
    g.stroke();
    const line = (v: Float32Array, color: string, dashed: boolean) => {
      const n = v.length;
      g.strokeStyle = color;
      g.lineWidth = dashed ? 1 : 1.5;
      g.setLineDash(dashed ? [3, 3] : []);
      g.beginPath();
      for (let i = 0; i < n; i++) {
        const x = x0 + w - ((n - 1 - i) / fs / span) * w, y = y0 + h / 2 - (v[i] / m) * (h / 2 - 4);
        if (i === 0) g.moveTo(x, y);
        else g.lineTo(x, y);
      }
      g.stroke();
      g.setLineDash([]);
    };
    const single = d.views.length === 1;
    d.views.forEach((v, k) => line(v.across, this.colours(d, k).across, !single));
    d.views.forEach((v, k) => line(v.along, this.colours(d, k).along, false));
    g.fillStyle = "#ccc";
    g.fillText(`±${m.toFixed(2)} m`, x0 + 4, y0 + 12);
    g.fillText("last 10 s", x0 + w - 56, y0 + h - 4);
    if (single) {
      g.fillStyle = "#e0a040";
      g.fillText("along the wind", x0 + 90, y0 + 12);
      g.fillStyle = "#5aa0ff";
      g.fillText("across", x0 + 190, y0 + 12);
    } else {
      g.fillText("along the wind: solid, across: dashed", x0 + 70, y0 + 12);
      // The legend: one colour per view.
      let x = x0 + 4;
      d.views.forEach((v, k) => {
        g.fillStyle = VIEW_COLOURS[k];
        const t = `${k + 1} ${v.id}`;
        g.fillText(t, x, y0 + h - 4);
        x += g.measureText(t).width + 12;
      });
    }
  }

  /**
   * Power spectrum (Welch, log-log) of the along-wind displacement in every view, the wind's
   * spectrum, and each method's resonance where it has one.
   */
  private spectrum(d: PlotData, x0: number, y0: number, w: number, h: number): void {
    const g = this.g, fs = d.fs;
    this.axes(x0, y0, w, h);
    g.fillStyle = "#ccc";
    const shortest = Math.min(...d.views.map((v) => v.along.length));
    if (!(shortest >= 256)) {
      g.fillText(`spectrum after ${(256 / fs).toFixed(1)} s of motion`, x0 + 8, y0 + h / 2);
      return;
    }
    const spectra = d.views.map((v) => welch(v.along, fs, 256));
    const fMin = 0.1, fMax = 10;
    let top = -Infinity, bottom = Infinity;
    for (const s of spectra) {
      for (let i = 1; i < s.f.length; i++) {
        if (s.f[i] < fMin || s.f[i] > fMax || !(s.psd[i] > 0)) continue;
        top = Math.max(top, Math.log10(s.psd[i]));
        bottom = Math.min(bottom, Math.log10(s.psd[i]));
      }
    }
    if (!Number.isFinite(top)) return;
    bottom = Math.max(bottom, top - 8);
    const X = (f: number) => x0 + ((Math.log10(f) - Math.log10(fMin)) / (Math.log10(fMax) - Math.log10(fMin))) * w;
    const Y = (lp: number) => y0 + h - ((lp - bottom) / Math.max(1e-6, top - bottom)) * (h - 16) - 2;
    // The wind's spectrum, scaled to the first view's tip at the lowest frequency shown.
    const s0 = spectra[0];
    if (d.meanSpeed > 0) {
      let i0 = 1;
      while (i0 < s0.f.length - 1 && s0.f[i0] < fMin) i0++;
      const scale = Math.log10(s0.psd[i0] || 1e-12) - Math.log10(simiuScanlan(s0.f[i0], d.meanSpeed));
      g.strokeStyle = "#6fbf60";
      g.setLineDash([4, 3]);
      g.beginPath();
      for (let k = 0; k <= 60; k++) {
        const f = fMin * Math.pow(fMax / fMin, k / 60), lp = Math.log10(simiuScanlan(f, d.meanSpeed)) + scale;
        if (k === 0) g.moveTo(X(f), Y(Math.max(bottom, lp)));
        else g.lineTo(X(f), Y(Math.max(bottom, lp)));
      }
      g.stroke();
      g.setLineDash([]);
    }
    spectra.forEach((s, k) => {
      g.strokeStyle = this.colours(d, k).along;
      g.lineWidth = 1.5;
      g.beginPath();
      let first = true;
      for (let i = 1; i < s.f.length; i++) {
        if (s.f[i] < fMin || s.f[i] > fMax || !(s.psd[i] > 0)) continue;
        const x = X(s.f[i]), y = Y(Math.max(bottom, Math.log10(s.psd[i])));
        if (first) g.moveTo(x, y);
        else g.lineTo(x, y);
        first = false;
      }
      g.stroke();
    });
    d.views.forEach((v, k) => {
      const r = v.resonanceHz;
      if (r === null || r < fMin || r > fMax) return;
      const c = d.views.length === 1 ? "#ff6a5a" : VIEW_COLOURS[k];
      g.strokeStyle = c;
      g.setLineDash([2, 2]);
      g.beginPath();
      g.moveTo(X(r), y0);
      g.lineTo(X(r), y0 + h);
      g.stroke();
      g.setLineDash([]);
      g.fillStyle = c;
      g.fillText(`f_h ${r.toFixed(2)} Hz`, Math.min(X(r) + 4, x0 + w - 80), y0 + 28 + 14 * k);
    });
    g.fillStyle = "#ccc";
    g.fillText("0.1 Hz", x0 + 2, y0 + h - 4);
    g.fillText("10 Hz", x0 + w - 36, y0 + h - 4);
    g.fillStyle = d.views.length === 1 ? "#e0a040" : "#ccc";
    g.fillText("power spectrum (log)", x0 + 4, y0 + 12);
    g.fillStyle = "#6fbf60";
    g.fillText("wind (eq. 14)", x0 + 140, y0 + 12);
  }

  private axes(x0: number, y0: number, w: number, h: number): void {
    const g = this.g;
    g.strokeStyle = "#888";
    g.lineWidth = 1;
    g.strokeRect(x0, y0, w, h);
  }
}
