// Trees from our own grammars, their bark written as separate parts
// (one tube per branch, as buildTreeGeometry makes it), read back into a hierarchy and compared
// with the original: branch count within 10%, the same number of levels, the right parent for at
// least 90% of the branches.
import { bindVertices, meshParts } from "../../app/tree/extract";
import { extractFromParts } from "../../app/tree/extract/parts";
import { buildTreeGeometry } from "../../app/tree/geometry";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import type { TreeSkeleton } from "../../app/tree/skeleton";

function preset(name: string): TreeSkeleton {
  const p = TREE_PRESETS.find((t) => t.name === name)!;
  return grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1, fileName: `${name}.lsys` });
}

/** Extracts the bark of `s` and compares: counts, levels, and parents through the vertices' original branch. */
function roundTrip(s: TreeSkeleton) {
  const g = buildTreeGeometry(s);
  const bark = g.bark;
  const ex = extractFromParts({ positions: bark.positions, indices: bark.indices });
  const e = ex.skeleton;
  // Which original branch each extracted branch is: the one most of its vertices came from.
  const votes = new Map<number, Map<number, number>>();
  for (let i = 0; i < ex.vertexBranch.length; i++) {
    const b = ex.vertexBranch[i], o = Math.round(bark.branchIndex[i]);
    const m = votes.get(b) ?? new Map<number, number>();
    m.set(o, (m.get(o) ?? 0) + 1);
    votes.set(b, m);
  }
  const original = new Int32Array(e.branchCount);
  for (const [b, m] of votes) original[b] = [...m.entries()].sort((a, c) => c[1] - a[1])[0][0];
  let right = 0;
  for (let b = 1; b < e.branchCount; b++) if (original[e.branchParent[b]] === s.branchParent[original[b]]) right++;
  return { extracted: e, parts: ex.parts, rightParents: right / Math.max(1, e.branchCount - 1), original, bark, vertexBranch: ex.vertexBranch };
}

describe("branch hierarchy from separate parts", () => {
  it("finds one part per branch tube, and welds vertices at the same position", () => {
    const s = preset("demo");
    const g = buildTreeGeometry(s);
    expect(meshParts({ positions: g.bark.positions, indices: g.bark.indices }).count).toBe(s.branchCount);
    // Two triangles sharing an edge by position only (split vertices): one part.
    const positions = Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 5, 5, 5, 6, 5, 5, 5, 6, 5);
    expect(meshParts({ positions, indices: Uint32Array.of(0, 1, 2, 3, 4, 5, 6, 7, 8) }).count).toBe(2);
  });

  for (const name of ["demo", "habel", "conifer", "sympodial"]) {
    it(`round trip of the ${name} tree: branch count, levels and parents`, () => {
      const s = preset(name);
      const r = roundTrip(s);
      const e = r.extracted;
      expect(Math.abs(e.branchCount - s.branchCount) / s.branchCount).toBeLessThanOrEqual(0.1);
      expect(e.levels).toBe(s.levels);
      expect(r.rightParents).toBeGreaterThanOrEqual(0.9);
      // The trunk is the trunk, and it starts on the ground and goes up.
      expect(r.original[0]).toBe(0);
      const n0 = e.branchFirstNode[0], n1 = n0 + e.branchNodeCount[0] - 1;
      expect(e.nodePosition[3 * n0 + 1]).toBeLessThan(e.nodePosition[3 * n1 + 1]);
      // Lengths within a few percent of the original's.
      for (let b = 0; b < e.branchCount; b += Math.max(1, Math.floor(e.branchCount / 25))) {
        const o = r.original[b];
        expect(e.branchLength[b]).toBeGreaterThan(0.8 * s.branchLength[o]);
        expect(e.branchLength[b]).toBeLessThan(1.25 * s.branchLength[o] + 2 * s.branchRootRadius[s.branchParent[o] < 0 ? 0 : s.branchParent[o]]);
      }
    });
  }

  it("binds the model's own vertices: branch, w-vector and skinning weights as the original geometry had them", () => {
    const s = preset("demo");
    const r = roundTrip(s), e = r.extracted, bark = r.bark;
    const bind = bindVertices(e, bark.positions, r.vertexBranch);
    let compared = 0, close = 0;
    for (let i = 0; i < r.vertexBranch.length; i++) {
      const b = r.vertexBranch[i], o = r.original[b];
      expect(bind.branchIndex[i]).toBe(b);
      expect(bind.skinWeights[4 * i] + bind.skinWeights[4 * i + 1]).toBeCloseTo(1, 6);
      for (const k of [0, 1]) expect(e.nodeBranch[bind.skinNodes[4 * i + k]]).toBe(b);
      if (e.branchLevel[b] !== s.branchLevel[o]) continue;
      const level = e.branchLevel[b];
      compared++;
      // The vertex's x along its branch, and its ancestors' attachment positions.
      let ok = true;
      for (let c = 0; c <= level; c++) if (Math.abs(bind.wVector[4 * i + c] - bark.wVector[4 * i + c]) > 0.1) ok = false;
      if (ok) close++;
    }
    expect(compared).toBeGreaterThan(0.9 * r.vertexBranch.length);
    expect(close / compared).toBeGreaterThan(0.9);
  });

  it("refuses to bind a vertex to a branch the skeleton does not have", () => {
    const s = preset("demo");
    expect(() => bindVertices(s, new Float32Array(3), Int32Array.of(s.branchCount))).toThrow(/vertex 0 is on branch 49; the skeleton has 49/);
  });

  it("places a piece far from all the other wood (it still joins the tree)", () => {
    const s = preset("demo");
    const bark = buildTreeGeometry(s).bark;
    const positions = bark.positions.slice();
    for (let i = 0; i < positions.length / 3; i++) if (Math.round(bark.branchIndex[i]) === 5) positions[3 * i] += 50;
    const ex = extractFromParts({ positions, indices: bark.indices });
    expect(ex.skeleton.branchCount).toBe(s.branchCount);
    expect(ex.skeleton.branchParent.slice(1).every((p) => p >= 0)).toBe(true);
  });

  it("refuses a mesh whose indices point past its vertices", () => {
    expect(() => extractFromParts({ positions: new Float32Array(9), indices: Uint32Array.of(0, 1, 5) })).toThrow(/uses vertex 5, but the mesh has 3/);
  });
});
