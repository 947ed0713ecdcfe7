/**
 * The tree's own geometry on Akagi and Kitajima's particles (§2 builds the particle tree from a
 * polygon model, Fig. 5; the model is drawn on it). Plain TypeScript, no Babylon.
 *
 * Every bone particle with a ring is a station with a rigid frame: its position and the rotation
 * that takes its ring at rest to its ring now (the ring's first particle's offset and the normal of
 * the ring's plane, so the frame needs nothing beyond the station: a piece cut off the tree keeps
 * its frames). Every skeleton node lies between two stations of its branch (a branch's stations
 * are its own bone particles and, for a child, the parent's bone particle it grows from, at equal
 * arc length, as particle-tree.ts lays them); the node moves as the blend of the two stations'
 * rigid motions (positions blended, rotations by normalised lerp), or as the nearer one alone when
 * a break lies between them. A vertex follows its skin nodes (tree/geometry's binding, also an
 * imported model's) by linear blend skinning, v = Σ w_k (X_k + R_k (v₀ - I_k)), leaving out the
 * nodes in another piece than its heaviest one, so a broken branch takes its bark with it and the
 * bark does not stretch across the break.
 *
 * Leaf cards (4 vertices per skeleton leaf, tree/geometry's order) ride on their leaf particle
 * (their group's, leaf-groups.ts), turned with the frame of the station it hangs from; once the
 * petiole breaks they tumble about a fixed horizontal axis by the simulation's `leafAngle`; no
 * card's vertex goes below the ground (a fallen leaf's, or one still on a fallen piece's twig). A tree whose finest branches were left out of the particle tree
 * (reduce.ts) moves their nodes rigidly with the kept node they grow from. Allocation free after
 * construction.
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import { BONE, type ParticleTree } from "./particle-tree";
import type { ReducedTree } from "./reduce";

const { sqrt, hypot, cos, sin, min, max, floor } = Math;

/** Height a fallen leaf's vertices keep above the ground, m. */
const GROUND_CLEARANCE = 0.002;

/** A mesh's rest vertices and binding (4 skin nodes and weights per vertex). */
export interface SkinBinding {
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly skinNodes: Float32Array;
  readonly skinWeights: Float32Array;
}

export class ParticleSkin {
  readonly nodeCount: number;
  /** Per node of the simulated skeleton: the two stations (bone particles) around it and the blend toward the second. */
  readonly stationA: Int32Array;
  readonly stationB: Int32Array;
  readonly blend: Float64Array;
  /** Per node of the tree's own skeleton now: position (3), rotation quaternion (w, x, y, z) and piece. */
  readonly nodePosition: Float64Array;
  readonly nodeRotation: Float64Array;
  readonly nodePiece: Int32Array;
  /** Per particle: the rotation of its station frame now, quaternion (w, x, y, z); identity where it has none. */
  readonly stationRotation: Float64Array;
  /** Per particle: rest basis of its station frame (9: e₁, e₂, e₃ one after another). */
  private readonly restBasis: Float64Array;
  private readonly restNode: Float64Array;
  private readonly stations: Int32Array;
  /** The simulated skeleton's nodes now (the same as the tree's when nothing was left out). */
  private readonly simNodes: number;
  private readonly simRest: Float64Array;
  private readonly simPosition: Float64Array;
  private readonly simRotation: Float64Array;
  private readonly simPiece: Int32Array;
  private readonly nodeOf: Int32Array | null;
  private readonly basis = new Float64Array(9);
  private readonly q = new Float64Array(4);

  /** `tree` built from `reduced.skeleton` when given (the finest branches left out), else from `skeleton`. */
  constructor(readonly skeleton: TreeSkeleton, readonly tree: ParticleTree, reduced: ReducedTree | null = null) {
    this.nodeCount = skeleton.nodeCount;
    this.nodePosition = Float64Array.from(skeleton.nodePosition);
    this.restNode = Float64Array.from(skeleton.nodePosition);
    this.nodeRotation = new Float64Array(4 * this.nodeCount);
    this.nodePiece = new Int32Array(this.nodeCount);
    for (let k = 0; k < this.nodeCount; k++) this.nodeRotation[4 * k] = 1;
    const s = reduced ? reduced.skeleton : skeleton, n = s.nodeCount;
    this.nodeOf = reduced && reduced.skeleton !== skeleton ? reduced.nodeOf : null;
    this.simNodes = n;
    this.simRest = Float64Array.from(s.nodePosition);
    this.simPosition = Float64Array.from(s.nodePosition);
    this.simRotation = new Float64Array(4 * n);
    this.simPiece = new Int32Array(n);
    this.stationA = new Int32Array(n);
    this.stationB = new Int32Array(n);
    this.blend = new Float64Array(n);
    // Each branch's own bone particles, in the order they were made (base to tip).
    const own: number[][] = Array.from({ length: s.branchCount }, () => []);
    for (let i = 0; i < tree.count; i++) if (tree.type[i] === BONE && tree.branch[i] >= 0) own[tree.branch[i]].push(i);
    for (let b = 0; b < s.branchCount; b++) {
      const st = own[b].slice();
      if (st.length === 0) throw new Error(`branch ${b} has no bone particles`);
      if (b > 0 && tree.prevBone[st[0]] >= 0) st.unshift(tree.prevBone[st[0]]);
      if (st.length === 1) st.push(st[0]);
      const first = s.branchFirstNode[b], nn = s.branchNodeCount[b], P = s.nodePosition;
      let len = 0;
      const arc = [0];
      for (let k = 1; k < nn; k++) {
        const a = 3 * (first + k - 1), c = 3 * (first + k);
        len += hypot(P[c] - P[a], P[c + 1] - P[a + 1], P[c + 2] - P[a + 2]);
        arc.push(len);
      }
      const seg = len / (st.length - 1);
      for (let k = 0; k < nn; k++) {
        const u = seg > 0 ? arc[k] / seg : 0;
        const j = min(st.length - 2, max(0, floor(u)));
        this.stationA[first + k] = st[j];
        this.stationB[first + k] = st[j + 1];
        this.blend[first + k] = min(1, max(0, u - j));
      }
    }
    // Every bone particle with a ring is a station (the anchor below the ground has none).
    const stations: number[] = [];
    for (let i = 0; i < tree.count; i++) if (tree.type[i] === BONE && tree.ringCount[i] >= 3) stations.push(i);
    this.stations = Int32Array.from(stations);
    this.restBasis = new Float64Array(9 * tree.count);
    this.stationRotation = new Float64Array(4 * tree.count);
    for (let i = 0; i < tree.count; i++) this.stationRotation[4 * i] = 1;
    for (const i of this.stations) {
      if (!this.frameOf(i, tree.restPosition, this.basis)) throw new Error(`station ${i} has no ring to take a frame from`);
      this.restBasis.set(this.basis, 9 * i);
    }
  }

  /** The station's frame at positions x: e₁ along its first ring particle, e₃ the ring's normal. False without a ring. */
  private frameOf(i: number, x: Float64Array, out: Float64Array): boolean {
    const tr = this.tree, rs = tr.ringStart[i], nr = tr.ringCount[i];
    if (!(nr >= 3)) return false;
    const r1 = rs + max(1, Math.round(nr / 4));
    const ux = x[3 * rs] - x[3 * i], uy = x[3 * rs + 1] - x[3 * i + 1], uz = x[3 * rs + 2] - x[3 * i + 2];
    const wx = x[3 * r1] - x[3 * i], wy = x[3 * r1 + 1] - x[3 * i + 1], wz = x[3 * r1 + 2] - x[3 * i + 2];
    let tx = uy * wz - uz * wy, ty = uz * wx - ux * wz, tz = ux * wy - uy * wx;
    const lu = sqrt(ux * ux + uy * uy + uz * uz), lt = sqrt(tx * tx + ty * ty + tz * tz);
    if (!(lu > 0 && lt > 0)) return false;
    tx /= lt; ty /= lt; tz /= lt;
    const ex = ux / lu, ey = uy / lu, ez = uz / lu;
    out[0] = ex; out[1] = ey; out[2] = ez;
    out[3] = ty * ez - tz * ey; out[4] = tz * ex - tx * ez; out[5] = tx * ey - ty * ex;
    out[6] = tx; out[7] = ty; out[8] = tz;
    return true;
  }

  /** Every station's rotation and every node's rigid motion for particles at x, `piece` each particle's piece (TreeBreaking.piece). */
  update(x: Float64Array, piece: Int32Array): void {
    const B = this.basis, R0 = this.restBasis, Q = this.stationRotation, q = this.q;
    for (let s = 0; s < this.stations.length; s++) {
      const i = this.stations[s];
      if (!this.frameOf(i, x, B)) continue; // a degenerate ring keeps its last rotation
      // R = B B₀ᵀ (bases as columns e₁ e₂ e₃ stored one after another).
      const o = 9 * i;
      let m00 = 0, m01 = 0, m02 = 0, m10 = 0, m11 = 0, m12 = 0, m20 = 0, m21 = 0, m22 = 0;
      for (let c = 0; c < 3; c++) {
        const b0 = B[3 * c], b1 = B[3 * c + 1], b2 = B[3 * c + 2];
        const r0 = R0[o + 3 * c], r1 = R0[o + 3 * c + 1], r2 = R0[o + 3 * c + 2];
        m00 += b0 * r0; m01 += b0 * r1; m02 += b0 * r2;
        m10 += b1 * r0; m11 += b1 * r1; m12 += b1 * r2;
        m20 += b2 * r0; m21 += b2 * r1; m22 += b2 * r2;
      }
      quatFromMatrix(m00, m01, m02, m10, m11, m12, m20, m21, m22, q);
      Q[4 * i] = q[0]; Q[4 * i + 1] = q[1]; Q[4 * i + 2] = q[2]; Q[4 * i + 3] = q[3];
    }
    const X0 = this.tree.restPosition, I = this.simRest, X = this.simPosition, NR = this.simRotation;
    for (let k = 0; k < this.simNodes; k++) {
      let a = this.stationA[k], b = this.stationB[k], f = this.blend[k];
      if (piece[a] !== piece[b]) {
        // A break between the two stations: the nearer one alone.
        if (f < 0.5) b = a;
        else a = b;
        f = 0;
      }
      this.simPiece[k] = piece[a];
      // Each station's rigid motion of the node's rest position, blended.
      let px = 0, py = 0, pz = 0;
      for (let e = 0; e < 2; e++) {
        const st = e === 0 ? a : b, w = e === 0 ? 1 - f : f;
        if (w === 0) continue;
        const dx = I[3 * k] - X0[3 * st], dy = I[3 * k + 1] - X0[3 * st + 1], dz = I[3 * k + 2] - X0[3 * st + 2];
        rotate(Q, 4 * st, dx, dy, dz, q);
        px += w * (x[3 * st] + q[0]); py += w * (x[3 * st + 1] + q[1]); pz += w * (x[3 * st + 2] + q[2]);
      }
      X[3 * k] = px; X[3 * k + 1] = py; X[3 * k + 2] = pz;
      const oa = 4 * a, ob = 4 * b;
      const sg = Q[oa] * Q[ob] + Q[oa + 1] * Q[ob + 1] + Q[oa + 2] * Q[ob + 2] + Q[oa + 3] * Q[ob + 3] < 0 ? -1 : 1;
      let w = (1 - f) * Q[oa] + sg * f * Q[ob], qx = (1 - f) * Q[oa + 1] + sg * f * Q[ob + 1];
      let qy = (1 - f) * Q[oa + 2] + sg * f * Q[ob + 2], qz = (1 - f) * Q[oa + 3] + sg * f * Q[ob + 3];
      const l = sqrt(w * w + qx * qx + qy * qy + qz * qz) || 1;
      w /= l; qx /= l; qy /= l; qz /= l;
      NR[4 * k] = w; NR[4 * k + 1] = qx; NR[4 * k + 2] = qy; NR[4 * k + 3] = qz;
    }
    // The tree's own nodes: each rides rigidly on its simulated node (the same node when nothing was left out).
    const map = this.nodeOf, N0 = this.restNode, P = this.nodePosition, R = this.nodeRotation, pc = this.nodePiece;
    for (let k = 0; k < this.nodeCount; k++) {
      const m = map ? map[k] : k;
      R[4 * k] = NR[4 * m]; R[4 * k + 1] = NR[4 * m + 1]; R[4 * k + 2] = NR[4 * m + 2]; R[4 * k + 3] = NR[4 * m + 3];
      pc[k] = this.simPiece[m];
      if (!map) {
        P[3 * k] = X[3 * k]; P[3 * k + 1] = X[3 * k + 1]; P[3 * k + 2] = X[3 * k + 2];
        continue;
      }
      rotate(NR, 4 * m, N0[3 * k] - I[3 * m], N0[3 * k + 1] - I[3 * m + 1], N0[3 * k + 2] - I[3 * m + 2], q);
      P[3 * k] = X[3 * m] + q[0]; P[3 * k + 1] = X[3 * m + 1] + q[1]; P[3 * k + 2] = X[3 * m + 2] + q[2];
    }
  }

  /** Writes a bound mesh's vertices and normals for the nodes' motion of the last `update`. */
  skinVertices(bind: SkinBinding, positions: Float32Array, normals: Float32Array): void {
    const V = bind.positions, N = bind.normals, SN = bind.skinNodes, SW = bind.skinWeights;
    const I = this.restNode, X = this.nodePosition, NR = this.nodeRotation, pc = this.nodePiece, q = this.q;
    const count = V.length / 3;
    for (let v = 0; v < count; v++) {
      const o = 3 * v;
      const vx = V[o], vy = V[o + 1], vz = V[o + 2], nx = N[o], ny = N[o + 1], nz = N[o + 2];
      // The heaviest node's piece: nodes in another piece are left out.
      let heaviest = -1, wmax = 0;
      for (let c = 4 * v; c < 4 * v + 4; c++) if (SW[c] > wmax) { wmax = SW[c]; heaviest = SN[c]; }
      if (heaviest < 0) {
        positions[o] = vx; positions[o + 1] = vy; positions[o + 2] = vz;
        normals[o] = nx; normals[o + 1] = ny; normals[o + 2] = nz;
        continue;
      }
      const own = pc[heaviest];
      let px = 0, py = 0, pz = 0, mx = 0, my = 0, mz = 0, ws = 0;
      for (let c = 4 * v; c < 4 * v + 4; c++) {
        const w = SW[c], k = SN[c];
        if (!(w > 0) || pc[k] !== own) continue;
        ws += w;
        rotate(NR, 4 * k, vx - I[3 * k], vy - I[3 * k + 1], vz - I[3 * k + 2], q);
        px += w * (X[3 * k] + q[0]); py += w * (X[3 * k + 1] + q[1]); pz += w * (X[3 * k + 2] + q[2]);
        rotate(NR, 4 * k, nx, ny, nz, q);
        mx += w * q[0]; my += w * q[1]; mz += w * q[2];
      }
      positions[o] = px / ws; positions[o + 1] = py / ws; positions[o + 2] = pz / ws;
      const l = sqrt(mx * mx + my * my + mz * mz), n0 = sqrt(nx * nx + ny * ny + nz * nz);
      const sc = l > 0 ? n0 / l : 0;
      normals[o] = mx * sc; normals[o + 1] = my * sc; normals[o + 2] = mz * sc;
    }
  }
}

/**
 * The triangles of a bound mesh whose three vertices lie in one piece (a vertex's piece: its heaviest
 * skin node's, after the skin's last update), into `out`; returns how many indices. A triangle
 * across a break would stretch from the stump to the fallen piece: it is left out.
 */
export function wholeTriangles(skin: ParticleSkin, bind: SkinBinding, indices: Uint32Array, vertexPiece: Int32Array, out: Uint32Array): number {
  const SN = bind.skinNodes, SW = bind.skinWeights, pc = skin.nodePiece;
  for (let v = 0; v < vertexPiece.length; v++) {
    let heaviest = -1, wmax = 0;
    for (let c = 4 * v; c < 4 * v + 4; c++) if (SW[c] > wmax) { wmax = SW[c]; heaviest = SN[c]; }
    vertexPiece[v] = heaviest < 0 ? -1 : pc[heaviest];
  }
  let n = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = vertexPiece[indices[t]];
    if (a !== vertexPiece[indices[t + 1]] || a !== vertexPiece[indices[t + 2]]) continue;
    out[n++] = indices[t]; out[n++] = indices[t + 1]; out[n++] = indices[t + 2];
  }
  return n;
}

/** Leaf cards riding on their (group's) leaf particle. */
export class LeafRide {
  readonly vertexCount: number;
  /** Per vertex: its group (a leaf of the simulation's skeleton). */
  private readonly group: Int32Array;
  private readonly offset: Float32Array;
  private readonly normal: Float32Array;
  /** Per group: the horizontal axis it tumbles about once fallen. */
  private readonly axis: Float64Array;
  private readonly q = new Float64Array(4);
  private readonly t = new Float64Array(4);

  /** `positions`, `normals`: the leaf cards at rest, 4 vertices per leaf of `skeleton` in leaf order; `groupOf`: each leaf's group. */
  constructor(readonly skeleton: TreeSkeleton, readonly tree: ParticleTree, groupOf: Int32Array, positions: Float32Array, normals: Float32Array) {
    const n = positions.length / 3;
    if (n !== 4 * skeleton.leafCount) throw new RangeError(`leaf mesh has ${n} vertices; expected 4 per leaf (${4 * skeleton.leafCount})`);
    this.vertexCount = n;
    this.group = new Int32Array(n);
    this.offset = new Float32Array(3 * n);
    this.normal = Float32Array.from(normals);
    const X0 = tree.restPosition;
    for (let v = 0; v < n; v++) {
      const g = groupOf[v >> 2], p = tree.leafParticle[g];
      this.group[v] = g;
      for (let a = 0; a < 3; a++) this.offset[3 * v + a] = positions[3 * v + a] - X0[3 * p + a];
    }
    const groups = tree.leafParticle.length;
    this.axis = new Float64Array(3 * groups);
    const set = new Uint8Array(groups);
    for (let v = 0; v < n; v += 4) {
      // Across the group's first card's normal, horizontal (the way a falling leaf flips over).
      const g = this.group[v];
      if (set[g]) continue;
      set[g] = 1;
      const nx = normals[3 * v], nz = normals[3 * v + 2], l = hypot(nx, nz);
      this.axis[3 * g] = l > 1e-6 ? -nz / l : 1;
      this.axis[3 * g + 2] = l > 1e-6 ? nx / l : 0;
    }
  }

  /**
   * Writes the cards for particles at x, station rotations from `skin` (after its update), the
   * petioles' state in the tree's `broken` links and the tumble angles `leafAngle` (per group).
   */
  write(x: Float64Array, skin: ParticleSkin, leafAngle: Float64Array, positions: Float32Array, normals: Float32Array): void {
    const tr = this.tree, off = this.offset, nrm = this.normal, q = this.q, t = this.t, Q = skin.stationRotation;
    for (let v = 0; v < this.vertexCount; v++) {
      const g = this.group[v], p = tr.leafParticle[g], o = 3 * v;
      const fallen = tr.broken[tr.leafLink[g]] === 1;
      if (fallen) {
        const h = 0.5 * leafAngle[g], s = sin(h);
        t[0] = cos(h); t[1] = s * this.axis[3 * g]; t[2] = 0; t[3] = s * this.axis[3 * g + 2];
      } else {
        const b = 4 * tr.prevBone[p];
        t[0] = Q[b]; t[1] = Q[b + 1]; t[2] = Q[b + 2]; t[3] = Q[b + 3];
      }
      rotate(t, 0, off[o], off[o + 1], off[o + 2], q);
      positions[o] = x[3 * p] + q[0];
      positions[o + 1] = x[3 * p + 1] + q[1];
      positions[o + 2] = x[3 * p + 2] + q[2];
      // On the ground, a fallen leaf's card and one still on a fallen piece's twig lie on it.
      if (positions[o + 1] < GROUND_CLEARANCE) positions[o + 1] = GROUND_CLEARANCE;
      rotate(t, 0, nrm[o], nrm[o + 1], nrm[o + 2], q);
      normals[o] = q[0]; normals[o + 1] = q[1]; normals[o + 2] = q[2];
    }
  }
}

/** Rotates (x, y, z) by the unit quaternion Q[o..o+3] (w, x, y, z) into out[0..2]. */
function rotate(Q: Float64Array, o: number, x: number, y: number, z: number, out: Float64Array): void {
  const w = Q[o], qx = Q[o + 1], qy = Q[o + 2], qz = Q[o + 3];
  // v + w t + q × t, t = 2 q × v
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  out[0] = x + w * tx + (qy * tz - qz * ty);
  out[1] = y + w * ty + (qz * tx - qx * tz);
  out[2] = z + w * tz + (qx * ty - qy * tx);
}

/** Unit quaternion (w, x, y, z) of a rotation matrix (Shepperd's method), into out. */
function quatFromMatrix(m00: number, m01: number, m02: number, m10: number, m11: number, m12: number, m20: number, m21: number, m22: number, out: Float64Array): void {
  const tr = m00 + m11 + m22;
  let w: number, x: number, y: number, z: number;
  if (tr > 0) {
    const s = 2 * sqrt(1 + tr);
    w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * sqrt(max(1e-12, 1 + m00 - m11 - m22));
    w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * sqrt(max(1e-12, 1 + m11 - m00 - m22));
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
  } else {
    const s = 2 * sqrt(max(1e-12, 1 + m22 - m00 - m11));
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
  }
  const l = sqrt(w * w + x * x + y * y + z * z) || 1;
  out[0] = w / l; out[1] = x / l; out[2] = y / l; out[3] = z / l;
}
