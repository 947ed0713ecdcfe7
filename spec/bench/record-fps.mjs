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
