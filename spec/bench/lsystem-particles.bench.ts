/**
 * lsystem-particles.step.{255,2000,10000}.ms: one frame of Barron et al.'s method on the CPU (node,
 * one core): the shared wind's force on every rod, the rods' update with propagation (§5.1), the
 * Catmull-Rom skins at curve resolution 3 with 8 sides (§4.2) and the leaves riding their
 * particles. Binary trees of 255 and 2,047 rods (Barron's tree, assets/trees/barron.lsys, at depths
 * 7 and 10) and a ternary tree of 9,841 rods. Wind 10 m/s with turbulence and gusts. Median of 60
 * frames after 60 warm-up frames. Prints one JSON line per tree; asserts no time (targets:
 * targets.json). Asserts that each timed frame took exactly one step of the rods (the figure is per
 * step: a lockstep that rounded up once took two) and that the skins and leaves moved.
 */
import { readFileSync } from "node:fs";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { buildTreeGeometry } from "../../app/tree/geometry";
import { WindField } from "../../app/wind/wind-field";
import { Rng } from "../../app/math/rng";
import { defaultsOf } from "../../app/math/params";
import { buildParticleTree } from "../../app/animators/lsystem-particles/particles";
import { BarronSimulation } from "../../app/animators/lsystem-particles/simulation";
import { buildSkinLayout, updateSkin } from "../../app/animators/lsystem-particles/skin";
import { bindLeaves, updateLeaves } from "../../app/animators/lsystem-particles/leaves";
import { lsystemParticlesParams } from "../../app/animators/lsystem-particles/params";

const BARRON = readFileSync("assets/trees/barron.lsys", "utf8");
/** Barron's tree with three children per split: (3^(d+1) - 1) / 2 rods, 9,841 at depth 8. */
const TERNARY = BARRON.replace(
  /A\(l, w\) ->[\s\S]*$/,
  `A(l, w) ->
    [&(SPREAD) !(w) F(l) [+(55) ~] /(90) A(l * R, w * W)] /(120)
    [&(SPREAD) !(w) F(l) [+(55) ~] /(90) A(l * R, w * W)] /(120)
    [&(SPREAD) !(w) F(l) [+(55) ~] /(90) A(l * R, w * W)]
`,
);

function bench(name: string, text: string, depth: number): void {
  const p = defaultsOf(lsystemParticlesParams);
  const s = grammarToSkeleton(text, { seed: 1, depth });
  // As the method builds it: the tree's own radii when calibrated, §4.1's scaling when paper-literal.
  const tree = buildParticleTree(s, p.paperLiteral ? p.minRadius / 1000 : null);
  const wind = new WindField({ speed: 10, direction: 30, turbulence: 0.35, gust: 0.3, seed: 1 });
  const sim = new BarronSimulation(tree, wind, { damping: p.damping, stiffness: p.stiffness, gravity: p.gravity, timeStep: p.timeStep / 1000, spatial: p.spatial, paperLiteral: p.paperLiteral }, new Rng(1));
  const skin = buildSkinLayout(s, tree, { sides: 8, resolution: 3 });
  const positions = new Float32Array(3 * skin.vertexCount), normals = new Float32Array(3 * skin.vertexCount);
  const leaves = buildTreeGeometry(s).leaves!;
  const ride = bindLeaves(s, tree, leaves.positions, leaves.normals);
  const leafPos = new Float32Array(leaves.positions.length), leafNrm = new Float32Array(leaves.normals.length);
  const frame = (): void => {
    sim.update(1 / 60);
    updateSkin(skin, sim.shownPositions, sim.shownRotations, positions, normals);
    updateLeaves(ride, sim.shownPositions, sim.shownRotations, leafPos, leafNrm);
  };
  for (let i = 0; i < 60; i++) frame();
  const skinBefore = positions.slice(), leavesBefore = leafPos.slice();
  const times: number[] = [];
  let steps = 0;
  for (let i = 0; i < 60; i++) {
    const t0 = performance.now();
    frame();
    times.push(performance.now() - t0);
    steps += sim.steps;
  }
  times.sort((a, b) => a - b);
  const median = times[30];
  process.stdout.write(
    JSON.stringify({ bench: name, value: Math.round(median * 1000) / 1000, unit: "ms", rods: tree.count - 1, skinVertices: skin.vertexCount, leafVertices: ride.vertexCount, subSteps: sim.dynamics.subStepping.max }) + "\n",
  );
  expect(sim.dynamics.isFinite()).toBe(true);
  expect(steps).toBe(60);
  const moved = (a: Float32Array, b: Float32Array): number => {
    let m = 0;
    for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
    return m;
  };
  expect(moved(positions, skinBefore)).toBeGreaterThan(1e-4);
  expect(moved(leafPos, leavesBefore)).toBeGreaterThan(1e-4);
  expect(positions.every(Number.isFinite) && leafPos.every(Number.isFinite)).toBe(true);
}

it("lsystem-particles.step.255.ms", () => bench("lsystem-particles.step.255.ms", BARRON, 7));
it("lsystem-particles.step.2000.ms", () => bench("lsystem-particles.step.2000.ms", BARRON, 10));
it("lsystem-particles.step.10000.ms", () => bench("lsystem-particles.step.10000.ms", TERNARY, 8));
