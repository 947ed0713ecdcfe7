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
//   FILE...             run only these test files (or those whose name contains FILE)
import { readdir, rm } from "node:fs/promises";
import { join, resolve, basename } from "node:path";
import { build, stopBuild } from "./build.mjs";
import { startServer, repoRoot, distDir } from "./serve.mjs";
import { launchChromium } from "./browser.mjs";
import { collectTests, runTests } from "../spec/e2e/runner.mjs";

function parseArgs(argv) {
  const opts = { build: true, root: distDir, specs: join(repoRoot, "spec", "e2e"), grep: null, timeoutS: Number(process.env.E2E_TIMEOUT_S ?? 120), files: [] };
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
  if (opts.build) await build({ mode: "production" });
  server = await startServer({ root: opts.root, port: 0 });
  console.log(`serving ${opts.root} at ${server.url}`);

  const outDir = process.env.E2E_OUT ? resolve(process.env.E2E_OUT) : join(opts.specs, "out");
  await rm(outDir, { recursive: true, force: true });
  const { passed, failed, results } = await runTests(tests, {
    url: server.url,
    launch,
    outDir,
    timeout: opts.timeoutS * 1000,
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

main().then(
  (code) => shutdown(code),
  (err) => {
    console.error(err && err.stack ? err.stack : String(err));
    console.log("0 passed, 1 failed");
    return shutdown(1);
  },
);
