/**
 * The calibration measurements: the free-motion analysis recovers a damped oscillation's frequency
 * and damping ratio (the logarithmic decrement), the spectral peak finds a sine's frequency, and the
 * per-level means average the right tips. Then the harness itself on the modal method, which is the
 * reference's modes in motion: its figures land on the reference's.
 */
import { freeMotionOf, levelMeans, spectralPeak } from "../../app/physics/calibration";
import { Rng } from "../../app/math/rng";
import { dampingRatio, dampingSliderFor } from "../../app/physics/damping";
import { calibrate, openBench, referenceFigures } from "../support/calibration-driver";

function damped(hz: number, zeta: number, dt: number, seconds: number, amplitude = 0.3, offset = 0.1): Float64Array {
  const n = Math.round(seconds / dt), w = 2 * Math.PI * hz, wd = w * Math.sqrt(1 - zeta * zeta);
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = offset + amplitude * Math.exp(-zeta * w * i * dt) * Math.cos(wd * i * dt);
  return x;
}

describe("calibration measurements", () => {
  it.each([[0.6, 0.01], [0.6, 0.05], [1.3, 0.1], [0.35, 0.2]])("a damped oscillation at %p Hz, ζ %p: both within 3 %", (hz, zeta) => {
    const m = freeMotionOf(damped(hz, zeta, 1 / 60, 20), 1 / 60);
    expect(Math.abs(m.hz / (hz * Math.sqrt(1 - zeta * zeta)) - 1)).toBeLessThan(0.03);
    expect(Math.abs(m.zeta / zeta - 1)).toBeLessThan(0.03);
  });

  it("an overdamped or still motion has no frequency", () => {
    expect(freeMotionOf(new Float64Array(600).fill(2), 1 / 60).hz).toBe(0);
    const creep = new Float64Array(600).map((_, i) => Math.exp(-i / 60));
    expect(freeMotionOf(creep, 1 / 60).hz).toBe(0);
  });

  it("the spectral peak of a sine with noise-free harmonics is its frequency", () => {
    const x = new Float64Array(1200).map((_, i) => Math.sin(2 * Math.PI * 0.8 * i / 60) + 0.3 * Math.sin(2 * Math.PI * 2.1 * i / 60));
    expect(Math.abs(spectralPeak(x, 1 / 60) - 0.8)).toBeLessThan(0.02);
  });

  /*
   * A damped oscillator (0.7 Hz, ζ 0.15) driven by white noise for 64 s: its displacement spectrum
   * peaks at f √(1 - 2ζ²) = 0.684 Hz, 11 times above its low frequencies, but one periodogram of a
   * random sway scatters like χ² with two degrees of freedom in every bin. Welch's average over
   * 16-s segments finds the peak on every seed; the whole trace as one periodogram misses on some.
   */
  it("the spectral peak of a randomly driven oscillator is its resonance (Welch over segments)", () => {
    const dt = 1 / 60, hz = 0.7, zeta = 0.15, w = 2 * Math.PI * hz;
    let misses = 0, singleMisses = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const rng = new Rng(seed), x = new Float64Array(Math.round(64 / dt));
      let u = 0, v = 0;
      for (let i = 0; i < x.length; i++) {
        const force = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
        v += dt * (force * 30 - 2 * zeta * w * v - w * w * u); // semi-implicit Euler
        u += dt * v;
        x[i] = u;
      }
      const peak = w * Math.sqrt(1 - 2 * zeta * zeta) / (2 * Math.PI);
      if (Math.abs(spectralPeak(x, dt) / peak - 1) > 0.1) misses++;
      if (Math.abs(spectralPeak(x, dt, 0.05, 5, 1e9) / peak - 1) > 0.1) singleMisses++;
    }
    expect(misses).toBe(0);
    expect(singleMisses).toBeGreaterThan(0);
  });

  it("per-level means of displacement lengths", () => {
    const d = [3, 4, 0, 0, 0, 1, 0, 0, 3];
    expect(levelMeans(d, [0, 1, 1])).toEqual([5, 2]);
  });

  it("the damping slider: 0 → ζ 0.01, 0.5 → 0.1, 1 → 1, and back", () => {
    expect(dampingRatio(0)).toBeCloseTo(0.01, 10);
    expect(dampingRatio(0.5)).toBeCloseTo(0.1, 10);
    expect(dampingRatio(1)).toBeCloseTo(1, 10);
    for (const d of [0, 0.2, 0.7, 1]) expect(dampingSliderFor(dampingRatio(d))).toBeCloseTo(d, 10);
  });
});

describe("the calibration harness on the modal method (the reference's modes in motion)", () => {
  it("habel: static deflection per level within 20 % of the reference, frequency near its first mode", async () => {
    const bench = await openBench("#tree=habel");
    try {
      const ref = referenceFigures(bench);
      const m = await calibrate(bench, "modal");
      for (let k = 0; k < ref.static.length; k++) {
        console.log(`modal ${ref.static[k].speed} m/s: method ${m.static[k].levels.map((v) => v.toFixed(3)).join(" ")} reference ${ref.static[k].levels.map((v) => v.toFixed(3)).join(" ")}`);
      }
      console.log(`modal free motion ${m.free.hz.toFixed(3)} Hz ζ ${m.free.zeta.toFixed(3)}; reference first mode ${ref.firstHz.toFixed(3)} Hz`);
      expect(m.static.length).toBe(3);
      for (let k = 0; k < ref.static.length; k++) {
        ref.static[k].levels.forEach((r, l) => expect(Math.abs(m.static[k].levels[l] / r - 1)).toBeLessThan(0.2));
      }
      expect(Math.abs(m.free.hz / ref.firstHz - 1)).toBeLessThan(0.05);
      // The slider's default (0.3) is ζ = 0.04 of the first mode, plus the air's own damping.
      expect(Math.abs(m.free.zeta / dampingRatio(bench.api.params("modal").damping as number) - 1)).toBeLessThan(0.2);
    } finally {
      bench.dispose();
    }
  }, 300_000);
});
