// Barron 2006 §6.1's wind sliders: x, y (vertical) and z, dragged with the real mouse, set the
// shared wind (speed and direction from x and z, vertical from y), the speed and direction
// sliders follow, and "Calm (reset wind)" stops the wind.
import { test } from "./runner.mjs";
import { assert, openApp, until, requireDebugHooks, clickControl, dragSlider, sliderValue } from "./helpers.mjs";

const wind = (page) => page.evaluate(() => window.sandbox.wind());
const near = (a, b, tol) => Math.abs(a - b) <= tol;

test("the wind x, y, z sliders dragged with the mouse set the wind; Calm stops it", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  await requireDebugHooks(page, ["sliderRect", "sliderValue"]);
  await page.evaluate(() => window.sandbox.wind({ speed: 6, direction: 0, vertical: 0, turbulence: 0.35 }));
  assert.ok(near(await sliderValue(page, "wind.x"), 6, 1e-6), "the x slider does not show 6 m/s for 6 m/s toward +x");

  // x: from 6 to -20 m/s: 20 m/s blowing toward -x (direction 180).
  await dragSlider(page, "wind.x", { min: -40, max: 40, from: 6, to: -20 });
  let w = await until(async () => {
    const v = await wind(page);
    return near(v.speed, 20, 1) && near(v.direction, 180, 3) ? v : null;
  }, { message: "speed 20 m/s toward -x after dragging Wind x to -20" });
  log(`after Wind x -> -20: speed ${w.speed.toFixed(2)} m/s, direction ${w.direction.toFixed(1)} deg`);
  assert.ok(near(await sliderValue(page, "wind.speed"), w.speed, 1e-6), "the speed slider does not follow the x slider");
  assert.ok(near(await sliderValue(page, "wind.direction"), w.direction, 1e-6), "the direction slider does not follow the x slider");

  // z: from 0 to 20: the wind now blows toward -x and +z (135 degrees), x stays.
  await dragSlider(page, "wind.z", { min: -40, max: 40, from: 0, to: 20 });
  w = await until(async () => {
    const v = await wind(page);
    return near(v.speed, Math.hypot(20, 20), 1.5) && near(v.direction, 135, 3) ? v : null;
  }, { message: "about 28 m/s at 135 degrees after dragging Wind z to 20" });
  const x = await sliderValue(page, "wind.x"), z = await sliderValue(page, "wind.z");
  log(`after Wind z -> 20: speed ${w.speed.toFixed(2)} m/s, direction ${w.direction.toFixed(1)} deg; sliders x ${x.toFixed(2)}, z ${z.toFixed(2)}`);
  assert.ok(near(x, -20, 1), `the x slider moved to ${x} while z was dragged`);
  assert.ok(near(x, w.speed * Math.cos((w.direction * Math.PI) / 180), 1e-3) && near(z, w.speed * Math.sin((w.direction * Math.PI) / 180), 1e-3), "x and z do not match speed and direction");

  // y: the vertical wind, -10 to 10 m/s.
  await dragSlider(page, "wind.vertical", { min: -10, max: 10, from: 0, to: 6 });
  w = await until(async () => {
    const v = await wind(page);
    return near(v.vertical, 6, 0.4) ? v : null;
  }, { message: "vertical wind 6 m/s after dragging Wind y" });
  log(`after Wind y -> 6: vertical ${w.vertical.toFixed(2)} m/s`);
  assert.ok(near(w.speed, Math.hypot(20, 20), 1.5), "the vertical slider changed the horizontal wind");
  await shot("wind-xyz-dragged");

  // Calm: speed 0 and vertical 0; turbulence and the direction are kept.
  const direction = w.direction;
  await clickControl(page, "wind.calm");
  w = await until(async () => {
    const v = await wind(page);
    return v.speed === 0 && v.vertical === 0 ? v : null;
  }, { message: "speed 0 and vertical 0 after clicking Calm" });
  log(`after Calm: ${JSON.stringify(w)}`);
  assert.equal(w.turbulence, 0.35, "Calm changed the turbulence");
  assert.equal(w.direction, direction, "Calm changed the direction");
  for (const name of ["wind.x", "wind.z", "wind.vertical", "wind.speed"]) assert.equal(await sliderValue(page, name), 0, `${name} does not show 0 after Calm`);
  await shot("wind-xyz-calm");
  assert.deepEqual(errors, []);
});
