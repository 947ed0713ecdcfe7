/**
 * import.extract.100k.ms: the branch hierarchy of a 100,000-vertex model's
 * wood, made of separate parts, and the binding of all its vertices (node, one core), through
 * extractHierarchy as the app calls it. The model
 * is the Habel-scale tree's bark with 24 vertices round the trunk (about 100k vertices, 1,402
 * parts). Prints one JSON line; asserts no time (targets: targets.json). Asserts that the
 * hierarchy found is the tree's (as many branches) and that every vertex of the wood's triangles
 * was bound to a branch.
 * import.extract.welded.100k.ms: the same for the same bark welded into one mesh (weldTree,
 * not timed), read by the Reeb graph of the geodesic distance (tree/extract/welded.ts).
 */
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { applyTaper } from "../../app/tree/taper";
import { buildTreeGeometry } from "../../app/tree/geometry";
import { bindVertices, extractHierarchy, type PartsHierarchy, type WoodMesh } from "../../app/tree/extract";
import { extractFromWelded } from "../../app/tree/extract/welded";
import { weldTree } from "../support/weld-tree";

/** The Habel-scale tree at 24 vertices round the trunk (about 100k vertices). */
function habelTree() {
  const habel = TREE_PRESETS.find((p) => p.name === "habel")!;
  const s = applyTaper(grammarToSkeleton(habel.text, { depth: habel.defaultDepth, seed: 1, fileName: "habel.lsys" }), 0.6);
  return { s, bark: buildTreeGeometry(s, { radialSegments: 24 }).bark };
}

/** Extraction and binding of `mesh`: median of 3 after one, printed as one JSON line. */
function timeExtraction(bench: string, mesh: WoodMesh, extract: (m: WoodMesh) => PartsHierarchy): PartsHierarchy {
  const run = () => {
    const ex = extract(mesh);
    bindVertices(ex.skeleton, mesh.positions, ex.vertexBranch);
    return ex;
  };
  let last = run();
  const branchOf = last.vertexBranch;
  expect(branchOf.length).toBe(mesh.positions.length / 3);
  for (const v of mesh.indices) if (!(branchOf[v] >= 0 && branchOf[v] < last.skeleton.branchCount)) throw new Error(`vertex ${v} of a triangle is bound to branch ${branchOf[v]}`);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    last = run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({
    bench, value: Math.round(times[1]), unit: "ms",
    vertices: mesh.positions.length / 3, parts: last.parts, branches: last.skeleton.branchCount, levels: last.skeleton.levels,
  }) + "\n");
  return last;
}

it("import.extract.100k.ms", () => {
  const { s, bark } = habelTree();
  // As the app runs it (app/import/build.ts): the dispatcher, which finds the parts separate.
  const ex = timeExtraction("import.extract.100k.ms", { positions: bark.positions, indices: bark.indices }, extractHierarchy);
  expect(ex.skeleton.branchCount).toBe(s.branchCount);
});

it("import.extract.welded.100k.ms", () => {
  const { s, bark } = habelTree();
  const ex = timeExtraction("import.extract.welded.100k.ms", weldTree(s, bark), extractFromWelded);
  expect(ex.parts).toBe(1);
  expect(ex.skeleton.branchCount).toBe(s.branchCount);
});
