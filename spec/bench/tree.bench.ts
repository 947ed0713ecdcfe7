/**
 * tree.build.habel.ms: derive the Habel-scale grammar and build its skeleton and geometry
 * (node, one core). Prints one JSON line; asserts no time (the target is in targets.json, checked
 * by `npm run bench -- --check`). Asserts that the work is what the figure claims: the tree
 * BENCHMARKS.md describes, built the same every time.
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
  const first = build();
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
  // The Habel-scale tree of BENCHMARKS.md: 1,402 branches, 9,547 leaves, 73,941 vertices.
  expect([last.s.branchCount, last.s.leafCount, last.g.vertexCount]).toEqual([1402, 9547, 73941]);
  // Every build is the same tree (seeded): the timed builds did the first one's work.
  expect(last.g.bark.positions).toEqual(first.g.bark.positions);
  expect(last.g.leaves!.positions).toEqual(first.g.leaves!.positions);
});
