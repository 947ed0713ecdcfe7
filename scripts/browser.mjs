// Launching Debian's Chromium through playwright-core with software WebGL (SwiftShader), as
// TOOLCHAIN.md describes. Shared by the end-to-end tests and the browser benchmark.
import { chromium } from "playwright-core";
import { rmSync } from "node:fs";
import { findChromium, chromiumCandidates } from "./ensure-chromium.mjs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The flags that give WebGL2 on SwiftShader and keep Chromium off the (absent) network. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--ignore-gpu-blocklist",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-default-apps",
  "--disable-domain-reliability",
];

// Profiles still on disk when the process exits (Ctrl-C: playwright kills its browsers and exits).
const liveProfiles = new Set();
process.on("exit", () => {
  for (const dir of liveProfiles) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
});

/** CHROMIUM_PATH, else the first Chromium found in the usual places (scripts/ensure-chromium.mjs). */
export function chromiumPath() {
  const found = findChromium();
  if (!found) throw new Error(`Chromium not found (looked at ${chromiumCandidates().join(", ")}): run \`node scripts/ensure-chromium.mjs\` (installs Debian's chromium as root or with sudo) or set CHROMIUM_PATH`);
  return found;
}

/** Starts collecting a page's console errors and uncaught exceptions into the returned array. */
export function trackErrors(page, into = []) {
  page.on("console", (msg) => {
    if (msg.type() === "error") into.push(`console.error: ${msg.text()}`);
  });
  page.on("pageerror", (err) => into.push(`uncaught: ${err && err.stack ? err.stack : err}`));
  page.on("crash", () => into.push("page crashed"));
  return into;
}

/**
 * Launches a fresh Chromium (its own temporary profile) with a viewport of width x height.
 * Returns { context, page, errors, newPage(), close() }:
 *  - `page`: the first tab; `newPage()` opens another (errors tracked on every page);
 *  - `errors`: console errors and uncaught exceptions of all pages, as strings;
 *  - `close()`: closes the browser and deletes the profile (safe to call twice).
 */
export async function launchChromium({ width = 1280, height = 720, headless = true, extraArgs = [] } = {}) {
  const profile = await mkdtemp(join(tmpdir(), "tree-wind-chromium-"));
  liveProfiles.add(profile);
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      headless,
      viewport: { width, height },
      deviceScaleFactor: 1,
      args: [...CHROMIUM_ARGS, ...extraArgs],
      timeout: 60_000,
    });
  } catch (err) {
    await rm(profile, { recursive: true, force: true });
    liveProfiles.delete(profile);
    throw err;
  }
  const errors = [];
  for (const p of context.pages()) trackErrors(p, errors);
  context.on("page", (p) => trackErrors(p, errors));
  const page = context.pages()[0] ?? (await context.newPage());
  let closing = null;
  return {
    context,
    page,
    errors,
    newPage: () => context.newPage(),
    close() {
      closing ??= (async () => {
        await withTimeout(context.close(), 15_000).catch(() => killBrowser(context));
        await rm(profile, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
        liveProfiles.delete(profile);
      })();
      return closing;
    },
  };
}

function withTimeout(promise, ms) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, fail) => {
      timer = setTimeout(() => fail(new Error("timed out")), ms);
    }),
  ]);
}

/** Last resort when a hung browser will not close: kill its process. */
function killBrowser(context) {
  try {
    const proc = context.browser()?.process?.();
    if (proc && proc.pid) process.kill(proc.pid, "SIGKILL");
  } catch {
    // already gone
  }
}
