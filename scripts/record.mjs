// npm run record: a video of the sandbox from the command line. Builds the app
// when dist/ is stale, serves it on 127.0.0.1, drives it in headless Chromium, records
// frame-exact (the clock stepped frame by frame; WebCodecs and mediabunny) and writes the WebM or
// MP4 file, or a numbered PNG per frame.
//
//   npm run record -- --method spectral-beam --preset gale --seconds 10 --fps 30 --out gale.webm
//   npm run record -- --preset gale --format mp4            (writes spectral-beam-gale.mp4)
//   npm run record -- --preset gale --seconds 2 --png-sequence frames/   (frames/frame-0000.png ...)
//
// Options:
//   --method ID            the method (default spectral-beam); "a,b,c": 2 to 4 methods side by side
//   --preset NAME          a Beaufort preset: calm, light-breeze, fresh-breeze, strong-breeze, gale, storm
//   --timeline TEXT        a wind timeline instead, as in the page address: "loop|0,6,0,0.3;10,20,90,0.5"
//   --tree NAME            a shipped tree (default habel)
//   --seconds S            length (default 10)      --fps N      frames per second (default 30)
//   --width W --height H   video size (default 1280 x 720)
//   --seed N               the wind's seed (default 1)
//   --no-caption           leave the caption out
//   --format webm|mp4      the file (default webm; the codec is the container's first the browser
//                          can encode: VP9, VP8, AV1 for WebM; H.264, H.265, VP9, AV1 for MP4)
//   --out FILE             where to write it (default <method>-<preset>.<format>)
//   --png-sequence DIR     instead of a video, one PNG per frame-exact frame: DIR/frame-0000.png,
//                          frame-0001.png, ... (fps x seconds of them; DIR is made if missing)
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { URLSearchParams } from "node:url";
import { build, isStale, stopBuild } from "./build.mjs";
import { startServer, distDir } from "./serve.mjs";
import { launchChromium } from "./browser.mjs";

function parseArgs(argv) {
  const o = { method: "spectral-beam", preset: null, timeline: null, tree: "habel", seconds: 10, fps: 30, width: 1280, height: 720, seed: 1, caption: true, format: "webm", out: null, pngSequence: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    const number = () => {
      const v = value(), n = Number(v);
      if (!Number.isFinite(n)) throw new Error(`${a} needs a number; got "${v}"`);
      return n;
    };
    if (a === "--method") o.method = value();
    else if (a === "--preset") o.preset = value();
    else if (a === "--timeline") o.timeline = value();
    else if (a === "--tree") o.tree = value();
    else if (a === "--seconds") o.seconds = number();
    else if (a === "--fps") o.fps = number();
    else if (a === "--width") o.width = number();
    else if (a === "--height") o.height = number();
    else if (a === "--seed") o.seed = number();
    else if (a === "--no-caption") o.caption = false;
    else if (a === "--format") o.format = value();
    else if (a === "--out") o.out = value();
    else if (a === "--png-sequence") o.pngSequence = value();
    else if (a === "--help" || a === "-h") {
      console.log("npm run record -- --method spectral-beam --preset gale --seconds 10 --fps 30 [--format mp4] [--out gale.webm | --png-sequence DIR]\n(see scripts/record.mjs for every option)");
      process.exit(0);
    } else throw new Error(`unknown option ${a} (--help lists them)`);
  }
  if (o.preset && o.timeline) throw new Error("--preset and --timeline do not go together: pick one");
  if (!["webm", "mp4"].includes(o.format)) throw new Error(`--format must be webm or mp4; got "${o.format}"`);
  if (o.pngSequence !== null && o.out !== null) throw new Error("--png-sequence DIR writes pictures into DIR: leave --out out");
  if (o.pngSequence !== null) o.pngSequence = resolve(o.pngSequence);
  else o.out = resolve(o.out ?? `${o.method.replace(/,/g, "+")}${o.preset ? "-" + o.preset : o.timeline ? "-timeline" : ""}.${o.format}`);
  return o;
}

let server = null, browser = null;
async function shutdown(code) {
  stopBuild();
  if (browser) await browser.close().catch(() => {});
  if (server) await server.close().catch(() => {});
  process.exit(code);
}
process.on("SIGINT", () => shutdown(130));

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (await isStale()) await build({ mode: "production", output: "stderr" });
  server = await startServer({ root: distDir, port: 0 });
  browser = await launchChromium({ width: o.width, height: o.height });
  const { page, errors } = browser;
  // The timeline goes in the page address, where the page's own parser checks it.
  const hash = new URLSearchParams({ tree: o.tree, method: o.method, seed: String(o.seed), ...(o.timeline ? { timeline: o.timeline } : {}) });
  await page.goto(`${server.url}#${hash}`);
  await page.waitForFunction(() => window.sandbox !== undefined, null, { timeout: 60_000 });
  await page.evaluate(() => window.sandbox.ready);
  if (o.pngSequence) {
    await mkdir(o.pngSequence, { recursive: true });
    // Each frame's PNG comes back as it is made (the page waits for it to be written).
    await page.exposeFunction("treeWindSaveFrame", (i, base64) => writeFile(join(o.pngSequence, `frame-${String(i).padStart(4, "0")}.png`), Buffer.from(base64, "base64")));
  }
  const t0 = Date.now();
  const result = await page.evaluate(async (o) => {
    const s = window.sandbox;
    s.pause();
    window.sandboxDebug.setPanelVisible(false);
    await s.use(o.method.includes(",") ? o.method.split(",") : o.method); // restarts the clock at t = 0
    if (o.preset) s.windPreset(o.preset);
    const refused = s.stats().errors.find((e) => /timeline/.test(e));
    if (o.timeline && !s.windTimeline()) throw new Error(refused ?? "the timeline was not taken");
    const size = { seconds: o.seconds, fps: o.fps, width: o.width, height: o.height, caption: o.caption };
    if (o.pngSequence) return window.sandboxDebug.pngSequence(size, (i, base64) => window.treeWindSaveFrame(i, base64));
    return s.record({ ...size, frameExact: true, format: o.format });
  }, o).catch((e) => {
    throw new Error(String(e.message ?? e).replace(/^page\.evaluate: (Error: )?/, ""));
  });
  const took = `in ${((Date.now() - t0) / 1000).toFixed(1)} s (${result.caption})`;
  if (o.pngSequence) {
    const last = `frame-${String(result.frames - 1).padStart(4, "0")}.png`;
    console.log(`${o.pngSequence}: ${result.frames} PNG frames (frame-0000.png to ${last}), ${result.width} x ${result.height}, ${result.fps} fps, ${took}`);
  } else {
    const video = await page.evaluate(() => window.sandboxDebug.lastVideo());
    await writeFile(o.out, Buffer.from(video.base64, "base64"));
    console.log(`${o.out}: ${result.format.toUpperCase()} ${result.codec}, ${result.frames} frames, ${result.width} x ${result.height}, ${result.fps} fps, ${(result.bytes / 1e6).toFixed(2)} MB ${took}`);
  }
  if (errors.length) console.error(`the page reported:\n  ${errors.join("\n  ")}`);
}

main().then(() => shutdown(0), (e) => {
  console.error(`npm run record: ${e.message ?? e}`);
  shutdown(1);
});
