/**
 * A mesh whose positions and normals a CPU method rewrites every frame (lsystem-particles'
 * skins, mass-spring's skinned copies), shown in place of a tree part with `tree.substitute`.
 */
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import type { Material } from "@babylonjs/core/Materials/material";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { Scene } from "@babylonjs/core/scene";
import { BINDING_ATTRIBUTES } from "../tree/geometry";

export interface LiveMeshData {
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  /** In Babylon's winding (see tree/geometry's toBabylonWinding). */
  indices: Uint32Array;
  /** Skeleton branch of each vertex, for picking. */
  branchIndex: Float32Array;
}

/** Updatable positions and normals, everything else fixed; hidden until the tree view shows it. */
export function liveMesh(name: string, scene: Scene, parent: TransformNode, data: LiveMeshData, material: Material): Mesh {
  const mesh = new Mesh(name, scene);
  const vd = new VertexData();
  vd.positions = data.positions;
  vd.normals = data.normals;
  vd.uvs = data.uvs;
  vd.indices = data.indices;
  vd.applyToMesh(mesh, true);
  mesh.setVerticesData(BINDING_ATTRIBUTES.branchIndex, data.branchIndex, false, 1);
  mesh.material = material;
  mesh.parent = parent;
  mesh.alwaysSelectAsActiveMesh = true; // it moves beyond any bounds computed once
  mesh.isVisible = false; // the tree view shows it when it takes the part's place
  return mesh;
}
