/**
 * The modal method's per-vertex step and the data it reads, in TypeScript (the twin of modal.glsl.ts).
 * No Babylon here. The CPU composes every skeleton node's displacement d_n = Σ_k q_k φ_k(n) per frame
 * (modes.ts) into `nodeData`, the content of an RGBA32F texture (one texel per node: d.xyz, 0); a
 * vertex moves by the blend of its skin nodes' displacements, p' = p + Σ_i w_i d(node_i) (the binding's
 * skinNodes / skinWeights, tree/geometry.ts). Translation only: the normals are left as they are (the
 * rotations of small deflections turn them by a few degrees at most).
 */
import type { TreeSkeleton } from "../../tree/skeleton";

/** Nodes per texture row. */
export const NODES_PER_ROW = 1024;

export class ModalTwin {
  readonly nodeCount: number;
  readonly textureWidth: number;
  readonly textureHeight: number;
  /** RGBA per node: displacement xyz, 0. */
  readonly nodeData: Float32Array;

  constructor(skeleton: TreeSkeleton) {
    this.nodeCount = skeleton.nodeCount;
    this.textureWidth = Math.max(1, Math.min(NODES_PER_ROW, this.nodeCount));
    this.textureHeight = Math.max(1, Math.ceil(this.nodeCount / NODES_PER_ROW));
    this.nodeData = new Float32Array(4 * this.textureWidth * this.textureHeight);
  }

  /** Copies the nodes' displacements (xyz per node) into the texture data. */
  setDisplacements(d: ArrayLike<number>): void {
    const out = this.nodeData;
    for (let n = 0; n < this.nodeCount; n++) {
      out[4 * n] = d[3 * n];
      out[4 * n + 1] = d[3 * n + 1];
      out[4 * n + 2] = d[3 * n + 2];
    }
  }

  /** A node's displacement as the texture holds it, into out[o..o+2]; zero for an index out of range. */
  nodeDisplacement(node: number, out: Float64Array | Float32Array, o = 0): void {
    if (node < 0 || node >= this.nodeCount) { out[o] = out[o + 1] = out[o + 2] = 0; return; }
    out[o] = this.nodeData[4 * node]; out[o + 1] = this.nodeData[4 * node + 1]; out[o + 2] = this.nodeData[4 * node + 2];
  }

  /**
   * One vertex: p + Σ_{i<4} w_i d(node_i), the normal unchanged, into out (position xyz, normal xyz).
   * The same arithmetic as mdDeform in modal.glsl.ts (node indices rounded, float32 data).
   */
  deformVertex(position: ArrayLike<number>, normal: ArrayLike<number>, skinNodes: ArrayLike<number>, skinWeights: ArrayLike<number>, out: Float64Array): void {
    let x = position[0], y = position[1], z = position[2];
    const D = this.nodeData;
    for (let i = 0; i < 4; i++) {
      const w = skinWeights[i];
      const n = Math.floor(skinNodes[i] + 0.5);
      if (w === 0 || n < 0 || n >= this.nodeCount) continue;
      x += w * D[4 * n];
      y += w * D[4 * n + 1];
      z += w * D[4 * n + 2];
    }
    out[0] = x; out[1] = y; out[2] = z;
    out[3] = normal[0]; out[4] = normal[1]; out[5] = normal[2];
  }
}
