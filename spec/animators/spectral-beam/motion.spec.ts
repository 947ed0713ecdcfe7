import {
  MOTION_TEXTURE_PADDING, RHO_WOOD, branchMasses, branchMotionSpectrum, dampingCoefficient, isNearRational, leafMetresPerUnit,
  leafMotionSpectrum, oscillatorResponse, resonanceFrequency, sampleWrapped, synthesizeMotionField, trajectoryDirection,
  trajectorySpeed, windPowerSpectrum, type MotionSpectrum,
} from "../../../app/animators/spectral-beam/motion";
import { Rng } from "../../../app/math/rng";
import { correlation, logBin, logLogSlope, simiuScanlan, welch, type Spectrum } from "../../../app/math/spectra";
import { SkeletonBuilder, type TreeSkeleton } from "../../../app/tree/skeleton";

const relative = (a: number, b: number): number => Math.abs(a / b - 1);

/** Mean of g over [0, b] by the midpoint rule. */
function meanOver(g: (x: number) => number, b: number, steps = 20000): number {
  let s = 0;
  for (let i = 0; i < steps; i++) s += g(((i + 0.5) * b) / steps);
  return s / steps;
}

function variance(x: ArrayLike<number>, stride = 1, offset = 0, count = x.length): number {
  let m = 0, q = 0;
  for (let i = 0; i < count; i++) m += x[i * stride + offset];
  m /= count;
  for (let i = 0; i < count; i++) q += (x[i * stride + offset] - m) ** 2;
  return q / count;
}

describe("wind and oscillator (eqs. 14, 15, 17)", () => {
  it("eq. (14) is the Simiu-Scanlan spectrum", () => {
    for (const [f, v] of [[0, 5], [1, 5], [3, 0.5], [10, 20]]) expect(windPowerSpectrum(f, v)).toBe(simiuScanlan(f, v));
    expect(windPowerSpectrum(2, 4)).toBeCloseTo(4 / 1.5 ** (5 / 3), 12);
  });

  it("eq. (17): f_h = 2.55 L^-0.59, leafless x2.5", () => {
    expect(resonanceFrequency(1)).toBeCloseTo(2.55, 12);
    expect(resonanceFrequency(1, true)).toBeCloseTo(6.375, 12);
    expect(resonanceFrequency(2)).toBeCloseTo(2.55 * 2 ** -0.59, 12); // 1.6969 Hz
    expect(resonanceFrequency(0.25)).toBeCloseTo(2.55 * 4 ** 0.59, 12);
    expect(resonanceFrequency(3, true) / resonanceFrequency(3)).toBeCloseTo(2.5, 12);
    for (const bad of [0, -1, NaN, Infinity]) expect(() => resonanceFrequency(bad)).toThrow(RangeError);
  });

  it("γ_h = 2 ζ ω_h", () => {
    expect(dampingCoefficient(0.1, 2)).toBeCloseTo(0.2 * 2 * Math.PI * 2, 12);
    expect(dampingCoefficient(0, 2)).toBe(0);
    expect(() => dampingCoefficient(-0.1, 2)).toThrow(RangeError);
  });

  it("eq. (15): 1/k at f = 0, 1/(2ζk) at f_h, peak at f_h sqrt(1 - 2ζ²), 1/(m ω²) far above", () => {
    const fh = 1.7, m = 3, zeta = 0.02;
    const k = m * (2 * Math.PI * fh) ** 2;
    const g = dampingCoefficient(zeta, fh);
    expect(relative(oscillatorResponse(0, fh, g, m), 1 / k)).toBeLessThan(1e-12);
    expect(relative(oscillatorResponse(fh, fh, g, m), 1 / (2 * zeta * k))).toBeLessThan(1e-12);
    let best = 0, bestF = 0;
    for (let f = 0; f <= 2 * fh; f += fh / 20000) {
      const r = oscillatorResponse(f, fh, g, m);
      if (r > best) [best, bestF] = [r, f];
    }
    expect(relative(bestF, fh * Math.sqrt(1 - 2 * zeta * zeta))).toBeLessThan(1e-3);
    expect(relative(oscillatorResponse(100 * fh, fh, g, m), 1 / (m * (2 * Math.PI * 100 * fh) ** 2))).toBeLessThan(1e-3);
  });
});

describe("branchMasses (eq. 16)", () => {
  /** A straight branch along +y from y0 with two nodes. */
  function addStraight(b: SkeletonBuilder, parent: number, x: number, y0: number, length: number, s1: number, s2: number): number {
    const i = b.addBranch(parent, 0.5);
    b.addNode(i, x, y0, 0, s1);
    b.addNode(i, x, y0 + length, 0, s2);
    return i;
  }
  const frustum = (L: number, s1: number, s2: number): number => RHO_WOOD * (Math.PI * L / 3) * (s1 * s1 + s1 * s2 + s2 * s2);

  it("a cylinder weighs ρ_w π L s²", () => {
    const b = new SkeletonBuilder();
    addStraight(b, -1, 0, 0, 2, 0.1, 0.1);
    const m = branchMasses(b.build());
    expect(relative(m[0], RHO_WOOD * Math.PI * 2 * 0.01)).toBeLessThan(1e-6);
  });

  it("a parent carries its children and grandchildren (hand-computed three-branch tree)", () => {
    const b = new SkeletonBuilder();
    const trunk = addStraight(b, -1, 0, 0, 2, 0.1, 0.05);
    const child = addStraight(b, trunk, 0.3, 1, 1, 0.04, 0.02);
    addStraight(b, child, 0.6, 1.5, 0.5, 0.02, 0.01);
    const s: TreeSkeleton = b.build();
    const grand = frustum(0.5, 0.02, 0.01); // 0.5 π/3 (4e-4 + 2e-4 + 1e-4) ρ = 0.2566 kg
    const own1 = frustum(1, 0.04, 0.02); // π/3 (16e-4 + 8e-4 + 4e-4) ρ = 2.0525 kg
    const own0 = frustum(2, 0.1, 0.05); // 2π/3 (0.01 + 0.005 + 0.0025) ρ = 25.656 kg
    const out = new Float64Array(4).fill(-1);
    const m = branchMasses(s, out);
    expect(m).toBe(out);
    expect(relative(m[2], grand)).toBeLessThan(1e-6);
    expect(relative(m[1], own1 + grand)).toBeLessThan(1e-6);
    expect(relative(m[0], own0 + own1 + grand)).toBeLessThan(1e-6);
    expect(m[0]).toBeCloseTo(27.965, 2);
    expect(out[3]).toBe(-1); // beyond branchCount untouched
    expect(() => branchMasses(s, new Float64Array(2))).toThrow(RangeError);
  });
});

describe("trajectories (§5.4)", () => {
  it("isNearRational: small rationals and infinities are near, sqrt(2) and the golden ratio are not", () => {
    for (const r of [0.5, 2 / 3, 0.5001, 3, -0.5, 7 / 12, 11 / 12 + 0.001, 0, Infinity, -Infinity, NaN]) expect(isNearRational(r)).toBe(true);
    for (const r of [Math.SQRT2, (1 + Math.sqrt(5)) / 2, 1 / Math.SQRT2, Math.sqrt(3) - 1]) expect(isNearRational(r)).toBe(false);
    expect(isNearRational(Math.PI)).toBe(true); // 22/7: off by 0.0013 < 0.02 / 7
    expect(isNearRational(0.509)).toBe(true); // |r - 1/2| < 0.02 / 2
    expect(isNearRational(0.511)).toBe(false); // |r - 1/2| ≥ 0.01, and no other p/q with q ≤ 12 within 0.02 / q
    expect(isNearRational(13 / 17)).toBe(false);
    expect(isNearRational(13 / 17, 17, 1e-9)).toBe(true);
  });

  it("trajectoryDirection draws unit vectors whose ratios are never near a small rational", () => {
    const rng = new Rng(11);
    const out = new Float64Array(3).fill(7);
    for (let i = 0; i < 1000; i++) {
      trajectoryDirection(rng, out, 1);
      expect(out[0]).toBe(7);
      expect(Math.abs(Math.hypot(out[1], out[2]) - 1)).toBeLessThan(1e-12);
      expect(isNearRational(out[1] / out[2])).toBe(false);
      expect(isNearRational(out[2] / out[1])).toBe(false);
    }
    const a = new Float64Array(2), b = new Float64Array(2);
    trajectoryDirection(new Rng(5), a);
    trajectoryDirection(new Rng(5), b);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it("trajectorySpeed puts the band edge f_max = 2 f_h at radius size / 8", () => {
    for (const size of [64, 256]) expect((trajectorySpeed(1.3, size) * size) / (2 * MOTION_TEXTURE_PADDING)).toBeCloseTo(2 * 1.3, 12);
  });
});

describe("sampleWrapped", () => {
  const size = 16;
  const tex = new Float32Array(size * size * 3);
  const rng = new Rng(2);
  for (let i = 0; i < tex.length; i++) tex[i] = rng.range(-1, 1);
  const texel = (i: number, j: number, o: number): number => tex[(j * size + i) * 3 + o];

  it("returns the texel at its centre and repeats with period 1", () => {
    for (const [i, j] of [[0, 0], [5, 9], [15, 15], [15, 0]]) {
      const u = (i + 0.5) / size, v = (j + 0.5) / size;
      expect(sampleWrapped(tex, size, 3, 1, u, v)).toBeCloseTo(texel(i, j, 1), 6);
      for (const [du, dv] of [[1, 0], [0, 1], [-3, 2], [100, -7]]) {
        expect(sampleWrapped(tex, size, 3, 1, u + du, v + dv)).toBeCloseTo(texel(i, j, 1), 5);
      }
    }
    for (const [u, v] of [[0.123, 0.77], [0.999, 0.001]]) {
      expect(sampleWrapped(tex, size, 3, 2, u + 1, v)).toBeCloseTo(sampleWrapped(tex, size, 3, 2, u, v), 6);
      expect(sampleWrapped(tex, size, 3, 2, u, v - 1)).toBeCloseTo(sampleWrapped(tex, size, 3, 2, u, v), 6);
    }
  });

  it("interpolates linearly between texel centres, across the wrap too", () => {
    for (const t of [0, 0.25, 0.5, 0.9]) {
      const u = (3.5 + t) / size, v = 7.5 / size;
      expect(sampleWrapped(tex, size, 3, 0, u, v)).toBeCloseTo(texel(3, 7, 0) * (1 - t) + texel(4, 7, 0) * t, 6);
      const w = (10.5 + t) / size;
      expect(sampleWrapped(tex, size, 3, 0, 2.5 / size, w)).toBeCloseTo(texel(2, 10, 0) * (1 - t) + texel(2, 11, 0) * t, 6);
    }
    // u = 0 lies halfway between the last texel centre (wrapped) and the first.
    expect(sampleWrapped(tex, size, 3, 0, 0, 4.5 / size)).toBeCloseTo(0.5 * (texel(15, 4, 0) + texel(0, 4, 0)), 6);
    // Bilinear in the middle of four texels, at the corner of the texture.
    expect(sampleWrapped(tex, size, 3, 0, 0, 0)).toBeCloseTo(0.25 * (texel(15, 15, 0) + texel(0, 15, 0) + texel(15, 0, 0) + texel(0, 0, 0)), 6);
  });
});

describe("motion spectra (§5.2, §5.3, §7.2)", () => {
  it("branchMotionSpectrum: f_max = 2 f_h, amplification 1 at f = 0 and 1/(2ζ) at f_h, wind of unit mean power", () => {
    const fh = 1.5, zeta = 0.2, v = 6;
    const s = branchMotionSpectrum(fh, zeta, v, 4);
    expect(s.fMax).toBe(3);
    const wind = (f: number): number => simiuScanlan(f, v);
    const meanWind = meanOver(wind, s.fMax);
    expect(relative(s.amplitude(0), Math.sqrt(wind(0) / meanWind))).toBeLessThan(1e-6);
    expect(relative(s.amplitude(fh), Math.sqrt(wind(fh) / meanWind) / (2 * zeta))).toBeLessThan(1e-6);
    // The mass cancels in the dynamic amplification.
    expect(s.amplitude(0.7)).toBeCloseTo(branchMotionSpectrum(fh, zeta, v, 1).amplitude(0.7), 12);
    // Calm air keeps the 1 m/s shape.
    expect(branchMotionSpectrum(fh, zeta, 0).amplitude(0.7)).toBeCloseTo(branchMotionSpectrum(fh, zeta, 1).amplitude(0.7), 12);
    expect(() => branchMotionSpectrum(0, zeta, v)).toThrow(RangeError);
    expect(() => branchMotionSpectrum(fh, 0, v)).toThrow(RangeError);
  });

  it("leafMotionSpectrum: band edge (size/8) / metresPerUnit cycles/m, unit mean power, the wind's (1 + κ)^(-5/3) shape", () => {
    const size = 128, maxLeaf = 0.1;
    const mpu = leafMetresPerUnit(maxLeaf, size);
    expect(mpu).toBeCloseTo(6.4, 12);
    // The shortest wavelength, 8 texels, is 4 leaves.
    expect((8 / size) * mpu).toBeCloseTo(4 * maxLeaf, 12);
    const s = leafMotionSpectrum(3, mpu, size);
    expect(s.fMax).toBeCloseTo(16 / 6.4, 12);
    expect(relative(meanOver((k) => s.amplitude(k) ** 2, s.fMax), 1)).toBeLessThan(1e-6);
    expect(s.amplitude(1) / s.amplitude(0)).toBeCloseTo(2 ** (-5 / 6), 9);
    expect(leafMotionSpectrum(10, mpu, size).amplitude(1.3)).toBeCloseTo(s.amplitude(1.3), 9);
    expect(leafMotionSpectrum(0, mpu, size).amplitude(1.3)).toBeCloseTo(s.amplitude(1.3), 9);
    expect(() => leafMotionSpectrum(3, mpu, 100)).toThrow(RangeError);
  });
});

describe("synthesizeMotionField (§5.3, §5.4)", () => {
  const flat: MotionSpectrum = { fMax: 1, amplitude: () => 1 };

  it("is deterministic per seed and writes two independent fields at their stride and offsets", () => {
    const size = 32;
    const a1 = new Float32Array(size * size), b1 = new Float32Array(size * size);
    const a2 = new Float32Array(size * size), b2 = new Float32Array(size * size);
    const spec = branchMotionSpectrum(1, 0.3, 4);
    synthesizeMotionField(size, spec, new Rng(9), a1, b1);
    synthesizeMotionField(size, spec, new Rng(9), a2, b2);
    expect(a2).toEqual(a1);
    expect(b2).toEqual(b1);
    synthesizeMotionField(size, spec, new Rng(10), a2, b2);
    expect(a2).not.toEqual(a1);
    // Interleaved into one RGBA buffer: A into G, B into A; R and B untouched.
    const rgba = new Float32Array(4 * size * size).fill(5);
    synthesizeMotionField(size, spec, new Rng(9), rgba, rgba, 4, 1, 3);
    for (let i = 0; i < size * size; i++) {
      expect(rgba[4 * i]).toBe(5);
      expect(rgba[4 * i + 2]).toBe(5);
      expect(rgba[4 * i + 1]).toBe(a1[i]);
      expect(rgba[4 * i + 3]).toBe(b1[i]);
    }
  });

  it("has zero mean and the documented variance; real and imaginary fields are uncorrelated", () => {
    const size = 256;
    const a = new Float32Array(size * size), b = new Float32Array(size * size);
    for (const spec of [flat, branchMotionSpectrum(1, 4, 200), leafMotionSpectrum(5, leafMetresPerUnit(0.05, size), size)]) {
      // Non-increasing spectra are reproduced exactly: expected variance = mean of A² over [0, fMax].
      const expected = meanOver((f) => spec.amplitude(f) ** 2, spec.fMax);
      let sum = 0;
      const corr: number[] = [];
      for (let seed = 1; seed <= 6; seed++) {
        synthesizeMotionField(size, spec, new Rng(seed), a, b);
        let mean = 0;
        for (let i = 0; i < a.length; i++) mean += a[i];
        expect(Math.abs(mean / a.length)).toBeLessThan(1e-4 * Math.sqrt(expected));
        sum += variance(a) + variance(b);
        corr.push(correlation(a, b));
      }
      expect(relative(sum / 12, expected)).toBeLessThan(0.1);
      // Independent fields; the sample correlation's spread is wide where a few low bins carry most power (1/f²).
      for (const c of corr) expect(Math.abs(c)).toBeLessThan(0.35);
      expect(corr.reduce((p, c) => p + Math.abs(c), 0) / corr.length).toBeLessThan(0.2);
    }
  });

  it("rejects bad sizes and short outputs", () => {
    const big = new Float32Array(64 * 64 * 4);
    for (const size of [8, 48, 2048, 0]) expect(() => synthesizeMotionField(size, flat, new Rng(1), big, big)).toThrow(/power of two from 16 to 1024/);
    expect(() => synthesizeMotionField(64, flat, new Rng(1), big, big, 4, 1, 4)).toThrow(RangeError);
    expect(() => synthesizeMotionField(64, flat, new Rng(1), new Float32Array(100), big)).toThrow(RangeError);
    expect(() => synthesizeMotionField(64, { fMax: 1, amplitude: () => NaN }, new Rng(1), big, big)).toThrow(RangeError);
  });
});

/**
 * Figure 8: a 256² texture per case, sampled along trajectories o + m t with |m| = trajectorySpeed
 * (f_h = 1 Hz, so f_max = 2 Hz), at 8 Hz = 4 f_max for 2048 s each; Welch spectra averaged over
 * four trajectories (two per field) to tame the one-texture randomness.
 */
function trajectorySpectrum(spec: MotionSpectrum, fh: number, seed: number, direction?: Float64Array): Spectrum {
  const size = 256, fs = 8, duration = 2048;
  const a = new Float32Array(size * size), b = new Float32Array(size * size);
  const rng = new Rng(seed);
  synthesizeMotionField(size, spec, rng, a, b, 1, 0, 0, direction);
  const speed = trajectorySpeed(fh, size);
  const x = new Float64Array(duration * fs);
  const d = new Float64Array(2);
  let sum: Spectrum | null = null;
  for (let t = 0; t < 4; t++) {
    if (direction) d.set(direction);
    else trajectoryDirection(rng, d);
    const u0 = rng.next(), v0 = rng.next();
    const tex = t % 2 === 0 ? a : b;
    for (let i = 0; i < x.length; i++) x[i] = sampleWrapped(tex, size, 1, 0, u0 + (d[0] * speed * i) / fs, v0 + (d[1] * speed * i) / fs);
    const s = welch(x, fs, 1024);
    if (!sum) sum = s;
    else for (let k = 0; k < s.psd.length; k++) sum.psd[k] += s.psd[k];
  }
  for (let k = 0; k < sum!.psd.length; k++) sum!.psd[k] /= 4;
  return sum!;
}

describe("Figure 8: spectra along trajectories", () => {
  it("normally damped (ζ = 0.1): the resonance f_h dominates", () => {
    const fh = 1;
    const s = trajectorySpectrum(branchMotionSpectrum(fh, 0.1, 5), fh, 1);
    const bands = logBin(s, 0.1, 2, 60);
    let peak = 0;
    for (let i = 1; i < bands.f.length; i++) if (bands.psd[i] > bands.psd[peak]) peak = i;
    expect(relative(bands.f[peak], fh)).toBeLessThan(0.1);
    // Above the plateau that the resonance ring projects below f_h (about 3x in theory; the
    // designed 1/(2ζ)² = 25x, about 20x with the wind spectrum, is out of reach of any radially
    // symmetric texture).
    const plateau = logBin(s, 0.1, 0.5, 1).psd[0];
    expect(bands.psd[peak] / plateau).toBeGreaterThan(1.8);
    // Above the peak the trajectory follows the designed spectrum's fall.
    expect(s.psd[Math.round(1.6 * 128)] / bands.psd[peak]).toBeLessThan(0.1);
  });

  /*
   * Overdamped (ζ = 4) in strong wind (v_m = 200 m/s, so eq. 14 is flat to 1% over [0, f_max]).
   * The response power 1 / ((ω_h² - ω²)² + (2ζ ω_h ω)²) factors as 1 / ((ω1² + ω²)(ω2² + ω²))
   * with ω1,2 = ω_h (ζ ∓ sqrt(ζ² - 1)): f1 = 0.127 f_h, f2 = 7.87 f_h. Between them it is ~1/f²;
   * its local slope -2 f²/(f² + f1²) - 2 f²/(f² + f2²) is -1.70 at 0.3 f_h and -1.97 at 0.95 f_h,
   * about -1.9 across [0.3, 0.95] f_h, which lies inside [f_min, f_max] = [f_h / 16, 2 f_h]. The
   * texture's radial profile is the inverse projection of that spectrum, so a trajectory shows it
   * (with S = A², the projection would flatten it to about -1).
   */
  it("overdamped (ζ = 4): close to 1/f², and the trajectory's spectrum is the designed one", () => {
    const fh = 1;
    const spec = branchMotionSpectrum(fh, 4, 200);
    const s = trajectorySpectrum(spec, fh, 2);
    expect(logLogSlope(s, 0.3 * fh, 0.95 * fh, 10)).toBeGreaterThan(-2.35);
    expect(logLogSlope(s, 0.3 * fh, 0.95 * fh, 10)).toBeLessThan(-1.65);
    // Absolute level: the one-sided spectrum is A²(f) / f_max (variance = mean of A² over the band).
    // Per band it scatters with the few bins that project there (most at low f); on average it is 1.
    const bands = logBin(s, 0.1, 1.8, 6);
    let mean = 0;
    for (let i = 0; i < bands.f.length; i++) {
      const ratio = bands.psd[i] / (spec.amplitude(bands.f[i]) ** 2 / spec.fMax);
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(2);
      mean += ratio / bands.f.length;
    }
    expect(mean).toBeGreaterThan(0.85);
    expect(mean).toBeLessThan(1.15);
  });

  /*
   * A texture made for one direction (every branch of a level follows it, from its own start):
   * each bin gets the power its projection on that direction asks for, so the trajectory shows
   * the designed spectrum itself, the resonance peak at its full height. Designed: 1/(2ζ)² = 25
   * over the static response, times eq. 14's fall from f ≈ 0 to f_h (at 5 m/s, 0.80): 20x.
   */
  it("direction-matched (ζ = 0.1): the resonance stands its designed height over the low frequencies", () => {
    const fh = 1;
    const d = new Float64Array(2);
    trajectoryDirection(new Rng(11), d);
    const spec = branchMotionSpectrum(fh, 0.1, 5);
    const s = trajectorySpectrum(spec, fh, 1, d);
    const bands = logBin(s, 0.1, 2, 60);
    let peak = 0;
    for (let i = 1; i < bands.f.length; i++) if (bands.psd[i] > bands.psd[peak]) peak = i;
    expect(relative(bands.f[peak], fh)).toBeLessThan(0.05);
    const plateau = logBin(s, 0.1, 0.5, 1).psd[0];
    const designed = (spec.amplitude(fh) / spec.amplitude(0.3)) ** 2;
    expect(designed).toBeGreaterThan(15);
    // Welch over 2048 s, four trajectories, the peak's band ±2 % wide: the estimate scatters ±25 %.
    expect(bands.psd[peak] / plateau / designed).toBeGreaterThan(0.6);
    expect(bands.psd[peak] / plateau / designed).toBeLessThan(1.5);
    // And the absolute level everywhere: the one-sided spectrum is A²(f) / f_max.
    const wide = logBin(s, 0.1, 1.9, 12);
    for (let i = 0; i < wide.f.length; i++) {
      const ratio = wide.psd[i] / (spec.amplitude(wide.f[i]) ** 2 / spec.fMax);
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(2);
    }
  });

  it("direction-matched: two starts on the same direction are uncorrelated", () => {
    const size = 256, fh = 1, fs = 8;
    const a = new Float32Array(size * size), b = new Float32Array(size * size);
    const d = new Float64Array(2);
    trajectoryDirection(new Rng(3), d);
    synthesizeMotionField(size, branchMotionSpectrum(fh, 0.1, 5), new Rng(6), a, b, 1, 0, 0, d);
    const speed = trajectorySpeed(fh, size);
    const n = 1000 * fs, x = new Float64Array(n), y = new Float64Array(n);
    const rng = new Rng(8);
    let worst = 0;
    for (let pair = 0; pair < 4; pair++) {
      const u0 = rng.next(), v0 = rng.next(), u1 = rng.next(), v1 = rng.next();
      for (let i = 0; i < n; i++) {
        const t = i / fs;
        x[i] = sampleWrapped(a, size, 1, 0, u0 + d[0] * speed * t, v0 + d[1] * speed * t);
        y[i] = sampleWrapped(a, size, 1, 0, u1 + d[0] * speed * t, v1 + d[1] * speed * t);
      }
      worst = Math.max(worst, Math.abs(correlation(x, y)));
    }
    expect(worst).toBeLessThan(0.2);
    expect(() => synthesizeMotionField(size, branchMotionSpectrum(fh, 0.1, 5), new Rng(6), a, b, 1, 0, 0, [1, 1])).toThrow(/unit 2D vector/);
  });

  it("a trajectory does not repeat at the texture period; an axis-aligned one does", () => {
    const size = 256, fh = 1, fs = 8;
    const a = new Float32Array(size * size), b = new Float32Array(size * size);
    const rng = new Rng(4);
    synthesizeMotionField(size, branchMotionSpectrum(fh, 0.1, 5), rng, a, b);
    const speed = trajectorySpeed(fh, size);
    const d = new Float64Array(2);
    trajectoryDirection(rng, d);
    const lagCorrelation = (dx: number, dy: number): number => {
      const period = 1 / Math.abs(dx * speed); // one crossing of the texture along x
      const n = 1500 * fs;
      const x = new Float64Array(n), y = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const t = i / fs;
        x[i] = sampleWrapped(a, size, 1, 0, 0.3 + dx * speed * t, 0.6 + dy * speed * t);
        y[i] = sampleWrapped(a, size, 1, 0, 0.3 + dx * speed * (t + period), 0.6 + dy * speed * (t + period));
      }
      return correlation(x, y);
    };
    expect(Math.abs(lagCorrelation(d[0], d[1]))).toBeLessThan(0.5);
    expect(lagCorrelation(1, 0)).toBeGreaterThan(0.9999);
  });
});
