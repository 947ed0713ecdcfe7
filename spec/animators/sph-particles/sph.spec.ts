/**
 * Akagi and Kitajima §2, "Wind simulations": the SPH wind (eqs. 1-3) on its lattice, and its
 * two-way coupling with the tree's particles.
 */
import { SphWind, windBoxAround, type TreeCoupling } from "../../../app/animators/sph-particles/sph";
import { boundaryVolumes } from "../../../app/animators/sph-particles/boundary-volumes";
import { SphTreeSimulation } from "../../../app/animators/sph-particles/simulation";
import { buildParticleTree } from "../../../app/animators/sph-particles/particle-tree";
import { Rng } from "../../../app/math/rng";
import { smallTree, uniformWind, uprightTrunk } from "./fixtures";

const RHO = 1.225;

function densityRange(w: SphWind): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < w.count; i++) {
    lo = Math.min(lo, w.density[i] / RHO - 1);
    hi = Math.max(hi, w.density[i] / RHO - 1);
  }
  return [lo, hi];
}

describe("the wind particles", () => {
  it("keeps a lattice at rest at the rest density within 1 %, jostled a little", () => {
    const w = new SphWind({ min: [0, 0, 0], cells: [8, 8, 8], spacing: 0.1 }, uniformWind(0));
    const rng = new Rng(5);
    for (let i = 0; i < w.position.length; i++) w.position[i] += 0.003 * (rng.next() - 0.5); // ±1.5 mm
    w.step(0.01, 0);
    const [lo0, hi0] = densityRange(w);
    for (let k = 1; k < 40; k++) w.step(0.01, 0.01 * k);
    const [lo, hi] = densityRange(w);
    let vmax = 0;
    for (let i = 0; i < w.velocity.length; i++) vmax = Math.max(vmax, Math.abs(w.velocity[i]));
    console.log(`rest lattice: density ${(100 * lo0).toFixed(3)} to ${(100 * hi0).toFixed(3)} % at first, ${(100 * lo).toFixed(3)} to ${(100 * hi).toFixed(3)} % after 0.4 s; fastest ${vmax.toExponential(2)} m/s`);
    expect(Math.max(-lo, hi)).toBeLessThan(0.01);
    expect(Math.max(-lo0, hi0)).toBeGreaterThan(0); // the jostle was felt
    expect(vmax).toBeLessThan(0.05);
  });

  it("keeps a uniform flow uniform through the periodic box and its driven inflow", () => {
    const w = new SphWind({ min: [0, 0, 0], cells: [12, 6, 6], spacing: 0.1 }, uniformWind(5, 0, 1));
    for (let k = 0; k < 30; k++) w.step(0.01, 0.01 * k);
    let dev = 0;
    for (let i = 0; i < w.count; i++) dev = Math.max(dev, Math.hypot(w.velocity[3 * i] - 5, w.velocity[3 * i + 1], w.velocity[3 * i + 2] - 1));
    const [lo, hi] = densityRange(w);
    console.log(`uniform flow: largest deviation ${dev.toExponential(2)} m/s, density ${(100 * lo).toFixed(4)} to ${(100 * hi).toFixed(4)} %`);
    expect(dev).toBeLessThan(1e-6 * 5);
    expect(Math.max(-lo, hi)).toBeLessThan(0.01);
  });

  it("gives the tree exactly the momentum the air loses in a step", () => {
    const tree = buildParticleTree(uprightTrunk(0.8, 0.15), { spacing: 0.1 });
    const box = windBoxAround({ min: [-0.6, 0, -0.6], max: [0.6, 1.0, 0.6] }, 0, 0.1);
    const w = new SphWind(box, uniformWind(4), { drive: false }, tree.count);
    const n = tree.count;
    const sphVolume = boundaryVolumes(tree.restPosition, tree.solidVolume, w.h, new Float64Array(n));
    // The closure's drag too, on every particle in the air (the anchor below ground has none to push back).
    const dragFactor = Float64Array.from(tree.pinned, (p, i) => (p && tree.branch[i] < 0 ? 0 : 0.01));
    const c: TreeCoupling = {
      count: n, position: Float64Array.from(tree.restPosition), velocity: new Float64Array(3 * n), sphVolume, dragFactor,
      dragAxis: new Float64Array(3 * n), force: new Float64Array(3 * n), dragDamping: new Float64Array(n),
    };
    for (let i = 0; i < n; i++) c.dragAxis[3 * i + 1] = 1;
    const before = w.momentum(new Float64Array(3));
    w.step(0.01, 0, c);
    const after = w.momentum(new Float64Array(3));
    const given = [0, 0, 0];
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) given[a] += c.force[3 * i + a] * 0.01;
    console.log(`momentum: tree took (${given.map((g) => g.toExponential(4)).join(", ")}), air lost (${[0, 1, 2].map((a) => (before[a] - after[a]).toExponential(4)).join(", ")}) kg m/s`);
    expect(given[0]).toBeGreaterThan(0); // pushed downwind
    for (let a = 0; a < 3; a++) expect(Math.abs(before[a] - after[a] - given[a])).toBeLessThan(1e-9 * Math.abs(given[0]) + 1e-15);
  });

  it("leaves a wake with a velocity deficit behind a fixed particle cylinder", () => {
    const sim = new SphTreeSimulation(uprightTrunk(1.2, 0.25), uniformWind(3), new Rng(1), { fixedTree: true, windSpacing: 0.125, margin: 0.6 });
    for (let k = 0; k < 40; k++) sim.step(0.01);
    const w = sim.wind;
    const mean = (pick: (x: number, y: number, z: number) => boolean) => {
      let s = 0, c = 0;
      for (let i = 0; i < w.count; i++) {
        const x = w.position[3 * i], y = w.position[3 * i + 1], z = w.position[3 * i + 2];
        if (pick(x, y, z)) { s += w.velocity[3 * i]; c++; }
      }
      expect(c).toBeGreaterThan(5);
      return s / c;
    };
    const behind = mean((x, y, z) => x > 0.25 && x < 0.7 && Math.abs(z) < 0.2 && y > 0.2 && y < 1.0);
    const aside = mean((x, y, z) => x > 0.25 && x < 0.7 && Math.abs(z) > 0.55 && y > 0.2 && y < 1.0);
    console.log(`wake: u behind ${behind.toFixed(3)} m/s, beside ${aside.toFixed(3)} m/s (inflow 3), ${w.count} wind particles, ${w.substeps} substeps a step`);
    expect(behind).toBeLessThan(0.8 * aside);
    expect(aside).toBeGreaterThan(2);
  });

  it("gives each tree particle the boundary volume of all its pairs (Akinci et al. 2012), found through a grid", () => {
    const tree = buildParticleTree(smallTree(), { spacing: 0.05 });
    const n = tree.count;
    for (const h of [0.02, 0.1, 0.4, 3]) {
      const got = boundaryVolumes(tree.restPosition, tree.solidVolume, h, new Float64Array(n).fill(NaN));
      // Every pair, as eq. 1's sum over the tree alone: min(solid volume, 1 / Σ_k W(x_b - x_k)).
      const poly6 = 315 / (64 * Math.PI * h ** 9);
      let worst = 0, zeros = 0;
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (let j = 0; j < n; j++) {
          if (!(tree.solidVolume[i] > 0 && tree.solidVolume[j] > 0)) continue;
          const r2 = (tree.restPosition[3 * i] - tree.restPosition[3 * j]) ** 2 + (tree.restPosition[3 * i + 1] - tree.restPosition[3 * j + 1]) ** 2 + (tree.restPosition[3 * i + 2] - tree.restPosition[3 * j + 2]) ** 2;
          if (r2 < h * h) sum += poly6 * (h * h - r2) ** 3;
        }
        const want = tree.solidVolume[i] > 0 ? Math.min(tree.solidVolume[i], 1 / sum) : 0;
        if (want === 0) zeros++;
        worst = Math.max(worst, Math.abs(got[i] - want) / Math.max(want, 1e-300));
      }
      expect(zeros).toBeGreaterThan(0); // the anchor has no volume
      expect(worst).toBeLessThan(1e-12);
    }
  });

  it("refuses a bad time step or box with a RangeError naming the range", () => {
    const w = new SphWind({ min: [0, 0, 0], cells: [6, 6, 6], spacing: 0.1 }, uniformWind(0));
    expect(() => w.step(0, 0)).toThrow(/\(0, 0\.1\]/);
    expect(() => windBoxAround({ min: [0, 0, 0], max: [1, 1, 1] }, 1, 0.001)).toThrow(RangeError);
    expect(() => new SphWind({ min: [0, 0, 0], cells: [6, 6, 6], spacing: 0.1 }, uniformWind(0), { mach: 2 })).toThrow(/mach/);
  });
});
