// Videos. Frame-exact (the clock stepped frame by frame, WebCodecs): exactly
// fps x seconds frames, decoded back by the browser, the same seed twice giving the same frames;
// real time (MediaRecorder): a WebM that plays at the asked size; the panel's Record button; the
// command-line recorder writing a file that decodes.
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "./runner.mjs";
import { assert, openApp, clickControl, dragSlider, frames, until } from "./helpers.mjs";

/** Frame-exact 2 s at 30 fps of spectral-beam on the demo tree in a gale from t = 0; returns the video decoded back. */
async function twoSeconds(page) {
  return page.evaluate(async () => {
    const s = window.sandbox;
    s.pause();
    if (window.sandboxDebug.tree().name !== "demo") await s.loadTree({ preset: "demo" });
    await s.use("spectral-beam");
    s.windPreset("gale");
    const r = await s.record({ seconds: 2, fps: 30, frameExact: true, width: 640, height: 360 });
    const d = await window.sandboxDebug.decodeVideo();
    return { r, d };
  });
}

const maxThumbDiff = (a, b) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) for (let k = 0; k < a[i].length; k++) m = Math.max(m, Math.abs(a[i][k] - b[i][k]));
  return m;
};

test("video: frame-exact 2 s at 30 fps has exactly 60 frames that decode, the same seed twice gives the same frames", async ({ page, url, errors, log }) => {
  // A smaller window draws faster in software; the video's own size is set below.
  await page.setViewportSize({ width: 640, height: 360 });
  await openApp(page, url, { errors });
  const first = await twoSeconds(page);
  log(`record(): ${JSON.stringify(first.r)}; decoded ${first.d.decoded} of ${first.d.frames} frames, ${first.d.width} x ${first.d.height}, ${first.d.durationMs} ms`);
  assert.equal(first.r.frames, 60);
  assert.equal(first.d.frames, 60);
  assert.equal(first.d.decoded, 60);
  assert.deepEqual([first.d.width, first.d.height], [640, 360]);
  assert.ok(Math.abs(first.d.durationMs - 2000) < 1, `duration ${first.d.durationMs} ms`);
  assert.match(first.r.caption, /spectral-beam · gale, wind 1[89]\.\d m\/s toward 0° · seed 1 · demo/);
  // The tree moves: the first and last frames differ by more than two runs of the same frame may.
  const motion = maxThumbDiff([first.d.thumbs[0]], [first.d.thumbs[59]]);
  log(`first to last frame: ${motion} grey levels`);
  assert.ok(motion > 2, `the video shows no motion (first and last frames differ by ${motion} grey levels)`);
  const second = await twoSeconds(page);
  const diff = maxThumbDiff(first.d.thumbs, second.d.thumbs);
  log(`same seed twice: largest thumbnail difference ${diff} grey levels; ${first.r.bytes} and ${second.r.bytes} bytes`);
  assert.ok(diff <= 2, "the same seed gives the same frames");
  // Chromium's own demuxer (the <video> element), independent of the app's readWebm: size and length.
  const played = await page.evaluate(() => window.sandboxDebug.playVideo());
  log(`played: ${JSON.stringify(played)}`);
  assert.deepEqual([played.width, played.height], [640, 360]);
  assert.ok(Math.abs(played.duration - 2) < 0.05, `the browser reads the video as ${played.duration} s long, not 2 s`);
  assert.deepEqual(errors, []);
});

test("video: real time 2 s gives a WebM that plays at the asked size; the panel's button records", async ({ page, url, shot, errors, log }) => {
  // Drawn faster in software: a smaller window and the demo tree (real time records what the machine manages).
  await page.setViewportSize({ width: 960, height: 540 });
  await openApp(page, url, { hash: "#tree=demo", errors });
  const r = await page.evaluate(() => window.sandbox.record({ seconds: 2, fps: 30, frameExact: false, width: 480, height: 270 }));
  log(`real time: ${JSON.stringify(r)}`);
  // Two seconds of motion, not one frame: the file's frames span about 2 s, at least 5 a second
  // even on a software renderer, every one decodes, and the picture changes between them.
  const d = await page.evaluate(async () => window.sandboxDebug.decodeVideo((await window.sandboxDebug.lastVideo()).base64));
  log(`decoded in the browser: ${d.decoded} of ${d.frames} frames, ${d.durationMs} ms, ${d.width} x ${d.height}`);
  assert.ok(r.bytes > 1000, "a non-empty video");
  assert.ok(d.frames >= 10, `only ${d.frames} frames in 2 s of real time`);
  assert.equal(d.decoded, d.frames, "every frame decodes");
  assert.ok(d.durationMs >= 1500 && d.durationMs <= 3000, `the frames span ${d.durationMs} ms, not about 2 s`);
  assert.ok(maxThumbDiff([d.thumbs[0]], [d.thumbs[d.thumbs.length - 1]]) > 2, "the first and last frames are the same picture");
  const played = await page.evaluate(() => window.sandboxDebug.playVideo());
  log(`played: ${JSON.stringify(played)}`);
  assert.deepEqual([played.width, played.height], [480, 270]);
  // The panel: 1 s frame-exact at 30 fps by the Record button; the progress line shows meanwhile.
  await page.evaluate(() => window.sandbox.pause());
  await dragSlider(page, "video.seconds", { min: 1, max: 60, from: 5, to: 1 });
  const before = await page.evaluate(() => window.sandboxDebug.lastVideo().then((v) => v?.bytes ?? 0));
  await clickControl(page, "video.record");
  await until(() => page.evaluate(() => document.getElementById("record-overlay").style.display === "block"), { message: "the progress line" });
  await shot("video-recording");
  await until(() => page.evaluate(() => document.getElementById("record-overlay").style.display === "none"), { timeout: 60_000, message: "the recording to end" });
  const made = await page.evaluate(() => window.sandboxDebug.lastVideo().then((v) => ({ frames: v.frames, bytes: v.bytes, frameExact: v.frameExact })));
  log(`panel: ${JSON.stringify(made)} (before: ${before} bytes)`);
  assert.equal(made.frames, 30);
  assert.equal(made.frameExact, true);
  await frames(page, 2);
  assert.deepEqual(errors, []);
});

test("video: npm run record writes a file that decodes (two methods side by side)", async ({ page, url, errors, log, spawn }) => {
  const out = join(tmpdir(), `record-e2e-${process.pid}.webm`);
  const args = ["scripts/record.mjs", "--method", "procedural-wind,spectral-beam", "--preset", "storm", "--seconds", "1", "--fps", "12", "--width", "320", "--height", "180", "--tree", "demo", "--out", out];
  const run = await new Promise((ok) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("exit", (code) => ok({ code, text }));
  });
  log(`node ${args.join(" ")}\n${run.text.trim()}`);
  assert.equal(run.code, 0);
  assert.match(run.text, /procedural-wind \| spectral-beam · storm/, "the caption names both methods and the preset");
  const bytes = await readFile(out);
  await rm(out, { force: true });
  await openApp(page, url, { errors });
  const d = await page.evaluate((b64) => window.sandboxDebug.decodeVideo(b64), bytes.toString("base64"));
  log(`decoded ${d.decoded} of ${d.frames} frames, ${d.width} x ${d.height}`);
  assert.equal(d.frames, 12);
  assert.equal(d.decoded, 12);
  assert.deepEqual([d.width, d.height], [320, 180]);
  assert.deepEqual(errors, []);
});
