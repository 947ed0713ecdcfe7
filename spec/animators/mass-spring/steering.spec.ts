/**
 * §6.1.2 steering over many recordings made as the app makes them: a walk
 * steered toward a direction settles into the motion that leans furthest that way which its
 * graph allows, measured against the graph's best cycle (an exact maximum-mean cycle, found here
 * independently of walk.ts's value iteration), never into a short loop that leans far less. The
 * steering this replaced (the lean 8 samples past each edge's end) fell short of its best cycle by
 * more than a fifth of the span in 33 of the 160 walks below (the worst got 19% of the way from the
 * worst cycle's lean to the best's; toward +z, z = -0.01 m where the best cycle leans +0.18 m) and
 * leaned toward d and -d less than half the span apart in 12 of 80 pairs; in the browser it once
 * left a walk steered to +z leaning z = -0.27 m. Now the worst walk gets 90% of the way.
 */
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../../app/lsystem/presets";
import { applyTaper } from "../../../app/tree/taper";
import { MassSpringSystem, DEFAULT_MASS_SPRING } from "../../../app/animators/mass-spring/system";
import { ImplicitEuler } from "../../../app/animators/mass-spring/implicit";
import { WindLoad } from "../../../app/animators/mass-spring/wind-load";
import { RecordingSession } from "../../../app/animators/mass-spring/recording-session";
import { WindField, DEFAULT_WIND } from "../../../app/wind/wind-field";
import { usableGraph } from "../../../app/animators/mass-spring/grove";
import { controlPointCandidates, type MotionGraph } from "../../../app/animators/mass-spring/motion-graph";
import { GraphWalk, evaluateMass } from "../../../app/animators/mass-spring/walk";
import { Rng } from "../../../app/math/rng";
import type { Recording } from "../../../app/animators/mass-spring/capture";

const FRAME = 1 / 60;
const habel = TREE_PRESETS.find((p) => p.name === "habel")!;
/** The habel tree at depth 3 (100 masses: the full tree's 5099 take 15 s a recording), tapered as the app does. */
const skeleton = applyTaper(grammarToSkeleton(habel.text, { depth: 3, seed: 1 }), 0.6);

/**
 * As the app (provider.ts) after the e2e test's set-up: `warm` live frames in the default wind (the
 * frames the page ran before it was paused), then an 8 s recording in a 12 m/s wind toward +x,
 * turbulence and gust 0.3, turning (RecordingSession), its graph from the highest control point.
 */
function appRecording(warm: number): { rec: Recording; graph: MotionGraph } {
  const sys = new MassSpringSystem(skeleton, { ...DEFAULT_MASS_SPRING, damping: 0.3, stiffness: 1, bendHz: 1 });
  const solver = new ImplicitEuler(sys), load = new WindLoad(sys), wind = new WindField({ ...DEFAULT_WIND });
  let f = 0;
  for (; f < warm; f++) {
    load.apply(wind, f * FRAME, 0, 0);
    solver.advance(FRAME);
  }
  wind.set({ speed: 12, turbulence: 0.3, gust: 0.3, direction: 0 });
  const session = new RecordingSession(sys, FRAME, 8, true, wind.settings());
  for (;; f++) {
    load.apply(wind, f * FRAME, session.turn(), 0);
    solver.advance(FRAME);
    if (session.offer(sys, FRAME)) break;
  }
  const rec = session.finish(1);
  return { rec, graph: usableGraph(rec, controlPointCandidates(rec, sys.parent)[0], 3) };
}

/** The control point's lean along the sample-by-sample play of each edge, on the unit direction d: per edge, the sum over its samples. */
function edgeGain(g: MotionGraph, dx: number, dz: number): Float64Array {
  const rec = g.recording, c = g.control, M = rec.masses, P = rec.positions, r = rec.rest;
  const lean = (s: number) => dx * (P[(s * M + c) * 3] - r[3 * c]) + dz * (P[(s * M + c) * 3 + 2] - r[3 * c + 2]);
  const out = new Float64Array(g.edgeCount);
  for (let k = 0; k < g.edgeCount; k++) {
    for (let i = 0, L = g.edgeL[k]; i < L; i++) {
      const u = i / L, w = g.edgeTransition[k] ? u * u * (3 - 2 * u) : 0;
      out[k] += (1 - w) * lean(g.edgeA[k] + i) + w * lean(g.edgeC[k] + i);
    }
  }
  return out;
}

/**
 * The largest mean lean on d over the graph's cycles (gain per sample interval): the most any walk
 * can lean that way for ever. Bisection on λ: a cycle with mean above λ is a positive cycle of the
 * weights gain - λ·L (Bellman-Ford, longest paths).
 */
function bestCycleLean(g: MotionGraph, dx: number, dz: number): number {
  const gain = edgeGain(g, dx, dz), N = g.samples;
  const positiveCycle = (lambda: number) => {
    const d = new Float64Array(N);
    for (let pass = 0; pass <= g.stats.nodes; pass++) {
      let changed = false;
      for (const n of g.nodeList) {
        for (let k = g.edgeStart[n]; k < g.edgeStart[n + 1]; k++) {
          const b = g.edgeEnd(k), v = d[n] + gain[k] - lambda * g.edgeL[k];
          if (v > d[b] + 1e-12) {
            d[b] = v;
            changed = true;
          }
        }
      }
      if (!changed) return false;
    }
    return true;
  };
  let lo = -3, hi = 3;
  for (let i = 0; i < 24; i++) {
    const mid = (lo + hi) / 2;
    if (positiveCycle(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Mean control-point lean on d over `frames` frames of the walk steered toward d. */
function meanLean(walk: GraphWalk, frames: number, dx: number, dz: number): number {
  const g = walk.graph, rec = g.recording, c = g.control, p = new Float64Array(3), steer = { x: dx, z: dz };
  let sum = 0;
  for (let f = 0; f < frames; f++) {
    walk.advance(FRAME, steer);
    evaluateMass(rec, walk.blend, c, p);
    sum += dx * (p[0] - rec.rest[3 * c]) + dz * (p[2] - rec.rest[3 * c + 2]);
  }
  return sum / frames;
}

describe("steering (§6.1.2) over recordings made as the app makes them", () => {
  const WARM = [0, 40, 90, 150, 220, 300, 380, 460];
  const DIRECTIONS = [[1, 0], [0, 1], [-1, 0], [0, -1]] as const;
  const recordings = WARM.map((warm) => ({ warm, ...appRecording(warm) }));

  it("a steered walk leans as far toward the direction as its graph's best cycle, nearly, and opposite directions lean far apart", () => {
    const rows: string[] = [], apart: string[] = [];
    let worst = Infinity, walks = 0;
    for (const { warm, graph } of recordings) {
      const best = DIRECTIONS.map(([dx, dz]) => bestCycleLean(graph, dx, dz));
      for (let seed = 1; seed <= 5; seed++) {
        const walk = new GraphWalk(graph, new Rng(seed).fork(0x5c3));
        meanLean(walk, 60, 1, 0); // the e2e test's walk: toward +x first
        const got = DIRECTIONS.map(([dx, dz]) => meanLean(walk, 1200, dx, dz));
        for (let i = 0; i < 4; i++) {
          // span: the best cycle's lean on d minus the worst's (the best the other way, negated).
          const span = best[i] + best[(i + 2) % 4], shortfall = (best[i] - got[i]) / span;
          worst = Math.min(worst, 1 - shortfall);
          walks++;
          expect(span).toBeGreaterThan(5e-3); // the calibrated oak's control point sways over 1.2 to 1.8 cm at 12 m/s (paper-literal: tens of cm)
          if (shortfall > 0.2) rows.push(`warm ${warm} seed ${seed} d ${DIRECTIONS[i]}: ${got[i].toFixed(3)} m, best cycle ${best[i].toFixed(3)} m, span ${span.toFixed(3)} m`);
          // What the e2e test asks, here on every graph: toward d leans further on d than toward -d.
          if (i >= 2 && !(got[i - 2] + got[i] > 0.5 * span)) apart.push(`warm ${warm} seed ${seed} d ±${DIRECTIONS[i - 2]}: ${got[i - 2].toFixed(3)} m toward d, ${(-got[i]).toFixed(3)} m toward -d, span ${span.toFixed(3)} m`);
        }
      }
    }
    // measured: every walk at least 90% of the way (the old steering: 19%, 33 walks under 80%)
    console.log(`spans along x, m: ${recordings.map(({ graph }) => (bestCycleLean(graph, 1, 0) + bestCycleLean(graph, -1, 0)).toFixed(4)).join(" ")}`);
    console.log(`${walks} walks; the worst reached ${(100 * worst).toFixed(1)}% of the way from the worst cycle's lean to the best's`);
    expect(rows).toEqual([]);
    expect(apart).toEqual([]);
  });
});
