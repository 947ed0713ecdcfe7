// The sandbox's promise in the real browser (real-time loop, requestAnimationFrame, WebGL uploads):
// `use(id)` with the same wind and seed gives the same frames for every method, the second time as
// the first, whatever wind was set or ran before, in a single view and in compare views; a
// frame-exact recording made twice gives the same frames. (Issue 20, item 5: measured on the
// default tree, 90 steps at 12 m/s, seed 7.) spec/sandbox/determinism.spec.ts holds the same
// promise under NullEngine in far more histories; this file keeps what only a browser has: the
// render loop running on the wall clock between the calls, frames drawn (and uploaded) while
// paused, and the pixels of a recording.
import { test } from "./runner.mjs";
import { assert, openApp, maxAbsDiff } from "./helpers.mjs";

/** The wind of the report. */
const WIND = { speed: 12, direction: 0, vertical: 0, turbulence: 0.35, gust: 0.3, seed: 7 };
/** Two other winds in every setting, run (in real time) before the restart. */
const OTHER_A = { speed: 30, direction: 120, vertical: 2, turbulence: 0.6, gust: 0.7, seed: 99 };
const OTHER_B = { speed: 4, direction: 300, vertical: -1, turbulence: 0.1, gust: 0, seed: 12345 };
/** Equal to a millionth of the tree's height (the tips are exact; this only allows float32 read-backs). */
const TOLERANCE = 1e-6;
const STEPS = 90;

const nap = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every view's tips after the run: the first view's probe() and each view's plotted-tip history (every step). */
function readTips() {
  const s = window.sandbox, plot = window.sandboxDebug.plotData();
  return { probe: s.probe(), time: s.time(), views: plot.views.map((v) => ({ id: v.id, along: Array.from(v.along), across: Array.from(v.across) })) };
}

/**
 * History A: `before` runs in wind `other` in real time (the loop draws and steps on the wall
 * clock), then, in one call, pause, the report's wind, use(ids), STEPS steps.
 */
async function runAfterRealTime(page, ids, before, other) {
  await page.evaluate(async ({ before, other }) => {
    const s = window.sandbox;
    s.wind(other);
    await s.use(before);
    s.resume();
  }, { before, other });
  await nap(800);
  return page.evaluate(async ({ ids, wind, steps, read }) => {
    const s = window.sandbox;
    s.pause();
    s.wind(wind);
    await s.use(ids);
    s.step(steps);
    return new Function(`return (${read})()`)();
  }, { ids, wind: WIND, steps: STEPS, read: readTips.toString() });
}

/**
 * History B: `before` runs in wind `other` and is paused; then each call on its own, with frames
 * drawn (paused) between them: the report's wind, use(ids), the steps in three parts, the tips.
 */
async function runInParts(page, ids, before, other) {
  await page.evaluate(async ({ before, other }) => {
    const s = window.sandbox;
    s.resume();
    s.wind(other);
    await s.use(before);
    s.step(30);
    s.pause();
  }, { before, other });
  await nap(300);
  await page.evaluate((w) => window.sandbox.wind(w), WIND);
  await nap(300);
  await page.evaluate((ids) => window.sandbox.use(ids), ids);
  for (const n of [1, 44, STEPS - 45]) {
    await nap(200);
    await page.evaluate((n) => window.sandbox.step(n), n);
  }
  await nap(200);
  return page.evaluate(`(${readTips.toString()})()`);
}

/** The tree's height (the highest tip at rest), for the tolerance. */
async function treeHeight(page) {
  const rest = await page.evaluate(async () => {
    const s = window.sandbox;
    s.pause();
    await s.use("rest");
    s.step(0);
    return s.probe();
  });
  let h = 0;
  for (let i = 1; i < rest.length; i += 3) h = Math.max(h, rest[i]);
  assert.ok(h > 1, `the default tree is ${h} m high`);
  return { h, rest };
}

/** The largest difference, over the tree's height, of the probes and of every view's tip history. */
function difference(a, b, h) {
  assert.equal(a.time, b.time, "both runs end at the same clock time");
  assert.equal(a.views.length, b.views.length);
  let d = maxAbsDiff(a.probe, b.probe);
  for (let k = 0; k < a.views.length; k++) {
    assert.equal(a.views[k].id, b.views[k].id);
    assert.equal(a.views[k].along.length, b.views[k].along.length, `view ${k}: as many plotted steps`);
    d = Math.max(d, maxAbsDiff(a.views[k].along, b.views[k].along), maxAbsDiff(a.views[k].across, b.views[k].across));
  }
  return d / h;
}

test("determinism: every method in a single view, 90 steps at 12 m/s seed 7 on the default tree, the same after any wind ran before (real-time loop, calls apart)", async ({ page, url, errors, log }) => {
  await openApp(page, url, { errors });
  const ids = await page.evaluate(() => window.sandbox.animators().map((a) => a.id));
  const { h, rest } = await treeHeight(page);
  const failures = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i], other = ids[(i + 1) % ids.length];
    const t0 = Date.now();
    const a = await runAfterRealTime(page, id, id, OTHER_A);
    const b = await runInParts(page, id, other, OTHER_B);
    const d = difference(a, b, h), moved = maxAbsDiff(a.probe, rest) / h;
    log(`${id}: tips moved ${moved.toFixed(3)} of the height; two histories differ by ${d.toExponential(2)} of it (${Date.now() - t0} ms)`);
    if (!(d <= TOLERANCE)) failures.push(`${id}: ${d.toExponential(2)}`);
    if (id !== "rest") assert.ok(moved > 0.005, `${id} moves the tree in this wind (the comparison is not vacuous): ${moved}`);
  }
  assert.deepEqual(failures, [], `the same wind and seed gave other frames: ${failures.join("; ")}`);
  assert.deepEqual(errors, []);
}, { timeout: 420_000 });

test("determinism: every method in a compare view (two side by side, either place), the same after any wind ran before", async ({ page, url, errors, log }) => {
  await openApp(page, url, { errors });
  const ids = await page.evaluate(() => window.sandbox.animators().map((a) => a.id));
  const { h } = await treeHeight(page);
  const failures = [];
  // Every method once first and once second; the method run before is another pair, reversed.
  for (let i = 0; i < ids.length; i++) {
    const pair = [ids[i], ids[(i + 1) % ids.length]], before = [ids[(i + 2) % ids.length], ids[i]];
    const t0 = Date.now();
    const a = await runAfterRealTime(page, pair, before, OTHER_A);
    const b = await runInParts(page, pair, [...pair].reverse(), OTHER_B);
    const d = difference(a, b, h);
    log(`${pair.join(" | ")}: two histories differ by ${d.toExponential(2)} of the height (${Date.now() - t0} ms)`);
    if (!(d <= TOLERANCE)) failures.push(`${pair.join(" | ")}: ${d.toExponential(2)}`);
  }
  assert.deepEqual(failures, [], `the same wind and seed gave other frames: ${failures.join("; ")}`);
  assert.deepEqual(errors, []);
}, { timeout: 420_000 });

test("determinism: a frame-exact recording made twice (another wind run in between) has the same tips at every step (pixels logged, not yet asserted)", async ({ page, url, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  const ids = await page.evaluate(() => window.sandbox.animators().map((a) => a.id).filter((id) => id !== "rest"));
  // Pixels are logged, not asserted: see the note at the end.
  const layouts = [{ ids: ids.slice(0, 4), pixels: false }, { ids: ids.slice(4).concat(["rest"]), pixels: false }].filter((l) => l.ids.length > 0);
  /** Records `layout` from t = 0 in the report's wind; returns a hash of every drawn frame's pixels, the decoded thumbnails and the tips at every step. */
  const record = (layout) => page.evaluate(async ({ layout, wind, read }) => {
    const s = window.sandbox, d = window.sandboxDebug, scene = d.scene(), gl = scene.getEngine()._gl;
    s.pause();
    s.wind(wind);
    await s.use(layout);
    const hashes = [];
    const w = gl.drawingBufferWidth, hh = gl.drawingBufferHeight, px = new Uint8Array(4 * w * hh);
    const o = scene.onAfterRenderObservable.add(() => {
      gl.readPixels(0, 0, w, hh, gl.RGBA, gl.UNSIGNED_BYTE, px);
      let x = 2166136261;
      for (let i = 0; i < px.length; i++) x = Math.imul(x ^ px[i], 16777619);
      hashes.push((x >>> 0).toString(16));
    });
    try {
      const r = await s.record({ seconds: 0.5, fps: 30, frameExact: true, width: 320, height: 180, caption: false });
      const video = await d.decodeVideo();
      return { r, hashes, thumbs: video.thumbs, tips: new Function(`return (${read})()`)() };
    } finally {
      scene.onAfterRenderObservable.remove(o);
    }
  }, { layout, wind: WIND, read: readTips.toString() });
  for (const { ids: layout, pixels } of layouts) {
    const t0 = Date.now();
    const first = await record(layout);
    // Another wind, in real time, in another layout.
    await page.evaluate(async ({ other, layout }) => {
      const s = window.sandbox;
      s.wind(other);
      await s.use([...layout].reverse());
      s.resume();
    }, { other: OTHER_A, layout });
    await nap(800);
    const second = await record(layout);
    const differing = first.hashes.filter((h, i) => second.hashes[i] !== h).length;
    log(`${layout.join(" | ")}: ${first.r.frames} frames, ${first.hashes.length} drawn, ${differing} drawn differently (${Date.now() - t0} ms)`);
    assert.equal(first.r.frames, 15);
    assert.equal(first.thumbs.length, 15, "every frame decodes");
    assert.ok(new Set(first.hashes).size > 1, "the frames change (the tree moves)");
    assert.deepEqual(second.tips, first.tips, `${layout.join(" | ")}: the tips differ`);
    if (pixels) {
      assert.deepEqual(second.hashes, first.hashes, `${layout.join(" | ")}: the drawn frames differ`);
      assert.deepEqual(second.thumbs, first.thumbs, `${layout.join(" | ")}: the decoded frames differ`);
    }
  }
  // Not yet asserted (issue 20, item 5, left open): the pixels. Frames drawn right after use()
  // differ with the wall clock while shaders compile in the background: the deforming methods'
  // shadow depth materials are compiled anew for every animator and the shadow maps leave the tree
  // out until they are ready (procedural-wind: pixel-identical with shadows off); spectral-beam
  // differs with shadows off too, and mass-spring on its first use after the page loads; compare
  // views' labels show milliseconds per frame. ViewSet.ready() says when a drawn frame shows the
  // state; the recorder (and step()) should wait for it before drawing.
  assert.deepEqual(errors, []);
}, { timeout: 300_000 });
