/**
 * Barron §4.1 (the particle system the turtle builds) and §5.1 (its update): pointers, radii,
 * propagation (eqs. 5.2, 5.3), the rod physics (eqs. 2.1 to 2.7) and the step's stability.
 */
import { readFileSync } from "node:fs";
import { derive, grammarToSkeleton, parseGrammar } from "../../../app/lsystem/lsystem";
import {
  buildParticleTree, G, ParticleDynamics, rotateQuat, STEP_SAFETY, stepNorm, verletStepLimit, ZETA_MIN,
  type DynamicsSettings, type ParticleTree,
} from "../../../app/animators/lsystem-particles/particles";
import { Rng } from "../../../app/math/rng";
import { defaultMaterial } from "../../../app/physics/material";

const BARRON = readFileSync("assets/trees/barron.lsys", "utf8");

function barron(depth = 7): { tree: ParticleTree; skeletonLeaves: number } {
  const s = grammarToSkeleton(BARRON, { seed: 1, depth });
  return { tree: buildParticleTree(s, 0.003), skeletonLeaves: s.leafCount };
}

/** Number of F modules in a derived string: the turtle's moves. */
function movesOf(text: string, depth: number): number {
  const g = parseGrammar(text, "t.lsys");
  const d = derive(g, { seed: 1, depth });
  let n = 0;
  for (let i = 0; i < d.length; i++) if (d.symbols[i] === "F".charCodeAt(0)) n++;
  return n;
}

describe("the particle system (§4.1)", () => {
  it("has a root and one particle per move of the turtle (255 rods for Barron's tree)", () => {
    for (const depth of [0, 2, 5, 7]) {
      const { tree } = barron(depth);
      expect(tree.count).toBe(1 + movesOf(BARRON, depth));
    }
    expect(barron(7).tree.count).toBe(256);
  });

  it("gives every particle the turtle's parent: rods keep the lengths the grammar drew, past the level cap", () => {
    // Every F of Barron's tree at split k has length 1.5 × 0.8^k; the skeleton caps levels at 4,
    // but the particles must keep the turtle's own topology (a wrong parent changes a rod's length).
    const { tree } = barron(7);
    const allowed = [2.2, ...Array.from({ length: 8 }, (_, k) => 1.5 * 0.8 ** k)];
    for (let i = 1; i < tree.count; i++) {
      const L = tree.length[i];
      expect(Math.min(...allowed.map((a) => Math.abs(a - L)))).toBeLessThan(1e-5);
    }
    // And a binary tree: every particle but the tips has exactly two children (the trunk one).
    const children = new Int32Array(tree.count);
    for (let i = 1; i < tree.count; i++) children[tree.parent[i]]++;
    const counts = new Map<number, number>();
    for (const c of children) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.get(0)).toBe(128); // tips
    expect(counts.get(1)).toBe(1); // the root: the trunk
    expect(counts.get(2)).toBe(127);
  });

  it("links first child, siblings in the order added, and the dominant child on the same axis", () => {
    const s = grammarToSkeleton(readFileSync("assets/trees/demo.lsys", "utf8"), { seed: 1 });
    const tree = buildParticleTree(s, 0.003);
    for (let p = 0; p < tree.count; p++) {
      const kids: number[] = [];
      for (let c = tree.firstChild[p]; c >= 0; c = tree.sibling[c]) kids.push(c);
      const expected: number[] = [];
      for (let i = 1; i < tree.count; i++) if (tree.parent[i] === p) expected.push(i);
      expect(kids).toEqual(expected); // all children, in the order the turtle added them
      const d = tree.dominant[p];
      if (d >= 0) {
        expect(tree.parent[d]).toBe(p);
        expect(s.nodeBranch[tree.node[d]]).toBe(s.nodeBranch[tree.node[p]]);
      }
    }
    // A tip (no children) has no dominant child; an axis node with a successor has one.
    let withDominant = 0;
    for (let p = 0; p < tree.count; p++) {
      if (tree.firstChild[p] < 0) expect(tree.dominant[p]).toBe(-1);
      else if (tree.dominant[p] >= 0) withDominant++;
    }
    expect(withDominant).toBeGreaterThan(tree.count / 3);
    for (let i = 1; i < tree.count; i++) expect(tree.parent[i]).toBeLessThan(i); // parents first
  });

  it("scales every radius by the minimum branch radius over the smallest radius", () => {
    const s = grammarToSkeleton(BARRON, { seed: 1 });
    for (const minR of [0.002, 0.01]) {
      const tree = buildParticleTree(s, minR);
      const radii = Array.from(tree.radius);
      expect(Math.min(...radii)).toBeCloseTo(minR, 9);
      for (let i = 0; i < tree.count; i++) expect(tree.radius[i] / s.nodeRadius[tree.node[i]]).toBeCloseTo(tree.radiusScale, 9);
    }
    // Deeper trees have thinner twigs in grammar units, so the same constant makes the trunk thicker.
    const trunk = (d: number) => barron(d).tree.radius[1];
    expect(trunk(7)).toBeGreaterThan(1.5 * trunk(4));
    expect(() => buildParticleTree(s, 0)).toThrow(/minimum branch radius/);
  });
});

/** Barron's own forces and springs (paper-literal): the rods of §5.1 each on its own. */
function dynamics(settings: DynamicsSettings = { damping: 0.2, stiffness: 1, gravity: 0 }): ParticleDynamics {
  return new ParticleDynamics(barron(7).tree, { ...settings, paperLiteral: true });
}

/** Random deflections and spins of every rod. */
function shake(d: ParticleDynamics, seed: number, angle: number, spin: number): void {
  const rng = new Rng(seed);
  for (let i = 1; i < d.tree.count; i++) {
    rotateQuat(d.rotation, 4 * i, rng.range(-angle, angle), rng.range(-angle, angle), rng.range(-angle, angle));
    for (let c = 0; c < 3; c++) d.omega[3 * i + c] = rng.range(-spin, spin);
  }
  d.propagate();
}

describe("propagation (eqs. 5.2, 5.3)", () => {
  it("moves a rod's children with it and keeps every child's offset and spring vector", () => {
    const d = dynamics();
    shake(d, 3, 0.2, 0);
    const t = d.tree, C = d.current;
    const before = Float64Array.from(C);
    // Turn one rod near the base a lot.
    const j = t.firstChild[t.firstChild[0]];
    rotateQuat(d.rotation, 4 * j, 0.5, 0, 0.3);
    d.propagate();
    const inSubtree = (i: number) => {
      for (let k = i; k >= 0; k = t.parent[k]) if (k === j) return true;
      return false;
    };
    const shift = [0, 1, 2].map((c) => C[3 * j + c] - before[3 * j + c]);
    expect(Math.hypot(...shift)).toBeGreaterThan(0.1);
    let inside = 0;
    for (let i = 1; i < t.count; i++) {
      for (let c = 0; c < 3; c++) {
        if (i === j) continue;
        // Eqs. 5.2 and 5.3: every particle below the turned rod moves by exactly the rod end's
        // displacement (rest and spring vector carried along); every other particle stays.
        const expected = before[3 * i + c] + (inSubtree(i) ? shift[c] : 0);
        expect(C[3 * i + c]).toBeCloseTo(expected, 10);
      }
      if (inSubtree(i) && i !== j) inside++;
      // Rods keep their length.
      const p = t.parent[i];
      const L = Math.hypot(C[3 * i] - C[3 * p], C[3 * i + 1] - C[3 * p + 1], C[3 * i + 2] - C[3 * p + 2]);
      expect(L).toBeCloseTo(t.length[i], 10);
    }
    expect(inside).toBeGreaterThan(10);
  });
});

describe("rod physics (eqs. 2.1 to 2.7, 5.1)", () => {
  it("oscillates at ω_n² = 3 k_s / M (eqs. 2.1 to 2.3 with I = M L² / 3)", () => {
    const d = dynamics({ damping: 0, stiffness: 1, gravity: 0 });
    const i = 200; // a thin rod
    const wn = Math.sqrt((3 * d.springK[i]) / d.mass[i]);
    // Deflect it about an axis across the rod, and watch the quaternion's component on that axis.
    const p = d.tree.parent[i];
    const bx = d.tree.rest[3 * i] - d.tree.rest[3 * p], bz = d.tree.rest[3 * i + 2] - d.tree.rest[3 * p + 2];
    const ax = -bz / Math.hypot(bx, bz), az = bx / Math.hypot(bx, bz); // horizontal, across the rod
    rotateQuat(d.rotation, 4 * i, 0.01 * ax, 0, 0.01 * az);
    const along = () => d.rotation[4 * i + 1] * ax + d.rotation[4 * i + 3] * az;
    // Free oscillation: time between successive downward zero crossings of the deflection.
    const h = 1 / 2000;
    const crossings: number[] = [];
    let prev = along();
    for (let k = 1; k < 20000 && crossings.length < 4; k++) {
      d.step(h);
      const z = along();
      if (prev > 0 && z <= 0) crossings.push(k * h);
      prev = z;
    }
    const period = (crossings[3] - crossings[0]) / 3;
    expect(period).toBeCloseTo((2 * Math.PI) / wn, 3);
  });

  it("deflects by the static balance of wind torque and spring torque", () => {
    const d = dynamics({ damping: 0.8, stiffness: 1, gravity: 0 });
    const i = 1; // the trunk: upright, force across it
    const F = 40;
    d.windForce[3 * i] = F;
    for (let k = 0; k < 3000; k++) d.step(1 / 60);
    // Torque balance: L F cos θ = k_s L² sin θ  (spring force -k_s S, |S| = 2 L sin(θ/2)).
    const L = d.tree.length[i], ks = d.springK[i];
    const bx = d.current[3 * i] - d.current[0], by = d.current[3 * i + 1] - d.current[1];
    const theta = Math.atan2(bx, by);
    expect(Math.tan(theta)).toBeCloseTo(F / (ks * L), 4);
  });

  it("pulls rods down under gravity, and a horizontal rod more than an upright one", () => {
    const d = dynamics({ damping: 0.8, stiffness: 1, gravity: 1 });
    for (let k = 0; k < 1500; k++) d.step(1 / 60);
    let drop = 0;
    for (let i = 1; i < d.tree.count; i++) drop += d.current[3 * i + 1] - d.tree.rest[3 * i + 1];
    expect(drop).toBeLessThan(0);
    // Static sag of each rod: (M g / 2) L cos φ = k_s L² sin θ for small angles (gravity at the
    // rod's centre of mass), φ the rod's slope.
    const t = d.tree;
    let most = 0, least = Infinity;
    for (let i = 1; i < t.count; i++) {
      const p = t.parent[i];
      const r = [0, 1, 2].map((c) => t.rest[3 * i + c] - t.rest[3 * p + c]);
      const b = [0, 1, 2].map((c) => d.current[3 * i + c] - d.current[3 * p + c]);
      const L = t.length[i];
      const turned = Math.acos(Math.min(1, (r[0] * b[0] + r[1] * b[1] + r[2] * b[2]) / (L * L)));
      const horizontal = Math.hypot(r[0], r[2]) / L;
      const expected = (0.5 * d.mass[i] * G * horizontal) / (d.springK[i] * L);
      if (horizontal > 0.3) expect(turned / expected).toBeGreaterThan(0.8);
      if (horizontal > 0.3) expect(turned / expected).toBeLessThan(1.2);
      if (horizontal > 0.9) most = Math.max(most, turned);
      if (horizontal < 0.05) least = Math.min(least, turned);
    }
    expect(least).toBeLessThan(0.01); // the upright trunk hardly turns
    expect(most).toBeGreaterThan(10 * least);
    expect(d.mass[255]).toBeCloseTo(defaultMaterial().woodDensity * Math.PI * t.radius[255] ** 2 * t.length[255], 9);
  });

  it("keeps every upright rod up at the softest stiffness and the strongest gravity", () => {
    const d = dynamics({ damping: 0.5, stiffness: 0.2, gravity: 2 });
    for (let k = 0; k < 1200; k++) d.step(1 / 60);
    let top = 0, restTop = 0;
    for (let i = 0; i < d.tree.count; i++) {
      top = Math.max(top, d.current[3 * i + 1]);
      restTop = Math.max(restTop, d.tree.rest[3 * i + 1]);
    }
    expect(top).toBeGreaterThan(0.6 * restTop);
  });
});

describe("the step (eqs. 2.4, 2.5) and its sub-steps", () => {
  it("contracts a linear rod's energy below the bound, and not above it", () => {
    for (const zeta of [0.02, 0.1, 0.3, 1]) {
      const lim = verletStepLimit(zeta);
      expect(lim).toBeGreaterThan(0);
      expect(stepNorm(0.99 * lim, zeta)).toBeLessThanOrEqual(1 + 1e-12);
      if (lim < 4) expect(stepNorm(1.05 * lim, zeta)).toBeGreaterThan(1);
    }
    // About 8 ζ for light damping.
    expect(verletStepLimit(0.02) / 0.02).toBeGreaterThan(7);
    expect(verletStepLimit(0.02) / 0.02).toBeLessThan(9);
  });

  it("why eq. 2.4 takes the step's mean α: with α from the start alone, a deflected rod at rest gains energy whatever the damping", () => {
    // One rod, k = 1, from θ = 1, ω = 0 (energy ½): eq. 2.5 gives θ1 = 1 - ½ x², eq. 2.4 with α0 = -θ0
    // gives ω1 = -x: energy ½ (1 + x⁴ / 4), more than it had. The damping cannot act: ω0 = 0.
    for (const zeta of [0.1, 1]) {
      for (const x of [0.05, 0.3]) {
        const a0 = -1; // -k θ0 - c ω0 with ω0 = 0
        const t1 = 1 + 0.5 * x * x * a0, w1 = x * a0;
        expect(0.5 * (t1 * t1 + w1 * w1)).toBeGreaterThan(0.5);
        // The mean-α form used here loses energy from the same state.
        expect(stepNorm(x, zeta)).toBeLessThanOrEqual(1);
      }
    }
  });

  it("a spring-only tree loses energy on every step when damping > 0, for every time step", () => {
    for (const damping of [0, 0.3, 1]) {
      for (const h of [1 / 60, 0.1]) {
        const d = dynamics({ damping, stiffness: 1, gravity: 0 });
        shake(d, 11, 0.25, 1.5);
        let e = d.energy();
        const e0 = e;
        for (let k = 0; k < 120; k++) {
          d.step(h);
          const next = d.energy();
          expect(next).toBeLessThanOrEqual(e * (1 + 1e-9) + 1e-15 * e0);
          e = next;
        }
        // ζ ≥ ZETA_MIN at damping 0: it still loses energy.
        expect(e).toBeLessThan(e0);
        expect(d.dampingRatio).toBeGreaterThanOrEqual(ZETA_MIN);
      }
    }
  });

  it("sub-steps where one explicit step would blow up, and says how much", () => {
    const d = dynamics({ damping: 0, stiffness: 1, gravity: 1 });
    d.step(0.1);
    const sub = d.subStepping;
    expect(sub.max).toBeGreaterThan(1);
    expect(sub.particles).toBeGreaterThan(0);
    // Every rod's h ω_n per sub-step is under the safe share of the bound.
    const lim = STEP_SAFETY * verletStepLimit(d.dampingRatio);
    const worst = Math.max(...Array.from(d.omegaN).slice(1));
    expect((0.1 * worst) / sub.max).toBeLessThanOrEqual(lim + 1e-12);
    const calm = dynamics({ damping: 0.5, stiffness: 1, gravity: 0 });
    calm.step(1 / 240);
    expect(calm.subStepping.max).toBe(1);
  });

  it("stays finite in a storm at the largest time step and the lowest damping", () => {
    const d = dynamics({ damping: 0, stiffness: 0.2, gravity: 2 });
    const rng = new Rng(5);
    for (let k = 0; k < 200; k++) {
      for (let i = 1; i < d.tree.count; i++) {
        const area = 2 * d.tree.radius[i] * d.tree.length[i];
        const u = 40 * (1 + 0.5 * rng.range(-1, 1));
        d.windForce[3 * i] = 0.5 * 1.225 * 1.2 * area * u * u;
      }
      d.step(0.1);
      expect(d.isFinite()).toBe(true);
    }
  });

  it("comes back untwisted: a rod pushed round a loop returns to its rest rotation, not just its rest direction", () => {
    const d = dynamics({ damping: 0.3, stiffness: 1, gravity: 0 });
    const i = 200;
    for (let k = 0; k < 600; k++) {
      const a = (2 * Math.PI * k) / 150;
      d.windForce[3 * i] = 0.5 * Math.cos(a);
      d.windForce[3 * i + 2] = 0.5 * Math.sin(a);
      d.step(1 / 60);
    }
    d.windForce.fill(0);
    for (let k = 0; k < 1200; k++) d.step(1 / 60);
    expect(Math.abs(d.rotation[4 * i])).toBeCloseTo(1, 6); // the identity quaternion: no twist left
  });

  it("returns to rest when the wind stops", () => {
    const d = dynamics({ damping: 0.2, stiffness: 1, gravity: 0 });
    for (let i = 1; i < d.tree.count; i++) d.windForce[3 * i + 2] = 30 * d.tree.radius[i];
    for (let k = 0; k < 300; k++) d.step(1 / 60);
    let moved = 0;
    for (let i = 0; i < d.current.length; i++) moved = Math.max(moved, Math.abs(d.current[i] - d.tree.rest[i]));
    expect(moved).toBeGreaterThan(0.05);
    d.windForce.fill(0);
    for (let k = 0; k < 60 * 30; k++) d.step(1 / 60);
    let left = 0;
    for (let i = 0; i < d.current.length; i++) left = Math.max(left, Math.abs(d.current[i] - d.tree.rest[i]));
    expect(left).toBeLessThan(1e-4);
  });
});
