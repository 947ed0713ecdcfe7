/**
 * Van Haevre 2006 §6.1 and Fig. 7 for many trees: "To each tree in the animated scene, first a
 * randomly chosen instance of gathered data is assigned. Then a randomly chosen control point is
 * assigned", from the points high in the tree. Each tree then walks its own motion graph, turned
 * to where it stands, and every frame its grove masses are posed from its walk (into the rows of
 * the pose texture the grove's shader reads). Plain TypeScript, no Babylon.
 */
import type { Rng } from "../../math/rng";
import type { Recording } from "./capture";
import { controlPointCandidates, MotionGraph } from "./motion-graph";
import { evaluateMass, GraphWalk } from "./walk";
import { TEXEL, type GrovePlacement } from "./grove-geometry";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { cos, sin, floor } = Math;

/** Search radii tried, as multiples of §5.2.1's d (the distance to the next sample). */
export const RADIUS_SCALES = [1, 1.5, 2, 3, 4] as const;
/** A control point that moves less than this (metres) in a recording gives no graph. */
const MIN_REACH = 0.002;
/** A graph is usable when it keeps this share of the samples... */
const MIN_NODE_SHARE = 0.25;
/** ...and has at least this many transitions. */
const MIN_TRANSITIONS = 3;

/**
 * The motion graph of `control` in `rec` (§5), with §5.2.1's search radius d when that finds
 * enough crossings. DEPARTURE: sampled 30 times a second, a control point moving in 3D often
 * passes its old path further than one sample's travel away, and with d alone a short recording
 * can give a graph of a handful of samples or none. The radius then grows (1.5 d, 2 d, 3 d, 4 d)
 * until the graph keeps a quarter of the samples and has 3 transitions; the graph says which
 * radius it used (`radiusScale`). Throws when even 4 d finds nothing.
 */
export function usableGraph(rec: Recording, control: number, elongation: number): MotionGraph {
  // A control point that barely moves (a recording in calm air) gives a "graph" of rounding noise.
  let reach = 0;
  const M = rec.masses, r = rec.rest, c = 3 * control;
  for (let t = 0; t < rec.samples; t++) {
    const o = 3 * (t * M + control);
    reach = Math.max(reach, Math.hypot(rec.positions[o] - r[c], rec.positions[o + 1] - r[c + 1], rec.positions[o + 2] - r[c + 2]));
  }
  if (reach < MIN_REACH) {
    throw new Error(`the control point (mass ${control}) of recording ${rec.label.split(":")[0]} moves at most ${(reach * 1000).toFixed(2)} mm, too little for a motion graph; record in some wind`);
  }
  let best: MotionGraph | null = null;
  for (const radiusScale of RADIUS_SCALES) {
    const g = MotionGraph.build(rec, { control, elongation, radiusScale });
    if (!best || g.stats.nodes > best.stats.nodes) best = g;
    if (g.stats.nodes >= MIN_NODE_SHARE * g.samples && g.stats.transitions >= MIN_TRANSITIONS) return g;
  }
  if (!best || best.stats.nodes === 0) {
    throw new Error(`the control point (mass ${control}) of recording ${rec.label.split(":")[0]} never comes back near its own path, so its motion graph is empty; record longer, or with the turning wind`);
  }
  return best;
}

export interface GroveTree {
  readonly recording: Recording;
  readonly control: number;
  readonly graph: MotionGraph;
  readonly walk: GraphWalk;
  /** cos and sin of the tree's turn: world = R(yaw) tree. */
  readonly c: number;
  readonly s: number;
  /** The steering direction in the tree's own frame, rewritten every frame. */
  readonly steer: { x: number; z: number };
}

export interface GroveOptions {
  /** The recordings to draw from; tree 0 gets `first`. */
  readonly recordings: readonly Recording[];
  readonly first: Recording;
  /** Parent of each mass (the system's). */
  readonly parent: ArrayLike<number>;
  readonly placements: readonly GrovePlacement[];
  /** System mass of each grove mass (grove-geometry.ts). */
  readonly masses: Int32Array;
  /** §5.2.1's elongation, samples. */
  readonly elongation: number;
  readonly rng: Rng;
  /** Where the graphs come from (a cache shared with the caller); default: usableGraph, cached here. */
  readonly graph?: (rec: Recording, control: number) => MotionGraph;
}

export class Grove {
  readonly trees: GroveTree[] = [];
  /** Distinct motion graphs built (a recording and control point shared by two trees share one). */
  readonly graphs: number;
  private readonly masses: Int32Array;

  constructor(o: GroveOptions) {
    this.masses = o.masses;
    const cache = new Map<string, MotionGraph>();
    const build = o.graph ?? ((rec: Recording, control: number) => usableGraph(rec, control, o.elongation));
    const candidates = new Map<Recording, Int32Array>();
    for (let k = 0; k < o.placements.length; k++) {
      let rec = k === 0 ? o.first : o.recordings[floor(o.rng.next() * o.recordings.length)];
      let cand = candidates.get(rec);
      if (!cand) {
        cand = controlPointCandidates(rec, o.parent);
        candidates.set(rec, cand);
      }
      if (cand.length === 0) throw new Error("the tree has no control point candidates (no mass high in the tree)");
      let graph: MotionGraph | undefined, control = -1;
      // A control point whose path never comes back near itself gives no graph: try another, and
      // after 4 tries, the first recording's (which the caller has made a graph of).
      for (let attempt = 0; attempt < 8 && !graph; attempt++) {
        if (attempt === 4 && rec !== o.first) {
          rec = o.first;
          cand = candidates.get(rec) ?? controlPointCandidates(rec, o.parent);
          candidates.set(rec, cand);
        }
        control = k === 0 && attempt === 0 ? cand[0] : cand[floor(o.rng.next() * cand.length)];
        const key = `${rec.id}:${control}`;
        graph = cache.get(key);
        if (graph) break;
        try {
          graph = build(rec, control);
          cache.set(key, graph);
        } catch (e) {
          if (attempt === 7) throw e;
        }
      }
      const yaw = o.placements[k].yaw;
      this.trees.push({ recording: rec, control, graph: graph!, walk: new GraphWalk(graph!, o.rng.fork(k + 1)), c: cos(yaw), s: sin(yaw), steer: { x: 0, z: 0 } });
    }
    this.graphs = cache.size;
  }

  /**
   * Advances every walk by `seconds`, each steered toward the world direction `steer` (x, z)
   * turned into its own frame (null: random walks), and writes each tree's grove masses into its
   * row of `pose` (TEXEL floats per mass, rows of masses.length). Allocation free.
   */
  advance(seconds: number, steer: { x: number; z: number } | null, pose: Float32Array): void {
    const masses = this.masses, g = masses.length, trees = this.trees;
    for (let k = 0; k < trees.length; k++) {
      const t = trees[k];
      if (steer) {
        t.steer.x = t.c * steer.x + t.s * steer.z;
        t.steer.z = -t.s * steer.x + t.c * steer.z;
      }
      t.walk.advance(seconds, steer ? t.steer : null);
      const row = TEXEL * g * k, rec = t.recording, b = t.walk.blend;
      for (let i = 0; i < g; i++) evaluateMass(rec, b, masses[i], pose, row + TEXEL * i);
    }
  }
}
