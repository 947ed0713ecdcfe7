// Overlapping and bad calls: long work (a model loading, a video recording, a mass-spring
// recording) refuses what would change the tree or the methods under it, with a message that says
// what is under way and what to do, and the app is never left half-switched; a page address with bad
// fields opens with the defaults for those fields alone and one message naming every bad field.
import { URLSearchParams } from "node:url";
import { test } from "./runner.mjs";
import { assert, openApp, until } from "./helpers.mjs";

/** What is on show: methods of the views, the tree, the model, the address, whether the tree is drawn. */
async function shownState(page) {
  return page.evaluate(() => {
    const s = window.sandbox, d = window.sandboxDebug;
    const t = d.tree();
    return {
      views: s.views().map((v) => v.id), tree: t.name, vertices: s.stats().vertices, tips: s.probe().length / 3,
      model: s.model()?.sample ?? null, loading: s.loadProgress(), hash: window.location.hash, meshes: d.sceneCounts().meshes,
    };
  });
}

/** Waits for the address to say `tree` and `method`, and checks the views and tree say the same. */
async function consistent(page, { tree, method }, log) {
  const st = await until(async () => {
    const s = await shownState(page);
    const q = new URLSearchParams(s.hash.replace(/^#/, ""));
    return q.get("tree") === tree && q.get("method") === method ? s : null;
  }, { timeout: 10_000, message: `the address to name tree ${tree} and method ${method}` });
  log(`state: ${JSON.stringify({ ...st, hash: undefined })}`);
  assert.deepEqual(st.views, method.split(","), "the views are the methods the address names");
  assert.equal(st.tree, tree, "the tree on show is the one the address names");
  assert.equal(st.loading, null, "nothing is left loading");
  assert.ok(st.vertices > 0 && st.tips > 0, "the tree is drawn and animated");
  return st;
}

test("overlapping calls: a model loading refuses use(), loadTree() and record(), then shows the model with the methods it had", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    const out = {};
    const settle = (p) => p.then((v) => ({ ok: true, v }), (e) => ({ ok: false, message: e.message }));
    const loading = settle(s.loadTree({ preset: "own-habel-glb" }));
    out.progress = s.loadProgress();
    out.use = await settle(s.use("procedural-wind"));
    out.grammar = await settle(s.loadTree({ preset: "demo" }));
    out.model = await settle(s.loadTree({ preset: "pine" }));
    out.record = await settle(s.record({ seconds: 0.5, fps: 10, width: 320, height: 180 }));
    out.addView = await settle(s.addView());
    out.first = await loading;
    out.errors = s.stats().errors;
    return out;
  });
  log(JSON.stringify(r, null, 1));
  assert.ok(r.first.ok, `the model that was loading is shown: ${r.first.message}`);
  for (const k of ["use", "grammar", "model", "record", "addView"]) {
    assert.equal(r[k].ok, false, `${k} while a model loads is refused (it went ahead: ${JSON.stringify(r[k])})`);
    assert.match(r[k].message, /a model is loading \(reading habel\.glb/, `${k}'s refusal says what is under way: ${r[k].message}`);
    assert.match(r[k].message, /wait for/, `${k}'s refusal says what to do: ${r[k].message}`);
    assert.ok(r.errors.some((e) => e.includes(r[k].message)), `${k}'s refusal is shown in the panel (stats().errors)`);
  }
  await consistent(page, { tree: "own-habel-glb", method: "spectral-beam" }, log);
  // Afterwards the calls go through.
  const after = await page.evaluate(async () => {
    await window.sandbox.use("procedural-wind");
    return window.sandbox.views().map((v) => v.id);
  });
  assert.deepEqual(after, ["procedural-wind"]);
  await consistent(page, { tree: "own-habel-glb", method: "procedural-wind" }, log);
  await shot("overlap-model-loading");
  assert.deepEqual(errors, []);
}, { timeout: 180_000 });

test("overlapping calls: a video recording refuses a second record(), use() and loadTree(); the video is whole", async ({ page, url, shot, errors, log }) => {
  await page.setViewportSize({ width: 640, height: 360 });
  await openApp(page, url, { hash: "#tree=demo", errors });
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    const out = {};
    const settle = (p) => p.then((v) => ({ ok: true, v }), (e) => ({ ok: false, message: e.message }));
    const video = settle(s.record({ seconds: 1, fps: 10, frameExact: true, width: 320, height: 180 }));
    out.second = await settle(s.record({ seconds: 1, fps: 10, width: 320, height: 180 }));
    out.use = await settle(s.use("procedural-wind"));
    out.grammar = await settle(s.loadTree({ preset: "barron" }));
    out.video = await video;
    out.errors = s.stats().errors;
    return out;
  });
  log(JSON.stringify(r, null, 1));
  assert.ok(r.video.ok, `the first video is made: ${r.video.message}`);
  assert.equal(r.video.v.frames, 10, "the first video has all its frames");
  for (const k of ["second", "use", "grammar"]) {
    assert.equal(r[k].ok, false, `${k} during a video recording is refused (it went ahead)`);
    assert.match(r[k].message, /a video is being recorded/, `${k}'s refusal says what is under way: ${r[k].message}`);
    assert.match(r[k].message, /wait for/, `${k}'s refusal says what to do: ${r[k].message}`);
    assert.ok(r.errors.some((e) => e.includes(r[k].message)), `${k}'s refusal is shown in the panel`);
  }
  await consistent(page, { tree: "demo", method: "spectral-beam" }, log);
  await shot("overlap-video");
  assert.deepEqual(errors, []);
}, { timeout: 180_000 });

test("overlapping calls: action(\"record\") during a mass-spring recording is refused, naming the recording and how to cancel it", async ({ page, url, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo&method=mass-spring", errors });
  const r = await page.evaluate(async () => {
    const s = window.sandbox;
    const out = {};
    const settle = (f) => {
      try {
        return { ok: true, v: f() };
      } catch (e) {
        return { ok: false, message: e.message };
      }
    };
    out.first = settle(() => s.action("record"));
    out.second = settle(() => s.action("record"));
    out.actions = s.actions().map((a) => a.id);
    out.cancel = settle(() => s.action("cancel-recording"));
    out.after = s.actions().map((a) => a.id);
    out.errors = s.stats().errors;
    return out;
  });
  log(JSON.stringify(r, null, 1));
  assert.ok(r.first.ok, "the first recording starts");
  assert.equal(r.second.ok, false, "a second record during the recording is refused");
  assert.match(r.second.message, /a recording is under way/, r.second.message);
  assert.match(r.second.message, /cancel-recording/, r.second.message);
  assert.ok(r.errors.some((e) => e.includes(r.second.message)), "the refusal is shown in the panel");
  assert.ok(r.cancel.ok);
  assert.ok(r.after.includes("record"), `after cancelling, record is offered again: ${r.after}`);
  await consistent(page, { tree: "demo", method: "mass-spring" }, log);
  assert.deepEqual(errors, []);
});

/** Opens `hash`, returns the state, the wind, and the address's message. */
async function openBad(page, url, hash, errors) {
  // A new document each time (a goto that changes only the hash would not reload the page).
  await page.goto("about:blank");
  await openApp(page, url, { hash, errors });
  return page.evaluate(() => {
    const s = window.sandbox, t = window.sandboxDebug.tree();
    return { views: s.views().map((v) => v.id), tree: t.name, depth: t.depth, wind: s.wind(), params: s.params("spectral-beam"), errors: s.stats().errors, tips: s.probe().length / 3 };
  });
}

test("a page address with bad fields opens with the defaults for those fields alone and one message naming each bad field and its value", async ({ page, url, shot, errors, log }) => {
  const cases = [
    { hash: "#tree=demo&method=foo&speed=9", bad: [/method 'foo'/, /\(using spectral-beam\)/], check: (s) => assert.deepEqual([s.views, s.tree, s.wind.speed], [["spectral-beam"], "demo", 9]) },
    { hash: "#tree=demo&speed=900&direction=45", bad: [/speed '900'/, /0 to 40 m\/s/, /\(using 6\)/], check: (s) => assert.deepEqual([s.wind.speed, s.wind.direction, s.tree], [6, 45, "demo"]) },
    { hash: "#tree=baobab&speed=9", bad: [/tree 'baobab'/, /\(using habel\)/], check: (s) => assert.deepEqual([s.tree, s.wind.speed], ["habel", 9]) },
    { hash: "#tree=barron&depth=30&speed=9", bad: [/depth '30'/, /modules \(cap 2,000,000\); lower the depth/, /\(using 7\)/], check: (s) => assert.deepEqual([s.tree, s.depth, s.wind.speed], ["barron", 7, 9]) },
    { hash: "#tree=demo&spectral-beam.damping=5&spectral-beam.damping0=0.5", bad: [/spectral-beam\.damping '5'/, /0 to 1/, /\(using 0\.5\)/], check: (s) => assert.deepEqual([s.params.damping, s.params.damping0], [0.5, 0.5]) },
    {
      hash: "#tree=demo&method=foo&speed=900&spectral-beam.damping=5", bad: [/method 'foo'/, /speed '900'/, /spectral-beam\.damping '5'/], one: true,
      check: (s) => assert.deepEqual([s.views, s.wind.speed, s.params.damping], [["spectral-beam"], 6, 0.5]),
    },
  ];
  for (const c of cases) {
    const s = await openBad(page, url, c.hash, errors);
    log(`${c.hash}: ${JSON.stringify({ ...s, params: undefined, wind: s.wind.speed })}`);
    const messages = s.errors.filter((e) => /^Address/.test(e));
    assert.equal(messages.length, 1, `one message about the address (${c.hash}): ${JSON.stringify(s.errors)}`);
    for (const re of c.bad) assert.match(messages[0], re, `the message for ${c.hash}`);
    c.check(s);
    assert.ok(s.tips > 0, "a tree is drawn");
    // The panel shows it too (it is read before the panel is made).
    await until(() => page.evaluate((m) => {
      const gui = window.sandboxDebug.scene().textures.find((t) => typeof t.getControlByName === "function" && t.getControlByName("panel-error-text"));
      const text = gui?.getControlByName("panel-error-text"), box = gui?.getControlByName("panel-error");
      return text?.text === m && box?.isVisible;
    }, messages[0]), { timeout: 5_000, message: `the panel's error line to show ${messages[0]}` });
  }
  await shot("overlap-bad-address");
  assert.deepEqual(errors, []);
}, { timeout: 240_000 });
