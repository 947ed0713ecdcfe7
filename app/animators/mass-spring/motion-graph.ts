/**
 * Van Haevre et al. 2006, §5 "Motion Processing and Optimisation": the motion graph of one control
 * point of a recording (capture.ts). Plain TypeScript over typed arrays, no Babylon.
 *
 * Nodes are the recording's samples. Edges:
 * - §5.1 backbone: one edge between every two successive samples (a → a+1), played along the
 *   recording (walk.ts interpolates it with the Bézier/Hermite segment of Fig. 3).
 * - §5.2.1 transitions: at every sample p_t of the control point, the samples s within
 *   d = |p_{t+1} - p_t| of it ("limiting the search to a distance d equal to the distance between
 *   the current sample p_t and the next sample on the path p_{t+1}") that lie forward of it,
 *   (s - p_t) · v_t > 0 with the recorded velocity v_t, and are not the path itself
 *   (|j - t| > minGap), are its neighbours. A neighbour j gives a transition "elongated by
 *   starting a few samples earlier and ending a few samples later" (Fig. 4): from node t - e to
 *   node j + e, playing the two stretches X(t - e + τ) and X(j - e + τ), τ ∈ [0, 2e], blended by
 *   w = smoothstep(τ / 2e).
 *
 * §5.3 optimisation:
 * - of several neighbours on one segment of the path (a run of consecutive samples), "only those
 *   samples s that are located further in time on the original path are kept" (Fig. 4: s_{i+2}
 *   accepted, s_{i+1} refused);
 * - dead ends: "traversing the backbone from the end to the start, samples can be removed when
 *   they only provide one transition (to the next sample on the path)" until a sample with a
 *   transition elsewhere; transitions into the removed samples go too; repeated until nothing
 *   changes (a removed transition can make its sample the new dead end).
 * - ADDITION (not in the paper): the paper's result is "a closed directed motion graph"; the
 *   pruning alone leaves samples before the first transition target that nothing leads back to.
 *   We keep the largest strongly connected component (Tarjan, iterative) and drop every node and
 *   edge outside it, so from every node every other node can be reached and no walk runs out.
 *
 * Every edge plays the same way (walk.ts): for τ ∈ [0, L], pose = (1 - w) X(a + τ) + w X(c + τ),
 * X(s) the recording at fractional sample s, w = 0 on the backbone (c = a, L = 1) and
 * smoothstep(τ / L) on a transition (L = 2e); the edge ends at node c + L.
 */
import type { Recording } from "./capture";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { max, abs, sqrt } = Math;

export interface MotionGraphOptions {
  /** Mass index of the control point (§5, §6.1). */
  control: number;
  /** e ≥ 1: a transition found at (t → j) runs from sample t - e to j + e (§5.2.1, Fig. 4), L = 2e intervals. */
  elongation: number;
  /** Neighbours with |j - t| ≤ minGap are the path itself, not a crossing. Default 2·elongation + 2. */
  minGap?: number;
  /** Scales the search distance d = |p_{t+1} - p_t| (§5.2.1). Default 1, the paper's rule. */
  radiusScale?: number;
}

export interface MotionGraphStats {
  /** N. */
  samples: number;
  /** Nodes kept (alive). */
  nodes: number;
  /** Transition edges kept. */
  transitions: number;
  /** Neighbours found by §5.2.1 (distance, forward, gap, room for the elongation). */
  candidates: number;
  /** Of those, refused by §5.3's same-segment rule. */
  sameSegmentRefused: number;
  /** Samples removed as dead ends (§5.3). */
  prunedDeadEnd: number;
  /** Samples removed outside the largest strongly connected component. */
  prunedUnreachable: number;
}

export class MotionGraph {
  readonly recording: Recording;
  readonly control: number;
  readonly elongation: number;
  readonly minGap: number;
  readonly radiusScale: number;
  /** N. */
  readonly samples: number;
  /** N: 1 for the nodes kept after §5.3 pruning. */
  readonly alive: Uint8Array;
  /** The alive nodes, ascending. */
  readonly nodeList: Int32Array;
  /** Outgoing edges of node n: edgeStart[n] .. edgeStart[n+1]-1 (CSR). Only alive nodes have edges. */
  readonly edgeStart: Int32Array;
  /** Source path start sample a (the node the edge leaves). */
  readonly edgeA: Int32Array;
  /** Target path start sample c. */
  readonly edgeC: Int32Array;
  /** Length in intervals. */
  readonly edgeL: Int32Array;
  /** 1 for a transition, 0 for the backbone. */
  readonly edgeTransition: Uint8Array;
  /** Transitions: the crossing sample t (-1 on the backbone). */
  readonly edgeAt: Int32Array;
  /** Transitions: the accepted neighbour j (-1 on the backbone). */
  readonly edgeTarget: Int32Array;
  readonly stats: MotionGraphStats;
  private leansFor = -1;
  private leansTable: Float64Array | null = null;

  private constructor(rec: Recording, opts: Required<MotionGraphOptions>, alive: Uint8Array, csr: Csr, stats: MotionGraphStats) {
    this.recording = rec;
    this.control = opts.control;
    this.elongation = opts.elongation;
    this.minGap = opts.minGap;
    this.radiusScale = opts.radiusScale;
    this.samples = rec.samples;
    this.alive = alive;
    let n = 0;
    for (let i = 0; i < alive.length; i++) n += alive[i];
    this.nodeList = new Int32Array(n);
    for (let i = 0, k = 0; i < alive.length; i++) if (alive[i]) this.nodeList[k++] = i;
    this.edgeStart = csr.start;
    this.edgeA = csr.a;
    this.edgeC = csr.c;
    this.edgeL = csr.L;
    this.edgeTransition = csr.transition;
    this.edgeAt = csr.at;
    this.edgeTarget = csr.target;
    this.stats = stats;
  }

  /** The node an edge arrives at: c + L. */
  edgeEnd(e: number): number {
    return this.edgeC[e] + this.edgeL[e];
  }

  get edgeCount(): number {
    return this.edgeA.length;
  }

  /**
   * Builds the graph of §5 for one control point: backbone, transitions at the crossings, §5.3's
   * pruning, then the largest strongly connected component (see the file comment).
   */
  static build(rec: Recording, options: MotionGraphOptions): MotionGraph {
    const N = rec.samples, opts = resolveOptions(rec, options), e = opts.elongation;
    const stats: MotionGraphStats = { samples: N, nodes: 0, transitions: 0, candidates: 0, sameSegmentRefused: 0, prunedDeadEnd: 0, prunedUnreachable: 0 };

    const found = findTransitions(rec, opts);
    stats.candidates = found.candidates;
    stats.sameSegmentRefused = found.sameSegmentRefused;
    const tAt = found.t, jAt = found.j;
    const T = tAt.length;
    const tFrom = new Int32Array(T), tTo = new Int32Array(T), tLive = new Uint8Array(T).fill(1);
    const outT = new Int32Array(N);
    for (let i = 0; i < T; i++) {
      tFrom[i] = tAt[i] - e;
      tTo[i] = jAt[i] + e;
      outT[tFrom[i]]++;
    }

    // §5.3 dead ends: from the end of the backbone backwards, drop samples whose only way on is the
    // backbone, up to one with a transition; drop the transitions into what went; repeat.
    const alive = new Uint8Array(N).fill(1);
    let last = N - 1;
    for (;;) {
      while (last >= 0 && outT[last] === 0) {
        alive[last--] = 0;
        stats.prunedDeadEnd++;
      }
      let changed = false;
      for (let i = 0; i < T; i++) {
        if (tLive[i] && (tTo[i] > last || tFrom[i] > last)) {
          tLive[i] = 0;
          if (tFrom[i] <= last) {
            outT[tFrom[i]]--;
            changed = true;
          }
        }
      }
      if (!changed) break;
    }

    // ADDITION: keep the largest strongly connected component (closed graph, no unreachable start).
    const pre = buildCsr(N, alive, e, tFrom, tTo, tAt, jAt, tLive);
    const keep = largestScc(N, alive, pre);
    for (let s = 0; s < N; s++) {
      if (alive[s] && !keep[s]) {
        alive[s] = 0;
        stats.prunedUnreachable++;
      }
    }
    for (let i = 0; i < T; i++) if (tLive[i] && !(alive[tFrom[i]] && alive[tTo[i]])) tLive[i] = 0;
    const csr = buildCsr(N, alive, e, tFrom, tTo, tAt, jAt, tLive);
    for (let s = 0; s < N; s++) stats.nodes += alive[s];
    for (let k = 0; k < csr.transition.length; k++) stats.transitions += csr.transition[k];
    return new MotionGraph(rec, opts, alive, csr, stats);
  }

  /**
   * For every edge k, the control point's horizontal displacement from its rest position (x, z) at
   * the samples the edge plays, τ = 0 .. L-1 (the blend of its two stretches by w = smoothstep(τ/L)
   * on a transition), summed with weight discount^τ: [Σx, Σz] per edge. The lean an edge itself
   * gives a steered walk (§6.1.2, walk.ts); cached for the last discount asked.
   */
  edgeLeans(discount: number): Float64Array {
    if (this.leansTable && this.leansFor === discount) return this.leansTable;
    const E = this.edgeCount, M = this.recording.masses, c = this.control, P = this.recording.positions, R = this.recording.rest;
    const rx = R[3 * c], rz = R[3 * c + 2];
    const out = new Float64Array(2 * E);
    for (let k = 0; k < E; k++) {
      const L = this.edgeL[k], a = this.edgeA[k], cc = this.edgeC[k], tr = this.edgeTransition[k];
      let sx = 0, sz = 0, f = 1;
      for (let i = 0; i < L; i++) {
        const u = i / L, w = tr ? u * u * (3 - 2 * u) : 0;
        const oa = ((a + i) * M + c) * 3, oc = ((cc + i) * M + c) * 3;
        sx += f * ((1 - w) * P[oa] + w * P[oc] - rx);
        sz += f * ((1 - w) * P[oa + 2] + w * P[oc + 2] - rz);
        f *= discount;
      }
      out[2 * k] = sx;
      out[2 * k + 1] = sz;
    }
    this.leansFor = discount;
    this.leansTable = out;
    return out;
  }
}

/** The options with their defaults, checked. */
function resolveOptions(rec: Recording, options: MotionGraphOptions): Required<MotionGraphOptions> {
  const M = rec.masses, e = options.elongation, control = options.control;
  const minGap = options.minGap ?? 2 * e + 2, radiusScale = options.radiusScale ?? 1;
  if (!(Number.isInteger(control) && control >= 0 && control < M)) throw new RangeError(`control must be a mass index in [0, ${M}); got ${control}`);
  if (!(Number.isInteger(e) && e >= 1)) throw new RangeError(`elongation must be an integer of at least 1; got ${e}`);
  if (!(minGap >= 0)) throw new RangeError(`minGap must be at least 0; got ${minGap}`);
  if (!(radiusScale > 0)) throw new RangeError(`radiusScale must be above 0; got ${radiusScale}`);
  return { control, elongation: e, minGap, radiusScale };
}

/** §5.2.1's transitions of one control point, after §5.3's same-segment rule, before any pruning. */
export interface FoundTransitions {
  /** Crossing sample t of each transition, ascending. */
  t: Int32Array;
  /** Accepted neighbour j of each (ascending within one t). */
  j: Int32Array;
  /** Neighbours found (distance, forward, gap, room for the elongation). */
  candidates: number;
  /** Of those, refused by the same-segment rule. */
  sameSegmentRefused: number;
}

/**
 * §5.2.1 and the first rule of §5.3: at every sample p_t of the control point that leaves room for
 * the elongation (e ≤ t ≤ N - 1 - e), the samples p_j with |p_j - p_t| ≤ radiusScale · |p_{t+1} - p_t|,
 * (p_j - p_t) · v_t > 0 and |j - t| > minGap, e ≤ j ≤ N - 1 - e; of a run of consecutive such j
 * only the last. Neighbours through the samples sorted by x, a binary search to x_t - d and a scan
 * to x_t + d.
 */
export function findTransitions(rec: Recording, options: MotionGraphOptions): FoundTransitions {
  const N = rec.samples, M = rec.masses, { control, elongation: e, minGap, radiusScale } = resolveOptions(rec, options);
  let candidates = 0, sameSegmentRefused = 0;
  // The control point's path.
  const px = new Float64Array(N), py = new Float64Array(N), pz = new Float64Array(N);
  const vx = new Float64Array(N), vy = new Float64Array(N), vz = new Float64Array(N);
  const P = rec.positions, V = rec.velocities;
  for (let s = 0; s < N; s++) {
    const o = (s * M + control) * 3;
    px[s] = P[o]; py[s] = P[o + 1]; pz[s] = P[o + 2];
    vx[s] = V[o]; vy[s] = V[o + 1]; vz[s] = V[o + 2];
  }

  // §5.2.1 nearest neighbours within d, through the samples sorted by x.
  const order = new Int32Array(N);
  for (let s = 0; s < N; s++) order[s] = s;
  order.sort((i, j) => px[i] - px[j]);
  const xs = new Float64Array(N);
  for (let k = 0; k < N; k++) xs[k] = px[order[k]];
  const tAt: number[] = [], jAt: number[] = [];
  const found: number[] = [];
  for (let t = e; t + e <= N - 1; t++) {
    // t + e ≤ N - 1 also gives p_{t+1}.
    const dx0 = px[t + 1] - px[t], dy0 = py[t + 1] - py[t], dz0 = pz[t + 1] - pz[t];
    const d2 = (dx0 * dx0 + dy0 * dy0 + dz0 * dz0) * radiusScale * radiusScale;
    if (!(d2 > 0)) continue;
    const d = sqrt(d2), x = px[t];
    let lo = 0, hi = N;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[mid] < x - d) lo = mid + 1;
      else hi = mid;
    }
    found.length = 0;
    for (let k = lo; k < N && xs[k] <= x + d; k++) {
      const j = order[k];
      if (abs(j - t) <= minGap || j - e < 0 || j + e > N - 1) continue;
      const rx = px[j] - x, ry = py[j] - py[t], rz = pz[j] - pz[t];
      if (rx * rx + ry * ry + rz * rz > d2) continue;
      if (rx * vx[t] + ry * vy[t] + rz * vz[t] <= 0) continue; // only forward of p_t's velocity
      found.push(j);
    }
    if (found.length === 0) continue;
    candidates += found.length;
    found.sort((a, b) => a - b);
    // §5.3: of neighbours on one segment (consecutive samples), only the latest in time.
    for (let i = 0; i < found.length; i++) {
      if (i + 1 < found.length && found[i + 1] === found[i] + 1) {
        sameSegmentRefused++;
        continue;
      }
      tAt.push(t);
      jAt.push(found[i]);
    }
  }
  return { t: Int32Array.from(tAt), j: Int32Array.from(jAt), candidates, sameSegmentRefused };
}

interface Csr {
  start: Int32Array;
  a: Int32Array;
  c: Int32Array;
  L: Int32Array;
  transition: Uint8Array;
  at: Int32Array;
  target: Int32Array;
}

/** Edges among alive nodes, by source node: the backbone edge first, then the transitions in order of t. */
function buildCsr(N: number, alive: Uint8Array, e: number, tFrom: Int32Array, tTo: Int32Array, tAt: Int32Array, jAt: Int32Array, tLive: Uint8Array): Csr {
  const start = new Int32Array(N + 1);
  for (let s = 0; s + 1 < N; s++) if (alive[s] && alive[s + 1]) start[s + 1]++;
  for (let i = 0; i < tFrom.length; i++) if (tLive[i] && alive[tFrom[i]] && alive[tTo[i]]) start[tFrom[i] + 1]++;
  for (let s = 0; s < N; s++) start[s + 1] += start[s];
  const E = start[N], fill = start.slice(0, N);
  const csr: Csr = {
    start, a: new Int32Array(E), c: new Int32Array(E), L: new Int32Array(E), transition: new Uint8Array(E),
    at: new Int32Array(E).fill(-1), target: new Int32Array(E).fill(-1),
  };
  for (let s = 0; s + 1 < N; s++) {
    if (!(alive[s] && alive[s + 1])) continue;
    const k = fill[s]++;
    csr.a[k] = csr.c[k] = s;
    csr.L[k] = 1;
  }
  for (let i = 0; i < tFrom.length; i++) {
    if (!(tLive[i] && alive[tFrom[i]] && alive[tTo[i]])) continue;
    const k = fill[tFrom[i]]++;
    csr.a[k] = tFrom[i];
    csr.c[k] = jAt[i] - e;
    csr.L[k] = 2 * e;
    csr.transition[k] = 1;
    csr.at[k] = tAt[i];
    csr.target[k] = jAt[i];
  }
  return csr;
}

/** Tarjan's strongly connected components, iterative; 1 for the nodes of the largest (if it has 2 nodes or more). */
function largestScc(N: number, alive: Uint8Array, g: Csr): Uint8Array {
  const index = new Int32Array(N).fill(-1), low = new Int32Array(N), onStack = new Uint8Array(N);
  const stack = new Int32Array(N), callNode = new Int32Array(N), callEdge = new Int32Array(N);
  const comp = new Int32Array(N).fill(-1);
  let next = 0, sp = 0, comps = 0, best = -1, bestSize = 1;
  for (let root = 0; root < N; root++) {
    if (!alive[root] || index[root] >= 0) continue;
    let depth = 0;
    callNode[0] = root;
    callEdge[0] = g.start[root];
    index[root] = low[root] = next++;
    stack[sp++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      const v = callNode[depth];
      const k = callEdge[depth];
      if (k < g.start[v + 1]) {
        callEdge[depth]++;
        const w = g.c[k] + g.L[k];
        if (index[w] < 0) {
          index[w] = low[w] = next++;
          stack[sp++] = w;
          onStack[w] = 1;
          depth++;
          callNode[depth] = w;
          callEdge[depth] = g.start[w];
        } else if (onStack[w] && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      // v is done.
      if (low[v] === index[v]) {
        let size = 0, w: number;
        do {
          w = stack[--sp];
          onStack[w] = 0;
          comp[w] = comps;
          size++;
        } while (w !== v);
        if (size > bestSize) {
          bestSize = size;
          best = comps;
        }
        comps++;
      }
      depth--;
      if (depth >= 0) {
        const u = callNode[depth];
        if (low[v] < low[u]) low[u] = low[v];
      }
    }
  }
  const keep = new Uint8Array(N);
  if (best >= 0) for (let s = 0; s < N; s++) keep[s] = comp[s] === best ? 1 : 0;
  return keep;
}

/**
 * Control point candidates (§6.1: "the choice for the control point ... can best be limited to the
 * set of points located high in the tree structure"): the free masses (not the anchor or the trunk
 * base, masses 0 and 1, nor any mass without a parent) whose rest height above the trunk base is at
 * least `fraction` of the highest's, highest first.
 */
export function controlPointCandidates(rec: Recording, parent: ArrayLike<number>, fraction = 0.75): Int32Array {
  const M = rec.masses, R = rec.rest;
  const base = M > 1 ? R[4] : 0;
  let top = -Infinity;
  for (let m = 2; m < M; m++) if (parent[m] >= 0) top = max(top, R[3 * m + 1] - base);
  if (top === -Infinity) return new Int32Array(0);
  const limit = top > 0 ? fraction * top : top;
  const list: number[] = [];
  for (let m = 2; m < M; m++) if (parent[m] >= 0 && R[3 * m + 1] - base >= limit) list.push(m);
  list.sort((a, b) => R[3 * b + 1] - R[3 * a + 1] || a - b);
  return Int32Array.from(list);
}
