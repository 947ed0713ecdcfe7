/**
 * The grove's tree (Van Haevre 2006 Fig. 7: "a set of 100 tree skeletons, animated at a realtime
 * frame rate"): a light copy of the mass-spring tree, drawn 100 times with instancing, each copy
 * posed by its own walk. Plain TypeScript, no Babylon.
 *
 * What is drawn: a tube per skeleton segment (mass to parent mass), thickest first, up to a vertex
 * budget shared by the grove, and a sample of the tree's own leaf cards, each enlarged so the
 * crown keeps its cover (leaves that are not cards, an imported model's own of any shape, are
 * sampled by the triangle instead, each enlarged about its centre likewise). Every vertex
 * rides on one "anchor" mass (the tube's end it belongs to, or the leaf's branch) and turns with one segment (mass `seg` and its parent `segParent`): a rigid
 * move, the translation of the anchor and the shortest rotation taking the segment's rest
 * direction to its current one, as skinning.ts does for the full tree.
 *
 * Grove masses are numbered locally (0..G-1, `masses` maps them to the system's); the poses the
 * walks produce (walk.ts) are written for these only, four floats a mass (RGBA texels, the layout
 * of the textures the shader reads), and `groveVertex` is the TypeScript twin of the vertex
 * shader (grove.glsl.ts): the same arithmetic on the same float32 inputs.
 */
import type { MeshArrays } from "../../tree/geometry";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, min, max, floor, cos, sin, PI, hypot } = Math;

/** Vertices the instanced grove trees may have in all (shared among them; SwiftShader draws them on the CPU). */
export const GROVE_VERTEX_BUDGET = 360_000;
/** Grove masses at most: the width of one row of the pose texture. */
export const MAX_GROVE_MASSES = 4096;
/** Sides of a grove tube. */
export const GROVE_SIDES = 5;
/** Floats per mass in the rest and pose arrays (RGBA texels). */
export const TEXEL = 4;

/** What the grove needs of the mass-spring system (MassSpringSystem has all of it). */
export interface GroveSource {
  readonly count: number;
  /** Parent mass, -1 for the anchor; parent[i] < i. Masses 0 and 1 are fixed. */
  readonly parent: Int32Array;
  readonly rest: Float64Array;
  readonly radius: Float64Array;
  readonly massOfNode: Int32Array;
}

export interface GroveMesh {
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly uvs: Float32Array;
  /** Counter-clockwise triangles (tree/geometry's convention). */
  readonly indices: Uint32Array;
  /** Per vertex: anchor, seg, segParent, as local grove mass indices (floats, exact). */
  readonly groveMass: Float32Array;
}

export interface GroveGeometry {
  /** System mass of each grove mass. */
  readonly masses: Int32Array;
  /** Rest positions of the grove masses, TEXEL floats each (w = 1). */
  readonly rest: Float32Array;
  readonly bark: GroveMesh;
  readonly leaves: GroveMesh | null;
  /** Segments drawn, of all the tree's; leaf cards (or triangles, for leaves that are not cards) drawn, of all; and each one's enlargement. */
  readonly segments: number;
  readonly segmentsOfTree: number;
  readonly leafCards: number;
  readonly leafCardsOfTree: number;
  readonly leafScale: number;
}

/** Leaves take at most this share of a tree's vertex budget. */
const LEAF_SHARE = 0.4;

/**
 * The grove's tree within `vertexBudget` vertices: the thickest segments (with every ancestor, so
 * the tubes connect to the trunk), and every k-th leaf card scaled by √k (at most 2.5).
 */
export function buildGroveGeometry(src: GroveSource, leaves: MeshArrays | null, vertexBudget: number, maxMasses = MAX_GROVE_MASSES): GroveGeometry {
  const n = src.count, parent = src.parent, rest = src.rest, radius = src.radius;
  // A leaf piece: a card (4 vertices) or, for leaves that are not cards, a triangle (3).
  const cards = leaves !== null && areCards(leaves);
  const perPiece = cards ? 4 : 3;
  const leafTotal = !leaves ? 0 : cards ? leaves.positions.length / 12 : floor(leaves.indices.length / 3);
  const leafKept = leafTotal === 0 ? 0 : min(leafTotal, max(1, floor((LEAF_SHARE * vertexBudget) / perPiece)));
  const stride = leafKept === 0 ? 1 : leafTotal / leafKept;
  const barkBudget = max(2 * GROVE_SIDES, vertexBudget - perPiece * leafKept);
  const perSegment = 2 * GROVE_SIDES;

  // Segments thickest first, each with its ancestors, within the budget and the texture row.
  const order = Array.from({ length: max(0, n - 2) }, (_, i) => i + 2).sort((a, b) => radius[b] - radius[a] || a - b);
  const chosen = new Uint8Array(n);
  chosen[1] = 1;
  let segments = 0, localCount = 1;
  const chain: number[] = [];
  for (const m of order) {
    if (chosen[m]) continue;
    chain.length = 0;
    for (let k = m; !chosen[k]; k = parent[k]) chain.push(k);
    if ((segments + chain.length) * perSegment > barkBudget || localCount + chain.length > maxMasses) break;
    for (const k of chain) chosen[k] = 1;
    segments += chain.length;
    localCount += chain.length;
  }
  const masses = new Int32Array(localCount);
  const local = new Int32Array(n).fill(-1);
  for (let i = 0, g = 0; i < n; i++) if (chosen[i]) { local[i] = g; masses[g++] = i; }
  const restOut = new Float32Array(TEXEL * localCount);
  for (let g = 0; g < localCount; g++) {
    for (let c = 0; c < 3; c++) restOut[TEXEL * g + c] = rest[3 * masses[g] + c];
    restOut[TEXEL * g + 3] = 1;
  }

  const bark = tubes(src, masses, local, segments);
  let leafMesh: GroveMesh | null = null;
  const leafScale = min(2.5, sqrt(stride));
  if (leaves && leafKept > 0) leafMesh = leafCards(src, leaves, cards, local, leafKept, stride, leafScale);
  return { masses, rest: restOut, bark, leaves: leafMesh, segments, segmentsOfTree: n - 2, leafCards: leafKept, leafCardsOfTree: leafTotal, leafScale };
}

/** A GROVE_SIDES-sided tube per chosen segment, a ring at each end riding on that end's mass. */
function tubes(src: GroveSource, masses: Int32Array, local: Int32Array, segments: number): GroveMesh {
  const S = GROVE_SIDES, rest = src.rest, radius = src.radius, parent = src.parent;
  const nv = 2 * S * segments;
  const positions = new Float32Array(3 * nv), normals = new Float32Array(3 * nv), uvs = new Float32Array(2 * nv);
  const groveMass = new Float32Array(3 * nv), indices = new Uint32Array(6 * S * segments);
  let v = 0, t = 0;
  for (let g = 1; g < masses.length; g++) {
    const m = masses[g], p = parent[m];
    const ax = rest[3 * p], ay = rest[3 * p + 1], az = rest[3 * p + 2];
    let dx = rest[3 * m] - ax, dy = rest[3 * m + 1] - ay, dz = rest[3 * m + 2] - az;
    const len = hypot(dx, dy, dz);
    dx /= len; dy /= len; dz /= len;
    // e1 ⟂ d (crossed with whichever axis is least parallel), e2 = d × e1.
    let e1x: number, e1y: number, e1z: number;
    if (Math.abs(dy) < 0.9) { e1x = -dz; e1y = 0; e1z = dx; } else { e1x = 0; e1y = dz; e1z = -dy; }
    const l1 = hypot(e1x, e1y, e1z);
    e1x /= l1; e1y /= l1; e1z /= l1;
    const e2x = dy * e1z - dz * e1y, e2y = dz * e1x - dx * e1z, e2z = dx * e1y - dy * e1x;
    const rTip = radius[m], rBase = min(radius[p], 1.25 * rTip);
    const first = v;
    for (let end = 0; end < 2; end++) {
      const r = end === 0 ? rBase : rTip, anchor = end === 0 ? p : m;
      const cx = rest[3 * anchor], cy = rest[3 * anchor + 1], cz = rest[3 * anchor + 2];
      for (let j = 0; j < S; j++) {
        const a = (2 * PI * j) / S, ca = cos(a), sa = sin(a);
        const nx = ca * e1x + sa * e2x, ny = ca * e1y + sa * e2y, nz = ca * e1z + sa * e2z;
        positions[3 * v] = cx + r * nx; positions[3 * v + 1] = cy + r * ny; positions[3 * v + 2] = cz + r * nz;
        normals[3 * v] = nx; normals[3 * v + 1] = ny; normals[3 * v + 2] = nz;
        uvs[2 * v] = j / S; uvs[2 * v + 1] = (end * len) / max(0.05, 2 * PI * rTip);
        groveMass[3 * v] = local[anchor]; groveMass[3 * v + 1] = g; groveMass[3 * v + 2] = local[p];
        v++;
      }
    }
    for (let j = 0; j < S; j++) {
      const a = first + j, b = first + ((j + 1) % S), c = a + S, d = b + S;
      indices[t++] = a; indices[t++] = b; indices[t++] = d;
      indices[t++] = a; indices[t++] = d; indices[t++] = c;
    }
  }
  return { positions, normals, uvs, indices, groveMass };
}

/**
 * True when the leaves are tree/geometry's cards: 4 vertices and 2 triangles per card, in card
 * order, each card's triangles on its own vertices. An imported model's own leaves are any shape.
 */
export function areCards(leaves: MeshArrays): boolean {
  const nv = leaves.positions.length / 3, I = leaves.indices;
  if (nv === 0 || nv % 4 !== 0 || I.length !== (6 * nv) / 4) return false;
  for (let i = 0; i < I.length; i++) if (floor(I[i] / 4) !== floor(i / 6)) return false;
  return true;
}

/**
 * Every `stride`-th leaf piece of the tree (a card, or a triangle of leaves that are not cards),
 * scaled about its centre, riding on its nearest chosen mass.
 */
function leafCards(src: GroveSource, leaves: MeshArrays, cards: boolean, local: Int32Array, kept: number, stride: number, scale: number): GroveMesh {
  const per = cards ? 4 : 3, perIndex = cards ? 6 : 3;
  const nv = per * kept, parent = src.parent;
  const positions = new Float32Array(3 * nv), normals = new Float32Array(3 * nv), uvs = new Float32Array(2 * nv);
  const groveMass = new Float32Array(3 * nv), indices = new Uint32Array(perIndex * kept);
  const P = leaves.positions, N = leaves.normals, UV = leaves.uvs, SN = leaves.skinNodes, SW = leaves.skinWeights, LI = leaves.indices;
  /** The source vertex of corner k of piece `piece`. */
  const vertexOf = (piece: number, k: number) => (cards ? 4 * piece + k : LI[3 * piece + k]);
  for (let i = 0; i < kept; i++) {
    const card = floor(i * stride);
    // The piece's branch node (a card's first; a triangle's the heaviest of its first bound
    // corner's, an unbound one node 0, the trunk's base), its mass, then up to the nearest mass
    // the grove draws.
    let node = cards ? Math.round(SN[16 * card]) : 0;
    for (let k = 0, heaviest = 0; !cards && k < per && heaviest === 0; k++) {
      const v = vertexOf(card, k);
      for (let c = 4 * v; c < 4 * v + 4; c++) if (SW[c] > heaviest) { heaviest = SW[c]; node = Math.round(SN[c]); }
    }
    let m = src.massOfNode[node];
    while (m > 1 && local[m] < 0) m = parent[m];
    const seg = m >= 2 ? m : -1;
    const anchorLocal = local[m], segLocal = seg >= 0 ? local[seg] : anchorLocal, segParentLocal = seg >= 0 ? local[parent[seg]] : anchorLocal;
    let cx = 0, cy = 0, cz = 0;
    for (let k = 0; k < per; k++) {
      const v = vertexOf(card, k);
      cx += P[3 * v] / per; cy += P[3 * v + 1] / per; cz += P[3 * v + 2] / per;
    }
    for (let k = 0; k < per; k++) {
      const s = vertexOf(card, k), o = per * i + k;
      positions[3 * o] = cx + scale * (P[3 * s] - cx);
      positions[3 * o + 1] = cy + scale * (P[3 * s + 1] - cy);
      positions[3 * o + 2] = cz + scale * (P[3 * s + 2] - cz);
      for (let c = 0; c < 3; c++) normals[3 * o + c] = N[3 * s + c];
      uvs[2 * o] = UV[2 * s]; uvs[2 * o + 1] = UV[2 * s + 1];
      groveMass[3 * o] = anchorLocal; groveMass[3 * o + 1] = segLocal; groveMass[3 * o + 2] = segParentLocal;
    }
    if (cards) for (let k = 0; k < 6; k++) indices[6 * i + k] = 4 * i + LI[6 * card + k] - 4 * card;
    else for (let k = 0; k < 3; k++) indices[3 * i + k] = 3 * i + k;
  }
  return { positions, normals, uvs, indices, groveMass };
}

/**
 * The twin of the grove's vertex shader: vertex `p` (rest, tree space) and normal `n` of a vertex
 * riding on grove masses (anchor, seg, segParent), given the grove's rest texels and one tree's
 * pose texels (`pose` from `poseOffset`, TEXEL floats per grove mass). Position xyz then normal xyz
 * into `out`. With R the shortest rotation taking the segment's rest direction d0 to its current d
 * (k = d0 × d, c = d0 · d: R v = c v + k × v + k (k · v) / (1 + c)):
 *   p' = X(anchor) + R (p - X0(anchor)),  n' = R n.
 * In double precision on the same float32 inputs: the shader's float32 arithmetic differs from it
 * by rounding only (the browser test measures under 1e-6 m).
 */
export function groveVertex(
  rest: ArrayLike<number>, pose: ArrayLike<number>, poseOffset: number,
  anchor: number, seg: number, segParent: number, p: ArrayLike<number>, n: ArrayLike<number>, out: Float64Array,
): void {
  const A = TEXEL * anchor, S = TEXEL * seg, Q = TEXEL * segParent;
  let ox = p[0] - rest[A], oy = p[1] - rest[A + 1], oz = p[2] - rest[A + 2];
  let nx = n[0], ny = n[1], nz = n[2];
  if (seg !== segParent) {
    let ax = rest[S] - rest[Q], ay = rest[S + 1] - rest[Q + 1], az = rest[S + 2] - rest[Q + 2];
    let la = sqrt(ax * ax + ay * ay + az * az);
    ax /= la; ay /= la; az /= la;
    let bx = pose[poseOffset + S] - pose[poseOffset + Q], by = pose[poseOffset + S + 1] - pose[poseOffset + Q + 1], bz = pose[poseOffset + S + 2] - pose[poseOffset + Q + 2];
    la = sqrt(bx * bx + by * by + bz * bz);
    bx /= la; by /= la; bz /= la;
    const kx = ay * bz - az * by, ky = az * bx - ax * bz, kz = ax * by - ay * bx;
    const c = ax * bx + ay * by + az * bz, inv = 1 / max(1 + c, 1e-4);
    const kv = kx * ox + ky * oy + kz * oz, kn = kx * nx + ky * ny + kz * nz;
    const rx = c * ox + (ky * oz - kz * oy) + kx * kv * inv;
    const ry = c * oy + (kz * ox - kx * oz) + ky * kv * inv;
    const rz = c * oz + (kx * oy - ky * ox) + kz * kv * inv;
    const sx = c * nx + (ky * nz - kz * ny) + kx * kn * inv;
    const sy = c * ny + (kz * nx - kx * nz) + ky * kn * inv;
    const sz = c * nz + (kx * ny - ky * nx) + kz * kn * inv;
    ox = rx; oy = ry; oz = rz; nx = sx; ny = sy; nz = sz;
  }
  out[0] = pose[poseOffset + A] + ox;
  out[1] = pose[poseOffset + A + 1] + oy;
  out[2] = pose[poseOffset + A + 2] + oz;
  out[3] = nx; out[4] = ny; out[5] = nz;
}

/** One tree of the grove on the ground: where it stands, how it is turned and scaled. */
export interface GrovePlacement {
  x: number;
  z: number;
  /** Turn about the vertical, radians (world = R(yaw) · tree). */
  yaw: number;
  scale: number;
}

/**
 * `count` trees on a jittered square grid `spacing` apart, the first at the origin (the tree the
 * person was looking at, drawn in full), each turned and scaled at random (seeded).
 */
export function grovePlacements(count: number, spacing: number, random: () => number): GrovePlacement[] {
  const side = Math.ceil(sqrt(count));
  const cells: { x: number; z: number; d: number }[] = [];
  const half = (side - 1) / 2;
  for (let i = 0; i < side; i++) for (let j = 0; j < side; j++) {
    const x = (i - floor(half)) * spacing, z = (j - floor(half)) * spacing;
    cells.push({ x, z, d: hypot(x, z) });
  }
  cells.sort((a, b) => a.d - b.d || a.x - b.x || a.z - b.z);
  const out: GrovePlacement[] = [];
  for (let k = 0; k < count; k++) {
    const c = cells[k];
    const jitter = k === 0 ? 0 : 0.22 * spacing;
    out.push({
      x: c.x + jitter * (2 * random() - 1),
      z: c.z + jitter * (2 * random() - 1),
      yaw: k === 0 ? 0 : 2 * PI * random(),
      scale: k === 0 ? 1 : 0.85 + 0.3 * random(),
    });
  }
  return out;
}
