// Browser benchmark of the forest (Zioma 2007 at scale): forest.frame.ratio, the frame time of 1,000 demo
// trees in a 12 m/s wind over the same forest standing still (its shaders without the motion, no
// wind texture), same camera, interleaved in one run; and forest.cpu.10000.ms, the main thread's
// own forest work per frame with 10,000 trees (the wind texture filled and uploaded, the clock,
// and every tree's level, the culling and the instance buffers as when the camera moves every
// frame). On SwiftShader the first says what a software renderer pays for the vertex shader's
// motion; the second is the CPU's share a GPU would leave.
import { openApp, hidePanel, until } from "../e2e/helpers.mjs";

const round3 = (x) => Math.round(x * 1000) / 1000;

async function timeFrames(page, steps) {
  return page.evaluate((steps) => {
    const s = window.sandbox;
    const canvas = document.querySelector("canvas");
    const gl = canvas.getContext("webgl2") || canvas.getContext("webgl");
    const px = new Uint8Array(4);
    for (let i = 0; i < 5; i++) s.step(1);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const t0 = performance.now();
    for (let i = 0; i < steps; i++) {
      s.step(1);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    }
    return (performance.now() - t0) / steps;
  }, steps);
}

export async function runForestBench(page, url, { steps = 40, rounds = 3, print = (line) => process.stdout.write(line + "\n"), progress = () => {} } = {}) {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await openApp(page, url, { hash: "#method=procedural-wind&tree=demo", errors, timeout: 120_000 });
  await hidePanel(page);
  progress("forest: 1,000 demo trees, in wind and standing still");
  await page.evaluate(() => {
    const s = window.sandbox;
    s.pause();
    s.wind({ speed: 12, gust: 0.3, turbulence: 0.35, direction: 0 });
    s.forest({ trees: 1000, area: 160, seed: 1 });
  });
  const ready = () => until(() => page.evaluate(() => window.sandbox.step(0)), { message: "the forest's shaders", timeout: 120_000 });
  const moving = [], still = [];
  for (let r = 0; r < rounds; r++) {
    for (const s of r % 2 === 0 ? [true, false] : [false, true]) {
      await page.evaluate((s) => window.sandboxDebug.forestBench({ still: s }), s);
      await ready();
      (s ? still : moving).push(await timeFrames(page, steps));
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const info = await page.evaluate(() => window.sandbox.forest());
  const frame = { bench: "forest.frame.ratio", value: round3(mean(moving) / mean(still)), unit: "ratio", stillMs: round3(mean(still)), windMs: round3(mean(moving)), trees: 1000, levels: info.levels, chunks: info.chunks, steps, rounds, viewport: page.viewportSize() };
  print(JSON.stringify(frame));
  progress("forest: the CPU's work per frame for 10,000 trees");
  const cpu = await page.evaluate(() => {
    window.sandbox.forest({ trees: 10000, area: 400, seed: 1 });
    window.sandboxDebug.forestBench({ frames: 20 });
    return window.sandboxDebug.forestBench({ frames: 120 });
  });
  const line = { bench: "forest.cpu.10000.ms", value: round3(cpu.updateMs + cpu.assignMs), unit: "ms", windTextureMs: round3(cpu.updateMs), levelsAndBuffersMs: round3(cpu.assignMs), trees: cpu.trees };
  print(JSON.stringify(line));
  await page.evaluate(() => window.sandbox.forest(null));
  if (errors.length) throw new Error(`the page reported: ${errors.join("; ")}`);
  return [frame, line];
}
