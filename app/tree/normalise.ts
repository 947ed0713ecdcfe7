/**
 * A tree model made elsewhere, put the way the sandbox stands trees: up axis
 * detected (Y-up or Z-up, either sign, or given), units scaled when the height is implausible,
 * the base on the ground at the origin. Plain TypeScript over typed arrays: no Babylon.
 */

import { upFromWood, type WoodMesh } from "./extract";

/** An up axis: the model's axis that points to the sky. */
export type UpAxis = "+y" | "-y" | "+z" | "-z" | "+x" | "-x";
export const UP_AXES: readonly UpAxis[] = ["+y", "+z", "-y", "-z", "+x", "-x"];
/**
 * The axes detection chooses between: the two conventions modelling tools write (Y-up or Z-up).
 * Others are the person's to set: a bare tree seen from the side also stands on one piece (the
 * tip of a branch), and only the leaves tell the crown's side from the foot.
 */
export const DETECTED_UP_AXES: readonly UpAxis[] = ["+y", "+z"];

/** Heights (model units) outside this are taken for other units and scaled: a tree model in metres stands between 0.5 and 200 tall. */
export const PLAUSIBLE_HEIGHT = { min: 0.5, max: 200 } as const;
/** Units a too-tall model may be in, tried in order, and the heights a tree they give must have. */
const UNITS = [{ name: "centimetres", factor: 0.01 }, { name: "millimetres", factor: 0.001 }] as const;
const TREE_HEIGHTS = { min: 2, max: 60 } as const;
/** What an implausibly sized model is scaled to, metres. */
export const SCALED_HEIGHT = 10;

export interface Normalised {
  /** xyz per vertex, metres, +y up, the trunk's base at the origin. */
  positions: Float32Array;
  up: UpAxis;
  /** Whether `up` was found (true) or given. */
  detected: boolean;
  /** Model units to metres (1 when the height was plausible). */
  scale: number;
  /** Height after scaling, metres. */
  height: number;
  /** What a person should be told ("scaled by 0.01: the model was 1,250 units tall"). */
  notes: string[];
}

/** Component `c` (0 x, 1 y, 2 z) of vertex i as seen with `up` turned to +y: [right, up, forward]. */
function axes(up: UpAxis): { r: number; u: number; f: number; su: number; sf: number } {
  // Rotations that take `up` to +y, keeping a right-handed frame.
  switch (up) {
    case "+y": return { r: 0, u: 1, f: 2, su: 1, sf: 1 };
    case "-y": return { r: 0, u: 1, f: 2, su: -1, sf: -1 };
    case "+z": return { r: 0, u: 2, f: 1, su: 1, sf: -1 };
    case "-z": return { r: 0, u: 2, f: 1, su: -1, sf: 1 };
    case "+x": return { r: 1, u: 0, f: 2, su: 1, sf: -1 };
    case "-x": return { r: 1, u: 0, f: 2, su: -1, sf: 1 };
  }
}

/** Directions (normals) turned as normaliseModel turns positions for `up`: a copy, xyz each. */
export function turnVectors(v: Float32Array, up: UpAxis): Float32Array {
  const { r, u, f, su, sf } = axes(up);
  const out = new Float32Array(v.length);
  for (let i = 0; i + 2 < v.length; i += 3) {
    out[i] = v[i + r];
    out[i + 1] = su * v[i + u];
    out[i + 2] = sf * v[i + f];
  }
  return out;
}

/** The share of the height, from the lowest point, that is the model's foot. */
const FOOT = 0.05;

/** The height (along `up`, signed as `up`) below which a vertex is in the model's foot. */
function footCut(positions: Float32Array, up: UpAxis): number {
  const { u, su } = axes(up);
  let lo = Infinity, hi = -Infinity;
  for (let i = u; i < positions.length; i += 3) {
    const h = su * positions[i];
    lo = Math.min(lo, h);
    hi = Math.max(hi, h);
  }
  return lo + FOOT * (hi - lo);
}

/**
 * Pieces of the model in its foot (the lowest 5% of its height with `up` as up): connected groups
 * of the vertices there, joined by the triangles' edges within it. A tree stands on one piece,
 * its trunk; cut through the side or the top of a crown, the foot is many twigs and leaves.
 */
export function footPieces(positions: Float32Array, indices: ArrayLike<number>, up: UpAxis): number {
  const { u, su } = axes(up);
  const n = positions.length / 3;
  const cut = footCut(positions, up);
  const inFoot = (i: number) => su * positions[3 * i + u] <= cut;
  const parent = new Int32Array(n).fill(-1);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  let pieces = 0;
  for (let i = 0; i < n; i++) if (inFoot(i)) { parent[i] = i; pieces++; }
  for (let t = 0; t + 2 < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e], b = indices[t + ((e + 1) % 3)];
      if (parent[a] < 0 || parent[b] < 0) continue;
      const ra = find(a), rb = find(b);
      if (ra !== rb) {
        parent[ra] = rb;
        pieces--;
      }
    }
  }
  return pieces;
}

/**
 * How wide the model's foot is with `up` as up: the mean distance across the axis of the foot's
 * vertices (the lowest 5% of the height) from their centre. Where a trunk's base and a conifer's
 * leader are both one piece, the trunk's is the wider.
 */
export function footSpread(positions: Float32Array, up: UpAxis): number {
  const { r, u, f, su } = axes(up);
  const n = positions.length / 3;
  const cut = footCut(positions, up);
  let cx = 0, cz = 0, k = 0;
  for (let i = 0; i < n; i++) {
    if (su * positions[3 * i + u] > cut) continue;
    cx += positions[3 * i + r];
    cz += positions[3 * i + f];
    k++;
  }
  cx /= k;
  cz /= k;
  let s = 0;
  for (let i = 0; i < n; i++) if (su * positions[3 * i + u] <= cut) s += Math.hypot(positions[3 * i + r] - cx, positions[3 * i + f] - cz);
  return s / k;
}

/**
 * Turns, scales and moves a model's vertices (a copy) so it stands as the sandbox's trees do.
 * `indices`: its triangles. `up`: the model's up axis, or undefined to find it: from `wood`, the
 * model's wood in its own coordinates, when its trunk stands clearly along one axis (upFromWood:
 * the largest of separate parts, or, welded into one mesh, from the thickest of its ends);
 * else `convention`, the format's (glTF says +y) when given; else between +y and +z
 * (DETECTED_UP_AXES), the one along which the model stands on the fewest pieces (footPieces), then
 * on the widest foot (footSpread).
 * Throws on an empty or non-finite model.
 */
export function normaliseModel(positions: Float32Array, indices: ArrayLike<number>, options: { up?: UpAxis; wood?: WoodMesh; convention?: UpAxis } = {}): Normalised {
  const n = positions.length / 3;
  if (n === 0 || !Number.isInteger(n)) throw new RangeError(`the model has no geometry (${positions.length} coordinates)`);
  for (let i = 0; i < positions.length; i++) if (!Number.isFinite(positions[i])) throw new RangeError(`vertex ${Math.floor(i / 3)} of the model is not a finite point`);
  if (options.up !== undefined && !UP_AXES.includes(options.up)) throw new RangeError(`up axis must be one of ${UP_AXES.join(", ")}; got ${JSON.stringify(options.up)}`);
  let up = options.up;
  let how = "as set";
  // The trunk (the thickest piece of wood) stands along the up axis and tapers upward.
  const fromWood = !up && options.wood ? upFromWood(options.wood) : null;
  if (fromWood && fromWood.cos > 0.7) {
    up = fromWood.up;
    how = "found from the trunk";
  }
  // The format's own convention (glTF: +y), when the trunk does not say.
  if (!up && options.convention) {
    up = options.convention;
    how = "the format's convention";
  }
  if (!up) {
    how = "found from the foot the model stands on";
    // Fewest pieces in the foot, then the widest foot.
    let best: [number, number] = [Infinity, -Infinity];
    // A model (nearly) flat along an axis does not stand on it: a card, a plank.
    const extent = [0, 1, 2].map((c) => {
      let lo = Infinity, hi = -Infinity;
      for (let i = c; i < positions.length; i += 3) {
        lo = Math.min(lo, positions[i]);
        hi = Math.max(hi, positions[i]);
      }
      return hi - lo;
    });
    const candidates = DETECTED_UP_AXES.filter((a) => extent[a === "+y" ? 1 : 2] >= 0.1 * Math.max(...extent));
    for (const a of candidates.length > 0 ? candidates : DETECTED_UP_AXES) {
      const pieces = footPieces(positions, indices, a);
      const score = footSpread(positions, a);
      if (pieces < best[0] || (pieces === best[0] && score > best[1])) {
        best = [pieces, score];
        up = a;
      }
    }
  }
  const { r, u, f, su, sf } = axes(up!);
  const out = new Float32Array(positions.length);
  for (let i = 0; i < n; i++) {
    out[3 * i] = positions[3 * i + r];
    out[3 * i + 1] = su * positions[3 * i + u];
    out[3 * i + 2] = sf * positions[3 * i + f];
  }
  // The base: the lowest vertices' centre goes to the origin, the lowest point to the ground.
  let minY = Infinity, maxY = -Infinity;
  for (let i = 1; i < out.length; i += 3) {
    minY = Math.min(minY, out[i]);
    maxY = Math.max(maxY, out[i]);
  }
  const tall = maxY - minY;
  if (!(tall > 0)) throw new RangeError("the model is flat: it has no height along any axis");
  let bx = 0, bz = 0, k = 0;
  for (let i = 0; i < n; i++) {
    if (out[3 * i + 1] <= minY + 0.02 * tall) {
      bx += out[3 * i];
      bz += out[3 * i + 2];
      k++;
    }
  }
  bx /= k;
  bz /= k;
  const notes: string[] = [];
  let scale = 1;
  if (tall < PLAUSIBLE_HEIGHT.min || tall > PLAUSIBLE_HEIGHT.max) {
    // Too tall: centimetres or millimetres if that gives a tree's height; else a 10 m tree.
    const unit = tall > PLAUSIBLE_HEIGHT.max ? UNITS.find((c) => tall * c.factor >= TREE_HEIGHTS.min && tall * c.factor <= TREE_HEIGHTS.max) : undefined;
    scale = unit ? unit.factor : SCALED_HEIGHT / tall;
    notes.push(`scaled by ${scale.toPrecision(3)}: the model is ${tall.toPrecision(4)} units tall, ${unit ? `taken for ${unit.name}` : `made ${SCALED_HEIGHT} m`}`);
  }
  for (let i = 0; i < n; i++) {
    out[3 * i] = (out[3 * i] - bx) * scale;
    out[3 * i + 1] = (out[3 * i + 1] - minY) * scale;
    out[3 * i + 2] = (out[3 * i + 2] - bz) * scale;
  }
  if (up !== "+y") notes.push(`turned: its up axis is ${up} (${how})`);
  return { positions: out, up: up!, detected: !options.up, scale, height: tall * scale, notes };
}
