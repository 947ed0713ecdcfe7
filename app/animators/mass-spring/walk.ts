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
 * (§6.1.1 "randomly choosing such a transition"), or, with a steering direction, the edge whose
 * continuing motion leads the tree best that way (§6.1.2: "the direction that the original captured
 * motion path would lead to after taking a transition, is estimated and compared to the user
 * specified direction"): each edge is scored by the control point's horizontal displacement from
 * its rest position `lookahead` samples past the edge's end along the backbone, projected on the
 * direction, plus a small seeded jitter that breaks ties.
 */
import type { Rng } from "../../math/rng";
import type { Recording } from "./capture";
import type { MotionGraph } from "./motion-graph";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { floor, abs, max, sqrt } = Math;

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

/** One tree's walk over a motion graph (§6.1). */
export class GraphWalk {
  readonly graph: MotionGraph;
  /** Current edge. */
  edge = 0;
  /** Position along it, in intervals, [0, L). */
  tau = 0;
  /** The pose blend for the current (edge, tau); updated by advance(), the same object throughout. */
  readonly blend: PoseBlend = { a0: 0, fa: 0, c0: 0, fc: 0, w: 0 };
  /** Samples past an edge's end at which steering reads where the motion leads (§6.1.2). */
  lookahead = 8;
  /** Tie-breaking jitter, as a fraction of the largest look-ahead displacement. */
  jitter = 0.02;
  private readonly rng: Rng;
  private ahead: Float32Array = new Float32Array(0);
  private aheadFor = -1;
  private aheadScale = 0;

  constructor(graph: MotionGraph, rng: Rng, startNode?: number) {
    if (graph.stats.nodes === 0) throw new Error("the motion graph has no nodes: the recording gave no transitions to build one from");
    this.graph = graph;
    this.rng = rng;
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
    if (this.aheadFor !== this.lookahead) this.refreshAhead();
    const A = this.ahead, jitter = this.jitter * this.aheadScale;
    let best = k0, bestScore = -Infinity;
    for (let k = k0; k < k0 + count; k++) {
      const b = g.edgeEnd(k);
      const score = A[2 * b] * sx + A[2 * b + 1] * sz + jitter * this.rng.next();
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    return best;
  }

  private refreshAhead(): void {
    this.ahead = this.graph.ahead(this.lookahead);
    this.aheadFor = this.lookahead;
    let s = 0;
    for (let i = 0; i < this.ahead.length; i++) s = max(s, abs(this.ahead[i]));
    this.aheadScale = s;
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
