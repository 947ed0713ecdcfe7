// A tiny end-to-end test runner: `test(name, async ({ page, url, shot, errors }) => ...)`.
//
// Test files (spec/e2e/*.e2e.mjs) register their tests with `test()` when imported; `runTests`
// then runs them one after another. One Chromium per test file; every test gets a fresh page.
// A test that times out or crashes the browser gets the browser relaunched for the next one.
// Screenshots go to spec/e2e/out/<name>.png through `shot(name)`.
import { mkdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { trackErrors } from "../../scripts/browser.mjs";

const registered = [];
let currentFile = "(inline)";

/**
 * Registers a test. `fn` receives { page, url, shot, errors, log }:
 *  - page: a fresh playwright Page (viewport 1280 x 720 unless the runner was told otherwise);
 *  - url: the base URL of the served build, ending with "/";
 *  - shot(name): saves a screenshot of the page to spec/e2e/out/<name>.png, resolves to the PNG bytes;
 *  - errors: console errors and uncaught exceptions of this page so far (strings);
 *  - log(...): prints a line under the test's name.
 * Options: { timeout } in ms (default: the runner's, 120 s).
 */
export function test(name, fn, options = {}) {
  if (typeof name !== "string" || typeof fn !== "function") throw new TypeError("test(name, async (ctx) => { ... })");
  registered.push({ name, fn, file: currentFile, timeout: options.timeout });
}

/** Imports the test files in order and returns the tests they registered. */
export async function collectTests(files) {
  registered.length = 0;
  for (const file of files) {
    currentFile = file;
    await import(pathToFileURL(file).href);
  }
  currentFile = "(inline)";
  return registered.splice(0);
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function indent(text, pad = "      ") {
  return String(text)
    .split("\n")
    .map((l) => pad + l)
    .join("\n");
}

/**
 * Runs tests sequentially. `launch()` must resolve to a browser like scripts/browser.mjs's
 * launchChromium() gives ({ newPage, close, context }). Returns { passed, failed, results }.
 * Never throws for a failing test; prints progress to `out` (default: stdout).
 */
export async function runTests(tests, { url, launch, outDir, timeout = 120_000, grep = null, out = (s) => process.stdout.write(s + "\n"), cwd = process.cwd() }) {
  await mkdir(outDir, { recursive: true });
  const results = [];
  let browser = null;
  let browserFile = null;
  const closeBrowser = async () => {
    if (browser) await browser.close().catch(() => {});
    browser = null;
  };
  try {
    for (const t of tests) {
      if (grep && !grep.test(t.name)) continue;
      if (t.file !== browserFile) {
        await closeBrowser();
        browserFile = t.file;
        out(`\n${relative(cwd, t.file)}`);
      }
      const started = Date.now();
      const result = { name: t.name, file: t.file, ok: false, ms: 0, error: null };
      const errors = [];
      const logs = [];
      let page = null;
      let timedOut = false;
      try {
        if (!browser) browser = await launch();
        page = await browser.newPage();
        trackErrors(page, errors);
        const ctx = {
          page,
          url,
          errors,
          log: (...args) => logs.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")),
          shot: async (name) => {
            const safe = String(name).replace(/[^A-Za-z0-9._-]+/g, "-");
            return page.screenshot({ path: join(outDir, `${safe}.png`) });
          },
        };
        const limit = t.timeout ?? timeout;
        let timer;
        const run = Promise.resolve().then(() => t.fn(ctx));
        run.catch(() => {}); // a late rejection after a timeout is not unhandled
        await Promise.race([
          run.finally(() => clearTimeout(timer)),
          new Promise((_, fail) => {
            timer = setTimeout(() => {
              timedOut = true;
              fail(new Error(`timed out after ${seconds(limit)}`));
            }, limit);
          }),
        ]);
        result.ok = true;
      } catch (err) {
        result.error = err;
      }
      result.ms = Date.now() - started;
      if (page) {
        await Promise.race([page.close().catch(() => {}), new Promise((ok) => setTimeout(ok, 5000))]);
      }
      // A timed-out test may have left the page hung; a dead browser is no use to the next test.
      if (timedOut || (browser && browser.context && !browser.context.browser()?.isConnected())) await closeBrowser();
      results.push(result);
      const mark = result.ok ? "✓" : "✗";
      out(`  ${mark} ${t.name} (${seconds(result.ms)})`);
      for (const l of logs) out(indent(l));
      if (!result.ok) {
        const e = result.error;
        out(indent(e && e.stack ? e.stack : String(e)));
        if (errors.length) out(indent(`console errors on the page:\n${errors.map((x) => "  " + x).join("\n")}`));
      }
    }
  } finally {
    await closeBrowser();
  }
  const passed = results.filter((r) => r.ok).length;
  return { passed, failed: results.length - passed, results };
}
