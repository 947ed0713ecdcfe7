// Switching methods back and forth leaks no meshes, materials or textures.
import { test } from "./runner.mjs";
import { assert, openApp, until, requireDebugHooks } from "./helpers.mjs";

test("switching methods 50 times leaves the scene as it was", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors });
  await requireDebugHooks(page, ["sceneCounts"]);
  const ids = await page.evaluate(() => window.sandbox.animators().map((a) => a.id));
  log(`animators: ${ids.join(", ")}`);
  assert.ok(ids.includes("rest") && ids.includes("procedural-wind"), `animators() lacks rest or procedural-wind: ${ids}`);

  const start = await page.evaluate(async () => {
    await window.sandbox.use("procedural-wind");
    return window.sandboxDebug.sceneCounts();
  });
  await page.evaluate(async () => {
    for (let i = 0; i < 50; i++) await window.sandbox.use(i % 2 === 0 ? "rest" : "procedural-wind");
  });
  let now = null;
  await until(
    async () => {
      now = await page.evaluate(() => window.sandboxDebug.sceneCounts());
      return now.meshes === start.meshes && now.materials === start.materials && now.textures === start.textures;
    },
    { timeout: 5000, message: "scene counts to return to the start" },
  ).catch(() => {});
  log(`counts at the start ${JSON.stringify(start)}, after 50 switches ${JSON.stringify(now)}`);
  await shot("switching-after-50");
  assert.deepEqual(now, start, "meshes, materials or textures leaked across method switches");
  assert.deepEqual(errors, []);
});
