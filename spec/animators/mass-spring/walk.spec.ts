import { smallTree } from "./fixtures";
import { MassSpringSystem } from "../../../app/animators/mass-spring/system";
import { ImplicitEuler } from "../../../app/animators/mass-spring/implicit";
import { captureRecording, turningWind, type Recording } from "../../../app/animators/mass-spring/capture";
import { MotionGraph, controlPointCandidates } from "../../../app/animators/mass-spring/motion-graph";
import { GraphWalk, evaluateMass, evaluatePose, smoothstep, type PoseBlend } from "../../../app/animators/mass-spring/walk";
import { Rng } from "../../../app/math/rng";

const FRAME = 1 / 60;
/**
 * Largest move of a joint in one 60 Hz frame, as a fraction of its segment's rest length. A
 * quarter of the segment within 1/60 s (15 segment lengths a second) would read as a pop. The
 * recorded motion itself moves at most about 0.05 per frame here (the small tree in a 12 m/s
 * swinging wind); a transition adds at most 1.5 × (the gap between the two poses it bridges) over
 * its 2e intervals, the smoothstep's steepest slope. Walks measured 0.06 to 0.08: the bound leaves
 * room for other trees and settings, and still catches a pose that snaps (a wrong sample, a
 * blend weight that jumps at an edge's end).
 */
const MAX_JUMP = 0.25;

const sys = new MassSpringSystem(smallTree());
const rec: Recording = captureRecording(sys, new ImplicitEuler(sys), { dt: 1 / 60, stride: 2, samples: 300, warmup: 30, forces: turningWind(sys, 12, 10, 1) });
const control = controlPointCandidates(rec, sys.parent)[0];
const graph = MotionGraph.build(rec, { control, elongation: 2 });

function sample(kind: "positions" | "velocities", s: number, m: number): number[] {
  const o = (s * rec.masses + m) * 3, a = rec[kind];
  return [a[o], a[o + 1], a[o + 2]];
}

function at(s: number, f: number, m: number): number[] {
  const out = new Float64Array(3);
  evaluateMass(rec, { a0: s, fa: f, c0: s, fc: f, w: 0 }, m, out);
  return Array.from(out);
}

/** Runs a walk for `frames` at 60 Hz; the largest joint jump, the control point's mean horizontal displacement, transitions entered. */
function run(walk: GraphWalk, frames: number, steer: (f: number) => { x: number; z: number } | null): { jump: number; meanX: number; meanZ: number; transitions: number; nodes: number } {
  const M = rec.masses, a = new Float64Array(3 * M), b = new Float64Array(3 * M), g = walk.graph;
  evaluatePose(rec, walk.blend, a);
  let jump = 0, meanX = 0, meanZ = 0, transitions = 0, nodes = 0, edge = walk.edge;
  for (let f = 0; f < frames; f++) {
    nodes += walk.advance(FRAME, steer(f));
    if (walk.edge !== edge && g.edgeTransition[walk.edge]) transitions++;
    edge = walk.edge;
    evaluatePose(rec, walk.blend, b);
    for (let m = 2; m < M; m++) jump = Math.max(jump, Math.hypot(b[3 * m] - a[3 * m], b[3 * m + 1] - a[3 * m + 1], b[3 * m + 2] - a[3 * m + 2]) / sys.restLength[m]);
    meanX += (b[3 * control] - rec.rest[3 * control]) / frames;
    meanZ += (b[3 * control + 2] - rec.rest[3 * control + 2]) / frames;
    a.set(b);
  }
  return { jump, meanX, meanZ, transitions, nodes };
}

describe("pose between samples (Van Haevre 2006 §5.1, Fig. 3; §6.1.1)", () => {
  it("the Hermite segment equals the samples exactly at fa = 0 and 1", () => {
    for (const s of [0, 17, 150, rec.samples - 2]) {
      for (let m = 0; m < rec.masses; m++) {
        expect(at(s, 0, m)).toEqual(sample("positions", s, m));
        expect(at(s, 1, m)).toEqual(sample("positions", s + 1, m));
      }
    }
  });

  it("its velocity at the samples is the recorded velocity (C¹ across samples)", () => {
    const h = 1e-4, dt = rec.interval;
    for (const s of [5, 100, 201]) {
      for (const m of [control, 2, rec.masses - 1]) {
        const p0 = at(s, 0, m), p0h = at(s, h, m), p1 = at(s, 1, m), p1h = at(s, 1 - h, m);
        const v0 = sample("velocities", s, m), v1 = sample("velocities", s + 1, m);
        for (let k = 0; k < 3; k++) {
          expect((p0h[k] - p0[k]) / (h * dt)).toBeCloseTo(v0[k], 2);
          expect((p1[k] - p1h[k]) / (h * dt)).toBeCloseTo(v1[k], 2);
        }
      }
    }
  });

  it("is the Bézier of Fig. 3 with control points p0 + v0 Δ/3 and p1 - v1 Δ/3", () => {
    const s = 42, m = control, dt = rec.interval;
    const p0 = sample("positions", s, m), p1 = sample("positions", s + 1, m), v0 = sample("velocities", s, m), v1 = sample("velocities", s + 1, m);
    for (const f of [0.1, 0.37, 0.5, 0.9]) {
      const x = at(s, f, m), u = 1 - f;
      for (let k = 0; k < 3; k++) {
        const c1 = p0[k] + (v0[k] * dt) / 3, c2 = p1[k] - (v1[k] * dt) / 3;
        expect(x[k]).toBeCloseTo(u * u * u * p0[k] + 3 * u * u * f * c1 + 3 * u * f * f * c2 + f * f * f * p1[k], 9);
      }
    }
  });

  it("blends the two stretches by w; evaluatePose is evaluateMass for every mass, into float32 too", () => {
    const b: PoseBlend = { a0: 10, fa: 0.3, c0: 200, fc: 0.3, w: 0 };
    const x = new Float64Array(3), y = new Float64Array(3), z = new Float64Array(3);
    evaluateMass(rec, b, control, x);
    evaluateMass(rec, { ...b, w: 1 }, control, y);
    evaluateMass(rec, { ...b, w: 0.5 }, control, z);
    expect(Array.from(y)).toEqual(at(200, 0.3, control));
    for (let k = 0; k < 3; k++) expect(z[k]).toBeCloseTo((x[k] + y[k]) / 2, 12);
    const all = new Float64Array(3 * rec.masses), all32 = new Float32Array(3 * rec.masses), one = new Float64Array(3);
    evaluatePose(rec, { ...b, w: 0.25 }, all);
    evaluatePose(rec, { ...b, w: 0.25 }, all32);
    for (let m = 0; m < rec.masses; m++) {
      evaluateMass(rec, { ...b, w: 0.25 }, m, one);
      for (let k = 0; k < 3; k++) {
        expect(all[3 * m + k]).toBe(one[k]);
        expect(all32[3 * m + k]).toBe(Math.fround(one[k]));
      }
    }
  });

  it("smoothstep 3x² - 2x³: 0 and 1 at the ends, flat there", () => {
    expect([smoothstep(0), smoothstep(0.5), smoothstep(1)]).toEqual([0, 0.5, 1]);
    expect(smoothstep(1e-4) / 1e-4).toBeLessThan(1e-3);
    expect((1 - smoothstep(1 - 1e-4)) / 1e-4).toBeLessThan(1e-3);
  });
});

describe("GraphWalk (§6.1)", () => {
  it("the recording gives a graph to walk", () => {
    expect(graph.stats.transitions).toBeGreaterThan(20);
  });

  it("same seed, same walk; another seed, another", () => {
    const a = new GraphWalk(graph, new Rng(5)), b = new GraphWalk(graph, new Rng(5)), c = new GraphWalk(graph, new Rng(6));
    let differ = false;
    for (let f = 0; f < 2000; f++) {
      a.advance(FRAME, null);
      b.advance(FRAME, null);
      c.advance(FRAME, null);
      expect(b.blend).toEqual(a.blend);
      expect([b.edge, b.tau]).toEqual([a.edge, a.tau]);
      if (c.edge !== a.edge) differ = true;
    }
    expect(differ).toBe(true);
  });

  it("a long random walk (§6.1.1): takes transitions, keeps a valid blend, and no joint jumps between frames", () => {
    const walk = new GraphWalk(graph, new Rng(11));
    const N = rec.samples, g = graph;
    let bad = 0;
    const r = run(walk, 5000, () => {
      const bl = walk.blend;
      const ok = g.alive[walk.node()] && bl.a0 >= 0 && bl.a0 <= N - 2 && bl.c0 >= 0 && bl.c0 <= N - 2 && bl.fa >= 0 && bl.fa <= 1 && bl.fc >= 0 && bl.fc <= 1
        && bl.w >= 0 && bl.w <= 1 && (g.edgeTransition[walk.edge] || bl.w === 0) && walk.tau >= 0 && walk.tau < g.edgeL[walk.edge];
      if (!ok) bad++;
      return null;
    });
    expect(bad).toBe(0);
    expect(r.transitions).toBeGreaterThan(20);
    // 5000 frames at 60 Hz are 83 s, about 2500 sample intervals; transitions skip or repeat some
    expect(r.nodes).toBeGreaterThan(1000);
    expect(r.jump).toBeLessThan(MAX_JUMP);
  });

  it("an interactive walk (§6.1.2) under a slowly turning direction: transitions, no joint jumps", () => {
    const walk = new GraphWalk(graph, new Rng(12));
    const steer = { x: 1, z: 0 };
    const r = run(walk, 5000, (f) => {
      const a = (2 * Math.PI * f) / 2500; // two turns
      steer.x = Math.cos(a);
      steer.z = Math.sin(a);
      return steer;
    });
    expect(r.transitions).toBeGreaterThan(20);
    expect(r.jump).toBeLessThan(MAX_JUMP);
  });

  it("steered toward a direction, the control point leans that way (what makes the grove answer the arrow)", () => {
    let lean = 0; // the recording's mean horizontal lean of the control point
    for (let s = 0; s < rec.samples; s++) {
      const p = sample("positions", s, control);
      lean += Math.hypot(p[0] - rec.rest[3 * control], p[2] - rec.rest[3 * control + 2]) / rec.samples;
    }
    const toward = (x: number, z: number) => run(new GraphWalk(graph, new Rng(21)), 3000, () => ({ x, z }));
    const px = toward(1, 0), nx = toward(-1, 0), pz = toward(0, 1), nz = toward(0, -1);
    // measured: about 1.4 × lean apart on both axes; asked: half of it
    expect(px.meanX - nx.meanX).toBeGreaterThan(0.5 * lean);
    expect(pz.meanZ - nz.meanZ).toBeGreaterThan(0.5 * lean);
    expect(px.meanX).toBeGreaterThan(0);
    expect(nx.meanX).toBeLessThan(0);
  });

  it("no direction (or one about 0 long) is the random walk", () => {
    const a = new GraphWalk(graph, new Rng(8)), b = new GraphWalk(graph, new Rng(8));
    for (let f = 0; f < 1000; f++) {
      a.advance(FRAME, null);
      b.advance(FRAME, { x: 1e-9, z: 0 });
      expect(b.edge).toBe(a.edge);
    }
  });

  it("advance returns the nodes passed; node() is where the current edge left", () => {
    const start = graph.nodeList[10];
    const walk = new GraphWalk(graph, new Rng(3), start);
    expect(walk.node()).toBe(start);
    expect(walk.advance(0, null)).toBe(0);
    const end = graph.edgeEnd(walk.edge), L = graph.edgeL[walk.edge];
    expect(walk.advance((L - walk.tau + 0.5) * rec.interval, null)).toBe(1);
    expect(walk.node()).toBe(end);
    expect(walk.tau).toBeCloseTo(0.5, 9);
    // a long step passes many
    expect(walk.advance(100 * rec.interval, null)).toBeGreaterThan(20);
  });

  it("refuses an empty graph and a start node the graph does not keep", () => {
    const line = { ...rec, samples: 2, positions: rec.positions.slice(0, 6 * rec.masses), velocities: rec.velocities.slice(0, 6 * rec.masses) };
    const empty = MotionGraph.build(line, { control, elongation: 2 });
    expect(() => new GraphWalk(empty, new Rng(1))).toThrow(Error);
    const dead = graph.alive.indexOf(0);
    expect(dead).toBeGreaterThanOrEqual(0);
    expect(() => new GraphWalk(graph, new Rng(1), dead)).toThrow(RangeError);
  });
});
