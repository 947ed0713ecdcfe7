// The forest (Zioma 2007 at the scale it was made for) in the real browser: instanced trees around the tree
// on show, moved in the vertex shader by the wind where each stands; the GPU against its twin,
// still air, a gale, a blast rolling through, bad input, levels of detail, the panel with the mouse.
import { test } from "./runner.mjs";
import { assert, attempt, clickControl, hidePanel, openApp, scrollPanelTo, until } from "./helpers.mjs";

test("forest: instanced trees move by the wind where they stand, the GPU as the twin, still air still, a blast rolls through, bad input named", async ({ page, url, shot, errors, log }) => {
  // A smaller page: hundreds of trees drawn on SwiftShader cost by the pixel.
  await page.setViewportSize({ width: 960, height: 540 });
  // A forest in the page address comes back with the page.
  await openApp(page, url, { hash: "#method=procedural-wind&tree=demo&forest=250,90,current+demo,3&forestLod=30,80,10", errors });
  const restored = await page.evaluate(() => window.sandbox.forest());
  assert.deepEqual([restored.trees, restored.area, restored.variants, restored.seed, restored.lod], [250, 90, ["current", "demo"], 3, { near: 30, far: 80, band: 10 }]);
  // A variant clicked off in the panel changes that forest, keeping its trees, area and seed.
  await scrollPanelTo(page, "forest.variant.demo");
  await clickControl(page, "forest.variant.demo");
  await until(() => page.evaluate(() => {
    const f = window.sandbox.forest();
    return f.variants.join() === "current" && f.trees === 250 && f.area === 90 && f.seed === 3;
  }), { message: "the demo variant off, the rest of the forest kept" });
  // The panel: turn the forest off, then on, with the mouse.
  await scrollPanelTo(page, "forest.on");
  await clickControl(page, "forest.on");
  await until(() => page.evaluate(() => window.sandbox.forest() === null), { message: "the forest off from the panel" });
  await until(() => page.evaluate(() => !window.location.hash.includes("forest=")), { message: "the forest out of the address" });
  await clickControl(page, "forest.on");
  // On again: the forest the panel last had.
  await until(() => page.evaluate(() => window.sandbox.forest()?.trees === 250), { message: "a forest from the panel" });
  await until(() => page.evaluate(() => window.location.hash.includes("forest=250%2C90%2Ccurrent%2C3")), { message: "the forest in the address" });
  const status = await page.evaluate(() => window.sandboxDebug.panelText?.("forest.status") ?? null);
  log(`panel: ${status}`);
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    s.pause();
    s.wind({ speed: 0, gust: 0, turbulence: 0, vertical: 0, direction: 0 });
    s.forest({ trees: 300, area: 120, seed: 5 });
    s.step(1);
    const rest = s.forestProbe();
    s.step(90);
    const still = s.forestProbe();
    s.wind({ speed: 24, gust: 0.5, turbulence: 0.4, direction: 20 });
    s.step(150);
    const gale = s.forestProbe();
    const twinNear = await window.sandboxDebug.forestTwinCheck(600, 0, 0, "bark");
    const twinLeaves = await window.sandboxDebug.forestTwinCheck(600, 1, 0, "leaves");
    const twinFar = await window.sandboxDebug.forestTwinCheck(300, 2, 2, "bark");
    // The same seed again: the same forest, the same motion at the same time.
    s.forest(null);
    s.forest({ trees: 300, area: 120, seed: 5 });
    const again = s.forestProbe();
    return { rest, still, gale, again, twinNear, twinLeaves, twinFar, info: s.forest(), stats: s.stats() };
  });
  log(`levels ${JSON.stringify(r.info.levels)}, vertices ${JSON.stringify(r.info.vertices)}; twin near ${JSON.stringify(r.twinNear)}, leaves ${JSON.stringify(r.twinLeaves)}, far ${JSON.stringify(r.twinFar)}`);
  assert.equal(r.rest.length, 3 * 300);
  assert.deepEqual(r.still, r.rest, "still air keeps every tree still");
  assert.deepEqual(r.again, r.gale, "the same seed gives the same forest and motion");
  // Downwind (20°): the tops' mean shift along the wind is positive.
  const dx = Math.cos((20 * Math.PI) / 180), dz = Math.sin((20 * Math.PI) / 180);
  let along = 0;
  for (let k = 0; k < 300; k++) along += (r.gale[3 * k] - r.rest[3 * k]) * dx + (r.gale[3 * k + 2] - r.rest[3 * k + 2]) * dz;
  assert.ok(along / 300 > 0.003, `a 24 m/s wind moved the tops ${along / 300} m downwind on average`);
  for (const c of [r.twinNear, r.twinLeaves, r.twinFar]) {
    assert.ok(c.maxError < 2e-4, `GPU and twin differ by ${c.maxError} m`);
    assert.ok(c.maxDisplacement > 1e-3, `the check moved vertices ${c.maxDisplacement} m`);
  }
  assert.equal(r.stats.nonFinite, false);
  // SwiftShader: the software renderer's vertex budget, and the trees on screen within it.
  assert.equal(r.info.drawn.budget, 3_000_000);
  assert.ok(r.info.drawn.vertices > 0 && r.info.drawn.vertices <= r.info.drawn.budget, JSON.stringify(r.info.drawn));
  await hidePanel(page);
  await until(() => page.evaluate(() => window.sandbox.step(0)), { message: "the forest's shaders ready", timeout: 60_000 });
  await shot("forest-gale");
  // Culling: looking along the ground from the forest's edge, the chunks behind are not drawn.
  const culled = await page.evaluate(() => {
    const s = window.sandbox, cam = window.sandboxDebug.scene().activeCamera;
    const before = s.forest().chunks;
    cam.radius = 12; cam.beta = 1.45; cam.alpha = 0;
    s.step(0);
    return { before, after: s.forest().chunks, levels: s.forest().levels };
  });
  log(`chunks on screen: framed ${JSON.stringify(culled.before)}, close and low ${JSON.stringify(culled.after)}; levels ${JSON.stringify(culled.levels)}`);
  assert.ok(culled.after[0] < culled.after[1], "chunks behind the camera are culled");
  assert.ok(culled.levels[0] > 0 && culled.levels[1] > 0, "near and middle levels both in use");

  // A blast at one side: the near trees move first.
  const b = await page.evaluate(() => {
    const s = window.sandbox;
    s.wind({ speed: 0, gust: 0, turbulence: 0 });
    s.step(60);
    const rest = s.forestProbe();
    s.windPrimitive({ kind: "blast", x: -50, z: 0, strength: 40, radius: 50 });
    const moved = [];
    for (let i = 0; i < 15; i++) {
      s.step(12);
      const p = s.forestProbe();
      moved.push(p.map((v, j) => v - rest[j]));
    }
    return { rest, moved };
  });
  const arrival = [];
  for (let k = 0; k < 300; k++) {
    const m = b.moved.map((d) => Math.hypot(d[3 * k], d[3 * k + 2]));
    const peak = Math.max(...m);
    if (peak < 1e-4) continue;
    arrival.push([Math.hypot(b.rest[3 * k] + 50, b.rest[3 * k + 2]), m.findIndex((x) => x > 0.2 * peak)]);
  }
  const near = arrival.filter(([d]) => d < 30).map(([, i]) => i), far = arrival.filter(([d]) => d > 60).map(([, i]) => i);
  log(`blast: ${arrival.length} trees moved; near arrive at frames ${Math.min(...near) * 12}-${Math.max(...near) * 12}, far ${Math.min(...far) * 12}-${Math.max(...far) * 12}`);
  assert.ok(near.length > 5 && far.length > 5);
  assert.ok(Math.max(...near) < Math.min(...far), "the trees near the blast move before the far ones");
  await page.evaluate(() => {
    const cam = window.sandboxDebug.scene().activeCamera;
    cam.radius = 60; cam.beta = 0.9; cam.alpha = -Math.PI / 2;
  });
  await until(() => page.evaluate(() => window.sandbox.step(0)), { message: "drawn", timeout: 60_000 });
  await shot("forest-blast");

  // Bad input: named, and the forest stays.
  const bad = await attempt(page, () => window.sandbox.forest({ trees: 20000 }));
  assert.equal(bad.ok, false);
  assert.match(bad.message, /forest.trees must be a whole number from 1 to 10000/);
  const lodBad = await attempt(page, () => window.sandbox.forestLod({ near: 100, far: 50 }));
  assert.match(lodBad.message, /far \(50 m\) must be beyond near \(100 m\)/);
  assert.equal(await page.evaluate(() => window.sandbox.forest().trees), 300);
  assert.ok((await page.evaluate(() => window.sandbox.stats().errors.join("\n"))).includes("forest.trees"), "the message reaches the page");
});
