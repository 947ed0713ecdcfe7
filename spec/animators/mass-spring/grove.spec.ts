/**
 * The grove (Van Haevre 2006 §6.1, Fig. 7): the light tree drawn with instancing
 * (grove-geometry.ts) and its vertex twin, the trees' placements, the graph fallback, and the
 * walks posing every tree's row (grove.ts).
 */
import { readFileSync } from "node:fs";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { buildTreeGeometry } from "../../../app/tree/geometry";
import { DEFAULT_MASS_SPRING, MassSpringSystem } from "../../../app/animators/mass-spring/system";
import { ImplicitEuler } from "../../../app/animators/mass-spring/implicit";
import { captureRecording, turningWind, type Recording } from "../../../app/animators/mass-spring/capture";
import { areCards, buildGroveGeometry, groveVertex, grovePlacements, GROVE_SIDES, TEXEL } from "../../../app/animators/mass-spring/grove-geometry";
import { Grove, usableGraph } from "../../../app/animators/mass-spring/grove";
import { evaluateMass } from "../../../app/animators/mass-spring/walk";
import { Rng } from "../../../app/math/rng";

const skeleton = grammarToSkeleton(readFileSync("assets/trees/demo.lsys", "utf8"), { seed: 1, depth: 4 });
const sys = new MassSpringSystem(skeleton);
const leaves = buildTreeGeometry(skeleton).leaves!;

describe("the grove's tree (grove-geometry.ts)", () => {
  const g = buildGroveGeometry(sys, leaves, 300);
  const meshes = [g.bark, g.leaves!];

  it("stays within its vertex budget, thickest segments first, every drawn segment connected to the trunk", () => {
    const vertices = meshes.reduce((n, m) => n + m.positions.length / 3, 0);
    expect(vertices).toBeLessThanOrEqual(300);
    expect(g.bark.positions.length / 3).toBe(2 * GROVE_SIDES * g.segments);
    expect(g.segments).toBeGreaterThan(10);
    expect(g.segments).toBeLessThan(g.segmentsOfTree);
    const chosen = new Set(g.masses);
    for (const m of g.masses) if (m > 1) expect(chosen.has(sys.parent[m])).toBe(true);
    // No drawn segment is thinner than one left out.
    let thinnestIn = Infinity, thickestOut = 0;
    for (let m = 2; m < sys.count; m++) {
      if (chosen.has(m)) thinnestIn = Math.min(thinnestIn, sys.radius[m]);
      else thickestOut = Math.max(thickestOut, sys.radius[m]);
    }
    expect(thinnestIn).toBeGreaterThanOrEqual(thickestOut * 0.999);
    // A sample of the leaf cards, each enlarged by √(cards per kept card).
    expect(g.leafCards).toBeLessThan(g.leafCardsOfTree);
    expect(g.leafScale).toBeCloseTo(Math.min(2.5, Math.sqrt(g.leafCardsOfTree / g.leafCards)), 6);
  });

  it("at rest the twin leaves every vertex and normal where it is", () => {
    const out = new Float64Array(6);
    for (const m of meshes) {
      for (let v = 0; v < m.positions.length / 3; v++) {
        groveVertex(g.rest, g.rest, 0, m.groveMass[3 * v], m.groveMass[3 * v + 1], m.groveMass[3 * v + 2], m.positions.subarray(3 * v), m.normals.subarray(3 * v), out);
        for (let c = 0; c < 3; c++) {
          expect(Math.abs(out[c] - m.positions[3 * v + c])).toBeLessThan(1e-6);
          expect(Math.abs(out[3 + c] - m.normals[3 * v + c])).toBeLessThan(1e-6);
        }
      }
    }
  });

  it("a moved tree: each vertex keeps its distance and angle to its segment, the normals stay unit; a translation moves every vertex by it", () => {
    // The paper-literal tree (its heavy masses and soft springs): bent by metres, where the oak's wood bends by centimetres.
    const bending = new MassSpringSystem(skeleton, { ...DEFAULT_MASS_SPRING, paperLiteral: true }), solver = new ImplicitEuler(bending);
    bending.windDrag(25, 0, 8);
    for (let k = 0; k < 40; k++) solver.step(1 / 60);
    const x = bending.position;
    const pose = new Float32Array(g.rest.length), moved = new Float32Array(g.rest.length);
    g.masses.forEach((m, i) => {
      for (let c = 0; c < 3; c++) { pose[TEXEL * i + c] = x[3 * m + c]; moved[TEXEL * i + c] = g.rest[TEXEL * i + c] + [0.5, -0.25, 2][c]; }
    });
    const dir = (a: ArrayLike<number>, i: number, j: number) => {
      const d = [0, 1, 2].map((c) => a[TEXEL * i + c] - a[TEXEL * j + c]);
      const l = Math.hypot(d[0], d[1], d[2]);
      return d.map((v) => v / l);
    };
    const out = new Float64Array(6);
    let err = 0, bent = 0;
    for (const m of meshes) {
      for (let v = 0; v < m.positions.length / 3; v++) {
        const [A, S, Q] = [m.groveMass[3 * v], m.groveMass[3 * v + 1], m.groveMass[3 * v + 2]];
        const p = m.positions.subarray(3 * v, 3 * v + 3), n = m.normals.subarray(3 * v, 3 * v + 3);
        groveVertex(g.rest, pose, 0, A, S, Q, p, n, out);
        const o0 = [0, 1, 2].map((c) => p[c] - g.rest[TEXEL * A + c]), o1 = [0, 1, 2].map((c) => out[c] - pose[TEXEL * A + c]);
        const d0 = dir(g.rest, S, Q), d1 = dir(pose, S, Q);
        const dot = (a: number[], b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        err = Math.max(err, Math.abs(Math.hypot(o0[0], o0[1], o0[2]) - Math.hypot(o1[0], o1[1], o1[2])), Math.abs(dot(o0, d0) - dot(o1, d1)));
        err = Math.max(err, Math.abs(Math.hypot(out[3], out[4], out[5]) - Math.hypot(n[0], n[1], n[2])), Math.abs(dot([out[3], out[4], out[5]], d1) - dot(Array.from(n), d0)));
        bent = Math.max(bent, Math.hypot(out[0] - p[0], out[1] - p[1], out[2] - p[2]));
        groveVertex(g.rest, moved, 0, A, S, Q, p, n, out);
        for (let c = 0; c < 3; c++) err = Math.max(err, Math.abs(out[c] - p[c] - [0.5, -0.25, 2][c]), Math.abs(out[3 + c] - n[c]));
      }
    }
    expect(bent).toBeGreaterThan(0.1);
    expect(err).toBeLessThan(1e-5);
  });

  it("samples leaves that are not cards (a model's own) by the triangle, each on its branch's mass", () => {
    expect(areCards(leaves)).toBe(true);
    // The same leaves as one mesh of any shape: the triangles in reverse order, not card by card.
    const tris = leaves.indices.length / 3;
    const indices = new Uint32Array(leaves.indices.length);
    for (let t = 0; t < tris; t++) for (let k = 0; k < 3; k++) indices[3 * t + k] = leaves.indices[3 * (tris - 1 - t) + k];
    const model = { ...leaves, indices };
    expect(areCards(model)).toBe(false);
    const m = buildGroveGeometry(sys, model, 300);
    const lv = m.leaves!;
    expect(m.leafCardsOfTree).toBe(tris);
    expect(lv.positions.length / 3).toBe(3 * m.leafCards);
    expect(m.bark.positions.length / 3 + lv.positions.length / 3).toBeLessThanOrEqual(300);
    expect(m.leafCards).toBeGreaterThan(5);
    // Every triangle is one of the tree's, enlarged about its centre, on its own vertices.
    for (let i = 0; i < m.leafCards; i++) {
      for (let k = 0; k < 3; k++) expect(lv.indices[3 * i + k]).toBe(3 * i + k);
      const t = Math.floor(i * (tris / m.leafCards));
      const centre = (P: Float32Array, v: (k: number) => number) => [0, 1, 2].map((c) => (P[3 * v(0) + c] + P[3 * v(1) + c] + P[3 * v(2) + c]) / 3);
      const a = centre(lv.positions, (k) => 3 * i + k), b = centre(leaves.positions, (k) => indices[3 * t + k]);
      for (let c = 0; c < 3; c++) expect(a[c]).toBeCloseTo(b[c], 5);
      // It rides on a drawn mass at or below its branch node's (the heavier of its first corner's two).
      const v0 = indices[3 * t], heavier = leaves.skinWeights[4 * v0 + 1] > leaves.skinWeights[4 * v0] ? 1 : 0;
      let mass = sys.massOfNode[leaves.skinNodes[4 * v0 + heavier]];
      const anchor = m.masses[lv.groveMass[9 * i]];
      while (mass !== anchor && mass > 1) mass = sys.parent[mass];
      expect(mass).toBe(anchor);
    }
  });

  it("places the trees on a jittered grid, the first at the centre as it is", () => {
    const rng = new Rng(3);
    const p = grovePlacements(100, 8, () => rng.next());
    expect(p).toHaveLength(100);
    expect(p[0]).toEqual({ x: 0, z: 0, yaw: 0, scale: 1 });
    let closest = Infinity;
    for (let i = 0; i < p.length; i++) for (let j = i + 1; j < p.length; j++) closest = Math.min(closest, Math.hypot(p[i].x - p[j].x, p[i].z - p[j].z));
    expect(closest).toBeGreaterThan(0.5 * 8);
    expect(new Set(p.map((q) => q.yaw.toFixed(3))).size).toBe(100);
  });
});

describe("the grove's walks (grove.ts)", () => {
  const solver = new ImplicitEuler(sys);
  const rec: Recording = { ...captureRecording(sys, solver, { dt: 1 / 60, stride: 2, samples: 241, warmup: 30, forces: turningWind(sys, 12, 8) }), id: 1, label: "#1: test" };

  it("a swinging recording gives a graph at the paper's radius d; a path that never comes back gives an error a person can act on", () => {
    const cand = sys.count - 1;
    const g = usableGraph(rec, cand, 3);
    expect(g.radiusScale).toBe(1);
    expect(g.stats.transitions).toBeGreaterThanOrEqual(3);
    // A control point that only drifts away: no crossing at any radius.
    const drift: Recording = { ...rec, positions: rec.positions.map((_, i) => Math.floor(i / (3 * rec.masses)) * 0.1 + (i % 3)), velocities: rec.velocities.map((_, i) => (i % 3 === 0 ? 3 : 0)) };
    expect(() => usableGraph(drift, cand, 3)).toThrow(/never comes back near its own path.*record longer/);
  });

  it("every tree walks its own graph and writes its own row: the row is its walk's pose", () => {
    const geometry = buildGroveGeometry(sys, leaves, 2000);
    const rng = new Rng(5);
    const placements = grovePlacements(12, 6, () => rng.next());
    const grove = new Grove({ recordings: [rec], first: rec, parent: sys.parent, placements, masses: geometry.masses, elongation: 3, rng: rng.fork(1) });
    expect(grove.trees).toHaveLength(12);
    expect(new Set(grove.trees.map((t) => t.control)).size).toBeGreaterThan(3);
    const G = geometry.masses.length, pose = new Float32Array(TEXEL * G * 12), p = new Float64Array(3);
    for (let f = 0; f < 90; f++) grove.advance(1 / 60, { x: 0, z: 1 }, pose);
    grove.trees.forEach((t, k) => {
      // Its steering, in its own frame: the world's +z turned back by its yaw.
      expect(t.steer.x).toBeCloseTo(Math.sin(placements[k].yaw), 12);
      expect(t.steer.z).toBeCloseTo(Math.cos(placements[k].yaw), 12);
      for (const i of [0, G >> 1, G - 1]) {
        evaluateMass(t.recording, t.walk.blend, geometry.masses[i], p);
        for (let c = 0; c < 3; c++) expect(pose[TEXEL * (G * k + i) + c]).toBeCloseTo(p[c], 5);
      }
    });
    const rows = new Set(grove.trees.map((_, k) => pose[TEXEL * (G * k + G - 1)].toFixed(5)));
    expect(rows.size).toBeGreaterThan(6);
  });
});
