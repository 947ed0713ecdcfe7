/**
 * The sph-particles adapter under NullEngine: on the demo tree and on an imported-like skeleton
 * (bases apart from their parents, no leaves, its geometry marked as a model's) it takes the
 * tree's place with skinned copies, steps in the shared wind without a non-finite value, breaks
 * more as the wind rises (5, 25, 40 m/s), puts everything back on "Restore tree", gives the same
 * frames for the same seed, refuses bad parameters naming the range, and dispose() leaves the
 * scene as it found it.
 */
import { readFileSync } from "node:fs";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { TreeView } from "../../../app/sandbox/tree-view";
import { buildTreeGeometry, type TreeGeometry } from "../../../app/tree/geometry";
import { SkeletonBuilder, type TreeSkeleton } from "../../../app/tree/skeleton";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { WindField } from "../../../app/wind/wind-field";
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
import { FixedClock } from "../../../app/sandbox/clock";
import { createRegistry } from "../../../app/animators/registry";
import { sphParticlesProvider, type SphParticlesAnimator } from "../../../app/animators/sph-particles/provider";
import { sphParticlesParams, type SphParticlesParams } from "../../../app/animators/sph-particles/params";
import { groupLeaves } from "../../../app/animators/sph-particles/leaf-groups";

const DEMO = readFileSync("assets/trees/demo.lsys", "utf8");
/** Wood a tenth as strong as the species' (decayed): the demo tree's limbs break in a storm. */
const WEAK = 0.1;

/** A tree as an imported model gives it: a trunk, two limbs whose bases stand apart from the trunk, uneven nodes, no leaves. */
function modelLike(): TreeSkeleton {
  const b = new SkeletonBuilder();
  const t = b.addBranch(-1, 0);
  for (const [y, r] of [[0, 0.09], [0.4, 0.085], [1.5, 0.07], [1.8, 0.06], [3, 0.04]]) b.addNode(t, 0, y, 0, r);
  const a = b.addBranch(t, 0.5, null, null);
  b.addNode(a, 0.06, 1.52, 0, 0.03);
  b.addNode(a, 0.7, 2.0, 0.1, 0.02);
  b.addNode(a, 1.3, 2.3, 0.15, 0.008);
  const c = b.addBranch(t, 0.6, null, null);
  b.addNode(c, -0.05, 1.82, 0.02, 0.025);
  b.addNode(c, -0.5, 2.4, -0.3, 0.012);
  return b.build();
}

describe("sph-particles adapter", () => {
  let engine: NullEngine;
  let scene: Scene;
  let shadows: ShadowGenerator;
  let clock: FixedClock;
  const made: SphParticlesAnimator[] = [];

  beforeEach(() => {
    engine = new NullEngine();
    scene = new Scene(engine);
    shadows = new ShadowGenerator(256, new DirectionalLight("sun", new Vector3(-1, -2, 1), scene));
    clock = new FixedClock(1 / 60);
  });
  afterEach(() => {
    for (const a of made.splice(0)) a.dispose();
    scene.dispose();
    engine.dispose();
  });

  function view(skeleton: TreeSkeleton, model = false): TreeView {
    const root = new TransformNode("root", scene);
    const g: TreeGeometry = model ? { ...buildTreeGeometry(skeleton), fromModel: true } : buildTreeGeometry(skeleton);
    return new TreeView(skeleton, g, scene, root, shadows);
  }

  const demo = () => view(grammarToSkeleton(DEMO, { seed: 1 }));

  function create(tree: TreeView, wind: WindField, patch: Partial<SphParticlesParams> = {}): SphParticlesAnimator {
    const a = sphParticlesProvider.create(
      { scene, tree, wind, rng: new Rng(wind.settings().seed), root: tree.bark.parent as TransformNode, clock },
      { ...defaultsOf(sphParticlesParams), ...patch },
    ) as SphParticlesAnimator;
    made.push(a);
    return a;
  }

  /** Steps like the host: the clock ticks, then the method steps. `speed(t)` sets the wind's speed before each step. */
  function run(a: SphParticlesAnimator, wind: WindField, frames: number, speed?: (t: number) => number): void {
    for (let f = 0; f < frames; f++) {
      clock.tick();
      if (speed) wind.set({ speed: speed(clock.time) });
      a.update(clock.dt);
    }
  }

  const finite = (xs: ArrayLike<number>) => Array.from(xs).every(Number.isFinite);
  /** The bark as the next drawn frame shows it. */
  const shown = (tree: TreeView, role: "bark" | "leaves" = "bark") => {
    scene.onBeforeRenderObservable.notifyObservers(scene);
    return Float32Array.from(tree.displayed(role)!.getVerticesData(VertexBuffer.PositionKind)!);
  };

  it("is registered, and shows skinned copies of the demo tree's parts in their place, and puts them back", () => {
    expect(createRegistry().ids()).toContain("sph-particles");
    const tree = demo();
    const before = { meshes: scene.meshes.length, materials: scene.materials.length, casters: shadows.getShadowMap()!.renderList!.length };
    const wind = new WindField({ speed: 0, turbulence: 0, gust: 0, seed: 3 });
    const a = create(tree, wind, { particles: true, windParticles: true });
    for (const role of ["bark", "leaves", "skeleton"] as const) {
      const m = tree.displayed(role)!;
      expect(m.name).toBe(`sph-particles ${role}`);
      expect(m.material).toBe(tree.parts.find((p) => p.role === role)!.material);
    }
    expect(shadows.getShadowMap()!.renderList).toContain(tree.displayed("bark"));
    // At rest the copies are the tree's own vertices.
    const own = tree.bark.getVerticesData(VertexBuffer.PositionKind)!;
    const copy = shown(tree);
    let worst = 0;
    for (let i = 0; i < own.length; i++) worst = Math.max(worst, Math.abs(own[i] - copy[i]));
    expect(worst).toBeLessThan(1e-5);
    const names = scene.meshes.map((m) => m.name);
    expect(names).toContain("sph-particles tree particles");
    expect(names).toContain("sph-particles wind particles");
    const c = a.stats().counts;
    console.log(`demo tree: ${JSON.stringify(c)}; ${a.stats().notes!.join("; ")}`);
    expect(c.treeParticles).toBeGreaterThan(100);
    expect(c.windParticles).toBeGreaterThan(216);
    a.setParams({ particles: false, windParticles: false });
    expect(scene.meshes.map((m) => m.name)).not.toContain("sph-particles tree particles");
    a.dispose();
    made.length = 0;
    expect(tree.displayed("bark")).toBe(tree.bark);
    expect({ meshes: scene.meshes.length, materials: scene.materials.length, casters: shadows.getShadowMap()!.renderList!.length }).toEqual(before);
  });

  it("bends the demo tree downwind in the shared wind with nothing non-finite, and its leaves stay on in a breeze", () => {
    const tree = demo();
    const wind = new WindField({ speed: 0, turbulence: 0.3, gust: 0, seed: 3 });
    const a = create(tree, wind);
    const rest = Float32Array.from(a.probe());
    run(a, wind, 60, (t) => 12 * Math.min(1, t / 0.3));
    const now = a.probe();
    expect(finite(now)).toBe(true);
    expect(a.stats().nonFinite).toBe(false);
    let dx = 0;
    for (let i = 0; i < now.length; i += 3) dx += (now[i] - rest[i]) / (now.length / 3);
    console.log(`demo tree at 12 m/s after 1 s: the tips' mean shift downwind ${(dx * 1000).toFixed(1)} mm; ${JSON.stringify(a.stats().counts)}`);
    expect(dx).toBeGreaterThan(0);
    expect(finite(shown(tree))).toBe(true);
    expect(finite(shown(tree, "leaves"))).toBe(true);
  });

  it("breaks more as the wind rises at the default limits (5, 25, 40 m/s): nothing, some leaves, most leaves", () => {
    const counts = [5, 25, 40].map((u) => {
      const tree = demo();
      const wind = new WindField({ speed: 0, turbulence: 0.3, gust: 0, seed: 3 });
      const a = create(tree, wind);
      run(a, wind, 90, (t) => u * Math.min(1, t / 0.5));
      const c = { ...a.stats().counts };
      console.log(`${u} m/s for 1.5 s: ${JSON.stringify(c)}`);
      expect(a.stats().nonFinite).toBe(false);
      return c;
    });
    const leaves = grammarToSkeleton(DEMO, { seed: 1 }).leafCount;
    const total = (c: Record<string, number>) => c.brokenLinks + c.fallenLeaves;
    expect(total(counts[0])).toBe(0);
    // A gale tears the weaker leaves (each leaf's hold drawn about the median), not most of them.
    expect(counts[1].fallenLeaves).toBeGreaterThan(0);
    expect(counts[1].fallenLeaves).toBeLessThan(0.5 * leaves);
    expect(counts[2].fallenLeaves).toBeGreaterThan(counts[1].fallenLeaves);
    expect(total(counts[2])).toBeGreaterThan(total(counts[1]));
  });

  it("takes branches off in a storm where the wood is weak, lays what fell on the ground, and Restore puts everything back", () => {
    // The demo tree's sound wood holds at 40 m/s (its limbs reach a fifth of their rupture strain);
    // decayed wood, a tenth as strong, breaks.
    const u = 40;
    const tree = demo();
    const wind = new WindField({ speed: 0, turbulence: 0.3, gust: 0, seed: 3 });
    const a = create(tree, wind, { woodStrength: WEAK });
    const rest = Float32Array.from(a.probe());
    const restBark = shown(tree);
    run(a, wind, 90, (t) => u * Math.min(1, t / 0.5));
    console.log(`${u} m/s for 1.5 s, wood ${WEAK} as strong: ${JSON.stringify(a.stats().counts)}`);
    expect(a.stats().nonFinite).toBe(false);
    expect(a.stats().counts.brokenBranches).toBeGreaterThan(0);
    // Calm: what fell lands and lies on the ground; no leaf vertex below it.
    run(a, wind, 120, () => 0);
    const leaves = shown(tree, "leaves");
    let lowest = Infinity;
    for (let i = 1; i < leaves.length; i += 3) lowest = Math.min(lowest, leaves[i]);
    expect(lowest).toBeGreaterThanOrEqual(0);
    // No bark triangle stretches across a break from the stump to a fallen piece.
    const sb = shown(tree), idx = tree.displayed("bark")!.getIndices()!;
    let longest = 0;
    for (let t = 0; t < idx.length; t++) {
      const p = 3 * idx[t], q = 3 * idx[t - (t % 3) + ((t + 1) % 3)];
      longest = Math.max(longest, Math.hypot(sb[p] - sb[q], sb[p + 1] - sb[q + 1], sb[p + 2] - sb[q + 2]));
    }
    console.log(`after the storm: ${idx.length / 3} bark triangles shown, the longest edge ${longest.toFixed(2)} m`);
    expect(longest).toBeLessThan(1.5);
    const sim = a.simulation;
    let loose = 0, highest = 0;
    for (let i = 0; i < sim.tree.count; i++) {
      if (sim.breaking.attached[i]) continue;
      loose++;
      highest = Math.max(highest, sim.position[3 * i + 1]);
      expect(sim.position[3 * i + 1]).toBeGreaterThanOrEqual(0);
    }
    console.log(`after 2 s of calm: ${loose} loose particles, the highest at y = ${highest.toFixed(3)} m`);
    expect(loose).toBeGreaterThan(0);
    // §3: every branch that broke has its two ends, made once, riding on their stations.
    const ends = a.fractures!.meshes;
    const materials = scene.materials.length;
    console.log(`${ends.length} broken ends: ${ends.map((m) => m.name).join(", ")}`);
    expect(ends.length).toBeGreaterThanOrEqual(2);
    expect(a.stats().counts.brokenEnds).toBe(ends.length);
    run(a, wind, 2, () => 0);
    expect(a.fractures!.meshes).toEqual(ends); // not made again
    scene.onBeforeRenderObservable.notifyObservers(scene);
    for (const m of ends) {
      expect(m.getVerticesData(VertexBuffer.ColorKind)!.length).toBe(4 * m.getTotalVertices());
      // The mesh's transform is its station's motion: a vertex lands where the station's rigid motion takes its rest place.
      const station = m.name.endsWith("stump") ? sim.tree.linkA[Number(m.name.split(" ")[2])] : sim.tree.linkB[Number(m.name.split(" ")[2])];
      const local = m.getVerticesData(VertexBuffer.PositionKind)!;
      const world = Vector3.TransformCoordinates(new Vector3(local[0], local[1], local[2]), m.computeWorldMatrix(true));
      const Q = a.skin.stationRotation, o = 4 * station;
      const q = new Quaternion(Q[o + 1], Q[o + 2], Q[o + 3], Q[o]);
      const want = new Vector3(local[0], local[1], local[2]).applyRotationQuaternion(q).addInPlaceFromFloats(sim.position[3 * station], sim.position[3 * station + 1], sim.position[3 * station + 2]);
      expect(Vector3.Distance(world, want)).toBeLessThan(1e-4);
      // Near the break: within a link and a radius of its station.
      expect(Vector3.Distance(world, new Vector3(sim.position[3 * station], sim.position[3 * station + 1], sim.position[3 * station + 2]))).toBeLessThan(1.5 * sim.tree.spacing + 0.2);
    }
    expect(a.actions.list().map((x) => x.id)).toEqual(["restore"]);
    a.actions.run("restore");
    const after = a.stats().counts;
    expect([after.brokenLinks, after.brokenBranches, after.fallenLeaves]).toEqual([0, 0, 0]);
    // The broken ends and their material go with the breaks.
    expect(after.brokenEnds).toBe(0);
    expect(ends.every((m) => m.isDisposed())).toBe(true);
    expect(scene.meshes.some((m) => m.name.includes("fracture"))).toBe(false);
    expect(scene.materials.length).toBe(materials - 1);
    expect(Array.from(a.probe())).toEqual(Array.from(rest));
    const bark = shown(tree);
    let worst = 0;
    for (let i = 0; i < bark.length; i++) worst = Math.max(worst, Math.abs(bark[i] - restBark[i]));
    expect(worst).toBeLessThan(1e-5);
    expect(tree.displayed("bark")!.getIndices()!.length).toBe(tree.bark.getIndices()!.length);
    expect(() => a.actions.run("explode")).toThrow(RangeError);
  });

  it("gives the same frames for the same seed, breaks included", () => {
    const once = () => {
      const tree = demo();
      const wind = new WindField({ speed: 0, turbulence: 0.4, gust: 0.3, seed: 5 });
      clock.reset();
      const before = { meshes: scene.meshes.length, materials: scene.materials.length, geometries: scene.geometries.length };
      const a = create(tree, wind, { woodStrength: WEAK });
      run(a, wind, 60, (t) => 40 * Math.min(1, t / 0.3));
      const ends = a.fractures!.meshes.map((m) => Array.from(m.getVerticesData(VertexBuffer.PositionKind)!));
      const out = { tips: Array.from(a.probe()), counts: { ...a.stats().counts }, x: Array.from(a.simulation.position), ends };
      // Disposed after a break: the broken ends, their geometry and material go too.
      a.dispose();
      made.length = 0;
      expect({ meshes: scene.meshes.length, materials: scene.materials.length, geometries: scene.geometries.length }).toEqual(before);
      return out;
    };
    const first = once(), second = once();
    expect(first.counts.brokenEnds).toBeGreaterThan(0);
    expect(second.ends).toEqual(first.ends);
    expect(second.counts).toEqual(first.counts);
    expect(second.tips).toEqual(first.tips);
    expect(second.x).toEqual(first.x);
  });

  it("runs on an imported-like skeleton (bases apart, no leaves, a model's geometry)", () => {
    const s = modelLike();
    const tree = view(s, true);
    const wind = new WindField({ speed: 0, turbulence: 0.3, gust: 0, seed: 2 });
    const a = create(tree, wind);
    expect(tree.displayed("bark")!.name).toBe("sph-particles bark");
    const rest = Float32Array.from(a.probe());
    const bark0 = shown(tree);
    run(a, wind, 60, (t) => 15 * Math.min(1, t / 0.3));
    expect(a.stats().nonFinite).toBe(false);
    const bark = shown(tree);
    expect(finite(bark)).toBe(true);
    let moved = 0;
    for (let i = 0; i < bark.length; i++) moved = Math.max(moved, Math.abs(bark[i] - bark0[i]));
    const tips = a.probe();
    console.log(`model-like tree at 15 m/s: bark moved up to ${(moved * 1000).toFixed(1)} mm, tip 1 by ${(1000 * (tips[3] - rest[3])).toFixed(1)} mm downwind; ${JSON.stringify(a.stats().counts)}`);
    expect(moved).toBeGreaterThan(1e-4);
    expect(moved).toBeLessThan(1);
  });

  it("refuses bad parameters with a RangeError naming the range", () => {
    const tree = demo();
    const wind = new WindField({ speed: 0, seed: 1 });
    expect(() => create(tree, wind, { spacing: 5 })).toThrow(/spacing must be a number from 0.02 to 2 m/);
    const a = create(tree, wind);
    expect(() => a.setParams({ windBudget: 10 })).toThrow(RangeError);
    expect(() => a.setParams({ woodStrength: -1 })).toThrow(/woodStrength must be a number from 0.05 to 5 ×/);
    expect(() => a.setParams({ mach: Number.NaN })).toThrow(RangeError);
    expect(() => a.setParams({ nope: 1 } as Partial<SphParticlesParams>)).toThrow(/has no parameter "nope"/);
  });

  it("groups a big crown's leaves under the budget, keeping their count and area", () => {
    const s = grammarToSkeleton(DEMO, { seed: 1 });
    const g = groupLeaves(s, Math.max(1, Math.floor(s.leafCount / 4)));
    expect(g.skeleton.leafCount).toBeLessThan(s.leafCount);
    expect(g.weight.reduce((x, y) => x + y, 0)).toBe(s.leafCount);
    let area = 0, grouped = 0;
    for (let l = 0; l < s.leafCount; l++) area += s.leafSize[l] ** 2;
    for (let k = 0; k < g.skeleton.leafCount; k++) grouped += g.skeleton.leafSize[k] ** 2;
    expect(grouped).toBeCloseTo(area, 5);
    for (let l = 0; l < s.leafCount; l++) expect(g.skeleton.leafBranch[g.groupOf[l]]).toBe(s.leafBranch[l]);
  });
});
