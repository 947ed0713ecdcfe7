/**
 * Procedural-wind against the reference, through the shared harness: the mean
 * static tip deflection per level at 5/10/20 m/s, the trunk's dominant frequency (a method without
 * free dynamics of its own: the peak of its sway spectrum in a steady turbulent wind, and the free
 * ring-down of its response window after a wind that stops at a known time) and the first mode's ζ
 * from the damping slider. Prints the figures.
 */
import { calibrate, openBench, referenceFigures, skeletonOf } from "../../support/calibration-driver";
import { freeMotionOf, spectralPeak } from "../../../app/physics/calibration";
import { dampingRatio } from "../../../app/physics/damping";
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
import { proceduralWindParams } from "../../../app/animators/procedural-wind/params";
import { ProceduralWindTwin, type WindSource } from "../../../app/animators/procedural-wind/twin";
import type { WindGpuState } from "../../../app/wind/wind-field";

const DT = 1 / 60;

/** A steady wind along +x that stops at `stop` s: a function of time, as a WindField is. */
function stoppingWind(speed: number, stop: number): WindSource {
  const u = (t: number) => (t < stop ? speed : 0);
  return {
    gpuState(t: number, out: WindGpuState) {
      out.dirX = 1; out.dirZ = 0; out.strength = u(t); out.vertical = 0; out.turbulenceAmplitude = 0; out.advection = 0;
      return out;
    },
    sample(_x: number, _y: number, _z: number, t: number, out: Float64Array, o = 0) {
      out[o] = u(t); out[o + 1] = 0; out[o + 2] = 0;
    },
  };
}

// Habel and every other shipped tree: `npm run calibrate` (spec/calibrate/trees.calibrate.ts).
describe.each(["demo"])("procedural-wind calibrated on %s", (tree) => {
  it("static deflection per level within 20 % of the reference; sway peak and free ring-down at the first mode; ζ from the slider", async () => {
    const bench = await openBench(`#tree=${tree}`);
    try {
      const ref = referenceFigures(bench);
      const m = await calibrate(bench, "procedural-wind");
      for (let k = 0; k < ref.static.length; k++) {
        console.log(`procedural-wind ${tree} ${ref.static[k].speed} m/s: method ${m.static[k].levels.map((v) => v.toFixed(4)).join(" ")} reference ${ref.static[k].levels.map((v) => v.toFixed(4)).join(" ")}`);
      }
      // Sway spectrum in a steady turbulent wind: the trunk tip along the wind.
      bench.api.wind({ speed: 10, direction: 0, vertical: 0, turbulence: 0.5, gust: 0 });
      await bench.api.use("procedural-wind");
      const x = new Float64Array(1800);
      for (let f = 0; f < x.length; f++) {
        bench.api.step(1);
        x[f] = bench.api.probe()[0];
      }
      const peak = spectralPeak(x, DT);
      // Free ring-down: the twin on the bench's tree and material in a wind that stops at 10 s.
      const damping = bench.api.params("procedural-wind").damping as number;
      const twin = new ProceduralWindTwin(skeletonOf(bench.sandbox), { ...defaultsOf(proceduralWindParams), damping }, new Rng(1), bench.api.physics());
      const wind = stoppingWind(10, 10);
      const free = new Float64Array(Math.round(8 / DT)), tip = [0, 0, 0];
      for (let f = 0; f < free.length; f++) {
        twin.step(10 + (f + 1) * DT, DT, wind);
        twin.tipPosition(0, tip, 0);
        free[f] = tip[0];
      }
      const ring = freeMotionOf(free, DT);
      console.log(`procedural-wind ${tree}: sway peak ${peak.toFixed(3)} Hz, free ${ring.hz.toFixed(3)} Hz ζ ${ring.zeta.toFixed(4)}; reference first mode ${ref.firstHz.toFixed(3)} Hz, slider ζ ${dampingRatio(damping).toFixed(4)}`);
      for (let k = 0; k < ref.static.length; k++) {
        ref.static[k].levels.forEach((r, l) => expect(Math.abs(m.static[k].levels[l] / r - 1)).toBeLessThan(0.2));
      }
      expect(Math.abs(peak / ref.firstHz - 1)).toBeLessThan(0.2);
      expect(Math.abs(ring.hz / ref.firstHz - 1)).toBeLessThan(0.2);
      expect(Math.abs(ring.zeta / dampingRatio(damping) - 1)).toBeLessThan(0.2);
    } finally {
      bench.dispose();
    }
  }, 300_000);
});
