// Method, wind, parameters and tree come back after a reload (state kept in the URL hash): each
// is read back from the app after the reload (the views, the tree, the wind, the parameters), not
// only from the address.
import { URLSearchParams } from "node:url";
import { test } from "./runner.mjs";
import { assert, openApp, waitReady, until, maxDisplacement } from "./helpers.mjs";

test("state in the URL is restored after a reload", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors });
  const before = await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("procedural-wind");
    s.wind({ speed: 12.5, direction: 135 });
    s.params("procedural-wind", { damping: 0.7 });
    const summary = await s.loadTree({ preset: "demo", taper: 0.3 });
    return { summary, vertices: s.stats().vertices, depth: window.sandboxDebug.tree().depth };
  });
  const hash = await until(
    async () => {
      const h = await page.evaluate(() => window.location.hash);
      const q = new URLSearchParams(h.replace(/^#/, ""));
      const ok = q.get("method") === "procedural-wind" && Number(q.get("speed")) === 12.5 && Number(q.get("direction")) === 135 && Number(q.get("procedural-wind.damping")) === 0.7 && Number(q.get("taper")) === 0.3 && q.get("tree") === "demo";
      return ok ? h : null;
    },
    { timeout: 10_000, message: "the URL hash to hold method, wind, damping, tree and taper" },
  );
  log(`hash: ${hash}`);

  await page.reload({ waitUntil: "load" });
  await waitReady(page, { errors });
  const after = await page.evaluate(() => {
    const s = window.sandbox, t = window.sandboxDebug.tree();
    const w = s.wind();
    return {
      views: s.views().map((v) => v.id), tree: t.name, depth: t.depth, taper: s.tree().taper,
      speed: w.speed, direction: w.direction, damping: s.params("procedural-wind").damping, vertices: s.stats().vertices, hash: window.location.hash,
    };
  });
  log(`after reload: ${JSON.stringify(after)}`);
  await shot("url-state-after-reload");
  // The method itself: the one view shows procedural-wind (the default, spectral-beam, also moves in the wind).
  assert.deepEqual(after.views, ["procedural-wind"], `the views after the reload: ${JSON.stringify(after.views)}`);
  assert.equal(after.tree, "demo", "the tree after the reload");
  assert.equal(after.depth, before.depth, "the depth after the reload");
  assert.ok(Math.abs(after.taper - 0.3) < 1e-9, `taper ${after.taper}, expected 0.3`);
  assert.ok(Math.abs(after.speed - 12.5) < 1e-6, `wind speed ${after.speed}, expected 12.5`);
  assert.ok(Math.abs(after.direction - 135) < 1e-6, `wind direction ${after.direction}, expected 135`);
  assert.ok(Math.abs(after.damping - 0.7) < 1e-6, `damping ${after.damping}, expected 0.7`);
  assert.equal(after.vertices, before.vertices, "a different tree after the reload");
  const q = new URLSearchParams(after.hash.replace(/^#/, ""));
  assert.equal(Number(q.get("taper")), 0.3, `taper in the URL after reload: ${q.get("taper")}`);
  assert.equal(q.get("tree"), "demo");
  assert.equal(q.get("method"), "procedural-wind", "the address after the reload still names the method");

  // The method came back if the tips move in the wind (under "rest" they would not).
  const moved = await page.evaluate(() => {
    const s = window.sandbox;
    s.pause();
    const a = s.probe();
    s.step(30);
    return { a, b: s.probe() };
  });
  const d = maxDisplacement(moved.a, moved.b);
  // Under rest they stay exactly still; the calibrated oak demo tree moves its tips millimetres to
  // centimetres a half second at 12.5 m/s (0.009 m measured), so a tenth of a millimetre tells.
  assert.ok(d > 1e-4, `tips moved only ${d} m after reload: the method was not restored`);
  assert.deepEqual(errors, []);
});
