// Wind conditions. Beaufort presets and a wind timeline chosen, played and edited
// with the mouse; the timeline drives the wind on the host's clock, lives in the page address and
// comes back on reload; a broken timeline in the address gets a message and a steady wind.
import { test } from "./runner.mjs";
import { assert, openApp, clickControl, controlRect, dragSlider, frames, sliderValue } from "./helpers.mjs";

test("wind conditions: Beaufort presets and a wind timeline, played on the clock, edited with the mouse, kept in the address", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  await clickControl(page, "wind.preset:gale");
  const gale = await page.evaluate(() => window.sandbox.wind());
  log(`gale: ${JSON.stringify(gale)}`);
  assert.ok(gale.speed >= 17.2 && gale.speed <= 20.7, `gale speed ${gale.speed}`);
  assert.ok(Math.abs((await sliderValue(page, "wind.speed")) - gale.speed) < 0.11, "the speed slider shows the preset");
  await clickControl(page, "wind.timeline:gust-front");
  const tl = await page.evaluate(() => window.sandbox.windTimeline());
  log(`timeline: ${JSON.stringify(tl)}`);
  assert.ok(tl && tl.keys.length >= 3 && tl.loop, "the gust-front timeline plays");
  // On the host's clock: restart it (use() starts from t = 0), step to each key's time: the wind is the key's.
  const atKeys = await page.evaluate(async () => {
    const s = window.sandbox;
    s.pause();
    await s.use("spectral-beam");
    const keys = s.windTimeline().keys, out = [];
    let t = 0;
    for (const k of keys) {
      const frames = Math.round((k.t - t) * 60);
      if (frames > 0) s.step(frames);
      t = k.t;
      const w = s.wind();
      out.push({ key: k, wind: { speed: w.speed, direction: w.direction, gust: w.gust } });
    }
    return out;
  });
  log(`at the keys: ${JSON.stringify(atKeys)}`);
  for (const { key, wind } of atKeys.slice(0, -1)) {
    assert.ok(Math.abs(wind.speed - key.speed) < 1e-6 && Math.abs(wind.gust - key.gust) < 1e-6 && Math.abs(((wind.direction - key.direction + 540) % 360) - 180) < 1e-6, `wind ${JSON.stringify(wind)} at key ${JSON.stringify(key)}`);
  }
  await frames(page, 3);
  const plot = await controlRect(page, "timeline.plot");
  assert.ok(plot.width > 200 && plot.height > 50, "the timeline plot shows");
  await shot("wind-timeline");
  // Edit the second key's speed with the mouse.
  await clickControl(page, "timeline.key:next");
  await frames(page, 2);
  const before = await page.evaluate(() => window.sandbox.windTimeline().keys[1].speed);
  await dragSlider(page, "timeline.speed", { min: 0, max: 40, from: before, to: 30 });
  await frames(page, 2);
  const after = await page.evaluate(() => window.sandbox.windTimeline().keys[1].speed);
  log(`key 2 speed ${before} -> ${after}`);
  assert.ok(Math.abs(after - 30) < 1, `the key's speed is now ${after}`);
  await clickControl(page, "timeline.edit:loop");
  const once = await page.evaluate(() => window.sandbox.windTimeline().loop);
  assert.equal(once, false, "the loop toggle makes it play once");
  await frames(page, 3);
  await shot("wind-timeline-edited");
  // The address keeps it; a reload plays the same timeline.
  await page.waitForFunction(() => window.location.hash.includes("timeline="), null, { timeout: 5000 });
  const hash = await page.evaluate(() => window.location.hash);
  log(`address: ${hash}`);
  const edited = await page.evaluate(() => window.sandbox.windTimeline());
  await page.reload();
  await page.evaluate(() => window.sandbox.ready);
  const reloaded = await page.evaluate(() => window.sandbox.windTimeline());
  assert.deepEqual(reloaded, edited);
  // A hand-set speed takes over from the timeline.
  await page.evaluate(() => window.sandbox.wind({ speed: 5 }));
  assert.equal(await page.evaluate(() => window.sandbox.windTimeline()), null);
  assert.deepEqual(errors, []);
});

test("wind conditions: a broken timeline in the address gets a message a person can act on, and a steady wind", async ({ page, url, shot, log }) => {
  const errs = [];
  await openApp(page, url, { hash: "#timeline=loop|0,6,0,0.3;10,20", errors: errs });
  const r = await page.evaluate(() => ({ timeline: window.sandbox.windTimeline(), errors: window.sandbox.stats().errors }));
  log(JSON.stringify(r));
  assert.equal(r.timeline, null);
  assert.ok(r.errors.some((e) => /timeline key 2: expected 4 numbers/.test(e)), "the message names the key and what is wrong");
  await frames(page, 2);
  await shot("wind-timeline-broken");
  // The app goes on: a steady wind moves the tree, and nothing threw (the message is the app's,
  // and may be logged as such; nothing else is).
  const moved = await page.evaluate(() => {
    const s = window.sandbox;
    s.pause();
    const a = s.probe();
    s.step(30);
    const b = s.probe();
    let m = 0;
    for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(b[i] - a[i]));
    return m;
  });
  assert.ok(moved > 1e-3, `the tree does not move after the broken timeline (${moved} m)`);
  assert.deepEqual(errs.filter((e) => !/timeline key 2: expected 4 numbers/.test(e)), []);
});
