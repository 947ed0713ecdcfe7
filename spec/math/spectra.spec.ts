import { crossCorrelation, fitKneeSpectrum, logLogSlope, simiuScanlan, welch } from "../../app/math/spectra";
import { Rng } from "../../app/math/rng";

describe("simiuScanlan (Habel 2009 eq. 14)", () => {
  it("is v_m / (1 + f/v_m)^(5/3), and zero in calm air", () => {
    expect(simiuScanlan(0, 6)).toBeCloseTo(6, 12);
    expect(simiuScanlan(6, 6)).toBeCloseTo(6 * Math.pow(2, -5 / 3), 12);
    expect(simiuScanlan(60, 6)).toBeCloseTo(6 * Math.pow(11, -5 / 3), 12);
    expect(simiuScanlan(3, 0)).toBe(0);
  });
});

describe("welch", () => {
  it("gives a flat PSD of 2 sigma^2 / fs for white noise, integrating to the variance", () => {
    const rng = new Rng(4);
    const fs = 50, n = 1 << 15;
    const x = Float64Array.from({ length: n }, () => 2 * rng.gaussian());
    const s = welch(x, fs, 512);
    let integral = 0;
    for (let k = 0; k < s.f.length; k++) integral += s.psd[k] * (fs / 512);
    expect(integral).toBeGreaterThan(4 * 0.95);
    expect(integral).toBeLessThan(4 * 1.05);
    const mid = s.psd.slice(10, 240);
    const mean = mid.reduce((a, b) => a + b, 0) / mid.length;
    expect(mean).toBeCloseTo((2 * 4) / fs, 2);
    expect(Math.abs(logLogSlope(s, 1, 20))).toBeLessThan(0.1);
  });

  it("puts a sine's power at its frequency", () => {
    const fs = 64, n = 4096;
    const x = Float64Array.from({ length: n }, (_, i) => Math.sin(2 * Math.PI * 5 * (i / fs)));
    const s = welch(x, fs, 1024);
    let best = 0;
    for (let k = 0; k < s.psd.length; k++) if (s.psd[k] > s.psd[best]) best = k;
    expect(s.f[best]).toBeCloseTo(5, 6);
  });
});

describe("fitKneeSpectrum", () => {
  it("recovers amplitude, knee and exponent of an exact eq. 14 spectrum", () => {
    const f = Float64Array.from({ length: 2000 }, (_, i) => 0.01 * (i + 1));
    const psd = f.map((fi) => 0.1 * simiuScanlan(fi, 3));
    const fit = fitKneeSpectrum({ f, psd }, 0.1, 15);
    expect(fit.exponent).toBeCloseTo(5 / 3, 2);
    expect(fit.knee / 3).toBeCloseTo(1, 2);
    expect(fit.amplitude / 0.3).toBeCloseTo(1, 2);
  });
});

describe("crossCorrelation", () => {
  it("peaks at the lag by which y follows x", () => {
    const rng = new Rng(8);
    const x = Float64Array.from({ length: 3000 }, () => rng.gaussian());
    const y = Float64Array.from({ length: 3000 }, (_, i) => (i >= 7 ? x[i - 7] : 0));
    const r = crossCorrelation(x, y, 20);
    let best = 0;
    for (let i = 0; i < r.length; i++) if (r[i] > r[best]) best = i;
    expect(best - 20).toBe(7);
    expect(r[best]).toBeGreaterThan(0.99);
  });
});
