// Wind primitives in the scene: a blast placed with the real mouse through the panel (its kind
// chosen, the place button, a click on the ground), listed in the panel, moving the tree's tips
// more than the same frames without it (spectral-beam: the vertex-shader method feels it at its
// crown), kept in the page address across a reload, deleted with the mouse; the API's errors.
import { test } from "./runner.mjs";
import { assert, clickControl, dragSlider, maxDisplacement, openApp, requireDebugHooks, sliderValue, until, waitReady } from "./helpers.mjs";

/** From a fresh start of the method (clock at 0, paused): 30 frames, then the tips every other frame for 60 frames (each step draws: fewer draws on SwiftShader). */
async function tipSeries(page, method) {
  return page.evaluate(async (m) => {
    const s = window.sandbox;
    await s.use(m);
    s.pause();
    s.step(30);
    const series = [s.probe()];
    for (let k = 0; k < 30; k++) {
      s.step(2);
      series.push(s.probe());
    }
    return series;
  }, method);
}

/** Points on the ground `radius` m from the tree (every 45°) that the view shows right of the panel, with their page pixels. */
function groundInView(page, radius) {
  return page.evaluate((r) => {
    const out = [];
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4, x = Math.round(r * Math.cos(a) * 100) / 100, z = Math.round(r * Math.sin(a) * 100) / 100;
      const [px, py] = window.sandboxDebug.projectToScreen([x, 0, z]);
      if (px > 380 && px < 1240 && py > 60 && py < 680) out.push({ x, z, px, py });
    }
    return out;
  }, radius);
}

/** The largest distance any tip gets from where it was at the series' start. */
function reach(series) {
  return Math.max(...series.map((p) => maxDisplacement(series[0], p)));
}

test("a blast placed with the mouse moves the tree, is listed, survives a reload and is deleted", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors, hash: "#tree=demo&method=spectral-beam&speed=2&gust=0&turbulence=0.1" });
  await requireDebugHooks(page, ["projectToScreen", "controlCenter", "panelText", "sceneCounts"]);
  await page.evaluate(async () => {
    const s = window.sandbox;
    await s.use("spectral-beam");
    s.pause();
    s.step(30); // t = 0.5 s: the blast starts when it is placed
  });
  const meshes0 = await page.evaluate(() => window.sandboxDebug.sceneCounts().meshes);

  // The panel: a blast of about 50 m/s and 15 m (its sliders dragged), placed by a click on the
  // ground 6 m from the tree, at a point of the view right of the panel.
  await clickControl(page, "primitives.kind:blast");
  await dragSlider(page, "primitives.strength", { min: 0.1, max: 60, from: 20, to: 50 });
  await dragSlider(page, "primitives.radius", { min: 0.5, max: 50, from: 8, to: 15 });
  const [strength, radius] = [await sliderValue(page, "primitives.strength"), await sliderValue(page, "primitives.radius")];
  log(`the sliders: strength ${strength} m/s, radius ${radius} m`);
  assert.ok(Math.abs(strength - 50) < 2 && Math.abs(radius - 15) < 1.5, `the sliders read ${strength} m/s and ${radius} m`);
  await clickControl(page, "primitives.place");
  const waiting = await page.evaluate(() => window.sandboxDebug.panelText("primitives.place.label"));
  assert.match(waiting, /Click on the ground to place it/, `the place button says "${waiting}"`);
  const target = (await groundInView(page, 6))[0];
  assert.ok(target, "no point 6 m from the tree on the ground is in the view");
  log(`clicking the ground at (${target.x.toFixed(2)}, 0, ${target.z.toFixed(2)}): page (${target.px.toFixed(0)}, ${target.py.toFixed(0)})`);
  await page.mouse.click(target.px, target.py);
  const placed = await until(() => page.evaluate(() => window.sandbox.windPrimitives()).then((l) => (l.length ? l : null)), { message: "the blast placed by the click" });
  log(`placed: ${JSON.stringify(placed)}`);
  assert.equal(placed.length, 1);
  const b = placed[0];
  assert.equal(b.kind, "blast");
  assert.ok(Math.hypot(b.x - target.x, b.z - target.z) < 0.3, `placed at (${b.x}, ${b.z}), clicked at (${target.x}, ${target.z})`);
  assert.ok(Math.abs(b.start - 0.5) < 1e-6, `its start ${b.start}, the clock's 0.5 s`);
  assert.ok(Math.abs(b.strength - strength) < 1e-3 && Math.abs(b.radius - radius) < 1e-3 && b.duration === null, `the panel's strength and radius, until removed: ${JSON.stringify(b)}`);
  const label = await page.evaluate(() => window.sandboxDebug.panelText("primitive.1.label"));
  assert.equal(label, `#1 blast at (${b.x.toFixed(1)}, ${b.z.toFixed(1)}): ${b.strength} m/s, radius ${b.radius} m, until removed, from t = 0.5 s`);
  assert.match(await page.evaluate(() => window.sandboxDebug.panelText("primitives.place.label")), /^Place a blast with the mouse$/);
  assert.equal(await page.evaluate(() => window.sandboxDebug.sceneCounts().meshes), meshes0 + 2, "its marker and its front on the ground");
  await page.evaluate(() => window.sandbox.step(6)); // 0.1 s on: the front 3 m out
  await shot("wind-primitives-blast");

  // The same frames with the blast (from a restart: it fires again at 0.5 s) ...
  const hash = await until(() => page.evaluate(() => (window.location.hash.includes("primitives=blast") ? window.location.hash : null)), { message: "the blast in the page address" });
  log(`address: ${decodeURIComponent(hash)}`);
  const withBlast = await tipSeries(page, "spectral-beam");

  // ... kept across a reload ...
  await page.reload({ waitUntil: "load" });
  await waitReady(page, { errors });
  const after = await page.evaluate(() => window.sandbox.windPrimitives());
  assert.deepEqual(after, placed, "the primitives after the reload");
  assert.equal(await page.evaluate(() => window.sandboxDebug.sceneCounts().meshes), meshes0 + 2, "its marker is back after the reload");
  const again = await tipSeries(page, "spectral-beam");
  const drift = Math.max(...again.map((p, k) => maxDisplacement(p, withBlast[k])));
  assert.ok(drift < 1e-5, `the same frames after the reload: the tips differ by up to ${drift} m`);
  await shot("wind-primitives-after-reload");

  // ... deleted with the mouse: the list empties, the marker goes, and the same frames move less.
  await clickControl(page, "primitive.1:delete");
  await until(() => page.evaluate(() => window.sandbox.windPrimitives().length === 0), { message: "the blast deleted" });
  assert.equal(await page.evaluate(() => window.sandboxDebug.sceneCounts().meshes), meshes0, "the marker is gone");
  await until(() => page.evaluate(() => !window.location.hash.includes("primitives=")), { message: "the address without the blast" });
  const without = await tipSeries(page, "spectral-beam");
  const apart = Math.max(...withBlast.map((p, k) => maxDisplacement(p, without[k])));
  log(`tips' reach over 1 s after 0.5 s: ${reach(withBlast).toFixed(4)} m with the blast, ${reach(without).toFixed(4)} m without; the two apart by up to ${apart.toFixed(4)} m`);
  assert.ok(reach(withBlast) > 2 * reach(without), "the blast moves the tips more than the wind alone");
  assert.ok(apart > 0.01, `the blast moved the tips only ${apart} m from where the wind alone had them`);
  await shot("wind-primitives-deleted");
  assert.deepEqual(errors, []);
}, { timeout: 300_000 });

test("a vortex and a fan placed with the mouse, moved; the API's errors name the allowed range", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { errors, hash: "#tree=demo&speed=3" });
  await requireDebugHooks(page, ["projectToScreen", "controlCenter", "panelText"]);
  const near = await groundInView(page, 5), far = await groundInView(page, 9);
  assert.ok(near.length >= 2 && far.length >= 1, "too few ground points in the view");
  for (const [kind, at] of [["vortex", near[0]], ["fan", far[far.length - 1]]]) {
    await clickControl(page, `primitives.kind:${kind}`);
    await clickControl(page, "primitives.place");
    await page.mouse.click(at.px, at.py);
    await until(() => page.evaluate((k) => window.sandbox.windPrimitives().some((p) => p.kind === k), kind), { message: `the ${kind} placed` });
  }
  const list = await page.evaluate(() => window.sandbox.windPrimitives());
  log(`placed: ${JSON.stringify(list)}`);
  const fan = list.find((p) => p.kind === "fan"), aim = ((Math.atan2(-fan.z, -fan.x) * 180) / Math.PI + 360) % 360;
  assert.ok(Math.abs(fan.direction - aim) < 0.01, `the fan blows toward the tree (${aim.toFixed(1)}°): ${fan.direction}`);
  // Move the vortex: Move, then a click on the ground.
  await clickControl(page, "primitive.1:move");
  const to = near[1];
  await page.mouse.click(to.px, to.py);
  const moved = await until(() => page.evaluate(() => window.sandbox.windPrimitives()[0]).then((p) => (Math.hypot(p.x - to.x, p.z - to.z) < 0.3 ? p : null)), { message: `the vortex moved to (${to.x}, ${to.z})` });
  log(`moved: ${JSON.stringify(moved)}`);
  await page.evaluate(() => window.sandbox.step(90));
  await shot("wind-primitives-vortex-fan");

  const refused = await page.evaluate(() => {
    const s = window.sandbox;
    const tryIt = (f) => {
      try {
        f();
        return "accepted";
      } catch (e) {
        return `${e.name}: ${e.message}`;
      }
    };
    return [
      tryIt(() => s.windPrimitive({ kind: "blast", x: 0, z: 0, strength: 80, radius: 5 })),
      tryIt(() => s.windPrimitive({ kind: "meteor", x: 0, z: 0, strength: 8, radius: 5 })),
      tryIt(() => s.windPrimitive({ kind: "fan", x: 300, z: 0, strength: 8, radius: 5 })),
      tryIt(() => s.windPrimitive({ kind: "vortex", x: 0, z: 0, strength: 8, radius: 5, duration: 0 })),
      tryIt(() => s.removeWindPrimitive(42)),
    ];
  });
  log(refused.join("\n"));
  assert.deepEqual(refused, [
    "RangeError: windPrimitive.strength must be a number from 0.1 to 60 m/s; got 80",
    'RangeError: windPrimitive.kind must be one of "blast", "vortex", "fan"; got "meteor"',
    "RangeError: windPrimitive.x must be a number from -100 to 100 m; got 300",
    "RangeError: windPrimitive.duration must be a number from 0.1 to 3600 s; got 0",
    "RangeError: removeWindPrimitive: no wind primitive with id 42; the ids are: 1, 2",
  ]);
  const shown = await page.evaluate(() => window.sandbox.stats().errors);
  assert.ok(shown.includes("windPrimitive.strength must be a number from 0.1 to 60 m/s; got 80"), `stats().errors: ${JSON.stringify(shown)}`);
  assert.equal(await page.evaluate(() => window.sandbox.windPrimitives().length), 2, "nothing placed by the refused calls");
  assert.deepEqual(errors, []);
});
