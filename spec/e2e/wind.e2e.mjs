// Tips move under wind, and with no wind the animated tree stays at rest.
import { test } from "./runner.mjs";
import { assert, openApp, maxDisplacement } from "./helpers.mjs";

test("tips move under wind and rest without it", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  const moved = await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("procedural-wind");
    s.wind({ speed: 15, gust: 0 });
    s.pause();
    const before = s.probe();
    s.step(60);
    return { before, after: s.probe() };
  });
  const d = maxDisplacement(moved.before, moved.after);
  log(`max tip displacement after 60 frames at 15 m/s: ${d.toFixed(4)} m`);
  await shot("wind-15ms");
  assert.ok(d > 0.01, `tips moved only ${d} m in 60 frames of 15 m/s wind`);

  const still = await page.evaluate(async () => {
    const s = window.sandbox;
    s.wind({ speed: 0, gust: 0, turbulence: 0 });
    await s.use("procedural-wind");
    s.pause();
    s.step(60);
    const animated = s.probe();
    await s.use("rest");
    s.pause();
    return { animated, rest: s.probe() };
  });
  const e = maxDisplacement(still.animated, still.rest);
  log(`no wind: largest distance from rest after 60 frames: ${e.toExponential(2)} m`);
  assert.ok(e < 1e-4, `with no wind the tips drifted ${e} m from rest`);
  assert.deepEqual(errors, []);
});
