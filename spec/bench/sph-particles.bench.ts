/**
 * sph-particles.fracture.ms: the polygon model of one broken branch's two ends (Akagi and Kitajima
 * §3: fibres scattered in the three layers, the Delaunay triangulation, the triangle poles on eq.
 * 11's side curve, both ends' meshes) on the CPU (node, one core), at the method's default layers
 * and brittleness: what the provider makes when a branch breaks (the paper: under 0.005 s). Median
 * of 200 breaks (each its own seed, start and radius) after 50 warm-up breaks. Prints one JSON line;
 * asserts no time (targets: targets.json). Asserts the ends have their triangles.
 */
import { DEFAULT_LAYERS, buildFracture } from "../../app/animators/sph-particles/fracture";
import { defaultsOf } from "../../app/math/params";
import { sphParticlesParams } from "../../app/animators/sph-particles/params";
import { layersOf } from "../../app/animators/sph-particles/fracture-meshes";
import { Rng } from "../../app/math/rng";

it("sph-particles.fracture.ms", () => {
  const p = defaultsOf(sphParticlesParams);
  const layers = { ...DEFAULT_LAYERS, ...layersOf(p) };
  let triangles = 0, vertices = 0;
  const once = (i: number): void => {
    const rng = new Rng(i);
    const f = buildFracture({ radius: 0.005 + 0.1 * rng.next(), axisLength: 0.25, brittleness: p.brittleness, startAngle: 2 * Math.PI * rng.next(), layers, origin: [0, 1, 0], axis: [0.3, 1, 0.1], reference: [1, 0, 0] }, rng);
    triangles = (f.stump.indices.length + f.piece.indices.length) / 3;
    vertices = (f.stump.positions.length + f.piece.positions.length) / 3;
  };
  for (let i = 0; i < 50; i++) once(i);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    once(1000 + i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[100];
  process.stdout.write(JSON.stringify({ bench: "sph-particles.fracture.ms", value: Math.round(median * 1000) / 1000, unit: "ms", triangles, vertices, p90: Math.round(times[180] * 1000) / 1000 }) + "\n");
  expect(triangles).toBeGreaterThan(500);
});
