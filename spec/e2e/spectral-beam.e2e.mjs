// spectral-beam (Habel 2009) in the real browser: the shader agrees with its twin, calm and storm
// look different (screenshots), no wind leaves the tips at rest, and stronger wind bends the tree
// further along the wind.
import { test } from "./runner.mjs";
import { assert, openApp, requireDebugHooks, maxDisplacement } from "./helpers.mjs";

test("spectral-beam: the vertex shader and its TypeScript twin agree", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#method=spectral-beam&tree=habel", errors });
  await requireDebugHooks(page, ["gpuTwinCheck"]);
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("spectral-beam");
    s.wind({ speed: 18, gust: 0.3, turbulence: 0.4 });
    s.pause();
    s.step(90);
    const check = await window.sandboxDebug.gpuTwinCheck(2048);
    let height = 0;
    const p = s.probe();
    for (let i = 1; i < p.length; i += 3) height = Math.max(height, p[i]);
    return { height, check };
  });
  log(`tree height ${r.height.toFixed(2)} m; ${JSON.stringify(r.check)}`);
  await shot("spectral-beam-gpu-twin");
  assert.ok(r.check.samples >= 2000, "too few vertices sampled");
  assert.ok(r.check.maxDisplacement > 0.05, `the sampled vertices hardly moved (${r.check.maxDisplacement} m): nothing to compare`);
  assert.ok(r.check.maxError < 1e-3 * r.height, `GPU and twin differ by ${r.check.maxError} (limit ${1e-3 * r.height})`);
  assert.deepEqual(errors, []);
});

test("spectral-beam: tips at rest in zero wind; stronger wind, larger mean deflection along it", async ({ page, url, errors, log }) => {
  await openApp(page, url, { hash: "#method=spectral-beam&tree=habel", errors });
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("rest");
    const rest = s.probe();
    const runs = [];
    for (const speed of [0, 5, 12, 25]) {
      s.wind({ speed, gust: 0, turbulence: 0.3, direction: 0 });
      await s.use("spectral-beam");
      s.pause();
      let along = 0, farthest = 0;
      const frames = 12;
      for (let f = 0; f < frames; f++) {
        s.step(8);
        const p = s.probe();
        let sum = 0;
        for (let i = 0; i < p.length; i += 3) {
          sum += p[i] - rest[i]; // +x: the way a 0° wind blows
          farthest = Math.max(farthest, Math.hypot(p[i] - rest[i], p[i + 1] - rest[i + 1], p[i + 2] - rest[i + 2]));
        }
        along += sum / (p.length / 3) / frames;
      }
      runs.push({ speed, along, farthest });
    }
    return runs;
  });
  for (const x of r) log(`${x.speed} m/s: mean tip displacement along the wind ${x.along.toFixed(4)} m, largest ${x.farthest.toFixed(4)} m`);
  assert.ok(r[0].farthest < 1e-5, `with no wind the tips moved ${r[0].farthest} m`);
  assert.ok(r[1].along > 0, "a 5 m/s wind did not push the tips downwind");
  assert.ok(r[2].along > 1.5 * r[1].along, "12 m/s did not bend further than 5 m/s");
  assert.ok(r[3].along > 1.5 * r[2].along, "25 m/s did not bend further than 12 m/s");
  assert.deepEqual(errors, []);
});

test("spectral-beam: calm and storm screenshots (the storm's branches visibly curved)", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#method=spectral-beam&tree=habel", errors });
  const frames = {};
  for (const [name, speed] of [["calm", 1], ["storm", 32]]) {
    const tips = await page.evaluate(async (speed) => {
      const s = window.sandbox;
      s.wind({ speed, gust: 0, turbulence: 0.35, direction: 0 });
      await s.use("spectral-beam");
      s.pause();
      s.step(150);
      return s.probe();
    }, speed);
    frames[name] = tips;
    await shot(`spectral-beam-${name}`);
  }
  const d = maxDisplacement(frames.calm, frames.storm);
  log(`largest tip distance between calm and storm: ${d.toFixed(3)} m`);
  assert.ok(d > 0.5, `the storm moved the tips only ${d} m further than calm air`);
  assert.deepEqual(errors, []);
});
