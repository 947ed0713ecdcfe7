/**
 * The plots of issue 8, item 2, because people would rather look than read: for the plotted tip
 * (the longest branch's, or the one clicked), its displacement along and across the wind over the
 * last 10 s, and its power spectrum (Welch) with the wind's spectrum (Simiu-Scanlan, Habel 2009
 * eq. 14, scaled to the tip's) and, where the method has one, the branch's resonance frequency
 * marked. Drawn on a canvas of its own over the view's corner, a few times a second.
 */
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents";
import type { Sandbox } from "../sandbox/sandbox";
import { simiuScanlan, welch } from "../math/spectra";

const W = 440, H = 300, REDRAW_EVERY = 15;

export class Plots {
  private readonly g: CanvasRenderingContext2D;
  private frames = 0;
  private on = false;

  /** `panelWidth()`: page pixels the panel covers on the left (clicks there are the panel's). */
  constructor(private readonly sandbox: Sandbox, readonly canvas: HTMLCanvasElement, panelWidth: () => number) {
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    canvas.style.width = `${W}px`;
    canvas.style.height = `${H}px`;
    this.g = canvas.getContext("2d")!;
    this.g.scale(dpr, dpr);
    sandbox.scene.onAfterRenderObservable.add(() => {
      if (this.on && ++this.frames >= REDRAW_EVERY) {
        this.frames = 0;
        this.draw();
      }
    });
    // A click (not a drag) on a branch: its tip is plotted.
    sandbox.scene.onPointerObservable.add((pi) => {
      if (!this.on || pi.type !== PointerEventTypes.POINTERTAP) return;
      const x = sandbox.scene.pointerX, y = sandbox.scene.pointerY;
      if (x < panelWidth()) return;
      const b = sandbox.branchAt(x, y);
      if (b >= 0) sandbox.setPlotTip(b);
    });
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
    g.fillText(`Tip of branch ${d.branch} (click a branch to plot another): ${this.sandbox.methodId}`, 10, 16);
    this.series(d.along, d.across, d.fs, 10, 26, W - 20, 110);
    this.spectrum(d.along, d.fs, d.meanSpeed, d.resonanceHz, 10, 160, W - 20, 130);
  }

  /** Displacement over the last 10 s: along the wind (orange) and across it (blue), shared axes. */
  private series(along: Float32Array, across: Float32Array, fs: number, x0: number, y0: number, w: number, h: number): void {
    const g = this.g, n = along.length, span = 10;
    let m = 0.01;
    for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(along[i]), Math.abs(across[i]));
    this.axes(x0, y0, w, h);
    g.strokeStyle = "#666";
    g.beginPath();
    g.moveTo(x0, y0 + h / 2);
    g.lineTo(x0 + w, y0 + h / 2);
    g.stroke();
    const line = (v: Float32Array, color: string) => {
      g.strokeStyle = color;
      g.lineWidth = 1.5;
      g.beginPath();
      for (let i = 0; i < n; i++) {
        const x = x0 + w - ((n - 1 - i) / fs / span) * w, y = y0 + h / 2 - (v[i] / m) * (h / 2 - 4);
        if (i === 0) g.moveTo(x, y);
        else g.lineTo(x, y);
      }
      g.stroke();
    };
    line(across, "#5aa0ff");
    line(along, "#e0a040");
    g.fillStyle = "#ccc";
    g.fillText(`±${m.toFixed(2)} m`, x0 + 4, y0 + 12);
    g.fillText("last 10 s", x0 + w - 56, y0 + h - 4);
    g.fillStyle = "#e0a040";
    g.fillText("along the wind", x0 + 90, y0 + 12);
    g.fillStyle = "#5aa0ff";
    g.fillText("across", x0 + 190, y0 + 12);
  }

  /** Power spectrum of the along-wind displacement (log-log), the wind's spectrum, the resonance. */
  private spectrum(along: Float32Array, fs: number, meanSpeed: number, resonanceHz: number | null, x0: number, y0: number, w: number, h: number): void {
    const g = this.g;
    this.axes(x0, y0, w, h);
    g.fillStyle = "#ccc";
    if (along.length < 256) {
      g.fillText(`spectrum after ${(256 / fs).toFixed(1)} s of motion`, x0 + 8, y0 + h / 2);
      return;
    }
    const s = welch(along, fs, 256);
    const fMin = 0.1, fMax = 10;
    let top = -Infinity, bottom = Infinity;
    for (let i = 1; i < s.f.length; i++) {
      if (s.f[i] < fMin || s.f[i] > fMax || !(s.psd[i] > 0)) continue;
      top = Math.max(top, Math.log10(s.psd[i]));
      bottom = Math.min(bottom, Math.log10(s.psd[i]));
    }
    if (!Number.isFinite(top)) return;
    bottom = Math.max(bottom, top - 8);
    const X = (f: number) => x0 + ((Math.log10(f) - Math.log10(fMin)) / (Math.log10(fMax) - Math.log10(fMin))) * w;
    const Y = (lp: number) => y0 + h - ((lp - bottom) / Math.max(1e-6, top - bottom)) * (h - 16) - 2;
    // The wind's spectrum, scaled to the tip's at the lowest frequency shown.
    if (meanSpeed > 0) {
      let i0 = 1;
      while (i0 < s.f.length - 1 && s.f[i0] < fMin) i0++;
      const scale = Math.log10(s.psd[i0] || 1e-12) - Math.log10(simiuScanlan(s.f[i0], meanSpeed));
      g.strokeStyle = "#6fbf60";
      g.setLineDash([4, 3]);
      g.beginPath();
      for (let k = 0; k <= 60; k++) {
        const f = fMin * Math.pow(fMax / fMin, k / 60), lp = Math.log10(simiuScanlan(f, meanSpeed)) + scale;
        if (k === 0) g.moveTo(X(f), Y(Math.max(bottom, lp)));
        else g.lineTo(X(f), Y(Math.max(bottom, lp)));
      }
      g.stroke();
      g.setLineDash([]);
    }
    g.strokeStyle = "#e0a040";
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
    if (resonanceHz !== null && resonanceHz >= fMin && resonanceHz <= fMax) {
      g.strokeStyle = "#ff6a5a";
      g.beginPath();
      g.moveTo(X(resonanceHz), y0);
      g.lineTo(X(resonanceHz), y0 + h);
      g.stroke();
      g.fillStyle = "#ff6a5a";
      g.fillText(`f_h ${resonanceHz.toFixed(2)} Hz`, Math.min(X(resonanceHz) + 4, x0 + w - 80), y0 + 28);
    }
    g.fillStyle = "#ccc";
    g.fillText("0.1 Hz", x0 + 2, y0 + h - 4);
    g.fillText("10 Hz", x0 + w - 36, y0 + h - 4);
    g.fillStyle = "#e0a040";
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
