// The motion as an animated glTF, in Chromium: sandbox.exportMotion() on the demo tree (2 s at
// 15 fps) read back with Babylon's glTF loader in the page has one bone per skeleton node, a 2 s
// clip, and at three times its branch tips where the method's probe() had them at those frames
// (within 1 % of the tree's height); then the panel's Export motion button, clicked with the real
// mouse, shows its progress bar and downloads a .glb, which, dropped back on the view, plays its
// clip beside the tree on the sandbox's clock (still when paused, moving when stepped: screenshots);
// the panel takes it off and plays it again through its file chooser; a file that is no motion is
// refused with a message.
// Browser globals used inside page.evaluate callbacks:
/* global Blob, atob, DataTransfer, File, DragEvent */
import { readFileSync } from "node:fs";
import { test } from "./runner.mjs";
import { assert, openApp, until, clickControl, frames } from "./helpers.mjs";
import { countDifferentPixels, decodePng } from "./png.mjs";

const METHOD = "spectral-beam";
const SECONDS = 2, FPS = 15;
const TIMES = [0, 13, SECONDS * FPS]; // frames compared

test("export: the motion as an animated glTF, read back with the glTF loader, from the API and the panel", async ({ page, url, shot, errors, log }) => {
  await openApp(page, url, { hash: `#tree=demo&method=${METHOD}`, errors });
  // What the method does, frame by frame on the export's grid (the clock paused; use() restarts it
  // at t = 0 from rest and the method is deterministic, so the export then sees the same motion).
  const probes = await page.evaluate(async ({ method, seconds, fps }) => {
    const sb = window.sandbox;
    sb.pause();
    sb.wind({ speed: 14, turbulence: 0.5, gust: 0.3 });
    await sb.use(method);
    sb.step(30);
    const out = [sb.probe()];
    for (let i = 1; i <= seconds * fps; i++) {
      sb.step(60 / fps);
      out.push(sb.probe());
    }
    return out;
  }, { method: METHOD, seconds: SECONDS, fps: FPS });
  const height = await page.evaluate(() => window.sandboxDebug.tree().height);
  const check = await page.evaluate(async ({ method, seconds, fps, times, height }) => {
    const sb = window.sandbox;
    // Beside the tree on screen: across the orbit camera's line of sight.
    const beside = (h) => {
      const cam = window.sandboxDebug.scene().cameras.find((c) => c.target);
      const fx = cam.target.x - cam.position.x, fz = cam.target.z - cam.position.z, l = Math.hypot(fx, fz);
      return [0.9 * h * fz / l, 0, -0.9 * h * fx / l];
    };
    await sb.use(method);
    sb.step(30);
    const r = await sb.exportMotion({ seconds, fps, format: "glb" });
    const back = await window.sandboxDebug.playMotion(r.file, times.map((i) => i / fps), beside(height));
    sb.resume();
    const { file, ...result } = r;
    return { result, back, size: file.size, type: file.type };
  }, { method: METHOD, seconds: SECONDS, fps: FPS, times: TIMES, height });
  log(`exportMotion: ${JSON.stringify(check.result)}`);
  assert.equal(check.result.frames, SECONDS * FPS + 1);
  assert.equal(check.size, check.result.bytes);
  assert.equal(check.type, "model/gltf-binary");
  assert.equal(check.back.bones, check.result.bones, "the loaded skeleton's bones");
  assert.ok(Math.abs(check.back.seconds - SECONDS) < 1e-4, `the loaded clip lasts ${check.back.seconds} s`);
  assert.equal(check.back.clip, "wind");
  let moved = 0;
  for (let j = 0; j < TIMES.length; j++) {
    const p = check.back.poses[j], q = probes[TIMES[j]];
    let worst = 0;
    for (let i = 0; i < q.length; i += 3) worst = Math.max(worst, Math.hypot(p[i] - q[i], p[i + 1] - q[i + 1], p[i + 2] - q[i + 2]));
    for (let i = 0; i < q.length; i++) moved = Math.max(moved, Math.abs(q[i] - probes[0][i]));
    log(`frame ${TIMES[j]}: tips within ${(100 * worst / height).toFixed(3)} % of the tree's height (${(worst * 1000).toFixed(1)} mm)`);
    assert.ok(worst < 0.01 * height, `frame ${TIMES[j]}: a tip ${worst.toFixed(3)} m from the method's`);
  }
  log(`the tips moved up to ${(moved * 1000).toFixed(0)} mm over the clip`);
  assert.ok(moved > 0.01 * height, "the motion is too small to tell frames apart");
  await frames(page, 3);
  await shot("export-api-playing");

  // The panel: Export motion (10 s at 30 fps by default) with the mouse, a progress bar, a download.
  const downloaded = page.waitForEvent("download", { timeout: 120_000 });
  await clickControl(page, "export.run");
  const p = await until(() => page.evaluate(() => window.sandbox.exportProgress()), { timeout: 20_000, interval: 20, message: "the export's progress" });
  log(`progress: ${JSON.stringify(p)}`);
  await shot("export-progress");
  const download = await downloaded;
  const path = await download.path();
  const bytes = readFileSync(path);
  log(`download: ${download.suggestedFilename()}, ${bytes.length} bytes`);
  assert.match(download.suggestedFilename(), /^demo-spectral-beam-10s\.glb$/);
  assert.equal(bytes.subarray(0, 4).toString("latin1"), "glTF");
  await until(() => page.evaluate(() => window.sandbox.exportProgress() === null), { timeout: 60_000, message: "the export to finish" });
  // Loaded back as a person would: dropped on the view, it plays beside the tree on the sandbox's
  // clock (not imported as a tree: the demo tree stays), the panel saying which file.
  await page.evaluate(() => window.sandbox.use("rest"));
  await page.evaluate(async ({ b64, name }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
    const canvas = document.querySelector("canvas");
    for (const type of ["dragenter", "dragover", "drop"]) canvas.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true, clientX: 700, clientY: 360 }));
    await window.sandboxDebug.grammarFileSettled();
  }, { b64: bytes.toString("base64"), name: download.suggestedFilename() });
  const playing = await until(() => page.evaluate(() => window.sandbox.motionPlaying()), { timeout: 30_000, message: "the dropped export playing" });
  log(`dropped back: ${JSON.stringify(playing)}`);
  assert.equal(playing.name, download.suggestedFilename());
  assert.equal(playing.clip, "wind");
  assert.ok(Math.abs(playing.seconds - 10) < 1e-4, `the clip lasts ${playing.seconds} s`);
  assert.equal(await page.evaluate(() => window.sandboxDebug.tree().name), "demo", "the dropped motion replaced the tree");
  assert.match(await page.evaluate(() => window.sandboxDebug.panelText("export.playing")), /^Playing demo-spectral-beam-10s\.glb: clip "wind", 10 s/);
  // On the clock: paused, two frames drawn a while apart are the same picture; stepped 0.5 s, the
  // clip (the only thing moving: the tree beside it is under `rest`) has moved.
  await page.evaluate(() => window.sandbox.pause());
  await frames(page, 3);
  const still1 = decodePng(await shot("export-dropped-playing-1"));
  await frames(page, 8);
  const still2 = decodePng(await page.screenshot());
  await page.evaluate(() => window.sandbox.step(30));
  await frames(page, 3);
  const later = decodePng(await shot("export-dropped-playing-2"));
  const same = countDifferentPixels(still1, still2), shifted = countDifferentPixels(still1, later);
  log(`paused: ${same} pixels changed between two frames; after 0.5 s of clock: ${shifted}`);
  assert.equal(same, 0, "the clip moved while the clock was paused (wall-clock playback)");
  assert.ok(shifted > 200, `the clip did not move with the clock (${shifted} pixels changed)`);
  // Taken off with the panel's button; played again through "Play a motion file", the chooser.
  await clickControl(page, "export.stopPlaying");
  await until(() => page.evaluate(() => window.sandbox.motionPlaying() === null), { message: "the motion file taken off" });
  const chooser = page.waitForEvent("filechooser", { timeout: 15_000 });
  await clickControl(page, "export.playFile");
  await (await chooser).setFiles({ name: "again.glb", mimeType: "model/gltf-binary", buffer: bytes });
  await until(() => page.evaluate(() => window.sandbox.motionPlaying()?.name === "again.glb"), { timeout: 30_000, message: "the chosen file playing" });
  assert.deepEqual(errors, []);
  // A file that is no motion: a message saying what one is; the one playing stays.
  const refused = await page.evaluate(async () => window.sandbox.playMotion({ file: new Blob([new Uint8Array([1, 2, 3])]), name: "bad.glb" }).then(() => null, (e) => e.message));
  log(`refused: ${refused}`);
  assert.match(refused, /^bad\.glb: not a motion glTF/);
  assert.equal(await page.evaluate(() => window.sandbox.motionPlaying()?.name), "again.glb");
  assert.ok((await page.evaluate(() => window.sandbox.stats().errors)).some((e) => /^Motion file: bad\.glb/.test(e)), "the panel shows no message");
  await page.evaluate(() => window.sandbox.playMotion(null));
  errors.length = 0; // the refusal above is reported on purpose
}, { timeout: 240_000 });
