// record.exact.fps: frame-exact encoding speed at 1280 x 720 on this machine:
// record({ frameExact: true }) of the Habel-scale tree under spectral-beam in a gale, panel
// hidden, frames per wall-clock second (stepping the clock, drawing, copying into the video canvas
// with its caption, VP8 encoding, WebM muxing). Target: spec/bench/targets.json. Fails when the
// video does not hold every frame asked for.
import { openApp } from "../e2e/helpers.mjs";

export async function runRecordBench(page, url, { seconds = 2, fps = 30, tree = "habel", print = (line) => process.stdout.write(line + "\n"), progress = () => {} } = {}) {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await openApp(page, url, { errors, timeout: 120_000 });
  progress(`recording ${seconds} s at ${fps} fps, frame-exact, 1280 x 720, tree ${tree}`);
  const r = await page.evaluate(async ({ seconds, fps, tree }) => {
    const s = window.sandbox;
    s.pause();
    if (window.sandboxDebug.tree().name !== tree) await s.loadTree({ preset: tree });
    await s.use("spectral-beam");
    s.windPreset("gale");
    s.step(1); // shaders compiled before the clock starts
    const t0 = performance.now();
    const v = await s.record({ seconds, fps, frameExact: true, width: 1280, height: 720 });
    return { ...v, wallS: (performance.now() - t0) / 1000 };
  }, { seconds, fps, tree });
  if (r.frames !== Math.round(seconds * fps) || !(r.bytes > 0)) throw new Error(`record bench: ${r.frames} frames and ${r.bytes} bytes, expected ${Math.round(seconds * fps)} frames`);
  const line = { bench: tree === "habel" ? "record.exact.fps" : `record.exact.fps.${tree}`, value: Math.round((r.frames / r.wallS) * 100) / 100, unit: "frames/s", frames: r.frames, wallS: Math.round(r.wallS * 100) / 100, bytes: r.bytes, width: r.width, height: r.height, method: "spectral-beam", tree };
  print(JSON.stringify(line));
  if (errors.length) throw new Error(`the page reported: ${errors.join("; ")}`);
  return line;
}

/**
 * record.exact.overhead: what recording adds to a frame. The Habel-scale tree under spectral-beam in
 * a gale at 1280 x 720, panel hidden, paused, in one page: the same frames (1 s at 30 fps from the
 * same start, two fixed steps each) drawn without recording (step(2) and a 1-pixel readPixels, so
 * the GPU's work is inside the time, as frame-ratio.mjs times a frame) and recorded frame-exact
 * (record(): the same steps and draws, plus the copy into the video canvas with its caption, the
 * encoder and the muxer). `rounds` times interleaved, the order flipped each round; the figure is
 * the WebM recording's milliseconds per frame over the drawn frame's, `mp4` the same for MP4.
 */
export async function runRecordOverheadBench(page, url, { seconds = 1, fps = 30, rounds = 2, tree = "habel", print = (line) => process.stdout.write(line + "\n"), progress = () => {} } = {}) {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await openApp(page, url, { errors, timeout: 120_000 });
  await page.evaluate(async (tree) => {
    const s = window.sandbox;
    s.pause();
    window.sandboxDebug.setPanelVisible(false);
    if (window.sandboxDebug.tree().name !== tree) await s.loadTree({ preset: tree });
    await s.use("spectral-beam");
    s.windPreset("gale");
    for (let i = 0; i < 5; i++) s.step(1); // shaders compiled, caches warm
  }, tree);
  const formats = await page.evaluate(() => window.sandbox.videoFormats());
  const kinds = ["drawn", ...formats.filter((f) => f.codec).map((f) => f.format)];
  const ms = Object.fromEntries(kinds.map((k) => [k, []]));
  const codecs = {};
  const n = Math.round(seconds * fps);
  for (let r = 0; r < rounds; r++) {
    for (const kind of r % 2 === 0 ? kinds : [...kinds].reverse()) {
      progress(`record overhead, round ${r + 1} of ${rounds}: ${kind}, ${n} frames at 1280 x 720, tree ${tree}`);
      const t = await page.evaluate(async ({ kind, seconds, fps, n }) => {
        const s = window.sandbox;
        await s.use("spectral-beam"); // the clock back at t = 0 from rest: the same frames every time
        s.windPreset("gale");
        const steps = Math.round(60 / fps);
        if (kind === "drawn") {
          const gl = document.querySelector("canvas").getContext("webgl2");
          const px = new Uint8Array(4);
          s.step(0);
          gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
          const t0 = performance.now();
          for (let i = 0; i < n; i++) {
            s.step(i === 0 ? 0 : steps);
            gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
          }
          return { ms: (performance.now() - t0) / n };
        }
        const t0 = performance.now();
        const v = await s.record({ seconds, fps, frameExact: true, width: 1280, height: 720, format: kind });
        if (v.frames !== n) throw new Error(`record overhead bench: ${v.frames} frames for ${n}`);
        return { ms: (performance.now() - t0) / n, codec: v.codec };
      }, { kind, seconds, fps, n });
      ms[kind].push(t.ms);
      if (t.codec) codecs[kind] = t.codec;
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const round = (x, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
  const drawnMs = mean(ms.drawn);
  const line = {
    bench: "record.exact.overhead", value: ms.webm ? round(mean(ms.webm) / drawnMs) : null, unit: "ratio",
    drawnMs: round(drawnMs, 1), recordMs: ms.webm ? round(mean(ms.webm), 1) : null, codec: codecs.webm ?? null,
    mp4: ms.mp4 ? round(mean(ms.mp4) / drawnMs) : null, mp4Ms: ms.mp4 ? round(mean(ms.mp4), 1) : null, mp4Codec: codecs.mp4 ?? null,
    frames: n, rounds, width: 1280, height: 720, method: "spectral-beam", tree,
  };
  print(JSON.stringify(line));
  if (errors.length) throw new Error(`the page reported: ${errors.join("; ")}`);
  return line;
}
