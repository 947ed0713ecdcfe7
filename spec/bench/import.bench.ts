/**
 * import.extract.100k.ms (issue 7, item 10): the branch hierarchy of a 100,000-vertex model's
 * wood, made of separate parts, and the binding of all its vertices (node, one core), through
 * extractHierarchy as the app calls it. The model
 * is the Habel-scale tree's bark with 24 vertices round the trunk (about 100k vertices, 1,402
 * parts). Target at most 2,000 ms. Prints one JSON line; asserts no time.
 * import.extract.welded.100k.ms: the same for the same bark welded into one mesh (weldTree,
 * not timed), read by the Reeb graph of the geodesic distance (tree/welded.ts).
 */
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { applyTaper } from "../../app/tree/taper";
import { buildTreeGeometry } from "../../app/tree/geometry";
import { bindVertices } from "../../app/tree/extract";
import { extractFromWelded, extractHierarchy, weldTree } from "../../app/tree/welded";

it("import.extract.100k.ms", () => {
  const habel = TREE_PRESETS.find((p) => p.name === "habel")!;
  const s = applyTaper(grammarToSkeleton(habel.text, { depth: habel.defaultDepth, seed: 1, fileName: "habel.lsys" }), 0.6);
  const bark = buildTreeGeometry(s, { radialSegments: 24 }).bark;
  const mesh = { positions: bark.positions, indices: bark.indices };
  const run = () => {
    // As the app runs it (app/import/build.ts): the dispatcher, which finds the parts separate.
    const ex = extractHierarchy(mesh);
    return { ex, bind: bindVertices(ex.skeleton, mesh.positions, ex.vertexBranch) };
  };
  let last = run();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    last = run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[1];
  process.stdout.write(JSON.stringify({
    bench: "import.extract.100k.ms", value: Math.round(median), unit: "ms", target: 2000,
    vertices: bark.positions.length / 3, parts: last.ex.parts, branches: last.ex.skeleton.branchCount, levels: last.ex.skeleton.levels,
  }) + "\n");
  expect(Number.isFinite(median)).toBe(true);
  expect(last.ex.skeleton.branchCount).toBe(s.branchCount);
});

it("import.extract.welded.100k.ms", () => {
  const habel = TREE_PRESETS.find((p) => p.name === "habel")!;
  const s = applyTaper(grammarToSkeleton(habel.text, { depth: habel.defaultDepth, seed: 1, fileName: "habel.lsys" }), 0.6);
  const mesh = weldTree(s, buildTreeGeometry(s, { radialSegments: 24 }).bark);
  const run = () => {
    const ex = extractFromWelded(mesh);
    return { ex, bind: bindVertices(ex.skeleton, mesh.positions, ex.vertexBranch) };
  };
  let last = run();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    last = run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[1];
  process.stdout.write(JSON.stringify({
    bench: "import.extract.welded.100k.ms", value: Math.round(median), unit: "ms", target: 2000,
    vertices: mesh.positions.length / 3, parts: last.ex.parts, branches: last.ex.skeleton.branchCount, levels: last.ex.skeleton.levels,
  }) + "\n");
  expect(Number.isFinite(median)).toBe(true);
  expect(last.ex.parts).toBe(1);
  expect(Math.abs(last.ex.skeleton.branchCount - s.branchCount)).toBeLessThanOrEqual(0.1 * s.branchCount);
});
