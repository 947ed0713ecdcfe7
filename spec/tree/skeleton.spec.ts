import { SkeletonBuilder, skeletonJoints, tipNode } from "../../app/tree/skeleton";
import { handTree, randomTree } from "./fixtures";

describe("TreeSkeleton invariants (hand-built 4-level tree and random Habel-scale tree)", () => {
  const cases = [
    ["hand", handTree().skeleton],
    ["random", randomTree({ children: [4, 3, 3], leavesPerTip: 2 })],
  ] as const;

  it.each(cases)("%s: every branch's parent has a lower level, parentX in [0, 1]", (_name, s) => {
    expect(s.branchParent[0]).toBe(-1);
    expect(s.branchLevel[0]).toBe(0);
    for (let b = 1; b < s.branchCount; b++) {
      const p = s.branchParent[b];
      expect(p).toBeGreaterThanOrEqual(0);
      expect(s.branchLevel[p]).toBeLessThan(s.branchLevel[b]);
      expect(s.branchParentX[b]).toBeGreaterThanOrEqual(0);
      expect(s.branchParentX[b]).toBeLessThanOrEqual(1);
    }
  });

  it.each(cases)("%s: node chains run 0..1 along each branch and base nodes hang off the parent", (_name, s) => {
    for (let b = 0; b < s.branchCount; b++) {
      const first = s.branchFirstNode[b];
      expect(s.nodeX[first]).toBe(0);
      expect(s.nodeX[tipNode(s, b)]).toBeCloseTo(1, 6);
      for (let k = first + 1; k <= tipNode(s, b); k++) {
        expect(s.nodeX[k]).toBeGreaterThanOrEqual(s.nodeX[k - 1]);
        expect(s.nodeParent[k]).toBe(k - 1);
        expect(s.nodeBranch[k]).toBe(b);
      }
      if (b > 0) expect(s.nodeBranch[s.nodeParent[first]]).toBe(s.branchParent[b]);
    }
  });

  it("the hand tree has 4 levels, 6 branches and 5 leaves", () => {
    const { skeleton: s } = handTree();
    expect(s.levels).toBe(4);
    expect(s.branchCount).toBe(6);
    expect(s.leafCount).toBe(5);
  });

  it("the random tree reaches Habel 2009's scale with its defaults", () => {
    const s = randomTree();
    expect(s.levels).toBe(4);
    expect(s.branchCount).toBe(1573);
    expect(s.leafCount).toBe(10080);
  });
});

describe("skeletonJoints: one joint per node, each branch's base merged into its origin", () => {
  it("merges bases that sit on their origin, keeps a base apart from it as a child joint, parents first", () => {
    const b = new SkeletonBuilder();
    const t = b.addBranch(-1, 0);
    for (let i = 0; i <= 3; i++) b.addNode(t, 0, i, 0, 0.1);
    const on = b.addBranch(t, 0.5, null, { branch: t, node: 2 });
    b.addNode(on, 0, 2, 0, 0.05); // the same point as its origin: merged
    b.addNode(on, 1, 3, 0, 0.04);
    const apart = b.addBranch(t, 0.3, null, { branch: t, node: 1 });
    b.addNode(apart, 0.2, 1, 0, 0.05); // 0.2 m from its origin: a joint of its own
    b.addNode(apart, 0.8, 1.5, 0, 0.04);
    const s = b.build();
    const j = skeletonJoints(s, "test");
    expect(j.node.length).toBe(s.nodeCount - 1);
    const base = (br: number) => s.branchFirstNode[br];
    expect(j.jointOfNode[base(on)]).toBe(j.jointOfNode[base(t) + 2]);
    expect(j.parent[j.jointOfNode[base(on) + 1]]).toBe(j.jointOfNode[base(t) + 2]);
    expect(j.parent[j.jointOfNode[base(apart)]]).toBe(j.jointOfNode[base(t) + 1]);
    expect(j.parent[0]).toBe(-1);
    for (let i = 1; i < j.node.length; i++) expect(j.parent[i]).toBeLessThan(i);
  });
});
