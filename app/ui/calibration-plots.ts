/**
 * The calibration as pictures: mean tip deflection against steady wind speed (0 to 30 m/s) for
 * every method and the reference, and each method's trunk motion spectrum (its free motion after
 * the wind stops, or its sway for a method with none) with the reference's lowest modes marked.
 * Deflection on a log scale: a method ten times off the reference is as far from it at every speed.
 * Drawn on a canvas of its own over the view's lower right corner when the section asks.
 */
import type { CalibrationResult } from "../sandbox/api";

const W = 460, H = 330;
/** One colour per method, in the result's order; the reference is white. */
export const METHOD_COLOURS = ["#e0a040", "#5aa0ff", "#e060c0", "#60d0b0", "#c0d050", "#ff7a5a", "#a080ff"];

export class CalibrationPlots {
  private readonly g: CanvasRenderingContext2D;

  constructor(readonly canvas: HTMLCanvasElement) {
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    Object.assign(canvas.style, { width: `${W}px`, height: `${H}px`, position: "fixed", right: "12px", bottom: "12px", display: "none", borderRadius: "6px", pointerEvents: "none" });
    this.g = canvas.getContext("2d")!;
    this.g.scale(dpr, dpr);
  }

  /** A canvas of its own, added to the page. */
  static create(): CalibrationPlots {
    const c = document.createElement("canvas");
    c.id = "calibration-plots";
    document.body.appendChild(c);
    return new CalibrationPlots(c);
  }

  dispose(): void {
    this.canvas.remove();
  }

  show(r: CalibrationResult | null): void {
    this.canvas.style.display = r ? "block" : "none";
    if (r) this.draw(r);
  }

  private draw(r: CalibrationResult): void {
    const g = this.g;
    g.clearRect(0, 0, W, H);
    g.fillStyle = "rgba(24, 28, 24, 0.88)";
    g.fillRect(0, 0, W, H);
    g.font = "12px sans-serif";
    g.fillStyle = "#f2f2ee";
    g.fillText(`Calibration of ${r.tree}: steady wind, no turbulence`, 10, 16);
    this.deflection(r, 10, 26, W - 20, 140);
    this.spectra(r, 10, 186, W - 20, 134);
  }

  /** Mean tip deflection over every tip against wind speed, log scale (decades marked). */
  private deflection(r: CalibrationResult, x0: number, y0: number, w: number, h: number): void {
    const g = this.g, vMax = 30;
    let lo = Infinity, hi = -Infinity;
    const see = (d: number) => {
      if (d > 0) {
        lo = Math.min(lo, Math.log10(d));
        hi = Math.max(hi, Math.log10(d));
      }
    };
    for (const s of r.reference.static) see(s.all);
    for (const m of r.methods) for (const s of m.static) see(s.all);
    if (!Number.isFinite(lo)) return;
    lo = Math.floor(lo);
    hi = Math.max(lo + 1, Math.ceil(hi));
    this.frame(x0, y0, w, h);
    const X = (v: number) => x0 + (v / vMax) * w, Y = (d: number) => y0 + h - 4 - ((Math.log10(Math.max(d, 10 ** lo)) - lo) / (hi - lo)) * (h - 36);
    // Decades: 1 mm, 1 cm, 10 cm, 1 m ...
    g.font = "10px sans-serif";
    for (let e = lo; e <= hi; e++) {
      g.strokeStyle = "#444";
      g.beginPath();
      g.moveTo(x0, Y(10 ** e));
      g.lineTo(x0 + w, Y(10 ** e));
      g.stroke();
      g.fillStyle = "#999";
      const d = 10 ** e;
      g.fillText(d >= 1 ? `${d} m` : d >= 0.01 ? `${Math.round(d * 100)} cm` : `${+(d * 1000).toPrecision(2)} mm`, x0 + w - 42, Y(d) - 2);
    }
    g.font = "12px sans-serif";
    const curve = (points: { speed: number; all: number }[], colour: string, dashed: boolean) => {
      g.strokeStyle = colour;
      g.fillStyle = colour;
      g.lineWidth = dashed ? 2 : 1.5;
      g.setLineDash(dashed ? [5, 3] : []);
      g.beginPath();
      points.forEach((p, i) => (i === 0 ? g.moveTo(X(p.speed), Y(p.all)) : g.lineTo(X(p.speed), Y(p.all))));
      g.stroke();
      g.setLineDash([]);
      for (const p of points) g.fillRect(X(p.speed) - 2, Y(p.all) - 2, 4, 4);
    };
    curve(r.reference.static, "#ffffff", true);
    r.methods.forEach((m, k) => curve(m.static, METHOD_COLOURS[k % METHOD_COLOURS.length], false));
    g.fillStyle = "#ccc";
    g.fillText("mean tip deflection (log) against wind speed", x0 + 4, y0 + 12);
    g.fillText("0", x0 + 2, y0 + h - 4);
    g.fillText(`${vMax} m/s`, x0 + w - 90, y0 + h - 4);
    // The legend: reference dashed white, then one colour per method.
    let x = x0 + 4, y = y0 + 26;
    const item = (text: string, colour: string) => {
      const tw = g.measureText(text).width;
      if (x + tw > x0 + w - 4) {
        x = x0 + 4;
        y += 14;
      }
      g.fillStyle = colour;
      g.fillText(text, x, y);
      x += tw + 10;
    };
    item("reference (dashed)", "#ffffff");
    r.methods.forEach((m, k) => item(m.id, METHOD_COLOURS[k % METHOD_COLOURS.length]));
  }

  /** Each method's trunk spectrum (amplitude, scaled to its own peak) with the reference's modes. */
  private spectra(r: CalibrationResult, x0: number, y0: number, w: number, h: number): void {
    const g = this.g, top = r.spectrumHz;
    this.frame(x0, y0, w, h);
    const X = (f: number) => x0 + (f / top) * w;
    g.strokeStyle = "#ffffff";
    g.setLineDash([2, 3]);
    g.fillStyle = "#ffffff";
    r.reference.modesHz.forEach((f, i) => {
      if (f > top) return;
      g.beginPath();
      g.moveTo(X(f), y0);
      g.lineTo(X(f), y0 + h);
      g.stroke();
      if (i < 3) g.fillText(`${f.toFixed(2)}`, Math.min(X(f) + 3, x0 + w - 30), y0 + h - 18 - 12 * i);
    });
    g.setLineDash([]);
    r.methods.forEach((m, k) => {
      const s = m.spectrum, peak = Math.max(1e-9, ...s);
      g.strokeStyle = METHOD_COLOURS[k % METHOD_COLOURS.length];
      g.lineWidth = 1.5;
      g.beginPath();
      s.forEach((a, i) => {
        const x = x0 + (i / (s.length - 1)) * w, y = y0 + h - (a / peak) * (h - 18);
        if (i === 0) g.moveTo(x, y);
        else g.lineTo(x, y);
      });
      g.stroke();
    });
    g.fillStyle = "#ccc";
    g.fillText("trunk motion spectrum per method; reference modes dotted (Hz)", x0 + 4, y0 + 12);
    g.fillText("0", x0 + 2, y0 + h - 4);
    g.fillText(`${top.toFixed(1)} Hz`, x0 + w - 40, y0 + h - 4);
  }

  private frame(x0: number, y0: number, w: number, h: number): void {
    this.g.strokeStyle = "#888";
    this.g.lineWidth = 1;
    this.g.strokeRect(x0, y0, w, h);
  }
}
