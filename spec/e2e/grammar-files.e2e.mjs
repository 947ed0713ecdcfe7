// Grammar files: the panel's "Load grammar file…" button opens the file chooser, a .lsys dropped
// on the view loads, other files are refused with a message, and a bad grammar shows
// file:line:column while the tree on screen stays.
// Browser globals used inside page.evaluate callbacks:
/* global DataTransfer, File, DragEvent, getComputedStyle */
import { Buffer } from "node:buffer";
import { test } from "./runner.mjs";
import { assert, openApp, frames, until, requireDebugHooks, clickControl, controlRect, dragSlider, treeOnShow } from "./helpers.mjs";
import { decodePng, countPixels, countDifferentPixels } from "./png.mjs";

const OAK = `// oak.lsys: three limbs at every node
#depth 5
#angle 28
#width 0.3
axiom: !(0.3) F(1.5) A(1)
A(l) -> !(0.12 * l) F(l) [&(40) A(l * 0.7)] /(120) [&(40) A(l * 0.7)] /(120) [&(35) ~ A(l * 0.6)]
`;

const BIRCH = `// birch.lsys: a slender stem with alternating side shoots
#depth 6
#angle 35
#width 0.2
#leafsize 0.2
axiom: !(0.2) F(1.2) A(1)
A(l) -> !(0.1 * l) F(l) [+(35) B(l * 0.6)] /(180) A(l * 0.85)
B(l) -> F(l) [-(30) ~] [+(30) ~] B(l * 0.7)
`;

// Line 5, column 16: "(" opens a parameter list that "]" does not close.
const BROKEN = `// broken.lsys
#depth 3

axiom: F(1) A
A -> F(1) [+ A(] A
`;

// Doubles every step: 2^30 modules at its own depth, far past the module cap.
const BOMB = `// bomb.lsys
#depth 30
axiom: F(1) A
A -> A A
`;

// The panel's accent orange (#e0a040): the grammar line takes it when a loaded grammar is on show.
const accent = ([r, g, b]) => Math.abs(r - 224) + Math.abs(g - 160) + Math.abs(b - 64) < 60;
// The panel's error text (#ff8a78).
const reddish = ([r, g, b]) => Math.abs(r - 255) + Math.abs(g - 138) + Math.abs(b - 120) < 60;
// The scene right of the panel (the panel's stats line changes every frame).
const SCENE = { left: 310, top: 0, width: 970, height: 720 };

/** Clicks "Load grammar file…" with the real mouse, expects the browser's file chooser, and picks `file` in it. */
async function chooseFile(page, file) {
  const chooser = page.waitForEvent("filechooser", { timeout: 15_000 });
  await clickControl(page, "tree.loadFile");
  const fc = await chooser.catch((err) => {
    throw new Error(`clicking "Load grammar file…" opened no file chooser: ${err.message}`);
  });
  // Several at once: a model comes with its .bin, .mtl and textures.
  assert.equal(fc.isMultiple(), true, "the chooser takes one file only");
  await fc.setFiles({ name: file.name, mimeType: file.type ?? "text/plain", buffer: Buffer.from(file.text) });
  await page.evaluate(() => window.sandboxDebug.grammarFileSettled());
}

/** Drags a file over the canvas (returns whether the drop highlight shows), optionally drops it. */
async function dragFile(page, file, { drop = true } = {}) {
  const shown = await page.evaluate((f) => {
    const content = f.bytes ? new Uint8Array(f.bytes) : f.text;
    const dt = new DataTransfer();
    dt.items.add(new File([content], f.name, { type: f.type ?? "" }));
    window.__dropped = dt;
    const canvas = document.querySelector("canvas");
    for (const type of ["dragenter", "dragover"]) canvas.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true, clientX: 700, clientY: 360 }));
    return getComputedStyle(document.getElementById("drop-overlay")).display !== "none";
  }, file);
  if (drop) {
    await page.evaluate(async () => {
      const canvas = document.querySelector("canvas");
      canvas.dispatchEvent(new DragEvent("drop", { dataTransfer: window.__dropped, bubbles: true, cancelable: true, clientX: 700, clientY: 360 }));
      await window.sandboxDebug.grammarFileSettled();
    });
  }
  return shown;
}

const lastError = (page) => page.evaluate(() => window.sandbox.stats().errors.at(-1) ?? "");
const overlayShown = (page) => page.evaluate(() => getComputedStyle(document.getElementById("drop-overlay")).display !== "none");

test("the Load grammar file button opens the file chooser; the chosen grammar is shown, named, and re-derived by the depth slider", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  await requireDebugHooks(page, ["tree", "sliderRect", "sliderValue", "grammarFileSettled"]);
  await page.evaluate(() => window.sandbox.pause());
  assert.equal(await page.evaluate(() => document.getElementById("grammar-file").accept), ".lsys,.txt,.glb,.gltf,.obj,.mtl,.bin,.png,.jpg,.jpeg,.webp");
  const before = await treeOnShow(page);
  const line = await controlRect(page, "tree.grammar");
  await frames(page, 2);
  const shown = decodePng(await shot("grammar-file-before"));

  await chooseFile(page, { name: "oak.lsys", text: OAK });
  const after = await until(async () => {
    const t = await treeOnShow(page);
    return t.grammar === "oak.lsys" ? t : null;
  }, { message: "the tree to come from oak.lsys" });
  log(`before: ${before.grammar} ${before.branches} branches; after choosing oak.lsys: ${after.name}/${after.grammar} depth ${after.depth}, ${after.branches} branches, ${after.leaves} leaves`);
  assert.equal(after.name, "custom");
  assert.equal(after.depth, 5, "the grammar was not derived to its own #depth");
  assert.notEqual(after.branches, before.branches, "the tree did not change");
  assert.equal(await page.evaluate(() => window.sandbox.stats().errors.length), 0, "loading oak.lsys reported an error");
  // The panel names the grammar on show (the line turns from grey to the accent colour).
  await frames(page, 3);
  const loaded = decodePng(await shot("grammar-file-loaded"));
  // Where the line is now: clicking the file button may have scrolled the panel to reach it.
  const lineNow = await controlRect(page, "tree.grammar");
  const accentBefore = countPixels(shown, accent, line), accentAfter = countPixels(loaded, accent, lineNow);
  log(`accent pixels on the grammar line: ${accentBefore} before, ${accentAfter} after`);
  assert.ok(accentAfter > accentBefore + 30, "the panel's grammar line did not change to the loaded grammar");
  assert.ok(countDifferentPixels(shown, loaded, 24, SCENE) > 500, "the picture did not change");

  // The depth slider re-derives the loaded grammar (not the preset that was there before).
  await dragSlider(page, "depth", { min: 0, max: 12, from: 5, to: 3 });
  const lower = await until(async () => {
    const t = await treeOnShow(page);
    return t.depth === 3 ? t : null;
  }, { message: "depth 3 after dragging the depth slider" });
  log(`depth 3 by the slider: ${lower.grammar}, ${lower.branches} branches`);
  assert.equal(lower.grammar, "oak.lsys");
  assert.ok(lower.branches < after.branches, "depth 3 has no fewer branches than depth 5");
  assert.deepEqual(errors, []);
});

test("a .lsys file dropped on the view loads it; a model or an image gets a message and the tree stays", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  await requireDebugHooks(page, ["tree", "grammarFileSettled"]);
  await page.evaluate(() => window.sandbox.pause());
  const before = await treeOnShow(page);

  const highlighted = await dragFile(page, { name: "birch.lsys", text: BIRCH }, { drop: false });
  assert.ok(highlighted, "no drop highlight while a file is dragged over the view");
  await shot("grammar-drop-highlight");
  await dragFile(page, { name: "birch.lsys", text: BIRCH });
  const birch = await treeOnShow(page);
  log(`dropped birch.lsys: ${birch.name}/${birch.grammar} depth ${birch.depth}, ${birch.branches} branches (demo had ${before.branches})`);
  assert.equal(birch.grammar, "birch.lsys");
  assert.equal(birch.depth, 6);
  assert.notEqual(birch.branches, before.branches, "the dropped grammar did not change the tree");
  assert.equal(await overlayShown(page), false, "the drop highlight stayed after the drop");
  await frames(page, 3);
  await shot("grammar-dropped");

  // A file with no name extension but text inside is read as a grammar too.
  await dragFile(page, { name: "OAK", text: OAK });
  assert.equal((await treeOnShow(page)).grammar, "OAK", "a text file without an extension was not loaded");
  await dragFile(page, { name: "birch.lsys", text: BIRCH });

  for (const [file, expected] of [
    [{ name: "photo.png", type: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13] }, /is not a grammar\. Drop a \.lsys grammar, or a tree model/],
    // A GLB header with no content: model import says it is damaged (spec/e2e/import.e2e.mjs has the other bad models).
    [{ name: "tree.glb", type: "model/gltf-binary", bytes: [0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 12, 0, 0, 0] }, /is damaged: its header says it is 12 bytes long/],
    [{ name: "tree.bin", type: "", bytes: [0, 1, 2, 3, 0xff, 0xfe, 0, 0] }, /is not a tree model: the sandbox reads \.glb, \.gltf, \.obj/],
  ]) {
    await dragFile(page, file);
    const message = await lastError(page);
    log(`dropped ${file.name}: ${message}`);
    assert.ok(message.startsWith(file.name), `the message does not name ${file.name}: ${message}`);
    assert.match(message, expected);
    const now = await treeOnShow(page);
    assert.equal(now.grammar, "birch.lsys", `the tree changed after dropping ${file.name}`);
    assert.equal(now.branches, birch.branches, `the tree changed after dropping ${file.name}`);
  }
  await frames(page, 3);
  await shot("grammar-drop-refused");
  assert.deepEqual(errors, []);
});

test("a grammar file with a syntax error shows file:line:column and the tree on screen stays; one past the module cap gets the cap message", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: "#tree=demo", errors });
  await requireDebugHooks(page, ["tree", "grammarFileSettled"]);
  await page.evaluate(() => window.sandbox.pause());
  await frames(page, 3);
  const before = await treeOnShow(page);
  const tipsBefore = await page.evaluate(() => window.sandbox.probe());
  const calm = decodePng(await shot("grammar-error-before"));

  await chooseFile(page, { name: "broken.lsys", text: BROKEN });
  const message = await lastError(page);
  log(`broken.lsys: ${message}`);
  assert.match(message, /^broken\.lsys:5:16: /, "the message does not point to broken.lsys line 5, column 16");
  assert.deepEqual(await treeOnShow(page), before, "the tree changed after a broken grammar");
  assert.deepEqual(await page.evaluate(() => window.sandbox.probe()), tipsBefore, "the tree changed after a broken grammar");
  await frames(page, 3);
  const broken = decodePng(await shot("grammar-error-syntax"));
  const changed = countDifferentPixels(calm, broken, 24, SCENE);
  const red = { before: countPixels(calm, reddish), after: countPixels(broken, reddish) };
  log(`scene pixels changed: ${changed}; error-red pixels ${red.before} -> ${red.after}`);
  assert.ok(changed < 50, `the picture of the tree changed (${changed} pixels) after a broken grammar`);
  assert.ok(red.after > red.before + 40, "no error message on screen");

  await dragFile(page, { name: "bomb.lsys", text: BOMB });
  const cap = await lastError(page);
  log(`bomb.lsys: ${cap}`);
  assert.match(cap, /^bomb\.lsys: depth 30 would produce about [\d.]+ billion modules \(cap 2,000,000\); lower the depth to \d+ or less$/);
  assert.deepEqual(await treeOnShow(page), before, "the tree changed after a grammar past the module cap");
  await frames(page, 3);
  const bomb = decodePng(await shot("grammar-error-cap"));
  assert.ok(countDifferentPixels(calm, bomb, 24, SCENE) < 50, "the picture of the tree changed after a grammar past the module cap");
  assert.deepEqual(errors.filter((e) => e.startsWith("uncaught")), []);
});
