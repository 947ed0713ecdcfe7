/**
 * Leaves ride on their particles (Barron §7.2 lists "leaves and their reaction to world forces" as
 * future work): each leaf card moves rigidly with the rod of the branch segment it grows on, turned
 * by that rod's rotation about the rod's end particle. Plain TypeScript, no Babylon.
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import type { ParticleTree } from "./particles";
import { rotateVec } from "./particles";

export interface LeafRide {
  readonly vertexCount: number;
  /** Particle each vertex rides on. */
  readonly particle: Int32Array;
  /** Rest offset of each vertex from its particle, xyz. */
  readonly offset: Float32Array;
  /** Rest normal, xyz. */
  readonly normal: Float32Array;
}

/**
 * Binds leaf-card vertices (4 per leaf, in leaf order, as tree/geometry builds them) to the
 * particle ending the segment each leaf sits on.
 */
export function bindLeaves(s: TreeSkeleton, tree: ParticleTree, positions: Float32Array, normals: Float32Array): LeafRide {
  const vertexCount = positions.length / 3;
  if (vertexCount !== 4 * s.leafCount) throw new Error(`leaf mesh has ${vertexCount} vertices; expected 4 per leaf (${4 * s.leafCount})`);
  const particle = new Int32Array(vertexCount);
  const offset = new Float32Array(3 * vertexCount);
  for (let i = 0; i < s.leafCount; i++) {
    const b = s.leafBranch[i], first = s.branchFirstNode[b], nn = s.branchNodeCount[b];
    // The segment the leaf is on: nodes k, k + 1 around its x.
    let k = first;
    while (k < first + nn - 2 && s.nodeX[k + 1] < s.leafX[i]) k++;
    const p = tree.particleOfNode[k + 1];
    for (let c = 0; c < 4; c++) {
      const v = 4 * i + c;
      particle[v] = p;
      for (let a = 0; a < 3; a++) offset[3 * v + a] = positions[3 * v + a] - tree.rest[3 * p + a];
    }
  }
  return { vertexCount, particle, offset, normal: Float32Array.from(normals) };
}

const turned = { bx: 0, by: 0, bz: 0 };

/** Vertex = C_p + q_p (rest vertex - I_p); normal = q_p (rest normal). Allocation free. */
export function updateLeaves(ride: LeafRide, C: Float64Array, q: Float64Array, positions: Float32Array, normals: Float32Array): void {
  const P = ride.particle, off = ride.offset, nrm = ride.normal;
  for (let v = 0; v < ride.vertexCount; v++) {
    const p = P[v], o = 3 * v;
    rotateVec(q, 4 * p, off[o], off[o + 1], off[o + 2], turned);
    positions[o] = C[3 * p] + turned.bx;
    positions[o + 1] = C[3 * p + 1] + turned.by;
    positions[o + 2] = C[3 * p + 2] + turned.bz;
    rotateVec(q, 4 * p, nrm[o], nrm[o + 1], nrm[o + 2], turned);
    normals[o] = turned.bx;
    normals[o + 1] = turned.by;
    normals[o + 2] = turned.bz;
  }
}
