// "h" hides the GUI panel and shows it again; the render modes draw differently.
import { test } from "./runner.mjs";
import { assert, openApp, frames, until, pressKey, requireDebugHooks } from "./helpers.mjs";
import { decodePng, countDifferentPixels } from "./png.mjs";

const panelVisible = (page) => page.evaluate(() => window.sandboxDebug.panelVisible());

test('"h" hides and shows the panel', async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors });
  await requireDebugHooks(page, ["controlCenter", "panelVisible"]);
  await page.evaluate(() => window.sandbox.pause());
  await frames(page, 3);
  // A control near the top of the panel: always on screen (the tree list above the wind grew with the sample models).
  const centre = await until(() => page.evaluate(() => window.sandboxDebug.controlCenter("method")), { message: 'controlCenter("method")' });
  const region = { left: centre.x - 100, top: centre.y - 30, width: 200, height: 60 };
  const shown = decodePng(await shot("panel-shown"));
  assert.equal(await panelVisible(page), true, "panelVisible() is not true before pressing h");

  await pressKey(page, "h");
  let hidden = null;
  await until(
    async () => {
      await frames(page, 2);
      hidden = decodePng(await page.screenshot());
      return countDifferentPixels(shown, hidden, 24, region) > 200;
    },
    { timeout: 10_000, message: "the panel to disappear after pressing h" },
  );
  await shot("panel-hidden");
  const changed = countDifferentPixels(shown, hidden, 24, region);
  log(`pixels changed around the method buttons: ${changed}`);
  assert.equal(await panelVisible(page), false, "panelVisible() is not false after pressing h");

  await pressKey(page, "h");
  await until(
    async () => {
      await frames(page, 2);
      const again = decodePng(await page.screenshot());
      return countDifferentPixels(shown, again, 24, region) < 0.1 * changed;
    },
    { timeout: 10_000, message: "the panel to come back after pressing h again" },
  );
  await shot("panel-shown-again");
  assert.equal(await panelVisible(page), true, "panelVisible() is not true after pressing h again");
  assert.deepEqual(errors, []);
});

test("render modes draw the tree differently", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors });
  await requireDebugHooks(page, ["renderMode", "setPanelVisible"]);
  await page.evaluate(() => {
    window.sandbox.pause();
    window.sandboxDebug.setPanelVisible(false);
  });
  const pictures = {};
  for (const mode of ["shaded", "wireframe", "skeleton"]) {
    const now = await page.evaluate((m) => window.sandboxDebug.renderMode(m), mode);
    assert.equal(now, mode);
    await frames(page, 3);
    pictures[mode] = decodePng(await shot(`render-mode-${mode}`));
  }
  for (const mode of ["wireframe", "skeleton"]) {
    const n = countDifferentPixels(pictures.shaded, pictures[mode]);
    log(`${mode}: ${n} pixels differ from shaded`);
    assert.ok(n > 500, `render mode ${mode} looks like shaded`);
  }
  await page.evaluate(() => window.sandboxDebug.renderMode("shaded"));
  assert.deepEqual(errors, []);
});

test("clicking the method and tree buttons with the mouse switches them", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  await requireDebugHooks(page, ["controlCenter"]);
  const click = async (name) => {
    const c = await until(() => page.evaluate((n) => window.sandboxDebug.controlCenter(n), name), { message: `controlCenter("${name}")` });
    await page.mouse.click(c.x, c.y);
  };
  const hashHas = (part) => until(() => page.evaluate((p) => window.location.hash.includes(p), part), { timeout: 15_000, message: `the URL hash to contain ${part}` });

  await click("method:rest");
  await hashHas("method=rest");
  const restTips = await page.evaluate(() => { window.sandbox.pause(); window.sandbox.step(30); return window.sandbox.probe(); });
  const stillTips = await page.evaluate(() => { window.sandbox.step(30); return window.sandbox.probe(); });
  assert.deepEqual(stillTips, restTips, "the tree moved after clicking Rest");

  await click("method:procedural-wind");
  await hashHas("method=procedural-wind");
  const before = await page.evaluate(() => { window.sandbox.wind({ speed: 15 }); window.sandbox.step(1); return window.sandbox.stats().vertices; });

  await click("tree:conifer");
  await hashHas("tree=conifer");
  const after = await page.evaluate(() => window.sandbox.stats().vertices);
  log(`vertices: demo ${before}, conifer after the click ${after}`);
  assert.notEqual(after, before, "the tree did not change after clicking Conifer");
  await frames(page, 2);
  await shot("panel-clicked-conifer");
  assert.deepEqual(errors, []);
});
