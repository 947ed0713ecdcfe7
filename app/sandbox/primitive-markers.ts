/**
 * What shows where the wind primitives stand: a flat marker on the ground for each (a blast's
 * burst, a vortex's ring with arrowheads turning its way, a fan's bar and arrow), in every view,
 * never picked and casting no shadow; and a blast's front as a ring that grows with it on the
 * host's clock while it still blows. `sync(list)` makes the markers match the list;
 * `dispose()` removes them, their materials and the frame observer.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { Observer } from "@babylonjs/core/Misc/observable";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import { blastFrontRadius, type WindPrimitiveInfo, type WindPrimitiveKind } from "../wind/primitives";

/** Height of the markers over the ground, m (clear of it, under any tree's foliage). */
const LIFT = 0.04;
const COLOURS: Record<WindPrimitiveKind | "front", string> = { blast: "#ff6a3d", vortex: "#4fd2ff", fan: "#c4f04a", front: "#ffb070" };

/** Flat triangles on the ground, in a marker's own frame (x, z), built up then turned into a mesh. */
class Flat {
  readonly xz: number[] = [];

  tri(ax: number, az: number, bx: number, bz: number, cx: number, cz: number): void {
    this.xz.push(ax, az, bx, bz, cx, cz);
  }

  /** An annulus from r0 to r1 around (cx, cz). */
  ring(cx: number, cz: number, r0: number, r1: number, segments = 64): void {
    for (let i = 0; i < segments; i++) {
      const a = (2 * Math.PI * i) / segments, b = (2 * Math.PI * (i + 1)) / segments;
      const ca = Math.cos(a), sa = Math.sin(a), cb = Math.cos(b), sb = Math.sin(b);
      this.tri(cx + r0 * ca, cz + r0 * sa, cx + r1 * ca, cz + r1 * sa, cx + r1 * cb, cz + r1 * sb);
      this.tri(cx + r0 * ca, cz + r0 * sa, cx + r1 * cb, cz + r1 * sb, cx + r0 * cb, cz + r0 * sb);
    }
  }

  /** A rectangle along (ux, uz) from `from` to `to`, `width` across, and an arrowhead; in the frame turned by (ux, uz). */
  arrow(ux: number, uz: number, from: number, to: number, width: number, head: number): void {
    const px = -uz, pz = ux, h = width / 2, end = to - head;
    const at = (s: number, c: number): [number, number] => [s * ux + c * px, s * uz + c * pz];
    const [ax, az] = at(from, -h), [bx, bz] = at(end, -h), [cx, cz] = at(end, h), [dx, dz] = at(from, h);
    this.tri(ax, az, bx, bz, cx, cz);
    this.tri(ax, az, cx, cz, dx, dz);
    const [ex, ez] = at(end, -head * 0.6), [fx, fz] = at(to, 0), [gx, gz] = at(end, head * 0.6);
    this.tri(ex, ez, fx, fz, gx, gz);
  }

  mesh(name: string, scene: Scene): Mesh {
    const n = this.xz.length / 2;
    const positions = new Float32Array(3 * n), normals = new Float32Array(3 * n), indices = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      positions[3 * i] = this.xz[2 * i];
      positions[3 * i + 2] = this.xz[2 * i + 1];
      normals[3 * i + 1] = 1;
      indices[i] = i;
    }
    const vd = new VertexData();
    vd.positions = positions;
    vd.normals = normals;
    vd.indices = indices;
    const m = new Mesh(name, scene);
    vd.applyToMesh(m);
    m.isPickable = false;
    m.receiveShadows = false;
    return m;
  }
}

/** The marker of one primitive, in its own frame (origin at its centre). */
function markerShape(p: WindPrimitiveInfo): Flat {
  const f = new Flat();
  if (p.kind === "blast") {
    f.ring(0, 0, 0.8, 1.2, 32);
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4;
      f.arrow(Math.cos(a), Math.sin(a), 1.4, 2.8, 0.25, 0.7);
    }
  } else if (p.kind === "vortex") {
    const w = Math.min(0.6, Math.max(0.12, 0.04 * p.radius)), head = Math.max(0.6, 0.15 * p.radius);
    f.ring(0, 0, p.radius - w / 2, p.radius + w / 2);
    f.ring(0, 0, 0, Math.max(0.3, w), 16);
    // Arrowheads on the ring, pointing the way it turns: at offset (r, 0) the wind blows toward +z.
    for (let k = 0; k < 4; k++) {
      const a = (k * Math.PI) / 2, cx = p.radius * Math.cos(a), cz = p.radius * Math.sin(a);
      const tx = -Math.sin(a), tz = Math.cos(a), nx = Math.cos(a), nz = Math.sin(a);
      f.tri(cx + tx * head, cz + tz * head, cx - nx * head * 0.6, cz - nz * head * 0.6, cx + nx * head * 0.6, cz + nz * head * 0.6);
    }
  } else {
    const th = (p.direction * Math.PI) / 180, ux = Math.cos(th), uz = Math.sin(th);
    // The fan: a bar across its jet's width, and an arrow the way it blows.
    f.arrow(-uz, ux, -p.radius, p.radius, 0.3, 0);
    f.arrow(ux, uz, 0, Math.max(3, Math.min(12, 2.5 * p.radius)), Math.min(0.8, Math.max(0.25, 0.2 * p.radius)), Math.min(2.5, Math.max(0.8, 0.4 * p.radius)));
  }
  return f;
}

interface Marker {
  info: WindPrimitiveInfo;
  /** The text the marker was built from: rebuilt when it changes. */
  key: string;
  body: Mesh;
  front: Mesh | null;
}

export class PrimitiveMarkers {
  private readonly markers: Marker[] = [];
  private readonly materials = new Map<string, StandardMaterial>();
  private observer: Observer<Scene> | null = null;

  /** `time()`: the host's clock (a blast's front is drawn where it is then). */
  constructor(private readonly scene: Scene, private readonly time: () => number) {}

  /** Makes the markers match `list` (by id): new ones built, moved or changed ones rebuilt, removed ones disposed. */
  sync(list: readonly WindPrimitiveInfo[]): void {
    for (let i = this.markers.length - 1; i >= 0; i--) {
      const m = this.markers[i];
      const now = list.find((p) => p.id === m.info.id);
      if (!now || JSON.stringify(now) !== m.key) {
        this.disposeMarker(m);
        this.markers.splice(i, 1);
      }
    }
    for (const p of list) if (!this.markers.some((m) => m.info.id === p.id)) this.markers.push(this.build(p));
    if (this.markers.length === 0) this.release();
    else if (!this.observer) this.observer = this.scene.onBeforeRenderObservable.add(() => this.fronts());
    this.fronts();
  }

  private material(kind: keyof typeof COLOURS): StandardMaterial {
    let m = this.materials.get(kind);
    if (!m) {
      m = new StandardMaterial(`wind-primitive ${kind}`, this.scene);
      m.disableLighting = true;
      m.emissiveColor = Color3.FromHexString(COLOURS[kind]);
      m.backFaceCulling = false;
      m.zOffset = -2;
      this.materials.set(kind, m);
    }
    return m;
  }

  private build(p: WindPrimitiveInfo): Marker {
    const body = markerShape(p).mesh(`wind-primitive ${p.id} ${p.kind}`, this.scene);
    body.position.set(p.x, LIFT, p.z);
    body.material = this.material(p.kind);
    let front: Mesh | null = null;
    if (p.kind === "blast") {
      const f = new Flat();
      f.ring(0, 0, 0.96, 1.04, 96);
      front = f.mesh(`wind-primitive ${p.id} front`, this.scene);
      front.position.set(p.x, LIFT + 0.01, p.z);
      front.material = this.material("front");
      front.setEnabled(false);
    }
    return { info: { ...p }, key: JSON.stringify(p), body, front };
  }

  /** Each blast's front where it is now (hidden before it starts and once it has faded). No allocation. */
  private fronts(): void {
    const t = this.time();
    for (let i = 0; i < this.markers.length; i++) {
      const m = this.markers[i];
      if (!m.front) continue;
      const r = blastFrontRadius(m.info, t);
      const on = r > 0.05;
      if (m.front.isEnabled() !== on) m.front.setEnabled(on);
      if (on) m.front.scaling.set(r, 1, r);
    }
  }

  private disposeMarker(m: Marker): void {
    m.body.dispose();
    m.front?.dispose();
  }

  /** With no marker left: the materials and the frame observer go too. */
  private release(): void {
    this.observer?.remove();
    this.observer = null;
    for (const m of this.materials.values()) m.dispose();
    this.materials.clear();
  }

  dispose(): void {
    for (const m of this.markers.splice(0)) this.disposeMarker(m);
    this.release();
  }
}
