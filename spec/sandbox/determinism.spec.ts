/**
 * The sandbox's promise: `use(id)` with the same wind and seed gives the same frames for every
 * method, the second time as the first, whatever wind was set or which method ran before, in a
 * single view and in compare views, in a fresh sandbox as in a used one. Nothing a method does in
 * the background, on the wall clock or when its tips are read may change what a frame shows.
 * Every comparison is exact: the tips come from each method's CPU state or twin, computed in the
 * same order from the same inputs, so there is no tolerance to allow.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { createRegistry } from "../../app/animators/registry";
import type { SandboxPanelApi } from "../../app/sandbox/api";
import { Sandbox } from "../../app/sandbox/sandbox";
import type { WindSettings } from "../../app/wind/wind-field";

/** The wind of the report: 12 m/s, seed 7, the default turbulence and gusts. */
const WIND: WindSettings = { speed: 12, direction: 0, vertical: 0, turbulence: 0.35, gust: 0.3, seed: 7 };
/** Another wind in every setting. */
const OTHER: WindSettings = { speed: 30, direction: 120, vertical: 2, turbulence: 0.6, gust: 0.7, seed: 99 };

/** The largest difference between corresponding coordinates of two probes. */
function maxDiff(a: readonly number[], b: readonly number[]): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe("Determinism: the same wind and seed give the same frames whatever ran before", () => {
  let engine: NullEngine;
  let sandbox: Sandbox | null = null;
  let api: SandboxPanelApi;

  async function open(tree: string): Promise<void> {
    sandbox?.dispose();
    sandbox = new Sandbox(engine, null, createRegistry());
    api = sandbox.api();
    await sandbox.start(`#tree=${tree}`, "", { renderLoop: false });
  }

  /** Every view's tips: the first view's through api.probe(), the others' through their animators. */
  function probes(): number[][] {
    const list = (sandbox as unknown as { views: { list: { animator: { probe(): Float32Array } | null }[] } }).views.list;
    const all = list.map((v) => Array.from(v.animator!.probe()));
    expect(all[0]).toEqual(api.probe());
    return all;
  }

  /** The wind set, the views restarted, `steps` steps (reading the tips after each when `probeEvery`): every view's tips. */
  async function run(ids: string | string[], wind: WindSettings, steps: number, probeEvery = false): Promise<number[][]> {
    api.wind(wind);
    await api.use(ids);
    if (probeEvery) {
      for (let i = 0; i < steps; i++) {
        api.step(1);
        probes();
      }
    } else {
      api.step(steps);
    }
    return probes();
  }

  beforeEach(() => {
    engine = new NullEngine();
  });
  afterEach(() => {
    sandbox?.dispose();
    sandbox = null;
    engine.dispose();
  });

  const methods = (): string[] => api.animators().map((a) => a.id);

  it("the report's case on the default tree (habel, 90 steps at 12 m/s, seed 7): every method the same on a restart and after another wind", async () => {
    await open("habel");
    const rest = (await run("rest", WIND, 0))[0];
    let height = 0;
    for (let i = 1; i < rest.length; i += 3) height = Math.max(height, rest[i]);
    expect(height).toBeGreaterThan(1);
    const moved: Record<string, number> = {};
    for (const id of methods()) {
      const first = (await run(id, WIND, 90))[0];
      moved[id] = maxDiff(first, rest) / height;
      const again = (await run(id, WIND, 90))[0];
      const other = (await run(id, OTHER, 45))[0];
      // Another wind shows another motion (the comparisons below are not vacuous).
      if (id !== "rest") expect([id, maxDiff(other, first) > 0.01 * height]).toEqual([id, true]);
      const afterOther = (await run(id, WIND, 90))[0];
      expect([id, maxDiff(first, again) / height, maxDiff(first, afterOther) / height]).toEqual([id, 0, 0]);
    }
    // Every method but rest moves the tree visibly in this wind.
    for (const [id, m] of Object.entries(moved)) expect([id, m > 0.01]).toEqual([id, id !== "rest"]);
  }, 300000);

  it("on demo: each method in a used sandbox, after every other method in another wind, as in a fresh one; the wind changed and put back while a method runs, a Beaufort preset and a timeline played before, or the tips read every step, change nothing", async () => {
    await open("demo");
    const ids = methods();
    const fresh: Record<string, number[]> = {};
    for (const id of ids) {
      await open("demo");
      fresh[id] = (await run(id, WIND, 60))[0];
    }
    await open("demo");
    for (const before of ids) {
      for (const id of ids) {
        await run(before, OTHER, 30);
        expect([before, id, maxDiff(fresh[id], (await run(id, WIND, 60))[0])]).toEqual([before, id, 0]);
      }
    }
    for (const id of ids) {
      // The wind changed while the method runs, then put back before the restart.
      await run(id, WIND, 20);
      api.wind(OTHER);
      api.step(20);
      expect(["wind changed while running", id, maxDiff(fresh[id], (await run(id, WIND, 60))[0])]).toEqual(["wind changed while running", id, 0]);
      // A Beaufort preset, then a wind timeline played for a while.
      api.windPreset("storm");
      api.step(15);
      api.windTimeline({ loop: true, keys: [{ t: 0, speed: 3, direction: 40, gust: 0.1 }, { t: 0.5, speed: 25, direction: 200, gust: 0.9 }] });
      api.step(40);
      expect(["after a preset and a timeline", id, maxDiff(fresh[id], (await run(id, WIND, 60))[0])]).toEqual(["after a preset and a timeline", id, 0]);
      // Reading the tips after every step.
      expect(["tips read every step", id, maxDiff(fresh[id], (await run(id, WIND, 60, true))[0])]).toEqual(["tips read every step", id, 0]);
    }
  }, 600000);

  it("on demo: compare views show in each view what a single view shows, whatever ran before, in any place", async () => {
    await open("demo");
    const ids = methods();
    const single: Record<string, number[]> = {};
    for (const id of ids) single[id] = (await run(id, WIND, 60))[0];
    const layouts: string[][] = [];
    for (let i = 0; i < ids.length; i++) layouts.push([ids[i], ids[(i + 1) % ids.length]]);
    layouts.push([ids[0], ids[0]]);
    layouts.push(ids.filter((id) => id !== "rest").slice(0, 4));
    layouts.push([...layouts[layouts.length - 1]].reverse());
    for (const layout of layouts) {
      await run([...layout].reverse(), OTHER, 20);
      const got = await run(layout, WIND, 60);
      const diffs = layout.map((id, k) => maxDiff(single[id], got[k]));
      expect([layout, diffs]).toEqual([layout, layout.map(() => 0)]);
    }
  }, 600000);
});
