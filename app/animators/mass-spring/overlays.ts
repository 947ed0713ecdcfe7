/**
 * What Van Haevre 2006 draws to explain the method, drawn over the tree (rendering group 1, so the
 * leaves do not hide them):
 * - Fig. 2: the mass-spring system, linear springs in brown (segment: mass to parent) and angular
 *   springs in green (the third side of the triangle of a mass, its parent and grandparent, whose
 *   angle eq. 2 holds), following the masses every frame;
 * - Fig. 5: the motion graph of the control point, backbone in blue (the Bézier segments between
 *   successive samples, §5.1), transitions in green (§5.2.1) and the dead ends pruned away in red
 *   (§5.3), with a marker where the control point is now.
 */
import { LinesMesh } from "@babylonjs/core/Meshes/linesMesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { Scene } from "@babylonjs/core/scene";
import type { MotionGraph } from "./motion-graph";
import { edgeBlend, evaluateMass, type PoseBlend } from "./walk";

export const OVERLAY_GROUP = 1;
const LINEAR = [0.86, 0.55, 0.22], ANGULAR = [0.25, 0.85, 0.3];
const BACKBONE = [0.25, 0.5, 1], TRANSITION = [0.2, 0.95, 0.35], PRUNED = [1, 0.22, 0.18];
/** Points drawn per sample interval of a graph edge. */
const STEPS = 4;

function lines(name: string, scene: Scene, parent: TransformNode, positions: Float32Array, colors: Float32Array, indices: Uint32Array, updatable: boolean): LinesMesh {
  const mesh = new LinesMesh(name, scene, null, undefined, undefined, true);
  const vd = new VertexData();
  vd.positions = positions;
  vd.colors = colors;
  vd.indices = indices;
  vd.applyToMesh(mesh, updatable);
  mesh.parent = parent;
  mesh.isPickable = false;
  mesh.renderingGroupId = OVERLAY_GROUP;
  mesh.alwaysSelectAsActiveMesh = true;
  return mesh;
}

/** Fig. 2: linear and angular springs of every mass that has them. */
export class SpringsOverlay {
  readonly mesh: LinesMesh;
  private readonly positions: Float32Array;
  private readonly pairs: Int32Array;

  constructor(scene: Scene, parent: TransformNode, sys: { count: number; parent: Int32Array }) {
    const pairs: number[] = [], colors: number[] = [];
    // Angular first, linear after, so the brown segments are drawn over the green. The first trunk
    // segment's angular spring (to the fixed anchor below the ground) is left out: the anchor is
    // ours, not the tree's.
    for (let i = 2; i < sys.count; i++) {
      const k = sys.parent[sys.parent[i]];
      if (k <= 0) continue;
      pairs.push(i, k);
      colors.push(...ANGULAR, 1, ...ANGULAR, 1);
    }
    for (let i = 2; i < sys.count; i++) {
      pairs.push(i, sys.parent[i]);
      colors.push(...LINEAR, 1, ...LINEAR, 1);
    }
    this.pairs = Int32Array.from(pairs);
    this.positions = new Float32Array(3 * pairs.length);
    const indices = new Uint32Array(pairs.length);
    for (let i = 0; i < indices.length; i++) indices[i] = i;
    this.mesh = lines("mass-spring springs", scene, parent, this.positions, Float32Array.from(colors), indices, true);
    this.mesh.isVisible = false;
  }

  /** Moves the lines to the masses' positions `x` (3 per mass). */
  update(x: ArrayLike<number>): void {
    const p = this.positions, pairs = this.pairs;
    for (let v = 0; v < pairs.length; v++) {
      const m = 3 * pairs[v];
      p[3 * v] = x[m]; p[3 * v + 1] = x[m + 1]; p[3 * v + 2] = x[m + 2];
    }
    this.mesh.updateVerticesData(VertexBuffer.PositionKind, p, false, false);
  }

  dispose(): void {
    this.mesh.dispose(false, true);
  }
}

/**
 * Fig. 5: the control point's motion graph, and a marker on the control point; drawn where it is
 * (a few centimetres across at the top of the tree) and again magnified beside the crown, so its
 * loops and transitions can be seen from where the whole tree is.
 */
export class GraphOverlay {
  readonly mesh: LinesMesh;
  readonly marker: Mesh;
  /** The magnified copy and its marker, and how much larger they are. */
  readonly inset: LinesMesh;
  readonly insetMarker: Mesh;
  readonly magnification: number;
  private readonly rest = new Float64Array(3);

  /** `insetAt`: where the control point's rest position goes in the magnified copy; `insetSize`: its width there. */
  constructor(scene: Scene, parent: TransformNode, graph: MotionGraph, markerRadius: number, insetAt: readonly number[], insetSize: number) {
    const rec = graph.recording, m = graph.control;
    const pos: number[] = [], col: number[] = [], idx: number[] = [];
    const p = new Float64Array(3), b: PoseBlend = { a0: 0, fa: 0, c0: 0, fc: 0, w: 0 };
    const polyline = (points: number, at: (i: number) => void, color: number[]) => {
      const first = pos.length / 3;
      for (let i = 0; i < points; i++) {
        at(i);
        pos.push(p[0], p[1], p[2]);
        col.push(color[0], color[1], color[2], 1);
        if (i > 0) idx.push(first + i - 1, first + i);
      }
    };
    const N = graph.samples;
    for (let n = 0; n < N; n++) {
      if (graph.alive[n]) {
        for (let e = graph.edgeStart[n]; e < graph.edgeStart[n + 1]; e++) {
          const L = graph.edgeL[e], transition = graph.edgeTransition[e] === 1;
          polyline(STEPS * L + 1, (i) => evaluateMass(rec, edgeBlend(graph, e, i / STEPS, b), m, p), transition ? TRANSITION : BACKBONE);
        }
      } else if (n + 1 < N) {
        // A pruned sample: its piece of the original path, in red.
        polyline(STEPS + 1, (i) => evaluateMass(rec, { a0: n, fa: i / STEPS, c0: n, fc: i / STEPS, w: 0 }, m, p), PRUNED);
      }
    }
    this.mesh = lines("mass-spring motion graph", scene, parent, Float32Array.from(pos), Float32Array.from(col), Uint32Array.from(idx), false);
    this.marker = CreateSphere("mass-spring control point", { diameter: 2 * markerRadius, segments: 8 }, scene);
    const mat = new StandardMaterial("mass-spring control point", scene);
    mat.disableLighting = true;
    mat.emissiveColor = new Color3(1, 0.85, 0.2);
    this.marker.material = mat;
    this.marker.parent = parent;
    this.marker.isPickable = false;
    this.marker.renderingGroupId = OVERLAY_GROUP;
    // The magnified copy: x -> k x + t, with the control point's rest position going to insetAt.
    let extent = 1e-6;
    for (let i = 0; i < pos.length; i += 3) {
      extent = Math.max(extent, Math.abs(pos[i] - rec.rest[3 * m]), Math.abs(pos[i + 2] - rec.rest[3 * m + 2]), Math.abs(pos[i + 1] - rec.rest[3 * m + 1]));
    }
    const k = (this.magnification = Math.min(40, Math.max(1, insetSize / (2 * extent))));
    for (let c = 0; c < 3; c++) this.rest[c] = rec.rest[3 * m + c];
    this.inset = this.mesh.clone("mass-spring motion graph (magnified)", parent) as LinesMesh;
    this.inset.scaling.setAll(k);
    this.inset.position.set(insetAt[0] - k * this.rest[0], insetAt[1] - k * this.rest[1], insetAt[2] - k * this.rest[2]);
    this.inset.renderingGroupId = OVERLAY_GROUP;
    this.inset.isPickable = false;
    this.inset.alwaysSelectAsActiveMesh = true;
    this.insetMarker = this.marker.clone("mass-spring control point (magnified)", parent) as Mesh;
    this.insetMarker.scaling.setAll(Math.min(2, k));
    this.insetAt = insetAt;
  }

  private readonly insetAt: readonly number[];

  setVisible(on: boolean): void {
    this.mesh.isVisible = on;
    this.marker.isVisible = on;
    this.inset.isVisible = on;
    this.insetMarker.isVisible = on;
  }

  /** Puts the markers on the control point's position (tree space) and its magnified image. */
  setMarker(x: number, y: number, z: number): void {
    this.marker.position.set(x, y, z);
    const k = this.magnification, r = this.rest, a = this.insetAt;
    this.insetMarker.position.set(a[0] + k * (x - r[0]), a[1] + k * (y - r[1]), a[2] + k * (z - r[2]));
  }

  dispose(): void {
    this.inset.dispose(false, false);
    this.insetMarker.dispose(false, false);
    this.mesh.dispose(false, true);
    this.marker.material?.dispose();
    this.marker.dispose(false, true);
  }
}
