/**
 * Skinning the tree's meshes to the mass-spring system (Van Haevre 2006 §4.2: the masses sit on
 * the skeleton's joints; the geometry follows them). Plain TypeScript, no Babylon.
 *
 * Every vertex carries up to four skeleton nodes and weights (tree/geometry.ts,
 * BINDING_ATTRIBUTES.skinNodes / skinWeights). Each skeleton node k gets a rigid transform from
 * rest to now: the translation to its mass's position X_k and R_k, the shortest rotation taking
 * the node's rest segment direction (node to the next node along its branch; for a tip, from the
 * node before it) to the current one. A vertex v at rest goes to Σ w_k (X_k + R_k (v - I_k)) (I_k
 * the node's rest position), its normal to Σ w_k R_k n, brought back to its rest length.
 *
 * Written as v + Σ w_k ((X_k - I_k) + (R_k - 1)(v - I_k)) / Σ w_k, so that at rest (X = I, R = 1
 * exactly) every vertex and normal is exactly where the geometry put it. Allocation free after
 * construction.
 */
import type { TreeSkeleton } from "../../tree/skeleton";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, abs } = Math;

/** 12 numbers per node: R row-major (9), then X (3). */
export const TRANSFORM_STRIDE = 12;

export class NodeFrames {
  readonly nodeCount: number;
  /** Per node, the two nodes whose difference is its segment direction (from, to); from = to: none. */
  readonly from: Int32Array;
  readonly to: Int32Array;
  /** Rest position I_k. */
  readonly restPosition: Float64Array;
  /** Rest unit direction of each node's segment. */
  readonly restDirection: Float64Array;
  /** R_k and X_k of every node, TRANSFORM_STRIDE each. */
  readonly transforms: Float64Array;

  /** `massOfNode`: the mass each skeleton node rides on (MassSpringSystem.massOfNode). */
  constructor(readonly skeleton: TreeSkeleton, readonly massOfNode: Int32Array) {
    const s = skeleton, n = s.nodeCount;
    this.nodeCount = n;
    this.from = new Int32Array(n);
    this.to = new Int32Array(n);
    this.restPosition = Float64Array.from(s.nodePosition);
    this.restDirection = new Float64Array(3 * n);
    this.transforms = new Float64Array(TRANSFORM_STRIDE * n);
    for (let b = 0; b < s.branchCount; b++) {
      const first = s.branchFirstNode[b], count = s.branchNodeCount[b];
      for (let k = first; k < first + count; k++) {
        if (k + 1 < first + count) { this.from[k] = k; this.to[k] = k + 1; }
        else if (k > first) { this.from[k] = k - 1; this.to[k] = k; }
        else { this.from[k] = this.to[k] = k; } // a branch of one node: no direction, no rotation
      }
    }
    this.directions(this.restPosition, this.restDirection);
    this.update(null);
  }

  /** Unit segment directions of every node from node positions (3 per node). */
  private directions(p: Float64Array, out: Float64Array): void {
    for (let k = 0; k < this.nodeCount; k++) {
      const a = this.from[k], b = this.to[k];
      let x = p[3 * b] - p[3 * a], y = p[3 * b + 1] - p[3 * a + 1], z = p[3 * b + 2] - p[3 * a + 2];
      const l = sqrt(x * x + y * y + z * z);
      if (l > 0) { x /= l; y /= l; z /= l; }
      out[3 * k] = x; out[3 * k + 1] = y; out[3 * k + 2] = z;
    }
  }

  /**
   * The transforms of every node for the masses at `massPositions` (3 per mass); null: the rest
   * pose (identity, X = I).
   */
  update(massPositions: Float64Array | null): void {
    const T = this.transforms, d0 = this.restDirection, m = this.massOfNode, I = this.restPosition;
    for (let k = 0; k < this.nodeCount; k++) {
      const o = TRANSFORM_STRIDE * k;
      if (!massPositions) {
        T.fill(0, o, o + 9);
        T[o] = T[o + 4] = T[o + 8] = 1;
        T[o + 9] = I[3 * k]; T[o + 10] = I[3 * k + 1]; T[o + 11] = I[3 * k + 2];
        continue;
      }
      const p = 3 * m[k];
      T[o + 9] = massPositions[p]; T[o + 10] = massPositions[p + 1]; T[o + 11] = massPositions[p + 2];
      // Current direction, as `directions` computes it, without the scratch array.
      const a = this.from[k], b = this.to[k];
      let x = 0, y = 0, z = 0;
      if (a !== b) {
        const pa = 3 * m[a], pb = 3 * m[b];
        x = massPositions[pb] - massPositions[pa]; y = massPositions[pb + 1] - massPositions[pa + 1]; z = massPositions[pb + 2] - massPositions[pa + 2];
      }
      const l = sqrt(x * x + y * y + z * z);
      if (!(l > 0)) {
        T.fill(0, o, o + 9);
        T[o] = T[o + 4] = T[o + 8] = 1;
        continue;
      }
      x /= l; y /= l; z /= l;
      shortestRotation(d0[3 * k], d0[3 * k + 1], d0[3 * k + 2], x, y, z, T, o);
    }
  }
}

/**
 * The shortest rotation taking unit a to unit b, row-major into out[o..o+8]:
 * R = 1 + [v]× + [v]×² / (1 + c), v = a × b, c = a · b. Exactly the identity for a = b.
 */
export function shortestRotation(ax: number, ay: number, az: number, bx: number, by: number, bz: number, out: Float64Array, o = 0): void {
  const vx = ay * bz - az * by, vy = az * bx - ax * bz, vz = ax * by - ay * bx;
  const c = ax * bx + ay * by + az * bz;
  if (vx === 0 && vy === 0 && vz === 0 && c > 0) {
    out.fill(0, o, o + 9);
    out[o] = out[o + 4] = out[o + 8] = 1;
    return;
  }
  if (1 + c < 1e-9) {
    // Opposite: half a turn about any axis across a.
    let px: number, py: number, pz: number;
    if (abs(ax) < 0.9) { px = 0; py = az; pz = -ay; } else { px = -az; py = 0; pz = ax; }
    const l = sqrt(px * px + py * py + pz * pz);
    px /= l; py /= l; pz /= l;
    // R = 2 p pᵀ - 1
    out[o] = 2 * px * px - 1; out[o + 1] = 2 * px * py; out[o + 2] = 2 * px * pz;
    out[o + 3] = 2 * py * px; out[o + 4] = 2 * py * py - 1; out[o + 5] = 2 * py * pz;
    out[o + 6] = 2 * pz * px; out[o + 7] = 2 * pz * py; out[o + 8] = 2 * pz * pz - 1;
    return;
  }
  const f = 1 / (1 + c);
  // [v]×² = v vᵀ - |v|² 1
  const vv = vx * vx + vy * vy + vz * vz;
  out[o] = 1 + f * (vx * vx - vv); out[o + 1] = -vz + f * vx * vy; out[o + 2] = vy + f * vx * vz;
  out[o + 3] = vz + f * vy * vx; out[o + 4] = 1 + f * (vy * vy - vv); out[o + 5] = -vx + f * vy * vz;
  out[o + 6] = -vy + f * vz * vx; out[o + 7] = vx + f * vz * vy; out[o + 8] = 1 + f * (vz * vz - vv);
}

/** What a mesh is skinned with: its rest positions and normals and its binding (4 per vertex). */
export interface SkinBinding {
  readonly positions: Float32Array | Float64Array;
  readonly normals: Float32Array | Float64Array;
  readonly skinNodes: Float32Array;
  readonly skinWeights: Float32Array;
}

/** Writes every vertex and normal of `bind` under the node transforms into outPositions / outNormals. */
export function skinVertices(frames: NodeFrames, bind: SkinBinding, outPositions: Float32Array | Float64Array, outNormals: Float32Array | Float64Array): void {
  const T = frames.transforms, I = frames.restPosition, P = bind.positions, N = bind.normals, SN = bind.skinNodes, SW = bind.skinWeights;
  const count = P.length / 3;
  for (let i = 0; i < count; i++) {
    const vx = P[3 * i], vy = P[3 * i + 1], vz = P[3 * i + 2];
    const nx = N[3 * i], ny = N[3 * i + 1], nz = N[3 * i + 2];
    let px = 0, py = 0, pz = 0, qx = 0, qy = 0, qz = 0, wsum = 0;
    for (let s = 4 * i; s < 4 * i + 4; s++) {
      const w = SW[s];
      if (!(w > 0)) continue;
      const k = SN[s], o = TRANSFORM_STRIDE * k;
      wsum += w;
      const dx = vx - I[3 * k], dy = vy - I[3 * k + 1], dz = vz - I[3 * k + 2];
      // (X - I) + (R - 1)(v - I)
      px += w * (T[o + 9] - I[3 * k] + (T[o] * dx + T[o + 1] * dy + T[o + 2] * dz - dx));
      py += w * (T[o + 10] - I[3 * k + 1] + (T[o + 3] * dx + T[o + 4] * dy + T[o + 5] * dz - dy));
      pz += w * (T[o + 11] - I[3 * k + 2] + (T[o + 6] * dx + T[o + 7] * dy + T[o + 8] * dz - dz));
      qx += w * (T[o] * nx + T[o + 1] * ny + T[o + 2] * nz - nx);
      qy += w * (T[o + 3] * nx + T[o + 4] * ny + T[o + 5] * nz - ny);
      qz += w * (T[o + 6] * nx + T[o + 7] * ny + T[o + 8] * nz - nz);
    }
    if (wsum > 0) {
      px /= wsum; py /= wsum; pz /= wsum; qx /= wsum; qy /= wsum; qz /= wsum;
    }
    outPositions[3 * i] = vx + px;
    outPositions[3 * i + 1] = vy + py;
    outPositions[3 * i + 2] = vz + pz;
    let mx = nx + qx, my = ny + qy, mz = nz + qz;
    if (qx !== 0 || qy !== 0 || qz !== 0) {
      const l = sqrt(mx * mx + my * my + mz * mz);
      if (l > 0) {
        const f = sqrt(nx * nx + ny * ny + nz * nz) / l;
        mx *= f; my *= f; mz *= f;
      }
    }
    outNormals[3 * i] = mx;
    outNormals[3 * i + 1] = my;
    outNormals[3 * i + 2] = mz;
  }
}
