// A tiny end-to-end test runner: `test(name, async ({ page, url, shot, errors }) => ...)`.
//
// Test files (spec/e2e/*.e2e.mjs) register their tests with `test()` when imported; `runTests`
// then runs them one after another. One Chromium per test file; every test gets a fresh page.
// A test that times out or crashes the browser gets the browser relaunched for the next one.
// Screenshots go to spec/e2e/out/<name>.png through `shot(name)`.
// Fails fast: when Chromium cannot be launched the run stops there (every later test would fail
// the same way), and past `deadline` no further test starts (each one left is reported as failed).
// Child processes a test starts with `ctx.spawn` are killed, with their children, when it ends.
import { spawn as spawnChild } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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
 *  - log(...): prints a line under the test's name;
 *  - spawn(command, args, options): node's child_process.spawn, but the child and everything it
 *    started (a CLI's Chromium) are killed when the test ends or times out.
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
export async function runTests(tests, { url, launch, outDir, timeout = 120_000, deadline = Infinity, grep = null, out = (s) => process.stdout.write(s + "\n"), cwd = process.cwd() }) {
  await mkdir(outDir, { recursive: true });
  const results = [];
  let browser = null;
  let browserFile = null;
  const closeBrowser = async () => {
    if (browser) await browser.close().catch(() => {});
    browser = null;
  };
  try {
    let stopped = null;
    for (const t of tests) {
      if (grep && !grep.test(t.name)) continue;
      if (!stopped && Date.now() >= deadline) stopped = `not run: the end-to-end run's deadline passed`;
      if (stopped) {
        results.push({ name: t.name, file: t.file, ok: false, ms: 0, error: new Error(stopped), skipped: true });
        continue;
      }
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
      const children = new Set();
      try {
        if (!browser) {
          try {
            browser = await launch();
          } catch (err) {
            stopped = `not run: Chromium could not be launched (${String(err && err.message ? err.message : err).split("\n")[0]})`;
            throw err;
          }
        }
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
          spawn: (command, args = [], options = {}) => {
            const child = spawnChild(command, args, options);
            children.add(child);
            child.on("exit", () => children.delete(child));
            return child;
          },
        };
        const limit = Math.max(1000, Math.min(t.timeout ?? timeout, deadline - Date.now()));
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
      for (const child of children) killTree(child.pid);
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
  const skipped = results.filter((r) => r.skipped);
  if (skipped.length) out(`\n${skipped.length} test(s) ${skipped[0].error.message}`);
  const passed = results.filter((r) => r.ok).length;
  return { passed, failed: results.length - passed, results };
}

/** The pids of `pid`'s descendants (Linux /proc; empty elsewhere). */
function descendants(pid) {
  const parentOf = new Map();
  let entries = [];
  try {
    entries = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  for (const d of entries) {
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(d), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (p) => {
    for (const [child, parent] of parentOf) {
      if (parent !== p) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** Kills a process and everything under it (SIGKILL: a test that ended has no use for them). */
export function killTree(pid) {
  if (!pid) return;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
