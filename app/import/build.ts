/**
 * A model made elsewhere turned into a tree every method can animate: the tree picked
 * from the file, wood and leaves told apart (classify.ts), stood upright in metres
 * (tree/normalise.ts), the branch hierarchy found in the wood (tree/extract/: separate
 * parts or one welded mesh), every leaf piece hung on its nearest branch, and
 * every vertex of the model's own given the binding the methods read (tree/geometry.ts,
 * BINDING_ATTRIBUTES). The model keeps its geometry: its vertices are the meshes' vertices.
 * Plain TypeScript: no Babylon.
 */
import { bindVertices, extractHierarchy, meshParts, SegmentGrid, type WoodMesh } from "../tree/extract";
import { branchWBase, wSlot, type MeshArrays, type TreeGeometry } from "../tree/geometry";
import { normaliseModel, turnVectors, UP_AXES, type UpAxis } from "../tree/normalise";
import type { TreeSkeleton } from "../tree/skeleton";
import { NO_CLUE, sortParts, treeObjects, type RoleGuess } from "./classify";
import { modelVertexCount, PART_ROLES, type ModelData, type ModelPrimitive, type PartRole } from "./model";

/** Vertices a model may have: the budget past which a model is refused (the person is told to decimate it). */
export const MAX_MODEL_VERTICES = 2_000_000;
/** A leaf piece longer than this (metres), or with more vertices than LEAF_CARD_VERTICES, is a clump or a crown: it sways with its branch and does not flutter as a leaf. */
const LEAF_FLUTTER_MAX_LENGTH = 0.6;
const LEAF_CARD_VERTICES = 48;

export interface ImportOptions {
  /** The model's up axis, when the detected one is wrong. */
  up?: UpAxis;
  /** Corrections of the guessed roles, by material name (by part name, RoleGuess.material, in a file sorted by mesh). */
  roles?: Record<string, PartRole>;
  /** The object to use when the file holds several trees (a name from ImportedTree.trees). */
  tree?: string;
}

/** Long work's progress: a fraction 0..1 and what is being done. May be awaited (to let a page draw). */
export type Progress = (fraction: number, text: string) => void | Promise<void>;

export interface ImportedTree {
  readonly skeleton: TreeSkeleton;
  /** The model's own vertices, bound; `fromModel` set. */
  readonly geometry: TreeGeometry;
  /** The file's name. */
  readonly file: string;
  /** Every material (or part, in a file sorted by mesh) of the tree's object(s), its role (corrected or guessed) and why. */
  readonly roles: readonly (RoleGuess & { corrected: boolean })[];
  /** The materials the wood and the leaves are shown with (the one with most vertices of each role). */
  readonly woodMaterial: string;
  readonly leafMaterial: string | null;
  /** The trees the file holds (object names; [""] when it is one tree), and the one shown. */
  readonly trees: readonly string[];
  readonly tree: string;
  readonly up: UpAxis;
  readonly upDetected: boolean;
  /** Model units to metres. */
  readonly scale: number;
  readonly height: number;
  /** The wood was one welded mesh (skeletonised) rather than separate parts. */
  readonly welded: boolean;
  /** Connected pieces of wood. */
  readonly pieces: number;
  /** Leaf pieces hung on branches. */
  readonly leafPieces: number;
  readonly notes: readonly string[];
}

/** Turns a loaded model into a tree; throws RangeError, saying what to do, when it cannot. */
export async function importModel(model: ModelData, options: ImportOptions = {}, progress: Progress = () => undefined): Promise<ImportedTree> {
  const file = model.name;
  const total = modelVertexCount(model);
  if (total > MAX_MODEL_VERTICES) {
    throw new RangeError(`${file} has ${total.toLocaleString("en-US")} vertices, over the budget of ${MAX_MODEL_VERTICES.toLocaleString("en-US")}; reduce it (Blender's Decimate modifier) and load it again`);
  }
  const triangles = model.primitives.reduce((n, p) => n + p.indices.length / 3, 0);
  if (model.primitives.length === 0 || triangles === 0) throw new RangeError(`${file} has no geometry: no triangles in any mesh (points and lines are not a tree)`);
  if (options.up !== undefined && !UP_AXES.includes(options.up)) throw new RangeError(`up axis must be one of ${UP_AXES.join(", ")}; got ${JSON.stringify(options.up)}`);
  await progress(0.05, "sorting wood from leaves");

  // Roles: guessed for every part (a material, or a mesh where the materials say nothing:
  // classify.ts), corrected by the person.
  const sorted = sortParts(model.primitives);
  const guesses = sorted.guesses, partOf = sorted.partOf;
  const byMesh = sorted.primitives.some((p, i) => partOf[i] !== p.material);
  const partWord = byMesh ? "part" : "material";
  const roles = new Map<string, PartRole>(guesses.map((g) => [g.material, g.role]));
  for (const [material, role] of Object.entries(options.roles ?? {})) {
    if (!roles.has(material)) throw new RangeError(`${file} has no ${partWord} "${material}"; its ${partWord}s are: ${guesses.map((g) => JSON.stringify(g.material)).join(", ")}`);
    if (!PART_ROLES.includes(role)) throw new RangeError(`a ${partWord}'s role is one of ${PART_ROLES.join(", ")}; got ${JSON.stringify(role)} for "${material}"`);
    roles.set(material, role);
  }
  const clueless = new Set(guesses.filter((g) => g.reason === NO_CLUE && options.roles?.[g.material] === undefined).map((g) => g.material));
  const objects = treeObjects({ ...model, primitives: sorted.primitives }, roles, clueless, partOf);
  const trees = objects.map((o) => o.name);
  const picked = options.tree === undefined ? objects[0] : objects.find((o) => o.name === options.tree);
  if (!picked) throw new RangeError(`${file} holds no tree "${options.tree}"; its trees are: ${trees.map((t) => JSON.stringify(t)).join(", ")}`);
  const roleOf = (i: number) => roles.get(partOf[i])!;
  const used = new Set(picked.primitives.map((i) => partOf[i]));
  const roleList = guesses.filter((g) => used.has(g.material)).map((g) => ({ ...g, role: roles.get(g.material)!, corrected: options.roles?.[g.material] !== undefined && options.roles[g.material] !== g.role }));
  const wood = picked.primitives.filter((i) => roleOf(i) === "wood" && sorted.primitives[i].indices.length > 0).map((i) => sorted.primitives[i]);
  const leaves = picked.primitives.filter((i) => roleOf(i) === "leaves" && sorted.primitives[i].indices.length > 0).map((i) => sorted.primitives[i]);
  if (wood.length === 0) {
    const fix = byMesh
      ? "the file has no materials to tell them apart, so each object was judged by its name and its shape; mark the trunk's and branches' objects as wood in the panel (or give the bark a material of its own and export again)"
      : "mark the bark's material as wood in the panel";
    throw new RangeError(`no wood found in ${file}${picked.name ? ` (${picked.name})` : ""}: its ${partWord}s are ${roleList.map((r) => `"${r.material}" (${r.role}: ${r.reason})`).join(", ")}; ${fix}`);
  }
  const woodMesh = merge(wood), leafMesh = leaves.length > 0 ? merge(leaves) : null;
  const notes: string[] = [];
  if (trees.length > 1) notes.push(`${file} holds ${trees.length} trees; showing "${picked.name}" (pick another in the panel)`);
  for (const w of model.warnings) notes.push(w);

  await progress(0.15, "standing it upright");
  const nw = woodMesh.positions.length / 3;
  const allPositions = new Float32Array(woodMesh.positions.length + (leafMesh?.positions.length ?? 0));
  allPositions.set(woodMesh.positions);
  if (leafMesh) allPositions.set(leafMesh.positions, woodMesh.positions.length);
  const allIndices = new Uint32Array(woodMesh.indices.length + (leafMesh?.indices.length ?? 0));
  allIndices.set(woodMesh.indices);
  if (leafMesh) for (let i = 0; i < leafMesh.indices.length; i++) allIndices[woodMesh.indices.length + i] = leafMesh.indices[i] + nw;
  const n = normaliseModel(allPositions, allIndices, { up: options.up, wood: { positions: woodMesh.positions, indices: woodMesh.indices }, convention: model.upConvention });
  notes.push(...n.notes);
  const woodPositions = n.positions.subarray(0, 3 * nw);
  const woodNormals = turnVectors(woodMesh.normals, n.up);

  await progress(0.3, "finding the branches");
  const wm: WoodMesh = { positions: woodPositions, indices: woodMesh.indices };
  let ex: ReturnType<typeof extractHierarchy>;
  try {
    ex = extractHierarchy(wm);
  } catch (e) {
    throw new RangeError(`${file}: its branches could not be found (${e instanceof Error ? e.message : e}); check which materials are wood, and the up axis, in the panel`);
  }
  const sk = ex.skeleton;
  await progress(0.7, "binding the vertices");
  const bind = bindVertices(sk, woodPositions, ex.vertexBranch);
  const bark: MeshArrays = {
    positions: Float32Array.from(woodPositions), normals: woodNormals, uvs: woodMesh.uvs, indices: woodMesh.indices,
    branchIndex: bind.branchIndex, wVector: bind.wVector, skinNodes: bind.skinNodes, skinWeights: bind.skinWeights,
    leafFrame: new Float32Array(4 * nw), leafCoord: new Float32Array(2 * nw),
  };

  let leafArrays: MeshArrays | null = null, skeleton: TreeSkeleton = sk, leafPieces = 0;
  if (leafMesh) {
    await progress(0.8, "hanging the leaves on their branches");
    const hung = hangLeaves(sk, n.positions.subarray(3 * nw), turnVectors(leafMesh.normals, n.up), leafMesh);
    leafArrays = hung.arrays;
    skeleton = hung.skeleton;
    leafPieces = hung.skeleton.leafCount;
  }
  const biggest = (list: ModelPrimitive[]) => {
    const count = new Map<string, number>();
    for (const p of list) count.set(p.material, (count.get(p.material) ?? 0) + p.positions.length / 3);
    return [...count].sort((a, b) => b[1] - a[1])[0][0];
  };
  const woodMaterial = biggest(wood), leafMaterial = leaves.length > 0 ? biggest(leaves) : null;
  if (new Set(wood.map((p) => p.material)).size > 1) notes.push(`the wood has ${new Set(wood.map((p) => p.material)).size} materials; all of it is shown with "${woodMaterial}"`);
  if (new Set(leaves.map((p) => p.material)).size > 1) notes.push(`the leaves have ${new Set(leaves.map((p) => p.material)).size} materials; all of them are shown with "${leafMaterial}"`);
  const geometry: TreeGeometry = { bark, leaves: leafArrays, vertexCount: nw + (leafArrays ? leafArrays.positions.length / 3 : 0), fromModel: true };
  await progress(0.95, "building the meshes");
  return {
    skeleton, geometry, file, roles: roleList, woodMaterial, leafMaterial, trees, tree: picked.name,
    up: n.up, upDetected: n.detected, scale: n.scale, height: n.height, welded: ex.welded, pieces: ex.parts, leafPieces, notes,
  };
}

interface Merged {
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
}

/** One mesh of several primitives (their vertices one after the other). */
function merge(prims: readonly ModelPrimitive[]): Merged {
  let nv = 0, ni = 0;
  for (const p of prims) {
    nv += p.positions.length / 3;
    ni += p.indices.length;
  }
  const positions = new Float32Array(3 * nv), normals = new Float32Array(3 * nv), uvs = new Float32Array(2 * nv), indices = new Uint32Array(ni);
  let v = 0, i = 0;
  for (const p of prims) {
    positions.set(p.positions, 3 * v);
    normals.set(p.normals, 3 * v);
    if (p.uvs) uvs.set(p.uvs, 2 * v);
    for (let k = 0; k < p.indices.length; k++) indices[i + k] = p.indices[k] + v;
    v += p.positions.length / 3;
    i += p.indices.length;
  }
  return { positions, normals, uvs, indices };
}

/**
 * Every connected piece of the leaves (a card, a clump, a crown) hangs on the branch nearest its
 * centre, at that point: all its vertices get that point's binding, so it moves with the branch.
 * A card also gets its leaf frame (Habel 2009 §7.1: the stipe b_l from its petiole, the vertex
 * nearest the branch, to its farthest vertex; its length) for the methods that flutter leaves.
 */
function hangLeaves(s: TreeSkeleton, positions: Float32Array, normals: Float32Array, mesh: Merged): { arrays: MeshArrays; skeleton: TreeSkeleton } {
  const nv = positions.length / 3;
  const { count, partOfVertex } = meshParts({ positions, indices: mesh.indices });
  // Vertices of each piece (CSR).
  const start = new Int32Array(count + 1);
  for (let i = 0; i < nv; i++) if (partOfVertex[i] >= 0) start[partOfVertex[i] + 1]++;
  for (let q = 0; q < count; q++) start[q + 1] += start[q];
  const verts = new Int32Array(start[count]), fill = start.slice(0, count);
  for (let i = 0; i < nv; i++) if (partOfVertex[i] >= 0) verts[fill[partOfVertex[i]]++] = i;

  const branchIndex = new Float32Array(nv).fill(-1), wVector = new Float32Array(4 * nv), skinNodes = new Float32Array(4 * nv), skinWeights = new Float32Array(4 * nv);
  const leafFrame = new Float32Array(4 * nv), leafCoord = new Float32Array(2 * nv);
  const leafBranch = new Int32Array(count), leafX = new Float32Array(count), leafCenter = new Float32Array(3 * count);
  const leafNormal = new Float32Array(3 * count), leafAxis = new Float32Array(3 * count), leafSize = new Float32Array(count);
  const base = branchWBase(s);
  // The skeleton's segments in a grid: a piece measures the ones near it, not all (a model's thousands of leaves against its thousands of segments).
  const grid = new SegmentGrid(s.nodePosition, s.branchFirstNode, s.branchNodeCount);
  const near = { d2: 0, branch: 0, seg: 0, f: 0 };
  for (let q = 0; q < count; q++) {
    let cx = 0, cy = 0, cz = 0, nx = 0, ny = 0, nz = 0;
    const a = start[q], e = start[q + 1];
    for (let k = a; k < e; k++) {
      const i = verts[k];
      cx += positions[3 * i]; cy += positions[3 * i + 1]; cz += positions[3 * i + 2];
      nx += normals[3 * i]; ny += normals[3 * i + 1]; nz += normals[3 * i + 2];
    }
    const m = e - a;
    cx /= m; cy /= m; cz /= m;
    // The nearest point of the skeleton to the piece's centre.
    const { branch: bestB, seg: bestSeg, f: bestF } = grid.nearest(cx, cy, cz, near);
    const j = s.branchFirstNode[bestB] + bestSeg;
    const x = s.nodeX[j] + bestF * (s.nodeX[j + 1] - s.nodeX[j]);
    const px = s.nodePosition[3 * j] + bestF * (s.nodePosition[3 * j + 3] - s.nodePosition[3 * j]);
    const py = s.nodePosition[3 * j + 1] + bestF * (s.nodePosition[3 * j + 4] - s.nodePosition[3 * j + 1]);
    const pz = s.nodePosition[3 * j + 2] + bestF * (s.nodePosition[3 * j + 5] - s.nodePosition[3 * j + 2]);
    // Its petiole: the vertex nearest that point; its tip: the vertex farthest from the petiole.
    let pet = verts[a], tip = verts[a], dMin = Infinity, dMax = -1;
    for (let k = a; k < e; k++) {
      const i = verts[k];
      const d = (positions[3 * i] - px) ** 2 + (positions[3 * i + 1] - py) ** 2 + (positions[3 * i + 2] - pz) ** 2;
      if (d < dMin) { dMin = d; pet = i; }
    }
    for (let k = a; k < e; k++) {
      const i = verts[k];
      const d = (positions[3 * i] - positions[3 * pet]) ** 2 + (positions[3 * i + 1] - positions[3 * pet + 1]) ** 2 + (positions[3 * i + 2] - positions[3 * pet + 2]) ** 2;
      if (d > dMax) { dMax = d; tip = i; }
    }
    let nl = Math.hypot(nx, ny, nz);
    if (!(nl > 1e-9)) { nx = 0; ny = 1; nz = 0; nl = 1; }
    nx /= nl; ny /= nl; nz /= nl;
    let bx = positions[3 * tip] - positions[3 * pet], by = positions[3 * tip + 1] - positions[3 * pet + 1], bz = positions[3 * tip + 2] - positions[3 * pet + 2];
    const length = Math.hypot(bx, by, bz);
    // The stipe in the leaf's plane (normal to n_l).
    const dn = bx * nx + by * ny + bz * nz;
    bx -= dn * nx; by -= dn * ny; bz -= dn * nz;
    const bl = Math.hypot(bx, by, bz);
    const card = bl > 1e-9 && length <= LEAF_FLUTTER_MAX_LENGTH && m <= LEAF_CARD_VERTICES;
    if (bl > 1e-9) { bx /= bl; by /= bl; bz /= bl; } else { bx = 0; by = 1; bz = 0; }
    // t_l = b_l x n_l: across the leaf (spectral-beam/twin.ts).
    const tx = by * nz - bz * ny, ty = bz * nx - bx * nz, tz = bx * ny - by * nx;
    leafBranch[q] = bestB;
    leafX[q] = x;
    leafCenter.set([cx, cy, cz], 3 * q);
    leafNormal.set([nx, ny, nz], 3 * q);
    leafAxis.set([bx, by, bz], 3 * q);
    // A clump or a crown counts as a leaf of at most a card's size (spectral-beam scales its leaf
    // motion and its leaves' wind load by the leaves' sizes).
    leafSize[q] = Math.min(length, LEAF_FLUTTER_MAX_LENGTH);
    const level = s.branchLevel[bestB];
    for (let k = a; k < e; k++) {
      const i = verts[k];
      branchIndex[i] = bestB;
      for (let c = 0; c < 4; c++) wVector[4 * i + c] = base[4 * bestB + c];
      wVector[4 * i + wSlot(level)] = x;
      skinNodes[4 * i] = j;
      skinNodes[4 * i + 1] = j + 1;
      skinWeights[4 * i] = 1 - bestF;
      skinWeights[4 * i + 1] = bestF;
      if (!card) continue;
      const dx = positions[3 * i] - positions[3 * pet], dy = positions[3 * i + 1] - positions[3 * pet + 1], dz = positions[3 * i + 2] - positions[3 * pet + 2];
      leafFrame.set([bx, by, bz, length], 4 * i);
      leafCoord[2 * i] = (dx * tx + dy * ty + dz * tz) / length;
      leafCoord[2 * i + 1] = (dx * bx + dy * by + dz * bz) / length;
    }
  }
  const arrays: MeshArrays = {
    positions: Float32Array.from(positions), normals, uvs: mesh.uvs, indices: mesh.indices,
    branchIndex, wVector, skinNodes, skinWeights, leafFrame, leafCoord,
  };
  return { arrays, skeleton: { ...s, leafCount: count, leafBranch, leafX, leafCenter, leafNormal, leafAxis, leafSize } };
}
