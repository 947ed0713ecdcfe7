/**
 * wind.sample.per.ms: WindField.sample() at scattered points and times (node, one core),
 * about 1e6 calls after a warm-up. Prints one JSON line; asserts no time.
 */
import { WindField } from "../../app/wind/wind-field";

it("wind.sample.per.ms", () => {
  const w = new WindField({ speed: 8, direction: 30, turbulence: 0.4, gust: 0.5, seed: 3 });
  const n = 1 << 20;
  // Scattered points over a 200 m square and 2 m of height, and times over ten minutes.
  const px = new Float64Array(4096), py = new Float64Array(4096), pz = new Float64Array(4096);
  for (let i = 0; i < 4096; i++) {
    px[i] = ((i * 7919) % 4096) / 20.48 - 100;
    py[i] = (i % 64) / 32;
    pz[i] = ((i * 104729) % 4096) / 20.48 - 100;
  }
  const out = new Float32Array(3);
  let sink = 0;
  const run = (calls: number): void => {
    for (let k = 0; k < calls; k++) {
      const i = k & 4095;
      w.sample(px[i], py[i], pz[i], (k >> 6) * (1 / 60), out); // 64 points per frame time
      sink += out[0];
    }
  };
  run(100_000); // warm the JIT
  const t0 = performance.now();
  run(n);
  const ms = performance.now() - t0;
  const value = Math.round(n / ms);
  process.stdout.write(JSON.stringify({ bench: "wind.sample.per.ms", value, unit: "samples/ms" }) + "\n");
  expect(Number.isFinite(sink)).toBe(true);
  expect(Number.isFinite(value)).toBe(true);
  expect(value).toBeGreaterThan(0);
});
