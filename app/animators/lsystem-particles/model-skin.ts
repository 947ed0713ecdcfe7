/**
 * An imported model (TreeGeometry.fromModel: a mesh read from a file) on Barron's particles: the
 * model keeps its own bark and leaves, skinned to the particles through the binding extraction found
 * (BINDING_ATTRIBUTES.skinNodes / skinWeights: up to two consecutive nodes of the vertex's
 * branch), where a generated tree has its skins regenerated from the particles (Barron §4.2,
 * skin.ts) and its leaf cards riding on them (leaves.ts). Plain TypeScript, no Babylon.
 *
 * Each skeleton node k gets a rigid motion from rest to now: the translation of its particle p
 * (ParticleTree.particleOfNode: a branch's base node shares the particle it grows from, unless it
 * stands apart from it) and a rotation R_k. A vertex goes to the linear blend
 *   v = Σ w_k (C_p + R_k (v_rest − I_p)),
 * its normal to Σ w_k R_k n, brought back to its rest length (unit for unit normals). A vertex
 * with no weight (unbound: branch index -1) stays at rest.
 *
 * Which rotation. A particle's q (particles.ts) turns the rod ending at it, the branch segment
 * from its parent particle (Barron §5.1: "each particle ends a rod"). A node joins the two rods of
 * its own branch: the one ending at it (q of its own particle; none at the branch's base, where
 * that rod would be the parent branch's, or the gap to the origin for a base standing apart) and
 * the one leaving it along the branch (q of the next node's particle; none at the tip). R_k is the
 * half-way rotation of the two (normalised lerp), or the one there is. So the rod carrying a
 * segment rules its middle, and at a node the bark turns with the mean of the two rods, as
 * tree/geometry's rings sit across the mean of the two segment directions: a straight branch
 * bent into an arc by its rods stays a smooth tube, with no pinch on the inside of a joint. A
 * branch turned as a whole moves rigidly; the tip node (the last ring, the cap) rides exactly on
 * its last rod, so a tip vertex keeps its distance to the tip particle.
 *
 * Written as v_rest + Σ w_k ((C_p − I_p) + (R_k − 1)(v_rest − I_p)) / Σ w_k, so that at rest
 * (C = I, q = 1 exactly) every vertex and normal is exactly where the model put it.
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import type { ParticleTree } from "./particles";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt } = Math;

/** A mesh with its rest vertices and the binding (4 skin nodes and weights per vertex), as MeshArrays hold it. */
export interface BoundMesh {
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly skinNodes: Float32Array;
  readonly skinWeights: Float32Array;
}

/** The fixed part of a model's mesh on the particles. */
export interface ModelSkin {
  readonly vertexCount: number;
  /** Rest positions and normals (copies). */
  readonly restPositions: Float32Array;
  readonly restNormals: Float32Array;
  /** 4 per vertex: the skeleton node of each slot, -1 where its weight is 0. */
  readonly node: Int32Array;
  /** 4 per vertex: weights, divided by their sum (all 0 for an unbound vertex). */
  readonly weight: Float32Array;
  /** Nodes any vertex uses, each once. */
  readonly usedNodes: Int32Array;
  /** Per skeleton node: its particle, and the particles ending the rods into it and out of it along its branch (-1: none). */
  readonly particleOfNode: Int32Array;
  readonly rodIn: Int32Array;
  readonly rodOut: Int32Array;
  /** Rest particle positions I (the ParticleTree's). */
  readonly restParticle: Float64Array;
  /** Scratch: R_k of every node as a quaternion (w, x, y, z), written by updateModelSkin. */
  readonly nodeRotation: Float64Array;
}

/**
 * Binds a mesh of a model's own vertices to the particles. Throws when the binding names a node
 * the skeleton lacks or a weight that is negative or not finite.
 */
export function bindModelSkin(s: TreeSkeleton, tree: ParticleTree, mesh: BoundMesh): ModelSkin {
  const vertexCount = mesh.positions.length / 3;
  if (!Number.isInteger(vertexCount) || mesh.normals.length !== 3 * vertexCount || mesh.skinNodes.length !== 4 * vertexCount || mesh.skinWeights.length !== 4 * vertexCount) {
    throw new RangeError(`a bound mesh needs xyz, a normal and 4 skin nodes and weights per vertex; got ${mesh.positions.length} coordinates, ${mesh.normals.length} normal components, ${mesh.skinNodes.length} nodes, ${mesh.skinWeights.length} weights`);
  }
  const rodIn = new Int32Array(s.nodeCount).fill(-1);
  const rodOut = new Int32Array(s.nodeCount).fill(-1);
  const P = tree.particleOfNode;
  for (let b = 0; b < s.branchCount; b++) {
    const first = s.branchFirstNode[b], last = first + s.branchNodeCount[b] - 1;
    for (let k = first; k <= last; k++) {
      // The rod ending at node k's particle runs from node k - 1 when k is not the base.
      if (k > first) rodIn[k] = P[k];
      // The rod leaving k along the branch ends at node k + 1's particle (never a base: its own particle).
      if (k < last) rodOut[k] = P[k + 1];
    }
  }
  const node = new Int32Array(4 * vertexCount).fill(-1);
  const weight = new Float32Array(4 * vertexCount);
  const used = new Uint8Array(s.nodeCount);
  const SN = mesh.skinNodes, SW = mesh.skinWeights;
  for (let v = 0; v < vertexCount; v++) {
    let sum = 0;
    for (let c = 4 * v; c < 4 * v + 4; c++) {
      const w = SW[c];
      if (!(w >= 0 && Number.isFinite(w))) throw new RangeError(`vertex ${v} has skin weight ${w}; weights must be finite and 0 or more`);
      if (w > 0) sum += w;
    }
    if (!(sum > 0)) continue; // unbound: stays at rest
    for (let c = 4 * v; c < 4 * v + 4; c++) {
      if (!(SW[c] > 0)) continue;
      const k = SN[c];
      if (!(Number.isInteger(k) && k >= 0 && k < s.nodeCount)) throw new RangeError(`vertex ${v} is skinned to node ${k}; the skeleton has ${s.nodeCount}`);
      node[c] = k;
      weight[c] = SW[c] / sum;
      used[k] = 1;
    }
  }
  let usedCount = 0;
  for (let k = 0; k < s.nodeCount; k++) usedCount += used[k];
  const usedNodes = new Int32Array(usedCount);
  for (let k = 0, i = 0; k < s.nodeCount; k++) if (used[k]) usedNodes[i++] = k;
  const nodeRotation = new Float64Array(4 * s.nodeCount);
  for (let k = 0; k < s.nodeCount; k++) nodeRotation[4 * k] = 1;
  return {
    vertexCount,
    restPositions: Float32Array.from(mesh.positions),
    restNormals: Float32Array.from(mesh.normals),
    node, weight, usedNodes, particleOfNode: P, rodIn, rodOut, restParticle: tree.rest, nodeRotation,
  };
}

/**
 * R_k of every used node from the particles' rotations `q` (quaternion w, x, y, z per particle):
 * the normalised mean of the rods into and out of the node along its branch.
 */
function nodeRotations(skin: ModelSkin, q: Float64Array): void {
  const R = skin.nodeRotation, used = skin.usedNodes, rin = skin.rodIn, rout = skin.rodOut;
  for (let i = 0; i < used.length; i++) {
    const k = used[i], a = rin[k], b = rout[k], o = 4 * k;
    if (a < 0 || b < 0) {
      const p = 4 * (a < 0 ? b : a);
      if (p < 0) { R[o] = 1; R[o + 1] = R[o + 2] = R[o + 3] = 0; continue; }
      R[o] = q[p]; R[o + 1] = q[p + 1]; R[o + 2] = q[p + 2]; R[o + 3] = q[p + 3];
      continue;
    }
    const pa = 4 * a, pb = 4 * b;
    // q and -q are one rotation: take the pair on the same side before averaging.
    const sgn = q[pa] * q[pb] + q[pa + 1] * q[pb + 1] + q[pa + 2] * q[pb + 2] + q[pa + 3] * q[pb + 3] < 0 ? -1 : 1;
    const w = q[pa] + sgn * q[pb], x = q[pa + 1] + sgn * q[pb + 1], y = q[pa + 2] + sgn * q[pb + 2], z = q[pa + 3] + sgn * q[pb + 3];
    const l = sqrt(w * w + x * x + y * y + z * z);
    if (l > 1e-12) { R[o] = w / l; R[o + 1] = x / l; R[o + 2] = y / l; R[o + 3] = z / l; } else {
      // Half a turn apart (never in practice): the rod ending at the node.
      R[o] = q[pa]; R[o + 1] = q[pa + 1]; R[o + 2] = q[pa + 2]; R[o + 3] = q[pa + 3];
    }
  }
}

/**
 * Writes every vertex and normal of the model's mesh for the particles' current positions `C`
 * (xyz per particle) and rotations `q` (per particle, the rotation of the rod ending at it) into
 * `positions` and `normals`. Allocation free.
 */
export function updateModelSkin(skin: ModelSkin, C: Float64Array, q: Float64Array, positions: Float32Array, normals: Float32Array): void {
  nodeRotations(skin, q);
  const V = skin.restPositions, N = skin.restNormals, node = skin.node, W = skin.weight, P = skin.particleOfNode, I = skin.restParticle, R = skin.nodeRotation;
  for (let v = 0; v < skin.vertexCount; v++) {
    const o = 3 * v;
    const vx = V[o], vy = V[o + 1], vz = V[o + 2];
    const nx = N[o], ny = N[o + 1], nz = N[o + 2];
    let px = 0, py = 0, pz = 0, mx = 0, my = 0, mz = 0;
    for (let c = 4 * v; c < 4 * v + 4; c++) {
      const k = node[c];
      if (k < 0) continue;
      const w = W[c], p = 3 * P[k], r = 4 * k;
      const qw = R[r], qx = R[r + 1], qy = R[r + 2], qz = R[r + 3];
      // d = v_rest − I_p; (R − 1) d = qw t + q.xyz × t with t = 2 (q.xyz × d).
      const dx = vx - I[p], dy = vy - I[p + 1], dz = vz - I[p + 2];
      let tx = 2 * (qy * dz - qz * dy), ty = 2 * (qz * dx - qx * dz), tz = 2 * (qx * dy - qy * dx);
      px += w * (C[p] - I[p] + qw * tx + (qy * tz - qz * ty));
      py += w * (C[p + 1] - I[p + 1] + qw * ty + (qz * tx - qx * tz));
      pz += w * (C[p + 2] - I[p + 2] + qw * tz + (qx * ty - qy * tx));
      tx = 2 * (qy * nz - qz * ny); ty = 2 * (qz * nx - qx * nz); tz = 2 * (qx * ny - qy * nx);
      mx += w * (qw * tx + (qy * tz - qz * ty));
      my += w * (qw * ty + (qz * tx - qx * tz));
      mz += w * (qw * tz + (qx * ty - qy * tx));
    }
    positions[o] = vx + px;
    positions[o + 1] = vy + py;
    positions[o + 2] = vz + pz;
    let ox = nx + mx, oy = ny + my, oz = nz + mz;
    if (mx !== 0 || my !== 0 || mz !== 0) {
      const l = sqrt(ox * ox + oy * oy + oz * oz);
      if (l > 0) {
        const f = sqrt(nx * nx + ny * ny + nz * nz) / l;
        ox *= f; oy *= f; oz *= f;
      }
    }
    normals[o] = ox;
    normals[o + 1] = oy;
    normals[o + 2] = oz;
  }
}
