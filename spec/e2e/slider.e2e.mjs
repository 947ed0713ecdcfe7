// The wind speed slider follows the real mouse.
import { test } from "./runner.mjs";
import { assert, openApp, until, requireDebugHooks, scrollPanelTo } from "./helpers.mjs";

test("dragging the wind speed slider with the mouse sets the wind", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  await requireDebugHooks(page, ["sliderRect"]);
  await page.evaluate(() => window.sandbox.wind({ speed: 5 }));
  await until(() => page.evaluate(() => window.sandboxDebug.sliderRect("wind.speed")), { message: 'sliderRect("wind.speed")' });
  // Scrolled into the window with the wheel first (the tree list above it is long).
  const rect = await scrollPanelTo(page, "wind.speed");
  log(`slider at ${JSON.stringify(rect)}`);
  const y = rect.top + rect.height / 2;
  const range = 40;
  await page.mouse.move(rect.left + 0.1 * rect.width, y);
  await page.mouse.down();
  // Informative only: where the value went on mouse down (Babylon sets it under the pointer).
  const early = await until(() => page.evaluate(() => window.sandbox.wind().speed).then((v) => (Math.abs(v - 0.1 * range) <= 0.1 * range ? { v } : null)), {
    timeout: 5000,
    message: "the speed to jump to about 10% of the range on mouse down",
  }).catch((err) => ({ err }));
  await page.mouse.move(rect.left + 0.75 * rect.width, y, { steps: 12 });
  await page.mouse.up();
  const target = 0.75 * range;
  let last = null;
  const speed = await until(
    () =>
      page.evaluate(() => window.sandbox.wind().speed).then((v) => {
        last = v;
        return Math.abs(v - target) <= 0.1 * range ? { v } : null;
      }),
    { timeout: 10_000, message: `the wind speed to come close to ${target} m/s` },
  ).catch(async (err) => {
    await shot("slider-wind-speed-failed");
    throw new Error(`${err.message}; speed after mouse down ${early.v ?? "(unchanged)"}, after the drag ${last} m/s; dragged along y = ${y.toFixed(0)} from x = ${(rect.left + 0.1 * rect.width).toFixed(0)} to ${(rect.left + 0.75 * rect.width).toFixed(0)} (is sliderRect where the slider is drawn?)`);
  });
  log(`speed after mouse down: ${early.v ?? "(not near 4)"}; after the drag: ${speed.v} m/s (aimed at ${target})`);
  await shot("slider-wind-speed");
  assert.deepEqual(errors, []);
});
