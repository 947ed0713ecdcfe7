/**
 * Barron §5.1.1 and §6.1 in time: the wind's force per rod (across the rod only, each particle's
 * own turbulence factor), steps in lockstep with the host's frames, longer steps blended.
 */
import { readFileSync } from "node:fs";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { buildParticleTree } from "../../../app/animators/lsystem-particles/particles";
import { BarronSimulation, type SimulationSettings } from "../../../app/animators/lsystem-particles/simulation";
import { WindField } from "../../../app/wind/wind-field";
import { Rng } from "../../../app/math/rng";

const tree = buildParticleTree(grammarToSkeleton(readFileSync("assets/trees/barron.lsys", "utf8"), { seed: 1, depth: 5 }), 0.003);
const base: SimulationSettings = { damping: 0.2, stiffness: 1, gravity: 1, timeStep: 0.0165, spatial: 0.15, paperLiteral: true };
const sim = (patch: Partial<SimulationSettings> = {}, wind = new WindField({ speed: 10, turbulence: 0.3, gust: 0.2, seed: 3 })) =>
  new BarronSimulation(tree, wind, { ...base, ...patch }, new Rng(7));

describe("time steps (§6.1)", () => {
  it("takes one step per 60 Hz frame at the default step, and whole steps no longer than a shorter one", () => {
    const s = sim();
    s.update(1 / 60);
    expect(s.steps).toBe(1);
    const fine = sim({ timeStep: 0.005 });
    fine.update(1 / 60);
    expect(fine.steps).toBe(4);
    expect(fine.time).toBeCloseTo(1 / 60, 12);
  });

  it("steps less often than frames for a long step and blends the frames in between", () => {
    const s = sim({ timeStep: 0.05 });
    const shown: number[] = [];
    const steps: number[] = [];
    const i = tree.count - 1; // a twig tip
    for (let f = 0; f < 12; f++) {
      s.update(1 / 60);
      steps.push(s.steps);
      shown.push(s.shownPositions[3 * i]);
      expect(s.time).toBeCloseTo((f + 1) / 60, 12);
    }
    // One step every three frames (at t = 0, 0.05, ..., 0.2 s), never two frames running.
    expect(steps.reduce((a, b) => a + b, 0)).toBe(5);
    for (let f = 1; f < steps.length; f++) expect(steps[f] + steps[f - 1]).toBeLessThanOrEqual(1);
    // The blended x moves every frame (no frozen frames between steps).
    for (let f = 1; f < shown.length; f++) expect(shown[f]).not.toBe(shown[f - 1]);
  });

  it("gives the same frames for the same seed, and different ones for another wind seed", () => {
    const run = (seed: number) => {
      const s = sim({}, new WindField({ speed: 10, turbulence: 0.5, gust: 0.3, seed }));
      for (let f = 0; f < 90; f++) s.update(1 / 60);
      return Float64Array.from(s.shownPositions);
    };
    expect(run(4)).toEqual(run(4));
    expect(run(4)).not.toEqual(run(5));
  });
});

describe("the wind force (§5.1.1)", () => {
  it("pushes across each rod only: an updraft along the upright trunk pushes it not at all", () => {
    const s = sim({ spatial: 0 }, new WindField({ speed: 0, vertical: 6, turbulence: 0, gust: 0, seed: 1 }));
    s.update(1 / 60);
    const F = s.dynamics.windForce;
    expect(Math.hypot(F[3], F[4], F[5])).toBeLessThan(1e-9); // particle 1 ends the upright trunk
    // A slanted rod feels the part of the updraft across it, upward on the whole.
    let up = 0;
    for (let i = 2; i < tree.count; i++) up += F[3 * i + 1];
    expect(up).toBeGreaterThan(0);
  });

  it("scales each particle's turbulence by its own factor, not the mean wind", () => {
    const calm = new WindField({ speed: 8, turbulence: 0, gust: 0, seed: 1 });
    const a = sim({ spatial: 0 }, calm), b = sim({ spatial: 0.5 }, calm);
    a.update(1 / 60);
    b.update(1 / 60);
    // No turbulence: the factor has nothing to scale.
    for (let i = 0; i < a.dynamics.windForce.length; i++) expect(b.dynamics.windForce[i]).toBeCloseTo(a.dynamics.windForce[i], 9);
    const gusty = new WindField({ speed: 8, turbulence: 0.6, gust: 0, seed: 1 });
    const c = sim({ spatial: 0 }, gusty), e = sim({ spatial: 0.5 }, gusty);
    c.update(1 / 60);
    e.update(1 / 60);
    let differ = 0;
    for (let i = 0; i < c.dynamics.windForce.length; i++) differ = Math.max(differ, Math.abs(e.dynamics.windForce[i] - c.dynamics.windForce[i]));
    expect(differ).toBeGreaterThan(1e-3);
  });
});
