// npm run test:e2e: build the production bundle, serve it on a free port, and run every
// spec/e2e/*.e2e.mjs in real Chromium (SwiftShader WebGL). Ends with the line
// "N passed, N failed" and exits 1 on any failure.
//
// Options (after `npm run test:e2e --`):
//   --no-build          serve the dist/ already there
//   --root DIR          serve DIR instead of building dist/ (implies --no-build)
//   --specs DIR         look for *.e2e.mjs in DIR instead of spec/e2e
//   --grep REGEX        run only the tests whose name matches
//   --timeout SECONDS   per-test time limit (default 120, or E2E_TIMEOUT_S)
//   --deadline SECONDS  no test starts after this long (default 4200, or E2E_DEADLINE_S); the
//                       ones left count as failed. The e2e part took about 3,000 s on this 2-core
//                       machine on 2026-11-27 (1,500 s two days before; README, "Tests"): the
//                       deadline leaves room for a busier machine and still stops a run that has
//                       gone wrong inside CI's 90 minutes
//
// Before any test it finds Chromium (installing it when it may: scripts/ensure-chromium.mjs) and
// checks that the app comes up in it with WebGL 2; if either fails it stops there with the reason.
//   FILE...             run only these test files (or those whose name contains FILE)
import { readdir, rm } from "node:fs/promises";
import { join, resolve, basename } from "node:path";
import { build, stopBuild } from "./build.mjs";
import { startServer, repoRoot, distDir } from "./serve.mjs";
import { launchChromium } from "./browser.mjs";
import { ensureChromium } from "./ensure-chromium.mjs";
import { collectTests, runTests } from "../spec/e2e/runner.mjs";

function parseArgs(argv) {
  const opts = { build: true, root: distDir, specs: join(repoRoot, "spec", "e2e"), grep: null, timeoutS: Number(process.env.E2E_TIMEOUT_S ?? 120), deadlineS: Number(process.env.E2E_DEADLINE_S ?? 4200), files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--no-build") opts.build = false;
    else if (a === "--root") {
      opts.root = resolve(value());
      opts.build = false;
    } else if (a === "--specs") opts.specs = resolve(value());
    else if (a === "--grep") opts.grep = new RegExp(value(), "i");
    else if (a === "--timeout") opts.timeoutS = Number(value());
    else if (a === "--deadline") opts.deadlineS = Number(value());
    else if (a.startsWith("-")) throw new Error(`unknown option ${a}`);
    else opts.files.push(a);
  }
  return opts;
}

let server = null;
const browsers = new Set();
let exiting = false;
async function shutdown(code) {
  if (exiting) return;
  exiting = true;
  stopBuild();
  // The runner closes its browsers; on Ctrl-C close what is still open (and delete its profile).
  await Promise.all([...browsers].map((b) => b.close().catch(() => {})));
  if (server) await server.close().catch(() => {});
  process.exit(code);
}
async function launch() {
  const b = await launchChromium({ width: 1280, height: 720 });
  browsers.add(b);
  const close = b.close;
  b.close = () => {
    browsers.delete(b);
    return close();
  };
  return b;
}
process.on("SIGINT", () => shutdown(130));
process.on("SIGTERM", () => shutdown(143));

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const all = (await readdir(opts.specs)).filter((f) => f.endsWith(".e2e.mjs")).sort();
  const picked = opts.files.length ? all.filter((f) => opts.files.some((want) => f === basename(want) || f.includes(want))) : all;
  if (picked.length === 0) throw new Error(`no *.e2e.mjs test files in ${opts.specs}${opts.files.length ? " matching " + opts.files.join(", ") : ""}`);
  const tests = await collectTests(picked.map((f) => join(opts.specs, f)));

  const started = Date.now();
  try {
    console.log(`Chromium: ${ensureChromium({ log: (s) => console.log(s) })}`);
  } catch (err) {
    console.error(`\n${err.message}`);
    console.log(`\n0 passed, ${tests.length} not run`);
    return 1;
  }
  if (opts.build) await build({ mode: "production" });
  server = await startServer({ root: opts.root, port: 0 });
  console.log(`serving ${opts.root} at ${server.url}`);
  const notUp = await preflight(server.url);
  if (notUp) {
    console.error(`\nthe app does not come up in Chromium, so no test can pass: ${notUp}`);
    console.log(`\n0 passed, ${tests.length} not run`);
    return 1;
  }

  const outDir = process.env.E2E_OUT ? resolve(process.env.E2E_OUT) : join(opts.specs, "out");
  await rm(outDir, { recursive: true, force: true });
  const { passed, failed, results } = await runTests(tests, {
    url: server.url,
    launch,
    outDir,
    timeout: opts.timeoutS * 1000,
    deadline: started + opts.deadlineS * 1000,
    grep: opts.grep,
    cwd: repoRoot,
  });
  await server.close();
  server = null;

  console.log("");
  if (failed) console.log(`failed:\n${results.filter((r) => !r.ok).map((r) => `  ${r.name} (${basename(r.file)})`).join("\n")}`);
  console.log(`screenshots in ${outDir}; total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

/**
 * Opens the app once before the tests: null when it comes up with WebGL 2, else why not (Chromium
 * does not start, WebGL 2 is unavailable, the page throws, or window.sandbox never becomes ready).
 */
async function preflight(url) {
  let b = null;
  try {
    b = await launch();
    const page = b.page;
    await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    const gl = await page.evaluate(() => !!document.createElement("canvas").getContext("webgl2"));
    if (!gl) return "WebGL 2 is not available in this Chromium (SwiftShader flags: see scripts/browser.mjs and TOOLCHAIN.md)";
    const ready = await page.evaluate(
      () =>
        new Promise((ok) => {
          const end = Date.now() + 60_000;
          const poll = () => {
            if (window.sandbox && window.sandbox.ready) window.sandbox.ready.then(() => ok(null), (e) => ok(`sandbox.ready rejected: ${e && e.message ? e.message : e}`));
            else if (Date.now() > end) ok("window.sandbox did not appear within 60 s");
            else setTimeout(poll, 100);
          };
          poll();
        }),
    );
    if (ready) return ready + (b.errors.length ? `\npage errors:\n${b.errors.join("\n")}` : "");
    return null;
  } catch (err) {
    return String(err && err.message ? err.message : err) + (b && b.errors.length ? `\npage errors:\n${b.errors.join("\n")}` : "");
  } finally {
    if (b) await b.close();
  }
}

main().then(
  (code) => shutdown(code),
  (err) => {
    console.error(err && err.stack ? err.stack : String(err));
    console.log("0 passed, 1 failed");
    return shutdown(1);
  },
);
