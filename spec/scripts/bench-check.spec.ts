/**
 * The benchmark targets file (spec/bench/targets.json) and the check that `npm run bench -- --check`
 * runs on a run's figures (spec/bench/check.cjs). No timing here: the figures are made up.
 */
import { readFileSync } from "node:fs";
import { annotate, checkFigures, expectedFigures, formatCheck, loadTargets, meets, type Targets } from "../bench/check.cjs";
import { createRegistry } from "../../app/animators/registry";

const targets: Targets = {
  "a.ms": { target: 10, direction: "max", unit: "ms", source: "jest", why: "test" },
  "b.per.ms": { target: 100, direction: "min", unit: "samples/ms", source: "jest", why: "test" },
  "c.ms": { target: null, direction: "max", unit: "ms", source: "jest", why: "test" },
  "m1.frame.ratio": { target: 1.1, direction: "max", unit: "ratio", source: "frame", why: "test" },
  "m1.frame.cpu.ratio": { target: null, direction: "max", unit: "ratio", source: "frame", why: "test" },
  "m2.frame.ratio": { target: 1.1, direction: "max", unit: "ratio", source: "frame", why: "test" },
  "record.fps": { target: 5, direction: "min", unit: "frames/s", source: "record", why: "test" },
};
const line = (bench: string, value: number) => ({ bench, value, unit: targets[bench]?.unit ?? "ms" });
const all = (over: Record<string, number> = {}) =>
  Object.keys(targets).map((name) => line(name, over[name] ?? (targets[name].direction === "max" ? 1 : 1000)));

describe("bench --check", () => {
  it("passes figures within their targets, the target itself included", () => {
    const r = checkFigures(all({ "a.ms": 10, "b.per.ms": 100 }), targets);
    expect(r.ok).toBe(true);
    expect(r.misses).toEqual([]);
    expect(r.met.sort()).toEqual(["a.ms", "b.per.ms", "m1.frame.ratio", "m2.frame.ratio", "record.fps"]);
    expect(r.untargeted.sort()).toEqual(["c.ms", "m1.frame.cpu.ratio"]);
  });

  it("fails a figure over a max target and one under a min target", () => {
    const r = checkFigures(all({ "a.ms": 10.01, "record.fps": 2.26 }), targets);
    expect(r.ok).toBe(false);
    expect(r.misses).toEqual([
      { bench: "a.ms", value: 10.01, unit: "ms", target: 10, direction: "max" },
      { bench: "record.fps", value: 2.26, unit: "frames/s", target: 5, direction: "min" },
    ]);
    const text = formatCheck(r).join("\n");
    expect(text).toMatch(/MISSED {2}a\.ms = 10\.01 ms: target at most 10/);
    expect(text).toMatch(/MISSED {2}record\.fps = 2\.26 frames\/s: target at least 5/);
  });

  it("a figure without a target never misses, whatever its value", () => {
    expect(checkFigures(all({ "c.ms": 1e9 }), targets).ok).toBe(true);
    expect(meets(Number.NaN, { target: null, direction: "max" })).toBe(true);
  });

  it("a value that is not a number misses its target", () => {
    const r = checkFigures(all({ "a.ms": Number.NaN }), targets);
    expect(r.misses.map((m) => m.bench)).toEqual(["a.ms"]);
  });

  it("reports a figure named in the targets but not printed, and one printed but not named", () => {
    const lines = all().filter((l) => l.bench !== "m2.frame.ratio");
    lines.push(line("new-method.frame.ratio", 1));
    const r = checkFigures(lines, targets);
    expect(r.ok).toBe(false);
    expect(r.missing).toEqual(["m2.frame.ratio"]);
    expect(r.unknown).toEqual(["new-method.frame.ratio"]);
    const text = formatCheck(r).join("\n");
    expect(text).toMatch(/MISSING m2\.frame\.ratio/);
    expect(text).toMatch(/UNKNOWN new-method\.frame\.ratio/);
  });

  it("expects only the figures of the parts that ran", () => {
    expect(expectedFigures(targets, { jest: false, methods: ["m1"], compare: false, record: false })).toEqual(["m1.frame.ratio", "m1.frame.cpu.ratio"]);
    expect(expectedFigures(targets, { jest: true, methods: null, compare: false, record: true })).toEqual(["a.ms", "b.per.ms", "c.ms", "record.fps"]);
    expect(expectedFigures(targets).length).toBe(Object.keys(targets).length);
    // Only the frame ratios of m1 were measured: m2's is not missing.
    const expected = expectedFigures(targets, { jest: false, methods: ["m1"], compare: false, record: false });
    expect(checkFigures([line("m1.frame.ratio", 1.05), line("m1.frame.cpu.ratio", 3)], targets, expected).ok).toBe(true);
  });

  it("annotates a printed line with the file's target and whether it is met", () => {
    expect(annotate({ bench: "a.ms", value: 12, unit: "ms", target: 99 }, targets)).toEqual({ bench: "a.ms", value: 12, unit: "ms", target: 10, direction: "max", met: false });
    expect(annotate({ bench: "c.ms", value: 12, unit: "ms" }, targets)).toEqual({ bench: "c.ms", value: 12, unit: "ms" });
  });
});

describe("spec/bench/targets.json", () => {
  const real = loadTargets();

  it("names both frame ratios of every registered method", () => {
    const ids = createRegistry().ids().filter((id) => id !== "rest");
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      expect(real[`${id}.frame.ratio`]).toBeDefined();
      expect(real[`${id}.frame.cpu.ratio`]).toBeDefined();
    }
  });

  it("names the figures BENCHMARKS.md names, and BENCHMARKS.md names every figure it holds", () => {
    const doc = readFileSync("BENCHMARKS.md", "utf8");
    // A table row's first cell: | `figure` |
    const inTables = new Set([...doc.matchAll(/^\| `([a-z0-9.-]+)` \|/gm)].map((m) => m[1]));
    expect([...inTables].filter((name) => !real[name])).toEqual([]);
    expect(Object.keys(real).filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });
});
