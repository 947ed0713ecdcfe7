// Browser benchmark: the cost of an animation method as a ratio of frame times against the
// same scene standing still ("rest"), measured in one run, interleaved (TOOLCHAIN.md: on
// SwiftShader absolute frame times say little; ratios in one run do).
import { openApp, hidePanel } from "../e2e/helpers.mjs";

/**
 * Milliseconds per `step(1)` (advance one fixed step and render) under method `id` (or several
 * ids side by side), after `warmup` untimed steps, two ways in the same steps:
 *  - `ms`: the whole frame. Each step ends with a 1-pixel readPixels, so the GPU's work is inside
 *    the measurement, not queued behind it;
 *  - `cpuMs`: the main thread's share, the `step(1)` call alone (the method's update, Babylon's
 *    scene walk, uniform and buffer uploads, the draw calls issued), without waiting for the GPU.
 *    The readPixels of the step before leaves the GPU idle when a step starts, so no step waits
 *    on the GPU's queue either. On a real GPU this share is what limits the frame.
 */
export async function timeSteps(page, id, { steps = 60, warmup = 10 } = {}) {
  return page.evaluate(
    async ({ id, steps, warmup }) => {
      const s = window.sandbox;
      await s.use(id);
      s.pause();
      const canvas = document.querySelector("canvas");
      const gl = canvas ? canvas.getContext("webgl2") || canvas.getContext("webgl") : null;
      const px = new Uint8Array(4);
      const sync = () => {
        if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      };
      for (let i = 0; i < warmup; i++) s.step(1);
      sync();
      let cpu = 0;
      const t0 = performance.now();
      for (let i = 0; i < steps; i++) {
        const c0 = performance.now();
        s.step(1);
        cpu += performance.now() - c0;
        sync();
      }
      return { ms: (performance.now() - t0) / steps, cpuMs: cpu / steps };
    },
    { id, steps, warmup },
  );
}

/**
 * Frame-time ratio of `method` to `baseline`, `rounds` times interleaved (the order flips
 * each round so drift cancels), with the GPU waited for (`value`, from `ms`) and the main
 * thread's share alone (`cpuValue`, from `cpuMs`). Returns { value, restMs, methodMs, cpuValue,
 * restCpuMs, methodCpuMs, restRounds, methodRounds }.
 */
export async function measureFrameRatio(page, { method = "procedural-wind", baseline = "rest", steps = 60, rounds = 3, warmup = 10 } = {}) {
  const rest = [];
  const animated = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? [baseline, method] : [method, baseline];
    for (const id of order) {
      const t = await timeSteps(page, id, { steps, warmup });
      (id === baseline ? rest : animated).push(t);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const restMs = mean(rest.map((t) => t.ms));
  const methodMs = mean(animated.map((t) => t.ms));
  const restCpuMs = mean(rest.map((t) => t.cpuMs));
  const methodCpuMs = mean(animated.map((t) => t.cpuMs));
  return {
    value: methodMs / restMs, restMs, methodMs, cpuValue: methodCpuMs / restCpuMs, restCpuMs, methodCpuMs,
    restRounds: rest.map((t) => t.ms), methodRounds: animated.map((t) => t.ms),
  };
}

const round3 = (x) => Math.round(x * 1000) / 1000;

/**
 * Opens the app at `url` in `page`, hides the panel, loads `tree`, and prints two JSON lines per
 * method: {"bench":"<id>.frame.ratio","value":r,"unit":"ratio","restMs":..,"methodMs":..,...}
 * (the GPU waited for) and "<id>.frame.cpu.ratio" (the main thread's share alone; restMs and
 * methodMs there are the main thread's milliseconds per step, addedMs the method's own).
 * `methods`: ids, or "all" for every animator but the baseline. `print` receives each line.
 */
export async function runFrameRatioBench(page, url, { methods = ["procedural-wind"], tree = "habel", steps = 60, rounds = 3, baseline = "rest", print = (line) => process.stdout.write(line + "\n"), progress = () => {} } = {}) {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await openApp(page, url, { errors, timeout: 120_000 });
  await hidePanel(page); // the GUI costs ~20 ms a frame on SwiftShader
  progress(`loading tree "${tree}"`);
  const summary = await page.evaluate((preset) => window.sandbox.loadTree({ preset }), tree);
  const ids = methods === "all" ? (await page.evaluate(() => window.sandbox.animators().map((a) => a.id))).filter((id) => id !== baseline) : methods;
  const results = [];
  for (const id of ids) {
    progress(`measuring ${id} against ${baseline}: ${rounds} rounds of ${steps} steps`);
    const r = await measureFrameRatio(page, { method: id, baseline, steps, rounds });
    const context = { tree, vertices: summary && summary.vertices, branches: summary && summary.branches, steps, rounds, viewport: page.viewportSize() };
    const frame = { bench: `${id}.frame.ratio`, value: round3(r.value), unit: "ratio", restMs: round3(r.restMs), methodMs: round3(r.methodMs), ...context };
    const cpu = { bench: `${id}.frame.cpu.ratio`, value: round3(r.cpuValue), unit: "ratio", restMs: round3(r.restCpuMs), methodMs: round3(r.methodCpuMs), addedMs: round3(r.methodCpuMs - r.restCpuMs), ...context };
    for (const line of [frame, cpu]) {
      print(JSON.stringify(line));
      results.push(line);
    }
  }
  return results;
}

/**
 * compare.4.frame.ratio: the frame time with four methods side by side over
 * the mean frame time of the same four methods each alone, interleaved over `rounds` (the
 * order flips each round). Prints one JSON line.
 */
export async function runCompareBench(page, url, { methods = ["spectral-beam", "procedural-wind", "lsystem-particles", "mass-spring"], tree = "habel", steps = 30, rounds = 2, print = (line) => process.stdout.write(line + "\n"), progress = () => {} } = {}) {
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await openApp(page, url, { errors, timeout: 120_000 });
  await hidePanel(page);
  await page.evaluate((preset) => window.sandbox.loadTree({ preset }), tree);
  const quad = [], single = [];
  for (let r = 0; r < rounds; r++) {
    progress(`compare: round ${r + 1} of ${rounds}, ${steps} steps each`);
    const runQuad = async () => quad.push((await timeSteps(page, methods, { steps })).ms);
    const runSingles = async () => {
      const ms = [];
      for (const id of methods) ms.push((await timeSteps(page, id, { steps })).ms);
      single.push(ms.reduce((a, b) => a + b, 0) / ms.length);
    };
    if (r % 2 === 0) {
      await runSingles();
      await runQuad();
    } else {
      await runQuad();
      await runSingles();
    }
  }
  await page.evaluate(() => window.sandbox.use("spectral-beam"));
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const line = { bench: "compare.4.frame.ratio", value: round3(mean(quad) / mean(single)), unit: "ratio", fourViewsMs: round3(mean(quad)), oneViewMs: round3(mean(single)), methods, tree, steps, rounds, viewport: page.viewportSize() };
  print(JSON.stringify(line));
  if (errors.length) throw new Error(`the page reported: ${errors.join("; ")}`);
  return line;
}
