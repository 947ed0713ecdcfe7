/**
 * wind.sample.per.ms: WindField.sample() at scattered points and times (node, one core),
 * about 1e6 calls after a warm-up. Prints one JSON line; asserts no time. Asserts that the calls
 * sampled the configured wind: the mean over them is 8 m/s from 30 degrees, and it varies
 * (turbulence and gusts were looked up, not skipped).
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
  let sx = 0, sz = 0, sxx = 0;
  const run = (calls: number): void => {
    for (let k = 0; k < calls; k++) {
      const i = k & 4095;
      w.sample(px[i], py[i], pz[i], (k >> 6) * (1 / 60), out); // 64 points per frame time
      sx += out[0];
      sz += out[2];
      sxx += out[0] * out[0];
    }
  };
  run(100_000); // warm the JIT
  sx = sz = sxx = 0;
  const t0 = performance.now();
  run(n);
  const ms = performance.now() - t0;
  const value = Math.round(n / ms);
  process.stdout.write(JSON.stringify({ bench: "wind.sample.per.ms", value, unit: "samples/ms" }) + "\n");
  const mx = sx / n, mz = sz / n, sdx = Math.sqrt(sxx / n - mx * mx);
  expect(Math.abs(Math.hypot(mx, mz) - 8)).toBeLessThan(2); // the mean speed, gusts included
  expect(Math.abs((Math.atan2(mz, mx) * 180) / Math.PI - 30)).toBeLessThan(5); // its direction
  expect(sdx).toBeGreaterThan(0.5); // turbulence and gusts
  expect(value).toBeGreaterThan(0);
});
