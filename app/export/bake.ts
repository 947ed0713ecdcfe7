/**
 * The motion as bones: a method's deformed skeleton, sampled frame by frame, turned into the pose
 * of one bone per skeleton node, for an animated, skinned glTF. Plain TypeScript, no Babylon.
 *
 * The rig. Bone k sits on node k and carries the segment leaving it along its branch (node k to
 * k + 1; a tip node, the segment arriving at it), as the per-vertex binding's skin nodes do
 * (tree/geometry.ts: a bark vertex is skinned to the one or two nodes of its segment). Its parent
 * is the bone of nodeParent[k]: the previous node of its branch, or, for a branch's base node, the
 * node of the parent branch it grows from. In the bind pose every bone stands at its node's rest
 * position I_k with no rotation, so its inverse bind matrix is a translation by -I_k.
 *
 * A pose. From the deformed node positions X: the bone's world rotation R_k is the shortest
 * rotation taking its rest segment direction to the deformed one, its world translation X_k. A
 * vertex v skinned to it goes to X_k + R_k (v - I_k) (linear blend skinning over its weights), so
 * a node's own position is reproduced exactly and a segment's points follow the deformed segment.
 * glTF stores each bone relative to its parent: q = conj(q_parent) q_k, t = conj(q_parent)(X_k - X_parent).
 *
 * The clip. Frame i is the method's state i / fps seconds after the start, on the host's fixed
 * steps. `loop`: the clip is sampled `fade` seconds later (a pre-roll), and its last `fade`
 * seconds blend into that pre-roll's (local rotations slerped, translations lerped), so the last
 * frame equals the first and the motion runs on across the seam.
 */
import { booleanParam, numberParam } from "../math/params";
import type { TreeSkeleton } from "../tree/skeleton";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, abs, round, acos, sin, min } = Math;

/** Numbers per bone per frame: translation xyz, rotation quaternion xyzw (glTF's order). */
export const POSE_STRIDE = 7;

/** What a baked file may weigh, bytes (the size budget named in the refusal). */
export const SIZE_BUDGET_BYTES = 200 * 1024 * 1024;

export const EXPORT_RANGES = {
  seconds: { min: 0.5, max: 600 },
  fps: { min: 1, max: 60 },
} as const;

/** The Export section's settings (exportMotion() takes the wider EXPORT_RANGES). */
export const EXPORT_PARAMS = {
  seconds: numberParam("Clip length", 1, 60, 1, 10, "s", "How long the exported clip runs, in the sandbox's own time"),
  fps: numberParam("Clip frames per second", 5, 60, 1, 30, "", "Keys per second of the clip: every bone gets a pose at each"),
  loop: booleanParam("Loop (cross-fade the last second)", false, "Blends the clip's last second into its first, so it plays in a loop without a jump"),
} as const;

/** The longest cross-fade of a looping clip, seconds (at most half the clip). */
export const LOOP_FADE_SECONDS = 1;

export interface ExportOptions {
  /** Clip length, seconds (0.5 to 600). */
  seconds: number;
  /** Frames per second (whole number, 1 to 60). Default 30. */
  fps?: number;
  /** The only format: binary glTF. */
  format?: "glb";
  /** Cross-fade the last second into the first so the clip loops. Default false. */
  loop?: boolean;
  /** Save the file (a download in the page). Default false. */
  download?: boolean;
}

export interface ExportSettings {
  seconds: number;
  fps: number;
  format: "glb";
  loop: boolean;
  download: boolean;
}

/** Validated options with defaults; a RangeError names the allowed range. */
export function exportSettings(o: ExportOptions): ExportSettings {
  if (typeof o !== "object" || o === null) throw new TypeError("exportMotion() takes an object such as { seconds: 10, fps: 30, format: \"glb\" }");
  const known = ["seconds", "fps", "format", "loop", "download"];
  for (const k of Object.keys(o)) if (!known.includes(k)) throw new RangeError(`exportMotion() has no option "${k}"; its options are: ${known.join(", ")}`);
  const { seconds } = o;
  const fps = o.fps ?? 30;
  const r = EXPORT_RANGES;
  if (typeof seconds !== "number" || !(seconds >= r.seconds.min && seconds <= r.seconds.max)) throw new RangeError(`exportMotion(): seconds must be a number from ${r.seconds.min} to ${r.seconds.max}; got ${String(seconds)}`);
  if (!Number.isInteger(fps) || fps < r.fps.min || fps > r.fps.max) throw new RangeError(`exportMotion(): fps must be a whole number from ${r.fps.min} to ${r.fps.max}; got ${String(fps)}`);
  const format = o.format ?? "glb";
  if (format !== "glb") throw new RangeError(`exportMotion(): format must be "glb" (binary glTF); got ${JSON.stringify(format)}`);
  for (const k of ["loop", "download"] as const) if (o[k] !== undefined && typeof o[k] !== "boolean") throw new RangeError(`exportMotion(): ${k} must be true or false; got ${JSON.stringify(o[k])}`);
  return { seconds, fps, format, loop: o.loop ?? false, download: o.download ?? false };
}

/** Frames in the clip: one per 1 / fps over `seconds`, both ends included. */
export function clipFrames(s: { seconds: number; fps: number }): number {
  return round(s.seconds * s.fps) + 1;
}

/**
 * Bytes the file will take, roughly: per bone per frame a translation and a rotation (28 bytes),
 * per vertex its position, normal, uv, 4 joints and 4 weights (64 bytes), 4 per index.
 */
export function estimateBytes(bones: number, frames: number, vertices: number, indices: number): number {
  return bones * frames * 28 + frames * 4 + vertices * 64 + indices * 4;
}

/** Throws a RangeError when the clip would pass SIZE_BUDGET_BYTES, naming the budget. */
export function checkBudget(bytes: number): void {
  if (bytes > SIZE_BUDGET_BYTES) {
    const mb = (n: number) => Math.round(n / (1024 * 1024));
    throw new RangeError(`exportMotion(): the file would be ${mb(bytes)} MB, over the ${mb(SIZE_BUDGET_BYTES)} MB budget: shorten the clip or lower the fps`);
  }
}

/** The bones of a skeleton: one per node. */
export interface BoneRig {
  readonly count: number;
  /** Parent bone of each bone, -1 for the root (the trunk's base). */
  readonly parent: Int32Array;
  /** The two nodes whose difference is each bone's segment direction (from, to); from = to: none. */
  readonly from: Int32Array;
  readonly to: Int32Array;
  /** Rest node positions I (3 per bone). */
  readonly rest: Float64Array;
  /** Rest unit segment directions (3 per bone). */
  readonly restDirection: Float64Array;
}

export function boneRig(s: TreeSkeleton): BoneRig {
  const n = s.nodeCount;
  const from = new Int32Array(n), to = new Int32Array(n);
  for (let b = 0; b < s.branchCount; b++) {
    const first = s.branchFirstNode[b], count = s.branchNodeCount[b];
    for (let k = first; k < first + count; k++) {
      if (k + 1 < first + count) { from[k] = k; to[k] = k + 1; }
      else if (k > first) { from[k] = k - 1; to[k] = k; }
      else { from[k] = to[k] = k; }
    }
  }
  const rest = Float64Array.from(s.nodePosition);
  const restDirection = new Float64Array(3 * n);
  directions(from, to, rest, restDirection);
  return { count: n, parent: Int32Array.from(s.nodeParent), from, to, rest, restDirection };
}

function directions(from: Int32Array, to: Int32Array, p: ArrayLike<number>, out: Float64Array): void {
  for (let k = 0; k < from.length; k++) {
    const a = 3 * from[k], b = 3 * to[k];
    let x = p[b] - p[a], y = p[b + 1] - p[a + 1], z = p[b + 2] - p[a + 2];
    const l = sqrt(x * x + y * y + z * z);
    if (l > 0) { x /= l; y /= l; z /= l; }
    out[3 * k] = x; out[3 * k + 1] = y; out[3 * k + 2] = z;
  }
}

/** Writes the shortest rotation taking unit a to unit b as a quaternion xyzw at out[o..o+3]. */
function shortestArc(ax: number, ay: number, az: number, bx: number, by: number, bz: number, out: Float64Array, o: number): void {
  const d = ax * bx + ay * by + az * bz;
  if ((ax === 0 && ay === 0 && az === 0) || (bx === 0 && by === 0 && bz === 0)) { out[o] = out[o + 1] = out[o + 2] = 0; out[o + 3] = 1; return; }
  let x: number, y: number, z: number, w: number;
  if (d < -0.999999) {
    // Opposite: half a turn about any axis across a.
    x = 0; y = -az; z = ay;
    if (x * x + y * y + z * z < 1e-12) { x = az; y = 0; z = -ax; }
    w = 0;
  } else {
    x = ay * bz - az * by; y = az * bx - ax * bz; z = ax * by - ay * bx; w = 1 + d;
  }
  const l = sqrt(x * x + y * y + z * z + w * w);
  out[o] = x / l; out[o + 1] = y / l; out[o + 2] = z / l; out[o + 3] = w / l;
}

/** Scratch for posing, made once per rig (posing allocates nothing per frame). */
export class Poser {
  /** World pose of every bone: translation xyz, rotation xyzw (POSE_STRIDE each). */
  readonly world: Float64Array;
  private readonly direction: Float64Array;

  constructor(readonly rig: BoneRig) {
    this.world = new Float64Array(POSE_STRIDE * rig.count);
    this.direction = new Float64Array(3 * rig.count);
  }

  /** World poses from deformed node positions (3 per node). */
  pose(nodes: ArrayLike<number>): Float64Array {
    const r = this.rig, W = this.world, d = this.direction, d0 = r.restDirection;
    directions(r.from, r.to, nodes, d);
    for (let k = 0; k < r.count; k++) {
      const o = POSE_STRIDE * k;
      W[o] = nodes[3 * k]; W[o + 1] = nodes[3 * k + 1]; W[o + 2] = nodes[3 * k + 2];
      shortestArc(d0[3 * k], d0[3 * k + 1], d0[3 * k + 2], d[3 * k], d[3 * k + 1], d[3 * k + 2], W, o + 3);
    }
    return W;
  }

  /** Each bone's pose relative to its parent (what glTF stores), from world poses, into out (POSE_STRIDE per bone). */
  local(world: Float64Array, out: Float32Array | Float64Array, offset = 0): void {
    const P = this.rig.parent;
    for (let k = 0; k < this.rig.count; k++) {
      const o = POSE_STRIDE * k, q = offset + o, p = P[k];
      if (p < 0) {
        for (let j = 0; j < POSE_STRIDE; j++) out[q + j] = world[o + j];
        continue;
      }
      const op = POSE_STRIDE * p;
      // conj(q_parent)
      const px = -world[op + 3], py = -world[op + 4], pz = -world[op + 5], pw = world[op + 6];
      rotate(px, py, pz, pw, world[o] - world[op], world[o + 1] - world[op + 1], world[o + 2] - world[op + 2], out, q);
      const bx = world[o + 3], by = world[o + 4], bz = world[o + 5], bw = world[o + 6];
      out[q + 3] = pw * bx + px * bw + py * bz - pz * by;
      out[q + 4] = pw * by - px * bz + py * bw + pz * bx;
      out[q + 5] = pw * bz + px * by - py * bx + pz * bw;
      out[q + 6] = pw * bw - px * bx - py * by - pz * bz;
    }
  }
}

/** Rotates (vx, vy, vz) by the unit quaternion (x, y, z, w) into out[o..o+2]. */
export function rotate(x: number, y: number, z: number, w: number, vx: number, vy: number, vz: number, out: Float32Array | Float64Array, o: number): void {
  // t = 2 q.xyz × v; v' = v + w t + q.xyz × t
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  out[o] = vx + w * tx + (y * tz - z * ty);
  out[o + 1] = vy + w * ty + (z * tx - x * tz);
  out[o + 2] = vz + w * tz + (x * ty - y * tx);
}

const skinScratch = new Float64Array(3);

/**
 * Linear blend skinning of one rest vertex with world poses: Σ w_k (X_k + R_k (v - I_k)) / Σ w_k,
 * as a glTF viewer computes it with the rig's inverse bind matrices. Writes xyz into out.
 */
export function skinVertex(rig: BoneRig, world: Float64Array, v: ArrayLike<number>, bones: ArrayLike<number>, weights: ArrayLike<number>, out: Float64Array): void {
  let sx = 0, sy = 0, sz = 0, sw = 0;
  const t = skinScratch;
  for (let j = 0; j < bones.length; j++) {
    const w = weights[j];
    if (!(w > 0)) continue;
    const k = bones[j], o = POSE_STRIDE * k;
    rotate(world[o + 3], world[o + 4], world[o + 5], world[o + 6], v[0] - rig.rest[3 * k], v[1] - rig.rest[3 * k + 1], v[2] - rig.rest[3 * k + 2], t, 0);
    sx += w * (world[o] + t[0]); sy += w * (world[o + 1] + t[1]); sz += w * (world[o + 2] + t[2]);
    sw += w;
  }
  out[0] = sx / sw; out[1] = sy / sw; out[2] = sz / sw;
}

/** Composes local poses (POSE_STRIDE per bone, parents first or not) back into world poses. */
export function composeWorld(rig: BoneRig, local: ArrayLike<number>, offset: number, out: Float64Array): void {
  const done = new Uint8Array(rig.count);
  const visit = (k: number): void => {
    if (done[k]) return;
    const o = POSE_STRIDE * k, q = offset + o, p = rig.parent[k];
    if (p < 0) {
      for (let j = 0; j < POSE_STRIDE; j++) out[o + j] = local[q + j];
    } else {
      visit(p);
      const op = POSE_STRIDE * p;
      const px = out[op + 3], py = out[op + 4], pz = out[op + 5], pw = out[op + 6];
      rotate(px, py, pz, pw, local[q], local[q + 1], local[q + 2], out, o);
      out[o] += out[op]; out[o + 1] += out[op + 1]; out[o + 2] += out[op + 2];
      const bx = local[q + 3], by = local[q + 4], bz = local[q + 5], bw = local[q + 6];
      out[o + 3] = pw * bx + px * bw + py * bz - pz * by;
      out[o + 4] = pw * by - px * bz + py * bw + pz * bx;
      out[o + 5] = pw * bz + px * by - py * bx + pz * bw;
      out[o + 6] = pw * bw - px * bx - py * by - pz * bz;
    }
    done[k] = 1;
  };
  for (let k = 0; k < rig.count; k++) visit(k);
}

/** Blends pose a toward pose b by alpha (translations lerped, rotations slerped, shortest way) into out, all at their offsets. */
export function blendPoses(bones: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, alpha: number, out: Float32Array | Float64Array, oo: number): void {
  for (let k = 0; k < bones; k++) {
    const i = ao + POSE_STRIDE * k, j = bo + POSE_STRIDE * k, o = oo + POSE_STRIDE * k;
    for (let c = 0; c < 3; c++) out[o + c] = a[i + c] + (b[j + c] - a[i + c]) * alpha;
    let bx = b[j + 3], by = b[j + 4], bz = b[j + 5], bw = b[j + 6];
    const ax = a[i + 3], ay = a[i + 4], az = a[i + 5], aw = a[i + 6];
    let d = ax * bx + ay * by + az * bz + aw * bw;
    if (d < 0) { d = -d; bx = -bx; by = -by; bz = -bz; bw = -bw; }
    let wa: number, wb: number;
    if (d > 0.9995) { wa = 1 - alpha; wb = alpha; }
    else {
      const th = acos(min(1, d)), s = sin(th);
      wa = sin((1 - alpha) * th) / s; wb = sin(alpha * th) / s;
    }
    let x = wa * ax + wb * bx, y = wa * ay + wb * by, z = wa * az + wb * bz, w = wa * aw + wb * bw;
    const l = sqrt(x * x + y * y + z * z + w * w) || 1;
    x /= l; y /= l; z /= l; w /= l;
    out[o + 3] = x; out[o + 4] = y; out[o + 5] = z; out[o + 6] = w;
  }
}

/** What the bake drives: the method on show, stepped on the host's fixed clock. */
export interface MotionSource {
  /** The host's fixed step, seconds. */
  readonly dt: number;
  /** Advances the methods `steps` fixed steps (no drawing needed). */
  advance(steps: number): void;
  /** The deformed node positions now, 3 per node, in the tree's own space. */
  nodes(out: Float64Array): void;
}

export interface BakedClip {
  readonly fps: number;
  readonly frames: number;
  readonly seconds: number;
  readonly loop: boolean;
  /** Key times, seconds. */
  readonly times: Float32Array;
  /** Local pose of every bone at every key: frames × bones × POSE_STRIDE. */
  readonly local: Float32Array;
}

/**
 * Samples the clip: frame i after round(i / fps / dt) fixed steps from now (the recorder's grid).
 * `progress` gets the share done; `pause` is awaited every few frames (the page draws the bar).
 */
export async function bakeClip(rig: BoneRig, source: MotionSource, s: { seconds: number; fps: number; loop: boolean }, progress: (fraction: number) => void = () => {}, pause: () => Promise<void> = async () => {}): Promise<BakedClip> {
  const frames = clipFrames(s), n = frames - 1;
  const fade = s.loop ? round(min(LOOP_FADE_SECONDS, s.seconds / 2) * s.fps) : 0;
  const sampled = n + fade + 1;
  const B = rig.count, stride = B * POSE_STRIDE;
  const poser = new Poser(rig);
  const nodes = new Float64Array(3 * B);
  // The pre-roll's first `fade` frames are kept for the blend; the clip proper goes straight into `local`.
  const local = new Float32Array(frames * stride);
  const preroll = new Float32Array(fade * stride);
  let steps = 0;
  for (let i = 0; i < sampled; i++) {
    const target = round(i / s.fps / source.dt);
    if (target > steps) source.advance(target - steps);
    steps = target;
    source.nodes(nodes);
    const world = poser.pose(nodes);
    if (i < fade) poser.local(world, preroll, i * stride);
    if (i >= fade) {
      const f = i - fade;
      poser.local(world, local, f * stride);
      // The last `fade` seconds blend into the pre-roll: frame n becomes frame 0 (= sample `fade`).
      if (fade > 0 && f > n - fade) {
        const alpha = (f - (n - fade)) / fade;
        const start = f - (n - fade);
        if (start < fade) blendPoses(B, local, f * stride, preroll, start * stride, alpha, local, f * stride);
        else blendPoses(B, local, f * stride, local, 0, alpha, local, f * stride);
      }
    }
    progress((i + 1) / sampled);
    if (i % 8 === 7) await pause();
  }
  const times = new Float32Array(frames);
  for (let i = 0; i < frames; i++) times[i] = i / s.fps;
  return { fps: s.fps, frames, seconds: n / s.fps, loop: s.loop, times, local };
}

/** Largest |a - b| over two poses' translations (for checks). */
export function maxTranslationGap(bones: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  let m = 0;
  for (let k = 0; k < bones; k++) for (let c = 0; c < 3; c++) m = Math.max(m, abs(a[ao + POSE_STRIDE * k + c] - b[bo + POSE_STRIDE * k + c]));
  return m;
}
