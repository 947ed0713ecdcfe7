// Tree models made elsewhere, in the real app. A sample picked in the panel with the
// mouse (progress bar, summary, the skeleton overlay by level, every method animating it); a model
// dropped on the view with its companions (an OBJ whose MTL names textures by absolute Windows
// paths); `?model=<url>` in the address and loadTree({ url }); a scene of several trees with the
// tree picked in the panel; the up axis and a material's role corrected in the panel; bad files,
// each with its message, the tree on screen staying; the GPU deformation of an imported model
// against its TypeScript twin.
// Browser globals used inside page.evaluate callbacks:
/* global DataTransfer, File, DragEvent, atob */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "./runner.mjs";
import { assert, openApp, clickControl, frames, until, requireDebugHooks, treeOnShow } from "./helpers.mjs";

const MODELS = join(process.cwd(), "assets/models");

/** Share of the canvas that is not sky or grass: the tree, its shadow (read from the WebGL canvas). */
function treePixels(page) {
  return page.evaluate(() => {
    const gl = document.getElementById("view");
    const c = document.createElement("canvas");
    c.width = gl.width;
    c.height = gl.height;
    const g = c.getContext("2d");
    g.drawImage(gl, 0, 0);
    // Right of the panel.
    const x0 = Math.round(gl.width * 0.3);
    const d = g.getImageData(x0, 0, gl.width - x0, gl.height).data;
    let tree = 0, coloured = 0;
    for (let i = 0; i < d.length; i += 4) {
      const r = d[i], gg = d[i + 1], b = d[i + 2];
      if (r + gg + b < 240) tree++;
      // The overlay's level colours: saturated red, orange, yellow, green, blue.
      if (Math.max(r, gg, b) > 200 && Math.max(r, gg, b) - Math.min(r, gg, b) > 150) coloured++;
    }
    return { tree: tree / (d.length / 4), coloured: coloured / (d.length / 4) };
  });
}

async function lastError(page) {
  const s = await page.evaluate(() => window.sandbox.stats());
  return s.errors[s.errors.length - 1] ?? "";
}

/** Drops files on the canvas as a person would (DataTransfer with File objects); waits for the load. */
async function dropFiles(page, files) {
  await page.evaluate(async (list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name));
    const canvas = document.querySelector("canvas");
    for (const type of ["dragenter", "dragover", "drop"]) canvas.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true, clientX: 700, clientY: 360 }));
    await window.sandboxDebug.grammarFileSettled();
  }, files.map((f) => ({ name: f.name, base64: Buffer.from(f.bytes).toString("base64") })));
}

const fileOf = (dir, name) => ({ name, bytes: readFileSync(join(MODELS, dir, name)) });

test("a sample model picked in the panel: progress, summary, skeleton overlay by level, every method animates it", async ({ page, url, shot, errors, log }) => {
  // The common tree's leaf cards overlap a lot and are alpha-tested: on a software renderer a
  // frame is slow, so the panel is scrolled (the overlay switched on) before the model comes.
  await page.setViewportSize({ width: 1024, height: 600 });
  const t0 = Date.now();
  const at = (what) => log(`${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await openApp(page, url, { hash: "#tree=demo&method=rest", errors });
  await requireDebugHooks(page, ["tree", "loadProgressSeen", "panelText"]);
  await page.evaluate(() => window.sandbox.pause());
  // The overlay: the skeleton over the tree, coloured by level, switched on with the mouse.
  await clickControl(page, "display.hierarchy");
  assert.equal((await page.evaluate(() => window.sandbox.display())).hierarchy, true, "the overlay button did not switch it on");
  at("app ready, overlay on");
  await clickControl(page, "tree:common-tree");
  await until(() => page.evaluate(() => window.sandbox.model()?.file === "CommonTree_1.gltf" && window.sandbox.loadProgress() === null), { timeout: 60_000, message: "the common tree loaded" });
  at("model loaded");
  const seen = await page.evaluate(() => window.sandboxDebug.loadProgressSeen());
  log(`progress seen: ${seen.map((p) => `${Math.round(100 * p.fraction)}% ${p.text}`).join(" | ")}`);
  assert.ok(seen.length >= 3, "the progress bar showed fewer than three stages");
  assert.ok(seen.some((p) => /finding the branches/.test(p.text)), "no 'finding the branches' stage");
  const info = await page.evaluate(() => window.sandbox.model());
  const tree = await treeOnShow(page);
  log(`model: ${JSON.stringify({ ...info, roles: info.roles.map((r) => `${r.material}=${r.role}`) })}; tree ${tree.branches} branches ${tree.levels} levels ${tree.leaves} leaves ${tree.vertices} vertices`);
  assert.equal(tree.name, "common-tree");
  assert.deepEqual(info.roles.map((r) => r.role), ["wood", "leaves"]);
  assert.equal(info.up, "+y");
  assert.ok(tree.branches >= 20 && tree.levels >= 2 && tree.leaves > 100, "the hierarchy is too small");
  assert.equal(tree.vertices, 5618 + 3840, "the model's own vertices are not what is shown");
  const summary = await page.evaluate(() => window.sandboxDebug.panelText("model.summary"));
  log(`panel summary: ${summary.replace(/\n/g, " / ")}`);
  assert.match(summary, /CommonTree_1\.gltf/);
  assert.match(summary, /\d+ branches in \d+ levels, \d+ leaves/);
  await frames(page, 2);
  const overlay = await treePixels(page);
  await shot("import-hierarchy-overlay");
  await page.evaluate(() => window.sandbox.display({ hierarchy: false }));
  await frames(page, 2);
  const plain = await treePixels(page);
  await shot("import-common-tree");
  at("model drawn");
  assert.ok(plain.tree > 0.02, `the model is not on screen (${plain.tree})`);
  log(`level-coloured pixels: ${plain.coloured.toFixed(4)} without the overlay, ${overlay.coloured.toFixed(4)} with it`);
  assert.ok(overlay.coloured > plain.coloured + 0.001, "the skeleton overlay did not show");

  // Every method animates it: all four side by side, then each alone for its stats.
  const moved = await page.evaluate(async () => {
    const s = window.sandbox;
    s.wind({ speed: 14, gust: 0.4 });
    const out = {};
    for (const id of s.animators().map((a) => a.id)) {
      const t0 = performance.now();
      await s.use(id);
      s.pause();
      const t1 = performance.now();
      const rest = s.probe();
      // sph-particles brings its wind up from still air over its first second: 2 s for it.
      s.step(id === "sph-particles" ? 120 : 30);
      const t2 = performance.now();
      const tips = s.probe();
      let d = 0;
      for (let i = 0; i < tips.length; i++) d = Math.max(d, Math.abs(tips[i] - rest[i]));
      out[id] = { moved: d, nonFinite: s.stats().nonFinite, finite: tips.every(Number.isFinite), useMs: Math.round(t1 - t0), stepMs: Math.round(t2 - t1) };
    }
    // Side by side on the dead tree (no alpha-tested leaves: four views of the common tree take
    // several seconds a frame on a software renderer).
    await s.loadTree({ preset: "dead-tree" });
    await s.use(["spectral-beam", "procedural-wind", "lsystem-particles", "mass-spring"]);
    s.pause();
    s.step(20);
    return out;
  });
  at("every method run");
  log(`tip motion per method: ${JSON.stringify(moved)}`);
  for (const [id, m] of Object.entries(moved)) {
    assert.equal(m.nonFinite, false, `${id} went non-finite on the model`);
    assert.ok(m.finite, `${id}: a tip is not finite`);
    // A thick-wooded 7.3 m tree (a 0.5 m trunk): the physical methods bend it millimetres at 14 m/s
    // (the reference's static bend of its tips: 3.3 mm), none by a tenth of its height (a blow-up).
    if (id !== "rest") assert.ok(m.moved > 0.001, `${id} did not move the model (${m.moved} m)`);
    assert.ok(m.moved < 0.1 * 7.265, `${id} moved a tip ${m.moved.toFixed(2)} m in a 14 m/s wind: unstable on the model`);
  }
  await frames(page, 2);
  await shot("import-four-methods");
  assert.deepEqual(errors, []);
}, { timeout: 240_000 });

test("a model dropped with its companions (OBJ, MTL with absolute Windows paths, texture); ?model= and loadTree({ url })", async ({ page, url, shot, errors, log }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await openApp(page, url, { hash: "#tree=demo&method=procedural-wind", errors });
  const dir = "megakit_twistedtree_1_obj";
  await dropFiles(page, readdirSync(join(MODELS, dir)).filter((n) => !n.endsWith(".txt")).map((n) => fileOf(dir, n)));
  const info = await page.evaluate(() => window.sandbox.model());
  log(`dropped: ${JSON.stringify(info)}`);
  assert.equal(info.file, "TwistedTree_1.obj");
  assert.equal(info.error, null);
  assert.deepEqual(info.roles.map((r) => `${r.material}=${r.role}`), ["Bark_TwistedTree=wood", "Leaves_TwistedTree=leaves"]);
  assert.ok(info.notes.some((n) => /Bark_TwistedTree\.png not found/.test(n)), "the missing bark texture is not reported");
  // The leaf texture named as C:/Leaves_TwistedTree_C.png was found beside the OBJ.
  assert.ok(!info.notes.some((n) => /Leaves_TwistedTree_C\.png not found/.test(n)), "the leaf texture named by an absolute Windows path was not found");
  const leafTexture = await page.evaluate(() => window.sandboxDebug.leafTexture());
  assert.match(leafTexture ?? "", /Leaves_TwistedTree_C\.png/i);
  await page.evaluate(() => window.sandbox.pause());
  await frames(page, 3);
  await shot("import-dropped-obj");
  assert.ok((await treePixels(page)).tree > 0.02, "the dropped model is not on screen");

  // loadTree({ url }) from a script, then the address: ?model=<url> loads it at start.
  const summary = await page.evaluate(() => window.sandbox.loadTree({ url: "assets/models/megakit_deadtree_1/DeadTree_1.gltf" }));
  log(`loadTree({ url }): ${JSON.stringify({ ...summary, model: undefined })}`);
  assert.equal(summary.model.file, "DeadTree_1.gltf");
  assert.equal(summary.leaves, 0);
  assert.ok(summary.branches >= 40);
  await page.goto(`${url}?model=assets/models/megakit_pine_1/Pine_1.gltf`, { waitUntil: "load" });
  await page.waitForFunction(() => typeof window.sandbox === "object", null, { timeout: 90_000 });
  await page.evaluate(() => window.sandbox.ready);
  const pine = await page.evaluate(() => window.sandbox.model());
  assert.equal(pine?.file, "Pine_1.gltf", "?model= did not load the pine");
  await page.evaluate(() => window.sandbox.pause());
  await frames(page, 3);
  await shot("import-query-model");
  assert.deepEqual(errors, []);
}, { timeout: 240_000 });

test("a scene of several trees: the tree picked in the panel; up axis and a material's role corrected with the mouse", async ({ page, url, shot, errors, log }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await openApp(page, url, { hash: "#tree=demo&method=spectral-beam", errors });
  await page.evaluate(() => window.sandbox.loadTree({ preset: "landscape" }));
  const scene = await page.evaluate(() => window.sandbox.model());
  log(`landscape: trees ${scene.trees.join(", ")}; showing ${scene.tree}; notes ${scene.notes.join(" / ")}`);
  assert.ok(scene.notes.some((n) => /seccanj.*CC-BY-4\.0/.test(n)), "the scene's CC-BY credit is not shown with it");
  assert.ok(scene.trees.length >= 8, "fewer than 8 trees found in the landscape");
  assert.ok(!scene.trees.includes("Plane") && !scene.trees.includes("Cube.004"), "the river or the ground was taken for a tree");
  await clickControl(page, "model.tree:Icosphere.007");
  await until(() => page.evaluate(() => window.sandbox.model()?.tree === "Icosphere.007"), { timeout: 30_000, message: "the lollipop tree picked" });
  await page.evaluate(() => window.sandbox.pause());
  await frames(page, 3);
  await shot("import-scene-pick");
  assert.ok((await treePixels(page)).tree > 0.01, "the picked tree is not on screen");

  // The up axis: set to +z with the mouse (the tree lies down), then detected again.
  await page.evaluate(() => window.sandbox.loadTree({ preset: "common-tree" }));
  await clickControl(page, "model.up:+z");
  await until(() => page.evaluate(() => window.sandbox.model()?.up === "+z"), { timeout: 30_000, message: "up set to +z" });
  const lying = await page.evaluate(() => window.sandbox.model());
  assert.equal(lying.upDetected, false);
  await frames(page, 3);
  await shot("import-up-z");
  await clickControl(page, "model.up:auto");
  await until(() => page.evaluate(() => window.sandbox.model()?.upDetected === true && window.sandbox.model()?.up === "+y"), { timeout: 30_000, message: "up detected again" });

  // A role corrected: the leaves ignored (a bare tree), then leaves again.
  const k = (await page.evaluate(() => window.sandbox.model())).roles.findIndex((r) => r.role === "leaves");
  await clickControl(page, `model.role.${k}:ignore`);
  await until(() => page.evaluate(() => window.sandboxDebug.tree()).then((t) => t.leaves === 0), { timeout: 30_000, message: "the leaves ignored" });
  await frames(page, 3);
  await shot("import-leaves-ignored");
  await clickControl(page, `model.role.${k}:leaves`);
  await until(() => page.evaluate(() => window.sandboxDebug.tree()).then((t) => t.leaves > 0), { timeout: 30_000, message: "the leaves back" });
  assert.deepEqual(errors, []);
}, { timeout: 240_000 });

test("bad model files: each gets a message a person can act on, and the tree on screen stays; a model with no wood can be corrected", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo&method=rest", errors });
  await page.evaluate(() => window.sandbox.pause());
  const before = await treeOnShow(page);
  const glb = readFileSync(join(MODELS, "own_habel_glb/habel.glb"));
  const gltf = readFileSync(join(MODELS, "megakit_deadtree_1/DeadTree_1.gltf"));
  const cases = [
    [[{ name: "notes.txt.glb", bytes: Buffer.from("just some text") }], /is not a GLB file/],
    [[{ name: "habel.glb", bytes: glb.subarray(0, glb.length >> 2) }], /habel\.glb is cut short: .* download or export it again/],
    [[{ name: "DeadTree_1.gltf", bytes: gltf }], /needs DeadTree_1\.bin, which was not given: pick or drop it together/],
    [[{ name: "oak.fbx", bytes: Buffer.from("Kaydara FBX Binary") }], /FBX \(\.fbx\) is not a format the sandbox reads; export the tree as glTF/],
    [[{ name: "empty.obj", bytes: Buffer.from("# exported with nothing\nv 0 0 0\nv 1 0 0\nv 0 1 0\n") }], /empty\.obj has no geometry: no triangles/],
  ];
  for (const [files, expected] of cases) {
    await dropFiles(page, files);
    const message = await lastError(page);
    log(`${files.map((f) => f.name).join(", ")}: ${message}`);
    assert.match(message, expected);
    assert.deepEqual(await treeOnShow(page), before, `the tree changed after ${files[0].name}`);
  }
  await frames(page, 3);
  await shot("import-bad-file");
  // No wood: leaves only by name. The message says what to do; the panel offers the fix.
  // A closed three-sided stick, 4 m tall, whose one material is called "leaves".
  const leavesOnly = "mtllib none.mtl\nusemtl leaves\nv 0 0 0\nv 0.2 0 0\nv 0.1 0 0.17\nv 0 4 0\nv 0.2 4 0\nv 0.1 4 0.17\n" +
    "f 1 4 5 2\nf 2 5 6 3\nf 3 6 4 1\nf 1 2 3\nf 4 6 5\n";
  await dropFiles(page, [{ name: "stick.obj", bytes: Buffer.from(leavesOnly) }]);
  const message = await lastError(page);
  log(`stick.obj: ${message}`);
  assert.match(message, /no wood found in stick\.obj: .*mark the bark's material as wood in the panel/);
  assert.deepEqual(await treeOnShow(page), before, "the tree changed after a model with no wood");
  const pending = await page.evaluate(() => window.sandbox.model());
  assert.ok(pending.error, "the model with no wood is not kept for correction");
  // The message floats over the foot of the panel; a click puts it away, as a person would.
  await clickControl(page, "error");
  await clickControl(page, "model.role.0:wood");
  await until(() => page.evaluate(() => window.sandbox.model()?.error === null), { timeout: 30_000, message: "the corrected model shown" });
  const fixed = await treeOnShow(page);
  log(`corrected: ${JSON.stringify(fixed)}`);
  assert.equal(fixed.name, "model");
  assert.ok(fixed.branches >= 1);
  assert.ok(Math.abs(fixed.height - 4) < 0.05, `the stick is ${fixed.height} m tall, not 4`);
  await frames(page, 3);
  await shot("import-corrected");
  assert.ok((await treePixels(page)).tree > 0.001, "the corrected stick is not on screen");
  // With a model on show, another that fails is the one the panel offers to correct; showing
  // another tree forgets it.
  await dropFiles(page, [{ name: "twig.obj", bytes: Buffer.from(leavesOnly.replace("usemtl leaves", "usemtl foliage")) }]);
  assert.match(await lastError(page), /no wood found in twig\.obj/);
  const second = await page.evaluate(() => window.sandbox.model());
  assert.equal(second.file, "twig.obj");
  assert.deepEqual(second.roles.map((r) => r.material), ["foliage"]);
  assert.equal((await treeOnShow(page)).name, "model", "the model on show was replaced by one that failed");
  await page.evaluate(() => window.sandbox.loadTree({ preset: "demo" }));
  assert.equal(await page.evaluate(() => window.sandbox.model()), null, "the failed model was kept after another tree was shown");
  // Page errors: none (bad files are the app's messages, not exceptions).
  assert.deepEqual(errors, []);
}, { timeout: 180_000 });

test("an imported model's GPU deformation agrees with its TypeScript twin (spectral-beam and procedural-wind)", async ({ page, url, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo&method=rest", errors });
  await requireDebugHooks(page, ["gpuTwinCheck"]);
  await page.evaluate(() => window.sandbox.loadTree({ preset: "twisted-tree" }));
  for (const id of ["procedural-wind", "spectral-beam"]) {
    const r = await page.evaluate(async (method) => {
      const s = window.sandbox;
      await s.use(method);
      // A storm: the twisted tree's wood is thick (its 0.4 m trunk bends a few centimetres at
      // 30 m/s), so the motion to compare is centimetres, not metres.
      s.wind({ speed: 30, gust: 0.3 });
      s.pause();
      s.step(45);
      return { check: await window.sandboxDebug.gpuTwinCheck(256), height: window.sandboxDebug.tree().height };
    }, id);
    log(`${id}: ${JSON.stringify(r)}`);
    assert.ok(r.check.samples > 0 && r.check.maxDisplacement > 2e-3 * r.height, `${id}: the sampled vertices moved only ${r.check.maxDisplacement} m (under 0.2 % of the model's height): nothing to compare`);
    assert.ok(r.check.maxError < 0.01 * r.check.maxDisplacement, `${id}: GPU and twin differ by ${r.check.maxError} m on the model, over 1 % of the ${r.check.maxDisplacement} m the vertices moved`);
  }
  assert.deepEqual(errors, []);
}, { timeout: 180_000 });
