// Finding Debian's Chromium, and installing it when it is missing and this user may. The one place
// both `.ci/run` (before `npm ci`: so this file imports nothing outside Node) and `npm test`
// (scripts/e2e.mjs, before it builds) go through.
//
//   node scripts/ensure-chromium.mjs      prints the path; installs Chromium first if it can;
//                                         exits 1 at once, with the command to run, if it cannot.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";

/** Where Chromium is looked for, in order: CHROMIUM_PATH, then Debian's and others' usual places. */
export function chromiumCandidates() {
  return [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].filter(Boolean);
}

/** The first Chromium found, or null. */
export function findChromium(candidates = chromiumCandidates()) {
  return candidates.find((c) => existsSync(c)) ?? null;
}

/** What to run to install Chromium here: [] as root, ["sudo", "-n"] with password-less sudo, else null. */
export function installPrefix() {
  if (typeof process.getuid === "function" && process.getuid() === 0) return [];
  const sudo = spawnSync("sudo", ["-n", "true"], { stdio: "ignore" });
  return sudo.status === 0 ? ["sudo", "-n"] : null;
}

/** The message for a machine where Chromium is missing and cannot be installed by this user. */
export function cannotInstallMessage(candidates = chromiumCandidates()) {
  return (
    `Chromium not found (looked at ${candidates.join(", ")}), and this user can neither ` +
    `apt-get as root nor sudo without a password, so the end-to-end tests cannot run.\n` +
    `Install it, then run the tests again:\n    sudo apt-get install -y chromium\n` +
    `(or point CHROMIUM_PATH at a Chromium or Chrome binary).`
  );
}

/**
 * Returns the Chromium path, installing Debian's package first when it is missing and this user
 * may (root, or sudo without a password). Throws an Error with cannotInstallMessage() otherwise,
 * or with apt-get's exit status when the install fails. `candidates` and `prefix` are for tests.
 */
export function ensureChromium({ log = (s) => process.stderr.write(s + "\n"), candidates = chromiumCandidates(), prefix = undefined } = {}) {
  const found = findChromium(candidates);
  if (found) return found;
  if (prefix === undefined) prefix = installPrefix();
  if (prefix === null) throw Object.assign(new Error(cannotInstallMessage(candidates)), { cannotInstall: true });
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]]) {
    const cmd = [...prefix, ...args];
    log(`Chromium is missing: ${cmd.join(" ")}`);
    const run = spawnSync(cmd[0], cmd.slice(1), { stdio: ["ignore", "inherit", "inherit"], env });
    if (run.status !== 0) throw new Error(`${cmd.join(" ")} failed (${run.error ? run.error.message : "exit status " + run.status}); install Chromium yourself (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  const installed = findChromium(candidates);
  if (!installed) throw new Error("apt-get installed chromium, but no binary is at /usr/bin/chromium; set CHROMIUM_PATH");
  return installed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    console.log(ensureChromium());
  } catch (err) {
    console.error(`error: ${err.message}`);
    process.exit(1);
  }
}
