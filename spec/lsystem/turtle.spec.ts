import { derive, grammarToSkeleton, interpret, parseGrammar } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { MAX_LEVELS, type TreeSkeleton } from "../../app/tree/skeleton";

function skeleton(text: string, depth = 0): TreeSkeleton {
  return grammarToSkeleton(text, { depth, seed: 1, fileName: "t.lsys" });
}
function node(s: TreeSkeleton, i: number): number[] {
  return Array.from(s.nodePosition.subarray(3 * i, 3 * i + 3), (v) => +v.toFixed(5));
}

describe("turtle interpretation (ABOP §1.5)", () => {
  it("starts at the origin heading +y; + turns toward +x; consecutive F extend one branch", () => {
    const s = skeleton("#width 0.2\naxiom: F(1) F(2) +(90) F(1)\n");
    expect(s.branchCount).toBe(1);
    expect(s.nodeCount).toBe(4);
    expect([node(s, 0), node(s, 1), node(s, 2), node(s, 3)]).toEqual([[0, 0, 0], [0, 1, 0], [0, 3, 0], [1, 3, 0]]);
    expect(s.nodeRadius[0]).toBeCloseTo(0.1);
  });

  it("a bracket that draws is a child branch at its place along the parent", () => {
    const s = skeleton("axiom: !(0.2) F(1) [&(90) !(0.1) F(0.5)] F(3)\n");
    expect(s.branchCount).toBe(2);
    expect(Array.from(s.branchLevel)).toEqual([0, 1]);
    expect(s.branchParent[1]).toBe(0);
    expect(s.branchParentX[1]).toBeCloseTo(0.25);
    expect(node(s, s.branchFirstNode[1] + 1)).toEqual([0, 1, 0.5]); // & pitches H toward U = +z
    expect(s.branchRootRadius[1]).toBeCloseTo(0.05);
  });

  it("sympodial continuation: the child best aligned with an ended apex continues its branch", () => {
    const s = skeleton("axiom: F(1) [+(10) F(1)] [-(60) F(1)]\n");
    expect(s.branchCount).toBe(2);
    expect(s.branchNodeCount[0]).toBe(3);
    expect(s.branchLevel[1]).toBe(1);
    expect(s.branchParentX[1]).toBeCloseTo(0.5); // the merged trunk is 2 long
  });

  it("caps levels at MAX_LEVELS: deeper brackets become level-3 branches on the level-2 ancestor", () => {
    const s = skeleton("axiom: F(1) [+(45) F(1) [+(45) F(1) [+(45) F(1) [+(45) F(1) [+(45) F(1)] F(1)] F(1)] F(1)] F(1)] F(1)\n");
    expect(s.branchCount).toBe(6);
    expect(Math.max(...s.branchLevel)).toBe(MAX_LEVELS - 1);
    expect(Array.from(s.branchLevel)).toEqual([0, 1, 2, 3, 3, 3]);
    expect(Array.from(s.branchParent)).toEqual([-1, 0, 1, 2, 2, 2]);
  });

  it("leaves: petiole at the turtle, card along H, normal U, x along the branch", () => {
    const s = skeleton("axiom: F(2) [+(90) ~(0.4)] F(2)\n");
    expect(s.leafCount).toBe(1);
    expect(s.leafBranch[0]).toBe(0);
    expect(s.leafX[0]).toBeCloseTo(0.5);
    expect(Array.from(s.leafCenter, (v) => +v.toFixed(5))).toEqual([0.2, 2, 0]);
    expect(Array.from(s.leafAxis, (v) => +v.toFixed(5))).toEqual([1, 0, 0]);
    expect(Array.from(s.leafNormal, (v) => +v.toFixed(5))).toEqual([0, 0, 1]);
    expect(s.leafSize[0]).toBeCloseTo(0.4);
  });

  it("tropism bends the heading toward T (ABOP §2.3); $ levels the left vector", () => {
    const s = skeleton("#tropism 0, -1, 0, 0.5\naxiom: +(90) F(1) F(1)\n");
    const y = s.nodePosition[3 * 2 + 1];
    expect(y).toBeLessThan(-0.1);
    const t = skeleton("axiom: F(1) &(30) /(40) $ [+(90) F(1)] F(1)\n");
    expect(Math.abs(t.nodePosition[3 * t.branchFirstNode[1] + 4] - t.nodePosition[3 * t.branchFirstNode[1] + 1])).toBeLessThan(1e-6);
  });

  it("draws nothing: a clear error", () => {
    expect(() => skeleton("axiom: A f(1)\n")).toThrow(/draws nothing/);
  });
});

describe("shipped grammars", () => {
  const ranges: Record<string, { branches: [number, number]; leaves: [number, number]; levels?: number }> = {
    demo: { branches: [30, 80], leaves: [50, 1000] },
    habel: { branches: [1200, 1900], leaves: [8000, 12000], levels: 4 },
    conifer: { branches: [200, 1500], leaves: [1000, 10000] },
    sympodial: { branches: [150, 1500], leaves: [300, 10000] },
    // Barron §7.1: 255 segments of which 128 axes (one per split's first child continues an axis).
    barron: { branches: [128, 128], leaves: [508, 508], levels: 4 },
  };

  it("has the five presets", () => {
    expect(TREE_PRESETS.map((p) => p.name)).toEqual(["demo", "habel", "conifer", "sympodial", "barron"]);
  });

  for (const preset of TREE_PRESETS) {
    describe(preset.name, () => {
      const s = grammarToSkeleton(preset.text, { depth: preset.defaultDepth, seed: 1, fileName: `${preset.name}.lsys` });

      it("is a well-formed hierarchy", () => {
        expect(s.branchLevel[0]).toBe(0);
        expect(s.branchParent[0]).toBe(-1);
        for (let b = 1; b < s.branchCount; b++) {
          const p = s.branchParent[b];
          expect(p >= 0 && p < b).toBe(true);
          expect(s.branchLevel[p]).toBe(s.branchLevel[b] - 1);
          expect(s.branchParentX[b] >= 0 && s.branchParentX[b] <= 1).toBe(true);
          expect(s.branchNodeCount[b]).toBeGreaterThanOrEqual(2);
        }
        expect(s.levels).toBeLessThanOrEqual(MAX_LEVELS);
        // Every branch grows from the node the turtle stood on (branchOrigin), even where the level
        // cap hung it off another ancestor: its base node sits exactly there.
        expect(s.branchOrigin[0]).toBe(-1);
        for (let b = 1; b < s.branchCount; b++) {
          const o = s.branchOrigin[b], k = s.branchFirstNode[b];
          expect(o >= 0 && o < k).toBe(true);
          const d = Math.hypot(s.nodePosition[3 * k] - s.nodePosition[3 * o], s.nodePosition[3 * k + 1] - s.nodePosition[3 * o + 1], s.nodePosition[3 * k + 2] - s.nodePosition[3 * o + 2]);
          expect(d).toBeLessThan(1e-5);
        }
        for (let i = 0; i < s.leafCount; i++) expect(s.leafX[i] >= 0 && s.leafX[i] <= 1).toBe(true);
        expect(s.nodePosition.every(Number.isFinite)).toBe(true);
        expect(s.leafCenter.every(Number.isFinite)).toBe(true);
      });

      it("has the size of a tree: 4 to 15 m tall, trunk radius 10 to 30 cm", () => {
        let h = 0;
        for (let i = 0; i < s.nodeCount; i++) h = Math.max(h, s.nodePosition[3 * i + 1]);
        expect(h).toBeGreaterThan(4);
        expect(h).toBeLessThan(15);
        expect(s.branchRootRadius[0]).toBeGreaterThanOrEqual(0.1);
        expect(s.branchRootRadius[0]).toBeLessThanOrEqual(0.3);
      });

      it("has the stated number of branches and leaves", () => {
        const r = ranges[preset.name];
        expect(s.branchCount).toBeGreaterThanOrEqual(r.branches[0]);
        expect(s.branchCount).toBeLessThanOrEqual(r.branches[1]);
        expect(s.leafCount).toBeGreaterThanOrEqual(r.leaves[0]);
        expect(s.leafCount).toBeLessThanOrEqual(r.leaves[1]);
        if (r.levels) expect(s.levels).toBe(r.levels);
      });

      it("is deterministic: same seed, identical arrays", () => {
        const t = grammarToSkeleton(preset.text, { depth: preset.defaultDepth, seed: 1 });
        expect(t.nodePosition).toEqual(s.nodePosition);
        expect(t.branchParent).toEqual(s.branchParent);
        expect(t.leafCenter).toEqual(s.leafCenter);
      });

      it("builds at every lower depth too", () => {
        for (let d = 1; d < preset.defaultDepth; d++) expect(() => grammarToSkeleton(preset.text, { depth: d, seed: 1 })).not.toThrow();
      });
    });
  }

  it("a stochastic grammar differs with the seed", () => {
    const p = TREE_PRESETS.find((x) => x.name === "sympodial")!;
    const g = parseGrammar(p.text);
    const a = interpret(derive(g, { seed: 1 }), g, { seed: 1 });
    const b = interpret(derive(g, { seed: 2 }), g, { seed: 2 });
    expect(a.nodeCount === b.nodeCount && a.nodePosition.every((v, i) => v === b.nodePosition[i])).toBe(false);
  });
});
