// The welded case: trees from our own grammars, their bark welded into ONE mesh
// (each branch's base ring replaced by vertices of the tube it grows from), read back into a
// hierarchy through the Reeb graph of the geodesic distance from the base and compared with the
// original, as extract.spec.ts does for separate parts: branch count within 10%, the same number
// of levels, the right parent for at least 90% of the branches.
import { join } from "node:path";
import { bindVertices, extractHierarchy, meshParts, upFromWood, type PartsHierarchy, type WoodMesh } from "../../app/tree/extract";
import { extractFromWelded } from "../../app/tree/extract/welded";
import { readObj } from "../support/model-files";
import { weldTree } from "../support/weld-tree";
import { buildTreeGeometry, type MeshArrays } from "../../app/tree/geometry";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import type { TreeSkeleton } from "../../app/tree/skeleton";

function preset(name: string): TreeSkeleton {
  const p = TREE_PRESETS.find((t) => t.name === name)!;
  return grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1, fileName: `${name}.lsys` });
}

/** Compares an extraction of `wood` (vertices in the bark's order) with the original: parents through the vertices' original branch. */
function compare(s: TreeSkeleton, bark: MeshArrays, ex: PartsHierarchy) {
  const e = ex.skeleton;
  // Which original branch each extracted branch is: the one most of its vertices came from.
  const votes = new Map<number, Map<number, number>>();
  for (let i = 0; i < ex.vertexBranch.length; i++) {
    const b = ex.vertexBranch[i], o = Math.round(bark.branchIndex[i]);
    if (b < 0) continue;
    const m = votes.get(b) ?? new Map<number, number>();
    m.set(o, (m.get(o) ?? 0) + 1);
    votes.set(b, m);
  }
  const original = new Int32Array(e.branchCount).fill(-1);
  for (const [b, m] of votes) original[b] = [...m.entries()].sort((a, c) => c[1] - a[1])[0][0];
  let right = 0;
  for (let b = 1; b < e.branchCount; b++) if (original[b] >= 0 && original[e.branchParent[b]] === s.branchParent[original[b]]) right++;
  return { extracted: e, original, rightParents: right / Math.max(1, e.branchCount - 1) };
}

function roundTrip(s: TreeSkeleton) {
  const bark = buildTreeGeometry(s).bark;
  const wood = weldTree(s, bark);
  const ex = extractFromWelded(wood);
  return { bark, wood, ex, ...compare(s, bark, ex) };
}

const PRESETS = ["demo", "habel", "conifer", "sympodial"];

describe("weldTree: our bark as one welded mesh", () => {
  for (const name of PRESETS) {
    it(`welds the ${name} tree into one part, with no triangle longer than the tubes it joins`, () => {
      const s = preset(name);
      const bark = buildTreeGeometry(s).bark;
      expect(meshParts(bark).count).toBe(s.branchCount);
      const wood = weldTree(s, bark);
      expect(meshParts(wood).count).toBe(1);
      // Still the tree: every edge at most the longest edge of the branch tubes it joins.
      const P = bark.positions, longest = new Float64Array(s.branchCount);
      const edge = (a: number, b: number) => Math.hypot(P[3 * a] - P[3 * b], P[3 * a + 1] - P[3 * b + 1], P[3 * a + 2] - P[3 * b + 2]);
      const branch = (v: number) => Math.round(bark.branchIndex[v]);
      for (let t = 0; t < bark.indices.length; t += 3) {
        for (let k = 0; k < 3; k++) {
          const a = bark.indices[t + k], b = bark.indices[t + ((k + 1) % 3)];
          longest[branch(a)] = Math.max(longest[branch(a)], edge(a, b));
        }
      }
      let stray = 0;
      for (let t = 0; t < wood.indices.length; t += 3) {
        for (let k = 0; k < 3; k++) {
          const a = wood.indices[t + k], b = wood.indices[t + ((k + 1) % 3)];
          if (edge(a, b) > Math.max(longest[branch(a)], longest[branch(b)]) + 1e-6) stray++;
        }
      }
      expect(stray).toBe(0);
      // Each branch but the trunk lost its base ring to the tube it grows from: fewer triangles, none degenerate.
      expect(wood.indices.length).toBeLessThan(bark.indices.length);
      let degenerate = 0;
      for (let t = 0; t < wood.indices.length; t += 3) {
        const a = wood.indices[t], b = wood.indices[t + 1], c = wood.indices[t + 2];
        if (a === b || b === c || a === c) degenerate++;
      }
      expect(degenerate).toBe(0);
    });
  }

  it("refuses bark that is not this skeleton's", () => {
    const s = preset("demo");
    const bark = buildTreeGeometry(preset("conifer")).bark;
    expect(() => weldTree(s, bark)).toThrow(/bark vertex \d+ is on branch \d+; the skeleton has 49/);
  });
});

describe("branch hierarchy from one welded mesh", () => {
  for (const name of PRESETS) {
    it(`round trip of the welded ${name} tree: branch count, levels, parents, binding`, () => {
      const s = preset(name);
      const r = roundTrip(s);
      const e = r.extracted;
      expect(r.ex.parts).toBe(1);
      expect(Math.abs(e.branchCount - s.branchCount) / s.branchCount).toBeLessThanOrEqual(0.1);
      expect(e.levels).toBe(s.levels);
      expect(r.rightParents).toBeGreaterThanOrEqual(0.9);
      // The trunk is the trunk, and it starts on the ground and goes up.
      expect(r.original[0]).toBe(0);
      const n0 = e.branchFirstNode[0], n1 = n0 + e.branchNodeCount[0] - 1;
      expect(Math.abs(e.nodePosition[3 * n0 + 1])).toBeLessThan(0.01);
      expect(e.nodePosition[3 * n0 + 1]).toBeLessThan(e.nodePosition[3 * n1 + 1]);
      expect(e.branchLength[0]).toBeGreaterThan(0.8 * s.branchLength[0]);
      // Lengths near the original's.
      for (let b = 0; b < e.branchCount; b += Math.max(1, Math.floor(e.branchCount / 25))) {
        const o = r.original[b];
        expect(e.branchLength[b]).toBeGreaterThan(0.8 * s.branchLength[o]);
        expect(e.branchLength[b]).toBeLessThan(1.25 * s.branchLength[o] + 2 * s.branchRootRadius[s.branchParent[o] < 0 ? 0 : s.branchParent[o]]);
      }
      // Every vertex a triangle uses is bound (the replaced base rings, used by none, are not).
      const { partOfVertex } = meshParts(r.wood);
      const bind = bindVertices(e, r.wood.positions, r.ex.vertexBranch);
      let used = 0, unbound = 0, bad = 0, compared = 0, close = 0;
      for (let i = 0; i < partOfVertex.length; i++) {
        const b = r.ex.vertexBranch[i];
        if (b >= 0 !== partOfVertex[i] >= 0) unbound++;
        if (b < 0) continue;
        used++;
        for (let c = 0; c < 4; c++) if (!Number.isFinite(bind.wVector[4 * i + c])) bad++;
        if (Math.abs(bind.skinWeights[4 * i] + bind.skinWeights[4 * i + 1] - 1) > 1e-6) bad++;
        // The w-vector as the original geometry had it, where the vertex's branch is at its level.
        const o = r.original[b];
        if (e.branchLevel[b] !== s.branchLevel[o]) continue;
        compared++;
        let ok = true;
        for (let c = 0; c <= e.branchLevel[b]; c++) if (Math.abs(bind.wVector[4 * i + c] - r.bark.wVector[4 * i + c]) > 0.1) ok = false;
        if (ok) close++;
      }
      // The vertices no triangle uses are exactly the base rings weldTree replaced (all but the trunk's).
      let baseRings = 0;
      for (let i = 0; i < partOfVertex.length; i++) {
        const o = Math.round(r.bark.branchIndex[i]);
        if (o > 0 && r.bark.skinNodes[4 * i] === s.branchFirstNode[o] && r.bark.skinWeights[4 * i] === 1) baseRings++;
      }
      expect(unbound).toBe(0);
      expect(bad).toBe(0);
      expect(used).toBe(partOfVertex.length - baseRings);
      expect(compared).toBeGreaterThan(0.9 * used);
      expect(close / compared).toBeGreaterThan(0.9);
    });

    it(`extractHierarchy picks the welded method for the welded ${name} tree, the parts method for its separate bark`, () => {
      const s = preset(name);
      const bark = buildTreeGeometry(s).bark;
      const welded = extractHierarchy(weldTree(s, bark));
      expect(welded.welded).toBe(true);
      expect(welded.parts).toBe(1);
      const separate = extractHierarchy(bark);
      expect(separate.welded).toBe(false);
      expect(separate.parts).toBe(s.branchCount);
      expect(separate.skeleton.branchCount).toBe(s.branchCount);
    });
  }

  it("reads a mixed model: trunk and limbs welded, everything finer in separate tubes", () => {
    for (const name of ["demo", "habel"]) {
      const s = preset(name);
      const bark = buildTreeGeometry(s).bark;
      const wood = weldTree(s, bark);
      const level = (v: number) => s.branchLevel[Math.round(bark.branchIndex[v])];
      const indices: number[] = [];
      for (let t = 0; t < wood.indices.length; t += 3) {
        if (Math.max(level(wood.indices[t]), level(wood.indices[t + 1]), level(wood.indices[t + 2])) <= 1) indices.push(wood.indices[t], wood.indices[t + 1], wood.indices[t + 2]);
      }
      for (let t = 0; t < bark.indices.length; t += 3) if (level(bark.indices[t]) > 1) indices.push(bark.indices[t], bark.indices[t + 1], bark.indices[t + 2]);
      const mixed: WoodMesh = { positions: wood.positions, indices: Uint32Array.from(indices) };
      let limbs = 0;
      for (let b = 0; b < s.branchCount; b++) if (s.branchLevel[b] <= 1) limbs++;
      const ex = extractHierarchy(mixed);
      expect(ex.welded).toBe(true);
      expect(ex.parts).toBe(1 + s.branchCount - limbs);
      const r = compare(s, bark, ex);
      expect(Math.abs(r.extracted.branchCount - s.branchCount) / s.branchCount).toBeLessThanOrEqual(0.1);
      expect(r.extracted.levels).toBe(s.levels);
      expect(r.rightParents).toBeGreaterThanOrEqual(0.9);
      const { partOfVertex } = meshParts(mixed);
      let unbound = 0;
      for (let i = 0; i < partOfVertex.length; i++) if (ex.vertexBranch[i] >= 0 !== partOfVertex[i] >= 0) unbound++;
      expect(unbound).toBe(0);
    }
  });

  it("is the same tree wherever it stands: moved sideways and up", () => {
    const s = preset("demo");
    const bark = buildTreeGeometry(s).bark;
    const wood = weldTree(s, bark);
    const positions = wood.positions.slice();
    for (let i = 0; i < positions.length; i += 3) {
      positions[i] += 40;
      positions[i + 1] += 3;
      positions[i + 2] -= 25;
    }
    const a = extractFromWelded(wood), b = extractFromWelded({ positions, indices: wood.indices });
    expect(b.skeleton.branchCount).toBe(a.skeleton.branchCount);
    expect(Array.from(b.skeleton.branchParent)).toEqual(Array.from(a.skeleton.branchParent));
    expect(b.skeleton.nodePosition[1]).toBeCloseTo(3, 3);
  });

  it("refuses wood with no triangles, saying so", () => {
    const empty: WoodMesh = { positions: new Float32Array(0), indices: new Uint32Array(0) };
    expect(() => extractFromWelded(empty)).toThrow(RangeError);
    expect(() => extractFromWelded(empty)).toThrow(/the wood has no triangles \(0 vertices, 0 indices\)/);
    expect(() => extractHierarchy(empty)).toThrow(/no triangles/);
    // Vertices but no triangle: still nothing to find.
    expect(() => extractHierarchy({ positions: new Float32Array(9), indices: new Uint32Array(0) })).toThrow(/the wood has no triangles \(3 vertices/);
    // Indices past the vertices.
    expect(() => extractFromWelded({ positions: new Float32Array(9), indices: Uint32Array.of(0, 1, 7) })).toThrow(/uses vertex 7, but the mesh has 3/);
  });
});

describe("the up axis of one welded mesh (upFromWood): the trunk's base is the thickest of its ends", () => {
  /** The mesh turned so that its +y points along `up` (as a file written with that up axis has it). */
  const TURNS: Record<string, (x: number, y: number, z: number) => [number, number, number]> = {
    "+y": (x, y, z) => [x, y, z], "-y": (x, y, z) => [x, -y, -z], "+z": (x, y, z) => [x, -z, y],
    "-z": (x, y, z) => [x, z, -y], "+x": (x, y, z) => [y, -x, z], "-x": (x, y, z) => [-y, x, z],
  };
  const turned = (w: WoodMesh, up: string, scale = 1): WoodMesh => {
    const positions = new Float32Array(w.positions.length);
    for (let i = 0; i < positions.length; i += 3) positions.set(TURNS[up](scale * w.positions[i], scale * w.positions[i + 1], scale * w.positions[i + 2]), i);
    return { positions, indices: w.indices };
  };
  const woods: [string, () => WoodMesh][] = [
    ...["demo", "conifer", "sympodial"].map((name): [string, () => WoodMesh] => [`the welded ${name} tree`, () => {
      const s = preset(name);
      return weldTree(s, buildTreeGeometry(s).bark);
    }]),
    // Coarse: the trunk two rings 1.4 m apart, its base ring an end of eight vertices.
    ["welded.obj's bark (assets/models/own_welded_obj)", () => readObj(join(__dirname, "../../assets/models/own_welded_obj/welded.obj")).find((p) => p.material === "bark")!],
  ];
  for (const [what, wood] of woods) {
    it(`${what}: found whichever of the six axes is up, in metres or centimetres`, () => {
      const w = wood();
      for (const up of Object.keys(TURNS)) {
        for (const scale of up === "+z" ? [1, 100] : [1]) {
          const found = upFromWood(turned(w, up, scale));
          expect({ up, scale, found: found?.up }).toEqual({ up, scale, found: up });
          expect(found!.cos).toBeGreaterThan(0.9);
        }
      }
    });
  }

  it("says nothing for a welded piece that does not branch (a tube has two ends, neither a trunk's base)", () => {
    const s = preset("demo");
    const bark = buildTreeGeometry(s).bark;
    // The trunk's tube alone.
    const indices: number[] = [];
    for (let t = 0; t < bark.indices.length; t += 3) if (Math.round(bark.branchIndex[bark.indices[t]]) === 0) indices.push(bark.indices[t], bark.indices[t + 1], bark.indices[t + 2]);
    expect(meshParts({ positions: bark.positions, indices: Uint32Array.from(indices) }).count).toBe(1);
    expect(upFromWood({ positions: bark.positions, indices: Uint32Array.from(indices) })).toBeNull();
  });
});
