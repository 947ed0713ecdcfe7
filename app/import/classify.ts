/**
 * Wood or leaves, and which objects of a file are trees (a file holding several trees, or parts
 * that are no tree, lets the person pick the tree). Plain TypeScript: no Babylon.
 *
 * Roles are given to the file's materials: each gets one from, in order, its name and its meshes'
 * names (bark, trunk... / leaf, foliage, needle...), its shape (many small flat pieces are
 * leaves), an alpha-tested texture (leaf cards), its colour (green leaves, brown wood, blue
 * water). A file without materials (or with one material for everything, or one whose meshes'
 * names disagree) is sorted by its meshes instead, each by its own name and otherwise by its
 * shape (small flat pieces are leaves, tubes are wood), meshes alike in name and role grouped
 * (`Object.*`); a mesh that names nothing and holds both tubes and many small flat pieces is cut
 * in two. The person can correct any guess; the guess says why it was made.
 */
import { meshParts } from "../tree/extract";
import type { ModelData, ModelPrimitive, PartRole } from "./model";

const LEAF_WORDS = /leaf|leaves|foliage|needle|frond|canopy|crown|blatt|laub|feuille|hoja|petal|flower|blossom|twig_?card/i;
const WOOD_WORDS = /bark|trunk|wood|branch|stem|stalk|limb|log|stump|rinde|tronc/i;

/** The reason of a part taken for wood for want of any clue (a rock, a wall, or untextured bark). */
export const NO_CLUE = "nothing says leaves";
/** An object covering more than this share of the file's footprint is the ground it stands on. */
const GROUND_SHARE = 0.25;

/** Pieces a material must have, at least, to be read as leaves by its shape (a file's leaves together, when sorted by mesh). */
const MIN_LEAF_PIECES = 12;
/** A leaf piece's size, at most, as a share of the model's size. */
const LEAF_PIECE_SIZE = 0.12;
/** A leaf piece's thickness, at most, as a share of its size (a card or a clump of cards). */
const LEAF_FLATNESS = 0.35;
/** Sorted by mesh: a piece whose thinnest principal spread is under this share of its middle one is flat (a card, a needle strip). */
const CARD_THINNESS = 0.15;
/** ...one whose thinnest spread is over this share of its widest is round (a clump of cards, a low-poly crown). */
const CLUMP_ROUNDNESS = 0.45;
/** ...one whose middle spread is under this share of its widest, and not flat, is a tube (a branch). */
const TUBE_SLENDERNESS = 0.35;
/** ...a mesh whose pieces are leaf-like for this share at least is leaves. */
const LEAF_SHARE = 0.7;

export interface RoleGuess {
  /**
   * What the role is given to, and what a correction names (ImportOptions.roles): the material's
   * name; in a file sorted by mesh, the mesh's name (`Object.*` for meshes alike in name and
   * role; `Tree: small flat pieces` and `Tree: the rest` for a mesh cut in two).
   */
  readonly material: string;
  readonly role: PartRole;
  /** Why: "its name says leaves", "820 small flat pieces", ... */
  readonly reason: string;
  /** Vertices it holds (in the objects looked at). */
  readonly vertices: number;
}

/** The parts of a model that roles are given to. */
export interface ModelParts {
  /** The model's primitives, a mesh cut in two (see the file comment) as two. */
  readonly primitives: readonly ModelPrimitive[];
  /** The part (RoleGuess.material) of each primitive. */
  readonly partOf: readonly string[];
  /** Each part's guessed role, in the order the parts first appear. */
  readonly guesses: readonly RoleGuess[];
}

/** The role of every part of `primitives`, guessed; in the order the parts first appear. */
export function guessRoles(primitives: readonly ModelPrimitive[]): RoleGuess[] {
  return [...sortParts(primitives).guesses];
}

/** The parts of `primitives` (materials, or meshes where materials say nothing) and their guessed roles. */
export function sortParts(input: readonly ModelPrimitive[]): ModelParts {
  const size = modelSize(input);
  const byMesh = sortedByMesh(input);
  // A mesh that names nothing and holds both tubes and many small flat pieces: cut in two.
  const primitives: ModelPrimitive[] = [], meshWise: boolean[] = [], shapes: (PieceShapes | null)[] = [];
  input.forEach((p, i) => {
    if (!byMesh[i]) {
      primitives.push(p);
      meshWise.push(false);
      shapes.push(null);
      return;
    }
    const shape = pieceShapes(p, size);
    const name = meshName(p);
    if (!says(name) && shape.leafLike >= MIN_LEAF_PIECES && shape.leafLike < shape.count) {
      const [leafy, rest] = cutByPieces(p, shape.leafLikePiece);
      primitives.push({ ...rest, mesh: `${name}: the rest` }, { ...leafy, mesh: `${name}: small flat pieces` });
      meshWise.push(true, true);
      shapes.push(pieceShapes(rest, size), pieceShapes(leafy, size));
      return;
    }
    primitives.push(p);
    meshWise.push(true);
    shapes.push(shape);
  });

  // Leaf-like pieces of the meshes that name nothing, all told: one leaf per object counts too.
  let leafLikeInAll = 0;
  primitives.forEach((p, i) => {
    if (meshWise[i] && !says(meshName(p))) leafLikeInAll += shapes[i]!.leafLike;
  });

  // The guess of each mesh sorted by mesh; the meshes alike in name stem and guess share a part.
  const unit = new Map<string, { role: PartRole; reason: string }>();
  primitives.forEach((p, i) => {
    const name = meshName(p);
    if (meshWise[i] && !unit.has(name)) unit.set(name, meshGuess(name, p, shapes[i]!, leafLikeInAll));
  });
  const groups = new Map<string, { stem: string; role: PartRole; names: string[] }>();
  for (const [name, u] of unit) {
    const stem = stemOf(name), id = JSON.stringify([stem, u.role]);
    const g = groups.get(id) ?? { stem, role: u.role, names: [] };
    g.names.push(name);
    groups.set(id, g);
  }
  const groupsOfStem = new Map<string, number>();
  for (const g of groups.values()) groupsOfStem.set(g.stem, (groupsOfStem.get(g.stem) ?? 0) + 1);
  const partOfMesh = new Map<string, string>(), meshesOfPart = new Map<string, number>();
  for (const g of groups.values()) {
    const many = g.names.length > 1 && g.stem !== "";
    const part = groupsOfStem.get(g.stem)! > 1 ? `${g.stem}.* (${g.role})` : `${g.stem}.*`;
    for (const n of g.names) partOfMesh.set(n, many ? part : n);
    if (many) meshesOfPart.set(part, g.names.length);
  }

  const partOf = primitives.map((p, i) => (meshWise[i] ? partOfMesh.get(meshName(p))! : p.material));
  const guesses: RoleGuess[] = [];
  const seen = new Map<string, number>();
  const byMaterial = new Map<string, ModelPrimitive[]>();
  primitives.forEach((p, i) => {
    if (!meshWise[i]) byMaterial.set(p.material, [...(byMaterial.get(p.material) ?? []), p]);
  });
  primitives.forEach((p, i) => {
    const part = partOf[i], vertices = p.positions.length / 3;
    const at = seen.get(part);
    if (at !== undefined) {
      guesses[at] = { ...guesses[at], vertices: guesses[at].vertices + vertices };
      return;
    }
    seen.set(part, guesses.length);
    if (meshWise[i]) {
      const u = unit.get(meshName(p))!, count = meshesOfPart.get(part) ?? 1;
      guesses.push({ material: part, role: u.role, reason: count > 1 ? `${count} objects: ${u.reason}` : u.reason, vertices });
      return;
    }
    const g = materialGuess(p.material, byMaterial.get(p.material)!, size);
    guesses.push({ material: part, ...g, vertices });
  });
  return { primitives, partOf, guesses };
}

/** Whether a name says wood or leaves. */
function says(name: string): boolean {
  return LEAF_WORDS.test(name) || WOOD_WORDS.test(name);
}

/** A mesh's name as shown: a loader's made-up id (an OBJ without `o` or `g` lines) shows as "unnamed mesh". */
function meshName(p: ModelPrimitive): string {
  return p.mesh === "" || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(p.mesh) ? "unnamed mesh" : p.mesh;
}

/** A name without its number: "Object.012" -> "Object", "leaf_3" -> "leaf". */
function stemOf(name: string): string {
  return name.replace(/[._\-\s]*\d+$/, "");
}

/**
 * Which primitives are sorted by their mesh rather than by their material: those without a
 * material; all of them when the file has one material for several meshes; and a material's
 * when its meshes' names disagree (one says leaves, another wood or nothing).
 */
function sortedByMesh(prims: readonly ModelPrimitive[]): boolean[] {
  const materials = new Set(prims.map((p) => p.material));
  const meshes = new Set(prims.map((p) => p.mesh));
  const clue = (name: string) => (LEAF_WORDS.test(name) ? (WOOD_WORDS.test(name) ? "both" : "leaves") : WOOD_WORDS.test(name) ? "wood" : "none");
  const clues = new Map<string, Set<string>>();
  for (const p of prims) clues.set(p.material, (clues.get(p.material) ?? new Set()).add(clue(p.mesh)));
  return prims.map((p) => p.material === "" || (materials.size === 1 && meshes.size > 1) || clues.get(p.material)!.size > 1);
}

/** A mesh's role: from its name, else its shape, else its looks. */
function meshGuess(name: string, p: ModelPrimitive, shape: PieceShapes, leafLikeInAll: number): { role: PartRole; reason: string } {
  const leafWord = LEAF_WORDS.test(name), woodWord = WOOD_WORDS.test(name);
  if (leafWord && !woodWord) return { role: "leaves", reason: `its name says leaves (${shortName(name, LEAF_WORDS)})` };
  if (woodWord && !leafWord) return { role: "wood", reason: `its name says wood (${shortName(name, WOOD_WORDS)})` };
  if (shape.count > 0 && shape.leafLike >= LEAF_SHARE * shape.count && (shape.count >= MIN_LEAF_PIECES || leafLikeInAll >= MIN_LEAF_PIECES)) {
    return { role: "leaves", reason: shape.count === 1 ? "a small flat piece" : `${shape.leafLike} small flat pieces` };
  }
  if (p.alphaTested && p.textured) return { role: "leaves", reason: "an alpha-tested texture (leaf cards)" };
  const hue = colourKind(p.colour);
  if (hue === "green") return { role: "leaves", reason: "its colour is green" };
  if (hue === "blue") return { role: "ignore", reason: "its colour is blue (water or sky, not a tree)" };
  if (shape.count > 0 && shape.tubes >= 0.5 * shape.count) return { role: "wood", reason: shape.count === 1 ? "a tube" : `${shape.tubes} tubes` };
  return { role: "wood", reason: hue === "brown" ? "its colour is brown" : NO_CLUE };
}

/** A material's role (see the file comment). */
function materialGuess(material: string, prims: readonly ModelPrimitive[], size: number): { role: PartRole; reason: string } {
  const names = [material, ...prims.map((p) => p.mesh)].join(" ");
  if (LEAF_WORDS.test(names) && !WOOD_WORDS.test(material)) return { role: "leaves", reason: `its name says leaves (${shortName(names, LEAF_WORDS)})` };
  if (WOOD_WORDS.test(names)) return { role: "wood", reason: `its name says wood (${shortName(names, WOOD_WORDS)})` };
  const shape = leafShape(prims, size);
  if (shape.leaves) return { role: "leaves", reason: `${shape.pieces} small flat pieces` };
  if (prims.some((p) => p.alphaTested && p.textured)) return { role: "leaves", reason: "an alpha-tested texture (leaf cards)" };
  const hue = colourKind(prims[0].colour);
  if (hue === "green") return { role: "leaves", reason: "its colour is green" };
  if (hue === "blue") return { role: "ignore", reason: "its colour is blue (water or sky, not a tree)" };
  return { role: "wood", reason: hue === "brown" ? "its colour is brown" : NO_CLUE };
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

/** A mesh's connected pieces by shape (sorting by mesh). */
interface PieceShapes {
  count: number;
  /** Small and flat (a card, a needle strip) or small and round (a clump): leaves. */
  leafLike: number;
  /** Long and round in section: a branch. */
  tubes: number;
  /** Whether each piece is leaf-like. */
  leafLikePiece: Uint8Array;
  partOfVertex: Int32Array;
}

/**
 * The shape of each connected piece of a primitive, from the spreads of its vertices along its
 * principal axes (a tilted card is as flat as a level one, which its bounding box does not say).
 */
function pieceShapes(p: ModelPrimitive, size: number): PieceShapes {
  const { count, partOfVertex } = meshParts({ positions: p.positions, indices: p.indices });
  // Per piece: vertex count, sums and sums of products of the coordinates.
  const m = new Float64Array(10 * count);
  const lo = new Float64Array(3 * count).fill(Infinity), hi = new Float64Array(3 * count).fill(-Infinity);
  const P = p.positions;
  for (let i = 0; i < partOfVertex.length; i++) {
    const q = partOfVertex[i];
    if (q < 0) continue;
    const x = P[3 * i], y = P[3 * i + 1], z = P[3 * i + 2], o = 10 * q;
    m[o]++;
    m[o + 1] += x; m[o + 2] += y; m[o + 3] += z;
    m[o + 4] += x * x; m[o + 5] += y * y; m[o + 6] += z * z;
    m[o + 7] += x * y; m[o + 8] += x * z; m[o + 9] += y * z;
    for (let c = 0; c < 3; c++) {
      lo[3 * q + c] = Math.min(lo[3 * q + c], P[3 * i + c]);
      hi[3 * q + c] = Math.max(hi[3 * q + c], P[3 * i + c]);
    }
  }
  const leafLikePiece = new Uint8Array(count);
  let leafLike = 0, tubes = 0;
  for (let q = 0; q < count; q++) {
    const o = 10 * q, n = m[o];
    const cx = m[o + 1] / n, cy = m[o + 2] / n, cz = m[o + 3] / n;
    const [l1, l2, l3] = symmetricEigenvalues(m[o + 4] / n - cx * cx, m[o + 5] / n - cy * cy, m[o + 6] / n - cz * cz, m[o + 7] / n - cx * cy, m[o + 8] / n - cx * cz, m[o + 9] / n - cy * cz);
    const s1 = Math.sqrt(Math.max(0, l1)), s2 = Math.sqrt(Math.max(0, l2)), s3 = Math.sqrt(Math.max(0, l3));
    const extent = Math.max(hi[3 * q] - lo[3 * q], hi[3 * q + 1] - lo[3 * q + 1], hi[3 * q + 2] - lo[3 * q + 2]);
    const small = extent < LEAF_PIECE_SIZE * size;
    const flat = s3 <= CARD_THINNESS * s2;
    if (small && (flat || s3 >= CLUMP_ROUNDNESS * s1)) {
      leafLikePiece[q] = 1;
      leafLike++;
    } else if (!flat && s2 < TUBE_SLENDERNESS * s1) tubes++;
  }
  return { count, leafLike, tubes, leafLikePiece, partOfVertex };
}

/** Eigenvalues of the symmetric 3x3 matrix [[a, d, e], [d, b, f], [e, f, c]], largest first (the trigonometric solution). */
function symmetricEigenvalues(a: number, b: number, c: number, d: number, e: number, f: number): [number, number, number] {
  const p1 = d * d + e * e + f * f;
  if (p1 <= 1e-30 * Math.max(1e-30, a * a + b * b + c * c)) {
    const v = [a, b, c].sort((x, y) => y - x);
    return [v[0], v[1], v[2]];
  }
  const q = (a + b + c) / 3;
  const p2 = (a - q) ** 2 + (b - q) ** 2 + (c - q) ** 2 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  const A = (a - q) / p, B = (b - q) / p, C = (c - q) / p, D = d / p, E = e / p, F = f / p;
  const r = Math.max(-1, Math.min(1, (A * (B * C - F * F) - D * (D * C - F * E) + E * (D * F - B * E)) / 2));
  const phi = Math.acos(r) / 3;
  const l1 = q + 2 * p * Math.cos(phi), l3 = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  return [l1, 3 * q - l1 - l3, l3];
}

/** A primitive cut in two by its pieces: the flagged pieces' triangles and the others', each with only the vertices it uses. */
function cutByPieces(p: ModelPrimitive, flagged: Uint8Array): [ModelPrimitive, ModelPrimitive] {
  const { partOfVertex } = meshParts({ positions: p.positions, indices: p.indices });
  const half = (want: number): ModelPrimitive => {
    const map = new Int32Array(p.positions.length / 3).fill(-1);
    const tri: number[] = [], keep: number[] = [];
    for (let t = 0; t < p.indices.length; t += 3) {
      if (flagged[partOfVertex[p.indices[t]]] !== want) continue;
      for (let k = 0; k < 3; k++) {
        const v = p.indices[t + k];
        if (map[v] < 0) { map[v] = keep.length; keep.push(v); }
        tri.push(map[v]);
      }
    }
    const pick = (a: Float32Array, w: number) => {
      const out = new Float32Array(w * keep.length);
      keep.forEach((v, i) => out.set(a.subarray(w * v, w * v + w), w * i));
      return out;
    };
    return { ...p, positions: pick(p.positions, 3), normals: pick(p.normals, 3), uvs: p.uvs ? pick(p.uvs, 2) : null, indices: Uint32Array.from(tri) };
  };
  return [half(1), half(0)];
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
 * The trees in a file: the objects holding wood (the role of each part in `roles`; `partOf`, the
 * part of each primitive: sortParts's, its material by default) that something says is wood (a
 * name, a brown colour, a shape, a texture, or the person: `clueless` lists the parts taken for
 * wood for want of a clue, such as a plain grey rock), that are not flat
 * (terrain, water, a road) and do not cover the file's footprint (the ground); each with the
 * leaves-only objects that overlap it (a trunk and a crown written as two objects). A file that
 * is one object, or where no object qualifies, is one tree. Largest first.
 */
export function treeObjects(model: ModelData, roles: ReadonlyMap<string, PartRole>, clueless: ReadonlySet<string> = new Set(), partOf: readonly string[] = model.primitives.map((p) => p.material)): TreeObject[] {
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
  const role = (i: number) => roles.get(partOf[i]) ?? "wood";
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
    if (wood.every((i) => clueless.has(partOf[i]))) continue; // a rock, a wall
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
