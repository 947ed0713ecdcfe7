// npm run bench: every figure as one JSON line on stdout ({"bench", "value", "unit", ...}, plus
// "target", "direction" and "met" from spec/bench/targets.json where the figure has a target);
// progress, build and jest output go to stderr, and at the end the figures against their targets.
//  1. the jest "bench" project (spec/bench/*.bench.ts; those tests print their own JSON lines);
//  2. the browser bench (spec/bench/frame-ratio.mjs): the production build in Chromium, panel
//     hidden, the Habel-scale tree, frame time of every method over "rest", interleaved in one
//     run: <id>.frame.ratio (the GPU waited for) and <id>.frame.cpu.ratio (the main thread's share);
//     then compare.4.frame.ratio (four views over one), and record.exact.fps
//     (spec/bench/record-fps.mjs), frame-exact video encoding speed, and export.motion.habel.s / .mb
//     (spec/bench/export-motion.mjs), 10 s at 30 fps of the motion baked and written as a glTF.
//
// Options (after `npm run bench --`):
//   --check             exit 1 when a figure misses its target in spec/bench/targets.json, a figure
//                       named there for the parts that ran was not printed, or a printed figure is
//                       not named there (spec/bench/check.cjs); every figure is printed regardless
//   --methods a,b|all   methods for the frame ratios (default all)
//   --tree NAME         tree preset (default habel)
//   --steps N --rounds N  steps per measurement (60) and interleaved rounds (3)
//   --no-jest | --no-browser   skip one part;  --no-record   skip record.exact.fps and .overhead;
//   --no-frame   skip the frame ratios (`--no-jest --no-frame --no-compare`: the video figures only);
//   --no-compare   skip compare.4.frame.ratio (four methods side by side over each alone)
//   --no-forest    skip forest.frame.ratio and forest.cpu.10000.ms (spec/bench/forest.mjs)
//   --no-export    skip export.motion.habel.s / .mb
//   --root DIR          serve DIR instead of (building) dist/
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { build, isStale, stopBuild } from "./build.mjs";
import { startServer, repoRoot, distDir } from "./serve.mjs";
import { launchChromium } from "./browser.mjs";
import { runCompareBench, runFrameRatioBench } from "../spec/bench/frame-ratio.mjs";
import { runForestBench } from "../spec/bench/forest.mjs";
import { runRecordBench, runRecordOverheadBench } from "../spec/bench/record-fps.mjs";
import { runExportBench } from "../spec/bench/export-motion.mjs";

const require = createRequire(import.meta.url);
const { loadTargets, annotate, expectedFigures, checkFigures, formatCheck } = require("../spec/bench/check.cjs");
const note = (s) => process.stderr.write(s + "\n");

const targets = loadTargets();
/** Every figure printed so far (the annotated lines). */
const printed = [];
/** Prints one figure's JSON line to stdout with its target added, and keeps it for the check. */
function emit(text) {
  const parsed = JSON.parse(text);
  if (typeof parsed.bench !== "string") return void process.stdout.write(text + "\n");
  const line = annotate(parsed, targets);
  printed.push(line);
  process.stdout.write(JSON.stringify(line) + "\n");
}

function parseArgs(argv) {
  const o = { methods: "all", tree: "habel", steps: 60, rounds: 3, jest: true, browser: true, record: true, compare: true, exportMotion: true, forest: true, frames: true, root: null, check: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--methods") {
      const v = value();
      o.methods = v === "all" ? "all" : v.split(",").filter(Boolean);
    } else if (a === "--tree") o.tree = value();
    else if (a === "--steps") o.steps = Number(value());
    else if (a === "--rounds") o.rounds = Number(value());
    else if (a === "--no-jest") o.jest = false;
    else if (a === "--no-browser") o.browser = false;
    else if (a === "--no-record") o.record = false;
    else if (a === "--no-frame") o.frames = false;
    else if (a === "--no-compare") o.compare = false;
    else if (a === "--no-export") o.exportMotion = false;
    else if (a === "--no-forest") o.forest = false;
    else if (a === "--root") o.root = resolve(value());
    else if (a === "--check") o.check = true;
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

function isJsonLine(line) {
  const t = line.trim();
  if (!t.startsWith("{")) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

function runJest() {
  const jest = require.resolve("jest/bin/jest", { paths: [repoRoot] });
  note("jest --selectProjects bench");
  return new Promise((ok) => {
    const child = spawn(process.execPath, [jest, "--selectProjects", "bench", "--runInBand", "--passWithNoTests"], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
    // Keep stdout to JSON lines: jest's own chatter ("Running one project: bench") goes to stderr.
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => (isJsonLine(line) ? emit(line.trim()) : process.stderr.write(line + "\n")));
    const exited = new Promise((done) => child.on("exit", (code) => done(code ?? 1)));
    const drained = new Promise((done) => lines.on("close", done));
    Promise.all([exited, drained]).then(([code]) => ok(code));
    child.on("error", () => ok(1));
  });
}

let server = null;
let browser = null;
async function cleanup() {
  stopBuild();
  if (browser) await browser.close().catch(() => {});
  if (server) await server.close().catch(() => {});
  browser = server = null;
}
process.on("SIGINT", () => cleanup().then(() => process.exit(130)));
process.on("SIGTERM", () => cleanup().then(() => process.exit(143)));

async function main() {
  const o = parseArgs(process.argv.slice(2));
  let code = 0;
  if (o.jest) {
    const jestCode = await runJest();
    if (jestCode !== 0) {
      note(`jest bench project failed (exit code ${jestCode})`);
      code = 1;
    }
  }
  if (o.browser) {
    try {
      if (!o.root && (await isStale())) await build({ mode: "production", output: "stderr" });
      server = await startServer({ root: o.root ?? distDir, port: 0 });
      browser = await launchChromium({ width: 1280, height: 720 });
      note(`browser bench on ${server.url}`);
      if (o.frames) await runFrameRatioBench(browser.page, server.url, { methods: o.methods, tree: o.tree, steps: o.steps, rounds: o.rounds, print: emit, progress: note });
      if (o.compare) await runCompareBench(browser.page, server.url, { tree: o.tree, print: emit, progress: note });
      if (o.record) {
        await runRecordBench(browser.page, server.url, { print: emit, progress: note });
        await runRecordBench(browser.page, server.url, { tree: "demo", print: emit, progress: note });
        await runRecordOverheadBench(browser.page, server.url, { tree: o.tree, print: emit, progress: note });
      }
      if (o.exportMotion) await runExportBench(browser.page, server.url, { tree: o.tree, print: emit, progress: note });
      if (o.forest) await runForestBench(browser.page, server.url, { print: emit, progress: note });
    } catch (err) {
      // Report what was measured (and what is missing) before failing.
      note(`browser bench failed: ${err && err.stack ? err.stack : err}`);
      code = 1;
    }
    await cleanup();
  }
  const expected = expectedFigures(targets, { jest: o.jest, methods: o.browser && o.frames ? o.methods : null, compare: o.browser && o.compare, record: o.browser && o.record, exportMotion: o.browser && o.exportMotion, forest: o.browser && o.forest });
  const result = checkFigures(printed, targets, expected);
  for (const line of formatCheck(result)) note(line);
  if (o.check && !result.ok) {
    note("bench --check: failed (see above)");
    code = 1;
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    note(err && err.stack ? err.stack : String(err));
    await cleanup();
    process.exit(1);
  },
);
