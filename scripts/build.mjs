// Building the production bundle from other scripts (start, e2e, bench).
import { spawn } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { createRequire } from "node:module";
import { repoRoot, distDir } from "./serve.mjs";

const require = createRequire(import.meta.url);

/** The newest modification time (ms) of any file under `dir` (0 when it does not exist). */
export async function newestMtime(dir) {
  const info = await stat(dir).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    newest = Math.max(newest, await newestMtime(join(dir, entry.name)));
  }
  return newest;
}

/** True when dist/ is missing or older than app/, assets/ or the build configuration. */
export async function isStale() {
  const built = await stat(join(distDir, "index.html")).catch(() => null);
  if (!built) return true;
  const sources = ["app", "assets", "webpack.config.js", "package.json", "tsconfig.json"].map((p) => join(repoRoot, p));
  let newest = 0;
  for (const s of sources) newest = Math.max(newest, await newestMtime(s));
  return newest > built.mtimeMs;
}

let child = null;

/**
 * Runs `webpack --mode <mode>` with its output streamed to `output` ("stdout" or "stderr":
 * the bench sends it to stderr so that its stdout holds only JSON). Rejects on failure.
 */
export function build({ mode = "production", output = "stdout" } = {}) {
  const webpackCli = require.resolve("webpack/bin/webpack.js", { paths: [repoRoot] });
  const sink = output === "stderr" ? process.stderr : process.stdout;
  const started = Date.now();
  sink.write(`building: webpack --mode ${mode}\n`);
  return new Promise((ok, fail) => {
    child = spawn(process.execPath, [webpackCli, "--mode", mode], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(sink, { end: false });
    child.stderr.pipe(process.stderr, { end: false });
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      child = null;
      if (code === 0) {
        sink.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
        ok();
      } else fail(new Error(`webpack --mode ${mode} failed (${signal ?? "exit code " + code})`));
    });
  });
}

/** Stops a build in progress (on Ctrl-C). */
export function stopBuild() {
  if (child) child.kill("SIGTERM");
}
