/**
 * Geometry built once per tree from its skeleton (ARCHITECTURE.md, "The tree"): bark tubes and
 * leaf cards as plain typed arrays, each vertex carrying the binding every method needs.
 * No Babylon here; app/sandbox turns these arrays into meshes.
 *
 * Conventions:
 * - Right-handed, +y up, metres (the skeleton's space). Triangles are wound counter-clockwise
 *   seen from the side their normal points to (right-hand rule: (b - a) x (c - a) points along
 *   the vertex normals). Babylon's default is the opposite, so the sandbox flips the winding
 *   (or uses a right-handed scene).
 * - Bark: one tube per branch along its node chain, a ring at every node (plus `subdivisions`
 *   extra rings per segment), frames carried by parallel transport (double reflection, Wang et
 *   al. 2008) so rings do not twist. Each ring has `segments + 1` vertices: the seam vertex is
 *   duplicated so u runs 0..1 and the texture wraps. v runs along the branch as the integral of
 *   ds / (2 pi r), so a texel covers the same distance around and along the bark (the bark
 *   texture tiles in u and v). The tip is closed by a fan around one apex vertex (optional).
 * - Leaves: one card (4 vertices, 2 triangles) per skeleton leaf, centred at leafCenter, length
 *   along leafAxis, width along leafAxis x leafNormal, edge leafSize; uv 0..1 with v = 0 at the
 *   petiole. Double-sidedness is the material's business.
 * - Binding (BINDING_ATTRIBUTES), Habel 2009 §3: every vertex of a branch carries the branch
 *   index and the w-vector; w[L] is the vertex's own normalised position along its branch
 *   (level L), w[l < L] the position along its level-l ancestor where its line of descent
 *   attaches (branchParentX propagated down the hierarchy, Habel's Figure 1), w[l > L] = 0.
 *   vec4 holds levels 0..3 (MAX_LEVELS); a branch of level 3 or deeper has its own x in w[3]
 *   (wSlot) and its level 0..2 ancestors' components below: the methods compose the motion of
 *   every ancestor per branch, so a vertex needs only its own x, and a deep branch bends along
 *   its own length like any other.
 *   Skinning: bark vertices to the one or two nodes of their segment (linear weights), leaf
 *   vertices to the two nodes around their leafX; unused slots are node 0 with weight 0.
 */
import type { TreeSkeleton } from "./skeleton";

/** Names of the per-vertex binding attributes, as the meshes and the shaders know them. */
export const BINDING_ATTRIBUTES = {
  /** float: index of the branch the vertex belongs to (for a leaf vertex: its leaf's branch). */
  branchIndex: "branchIndex",
  /** vec4: Habel 2009 §3 w-vector: w[l] = normalised position along the vertex's ancestor of level l (own branch at wSlot(its level)), 0 beyond. */
  wVector: "wVector",
  /** vec4: indices of up to 4 skeleton nodes the vertex is skinned to. */
  skinNodes: "skinNodes",
  /** vec4: skinning weights of those nodes, summing to 1. */
  skinWeights: "skinWeights",
  /** vec4, leaves only (zero on bark): xyz the unit direction from the petiole to the leaf tip
   *  (Habel 2009 §7.1's b_l, the stipe), w the leaf's length in metres. */
  leafFrame: "leafFrame",
  /** vec2, leaves only: (signed distance from the stipe across the leaf, distance from the
   *  petiole along it), both as fractions of the leaf length: the x of §7.1's torsional and
   *  translational flutter. */
  leafCoord: "leafCoord",
} as const;

export interface MeshArrays {
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly uvs: Float32Array;
  readonly indices: Uint32Array;
  readonly branchIndex: Float32Array;
  readonly wVector: Float32Array;
  readonly skinNodes: Float32Array;
  readonly skinWeights: Float32Array;
  /** 4 per vertex, see BINDING_ATTRIBUTES.leafFrame (zero on bark). */
  readonly leafFrame: Float32Array;
  /** 2 per vertex, see BINDING_ATTRIBUTES.leafCoord (zero on bark). */
  readonly leafCoord: Float32Array;
}

export interface TreeGeometry {
  readonly bark: MeshArrays;
  /** Null when the skeleton has no leaves. */
  readonly leaves: MeshArrays | null;
  readonly vertexCount: number;
  /** True for a model made elsewhere (an imported file): its meshes are the model's own vertices with the binding found by extraction; methods that draw their own geometry skin these instead. */
  readonly fromModel?: boolean;
}

export interface GeometryOptions {
  /** Vertices around a bark ring of the trunk; thinner levels use fewer (8 gives 8/6/5/4 by level, never below 3). Default 8. */
  radialSegments?: number;
  /** Extra rings between consecutive nodes (0 = rings at nodes only). Default 0. */
  subdivisions?: number;
  /** Close each branch's tip with a fan around an apex vertex. Default true. */
  capTips?: boolean;
}

/** Share of the trunk's radial segments used at each level (8 -> 8, 6, 5, 4). */
const LEVEL_SEGMENT_SHARE = [1, 0.75, 0.625, 0.5];
const MIN_SEGMENTS = 3;
const TWO_PI = 2 * Math.PI;

/** Radial segments of a bark ring at a hierarchy level, for a trunk with `trunkSegments`. */
export function radialSegmentsFor(level: number, trunkSegments = 8): number {
  const share = LEVEL_SEGMENT_SHARE[Math.min(level, LEVEL_SEGMENT_SHARE.length - 1)];
  return Math.max(MIN_SEGMENTS, Math.round(trunkSegments * share));
}

/** From this level on, a branch's own x goes in component 3 (and ancestors of this level are not read per vertex). */
const W_OWN_DEEP = 3;

/**
 * w-vector base of every branch (4 floats per branch): the attachment positions along its
 * ancestors (Habel 2009 §3, Figure 1), with its own level's component left 0 for the caller
 * to fill with the vertex's x. The components are the levels 0..3; a branch deeper than level 3
 * keeps its own x in component 3 (wSlot), so it bends along its own length like any other (its
 * ancestors from level 3 on are composed per branch by every method, not read per vertex).
 */
export function branchWBase(s: TreeSkeleton): Float32Array {
  const out = new Float32Array(4 * s.branchCount);
  for (let b = 0; b < s.branchCount; b++) {
    let child = b;
    let p = s.branchParent[b];
    let guard = 0;
    while (p >= 0 && guard++ < 256) {
      const lp = s.branchLevel[p];
      if (lp < W_OWN_DEEP) out[4 * b + lp] = clamp01(s.branchParentX[child]);
      child = p;
      p = s.branchParent[p];
    }
  }
  return out;
}

/** The w-vector component that holds a vertex's own x on a branch of hierarchy level `level`. */
export function wSlot(level: number): number {
  return level < W_OWN_DEEP ? level : W_OWN_DEEP;
}

/**
 * The w-vector of one skeleton node, as a vertex on it carries it (see BINDING_ATTRIBUTES.wVector):
 * its own normalised x at wSlot(its level), the attachment positions along its ancestors of levels
 * 0..2 below. Writes 4 values.
 */
export function nodeWVector(s: TreeSkeleton, node: number, out: Float64Array | number[]): void {
  out[0] = out[1] = out[2] = out[3] = 0;
  let b = s.nodeBranch[node];
  out[wSlot(s.branchLevel[b])] = s.nodeX[node];
  while (s.branchParent[b] >= 0) {
    const parent = s.branchParent[b];
    if (s.branchLevel[parent] < W_OWN_DEEP) out[s.branchLevel[parent]] = clamp01(s.branchParentX[b]);
    b = parent;
  }
}

export function buildTreeGeometry(skeleton: TreeSkeleton, options: GeometryOptions = {}): TreeGeometry {
  const trunkSegments = Math.max(MIN_SEGMENTS, Math.floor(options.radialSegments ?? 8));
  const subdiv = Math.max(0, Math.floor(options.subdivisions ?? 0));
  const capTips = options.capTips ?? true;
  const wBase = branchWBase(skeleton);
  const bark = buildBark(skeleton, trunkSegments, subdiv, capTips, wBase);
  const leaves = skeleton.leafCount > 0 ? buildLeaves(skeleton, wBase) : null;
  return { bark, leaves, vertexCount: bark.positions.length / 3 + (leaves ? leaves.positions.length / 3 : 0) };
}

function allocate(vertices: number, indexCount: number): MeshArrays {
  return {
    positions: new Float32Array(3 * vertices),
    normals: new Float32Array(3 * vertices),
    uvs: new Float32Array(2 * vertices),
    indices: new Uint32Array(indexCount),
    branchIndex: new Float32Array(vertices),
    wVector: new Float32Array(4 * vertices),
    skinNodes: new Float32Array(4 * vertices),
    leafFrame: new Float32Array(4 * vertices),
    leafCoord: new Float32Array(2 * vertices),
    skinWeights: new Float32Array(4 * vertices),
  };
}

function buildBark(s: TreeSkeleton, trunkSegments: number, subdiv: number, capTips: boolean, wBase: Float32Array): MeshArrays {
  // Count first, then fill: no per-vertex allocation.
  let vertices = 0;
  let indexCount = 0;
  let maxNodes = 2;
  for (let b = 0; b < s.branchCount; b++) {
    const seg = radialSegmentsFor(s.branchLevel[b], trunkSegments);
    const nn = s.branchNodeCount[b];
    maxNodes = Math.max(maxNodes, nn);
    const rings = (nn - 1) * (subdiv + 1) + 1;
    vertices += rings * (seg + 1);
    indexCount += (rings - 1) * seg * 6;
    if (capTips) {
      vertices += 1;
      indexCount += seg * 3;
    }
  }
  const m = allocate(vertices, indexCount);
  const { positions: P, normals: N, uvs: UV, indices: I, branchIndex: BI, wVector: W, skinNodes: SN, skinWeights: SW } = m;
  const np = s.nodePosition;
  const nr = s.nodeRadius;
  const nx = s.nodeX;
  // Per-node scratch for one branch: tangent and radius slope dr/ds.
  const tan = new Float64Array(3 * maxNodes);
  const slope = new Float64Array(maxNodes);
  let v = 0; // next vertex
  let ii = 0; // next index
  for (let b = 0; b < s.branchCount; b++) {
    const seg = radialSegmentsFor(s.branchLevel[b], trunkSegments);
    const first = s.branchFirstNode[b];
    const nn = s.branchNodeCount[b];
    const level = s.branchLevel[b];
    const len = s.branchLength[b];
    const fr = 9 * b;
    const w0 = wBase[4 * b], w1 = wBase[4 * b + 1], w2 = wBase[4 * b + 2], w3 = wBase[4 * b + 3];

    // Node tangents: mean of the adjacent segment directions; chord direction as fallback.
    for (let i = 0; i < nn; i++) {
      const k = first + i;
      let tx = 0, ty = 0, tz = 0;
      if (i > 0) {
        const dx = np[3 * k] - np[3 * k - 3], dy = np[3 * k + 1] - np[3 * k - 2], dz = np[3 * k + 2] - np[3 * k - 1];
        const l = Math.hypot(dx, dy, dz);
        if (l > 1e-9) { tx += dx / l; ty += dy / l; tz += dz / l; }
      }
      if (i < nn - 1) {
        const dx = np[3 * k + 3] - np[3 * k], dy = np[3 * k + 4] - np[3 * k + 1], dz = np[3 * k + 5] - np[3 * k + 2];
        const l = Math.hypot(dx, dy, dz);
        if (l > 1e-9) { tx += dx / l; ty += dy / l; tz += dz / l; }
      }
      let l = Math.hypot(tx, ty, tz);
      if (l < 1e-6) { tx = s.branchFrame[fr]; ty = s.branchFrame[fr + 1]; tz = s.branchFrame[fr + 2]; l = Math.hypot(tx, ty, tz) || 1; }
      tan[3 * i] = tx / l; tan[3 * i + 1] = ty / l; tan[3 * i + 2] = tz / l;
      // Radius slope along arc length (central difference), tilts the normals of a tapered tube.
      const ia = Math.max(0, i - 1), ib = Math.min(nn - 1, i + 1);
      const ds = (nx[first + ib] - nx[first + ia]) * len;
      slope[i] = ds > 1e-9 ? (nr[first + ib] - nr[first + ia]) / ds : 0;
    }

    // Initial ring frame: the branch's r axis projected off the first tangent.
    let t0x = tan[0], t0y = tan[1], t0z = tan[2];
    let rx = s.branchFrame[fr + 3], ry = s.branchFrame[fr + 4], rz = s.branchFrame[fr + 5];
    {
      const d = rx * t0x + ry * t0y + rz * t0z;
      rx -= d * t0x; ry -= d * t0y; rz -= d * t0z;
      let l = Math.hypot(rx, ry, rz);
      if (l < 1e-6) {
        // Any perpendicular.
        if (Math.abs(t0x) < 0.9) { rx = 0; ry = -t0z; rz = t0y; } else { rx = t0z; ry = 0; rz = -t0x; }
        l = Math.hypot(rx, ry, rz);
      }
      rx /= l; ry /= l; rz /= l;
    }

    let px = np[3 * first], py = np[3 * first + 1], pz = np[3 * first + 2];
    let vAcc = fract(b * 0.6180339887); // start offset so neighbouring branches do not repeat the same bark
    let prevRadius = nr[first];
    const rings = (nn - 1) * (subdiv + 1) + 1;
    const ringStart = v;
    for (let ring = 0; ring < rings; ring++) {
      // Node segment i and fraction f along it.
      let i = Math.floor(ring / (subdiv + 1));
      let f = (ring - i * (subdiv + 1)) / (subdiv + 1);
      if (i >= nn - 1) { i = nn - 2; f = 1; }
      const ka = first + i, kb = ka + 1;
      const g = 1 - f;
      const cx = g * np[3 * ka] + f * np[3 * kb], cy = g * np[3 * ka + 1] + f * np[3 * kb + 1], cz = g * np[3 * ka + 2] + f * np[3 * kb + 2];
      const radius = g * nr[ka] + f * nr[kb];
      const x = g * nx[ka] + f * nx[kb];
      const dr = g * slope[i] + f * slope[i + 1];
      let tx = g * tan[3 * i] + f * tan[3 * i + 3], ty = g * tan[3 * i + 1] + f * tan[3 * i + 4], tz = g * tan[3 * i + 2] + f * tan[3 * i + 5];
      {
        const l = Math.hypot(tx, ty, tz);
        if (l > 1e-9) { tx /= l; ty /= l; tz /= l; } else { tx = t0x; ty = t0y; tz = t0z; }
      }
      if (ring > 0) {
        // Parallel transport by double reflection (Wang, Jüttler, Zheng, Liu 2008).
        const v1x = cx - px, v1y = cy - py, v1z = cz - pz;
        const c1 = v1x * v1x + v1y * v1y + v1z * v1z;
        if (c1 > 1e-18) {
          const kr = (2 / c1) * (v1x * rx + v1y * ry + v1z * rz);
          const kt = (2 / c1) * (v1x * t0x + v1y * t0y + v1z * t0z);
          const rLx = rx - kr * v1x, rLy = ry - kr * v1y, rLz = rz - kr * v1z;
          const tLx = t0x - kt * v1x, tLy = t0y - kt * v1y, tLz = t0z - kt * v1z;
          const v2x = tx - tLx, v2y = ty - tLy, v2z = tz - tLz;
          const c2 = v2x * v2x + v2y * v2y + v2z * v2z;
          if (c2 > 1e-18) {
            const k2 = (2 / c2) * (v2x * rLx + v2y * rLy + v2z * rLz);
            rx = rLx - k2 * v2x; ry = rLy - k2 * v2y; rz = rLz - k2 * v2z;
          } else { rx = rLx; ry = rLy; rz = rLz; }
        }
        // Re-orthonormalise against the new tangent (guards drift and degenerate steps).
        const d = rx * tx + ry * ty + rz * tz;
        rx -= d * tx; ry -= d * ty; rz -= d * tz;
        let l = Math.hypot(rx, ry, rz);
        if (l < 1e-9) {
          if (Math.abs(tx) < 0.9) { rx = 0; ry = -tz; rz = ty; } else { rx = tz; ry = 0; rz = -tx; }
          l = Math.hypot(rx, ry, rz);
        }
        rx /= l; ry /= l; rz /= l;
        const segLen = Math.sqrt(c1);
        vAcc += segLen / (TWO_PI * Math.max(1e-3, 0.5 * (radius + prevRadius)));
      }
      // s = t x r completes the frame.
      const sx = ty * rz - tz * ry, sy = tz * rx - tx * rz, sz = tx * ry - ty * rx;
      // Outward normal of a cone: radial - (dr/ds) t, normalised.
      const tilt = -dr;
      const nScale = 1 / Math.sqrt(1 + tilt * tilt);
      const wOwn = clamp01(x);
      // Skin: node ka with weight g, node kb with f (one node when the ring sits on it).
      let sn0 = ka, sn1 = kb, sw0 = g, sw1 = f;
      if (f <= 0) { sn1 = 0; sw1 = 0; sw0 = 1; } else if (f >= 1) { sn0 = kb; sw0 = 1; sn1 = 0; sw1 = 0; }
      for (let j = 0; j <= seg; j++) {
        const a = (j / seg) * TWO_PI;
        const ca = Math.cos(a), sa = Math.sin(a);
        const ox = ca * rx + sa * sx, oy = ca * ry + sa * sy, oz = ca * rz + sa * sz;
        const p3 = 3 * v;
        P[p3] = cx + radius * ox; P[p3 + 1] = cy + radius * oy; P[p3 + 2] = cz + radius * oz;
        N[p3] = (ox + tilt * tx) * nScale; N[p3 + 1] = (oy + tilt * ty) * nScale; N[p3 + 2] = (oz + tilt * tz) * nScale;
        UV[2 * v] = j / seg; UV[2 * v + 1] = vAcc;
        BI[v] = b;
        const q = 4 * v;
        W[q] = w0; W[q + 1] = w1; W[q + 2] = w2; W[q + 3] = w3;
        W[q + wSlot(level)] = wOwn;
        SN[q] = sn0; SN[q + 1] = sn1;
        SW[q] = sw0; SW[q + 1] = sw1;
        v++;
      }
      px = cx; py = cy; pz = cz; t0x = tx; t0y = ty; t0z = tz;
      prevRadius = radius;
    }
    // Side quads between consecutive rings, wound outward.
    const stride = seg + 1;
    for (let ring = 0; ring < rings - 1; ring++) {
      const r0 = ringStart + ring * stride, r1 = r0 + stride;
      for (let j = 0; j < seg; j++) {
        const a = r0 + j, bb = a + 1, c = r1 + j, d = c + 1;
        I[ii++] = a; I[ii++] = bb; I[ii++] = c;
        I[ii++] = bb; I[ii++] = d; I[ii++] = c;
      }
    }
    if (capTips) {
      const tipK = first + nn - 1;
      const p3 = 3 * v;
      P[p3] = np[3 * tipK]; P[p3 + 1] = np[3 * tipK + 1]; P[p3 + 2] = np[3 * tipK + 2];
      N[p3] = t0x; N[p3 + 1] = t0y; N[p3 + 2] = t0z;
      UV[2 * v] = 0.5; UV[2 * v + 1] = vAcc;
      BI[v] = b;
      const q = 4 * v;
      W[q] = w0; W[q + 1] = w1; W[q + 2] = w2; W[q + 3] = w3;
      W[q + wSlot(level)] = clamp01(nx[tipK]);
      SN[q] = tipK; SW[q] = 1;
      const last = ringStart + (rings - 1) * stride;
      for (let j = 0; j < seg; j++) {
        I[ii++] = last + j; I[ii++] = last + j + 1; I[ii++] = v;
      }
      v++;
    }
  }
  return m;
}

function buildLeaves(s: TreeSkeleton, wBase: Float32Array): MeshArrays {
  const nl = s.leafCount;
  const m = allocate(4 * nl, 6 * nl);
  const { positions: P, normals: N, uvs: UV, indices: I, branchIndex: BI, wVector: W, skinNodes: SN, skinWeights: SW, leafFrame: LF, leafCoord: LC } = m;
  const C = s.leafCenter, LN = s.leafNormal, LA = s.leafAxis;
  // Corner offsets in (width, length) half-units and their uvs: petiole edge first (v = 0).
  const cu = [-1, 1, 1, -1];
  const cv = [-1, -1, 1, 1];
  for (let i = 0; i < nl; i++) {
    const b = s.leafBranch[i];
    const level = s.branchLevel[b];
    const h = 0.5 * s.leafSize[i];
    const nX = LN[3 * i], nY = LN[3 * i + 1], nZ = LN[3 * i + 2];
    const aX = LA[3 * i], aY = LA[3 * i + 1], aZ = LA[3 * i + 2];
    // Width direction = axis x normal, so (width, axis, normal) is right-handed: seen from the
    // normal's side, u grows to the right and v upwards (the texture is not mirrored).
    let wx = aY * nZ - aZ * nY, wy = aZ * nX - aX * nZ, wz = aX * nY - aY * nX;
    const wl = Math.hypot(wx, wy, wz) || 1;
    wx /= wl; wy /= wl; wz /= wl;
    // Skin: the two nodes of its branch around leafX.
    const x = clamp01(s.leafX[i]);
    const first = s.branchFirstNode[b], nn = s.branchNodeCount[b];
    let k = first;
    while (k < first + nn - 2 && s.nodeX[k + 1] < x) k++;
    const xa = s.nodeX[k], xb = s.nodeX[k + 1];
    let f = xb > xa ? (x - xa) / (xb - xa) : 0;
    f = clamp01(f);
    const v0 = 4 * i;
    for (let c = 0; c < 4; c++) {
      const v = v0 + c;
      const p3 = 3 * v;
      const du = cu[c] * h, dv = cv[c] * h;
      P[p3] = C[3 * i] + du * wx + dv * aX;
      P[p3 + 1] = C[3 * i + 1] + du * wy + dv * aY;
      P[p3 + 2] = C[3 * i + 2] + du * wz + dv * aZ;
      N[p3] = nX; N[p3 + 1] = nY; N[p3 + 2] = nZ;
      UV[2 * v] = 0.5 * (cu[c] + 1); UV[2 * v + 1] = 0.5 * (cv[c] + 1);
      LF[4 * v] = aX; LF[4 * v + 1] = aY; LF[4 * v + 2] = aZ; LF[4 * v + 3] = s.leafSize[i];
      LC[2 * v] = 0.5 * cu[c]; LC[2 * v + 1] = 0.5 * (cv[c] + 1);
      BI[v] = b;
      const q = 4 * v;
      W[q] = wBase[4 * b]; W[q + 1] = wBase[4 * b + 1]; W[q + 2] = wBase[4 * b + 2]; W[q + 3] = wBase[4 * b + 3];
      W[q + wSlot(level)] = x;
      if (f <= 0) { SN[q] = k; SW[q] = 1; } else if (f >= 1) { SN[q] = k + 1; SW[q] = 1; } else {
        SN[q] = k; SW[q] = 1 - f; SN[q + 1] = k + 1; SW[q + 1] = f;
      }
    }
    // Counter-clockwise around the normal: (0,1,2), (0,2,3).
    const j = 6 * i;
    I[j] = v0; I[j + 1] = v0 + 1; I[j + 2] = v0 + 2;
    I[j + 3] = v0; I[j + 4] = v0 + 2; I[j + 5] = v0 + 3;
  }
  return m;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

function fract(x: number): number {
  return x - Math.floor(x);
}

/**
 * The triangles of `ccw` (counter-clockwise about their normals, right-handed, as this file and
 * every CPU skin build them) in Babylon's winding: its left-handed scene treats clockwise as front.
 */
export function toBabylonWinding(ccw: Uint32Array): Uint32Array {
  const out = new Uint32Array(ccw.length);
  for (let i = 0; i < out.length; i += 3) {
    out[i] = ccw[i];
    out[i + 1] = ccw[i + 2];
    out[i + 2] = ccw[i + 1];
  }
  return out;
}
