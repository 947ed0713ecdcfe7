import { DEFAULT_WIND, GUST_MIN_TRAVEL, WIND_PARAMS, WindField, modulationDepth, type WindGpuState } from "../../app/wind/wind-field";
import { GUST_FALL, GUST_HOLD, GUST_RISE, MODULATION_DEPTH, MeanFactor, gustEnvelope, gustShape, slowModulation } from "../../app/wind/gusts";
import { Blast, Vortex } from "../../app/wind/primitives";
import { windFromGpuState } from "../../app/wind/turbulence";
import { correlation, crossCorrelation, fitKneeSpectrum, logLogSlope, welch, type Spectrum } from "../../app/math/spectra";
import { defaultsOf } from "../../app/math/params";

const newState = (): WindGpuState => ({ dirX: 0, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 });

/** Averaged PSD of the along-wind fluctuation at `points` cross-wind positions, sampled at fs over one texture period. */
function alongWindSpectrum(speed: number, fs: number): { spectrum: Spectrum; std: number } {
  const w = new WindField({ speed, gust: 0, turbulence: 0.35, direction: 0, seed: 7 }, { modulation: false });
  const n = Math.round(((w.turbulenceTexture.width * w.turbulenceTexture.cellSize) / speed) * fs);
  const out = new Float64Array(3);
  const points = 8;
  let psd: Float64Array | undefined, f: Float64Array | undefined;
  let variance = 0;
  for (let r = 0; r < points; r++) {
    const x = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      w.sample(0, 1, 4.3 * r, i / fs, out); // direction 0: z is across the wind
      x[i] = out[0] - speed;
      variance += (x[i] * x[i]) / (n * points);
    }
    const s = welch(x, fs, Math.floor(n / 4), 0.5);
    if (!psd) [psd, f] = [s.psd, s.f];
    else for (let k = 0; k < psd.length; k++) psd[k] += s.psd[k];
  }
  for (let k = 0; k < psd!.length; k++) psd![k] /= points;
  return { spectrum: { f: f!, psd: psd! }, std: Math.sqrt(variance) };
}

describe("WindField settings", () => {
  it("declares the parameters once, with the documented defaults", () => {
    expect(defaultsOf(WIND_PARAMS)).toEqual({ speed: 6, direction: 0, vertical: 0, turbulence: 0.35, gust: 0.3, seed: 1 });
    expect(DEFAULT_WIND).toEqual(defaultsOf(WIND_PARAMS));
    expect(WIND_PARAMS.speed.max).toBe(40);
    expect(WIND_PARAMS.vertical).toMatchObject({ kind: "number", min: -10, max: 10, step: 0.1, default: 0, unit: "m/s" });
  });

  it("settings() is a copy; set() validates and throws a RangeError naming the range", () => {
    const w = new WindField(DEFAULT_WIND);
    const s = w.settings();
    s.speed = 30;
    expect(w.settings().speed).toBe(6);
    w.set({ speed: 12, direction: 90 });
    expect(w.settings()).toMatchObject({ speed: 12, direction: 90 });
    expect(() => w.set({ speed: 41 })).toThrow(RangeError);
    expect(() => w.set({ speed: 41 })).toThrow(/from 0 to 40 m\/s/);
    expect(() => w.set({ turbulence: -0.1 })).toThrow(/wind\.turbulence must be a number from 0 to 1/);
    expect(() => w.set({ seed: 1.5 })).toThrow(/integer from 0 to 2147483647/);
    expect(() => w.set({ nope: 1 } as never)).toThrow(/speed, direction, vertical, turbulence, gust, seed/);
    expect(() => new WindField({ gust: 2 })).toThrow(RangeError);
    expect(w.settings()).toMatchObject({ speed: 12, direction: 90 }); // unchanged by failed sets
    w.set({ speed: "7" } as never); // strings from the URL are read by the declared kind
    expect(w.settings().speed).toBe(7);
    // The vertical wind: -10 to 10 m/s, both signs.
    w.set({ vertical: -10 });
    expect(w.settings().vertical).toBe(-10);
    w.set({ vertical: 10 });
    expect(w.settings().vertical).toBe(10);
    expect(() => w.set({ vertical: 10.5 })).toThrow(/wind\.vertical must be a number from -10 to 10 m\/s/);
    expect(() => w.set({ vertical: -11 })).toThrow(RangeError);
    expect(() => new WindField({ vertical: Number.NaN })).toThrow(RangeError);
    expect(w.settings().vertical).toBe(10); // unchanged by failed sets
  });
});

describe("WindField: the GPU contract", () => {
  it.each([0, 2.5, -4])("sample() equals the documented texture lookup formula (vertical %d)", (vertical) => {
    const w = new WindField({ speed: 9, direction: 37, vertical, turbulence: 0.5, gust: 0.6, seed: 5 });
    const tex = w.turbulenceTexture;
    const s = newState();
    const out = new Float64Array(3);
    const T = (i: number, j: number, ch: number): number => {
      const ii = ((i % tex.width) + tex.width) % tex.width, jj = ((j % tex.height) + tex.height) % tex.height;
      return tex.data[(jj * tex.width + ii) * 4 + ch];
    };
    for (let k = 0; k < 500; k++) {
      const x = (k * 37.1) % 300 - 150, z = (k * 91.7) % 260 - 130, t = k * 1.37;
      w.gpuState(t, s, x, z); // the uniforms of a tree standing at (x, z): its gusts at its own time
      expect(Math.hypot(s.dirX, s.dirZ)).toBeCloseTo(1, 12);
      expect(s.dirX).toBeCloseTo(Math.cos((37 * Math.PI) / 180), 12);
      expect(s.turbulenceAmplitude).toBeCloseTo(0.5 * s.strength, 12);
      expect(s.vertical).toBeCloseTo((vertical / 9) * s.strength, 12); // same modulation and gusts
      expect(s.advection).toBeCloseTo(9 * t, 9);
      const px = -s.dirZ, pz = s.dirX;
      const a = (x * s.dirX + z * s.dirZ - s.advection) / tex.cellSize;
      const c = (x * px + z * pz) / tex.cellSize;
      const i0 = Math.floor(a), j0 = Math.floor(c), fa = a - i0, fc = c - j0;
      const tx = (ch: number): number =>
        (1 - fc) * ((1 - fa) * T(i0, j0, ch) + fa * T(i0 + 1, j0, ch)) + fc * ((1 - fa) * T(i0, j0 + 1, ch) + fa * T(i0 + 1, j0 + 1, ch));
      const [u, v, ww] = [tx(0), tx(1), tx(2)];
      const want = [
        s.strength * s.dirX + s.turbulenceAmplitude * (u * s.dirX + v * px),
        s.vertical + s.turbulenceAmplitude * ww,
        s.strength * s.dirZ + s.turbulenceAmplitude * (u * s.dirZ + v * pz),
      ];
      w.sample(x, 2, z, t, out);
      for (let d = 0; d < 3; d++) expect(Math.abs(out[d] - want[d])).toBeLessThan(1e-9 * (1 + Math.abs(want[d])));
      const pure = new Float64Array(3);
      windFromGpuState(s, tex, x, z, pure);
      expect(Array.from(pure)).toEqual(Array.from(out));
    }
  });

  it("texel (i, j) is the value at integer coordinates, and the texture wraps", () => {
    const w = new WindField({ speed: 4, direction: 0, turbulence: 1, gust: 0 }, { modulation: false });
    const tex = w.turbulenceTexture;
    const s = w.gpuState(0, newState());
    const out = new Float64Array(3);
    const i = 17, j = 5;
    w.sample(i * tex.cellSize, 0, j * tex.cellSize, 0, out);
    expect(out[0]).toBeCloseTo(4 + 4 * tex.data[(j * tex.width + i) * 4], 5);
    expect(out[1]).toBeCloseTo(4 * tex.data[(j * tex.width + i) * 4 + 2], 5);
    const shifted = new Float64Array(3);
    w.sample((i + tex.width) * tex.cellSize, 0, (j - tex.height) * tex.cellSize, 0, shifted);
    for (let d = 0; d < 3; d++) expect(shifted[d]).toBeCloseTo(out[d], 5);
    expect(s.advection).toBe(0);
    expect(tex.data.length).toBe(tex.width * tex.height * 4);
    expect(tex.width * tex.cellSize).toBeGreaterThanOrEqual(200); // along-wind period
  });
});

describe("WindField: determinism and calm air", () => {
  it("same seed, same wind; another seed, another wind; any time order gives the same values", () => {
    const a = new WindField({ seed: 11 }), b = new WindField({ seed: 11 }), c = new WindField({ seed: 12 });
    const oa = new Float64Array(3), ob = new Float64Array(3), oc = new Float64Array(3);
    let differs = 0;
    const times = Array.from({ length: 200 }, (_, k) => (k * 7.31) % 120);
    const first: number[] = [];
    for (const t of times) {
      a.sample(3, 1, -2, t, oa);
      b.sample(3, 1, -2, t, ob);
      c.sample(3, 1, -2, t, oc);
      expect(Array.from(ob)).toEqual(Array.from(oa));
      if (Math.abs(oc[0] - oa[0]) > 1e-3) differs++;
      first.push(oa[0]);
    }
    expect(differs).toBeGreaterThan(150);
    // Reverse order on the same field: no hidden state advanced by calls.
    for (let k = times.length - 1; k >= 0; k--) {
      a.sample(3, 1, -2, times[k], oa);
      expect(oa[0]).toBe(first[k]);
    }
  });

  it("changing the seed rewrites the texture in place and bumps its version", () => {
    const w = new WindField({ seed: 1 });
    const tex = w.turbulenceTexture;
    const v0 = tex.version, d0 = tex.data[100];
    w.set({ seed: 2 });
    expect(w.turbulenceTexture).toBe(tex);
    expect(tex.version).toBe(v0 + 1);
    expect(tex.data[100]).not.toBe(d0);
    w.set({ seed: 1 });
    expect(tex.data[100]).toBe(d0);
  });

  it("speed 0 and gust 0 give exactly zero wind everywhere; at speed 0 gusts and turbulence do nothing either", () => {
    for (const gust of [0, 1]) {
      const w = new WindField({ speed: 0, gust, turbulence: 1, seed: 3 });
      const out = new Float32Array(3).fill(9);
      for (let k = 0; k < 300; k++) {
        w.sample(k * 1.3 - 50, k * 0.1, 40 - k * 0.7, k * 0.77, out);
        expect(Object.is(out[0], 0) && Object.is(out[1], 0) && Object.is(out[2], 0)).toBe(true);
      }
      expect(w.gpuState(12, newState())).toEqual({ dirX: 1, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 });
    }
  });
});

describe("WindField: strength, modulation and gusts", () => {
  it("turbulence 0 is a steady wind: no slow modulation; it deepens in proportion up to the default turbulence", () => {
    const steady = new WindField({ speed: 10, gust: 0, turbulence: 0 });
    for (let k = 0; k < 600; k++) expect(steady.strength(k * 0.5)).toBe(10);
    const swing = (turbulence: number) => {
      const w = new WindField({ speed: 10, gust: 0, turbulence, seed: 4 });
      let lo = Infinity, hi = -Infinity;
      for (let k = 0; k < 6000; k++) {
        const s = w.strength(k * 0.5);
        lo = Math.min(lo, s);
        hi = Math.max(hi, s);
      }
      return hi - lo;
    };
    const half = swing(0.175), full = swing(0.35), more = swing(0.8);
    expect(half).toBeGreaterThan(0);
    expect(half / full).toBeCloseTo(0.5, 6);
    expect(more).toBeCloseTo(full, 9);
    expect(modulationDepth(0.1)).toBeCloseTo(MODULATION_DEPTH * 0.1 / 0.35, 12);
  });

  it("slow modulation stays within ±20%, varies slowly and averages to about 1", () => {
    const w = new WindField({ speed: 10, gust: 0, turbulence: 0.35 });
    let lo = Infinity, hi = -Infinity, sum = 0, maxStep = 0;
    const n = 36000;
    let prev = w.strength(0);
    for (let k = 0; k < n; k++) {
      const s = w.strength(k * 0.1) / 10;
      lo = Math.min(lo, s);
      hi = Math.max(hi, s);
      sum += s;
      maxStep = Math.max(maxStep, Math.abs(s - prev / 10));
      prev = s * 10;
    }
    expect(lo).toBeGreaterThanOrEqual(1 - MODULATION_DEPTH);
    expect(hi).toBeLessThanOrEqual(1 + MODULATION_DEPTH);
    expect(hi - lo).toBeGreaterThan(0.15);
    expect(Math.abs(sum / n - 1)).toBeLessThan(0.05);
    expect(maxStep).toBeLessThan(0.01); // per 0.1 s: periods of tens of seconds
  });

  it("gusts are events with rise, hold and fall, a few per minute, peak proportional to `gust`", () => {
    const w = new WindField({ speed: 10, gust: 0.5, turbulence: 0, seed: 21 }, { modulation: false });
    const events = w.gustEvents(0, 600);
    expect(events.length).toBeGreaterThanOrEqual(15); // 1.5 to 4 per minute
    expect(events.length).toBeLessThanOrEqual(40);
    for (const e of events) {
      expect(e.rise).toBeGreaterThanOrEqual(GUST_RISE[0]);
      expect(e.rise).toBeLessThanOrEqual(GUST_RISE[1]);
      expect(e.hold).toBeGreaterThanOrEqual(GUST_HOLD[0]);
      expect(e.hold).toBeLessThanOrEqual(GUST_HOLD[1]);
      expect(e.fall).toBeGreaterThanOrEqual(GUST_FALL[0]);
      expect(e.fall).toBeLessThanOrEqual(GUST_FALL[1]);
      expect(e.peak).toBeGreaterThan(0);
      expect(e.peak).toBeLessThanOrEqual(0.5);
    }
    // The shape: 0 before, rising, flat at 1 while holding, falling, 0 after.
    const [r, h, f] = [2, 3, 4];
    expect(gustShape(r, h, f, -0.1)).toBe(0);
    expect(gustShape(r, h, f, 0)).toBe(0);
    let prev = 0;
    for (let t = 0.1; t < r; t += 0.1) {
      expect(gustShape(r, h, f, t)).toBeGreaterThan(prev);
      prev = gustShape(r, h, f, t);
    }
    for (let t = r; t <= r + h; t += 0.25) expect(gustShape(r, h, f, t)).toBe(1);
    prev = 1;
    for (let t = r + h + 0.1; t < r + h + f; t += 0.1) {
      expect(gustShape(r, h, f, t)).toBeLessThan(prev);
      prev = gustShape(r, h, f, t);
    }
    expect(gustShape(r, h, f, r + h + f)).toBe(0);
    expect(gustShape(r, h, f, r + h + f + 1)).toBe(0);
    // In strength: an isolated event lifts the mean wind by (1 + peak) while it holds.
    const e = events.find((ev, i) => (i === 0 || events[i - 1].start + 12 < ev.start) && (i === events.length - 1 || ev.start + 12 < events[i + 1].start))!;
    expect(w.strength(e.start + e.rise + e.hold / 2)).toBeCloseTo(10 * (1 + e.peak), 9);
    expect(w.strength(e.start + e.rise / 2)).toBeGreaterThan(10);
    expect(w.strength(e.start + e.rise / 2)).toBeLessThan(10 * (1 + e.peak));
    // Peak proportional to `gust`: the same events, twice the envelope.
    const w2 = new WindField({ speed: 10, gust: 1, turbulence: 0, seed: 21 }, { modulation: false });
    for (let t = 0; t < 300; t += 0.7) expect(w2.gustEnvelope(t)).toBeCloseTo(2 * w.gustEnvelope(t), 12);
    // gust 0: no gusts at all.
    const w0 = new WindField({ speed: 10, gust: 0, turbulence: 0, seed: 21 }, { modulation: false });
    for (let t = 0; t < 300; t += 0.7) expect(w0.strength(t)).toBe(10);
  });
});

describe("WindField: the vertical mean wind (Barron's y slider)", () => {
  it("adds vertical × the horizontal strength's modulation and gusts along +y; the horizontal part is unchanged", () => {
    const base = new WindField({ speed: 8, direction: 50, vertical: 0, turbulence: 0.3, gust: 0.8, seed: 13 });
    const up = new WindField({ speed: 8, direction: 50, vertical: 3, turbulence: 0.3, gust: 0.8, seed: 13 });
    const down = new WindField({ speed: 8, direction: 50, vertical: -3, turbulence: 0.3, gust: 0.8, seed: 13 });
    const ob = new Float64Array(3), ou = new Float64Array(3), od = new Float64Array(3);
    const su = newState();
    let lo = Infinity, hi = -Infinity;
    for (let k = 0; k < 400; k++) {
      const x = (k * 13.7) % 80 - 40, y = k % 7, z = (k * 29.3) % 60 - 30, t = k * 0.9;
      base.sample(x, y, z, t, ob);
      up.sample(x, y, z, t, ou);
      down.sample(x, y, z, t, od);
      const v = up.verticalStrength(t, x, z); // at the point: gusts roll
      expect(v).toBeCloseTo((3 / 8) * up.strength(t, x, z), 12); // the same factor as the horizontal strength
      expect(ou[0]).toBe(ob[0]);
      expect(ou[2]).toBe(ob[2]);
      expect(ou[1] - ob[1]).toBeCloseTo(v, 12);
      expect(od[1] - ob[1]).toBeCloseTo(-v, 12);
      expect(up.gpuState(t, su, x, z).vertical).toBe(v);
      lo = Math.min(lo, v / 3);
      hi = Math.max(hi, v / 3);
    }
    expect(lo).toBeGreaterThanOrEqual(1 - MODULATION_DEPTH);
    expect(hi).toBeGreaterThan(1.3); // gusts lift it too
  });

  it("without modulation and between gusts the vertical wind is exactly the setting", () => {
    const w = new WindField({ speed: 5, vertical: 2, gust: 0, turbulence: 0 }, { modulation: false });
    const out = new Float64Array(3);
    for (let t = 0; t < 100; t += 3.3) {
      w.sample(1, 2, 3, t, out);
      expect(Array.from(out)).toEqual([5, 2, 0]);
    }
  });

  it("speed 0 with vertical ≠ 0 blows straight up (or down), gusting and modulated, without turbulence", () => {
    const w = new WindField({ speed: 0, vertical: 4, gust: 0.7, turbulence: 1, seed: 3 });
    const out = new Float64Array(3);
    const s = newState();
    let lo = Infinity, hi = -Infinity;
    for (let k = 0; k < 600; k++) {
      const t = k * 0.5;
      const x = k * 1.3 - 50, z = 40 - k * 0.7;
      w.sample(x, 2, z, t, out);
      expect(Object.is(out[0], 0) && Object.is(out[2], 0)).toBe(true);
      expect(out[1]).toBe(w.verticalStrength(t, x, z)); // gusts roll at GUST_MIN_TRAVEL in calm air
      w.gpuState(t, s, x, z);
      expect(s).toMatchObject({ strength: 0, turbulenceAmplitude: 0, advection: 0, vertical: out[1] });
      lo = Math.min(lo, out[1]);
      hi = Math.max(hi, out[1]);
    }
    expect(lo).toBeGreaterThanOrEqual(4 * (1 - MODULATION_DEPTH));
    expect(hi).toBeGreaterThan(4 * 1.3); // gusts blow even at speed 0 when there is a vertical wind
    const at7 = w.verticalStrength(7);
    w.set({ vertical: -2 }); // a downdraft: the same factor, the other sign
    w.sample(0, 0, 0, 7, out);
    expect(out[1]).toBeLessThan(0);
    expect(out[1]).toBeCloseTo(-0.5 * at7, 12);
  });

  it("sample() == windFromGpuState(gpuState(t)) with a vertical wind, also in calm horizontal air", () => {
    for (const settings of [{ speed: 0, vertical: -6 }, { speed: 11, vertical: 7, turbulence: 0.6 }]) {
      const w = new WindField({ ...settings, gust: 0.5, direction: 120, seed: 4 });
      const out = new Float64Array(3), pure = new Float64Array(3);
      const s = newState();
      for (let k = 0; k < 200; k++) {
        const x = k * 0.37 - 30, z = 20 - k * 0.29, t = k * 0.61;
        w.sample(x, 1, z, t, out);
        windFromGpuState(w.gpuState(t, s, x, z), w.turbulenceTexture, x, z, pure);
        expect(Array.from(pure)).toEqual(Array.from(out));
      }
    }
  });
});

describe("WindField: turbulence (Habel 2009 eq. 14, Taylor's frozen turbulence)", () => {
  it("the along-wind spectrum at a point follows eq. 14 for two speeds: flat, knee at f = v_m, slope -5/3, level ∝ v_m", () => {
    const fs = 64;
    const fits = [3, 6].map((speed) => {
      const { spectrum, std } = alongWindSpectrum(speed, fs);
      const fit = fitKneeSpectrum(spectrum, 0.05 * speed, 2.5 * speed);
      const lowSlope = logLogSlope(spectrum, 0.05 * speed, 0.2 * speed, 8);
      return { speed, std, fit, lowSlope };
    });
    for (const { speed, std, fit, lowSlope } of fits) {
      expect(std / speed).toBeGreaterThan(0.35 * 0.85); // standard deviation / mean = turbulence
      expect(std / speed).toBeLessThan(0.35 * 1.15);
      expect(fit.knee / speed).toBeGreaterThan(0.7); // knee at f ≈ v_m
      expect(fit.knee / speed).toBeLessThan(1.4);
      expect(fit.exponent).toBeGreaterThan(5 / 3 - 0.3); // (1 + f/v_m)^(-5/3)
      expect(fit.exponent).toBeLessThan(5 / 3 + 0.3);
      expect(fit.rmsLog10).toBeLessThan(0.08);
      expect(lowSlope).toBeGreaterThan(-0.4); // flat well below the knee
    }
    // Eq. 14's level P_w(0) ∝ v_m: amplitude / v_m the same for both speeds.
    const ratio = fits[0].fit.amplitude / 3 / (fits[1].fit.amplitude / 6);
    expect(ratio).toBeGreaterThan(0.8);
    expect(ratio).toBeLessThan(1.25);
  });

  it("two points 10 m apart across the wind are decorrelated; along the wind the downstream one sees the same gusts distance/speed later", () => {
    const speed = 5, fs = 20, n = 4000;
    for (const direction of [0, 30]) {
      const w = new WindField({ speed, direction, gust: 0, turbulence: 0.4, seed: 9 }, { modulation: false });
      const th = (direction * Math.PI) / 180;
      const dx = Math.cos(th), dz = Math.sin(th);
      const out = new Float64Array(3);
      const p = new Float64Array(n), across = new Float64Array(n), along = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const t = i / fs;
        w.sample(2, 0, 1, t, out);
        p[i] = out[0] * dx + out[2] * dz;
        w.sample(2 - 10 * dz, 0, 1 + 10 * dx, t, out);
        across[i] = out[0] * dx + out[2] * dz;
        w.sample(2 + 10 * dx, 0, 1 + 10 * dz, t, out);
        along[i] = out[0] * dx + out[2] * dz;
      }
      expect(Math.abs(correlation(p, across))).toBeLessThan(0.5);
      const maxLag = 80;
      const r = crossCorrelation(p, along, maxLag);
      let best = 0;
      for (let i = 0; i < r.length; i++) if (r[i] > r[best]) best = i;
      expect((best - maxLag) / fs).toBeCloseTo(10 / speed, 6); // delay = distance / speed
      expect(r[best]).toBeGreaterThan(0.95);
    }
  });
});

describe("WindField: wind primitives (Zioma 2007 §6.3.1)", () => {
  it("a vortex adds tangential wind and a blast a radial front; without them sample() is the GPU contract", () => {
    const w = new WindField({ speed: 0, gust: 0 });
    const out = new Float64Array(3);
    w.primitives.push(new Vortex(0, 0, 2, 5));
    w.sample(2, 0, 0, 1, out);
    expect(out[0]).toBeCloseTo(0, 12);
    expect(out[2]).toBeCloseTo(5, 12);
    w.primitives.length = 0;
    w.primitives.push(new Blast(0, 0, 10, 8, 30, 3, 1.5));
    w.sample(15, 0, 0, 9, out);
    expect(out[0]).toBe(0); // before the blast
    w.sample(15, 0, 0, 10.5, out); // front at 15 m
    expect(out[0]).toBeCloseTo(8 * Math.exp(-0.5 / 1.5), 9); // at the front, decayed for 0.5 s
    expect(out[2]).toBeCloseTo(0, 12);
  });
});

describe("WindField: gusts that roll with the mean wind", () => {
  it("a tree at the origin feels the mean wind it felt before gusts rolled: the pure gust and modulation functions at t", () => {
    for (const [speed, gust, turbulence] of [[6, 0.3, 0.35], [14, 0.9, 0.2], [3, 1, 0.8]]) {
      const w = new WindField({ speed, gust, turbulence, seed: 17, direction: 33 });
      for (let k = 0; k < 2000; k++) {
        const t = k * 0.173;
        const before = speed * (1 + gustEnvelope(17, gust, t)) * slowModulation(17, t, modulationDepth(turbulence));
        expect(w.strength(t)).toBeCloseTo(before, 10);
        expect(w.strength(t, 0, 0)).toBe(w.strength(t));
      }
    }
  });

  it("MeanFactor, which keeps the slots and knots it last used, gives the pure functions' values in any order of times", () => {
    const f = new MeanFactor();
    const times = Array.from({ length: 3000 }, (_, k) => ((k * 7919) % 3000) * 0.37 - 200);
    for (const seed of [1, 9]) {
      for (const t of times) {
        const pure = (1 + gustEnvelope(seed, 0.6, t)) * slowModulation(seed, t, 0.13);
        expect(f.at(seed, 0.6, 0.13, t)).toBeCloseTo(pure, 12);
      }
    }
    expect(f.at(3, 0, 0, 12.5)).toBe(1);
  });

  it("the gust at a point downwind arrives distance / speed later; points across the wind see it at the same time", () => {
    const speed = 8, fs = 20, n = 6000;
    for (const direction of [0, 57]) {
      const w = new WindField({ speed, direction, gust: 1, turbulence: 0.35, seed: 5 });
      const th = (direction * Math.PI) / 180, dx = Math.cos(th), dz = Math.sin(th);
      const p = [3, -2], D = 40;
      const near = new Float64Array(n), far = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const t = i / fs;
        near[i] = w.strength(t, p[0], p[1]);
        far[i] = w.strength(t, p[0] + D * dx, p[1] + D * dz);
        // Across the wind: 25 m to the side, the same mean wind at the same time.
        expect(w.strength(t, p[0] - 25 * dz, p[1] + 25 * dx)).toBeCloseTo(near[i], 9);
      }
      // The delay that lines the two series up best is distance / speed (5 s), to the sampling step.
      const maxLag = 200;
      const r = crossCorrelation(near, far, maxLag);
      let best = 0;
      for (let i = 0; i < r.length; i++) if (r[i] > r[best]) best = i;
      expect(Math.abs((best - maxLag) / fs - D / speed)).toBeLessThanOrEqual(1 / fs);
      expect(r[best]).toBeGreaterThan(0.95); // normalised over the whole series, of which the shift leaves 98 % overlapping
      // And exactly: the far point's mean wind at t is the near point's at t - D / speed.
      for (let k = 0; k < 300; k++) {
        const t = 10 + k * 0.91;
        expect(w.strength(t, p[0] + D * dx, p[1] + D * dz)).toBeCloseTo(w.strength(t - D / speed, p[0], p[1]), 9);
      }
      expect(w.gustDelay(p[0] + D * dx, p[1] + D * dz) - w.gustDelay(p[0], p[1])).toBeCloseTo(D / speed, 12);
    }
  });

  it("sample() carries the whole wind, gusts and turbulence alike, downwind at the mean speed", () => {
    const speed = 10, w = new WindField({ speed, direction: 120, gust: 0.8, turbulence: 0.5, seed: 3 });
    const th = (120 * Math.PI) / 180, dx = Math.cos(th), dz = Math.sin(th), D = 30;
    const a = new Float64Array(3), b = new Float64Array(3);
    let spread = 0;
    for (let k = 0; k < 400; k++) {
      const t = 5 + k * 0.137;
      w.sample(1 + D * dx, 2, -4 + D * dz, t, b);
      w.sample(1, 2, -4, t - D / speed, a);
      for (let c = 0; c < 3; c++) expect(b[c]).toBeCloseTo(a[c], 4);
      w.sample(1, 2, -4, t, a);
      spread = Math.max(spread, Math.abs(b[0] - a[0]));
    }
    expect(spread).toBeGreaterThan(1); // the two points do differ at the same time
  });

  it("below GUST_MIN_TRAVEL the gusts travel at it; a timeline's speed changes the delay at once", () => {
    const w = new WindField({ speed: 0.4, gust: 1, turbulence: 0.35, seed: 8 });
    expect(w.gustDelay(10, 0)).toBeCloseTo(10 / GUST_MIN_TRAVEL, 12);
    w.setMean(5, 90, 1);
    expect(w.gustDelay(0, 10)).toBeCloseTo(2, 12);
    expect(w.gustDelay(10, 0)).toBeCloseTo(0, 12); // across the wind blowing toward +z
    expect(w.gustDelay(0, -10)).toBeCloseTo(-2, 12); // upwind: earlier
  });
});
