/**
 * The "Paper-literal" switch: Habel's own constants, for comparison with the
 * physical tree's. Each level's median branch sways by LEVEL_SWAY of its length at 10 m/s, and the
 * motion textures take eq. 15 as printed.
 */
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
import { spectralBeamParams } from "../../../app/animators/spectral-beam/params";
import { SpectralBeamTwin } from "../../../app/animators/spectral-beam/twin";
import { LEVEL_SWAY } from "../../../app/animators/spectral-beam/layout";
import { branchMotionSpectrum, printedOscillatorResponse, dampingCoefficient } from "../../../app/animators/spectral-beam/motion";
import { fourLevelTree } from "../procedural-wind/fixtures";

const skeleton = fourLevelTree();
const params = { ...defaultsOf(spectralBeamParams), textureSize: "64" as const };

/** Per level, the median over its branches of |meanTip| / L at 10 m/s: the tip's deflection over its length. */
function medianSway(tw: SpectralBeamTwin): number[] {
  const byLevel: number[][] = [[], [], [], []];
  for (let b = 0; b < skeleton.branchCount; b++) {
    const k = 3 * b;
    byLevel[Math.min(3, skeleton.branchLevel[b])].push((100 * Math.hypot(tw.meanTip[k], tw.meanTip[k + 1], tw.meanTip[k + 2])) / skeleton.branchLength[b]);
  }
  return byLevel.map((v) => v.sort((a, b) => a - b)[v.length >> 1]);
}

describe("spectral-beam paper-literal", () => {
  it("each level's median branch sways by LEVEL_SWAY of its length at 10 m/s; by default the material sets it", () => {
    const literal = medianSway(new SpectralBeamTwin(skeleton, { ...params, literal: true }, new Rng(1)));
    literal.forEach((v, l) => expect(v).toBeCloseTo(LEVEL_SWAY[l], 10));
    const physical = medianSway(new SpectralBeamTwin(skeleton, params, new Rng(1)));
    physical.forEach((v, l) => expect(Math.abs(v / LEVEL_SWAY[l] - 1)).toBeGreaterThan(0.5));
  });

  it("switching it on and off while it moves rebuilds the textures and keeps everything finite", () => {
    const tw = new SpectralBeamTwin(skeleton, params, new Rng(1));
    const wind = { meanSpeed: 10, gpuState: (_t: number, o: { dirX: number; dirZ: number; strength: number; vertical: number; turbulenceAmplitude: number; advection: number }) => Object.assign(o, { dirX: 1, dirZ: 0, strength: 10, vertical: 0, turbulenceAmplitude: 3, advection: 0 }) };
    tw.update(0.1, wind);
    tw.setParams({ ...tw.parameters, literal: true });
    expect(tw.pendingTextures).toBe(5);
    tw.update(0.2, wind);
    expect(tw.pendingTextures).toBe(0);
    expect(tw.hasNonFinite()).toBe(false);
  });

  it("eq. 15 as printed: the same at f = 0, a resonance sqrt(2π) / (4π²) as tall as the oscillator's", () => {
    const fh = 1.3, zeta = 0.2, v = 8;
    const printed = branchMotionSpectrum(fh, zeta, v, 1, true), standard = branchMotionSpectrum(fh, zeta, v, 1, false);
    expect(printed.amplitude(0) / standard.amplitude(0)).toBeCloseTo(1, 12);
    expect(printed.amplitude(fh) / standard.amplitude(fh)).toBeCloseTo(Math.sqrt(2 * Math.PI) / (4 * Math.PI * Math.PI), 10);
    const g = dampingCoefficient(zeta, fh);
    expect(printedOscillatorResponse(fh, fh, g, 2)).toBeCloseTo(1 / (2 * Math.PI * 2 * 2 * Math.PI * fh * g), 12);
  });
});
