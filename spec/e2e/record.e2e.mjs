// Videos and pictures. Frame-exact (the clock stepped frame by frame; WebCodecs and mediabunny) in
// WebM and MP4 (or MP4's refusal, naming WebM, where the browser cannot encode any of its codecs):
// exactly fps x seconds frames, decoded back with mediabunny, the same seed twice giving the same
// frames; real time: a file as long as what was recorded that plays at the asked size; the panel's
// format choice, Record button and Save picture clicked with the mouse; screenshot()'s size and the
// panel left out of the picture; the command-line recorder writing an MP4 and a PNG sequence.
import { readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "./runner.mjs";
import { assert, openApp, clickControl, dragSlider, frames, until } from "./helpers.mjs";
import { countDifferentPixels, decodePng } from "./png.mjs";

/** Frame-exact 1 s at 20 fps of spectral-beam on the demo tree in a gale from t = 0, 320 x 180; returns the result and the video decoded back. */
async function oneSecond(page, format) {
  return page.evaluate(async (format) => {
    const s = window.sandbox;
    s.pause();
    if (window.sandboxDebug.tree().name !== "demo") await s.loadTree({ preset: "demo" });
    await s.use("spectral-beam");
    s.windPreset("gale");
    const r = await s.record({ seconds: 1, fps: 20, frameExact: true, width: 320, height: 180, format });
    const d = await window.sandboxDebug.decodeVideo();
    const played = await window.sandboxDebug.playVideo();
    return { r, d, played };
  }, format);
}

const maxThumbDiff = (a, b) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) for (let k = 0; k < a[i].length; k++) m = Math.max(m, Math.abs(a[i][k] - b[i][k]));
  return m;
};

const meanThumbDiff = (a, b) => {
  let sum = 0, n = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) for (let k = 0; k < a[i].length; k++, n++) sum += Math.abs(a[i][k] - b[i][k]);
  return sum / n;
};

/** Runs `node args` through the test's spawn (killed if the test times out); resolves with its exit code and output. */
function run(spawn, args) {
  return new Promise((ok) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("exit", (code) => ok({ code, text }));
  });
}

test("video: frame-exact WebM and MP4 hold exactly fps x seconds frames that decode; the same seed twice gives the same frames", async ({ page, url, errors, log }) => {
  // A smaller window draws faster in software; the video's own size is set in oneSecond.
  await page.setViewportSize({ width: 640, height: 360 });
  await openApp(page, url, { errors });
  const formats = await page.evaluate(() => window.sandbox.videoFormats());
  log(`this browser: ${formats.map((f) => f.codec ? f.label : `${f.format}: ${f.problem}`).join("; ")}`);
  const webm = formats.find((f) => f.format === "webm"), mp4 = formats.find((f) => f.format === "mp4");
  assert.ok(webm.codec, "WebM can be encoded (VP8, VP9 or AV1)");

  const first = await oneSecond(page, "webm");
  log(`WebM: ${JSON.stringify(first.r)}; decoded ${first.d.decoded} of ${first.d.frames} frames, ${first.d.codecString}, ${first.d.width} x ${first.d.height}, ${first.d.durationMs} ms; played ${JSON.stringify(first.played)}`);
  assert.equal(first.r.format, "webm");
  assert.equal(first.r.mime, "video/webm");
  assert.equal(first.d.container, "webm");
  assert.equal(first.d.codec, webm.codec, "the codec the browser said it would use");
  assert.equal(first.d.codecString, first.r.codec, "record() reports the codec string in the file");
  assert.equal(first.r.frames, 20);
  assert.equal(first.d.frames, 20);
  assert.equal(first.d.decoded, 20);
  assert.deepEqual([first.d.width, first.d.height], [320, 180]);
  assert.ok(Math.abs(first.d.durationMs - 1000) < 1, `duration ${first.d.durationMs} ms`);
  // Chromium's own demuxer (the <video> element), independent of mediabunny: size and length.
  assert.deepEqual([first.played.width, first.played.height], [320, 180]);
  assert.ok(Math.abs(first.played.duration - 1) < 0.05, `the browser reads the video as ${first.played.duration} s long, not 1 s`);
  assert.match(first.r.caption, /spectral-beam · gale, wind 1[89]\.\d m\/s toward 0° · seed 1 · demo/);
  // The tree moves: the first and last frames differ by more than two runs of the same frame may.
  const motion = maxThumbDiff([first.d.thumbs[0]], [first.d.thumbs[19]]);
  log(`first to last frame: ${motion} grey levels`);
  assert.ok(motion > 2, `the video shows no motion (first and last frames differ by ${motion} grey levels)`);
  const second = await oneSecond(page, "webm");
  const diff = maxThumbDiff(first.d.thumbs, second.d.thumbs);
  log(`same seed twice: largest thumbnail difference ${diff} grey levels; ${first.r.bytes} and ${second.r.bytes} bytes`);
  assert.ok(diff <= 2, "the same seed gives the same frames");

  if (mp4.codec) {
    const m = await oneSecond(page, "mp4");
    log(`MP4: ${JSON.stringify(m.r)}; decoded ${m.d.decoded} of ${m.d.frames} frames, ${m.d.codecString}, ${m.d.durationMs} ms; played ${JSON.stringify(m.played)}`);
    assert.equal(m.r.format, "mp4");
    assert.equal(m.r.mime, "video/mp4");
    assert.equal(m.d.container, "mp4");
    assert.equal(m.d.codec, mp4.codec);
    // The same codec and profile as record() reports (the encoder leaves out informative constraint flags the file sets).
    assert.equal(m.d.codecString.slice(0, 7), m.r.codec.slice(0, 7));
    assert.equal(m.r.frames, 20);
    assert.equal(m.d.frames, 20);
    assert.equal(m.d.decoded, 20);
    assert.deepEqual([m.d.width, m.d.height, m.played.width, m.played.height], [320, 180, 320, 180]);
    assert.ok(Math.abs(m.d.durationMs - 1000) < 1, `duration ${m.d.durationMs} ms`);
    assert.ok(Math.abs(m.played.duration - 1) < 0.05, `the browser reads the MP4 as ${m.played.duration} s long`);
    // The same frames as the WebM, through another codec (both lossy at a small size: a few grey
    // levels apart on average), and closer to each other than to the frames a quarter second on.
    const across = meanThumbDiff(first.d.thumbs, m.d.thumbs), later = meanThumbDiff(first.d.thumbs.slice(5), m.d.thumbs.slice(0, 15));
    log(`MP4 against WebM: mean thumbnail difference ${across.toFixed(2)} grey levels (${later.toFixed(2)} against the frames 5 on)`);
    assert.ok(across <= 4 && across < later, `the MP4 shows other frames than the WebM (${across.toFixed(2)} grey levels apart on average)`);
  } else {
    const refused = await page.evaluate(() => window.sandbox.record({ seconds: 0.1, format: "mp4" }).then(() => "recorded", (e) => e.message));
    log(`MP4 refused: ${refused}`);
    assert.match(refused, /^MP4 needs H\.264, H\.265, VP9 or AV1 encoding, which this browser cannot do: record WebM instead$/);
  }
  // A format that is none is a RangeError naming the two.
  const bad = await page.evaluate(() => window.sandbox.record({ seconds: 1, format: "avi" }).then(() => "recorded", (e) => `${e.name}: ${e.message}`));
  assert.equal(bad, 'RangeError: record(): format must be one of "webm", "mp4"; got "avi"');
  assert.deepEqual(errors, []);
});

test("video: real time gives a file as long as what was recorded; the panel's format, Record and Save picture buttons; screenshot() leaves the panel out", async ({ page, url, shot, errors, log }) => {
  // Drawn faster in software: a smaller window and the demo tree (real time records what the machine manages).
  await page.setViewportSize({ width: 960, height: 540 });
  await openApp(page, url, { hash: "#tree=demo", errors });
  const r = await page.evaluate(() => window.sandbox.record({ seconds: 2, fps: 30, frameExact: false, width: 480, height: 270 }));
  log(`real time: ${JSON.stringify(r)}`);
  // Two seconds of motion, not one frame: frames drawn over about 2 s (at least 5: SwiftShader on a
  // 2-core machine busy with other test runs drew 6 to 10), every one decodes, the picture changes
  // between them, and the file lasts the 2 s recorded less the wait for the first frame.
  const d = await page.evaluate(() => window.sandboxDebug.decodeVideo());
  const played = await page.evaluate(() => window.sandboxDebug.playVideo());
  log(`decoded: ${d.decoded} of ${d.frames} frames, ${d.durationMs} ms, ${d.width} x ${d.height}; played ${JSON.stringify(played)}`);
  assert.ok(r.bytes > 1000, "a non-empty video");
  assert.ok(d.frames >= 5, `only ${d.frames} frames in 2 s of real time`);
  assert.equal(d.frames, r.frames);
  assert.equal(d.decoded, d.frames, "every frame decodes");
  assert.ok(d.durationMs >= 1000 && d.durationMs <= 2000, `the frames span ${d.durationMs} ms, not about 2 s`);
  assert.ok(played.duration >= 1.5 && played.duration <= 2.01, `the file is ${played.duration} s long, not the 2 s recorded (less the first frame's wait)`);
  assert.deepEqual([played.width, played.height], [480, 270]);
  assert.ok(maxThumbDiff([d.thumbs[0]], [d.thumbs[d.thumbs.length - 1]]) > 2, "the first and last frames are the same picture");

  // The panel: MP4 chosen with the mouse, 1 s frame-exact at 30 fps by the Record button (named after the format); the progress line shows meanwhile.
  await page.evaluate(() => window.sandbox.pause());
  const formats = await page.evaluate(() => window.sandbox.videoFormats());
  const mp4 = formats.find((f) => f.format === "mp4");
  assert.equal(await page.evaluate(() => window.sandboxDebug.panelText("video.record.label")), "Record video (.webm download)");
  await clickControl(page, "video.format:mp4");
  if (!mp4.codec) {
    // Greyed, and choosing it says what to record instead.
    await until(() => page.evaluate(() => window.sandbox.stats().errors.some((e) => /MP4 needs .* record WebM instead/.test(e))), { message: "the panel saying MP4 cannot be encoded here" });
    assert.equal(await page.evaluate(() => window.sandboxDebug.panelText("video.record.label")), "Record video (.webm download)");
  } else {
    await until(() => page.evaluate(() => window.sandboxDebug.panelText("video.record.label") === "Record video (.mp4 download)"), { message: "the Record button naming MP4" });
    assert.equal(await page.evaluate(() => window.sandboxDebug.panelText("video.format:mp4.label")), mp4.label, "the choice names the codec");
  }
  await dragSlider(page, "video.seconds", { min: 1, max: 60, from: 5, to: 1 });
  const before = await page.evaluate(() => window.sandboxDebug.lastVideo().then((v) => v?.bytes ?? 0));
  await clickControl(page, "video.record");
  await until(() => page.evaluate(() => document.getElementById("record-overlay").style.display === "block"), { message: "the progress line" });
  await shot("video-recording");
  await until(() => page.evaluate(() => document.getElementById("record-overlay").style.display === "none"), { timeout: 60_000, message: "the recording to end" });
  const made = await page.evaluate(() => window.sandboxDebug.lastVideo().then((v) => ({ frames: v.frames, bytes: v.bytes, frameExact: v.frameExact, format: v.format, codec: v.codec })));
  log(`panel: ${JSON.stringify(made)} (before: ${before} bytes)`);
  assert.equal(made.frames, 30);
  assert.equal(made.frameExact, true);
  assert.equal(made.format, mp4.codec ? "mp4" : "webm");

  // Save picture, clicked: a PNG download of the view without the panel. Caption off (clicked), so
  // the picture is the view as it shows with the panel hidden.
  await clickControl(page, "video.caption:false");
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 }), clickControl(page, "video.picture")]);
  const picture = decodePng(await readFile(await download.path()));
  log(`Save picture: ${download.suggestedFilename()}, ${picture.width} x ${picture.height}`);
  assert.match(download.suggestedFilename(), /^spectral-beam-.*\.png$/);
  const view = await page.evaluate(() => { const c = document.getElementById("view"); return [c.width, c.height]; });
  assert.deepEqual([picture.width, picture.height], view);
  const withPanel = decodePng(await page.screenshot());
  await page.evaluate(() => window.sandboxDebug.setPanelVisible(false));
  await frames(page, 2);
  const withoutPanel = decodePng(await page.screenshot());
  await page.evaluate(() => window.sandboxDebug.setPanelVisible(true));
  const panel = { left: 0, top: 0, width: 300, height: picture.height };
  const area = panel.width * panel.height;
  const asHidden = countDifferentPixels(picture, withoutPanel, 40, panel), asShown = countDifferentPixels(picture, withPanel, 40, panel);
  log(`under the panel: ${asHidden} of ${area} pixels differ from the view with the panel hidden, ${asShown} from the view with it shown`);
  assert.ok(asShown > 0.5 * area, "the picture shows the panel");
  assert.ok(asHidden < 0.02 * area, "the picture is not the view with the panel hidden");

  // screenshot(): the asked size (the view's middle, scaled), the caption when asked, a RangeError out of range.
  const api = await page.evaluate(async () => {
    const png = await window.sandbox.screenshot({ width: 320, height: 320, caption: true });
    const bytes = new Uint8Array(await png.arrayBuffer());
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    const bad = await window.sandbox.screenshot({ width: 8 }).then(() => "taken", (e) => `${e.name}: ${e.message}`);
    return { type: png.type, base64: window.btoa(bin), bad, panelVisible: window.sandboxDebug.panelVisible() };
  });
  const small = decodePng(Buffer.from(api.base64, "base64"));
  log(`screenshot({ width: 320, height: 320, caption: true }): ${api.type}, ${small.width} x ${small.height}; ${api.bad}`);
  assert.equal(api.type, "image/png");
  assert.deepEqual([small.width, small.height], [320, 320]);
  assert.equal(api.bad, "RangeError: screenshot(): width must be a whole number of pixels from 16 to 7680; got 8");
  assert.equal(api.panelVisible, true, "the panel is back after the picture");
  await frames(page, 2);
  assert.deepEqual(errors, []);
});

test("video: npm run record writes an MP4 (two methods side by side) and a PNG sequence", async ({ page, url, errors, log, spawn }) => {
  const out = join(tmpdir(), `record-e2e-${process.pid}.mp4`), dir = join(tmpdir(), `record-e2e-${process.pid}-frames`);
  const common = ["--preset", "storm", "--seconds", "0.5", "--fps", "8", "--width", "320", "--height", "180", "--tree", "demo"];
  const mp4Args = ["scripts/record.mjs", "--method", "procedural-wind,spectral-beam", "--format", "mp4", ...common];
  const pngArgs = ["scripts/record.mjs", "--method", "spectral-beam", "--png-sequence", dir, ...common];
  await rm(dir, { recursive: true, force: true });
  // The two runs at once: each waits on its own Chromium.
  const [video, pictures] = await Promise.all([run(spawn, [...mp4Args, "--out", out]), run(spawn, pngArgs)]);
  log(`node ${mp4Args.join(" ")} --out ${out}\n${video.text.trim()}`);
  log(`node ${pngArgs.join(" ")}\n${pictures.text.trim()}`);
  await openApp(page, url, { errors });
  const canMp4 = (await page.evaluate(() => window.sandbox.videoFormats())).find((f) => f.format === "mp4").codec !== null;
  if (canMp4) {
    assert.equal(video.code, 0);
    assert.match(video.text, /procedural-wind \| spectral-beam · storm/, "the caption names both methods and the preset");
    const bytes = await readFile(out);
    const d = await page.evaluate((b64) => window.sandboxDebug.decodeVideo(b64), bytes.toString("base64"));
    log(`decoded ${d.container} ${d.codecString}: ${d.decoded} of ${d.frames} frames, ${d.width} x ${d.height}`);
    assert.equal(d.container, "mp4");
    assert.equal(d.frames, 4);
    assert.equal(d.decoded, 4);
    assert.deepEqual([d.width, d.height], [320, 180]);
  } else {
    assert.equal(video.code, 1);
    assert.match(video.text, /MP4 needs .* record WebM instead/);
  }
  await rm(out, { force: true });
  assert.equal(pictures.code, 0);
  const names = (await readdir(dir)).sort();
  assert.deepEqual(names, ["frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png"]);
  const pngs = await Promise.all(names.map(async (n) => decodePng(await readFile(join(dir, n)))));
  await rm(dir, { recursive: true, force: true });
  for (const p of pngs) assert.deepEqual([p.width, p.height], [320, 180]);
  const moved = countDifferentPixels(pngs[0], pngs[3]);
  log(`PNG sequence: ${names.length} frames; first to last: ${moved} pixels differ`);
  assert.ok(moved > 50, "the frames show the tree moving");
  assert.deepEqual(errors, []);
});
