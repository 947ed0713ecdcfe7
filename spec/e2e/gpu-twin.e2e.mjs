// What the GPU produced agrees with the TypeScript twins: the per-branch pass's output texture
// (read back) against the twin's branch data, and the vertices the skinning shader moves.
import { test } from "./runner.mjs";
import { assert, openApp, requireDebugHooks } from "./helpers.mjs";

test("GPU deformation and its CPU twin agree, the per-branch pass's texture too", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors });
  await requireDebugHooks(page, ["gpuTwinCheck"]);
  const height = await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("rest");
    s.pause();
    const rest = s.probe();
    let h = 0;
    for (let i = 1; i < rest.length; i += 3) h = Math.max(h, rest[i]);
    // A vortex beside the tree: the pass evaluates the wind primitives where each branch stands.
    s.windPrimitive({ kind: "vortex", x: 1.5, z: 1, strength: 9, radius: 2.5, start: 0 });
    return h;
  });
  const r = { height, checks: {} };
  for (const id of ["procedural-wind", "spectral-beam"]) {
    r.checks[id] = await page.evaluate(async (id) => {
      const s = window.sandbox;
      await s.use(id);
      s.wind({ speed: 15, gust: 0.3 });
      s.pause();
      s.step(45);
      return { check: await window.sandboxDebug.gpuTwinCheck(256), notes: s.stats().notes };
    }, id);
    await shot(`gpu-twin-${id}`);
  }
  assert.ok(r.height > 0, "could not measure the tree's height");
  for (const [id, { check, notes }] of Object.entries(r.checks)) {
    log(`${id}: tree height ${r.height.toFixed(3)} m; ${JSON.stringify(check)}; notes ${JSON.stringify(notes)}`);
    assert.ok(check.samples > 0, `${id}: no vertices sampled`);
    // The comparison means something only if the vertices moved far more than the tolerance.
    assert.ok(check.maxDisplacement > 10e-3 * r.height, `${id}: the sampled vertices moved only ${check.maxDisplacement} m (under 1% of the tree's height): nothing to compare`);
    assert.ok(check.maxError < 1e-3 * r.height, `${id}: GPU and twin differ by ${check.maxError} m (limit ${1e-3 * r.height} m)`);
    // The per-branch simulation ran in the GPU pass (Chromium renders to float targets), and its
    // texture holds the twin's numbers: quaternions, rotations, amplitudes, translations in metres.
    assert.ok(check.pass, `${id}: no per-branch GPU pass ran (${JSON.stringify(notes)})`);
    assert.ok(check.pass.maxValue > 0.05, `${id}: the pass's computed texels are all near zero (${check.pass.maxValue})`);
    assert.ok(check.pass.maxError < 2e-4 * Math.max(1, r.height), `${id}: the pass's texture and the twin differ by ${check.pass.maxError} over ${check.pass.texels} texels`);
  }
  assert.deepEqual(errors, []);
});
