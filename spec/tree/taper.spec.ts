import { buildTreeGeometry } from "../../app/tree/geometry";
import { tipNode } from "../../app/tree/skeleton";
import { applyTaper, CHILD_RADIUS_SHARE, MIN_TIP_RADIUS, radiusAt, TAPER_PARAM, TAPER_RANGE } from "../../app/tree/taper";
import { handTree, randomTree } from "./fixtures";

describe("applyTaper (Habel 2009 §4.1: alpha = tip / root = 1 - taper)", () => {
  const { skeleton: src, b } = handTree();

  it("declares its range once: 0 to 0.95, default 0.6", () => {
    expect(TAPER_RANGE).toEqual({ min: 0, max: 0.95, default: 0.6 });
    expect(TAPER_PARAM).toMatchObject({ kind: "number", min: 0, max: 0.95, default: 0.6 });
  });

  it.each([-0.01, 0.96, NaN, Infinity])("throws a RangeError naming the range for taper %p", (t) => {
    expect(() => applyTaper(src, t)).toThrow(RangeError);
    expect(() => applyTaper(src, t)).toThrow(/from 0 to 0\.95/);
  });

  it("keeps the trunk's root radius and makes tip / root = 1 - taper", () => {
    for (const taper of [0, 0.3, 0.6, 0.95]) {
      const s = applyTaper(src, taper);
      expect(s.branchRootRadius[b.trunk]).toBe(src.branchRootRadius[b.trunk]);
      expect(s.branchTipRadius[b.trunk] / s.branchRootRadius[b.trunk]).toBeCloseTo(1 - taper, 6);
      expect(s.branchTaperRatio[b.trunk]).toBeCloseTo(1 - taper, 6);
    }
  });

  it("falls linearly along every branch by nodeX, tips no thinner than 2 mm nor thicker than the root", () => {
    const s = applyTaper(src, 0.8);
    for (let br = 0; br < s.branchCount; br++) {
      const root = s.branchRootRadius[br], tip = s.branchTipRadius[br];
      expect(tip).toBeGreaterThanOrEqual(Math.min(root, MIN_TIP_RADIUS) - 1e-9);
      expect(tip).toBeLessThanOrEqual(root);
      if (root * 0.2 >= MIN_TIP_RADIUS) expect(tip / root).toBeCloseTo(0.2, 5);
      expect(s.branchTaperRatio[br]).toBeCloseTo(tip / root, 6);
      for (let k = s.branchFirstNode[br]; k <= tipNode(s, br); k++) {
        expect(s.nodeRadius[k]).toBeCloseTo(root + (tip - root) * s.nodeX[k], 6);
      }
    }
    // The level-3 twig (8 mm root) hits the 2 mm floor at taper 0.8.
    expect(s.branchTipRadius[b.leftLeafy]).toBeCloseTo(MIN_TIP_RADIUS, 6);
  });

  it("never lets a child's root radius exceed its parent's radius at the attachment point", () => {
    for (const s of [applyTaper(src, 0.95), applyTaper(randomTree({ children: [5, 4, 3] }), 0.9)]) {
      for (let br = 1; br < s.branchCount; br++) {
        const p = s.branchParent[br];
        const at = radiusAt(s, s.nodeRadius, p, s.branchParentX[br]);
        expect(s.branchRootRadius[br]).toBeLessThanOrEqual(CHILD_RADIUS_SHARE * at + 1e-7);
      }
    }
  });

  it("keeps the source's root radius where the parent is thick enough", () => {
    const s = applyTaper(src, 0.2);
    expect(s.branchRootRadius[b.left]).toBe(src.branchRootRadius[b.left]);
  });

  it("returns a new skeleton: the source is unchanged, unchanged arrays are shared", () => {
    const before = Float32Array.from(src.nodeRadius);
    const s = applyTaper(src, 0.7);
    expect(src.nodeRadius).toEqual(before);
    expect(s.nodeRadius).not.toBe(src.nodeRadius);
    expect(s.nodePosition).toBe(src.nodePosition);
    expect(s.branchFrame).toBe(src.branchFrame);
    expect(s.leafCenter).toBe(src.leafCenter);
  });

  it("changes the rebuilt geometry's radii (a taper change rebuilds the tree)", () => {
    const g1 = buildTreeGeometry(applyTaper(src, 0.1));
    const g2 = buildTreeGeometry(applyTaper(src, 0.9));
    expect(g1.vertexCount).toBe(g2.vertexCount);
    // Tip ring of the trunk: 9 vertices before the trunk's apex.
    const n = src.branchNodeCount[b.trunk];
    const v = (n - 1) * 9;
    const r = (g: typeof g1) => Math.hypot(g.bark.positions[3 * v] - src.nodePosition[3 * (n - 1)], g.bark.positions[3 * v + 1] - src.nodePosition[3 * (n - 1) + 1], g.bark.positions[3 * v + 2] - src.nodePosition[3 * (n - 1) + 2]);
    expect(r(g1)).toBeCloseTo(0.2 * 0.9, 5);
    expect(r(g2)).toBeCloseTo(0.2 * 0.1, 5);
  });
});
