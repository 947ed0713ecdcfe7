/**
 * What Akagi and Kitajima draw to show the method, drawn over the tree (rendering group 1, so the
 * leaves do not hide them), as point clouds rewritten before each drawn frame while shown:
 * - Fig. 5: the tree's particles by type, bone (red), branch (tan), leaf (green), and the particles
 *   cut off the tree (a broken piece, a fallen leaf) in magenta;
 * - Fig. 6: the SPH wind particles coloured by speed, blue (still) through green to red at 1.5 ×
 *   the mean wind and over.
 */
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { Scene } from "@babylonjs/core/scene";
import { BONE, BRANCH, type ParticleTree } from "./particle-tree";

export const OVERLAY_GROUP = 1;
const BONE_COLOUR = [0.9, 0.2, 0.15], BRANCH_COLOUR = [0.85, 0.68, 0.42], LEAF_COLOUR = [0.25, 0.85, 0.25], LOOSE_COLOUR = [1, 0.2, 1];

/** An updatable point cloud of `count` points. */
class PointCloud {
  readonly mesh: Mesh;
  readonly positions: Float32Array;
  readonly colors: Float32Array;
  private readonly material: StandardMaterial;

  constructor(name: string, scene: Scene, parent: TransformNode, count: number, pointSize: number) {
    this.positions = new Float32Array(3 * count);
    this.colors = new Float32Array(4 * count).fill(1);
    const indices = new Uint32Array(count);
    for (let i = 0; i < count; i++) indices[i] = i;
    const mat = (this.material = new StandardMaterial(name, scene));
    mat.pointsCloud = true;
    mat.pointSize = pointSize;
    mat.disableLighting = true;
    mat.emissiveColor = new Color3(1, 1, 1); // the colour is the vertex colour alone
    mat.backFaceCulling = false;
    this.mesh = new Mesh(name, scene);
    this.mesh.material = mat; // before the geometry: a mesh without one makes the scene build its default material
    const vd = new VertexData();
    vd.positions = this.positions;
    vd.colors = this.colors;
    vd.indices = indices;
    vd.applyToMesh(this.mesh, true);
    this.mesh.parent = parent;
    this.mesh.isPickable = false;
    this.mesh.renderingGroupId = OVERLAY_GROUP;
    this.mesh.alwaysSelectAsActiveMesh = true;
    this.mesh.isVisible = false;
  }

  upload(colors: boolean): void {
    this.mesh.updateVerticesData(VertexBuffer.PositionKind, this.positions, false, false);
    if (colors) this.mesh.updateVerticesData(VertexBuffer.ColorKind, this.colors, false, false);
  }

  dispose(): void {
    this.mesh.dispose(false, false);
    this.material.dispose();
  }
}

/** Fig. 5: the tree's particles coloured by type (loose ones in magenta). */
export class TreeParticlesDisplay {
  private readonly cloud: PointCloud;
  /** The break state the colours were written for (brokenLinks count, -1: none yet). */
  private coloredFor = -1;

  constructor(scene: Scene, parent: TransformNode, private readonly tree: ParticleTree) {
    this.cloud = new PointCloud("sph-particles tree particles", scene, parent, tree.count, 4);
  }

  get mesh(): Mesh {
    return this.cloud.mesh;
  }

  /** Positions x (xyz per particle); `attached` per particle (TreeBreaking.attached), `state` a number that changes when it does. */
  update(x: Float64Array, attached: Uint8Array, state: number): void {
    const p = this.cloud.positions, c = this.cloud.colors, tr = this.tree;
    for (let i = 0; i < 3 * tr.count; i++) p[i] = x[i];
    const recolor = state !== this.coloredFor;
    if (recolor) {
      this.coloredFor = state;
      for (let i = 0; i < tr.count; i++) {
        const col = !attached[i] ? LOOSE_COLOUR : tr.type[i] === BONE ? BONE_COLOUR : tr.type[i] === BRANCH ? BRANCH_COLOUR : LEAF_COLOUR;
        c[4 * i] = col[0]; c[4 * i + 1] = col[1]; c[4 * i + 2] = col[2];
      }
    }
    this.cloud.upload(recolor);
  }

  dispose(): void {
    this.cloud.dispose();
  }
}

/** Fig. 6: the wind particles coloured by speed. */
export class WindParticlesDisplay {
  private readonly cloud: PointCloud;

  constructor(scene: Scene, parent: TransformNode, private readonly count: number) {
    this.cloud = new PointCloud("sph-particles wind particles", scene, parent, count, 3);
  }

  get mesh(): Mesh {
    return this.cloud.mesh;
  }

  /** Positions and velocities (xyz per particle); `full` the speed shown red, m/s. */
  update(x: Float64Array, v: Float64Array, full: number): void {
    const p = this.cloud.positions, c = this.cloud.colors, k = 1 / Math.max(1e-6, full);
    for (let i = 0; i < this.count; i++) {
      p[3 * i] = x[3 * i]; p[3 * i + 1] = x[3 * i + 1]; p[3 * i + 2] = x[3 * i + 2];
      const s = Math.min(1, k * Math.sqrt(v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2));
      // blue -> green -> red
      c[4 * i] = s < 0.5 ? 0 : 2 * s - 1;
      c[4 * i + 1] = s < 0.5 ? 2 * s : 2 - 2 * s;
      c[4 * i + 2] = s < 0.5 ? 1 - 2 * s : 0;
    }
    this.cloud.upload(true);
  }

  dispose(): void {
    this.cloud.dispose();
  }
}
