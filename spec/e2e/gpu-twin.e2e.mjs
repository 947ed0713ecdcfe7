// What the vertex shader produced agrees with its TypeScript twin.
import { test } from "./runner.mjs";
import { assert, openApp, requireDebugHooks } from "./helpers.mjs";

test("GPU deformation and its CPU twin agree", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors });
  await requireDebugHooks(page, ["gpuTwinCheck"]);
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("rest");
    s.pause();
    const rest = s.probe();
    let height = 0;
    for (let i = 1; i < rest.length; i += 3) height = Math.max(height, rest[i]);
    await s.use("procedural-wind");
    s.wind({ speed: 15, gust: 0.3 });
    s.pause();
    s.step(45);
    const check = await window.sandboxDebug.gpuTwinCheck(256);
    return { height, check };
  });
  log(`tree height ${r.height.toFixed(3)} m; ${JSON.stringify(r.check)}`);
  await shot("gpu-twin");
  assert.ok(r.height > 0, "could not measure the tree's height");
  assert.ok(r.check.samples > 0, "no vertices sampled");
  // The comparison means something only if the vertices moved far more than the tolerance.
  assert.ok(r.check.maxDisplacement > 10e-3 * r.height, `the sampled vertices moved only ${r.check.maxDisplacement} m (under 1% of the tree's height): nothing to compare`);
  assert.ok(r.check.maxError < 1e-3 * r.height, `GPU and twin differ by ${r.check.maxError} m (limit ${1e-3 * r.height} m)`);
  assert.deepEqual(errors, []);
});
