/**
 * tree.build.habel.ms: derive the Habel-scale grammar and build its skeleton and geometry
 * (node, one core). Target at most 300 ms. Prints one JSON line; asserts no time.
 */
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { applyTaper } from "../../app/tree/taper";
import { buildTreeGeometry } from "../../app/tree/geometry";

it("tree.build.habel.ms", () => {
  const habel = TREE_PRESETS.find((p) => p.name === "habel")!;
  const build = () => {
    const s = applyTaper(grammarToSkeleton(habel.text, { depth: habel.defaultDepth, seed: 1, fileName: "habel.lsys" }), 0.6);
    return { s, g: buildTreeGeometry(s) };
  };
  // The first build in a fresh process is the app's first tree: report it as coldMs.
  const c0 = performance.now();
  build();
  const coldMs = performance.now() - c0;
  const times: number[] = [];
  let last = build();
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    last = build();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[2];
  process.stdout.write(JSON.stringify({
    bench: "tree.build.habel.ms", value: Math.round(median * 10) / 10, unit: "ms",
    coldMs: Math.round(coldMs * 10) / 10, branches: last.s.branchCount, leaves: last.s.leafCount, vertices: last.g.vertexCount,
  }) + "\n");
  expect(Number.isFinite(median)).toBe(true);
  expect(last.s.branchCount).toBeGreaterThan(1000);
});
