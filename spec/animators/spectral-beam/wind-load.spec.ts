/**
 * wind-load.ts: the tip deflection of Habel's tapered cantilever (§4.1) under the loads it carries,
 * against closed forms: eq. 25 for a uniform load, P L³ / (3 E I) for a tip load on a uniform beam.
 */
import { SkeletonBuilder } from "../../../app/tree/skeleton";
import { taperIntegrals, BranchWindLoads } from "../../../app/animators/spectral-beam/wind-load";
import { taperedBeamDeflection } from "../../../app/animators/spectral-beam/beam";
import { branchDragPerLength } from "../../../app/wind/drag";
import { defaultMaterial } from "../../../app/physics/material";

const j = new Float64Array(2);
/** E δ_tip of a uniform load q across the axis: ∫₀ᴸ q (s J0(s) - J1(s)) ds, by a fine midpoint rule. */
function uniformTip(L: number, s1: number, s2: number, q: number): number {
  const n = 20000;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const s = ((i + 0.5) / n) * L;
    taperIntegrals(L, s1, s2, s, j);
    sum += q * (s * j[0] - j[1]);
  }
  return (sum * L) / n;
}

describe("taperIntegrals (J0, J1 of the tapered beam)", () => {
  it.each([0.05, 0.1, 0.3, 0.7, 0.99999, 1])("a uniform load: eq. 25's tip at α = %p", (alpha) => {
    const L = 2, s1 = 0.05, E = 1e9, q = 30;
    const eq25 = L * ((q * L ** 3) / (E * s1 ** 4)) * taperedBeamDeflection(1, alpha);
    expect(uniformTip(L, s1, alpha * s1, q) / E / eq25).toBeCloseTo(1, 4);
  });

  it("a tip load on a uniform beam: P L³ / (3 E I)", () => {
    const L = 1.5, r = 0.02, I = (Math.PI * r ** 4) / 4;
    taperIntegrals(L, r, r, L, j);
    expect((L * j[0] - j[1]) * I).toBeCloseTo(L ** 3 / 3, 10); // (M0 × t) J0 - P⊥ J1 with M0 = L P
  });
});

describe("BranchWindLoads", () => {
  const m = defaultMaterial();
  // A straight trunk along +y, 4 m, radius 0.1 to 0.04, and one branch along +x from its middle.
  const sb = new SkeletonBuilder();
  const trunk = sb.addBranch(-1, 0);
  for (let i = 0; i <= 4; i++) sb.addNode(trunk, 0, i, 0, 0.1 - 0.015 * i);
  const side = sb.addBranch(trunk, 0.5);
  for (let i = 0; i <= 2; i++) sb.addNode(side, 0.5 * i, 2, 0, 0.03 - 0.01 * i);
  const s = sb.build();
  const loads = new BranchWindLoads(s.branchCount);

  it("a wind across the trunk bends it downwind; a wind along the side branch leaves the branch's own bend at zero", () => {
    loads.compute(s, m, m.youngModulus, 0, 0, 1, true); // along +z: across both
    expect(loads.tip[2]).toBeGreaterThan(0);
    expect(Math.abs(loads.tip[0]) + Math.abs(loads.tip[1])).toBeLessThan(1e-9 * loads.tip[2]);
    loads.compute(s, m, m.youngModulus, 1, 0, 0, true); // along +x: along the side branch
    expect(Math.hypot(loads.tip[3], loads.tip[4], loads.tip[5])).toBeLessThan(1e-15);
    expect(loads.tip[0]).toBeGreaterThan(0);
  });

  it("the trunk carries the side branch's drag: its total force is the sum; twice E, half the bend", () => {
    loads.compute(s, m, m.youngModulus, 0, 0, 1, true);
    // drag.ts: ρ C_d r per unit length (u = 1 m/s), linear in r: its integral is the mean radius times L.
    const own = (b: number) => branchDragPerLength(m, 0.5 * (s.branchRootRadius[b] + s.branchTipRadius[b])) * s.branchLength[b];
    expect(loads.force[5]).toBeCloseTo(own(1), 10);
    expect(loads.force[2]).toBeCloseTo(own(0) + own(1), 10);
    const alone = new BranchWindLoads(s.branchCount);
    const tip0 = loads.tip[2];
    // Twice E: half the deflection.
    alone.compute(s, m, 2 * m.youngModulus, 0, 0, 1, true);
    expect(alone.tip[2]).toBeCloseTo(tip0 / 2, 15);
    expect(loads.crossForce(s, 0)).toBeCloseTo(loads.force[2], 12);
  });
});
