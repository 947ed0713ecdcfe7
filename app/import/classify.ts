/**
 * Wood or leaves, and which objects of a file are trees (a file holding several trees, or parts
 * that are no tree, lets the person pick the tree). Plain TypeScript: no Babylon.
 *
 * Each material gets a role from, in order: its name and its meshes' names (bark, trunk... /
 * leaf, foliage, needle...), its shape (many small flat pieces are leaves), an alpha-tested
 * texture (leaf cards), its colour (green leaves, brown wood, blue water). The person can correct
 * any guess; the guess says why it was made.
 */
import { meshParts } from "../tree/extract";
import type { ModelData, ModelPrimitive, PartRole } from "./model";

const LEAF_WORDS = /leaf|leaves|foliage|needle|frond|canopy|crown|blatt|laub|feuille|hoja|petal|flower|blossom|twig_?card/i;
const WOOD_WORDS = /bark|trunk|wood|branch|stem|stalk|limb|log|stump|rinde|tronc/i;

/** The reason of a material taken for wood for want of any clue (a rock, a wall, or untextured bark). */
export const NO_CLUE = "nothing says leaves";
/** An object covering more than this share of the file's footprint is the ground it stands on. */
const GROUND_SHARE = 0.25;

/** Pieces a material must have, at least, to be read as leaves by its shape. */
const MIN_LEAF_PIECES = 12;
/** A leaf piece's size, at most, as a share of the model's size. */
const LEAF_PIECE_SIZE = 0.12;
/** A leaf piece's thickness, at most, as a share of its size (a card or a clump of cards). */
const LEAF_FLATNESS = 0.35;

export interface RoleGuess {
  readonly material: string;
  readonly role: PartRole;
  /** Why: "its name says leaves", "820 small flat pieces", ... */
  readonly reason: string;
  /** Vertices using the material (in the objects looked at). */
  readonly vertices: number;
}

/** The role of every material of `primitives`, guessed; in the order the materials first appear. */
export function guessRoles(primitives: readonly ModelPrimitive[]): RoleGuess[] {
  const byMaterial = new Map<string, ModelPrimitive[]>();
  for (const p of primitives) {
    const list = byMaterial.get(p.material) ?? [];
    list.push(p);
    byMaterial.set(p.material, list);
  }
  const size = modelSize(primitives);
  const out: RoleGuess[] = [];
  for (const [material, prims] of byMaterial) {
    const vertices = prims.reduce((n, p) => n + p.positions.length / 3, 0);
    const names = [material, ...prims.map((p) => p.mesh)].join(" ");
    const guess = (role: PartRole, reason: string) => out.push({ material, role, reason, vertices });
    if (LEAF_WORDS.test(names) && !WOOD_WORDS.test(material)) { guess("leaves", `its name says leaves (${shortName(names, LEAF_WORDS)})`); continue; }
    if (WOOD_WORDS.test(names)) { guess("wood", `its name says wood (${shortName(names, WOOD_WORDS)})`); continue; }
    const shape = leafShape(prims, size);
    if (shape.leaves) { guess("leaves", `${shape.pieces} small flat pieces`); continue; }
    if (prims.some((p) => p.alphaTested && p.textured)) { guess("leaves", "an alpha-tested texture (leaf cards)"); continue; }
    const hue = colourKind(prims[0].colour);
    if (hue === "green") { guess("leaves", "its colour is green"); continue; }
    if (hue === "blue") { guess("ignore", "its colour is blue (water or sky, not a tree)"); continue; }
    guess("wood", hue === "brown" ? "its colour is brown" : NO_CLUE);
  }
  return out;
}

function shortName(names: string, words: RegExp): string {
  const m = names.match(words);
  return m ? `"${m[0].toLowerCase()}"` : "";
}

/** The largest extent of the primitives' bounding box. */
function modelSize(primitives: readonly ModelPrimitive[]): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const p of primitives) {
    for (let i = 0; i < p.positions.length; i += 3) {
      for (let c = 0; c < 3; c++) {
        lo[c] = Math.min(lo[c], p.positions[i + c]);
        hi[c] = Math.max(hi[c], p.positions[i + c]);
      }
    }
  }
  return Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) || 1;
}

/** Many small, flat pieces: leaf cards (or clumps of them). */
function leafShape(prims: readonly ModelPrimitive[], size: number): { leaves: boolean; pieces: number } {
  let pieces = 0, small = 0, flat = 0;
  for (const p of prims) {
    const { count, partOfVertex } = meshParts({ positions: p.positions, indices: p.indices });
    pieces += count;
    if (count < 2) continue;
    const lo = new Float64Array(3 * count).fill(Infinity), hi = new Float64Array(3 * count).fill(-Infinity);
    for (let i = 0; i < partOfVertex.length; i++) {
      const q = partOfVertex[i];
      if (q < 0) continue;
      for (let c = 0; c < 3; c++) {
        lo[3 * q + c] = Math.min(lo[3 * q + c], p.positions[3 * i + c]);
        hi[3 * q + c] = Math.max(hi[3 * q + c], p.positions[3 * i + c]);
      }
    }
    for (let q = 0; q < count; q++) {
      const e = [hi[3 * q] - lo[3 * q], hi[3 * q + 1] - lo[3 * q + 1], hi[3 * q + 2] - lo[3 * q + 2]].sort((a, b) => a - b);
      if (e[2] < LEAF_PIECE_SIZE * size) small++;
      // A card at an angle fills its box's thinnest side too; a clump is somewhat round. A tube
      // (a branch) is long and thin: its two smaller sides are both far below its length.
      if (e[2] > 0 && e[1] / e[2] > LEAF_FLATNESS) flat++;
    }
  }
  return { leaves: pieces >= MIN_LEAF_PIECES && small >= 0.9 * pieces && flat >= 0.7 * pieces, pieces };
}

/** What a base colour looks like: green (leaves), brown (wood), blue (water), or grey (nothing). */
export function colourKind([r, g, b]: readonly [number, number, number]): "green" | "brown" | "blue" | "grey" {
  const max = Math.max(r, g, b), min = Math.min(r, g, b);
  if (max - min < 0.08 * Math.max(max, 0.05)) return "grey";
  if (g >= r && g >= b) return "green";
  if (b > r && b > g) return "blue";
  return "brown";
}

/** One object of a file that holds a tree: its name and its primitives (indices into the model's). */
export interface TreeObject {
  readonly name: string;
  readonly primitives: readonly number[];
  /** Height along the file's longest-standing axis is not known yet: the bounding box's diagonal. */
  readonly size: number;
}

/**
 * The trees in a file: the objects holding wood (the role of each material in `roles`) that
 * something says is wood (a name, a brown colour, a texture, or the person: `clueless` lists the
 * materials taken for wood for want of a clue, such as a plain grey rock), that are not flat
 * (terrain, water, a road) and do not cover the file's footprint (the ground); each with the
 * leaves-only objects that overlap it (a trunk and a crown written as two objects). A file that
 * is one object, or where no object qualifies, is one tree. Largest first.
 */
export function treeObjects(model: ModelData, roles: ReadonlyMap<string, PartRole>, clueless: ReadonlySet<string> = new Set()): TreeObject[] {
  const objects = new Map<string, number[]>();
  model.primitives.forEach((p, i) => {
    const list = objects.get(p.object) ?? [];
    list.push(i);
    objects.set(p.object, list);
  });
  const all = model.primitives.map((_, i) => i);
  const fileBox = boxOf(model, all);
  const whole: TreeObject = { name: "", primitives: all, size: fileBox.diagonal };
  if (objects.size <= 1) return [whole];
  const role = (i: number) => roles.get(model.primitives[i].material) ?? "wood";
  const trees: { name: string; prims: number[]; box: Box }[] = [];
  const leafOnly: { prims: number[]; box: Box }[] = [];
  for (const [name, prims] of objects) {
    const wood = prims.filter((i) => role(i) === "wood");
    const box = boxOf(model, prims);
    if (wood.length === 0) {
      if (prims.some((i) => role(i) === "leaves")) leafOnly.push({ prims, box });
      continue;
    }
    if (box.flat || box.footprint > GROUND_SHARE * fileBox.footprint) continue; // terrain, a river, a road
    if (wood.every((i) => clueless.has(model.primitives[i].material))) continue; // a rock, a wall
    trees.push({ name, prims: [...prims], box });
  }
  if (trees.length === 0) return [whole];
  for (const l of leafOnly) {
    let best = -1, bestOverlap = 0;
    trees.forEach((t, k) => {
      const o = overlap(t.box, l.box);
      if (o > bestOverlap) { bestOverlap = o; best = k; }
    });
    if (best >= 0) trees[best].prims.push(...l.prims);
  }
  if (trees.length === 1 && leafOnly.length + trees.length === objects.size) return [whole];
  return trees
    .map((t) => ({ name: t.name, primitives: t.prims.sort((a, b) => a - b), size: boxOf(model, t.prims).diagonal }))
    .sort((a, b) => b.size - a.size);
}

interface Box {
  lo: number[];
  hi: number[];
  diagonal: number;
  /** Thin along one axis and wide along the other two (up is not known yet): terrain, water. */
  flat: boolean;
  /** The product of its two largest extents. */
  footprint: number;
}

function boxOf(model: ModelData, prims: readonly number[]): Box {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const i of prims) {
    const P = model.primitives[i].positions;
    for (let v = 0; v < P.length; v += 3) {
      for (let c = 0; c < 3; c++) {
        lo[c] = Math.min(lo[c], P[v + c]);
        hi[c] = Math.max(hi[c], P[v + c]);
      }
    }
  }
  const e = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]].sort((a, b) => a - b);
  return { lo, hi, diagonal: Math.hypot(e[0], e[1], e[2]), flat: e[0] < 0.15 * e[1], footprint: e[1] * e[2] };
}

/** Volume shared by two boxes over the smaller one's (0 when apart). */
function overlap(a: Box, b: Box): number {
  let shared = 1, vb = 1;
  for (let c = 0; c < 3; c++) {
    shared *= Math.max(0, Math.min(a.hi[c], b.hi[c]) - Math.max(a.lo[c], b.lo[c]));
    vb *= Math.max(1e-9, b.hi[c] - b.lo[c]);
  }
  return shared / vb;
}
