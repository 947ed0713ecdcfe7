/**
 * Geometry built once per tree from its skeleton (ARCHITECTURE.md, "The tree"): bark tubes and
 * leaf cards as plain typed arrays, each vertex carrying the binding every method needs.
 * No Babylon here; app/sandbox turns these arrays into meshes.
 */
import type { TreeSkeleton } from "./skeleton";

/** Names of the per-vertex binding attributes, as the meshes and the shaders know them. */
export const BINDING_ATTRIBUTES = {
  /** float: index of the branch the vertex belongs to (for a leaf vertex: its leaf's branch). */
  branchIndex: "branchIndex",
  /** vec4: Habel 2009 §3 w-vector: w[l] = normalised position along the vertex's ancestor of level l (own branch at its own level), 0 beyond its level. */
  wVector: "wVector",
  /** vec4: indices of up to 4 skeleton nodes the vertex is skinned to. */
  skinNodes: "skinNodes",
  /** vec4: skinning weights of those nodes, summing to 1. */
  skinWeights: "skinWeights",
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
}

export interface TreeGeometry {
  readonly bark: MeshArrays;
  /** Null when the skeleton has no leaves. */
  readonly leaves: MeshArrays | null;
  readonly vertexCount: number;
}

export interface GeometryOptions {
  /** Vertices around a bark ring of the trunk; thinner levels use fewer. */
  radialSegments?: number;
}

export function buildTreeGeometry(_skeleton: TreeSkeleton, _options: GeometryOptions = {}): TreeGeometry {
  throw new Error("buildTreeGeometry: not written yet");
}
