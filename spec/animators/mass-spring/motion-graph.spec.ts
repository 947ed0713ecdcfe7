import { smallTree } from "./fixtures";
import { MassSpringSystem } from "../../../app/animators/mass-spring/system";
import { ImplicitEuler } from "../../../app/animators/mass-spring/implicit";
import { captureRecording, turningWind, type Recording } from "../../../app/animators/mass-spring/capture";
import { MotionGraph, controlPointCandidates, findTransitions } from "../../../app/animators/mass-spring/motion-graph";
import type { TreeSkeleton } from "../../../app/tree/skeleton";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../../app/lsystem/presets";

/** 10 s of a simulated tree in the swinging, turning wind, 300 samples at 30 Hz. */
function record(skeleton: TreeSkeleton): { sys: MassSpringSystem; rec: Recording } {
  const sys = new MassSpringSystem(skeleton), solver = new ImplicitEuler(sys);
  const rec = captureRecording(sys, solver, { dt: 1 / 60, stride: 2, samples: 300, warmup: 30, forces: turningWind(sys, 12, 10, 1) });
  return { sys, rec };
}

/** A one-mass recording of a hand-made path (the control point is mass 0), velocities by central differences. */
function handRecording(path: number[][], interval = 0.1): Recording {
  const N = path.length, positions = new Float32Array(3 * N), velocities = new Float32Array(3 * N);
  for (let s = 0; s < N; s++) {
    const a = path[Math.max(0, s - 1)], b = path[Math.min(N - 1, s + 1)], span = (Math.min(N - 1, s + 1) - Math.max(0, s - 1)) * interval;
    for (let k = 0; k < 3; k++) {
      positions[3 * s + k] = path[s][k];
      velocities[3 * s + k] = (b[k] - a[k]) / span;
    }
  }
  return { id: 1, label: "hand", masses: 1, interval, samples: N, positions, velocities, forces: new Float32Array(3 * N), rest: new Float32Array(3) };
}

function controlAt(rec: Recording, c: number, s: number): number[] {
  const o = (s * rec.masses + c) * 3;
  return [rec.positions[o], rec.positions[o + 1], rec.positions[o + 2]];
}

/** Every node reached from `from` following the edges forward (or backward). */
function reach(g: MotionGraph, from: number, backward: boolean): Uint8Array {
  const N = g.samples, seen = new Uint8Array(N), into: number[][] = Array.from({ length: N }, () => []);
  for (let n = 0; n < N; n++) for (let k = g.edgeStart[n]; k < g.edgeStart[n + 1]; k++) into[g.edgeEnd(k)].push(n);
  const out: number[][] = Array.from({ length: N }, () => []);
  for (let n = 0; n < N; n++) for (let k = g.edgeStart[n]; k < g.edgeStart[n + 1]; k++) out[n].push(g.edgeEnd(k));
  const queue = [from];
  seen[from] = 1;
  while (queue.length) {
    const n = queue.pop()!;
    for (const m of backward ? into[n] : out[n]) {
      if (!seen[m]) {
        seen[m] = 1;
        queue.push(m);
      }
    }
  }
  return seen;
}

/** The §5 invariants every built graph must hold (collected, then one expect: thousands of edges). */
function expectWellFormed(g: MotionGraph, rec: Recording, e: number): void {
  const N = rec.samples, minGap = g.minGap, bad: string[] = [];
  const check = (ok: boolean, what: string): void => {
    if (!ok && bad.length < 10) bad.push(what);
  };
  expect(g.stats.samples).toBe(N);
  expect(g.stats.nodes).toBe(g.alive.reduce((a, b) => a + b, 0));
  expect(g.stats.nodes + g.stats.prunedDeadEnd + g.stats.prunedUnreachable).toBe(N);
  expect(g.stats.transitions).toBe(g.edgeTransition.reduce((a, b) => a + b, 0));
  expect(g.nodeList.length).toBe(g.stats.nodes);
  for (let n = 0; n < N; n++) {
    const count = g.edgeStart[n + 1] - g.edgeStart[n];
    // every alive node has a way on, and only alive nodes have edges
    check(g.alive[n] ? count > 0 : count === 0, `node ${n} (alive ${g.alive[n]}) has ${count} edges`);
    for (let k = g.edgeStart[n]; k < g.edgeStart[n + 1]; k++) {
      check(g.edgeA[k] === n && g.alive[g.edgeEnd(k)] === 1, `edge ${k} leaves ${g.edgeA[k]} (listed under ${n}) for ${g.edgeEnd(k)}`);
      if (!g.edgeTransition[k]) {
        // §5.1 backbone: a → a + 1
        check(g.edgeC[k] === n && g.edgeL[k] === 1 && g.edgeAt[k] === -1 && g.edgeTarget[k] === -1, `backbone edge ${k} at ${n}`);
        continue;
      }
      // §5.2.1: within d of p_t, forward of v_t, not the path itself; elongated by e on both sides (Fig. 4)
      const t = g.edgeAt[k], j = g.edgeTarget[k];
      check(g.edgeA[k] === t - e && g.edgeC[k] === j - e && g.edgeL[k] === 2 * e, `transition ${k} (${t} → ${j}) not elongated by ${e}`);
      check(Math.abs(j - t) > minGap && t + e <= N - 1 && j - e >= 0, `transition ${t} → ${j} too near or off the ends`);
      const pt = controlAt(rec, g.control, t), pn = controlAt(rec, g.control, t + 1), pj = controlAt(rec, g.control, j);
      const o = (t * rec.masses + g.control) * 3, v = [rec.velocities[o], rec.velocities[o + 1], rec.velocities[o + 2]];
      const d = Math.hypot(pn[0] - pt[0], pn[1] - pt[1], pn[2] - pt[2]);
      check(Math.hypot(pj[0] - pt[0], pj[1] - pt[1], pj[2] - pt[2]) <= d, `transition ${t} → ${j} beyond d`);
      check((pj[0] - pt[0]) * v[0] + (pj[1] - pt[1]) * v[1] + (pj[2] - pt[2]) * v[2] > 0, `transition ${t} → ${j} not forward`);
    }
  }
  // §5.3 same segment: no two transitions from one t to consecutive samples j, j + 1
  const byT = new Map<number, number[]>();
  for (let k = 0; k < g.edgeCount; k++) if (g.edgeTransition[k]) byT.set(g.edgeAt[k], [...(byT.get(g.edgeAt[k]) ?? []), g.edgeTarget[k]]);
  for (const [t, js] of byT) {
    js.sort((a, b) => a - b);
    for (let i = 1; i < js.length; i++) check(js[i] - js[i - 1] > 1, `transitions ${t} → ${js[i - 1]} and ${t} → ${js[i]} on one segment`);
  }
  // closed: every alive node reaches every other, both ways
  if (g.stats.nodes > 0) {
    const from = g.nodeList[0], fwd = reach(g, from, false), back = reach(g, from, true);
    for (let n = 0; n < N; n++) check(fwd[n] === g.alive[n] && back[n] === g.alive[n], `node ${n}: alive ${g.alive[n]}, reached ${fwd[n]} forward, ${back[n]} backward`);
  }
  expect(bad).toEqual([]);
}

describe("MotionGraph on hand-made paths (Van Haevre 2006 §5)", () => {
  /**
   * Fig. 4: path P runs along +x through p_5 = (5, 0, 0), one unit a sample, so d = 1 there;
   * later, segment S crosses it at x = 5.5 along +z, 0.6 a sample: s_21 = (5.5, 0, -0.3) and
   * s_22 = (5.5, 0, 0.3) both lie within d of p_5 and forward of it.
   */
  function figure4(): Recording {
    const path: number[][] = [];
    for (let t = 0; t <= 10; t++) path.push([t, 0, 0]);
    for (let k = 1; k <= 9; k++) {
      const f = k / 10; // up and over, away from P
      path.push([10 - 4.5 * f, 3 * Math.sin(Math.PI * f), -1.5 * f]);
    }
    for (let k = 0; k < 8; k++) path.push([5.5, 0, -0.9 + 0.6 * k]);
    return handRecording(path);
  }

  it("Fig. 4: of two neighbours on one segment only the later is kept (s_{i+2}, not s_{i+1})", () => {
    const rec = figure4();
    const found = findTransitions(rec, { control: 0, elongation: 2 });
    const from5 = Array.from(found.j).filter((_, i) => found.t[i] === 5);
    expect(from5).toEqual([22]);
    // and back the other way: s_21 finds p_5 and p_6 on P, keeps p_6
    const from21 = Array.from(found.j).filter((_, i) => found.t[i] === 21);
    expect(from21).toEqual([6]);
    expect(found.sameSegmentRefused).toBeGreaterThanOrEqual(2);
    // the transition found at (5 → 22) runs from p_{t-2} to s_{i+4}: node 3 to node 24 (Fig. 4)
    const g = MotionGraph.build(rec, { control: 0, elongation: 2 });
    expect(g.stats.candidates).toBe(found.candidates);
    expect(g.stats.sameSegmentRefused).toBe(found.sameSegmentRefused);
  });

  it("neighbours behind p_t's velocity or beyond d are not transitions", () => {
    const rec = figure4();
    const found = findTransitions(rec, { control: 0, elongation: 2 });
    // p_6 = (6, 0, 0) has s_21, s_22 within d but behind it; p_4 has them beyond d = 1
    expect(Array.from(found.t)).not.toContain(6);
    expect(Array.from(found.t)).not.toContain(4);
    // a larger radius (radiusScale) finds more
    expect(findTransitions(rec, { control: 0, elongation: 2, radiusScale: 2 }).candidates).toBeGreaterThan(found.candidates);
  });

  it("a control point circling a figure eight: transitions between the loops, the dead-end tail pruned, a closed graph", () => {
    const path: number[][] = [];
    for (let s = 0; s < 160; s++) {
      const th = (2 * Math.PI * s) / 40.7; // not a whole number of samples a loop: the loops' samples interleave
      path.push([Math.sin(th), 0.1 * Math.cos(th), Math.sin(th) * Math.cos(th)]);
    }
    const rec = handRecording(path), e = 2;
    const g = MotionGraph.build(rec, { control: 0, elongation: e });
    expect(g.stats.transitions).toBeGreaterThan(20);
    // no transition can leave the last 2e samples: they are the dead end of §5.3
    expect(g.stats.prunedDeadEnd).toBeGreaterThanOrEqual(2 * e);
    for (let s = rec.samples - 2 * e; s < rec.samples; s++) expect(g.alive[s]).toBe(0);
    // the last node kept leaves by a transition (the traversal stopped there)
    const last = g.nodeList[g.nodeList.length - 1];
    expect(Array.from(g.edgeTransition.slice(g.edgeStart[last], g.edgeStart[last + 1]))).toContain(1);
    expectWellFormed(g, rec, e);
  });

  it("a path that never comes back gives an empty graph, not a broken one", () => {
    const path: number[][] = [];
    for (let s = 0; s < 50; s++) path.push([0.1 * s, 0, 0]);
    const g = MotionGraph.build(handRecording(path), { control: 0, elongation: 2 });
    expect(g.stats.nodes).toBe(0);
    expect(g.stats.transitions).toBe(0);
    expect(g.edgeCount).toBe(0);
  });

  it("rejects bad options", () => {
    const rec = handRecording([[0, 0, 0], [1, 0, 0], [2, 0, 0]]);
    expect(() => MotionGraph.build(rec, { control: 1, elongation: 2 })).toThrow(RangeError);
    expect(() => MotionGraph.build(rec, { control: 0, elongation: 0 })).toThrow(RangeError);
    expect(() => MotionGraph.build(rec, { control: 0, elongation: 1.5 })).toThrow(RangeError);
    expect(() => MotionGraph.build(rec, { control: 0, elongation: 1, radiusScale: 0 })).toThrow(RangeError);
  });
});

describe("MotionGraph on a simulated tree's recording (§5)", () => {
  const small = record(smallTree());

  it("controlPointCandidates: free masses high in the tree (§6.1), highest first", () => {
    const { sys, rec } = small;
    const c = Array.from(controlPointCandidates(rec, sys.parent));
    expect(c.length).toBeGreaterThanOrEqual(3);
    let top = 0;
    for (let m = 2; m < sys.count; m++) top = Math.max(top, sys.rest[3 * m + 1] - sys.rest[4]);
    expect(sys.rest[3 * c[0] + 1] - sys.rest[4]).toBeCloseTo(top, 5);
    for (let i = 0; i < c.length; i++) {
      expect(c[i]).toBeGreaterThanOrEqual(2);
      expect(sys.rest[3 * c[i] + 1] - sys.rest[4]).toBeGreaterThanOrEqual(0.75 * top - 1e-6);
      if (i > 0) expect(sys.rest[3 * c[i] + 1]).toBeLessThanOrEqual(sys.rest[3 * c[i - 1] + 1]);
    }
    // every free mass at or above the line is there
    for (let m = 2; m < sys.count; m++) if (sys.rest[3 * m + 1] - sys.rest[4] >= 0.75 * top + 1e-6) expect(c).toContain(m);
    expect(controlPointCandidates(rec, sys.parent, 0).length).toBe(sys.count - 2);
  });

  it("finds transitions at the crossings, and the graph is closed: every node has a way on and reaches every other", () => {
    const { sys, rec } = small;
    for (const control of Array.from(controlPointCandidates(rec, sys.parent)).slice(0, 3)) {
      for (const e of [2, 3]) {
        const g = MotionGraph.build(rec, { control, elongation: e });
        expect(g.stats.transitions).toBeGreaterThan(10);
        expect(g.stats.nodes).toBeGreaterThan(rec.samples / 2);
        expectWellFormed(g, rec, e);
      }
    }
  });

  it("the same recording and options build the same graph", () => {
    const { sys, rec } = small;
    const control = controlPointCandidates(rec, sys.parent)[0];
    const a = MotionGraph.build(rec, { control, elongation: 2 }), b = MotionGraph.build(rec, { control, elongation: 2 });
    expect(b.stats).toEqual(a.stats);
    expect(Array.from(b.edgeC)).toEqual(Array.from(a.edgeC));
    expect(Array.from(b.alive)).toEqual(Array.from(a.alive));
  });

  it("edgeLeans(): each edge's control-point lean from rest over the samples it plays, blended on a transition, discounted", () => {
    const { sys, rec } = small;
    const control = controlPointCandidates(rec, sys.parent)[0];
    const g = MotionGraph.build(rec, { control, elongation: 2 });
    const A = g.edgeLeans(0.9);
    expect(g.edgeLeans(0.9)).toBe(A); // cached
    const r = rec.rest, c = 3 * control;
    let checked = 0;
    for (let k = 0; k < g.edgeCount; k++) {
      const L = g.edgeL[k];
      let x = 0, z = 0;
      for (let i = 0; i < L; i++) {
        const w = g.edgeTransition[k] ? (i / L) ** 2 * (3 - 2 * (i / L)) : 0;
        const pa = controlAt(rec, control, g.edgeA[k] + i), pc = controlAt(rec, control, g.edgeC[k] + i);
        x += 0.9 ** i * ((1 - w) * pa[0] + w * pc[0] - r[c]);
        z += 0.9 ** i * ((1 - w) * pa[2] + w * pc[2] - r[c + 2]);
      }
      expect(A[2 * k]).toBeCloseTo(x, 6);
      expect(A[2 * k + 1]).toBeCloseTo(z, 6);
      if (L === 1) {
        // The backbone: the lean at the sample the edge leaves.
        const p = controlAt(rec, control, g.edgeA[k]);
        expect(A[2 * k]).toBeCloseTo(p[0] - r[c], 6);
      }
      checked += g.edgeTransition[k];
    }
    expect(checked).toBeGreaterThan(10);
    expect(g.edgeLeans(1)).not.toBe(A);
  });

  it("on a lower-depth habel tree too", () => {
    const habel = grammarToSkeleton(TREE_PRESETS.find((p) => p.name === "habel")!.text, { seed: 1, depth: 2 });
    const { sys, rec } = record(habel);
    const control = controlPointCandidates(rec, sys.parent)[0];
    const g = MotionGraph.build(rec, { control, elongation: 2 });
    expect(g.stats.transitions).toBeGreaterThan(10);
    expectWellFormed(g, rec, 2);
  });
});
