/** Akagi and Kitajima §2 (Fig. 1 a-c): the particle tree built from a TreeSkeleton. */
import { AXIS, BONE, BRANCH, DIAGONAL, LEAF, PETIOLE, RING, RING_AXIAL, SPOKE, buildParticleTree, particleCount, ringSize, spacingForBudget } from "../../../app/animators/sph-particles/particle-tree";
import { readFileSync } from "node:fs";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { materialOf, ruptureStrainOf } from "../../../app/physics/material";
import { smallTree } from "./fixtures";

describe("the particle tree", () => {
  const s = smallTree();
  const tree = buildParticleTree(s);

  it("puts bone particles along the axes, rings of the branch radius around them and leaf particles at the leaves", () => {
    const count = (t: number) => Array.from(tree.type).filter((x) => x === t).length;
    expect(count(LEAF)).toBe(s.leafCount);
    expect(tree.count).toBe(particleCount(s, 0.1));
    // Every ring particle lies on its bone's circle of the branch radius.
    for (let i = 0; i < tree.count; i++) {
      if (tree.type[i] !== BRANCH) continue;
      const b = tree.prevBone[i];
      const d = Math.hypot(...[0, 1, 2].map((a) => tree.restPosition[3 * i + a] - tree.restPosition[3 * b + a]));
      expect(d).toBeCloseTo(tree.radius[b], 9);
    }
    // Bone particles 0.1 m apart along the 2 m trunk: 21 stations.
    expect(Array.from(tree.type).filter((t, i) => t === BONE && tree.branch[i] === 0).length).toBe(21);
    expect(ringSize(0.08, 0.1)).toBe(5);
    expect(ringSize(0.001, 0.1)).toBe(3);
  });

  it("weighs the wood at the material's density and links every kind the paper names", () => {
    let wood = 0;
    for (let i = 0; i < tree.count; i++) if (tree.type[i] !== LEAF) wood += tree.mass[i];
    let expected = 0; // Σ π r² dl over the centre lines, less the child branches' first halves (inside the parent)
    for (let b = 0; b < s.branchCount; b++) for (let k = s.branchFirstNode[b] + 1; k < s.branchFirstNode[b] + s.branchNodeCount[b]; k++) {
      const dl = Math.hypot(...[0, 1, 2].map((a) => s.nodePosition[3 * k + a] - s.nodePosition[3 * k - 3 + a]));
      const r = 0.5 * (s.nodeRadius[k] + s.nodeRadius[k - 1]);
      expected += 1026 * Math.PI * r * r * dl;
    }
    console.log(`particle tree: ${tree.count} particles, ${tree.linkCount} links; wood ${wood.toFixed(2)} kg (centre lines × π r² × 1026: ${expected.toFixed(2)} kg)`);
    expect(Math.abs(wood / expected - 1)).toBeLessThan(0.1);
    for (const kind of [AXIS, RING_AXIAL, DIAGONAL, RING, SPOKE, PETIOLE]) expect(Array.from(tree.linkKind).includes(kind)).toBe(true);
    // Limits: eq. 10's e > 1 > c on every link, the wood's at the default 57 MPa / 8.6 GPa.
    for (let l = 0; l < tree.linkCount; l++) expect(tree.stretchLimit[l] > 1 && tree.compressLimit[l] < 1).toBe(true);
    // The section's shape links (ring, spokes) hold: wood breaks along the grain.
    const axis = Array.from(tree.linkKind).indexOf(AXIS), ring = Array.from(tree.linkKind).indexOf(RING);
    expect(tree.stretchLimit[axis]).toBeCloseTo(1 + 57 / 8600, 9);
    expect(tree.stretchLimit[ring]).toBe(Infinity);
    // Leaves hang on the nearest bone particle of their own branch.
    for (let l = 0; l < s.leafCount; l++) {
      const link = tree.leafLink[l], bone = tree.linkB[link];
      expect(tree.branch[bone] === s.leafBranch[l] || tree.branch[bone] === s.branchParent[s.leafBranch[l]]).toBe(true);
    }
  });

  it("scales the limits per level and picks a coarser spacing for a big tree", () => {
    const scaled = buildParticleTree(s, { levelScale: 2 });
    const twigAxis = Array.from(scaled.linkKind).findIndex((k, l) => k === AXIS && scaled.level[scaled.linkB[l]] === 2);
    expect(scaled.stretchLimit[twigAxis] - 1).toBeCloseTo(4 * (57 / 8600), 9);
    // Another species' wood breaks at its own modulus of rupture over its E (pine: 34 MPa / 6.8 GPa).
    const pine = materialOf("pine");
    expect(ruptureStrainOf(pine)).toBeCloseTo(34 / 6800, 12);
    expect(ruptureStrainOf({ ...pine, species: "custom" })).toBeGreaterThan(34 / 6800);
    expect(ruptureStrainOf({ ...pine, species: "custom" })).toBeLessThan(57 / 8600);
    // Each leaf's hold is the median times its own factor: the petiole's limit stretches with it.
    const held = buildParticleTree(s, { leafHoldFactor: Array.from({ length: s.leafCount }, (_, l) => 1 + l) });
    const stretch = (t: typeof held, l: number) => t.stretchLimit[t.leafLink[l]] - 1;
    for (let l = 1; l < s.leafCount; l++) expect(stretch(held, l) / stretch(tree, l)).toBeCloseTo(1 + l, 9);
    expect(() => buildParticleTree(s, { leafHoldFactor: [1] })).toThrow(/one factor per leaf/);
    const demo = grammarToSkeleton(readFileSync("assets/trees/demo.lsys", "utf8"), { seed: 1, depth: 7 });
    const sp = spacingForBudget(demo, 1000);
    console.log(`demo tree: ${particleCount(demo, 0.1)} particles at 0.1 m; ${particleCount(demo, sp)} at ${sp.toFixed(3)} m for a budget of 1,000`);
    expect(particleCount(demo, sp)).toBeLessThanOrEqual(1000);
    expect(sp).toBeGreaterThan(0.1);
    expect(() => buildParticleTree(s, { spacing: 0.001 })).toThrow(/0\.02 to 2 m/);
    expect(() => buildParticleTree(s, { spacing: 5 })).toThrow(RangeError);
  });
});
