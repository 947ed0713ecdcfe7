/**
 * The tree's own meshes (bark, leaves, skeleton lines) as the mass-spring method shows them:
 * updatable copies skinned to the masses through the binding every vertex carries (skinning.ts),
 * shown in the parts' place (TreeInstance.substitute) with the sandbox's materials, so the render
 * modes, the bark texture, shadows and picking work as for every method.
 */
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import type { Scene } from "@babylonjs/core/scene";
import type { AnimatorContext, TreeInstance, TreePart } from "../animator";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import { liveMesh } from "../live-mesh";
import { skinVertices, type NodeFrames, type SkinBinding } from "./skinning";

/** A tree part's copy whose positions and normals are rewritten from the masses. */
interface LiveMesh {
  readonly role: TreePart["role"];
  readonly mesh: Mesh;
  readonly bind: SkinBinding;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  /** Simulation frame the buffers were last written for. */
  written: number;
}

/** An updatable copy of a part's mesh (indices already in Babylon's winding), hidden until substituted. */
function copyPart(part: TreePart, scene: Scene, parent: AnimatorContext["root"]): LiveMesh {
  const src = part.mesh;
  const read = (kind: string) => {
    const d = src.getVerticesData(kind);
    if (!d) throw new Error(`the tree's ${part.role} mesh has no ${kind} data`);
    return Float32Array.from(d);
  };
  const bind: SkinBinding = {
    positions: read(VertexBuffer.PositionKind),
    normals: read(VertexBuffer.NormalKind),
    skinNodes: read(BINDING_ATTRIBUTES.skinNodes),
    skinWeights: read(BINDING_ATTRIBUTES.skinWeights),
  };
  const positions = Float32Array.from(bind.positions), normals = Float32Array.from(bind.normals);
  const mesh = liveMesh(`mass-spring ${part.role}`, scene, parent, {
    positions, normals, uvs: read(VertexBuffer.UVKind), indices: Uint32Array.from(src.getIndices()!), branchIndex: read(BINDING_ATTRIBUTES.branchIndex),
  }, part.material);
  return { role: part.role, mesh, bind, positions, normals, written: -1 };
}

export class SkinnedParts {
  private live: LiveMesh[] = [];
  private framesFor = -1;
  /** Vertices of all the copies. */
  readonly vertices: number;

  /** Copies every part of the tree and shows the copies in the parts' place. */
  constructor(private readonly tree: TreeInstance, scene: Scene, root: AnimatorContext["root"]) {
    for (const part of tree.parts) this.live.push(copyPart(part, scene, root));
    for (const l of this.live) tree.substitute(l.role, l.mesh);
    this.vertices = this.live.reduce((n, l) => n + l.positions.length / 3, 0);
  }

  /** Skins the copies on show to the masses at `positions`, once per simulation frame. */
  write(frame: number, frames: NodeFrames, positions: Float64Array): void {
    for (const l of this.live) {
      if (!l.mesh.isVisible || l.written === frame) continue;
      if (this.framesFor !== frame) {
        frames.update(positions);
        this.framesFor = frame;
      }
      skinVertices(frames, l.bind, l.positions, l.normals);
      // Bounds follow the moving tree (the sun fits its shadow frustum to them; picking tests them).
      l.mesh.updateVerticesData(VertexBuffer.PositionKind, l.positions, true, false);
      l.mesh.updateVerticesData(VertexBuffer.NormalKind, l.normals, false, false);
      l.written = frame;
    }
  }

  /** Puts the tree's own parts back and disposes of the copies. */
  dispose(): void {
    for (const l of this.live) {
      this.tree.substitute(l.role, null);
      l.mesh.dispose(false, false);
    }
    this.live = [];
  }
}
