/**
 * Van Haevre et al. 2006, §6.1 "Generating Motions": a tree plays its recording (capture.ts) by
 * walking the motion graph of its control point (motion-graph.ts). Plain TypeScript over typed
 * arrays, no Babylon; nothing here allocates per frame.
 *
 * Pose. "While interpolating between two sample positions the position of all other tree points is
 * updated according to a similar interpolation, but applied to their own sampled data": every mass
 * follows its own recorded samples with the same fractional sample as the control point. Between
 * samples s and s+1 that is the short Bézier curve of §5.1/Fig. 3, with the control points
 * p0 + v0·Δ/3 and p1 - v1·Δ/3 from the recorded velocities (Δ the sampling interval), which is the
 * cubic Hermite segment with tangents v·Δ: C¹ at the samples and equal to them there. On a
 * transition the two stretches it bridges are blended by w = smoothstep(τ / L) (§5.2). A
 * `PoseBlend` (a0, fa, c0, fc, w) is all a tree needs per frame: `evaluateMass` is the arithmetic
 * a vertex shader repeats from a texture of the recording.
 *
 * Walk. At every node reached the next edge is chosen: uniformly at random among the node's edges
 * (§6.1.1 "randomly choosing such a transition"), or, with a steering direction d, the edge whose
 * continuing motion leads the tree best that way (§6.1.2: "the direction that the original captured
 * motion path would lead to after taking a transition, is estimated and compared to the user
 * specified direction. The transition which leads the animation best towards the animators
 * intentions is selected").
 *
 * DEPARTURE (§6.1.2's estimate): the paper suggests estimating where an edge leads from "a few
 * successive samples located on the corresponding path". Scored that way (the lean a fixed number
 * of samples past the edge's end along the backbone), a walk is trapped by local loops: a short
 * transition back a few samples, whose next samples lean a little more the asked way than the
 * next few samples forward, is taken at every pass, for ever, though the path forward leads far
 * further that way. Measured on the habel tree's 8 s recordings (12 m/s, turning wind), steered
 * toward -z with the lean 8 samples on: 3 of 20 walks of one recording looped in 8 samples
 * leaning z = -0.08 m while a random walk of it averages -0.2 m and its best cycle -0.52 m, and
 * another recording's walks looped at -0.15 m (best -0.62 m). Here an edge k is scored by the
 * lean along the whole of the motion it leads to, choices to come included: the discounted sum
 *   Q(k) = Σ_τ γ^τ lean(τ)·d over the edge (MotionGraph.edgeLeans) + γ^L V(end of k),
 *   V(n) = max over n's edges of Q,
 * γ = exp(-interval / horizon), V found by value iteration over the graph (Gauss-Seidel, from
 * the last samples backwards, from the values of the last direction), recomputed when the
 * direction turns more than a degree. A small seeded jitter breaks ties.
 */
import type { Rng } from "../../math/rng";
import type { Recording } from "./capture";
import type { MotionGraph } from "./motion-graph";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { floor, abs, max, sqrt, exp, hypot, cos, PI } = Math;

/** Where a tree is in its recording: X(a0 + fa) blended with X(c0 + fc) by w. 0 ≤ fa, fc ≤ 1; a0, c0 ≤ N - 2. */
export interface PoseBlend {
  a0: number;
  fa: number;
  c0: number;
  fc: number;
  w: number;
}

/**
 * Pose of mass m, (1 - w) X_m(a0 + fa) + w X_m(c0 + fc), into out[offset..offset+2]. X_m(s + f) is
 * the cubic Hermite segment between samples s and s + 1 (the Bézier of §5.1, Fig. 3), tangents
 * v·interval: h00 p0 + h10 Δ v0 + h01 p1 + h11 Δ v1.
 */
export function evaluateMass(rec: Recording, b: PoseBlend, m: number, out: Float64Array | Float32Array, offset = 0): void {
  const M3 = rec.masses * 3, P = rec.positions, V = rec.velocities, dt = rec.interval;
  const fa = b.fa, fc = b.fc, w = b.w;
  const oa = b.a0 * M3 + m * 3, oc = b.c0 * M3 + m * 3;
  const fa2 = fa * fa, fa3 = fa2 * fa, fc2 = fc * fc, fc3 = fc2 * fc;
  // Hermite basis h00, h10, h01, h11 (h1x carry the interval: tangent = v·Δ).
  const a00 = 2 * fa3 - 3 * fa2 + 1, a10 = (fa3 - 2 * fa2 + fa) * dt, a01 = 3 * fa2 - 2 * fa3, a11 = (fa3 - fa2) * dt;
  const c00 = 2 * fc3 - 3 * fc2 + 1, c10 = (fc3 - 2 * fc2 + fc) * dt, c01 = 3 * fc2 - 2 * fc3, c11 = (fc3 - fc2) * dt;
  for (let k = 0; k < 3; k++) {
    const xa = a00 * P[oa + k] + a10 * V[oa + k] + a01 * P[oa + M3 + k] + a11 * V[oa + M3 + k];
    const xc = c00 * P[oc + k] + c10 * V[oc + k] + c01 * P[oc + M3 + k] + c11 * V[oc + M3 + k];
    out[offset + k] = (1 - w) * xa + w * xc;
  }
}

/** All M masses' poses into out (M·3). */
export function evaluatePose(rec: Recording, b: PoseBlend, out: Float64Array | Float32Array): void {
  for (let m = 0; m < rec.masses; m++) evaluateMass(rec, b, m, out, 3 * m);
}

/** Smoothstep 3x² - 2x³, the transition's blend weight (§5.2: "a sufficiently smooth interpolation"). */
export function smoothstep(x: number): number {
  return x * x * (3 - 2 * x);
}

/** Steering below this length counts as none (random animation, §6.1.1). */
const NO_STEER = 1e-6;
/** The steering values are recomputed when the direction turns further than this (1°). */
const RESTEER_COS = cos(PI / 180);
/** Value iteration stops when no value changes by more than this fraction of the largest lean... */
const VALUE_TOLERANCE = 1e-4;
/** ...or after this many sweeps. */
const MAX_SWEEPS = 2000;

/** One tree's walk over a motion graph (§6.1). */
export class GraphWalk {
  readonly graph: MotionGraph;
  /** Current edge. */
  edge = 0;
  /** Position along it, in intervals, [0, L). */
  tau = 0;
  /** The pose blend for the current (edge, tau); updated by advance(), the same object throughout. */
  readonly blend: PoseBlend = { a0: 0, fa: 0, c0: 0, fc: 0, w: 0 };
  /**
   * Seconds of motion to come over which a steered walk weighs the lean (§6.1.2, file comment):
   * the lean τ samples on counts exp(-τ·interval / horizon).
   */
  horizon = 2;
  /** Tie-breaking jitter, as a fraction of the control point's largest lean. */
  jitter = 0.02;
  private readonly rng: Rng;
  /** Per node, V for the direction (valuesX, valuesZ) and the horizon valuesHorizon (file comment). */
  private readonly values: Float64Array;
  private valuesX = 0;
  private valuesZ = 0;
  private valuesHorizon = -1;
  /** MotionGraph.edgeLeans for the horizon's discount; per edge, γ^L; the largest lean at a sample. */
  private leans: Float64Array = new Float64Array(0);
  private readonly edgeDiscount: Float64Array;
  private leanScale = 0;
  /** Value-iteration sweeps the last recomputation took (for tests and benches). */
  lastSweeps = 0;

  constructor(graph: MotionGraph, rng: Rng, startNode?: number) {
    if (graph.stats.nodes === 0) throw new Error("the motion graph has no nodes: the recording gave no transitions to build one from");
    this.graph = graph;
    this.rng = rng;
    this.values = new Float64Array(graph.samples);
    this.edgeDiscount = new Float64Array(graph.edgeCount);
    const start = startNode ?? graph.nodeList[rng.int(graph.nodeList.length)];
    if (!(start >= 0 && start < graph.samples && graph.alive[start])) throw new RangeError(`start node ${start} is not a node of the motion graph`);
    this.edge = this.choose(start, 0, 0);
    this.tau = 0;
    this.updateBlend();
  }

  /** The node the current edge left. */
  node(): number {
    return this.graph.edgeA[this.edge];
  }

  /**
   * Moves `seconds` on; at every node reached chooses the next edge, at random (steer null or
   * about 0) or steered toward the horizontal direction steer = (x, z) in the recording's frame.
   * Returns the number of nodes passed.
   */
  advance(seconds: number, steer: { x: number; z: number } | null): number {
    const g = this.graph, L = g.edgeL;
    let sx = 0, sz = 0;
    if (steer) {
      const n = sqrt(steer.x * steer.x + steer.z * steer.z);
      if (n > NO_STEER) {
        sx = steer.x / n;
        sz = steer.z / n;
      }
    }
    this.tau += (seconds > 0 ? seconds : 0) / g.recording.interval;
    let passed = 0;
    while (this.tau >= L[this.edge]) {
      this.tau -= L[this.edge];
      this.edge = this.choose(g.edgeEnd(this.edge), sx, sz);
      passed++;
    }
    this.updateBlend();
    return passed;
  }

  /** The next edge from node n: random without a direction, else the best scored (file comment). */
  private choose(n: number, sx: number, sz: number): number {
    const g = this.graph, k0 = g.edgeStart[n], count = g.edgeStart[n + 1] - k0;
    if (count <= 1) return k0;
    if (sx === 0 && sz === 0) return k0 + this.rng.int(count);
    this.steerValues(sx, sz);
    const V = this.values, A = this.leans, D = this.edgeDiscount, jitter = this.jitter * this.leanScale;
    let best = k0, bestScore = -Infinity;
    for (let k = k0; k < k0 + count; k++) {
      const score = A[2 * k] * sx + A[2 * k + 1] * sz + D[k] * V[g.edgeEnd(k)] + jitter * this.rng.next();
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    return best;
  }

  /**
   * V(n) = max over n's edges k of [lean along k · d + γ^L V(end of k)] for the unit direction
   * d = (sx, sz), by Gauss-Seidel sweeps from the last node back (the backbone runs forward, so one
   * sweep carries a value along a whole run), from the values of the last direction. Kept while
   * the direction stays within a degree and the horizon is the same.
   */
  private steerValues(sx: number, sz: number): void {
    const g = this.graph, V = this.values, interval = g.recording.interval;
    if (this.valuesHorizon !== this.horizon) {
      const discount = this.horizon > 0 ? exp(-interval / this.horizon) : 0;
      this.leans = g.edgeLeans(discount);
      const A = this.leans;
      let scale = 0;
      for (let k = 0; k < g.edgeCount; k++) {
        this.edgeDiscount[k] = discount ** g.edgeL[k];
        if (g.edgeL[k] === 1) scale = max(scale, hypot(A[2 * k], A[2 * k + 1]));
      }
      this.leanScale = scale;
      this.valuesHorizon = this.horizon;
      V.fill(0);
    } else if (sx * this.valuesX + sz * this.valuesZ >= RESTEER_COS) return;
    this.valuesX = sx;
    this.valuesZ = sz;
    const A = this.leans, D = this.edgeDiscount, nodes = g.nodeList, start = g.edgeStart, C = g.edgeC, L = g.edgeL;
    const tol = VALUE_TOLERANCE * this.leanScale;
    let sweep = 0;
    while (sweep < MAX_SWEEPS) {
      sweep++;
      let change = 0;
      for (let i = nodes.length - 1; i >= 0; i--) {
        const n = nodes[i];
        let best = -Infinity;
        for (let k = start[n]; k < start[n + 1]; k++) {
          const q = A[2 * k] * sx + A[2 * k + 1] * sz + D[k] * V[C[k] + L[k]];
          if (q > best) best = q;
        }
        const d = abs(best - V[n]);
        if (d > change) change = d;
        V[n] = best;
      }
      if (change <= tol) break;
    }
    this.lastSweeps = sweep;
  }

  private updateBlend(): void {
    edgeBlend(this.graph, this.edge, this.tau, this.blend);
  }
}

/** The blend that plays edge `e` of `graph` at `tau` intervals along it (the MotionGraph's edge convention). */
export function edgeBlend(g: MotionGraph, e: number, tau: number, b: PoseBlend): PoseBlend {
  const last = g.samples - 2;
  const sa = g.edgeA[e] + tau, sc = g.edgeC[e] + tau;
  let a0 = floor(sa), c0 = floor(sc);
  if (a0 > last) a0 = last;
  if (c0 > last) c0 = last;
  b.a0 = a0;
  b.fa = sa - a0;
  b.c0 = c0;
  b.fc = sc - c0;
  b.w = g.edgeTransition[e] ? smoothstep(tau / g.edgeL[e]) : 0;
  return b;
}
