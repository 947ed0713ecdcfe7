/**
 * The broken ends of Akagi and Kitajima §3 on screen: when a central-axis link breaks and its two
 * bone particles end up in different pieces (the piece count rose), the break's polygon model
 * (fracture.ts) is made once, as two meshes: the stump's end riding on the rootward station, the
 * piece's on the other, each moved rigidly with its station's frame (skin.ts's station rotation,
 * as the bark's nodes move) by its transform alone, so a frame costs no vertex work and no
 * allocation. Vertex colours: bark dark, wood pale, the core darker. "Restore tree" and dispose take
 * the meshes and their material away.
 */
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Quaternion } from "@babylonjs/core/Maths/math.vector";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { Scene } from "@babylonjs/core/scene";
import type { Rng } from "../../math/rng";
import { toBabylonWinding } from "../../tree/geometry";
import { AXIS, type ParticleTree } from "./particle-tree";
import { DEFAULT_LAYERS, breakFrame, buildFracture, startAngleFor, type FractureLayers } from "./fracture";
import type { SphParticlesParams } from "./params";

/** The break's section a little inside the bark tube, so the two do not fight where they overlap. */
const INSET = 0.97;

/** The layers' shares from the parameters. */
export function layersOf(p: Pick<SphParticlesParams, "coreThickness" | "woodThickness" | "barkThickness">): Pick<FractureLayers, "core" | "wood" | "bark"> {
  return { core: p.coreThickness, wood: p.woodThickness, bark: p.barkThickness };
}

/** One broken end: its mesh, the station it rides on and the section's radius, m. */
export interface FractureEnd {
  readonly mesh: Mesh;
  readonly station: number;
  readonly radius: number;
}

export class FractureMeshes {
  /** Per link: 1 once its fracture was made. */
  private readonly made: Uint8Array;
  private readonly list: FractureEnd[] = [];
  private material: StandardMaterial | null = null;
  private checkedFor = 0;

  constructor(private readonly scene: Scene, private readonly root: TransformNode, private readonly tree: ParticleTree, private readonly rng: Rng) {
    this.made = new Uint8Array(tree.linkCount);
  }

  /** Broken ends on show (two per fractured link). */
  get count(): number {
    return this.list.length;
  }

  /** The ends, stump and piece of each break in turn. */
  get ends(): readonly FractureEnd[] {
    return this.list;
  }

  /** Their meshes. */
  get meshes(): readonly Mesh[] {
    return this.list.map((e) => e.mesh);
  }

  /**
   * After a step: makes the fractures of the axis links broken between two pieces since the last
   * call (`brokenLinks` the breaking counts', checked only when it changed), for positions x,
   * `piece` per particle and the stations' rotations Q (w, x, y, z per particle).
   */
  sync(x: Float64Array, piece: Int32Array, Q: Float64Array, brokenLinks: number, p: SphParticlesParams): void {
    if (brokenLinks === this.checkedFor) return;
    this.checkedFor = brokenLinks;
    const tr = this.tree;
    for (let l = 0; l < tr.linkCount; l++) {
      if (tr.linkKind[l] !== AXIS || !tr.broken[l] || this.made[l]) continue;
      const a = tr.linkA[l], b = tr.linkB[l];
      if (piece[a] === piece[b]) continue;
      this.made[l] = 1;
      this.make(l, a, b, x, Q, p);
    }
  }

  private make(l: number, a: number, b: number, x: Float64Array, Q: Float64Array, p: SphParticlesParams): void {
    const tr = this.tree, X0 = tr.restPosition;
    const origin = [0, 1, 2].map((c) => 0.5 * (X0[3 * a + c] + X0[3 * b + c]));
    const axis = [0, 1, 2].map((c) => X0[3 * b + c] - X0[3 * a + c]);
    // Across the axis: toward the stump station's first ring particle (any direction does).
    const ring = tr.ringCount[a] > 0 ? tr.ringStart[a] : tr.ringCount[b] > 0 ? tr.ringStart[b] : -1;
    const reference = ring >= 0 ? [0, 1, 2].map((c) => X0[3 * ring + c] - X0[3 * (tr.ringCount[a] > 0 ? a : b) + c]) : [1, 0, 0];
    const f = breakFrame(origin, axis, reference);
    // Eq. 11's x₀ on the tension side: the piece's bend now, in the stump station's rest frame.
    const qa = 4 * a, w = Q[qa], qx = -Q[qa + 1], qy = -Q[qa + 2], qz = -Q[qa + 3];
    const dx = x[3 * b] - x[3 * a], dy = x[3 * b + 1] - x[3 * a + 1], dz = x[3 * b + 2] - x[3 * a + 2];
    const tx = 2 * (qy * dz - qz * dy), ty = 2 * (qz * dx - qx * dz), tz = 2 * (qx * dy - qy * dx);
    const rx = dx + w * tx + (qy * tz - qz * ty), ry = dy + w * ty + (qz * tx - qx * tz), rz = dz + w * tz + (qx * ty - qy * tx);
    const rng = this.rng.fork(l);
    const fallback = 2 * Math.PI * rng.next();
    const radius = INSET * (tr.branch[a] === tr.branch[b] ? 0.5 * (tr.radius[a] + tr.radius[b]) : tr.radius[b]);
    const fr = buildFracture({
      radius, axisLength: tr.restLength[l], brittleness: p.brittleness,
      startAngle: startAngleFor(rx * f[3] + ry * f[4] + rz * f[5], rx * f[6] + ry * f[7] + rz * f[8], fallback),
      layers: { ...DEFAULT_LAYERS, ...layersOf(p) }, origin, axis, reference,
    }, rng);
    this.add(`sph-particles fracture ${l} stump`, fr.stump, a, radius);
    this.add(`sph-particles fracture ${l} piece`, fr.piece, b, radius);
  }

  private add(name: string, end: { positions: Float32Array; normals: Float32Array; colors: Float32Array; indices: Uint32Array }, station: number, radius: number): void {
    // Vertices relative to the station at rest: the mesh's transform is the station's motion.
    const X0 = this.tree.restPosition, P = end.positions;
    for (let v = 0; v < P.length; v += 3) {
      P[v] -= X0[3 * station];
      P[v + 1] -= X0[3 * station + 1];
      P[v + 2] -= X0[3 * station + 2];
    }
    const mesh = new Mesh(name, this.scene);
    mesh.material = this.material ??= fractureMaterial(this.scene); // before the geometry (no default material made)
    const vd = new VertexData();
    vd.positions = P;
    vd.normals = end.normals;
    vd.colors = end.colors;
    vd.indices = toBabylonWinding(end.indices);
    vd.applyToMesh(mesh, false);
    mesh.parent = this.root;
    mesh.rotationQuaternion = new Quaternion();
    mesh.isPickable = false;
    mesh.receiveShadows = true;
    mesh.alwaysSelectAsActiveMesh = true; // it moves with its piece beyond any bounds computed once
    this.list.push({ mesh, station, radius });
  }

  /** Moves every end with its station (positions x, rotations Q: w, x, y, z per particle); shown when the bark is. */
  place(x: Float64Array, Q: Float64Array, visible: boolean): void {
    for (const e of this.list) {
      const s = e.station, m = e.mesh;
      m.isVisible = visible;
      m.position.set(x[3 * s], x[3 * s + 1], x[3 * s + 2]);
      m.rotationQuaternion!.set(Q[4 * s + 1], Q[4 * s + 2], Q[4 * s + 3], Q[4 * s]);
    }
  }

  /** Every end away (a restore, a rebuild): the links may break again. */
  clear(): void {
    for (const e of this.list) e.mesh.dispose(false, false);
    this.list.length = 0;
    this.material?.dispose();
    this.material = null;
    this.made.fill(0);
    this.checkedFor = 0;
  }

  dispose(): void {
    this.clear();
  }
}

/** Lit, coloured by its vertices (bark, wood, core). */
function fractureMaterial(scene: Scene): StandardMaterial {
  const m = new StandardMaterial("sph-particles fracture", scene);
  m.diffuseColor = new Color3(1, 1, 1);
  m.specularColor = new Color3(0.05, 0.05, 0.05);
  return m;
}
