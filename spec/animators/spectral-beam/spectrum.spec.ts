/**
 * Eq. 16's mass enters the amplitude. In a steady turbulent wind the twin's own
 * bend of a branch (its tip relative to its base, L A: u(1) = A) has its spectral peak at the
 * branch's f_h (eq. 17), and there the height eq. 15 gives at its ζ with its eq. 16 mass:
 *   √S_x(f_h) = √S_F(f_h) · 1 / (m ω_h γ_h),  γ_h = 2 ζ ω_h,
 * S_F the one-sided force spectrum the branch takes: the drag across it (drag.ts, all it carries)
 * times the turbulent force 2 v σ_u, shaped by eq. 14 over the texture's band [0, 2 f_h] (unit
 * mean power there, motion.ts).
 */
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
import { simiuScanlan, welch } from "../../../app/math/spectra";
import { dampingSliderFor } from "../../../app/physics/damping";
import { defaultMaterial } from "../../../app/physics/material";
import type { WindGpuState } from "../../../app/wind/wind-field";
import { spectralBeamParams } from "../../../app/animators/spectral-beam/params";
import { SpectralBeamTwin, type WindSource } from "../../../app/animators/spectral-beam/twin";
import { oscillatorResponse, dampingCoefficient } from "../../../app/animators/spectral-beam/motion";
import { BranchWindLoads } from "../../../app/animators/spectral-beam/wind-load";
import { branchTexel } from "../../../app/animators/spectral-beam/layout";
import { fourLevelTree } from "../procedural-wind/fixtures";

const SPEED = 4, TURBULENCE = 0.1, ZETA = 0.15, DT = 1 / 60;

/** A steady wind along +x with a constant turbulence: eq. 14's v_m = SPEED, σ_u = TURBULENCE · SPEED. */
const steady: WindSource = {
  meanSpeed: SPEED,
  gpuState(_t: number, out: WindGpuState) {
    out.dirX = 1; out.dirZ = 0; out.strength = SPEED; out.vertical = 0; out.turbulenceAmplitude = TURBULENCE * SPEED; out.advection = 0;
    return out;
  },
};

describe("spectral-beam: a branch's motion spectrum (eqs. 14-17)", () => {
  const skeleton = fourLevelTree();
  const material = defaultMaterial();
  // Every level at the same ζ (the trunk by the slider, the others their own), textures fine enough to resolve a peak of that width.
  const params = { ...defaultsOf(spectralBeamParams), damping: dampingSliderFor(ZETA), damping0: 1, damping1: ZETA, damping2: ZETA, damping3: ZETA, textureSize: "512" as const };
  const tw = new SpectralBeamTwin(skeleton, params, new Rng(5), material);
  const branches = [0, 1, 2, 3]; // trunk, then one branch of each level on the +x side
  const frames = Math.round(1200 / DT), skip = Math.round(5 / DT);
  const x = branches.map(() => new Float64Array(frames - skip));
  let largest = 0;
  for (let f = 0; f < frames; f++) {
    tw.update(f * DT, steady);
    if (f < skip) continue;
    for (let i = 0; i < branches.length; i++) {
      const b = branches[i], o = branchTexel(b, 3);
      const A = tw.branchData[o]; // A_r: the tip's deflection over L along r (u(1) = A)
      largest = Math.max(largest, Math.hypot(A, tw.branchData[o + 1]));
      x[i][f - skip] = skeleton.branchLength[b] * A;
    }
  }
  const loads = new BranchWindLoads(skeleton.branchCount);
  loads.compute(skeleton, material, material.youngModulus, 1, 0, 0, false);

  it("stays far from the saturation (tanh) so the response is linear", () => {
    expect(largest).toBeLessThan(0.06); // A_max 0.6: tanh(0.1) / 0.1 = 0.997
  });

  it.each(branches.map((b, i) => [skeleton.branchLevel[b], b, i]))("level %p (branch %p): the peak at f_h, its height eq. 15's at ζ with eq. 16's mass", (_level, b, i) => {
    const info = tw.branchInfo(b);
    const fh = info.resonance, m = info.mass, zeta = info.dampingRatio;
    expect(zeta).toBeCloseTo(ZETA, 12);
    const s = welch(x[i], 1 / DT, 4096);
    // The peak over [0.4, 2.5] f_h, the PSD smoothed over ±4 % of f_h (the estimate's scatter).
    const df = s.f[1] - s.f[0], half = Math.max(1, Math.round((0.04 * fh) / df));
    const smooth = (k: number): number => {
      let sum = 0;
      for (let j = k - half; j <= k + half; j++) sum += s.psd[j];
      return sum / (2 * half + 1);
    };
    let peakF = 0, peak = 0;
    for (let k = half; k + half < s.f.length; k++) {
      if (s.f[k] < 0.4 * fh || s.f[k] > 2.5 * fh) continue;
      const p = smooth(k);
      if (p > peak) { peak = p; peakF = s.f[k]; }
    }
    // eq. 15's height at f_h: the force spectrum there through 1 / (m ω_h γ_h).
    const fMax = 2 * fh;
    let meanPower = 0;
    for (let j = 0; j < 2000; j++) meanPower += simiuScanlan(((j + 0.5) / 2000) * fMax, SPEED) / 2000;
    const force = 2 * SPEED * TURBULENCE * SPEED * loads.crossForce(skeleton, b); // 2 v σ_u · drag across it per (m/s)²
    const forcePsd = (force * force * simiuScanlan(fh, SPEED)) / (meanPower * fMax);
    const eq15 = oscillatorResponse(fh, fh, dampingCoefficient(zeta, fh), m);
    const predicted = Math.sqrt(forcePsd) * eq15;
    const k0 = Math.round(fh / df);
    const measured = Math.sqrt(smooth(k0));
    console.log(`level ${skeleton.branchLevel[b]} branch ${b}: f_h ${fh.toFixed(3)} Hz, m ${m.toFixed(3)} kg, ζ ${zeta}; spectral peak ${peakF.toFixed(3)} Hz (${(peakF / fh).toFixed(3)} f_h); √S_x(f_h) ${measured.toExponential(3)} m/√Hz, eq. 15 ${predicted.toExponential(3)} (ratio ${(measured / predicted).toFixed(3)})`);
    // The displacement peak of eq. 15 times eq. 14 lies at f_h √(1 - 2ζ²) = 0.977 f_h (ζ 0.15), the
    // wind's slope moves it by under 1 %, the estimate resolves 1.5 % of f_h: within 8 %.
    expect(Math.abs(peakF / fh - 1)).toBeLessThan(0.08);
    // The height: the texture is one realization (a ring of some 200 spectrum bins at f_h: ±7 %),
    // Welch's estimate over 20 minutes, smoothed over ±4 % of f_h (some 300 degrees of freedom: ±8 %),
    // bilinear lookup -1 %: within 15 % (seeds 5 and 6 land within 7 %).
    expect(Math.abs(measured / predicted - 1)).toBeLessThan(0.15);
  });

  it("the mass matters: twice the wood density halves the turbulent sway", () => {
    const heavy = new SpectralBeamTwin(skeleton, params, new Rng(5), { ...material, woodDensity: 2 * material.woodDensity });
    for (let b = 0; b < skeleton.branchCount; b++) expect(heavy.turbulentTip[b] / tw.turbulentTip[b]).toBeCloseTo(0.5, 10);
    // ...and the static bend is the beam's: Young's modulus, not the mass.
    for (let k = 0; k < 3 * skeleton.branchCount; k++) expect(heavy.meanTip[k]).toBe(tw.meanTip[k]);
    const stiff = new SpectralBeamTwin(skeleton, params, new Rng(5), { ...material, youngModulus: 2 * material.youngModulus });
    for (let k = 0; k < 3 * skeleton.branchCount; k++) expect(stiff.meanTip[k]).toBeCloseTo(tw.meanTip[k] / 2, 12);
  });
});
