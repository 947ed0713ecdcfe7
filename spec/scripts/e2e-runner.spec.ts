// The end-to-end runner's fail-fast rules and clean-up (spec/e2e/runner.mjs), and the Chromium
// check both `.ci/run` and `npm test` use (scripts/ensure-chromium.mjs). The runner is an ES
// module for Node, so each case runs in a child `node` with a fake browser and prints JSON.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(__dirname, "../..");

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each case prints its own JSON shape
function runModule(body: string): any {
  const src = `
    import { test, collectTests, runTests } from ${JSON.stringify(resolve(root, "spec/e2e/runner.mjs"))};
    import { ensureChromium } from ${JSON.stringify(resolve(root, "scripts/ensure-chromium.mjs"))};
    const fakePage = () => ({ on() {}, async close() {}, async screenshot() { return Buffer.alloc(0); } });
    const fakeBrowser = () => ({ context: null, async newPage() { return fakePage(); }, async close() {} });
    const quiet = () => {};
    ${body}`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", src], { cwd: root, encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0) throw new Error(`child failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").pop() as string);
}

/** Running (a zombie that no one has reaped yet counts as gone). */
function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

describe("e2e runner", () => {
  it("kills a child a test started, and the child's own children, when the test times out", () => {
    const r = runModule(`
      let grandchild = 0;
      const tests = [{ name: "hangs", file: "x", timeout: 1500, fn: async ({ spawn }) => {
        const child = spawn("sh", ["-c", "sleep 60 & echo $!; wait"], { stdio: ["ignore", "pipe", "ignore"] });
        await new Promise((ok) => child.stdout.once("data", (d) => { grandchild = Number(String(d).trim()); ok(); }));
        await new Promise(() => {});
      } }];
      const res = await runTests(tests, { url: "", launch: async () => fakeBrowser(), outDir: "/tmp/e2e-runner-spec", out: quiet });
      await new Promise((ok) => setTimeout(ok, 300));
      const { readFileSync } = await import("node:fs");
      let alive = true; try { alive = !readFileSync("/proc/" + grandchild + "/stat", "utf8").includes(") Z "); } catch { alive = false; }
      console.log(JSON.stringify({ failed: res.failed, error: String(res.results[0].error), grandchild, alive }));`);
    expect(r.failed).toBe(1);
    expect(r.error).toMatch(/timed out/);
    expect(r.grandchild).toBeGreaterThan(0);
    expect(r.alive).toBe(false);
    expect(alive(r.grandchild)).toBe(false);
  });

  it("starts no test after the deadline and counts the ones left as failed", () => {
    const r = runModule(`
      const ran = [];
      const slow = (name) => ({ name, file: "x", fn: async () => { ran.push(name); await new Promise((ok) => setTimeout(ok, 600)); } });
      const res = await runTests([slow("a"), slow("b"), slow("c")], { url: "", launch: async () => fakeBrowser(), outDir: "/tmp/e2e-runner-spec", deadline: Date.now() + 300, out: quiet });
      console.log(JSON.stringify({ ran, passed: res.passed, failed: res.failed, errors: res.results.map((x) => x.error && x.error.message) }));`);
    expect(r.ran).toEqual(["a"]);
    expect(r.passed).toBe(1);
    expect(r.failed).toBe(2);
    expect(r.errors[1]).toMatch(/deadline/);
  });

  it("stops at the first test when Chromium cannot be launched, with the reason, instead of trying every test", () => {
    const r = runModule(`
      let launches = 0;
      const t = (name) => ({ name, file: "x", fn: async () => {} });
      const res = await runTests([t("a"), t("b"), t("c")], { url: "", launch: async () => { launches++; throw new Error("no display\\nmore"); }, outDir: "/tmp/e2e-runner-spec", out: quiet });
      console.log(JSON.stringify({ launches, failed: res.failed, errors: res.results.map((x) => String(x.error && x.error.message)) }));`);
    expect(r.launches).toBe(1);
    expect(r.failed).toBe(3);
    expect(r.errors[0]).toMatch(/no display/);
    expect(r.errors[2]).toMatch(/Chromium could not be launched \(no display\)/);
  });
});

describe("ensure-chromium", () => {
  it("says once what to run when Chromium is missing and this user cannot install it", () => {
    const r = runModule(`
      let message = null, flag = null;
      try { ensureChromium({ candidates: ["/nonexistent/chromium"], prefix: null, log: quiet }); } catch (e) { message = e.message; flag = e.cannotInstall; }
      console.log(JSON.stringify({ message, flag }));`);
    expect(r.flag).toBe(true);
    expect(r.message).toMatch(/\/nonexistent\/chromium/);
    expect(r.message).toMatch(/sudo apt-get install -y chromium/);
    expect(r.message).toMatch(/CHROMIUM_PATH/);
  });

  it("returns the first candidate that exists without installing anything", () => {
    const r = runModule(`
      const logs = [];
      const found = ensureChromium({ candidates: ["/nonexistent/chromium", process.execPath], prefix: null, log: (s) => logs.push(s) });
      console.log(JSON.stringify({ found, logs }));`);
    expect(r.found).toBe(process.execPath);
    expect(r.logs).toEqual([]);
  });
});
