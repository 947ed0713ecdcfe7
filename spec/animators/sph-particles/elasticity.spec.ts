/**
 * Akagi and Kitajima §2, "Interaction models for branches and leaves": springs along the links
 * (eq. 4), the restoring force carried by eq. 5's quaternion (eq. 6) and the shear force (eqs.
 * 7-8), stepped implicitly.
 */
import { AXIS, buildParticleTree, type ParticleTree } from "../../../app/animators/sph-particles/particle-tree";
import { ElasticSolver } from "../../../app/animators/sph-particles/elasticity";
import { readFileSync } from "node:fs";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { horizontalBranch, smallTree } from "./fixtures";
import { SkeletonBuilder } from "../../../app/tree/skeleton";

const E = 8.6e9;

/** Index of the bone particle on branch 0 nearest to x. */
function boneAt(tree: ParticleTree, x: number): number {
  let best = -1, d = Infinity;
  for (let i = 0; i < tree.count; i++) if (tree.type[i] === 0 && tree.branch[i] === 0 && Math.abs(tree.restPosition[3 * i] - x) < d) { d = Math.abs(tree.restPosition[3 * i] - x); best = i; }
  return best;
}

describe("elasticity", () => {
  it.each([[0.01, 0.1], [1 / 60, 0.1], [1 / 60, 0.25], [1 / 60, 1]])("bends a single branch toward a steady load as beam theory says and lets it return to rest (dt %f s, bone spacing %f m)", (dt, spacing) => {
    const r = 0.02, L = 1, P = 10;
    const tree = buildParticleTree(horizontalBranch(L, r), { spacing });
    const solver = new ElasticSolver(tree);
    const x = Float64Array.from(tree.restPosition), v = new Float64Array(x.length), load = new Float64Array(x.length);
    const tip = boneAt(tree, L);
    load[3 * tip + 2] = P; // across the branch, horizontally (+z)
    for (let t = 0; t < 1; t += dt) solver.step(x, v, load, dt);
    const d = [0, 1, 2].map((a) => x[3 * tip + a] - tree.restPosition[3 * tip + a]);
    const beam = (P * L ** 3) / (3 * E * (Math.PI * r ** 4) / 4);
    load.fill(0);
    for (let t = 0; t < 2; t += dt) solver.step(x, v, load, dt);
    const back = Math.hypot(...[0, 1, 2].map((a) => x[3 * tip + a] - tree.restPosition[3 * tip + a]));
    console.log(`dt ${dt.toFixed(4)}, ${spacing} m: tip moved (${d.map((a) => (1000 * a).toFixed(3)).join(", ")}) mm under ${P} N (beam theory ${(1000 * beam).toFixed(3)} mm across); ${(1000 * back).toExponential(2)} mm off rest 2 s after`);
    // Toward the load, as far as the beam within 10 % (a base node of E I / L bent 4 links 1.4 times as far, one link 3 times).
    expect(d[2]).toBeGreaterThan(0.9 * beam);
    expect(d[2]).toBeLessThan(1.1 * beam);
    expect(Math.abs(d[1])).toBeLessThan(0.05 * d[2]);
    expect(back).toBeLessThan(0.01 * d[2]);
  });

  it("bends a tapered branch as the tapered beam does, coarse or fine (each station's I over its cell, in series)", () => {
    // Radius 3 cm at the base to 1.5 cm at the tip: E I falls 16 times along the branch.
    const r0 = 0.03, r1 = 0.015, L = 1.2, P = 20, dt = 1 / 60;
    // The tapered cantilever under a tip load: δ = ∫ P (L - x)² / (E I(x)) dx (unit load), by Simpson over 400 intervals.
    let beam = 0;
    for (let q = 0; q <= 400; q++) {
      const x = (L * q) / 400, r = r0 + ((r1 - r0) * x) / L;
      beam += ((q === 0 || q === 400 ? 1 : q % 2 ? 4 : 2) * P * (L - x) ** 2) / (E * (Math.PI * r ** 4) / 4);
    }
    beam *= L / 1200;
    const tips: number[] = [];
    for (const spacing of [0.1, 0.3, 0.6]) {
      const tree = buildParticleTree(horizontalBranch(L, r0, r1), { spacing });
      const solver = new ElasticSolver(tree);
      const x = Float64Array.from(tree.restPosition), v = new Float64Array(x.length), load = new Float64Array(x.length);
      const tip = boneAt(tree, L);
      load[3 * tip + 2] = P;
      for (let t = 0; t < 1.5; t += dt) solver.step(x, v, load, dt);
      tips.push(x[3 * tip + 2] - tree.restPosition[3 * tip + 2]);
    }
    console.log(`tapered branch under ${P} N: tip ${tips.map((d) => (1000 * d).toFixed(2)).join(", ")} mm at 0.1, 0.3, 0.6 m (tapered beam ${(1000 * beam).toFixed(2)} mm)`);
    // Within 20 % from three links on (before: 1.39 times at 0.3 m), 30 % for two (before: 2.02 times).
    tips.forEach((d, k) => {
      expect(d).toBeGreaterThan(0.9 * beam);
      expect(d).toBeLessThan((k < 2 ? 1.2 : 1.3) * beam);
    });
  });

  it("bends a short twig as its own length says, wherever the parent's nearest station lies", () => {
    // A stout 2 m limb (stiff beside the twig) with a 0.4 m twig of 8 mm from 0.8 m along it, straight up.
    const limbR = 0.12, r = 0.008, ell = 0.4, P = 2, dt = 1 / 60;
    const twigOf = (spacing: number) => {
      const b = new SkeletonBuilder();
      const limb = b.addBranch(-1, 0);
      for (let i = 0; i <= 4; i++) b.addNode(limb, 0.5 * i, 0.5, 0, limbR);
      const twig = b.addBranch(limb, 0.4, null, null);
      for (let i = 0; i <= 2; i++) b.addNode(twig, 0.8, 0.5 + (ell * i) / 2, 0, r);
      const tree = buildParticleTree(b.build(), { spacing });
      let tip = -1;
      for (let i = 0; i < tree.count; i++) if (tree.type[i] === 0 && tree.branch[i] === 1 && (tip < 0 || tree.restPosition[3 * i + 1] > tree.restPosition[3 * tip + 1])) tip = i;
      const solver = new ElasticSolver(tree);
      const x = Float64Array.from(tree.restPosition), v = new Float64Array(x.length), load = new Float64Array(x.length);
      load[3 * tip + 2] = P;
      for (let t = 0; t < 1.5; t += dt) solver.step(x, v, load, dt);
      return { d: x[3 * tip + 2] - tree.restPosition[3 * tip + 2], arc: tree.restPosition[3 * tip + 1] - 0.5 };
    };
    // At 0.5 m the limb's nearest station is 0.2 m off the twig's base (before: 1.4 times the beam there, L = the link's length).
    const results = [0.1, 0.5, 0.7].map(twigOf);
    // The twig's station from its own base, as a cantilever: P a³ / (3 E I).
    const beam = (a: number) => (P * a ** 3) / (3 * E * (Math.PI * r ** 4) / 4);
    console.log(`twig under ${P} N: ${results.map((q) => `${(1000 * q.d).toFixed(2)} mm at ${q.arc.toFixed(2)} m (beam ${(1000 * beam(q.arc)).toFixed(2)})`).join("; ")} at 0.1, 0.5, 0.7 m`);
    for (const q of results) {
      expect(q.d).toBeGreaterThan(0.85 * beam(q.arc));
      expect(q.d).toBeLessThan(1.2 * beam(q.arc));
    }
  });

  it("twists a branch under a torque T by T L / (G J), at any bone spacing", () => {
    const r = 0.03, L = 1, G = E / 16, J = (Math.PI * r ** 4) / 2, T = 5;
    for (const spacing of [0.1, 0.25]) {
      const tree = buildParticleTree(horizontalBranch(L, r), { spacing });
      const solver = new ElasticSolver(tree, { stiffnessDamping: 0.01 });
      const tip = boneAt(tree, L), ring = tree.ringStart[tip], n = tree.ringCount[tip];
      const x = Float64Array.from(tree.restPosition), v = new Float64Array(x.length), load = new Float64Array(x.length);
      // A couple about the branch's axis (+x): a tangential force T / (n r) on each ring particle.
      const tangent = (q: number) => [0, -(x[3 * q + 2] - x[3 * tip + 2]) / r, (x[3 * q + 1] - x[3 * tip + 1]) / r];
      for (let q = ring; q < ring + n; q++) tangent(q).forEach((t, a) => (load[3 * q + a] = (T / (n * r)) * t));
      for (let t = 0; t < 3; t += 1 / 60) solver.step(x, v, load, 1 / 60);
      const u = [0, 1, 2].map((a) => x[3 * ring + a] - x[3 * tip + a]), u0 = [0, 1, 2].map((a) => tree.restPosition[3 * ring + a] - tree.restPosition[3 * tip + a]);
      const twist = Math.atan2(u0[1] * u[2] - u0[2] * u[1], u0[1] * u[1] + u0[2] * u[2]);
      const theory = (T * L) / (G * J);
      console.log(`${spacing} m: twist ${(twist * 180 / Math.PI).toFixed(3)}° under ${T} N m (G J / L: ${(theory * 180 / Math.PI).toFixed(3)}°)`);
      expect(Math.abs(twist / theory - 1)).toBeLessThan(0.15);
    }
  });

  it("holds the demo tree still with no load at the paper's 0.1 m spacing, with no damping added (dt 1/60 s)", () => {
    // Round-off grew an unstable mode here in a second when the solve lost its pivots' soft directions.
    const tree = buildParticleTree(grammarToSkeleton(readFileSync("assets/trees/demo.lsys", "utf8"), { seed: 1 }), { spacing: 0.1 });
    const solver = new ElasticSolver(tree, { stiffnessDamping: 0 });
    const x = Float64Array.from(tree.restPosition), v = new Float64Array(x.length), none = new Float64Array(x.length);
    for (let k = 0; k < 60; k++) solver.step(x, v, none, 1 / 60);
    let moved = 0;
    for (let i = 0; i < x.length; i++) moved = Math.max(moved, Math.abs(x[i] - tree.restPosition[i]));
    console.log(`demo tree at 0.1 m (${tree.count} particles): ${moved.toExponential(2)} m off rest after 1 s in still air`);
    expect(moved).toBeLessThan(1e-9);
  });

  it("costs no internal force for a rigid rotation of the whole particle tree (and much for a bend)", () => {
    const tree = buildParticleTree(smallTree());
    const solver = new ElasticSolver(tree);
    const axis = [1, 2, 3].map((a) => a / Math.hypot(1, 2, 3)), th = 0.7, c = Math.cos(th), s = Math.sin(th);
    const x = new Float64Array(tree.restPosition.length);
    for (let i = 0; i < tree.count; i++) {
      const p = [0, 1, 2].map((a) => tree.restPosition[3 * i + a]);
      const k = axis[0] * p[0] + axis[1] * p[1] + axis[2] * p[2];
      const cr = [axis[1] * p[2] - axis[2] * p[1], axis[2] * p[0] - axis[0] * p[2], axis[0] * p[1] - axis[1] * p[0]];
      for (let a = 0; a < 3; a++) x[3 * i + a] = p[a] * c + cr[a] * s + axis[a] * k * (1 - c) + [3, -1, 2][a]; // Rodrigues, then a shift
    }
    const f = new Float64Array(x.length);
    solver.addForces(x, f);
    const largest = (g: Float64Array) => Math.max(...Array.from({ length: tree.count }, (_, i) => Math.hypot(g[3 * i], g[3 * i + 1], g[3 * i + 2])));
    // The scale: the force of the stiffest link stretched by a micrometre.
    const scale = Math.max(...tree.stiffness) * 1e-6;
    const rigid = largest(f);
    // A control: the rest shape with one particle of the twig moved 1 mm.
    const bent = Float64Array.from(tree.restPosition);
    bent[3 * (tree.leafParticle[0] - 1)] += 1e-3;
    const g = new Float64Array(x.length);
    solver.addForces(bent, g);
    console.log(`rigid rotation: largest internal force ${rigid.toExponential(2)} N (${(rigid / scale).toExponential(2)} of a 1 µm stretch of the stiffest link); a 1 mm nudge: ${largest(g).toExponential(2)} N`);
    expect(rigid).toBeLessThan(1e-4 * scale);
    expect(rigid).toBeLessThan(1e-9 * largest(g));
  });

  it("keeps the default tree still under no load and refuses a bad step", () => {
    const tree = buildParticleTree(smallTree());
    const solver = new ElasticSolver(tree);
    const x = Float64Array.from(tree.restPosition), v = new Float64Array(x.length);
    for (let k = 0; k < 10; k++) solver.step(x, v, new Float64Array(x.length), 0.01);
    let moved = 0;
    for (let i = 0; i < x.length; i++) moved = Math.max(moved, Math.abs(x[i] - tree.restPosition[i]));
    expect(moved).toBeLessThan(1e-9);
    expect(Array.from(tree.linkKind).filter((k) => k === AXIS).length).toBeGreaterThan(10);
    expect(() => solver.step(x, v, new Float64Array(x.length), 0.2)).toThrow(/\(0, 0\.05\]/);
    expect(() => new ElasticSolver(tree, { stiffnessDamping: -1 })).toThrow(RangeError);
  });
});
