/**
 * The wind primitives placed in the scene (blast, vortex, fan; app/wind/primitives.ts), as people
 * and scripts place them: each validated (a RangeError names the allowed range), given an id, put
 * in the shared WindField (so every method feels it through sample(), and the vertex-shader
 * methods through primitivesAt()), shown by a marker on the ground (primitive-markers.ts), and kept
 * in the page address. A primitive's start is the clock's time when it was placed (or the start
 * given): the fixed-step clock alone times it, so the same start gives the same frames, and a
 * clock restarted at 0 plays it again at the same time.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { Camera } from "@babylonjs/core/Cameras/camera";
import { Matrix } from "@babylonjs/core/Maths/math.vector";
import type { WindField } from "../wind/wind-field";
import { createPrimitive, formatPrimitives, MAX_WIND_PRIMITIVES, PRIMITIVE_REACH, validatePrimitive, type WindPrimitiveInfo, type WindPrimitiveSpec } from "../wind/primitives";
import type { SandboxChange } from "./events";
import { PrimitiveMarkers } from "./primitive-markers";

export class WindPrimitives {
  private readonly items: WindPrimitiveInfo[] = [];
  private nextId = 1;
  private readonly markers: PrimitiveMarkers | null;

  /** `time()`: the host's clock; `scene`: where the markers are drawn (null: none, an off-screen sandbox's). */
  constructor(private readonly field: WindField, private readonly time: () => number, private readonly changed: (what: SandboxChange) => void, scene: Scene | null) {
    this.markers = scene ? new PrimitiveMarkers(scene, time) : null;
  }

  /** The primitives in the scene, in the order placed (copies). */
  list(): WindPrimitiveInfo[] {
    return this.items.map((p) => ({ ...p }));
  }

  get count(): number {
    return this.items.length;
  }

  /** Places one (validated; start: the clock's time now unless given); returns its id. */
  add(spec: WindPrimitiveSpec): number {
    const p = validatePrimitive(spec, this.time());
    if (this.items.length >= MAX_WIND_PRIMITIVES) throw new RangeError(`windPrimitive: at most ${MAX_WIND_PRIMITIVES} wind primitives at once; remove one first (the ids are: ${this.ids()})`);
    const info = { id: this.nextId++, ...p };
    this.items.push(info);
    this.apply();
    return info.id;
  }

  /** Moves one to (x, z) (a fan may also turn: direction); its start, strength, radius and duration stay. */
  move(id: number, to: { x: number; z: number; direction?: number }): WindPrimitiveInfo {
    const i = this.indexOf(id, "moveWindPrimitive");
    const { id: _, ...old } = this.items[i];
    if (typeof to !== "object" || to === null) throw new RangeError(`moveWindPrimitive(id, { x, z, direction? }); got ${JSON.stringify(to)}`);
    const p = validatePrimitive({ ...old, x: to.x, z: to.z, direction: to.direction ?? old.direction }, this.time(), "moveWindPrimitive");
    this.items[i] = { id, ...p };
    this.apply();
    return { ...this.items[i] };
  }

  remove(id: number): void {
    this.items.splice(this.indexOf(id, "removeWindPrimitive"), 1);
    this.apply();
  }

  /** Replaces them all (the page address at start): every one validated first; nothing changes when one fails. Ids start again from 1. */
  restore(specs: readonly WindPrimitiveSpec[]): void {
    if (specs.length > MAX_WIND_PRIMITIVES) throw new RangeError(`at most ${MAX_WIND_PRIMITIVES} wind primitives; got ${specs.length}`);
    const settled = specs.map((s, k) => {
      try {
        return validatePrimitive(s, this.time());
      } catch (e) {
        throw new RangeError(`wind primitive ${k + 1}: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
    this.items.length = 0;
    this.nextId = 1;
    for (const p of settled) this.items.push({ id: this.nextId++, ...p });
    this.apply();
  }

  /** The page address's text of them ("" when there are none). */
  text(): string {
    return formatPrimitives(this.items);
  }

  /** What a video's caption says of them ("" when there are none). */
  caption(): string {
    const n = this.items.length;
    return n === 0 ? "" : ` + ${n} wind primitive${n > 1 ? "s" : ""} (${this.items.map((p) => p.kind).join(", ")})`;
  }

  private ids(): string {
    return this.items.length ? this.items.map((p) => p.id).join(", ") : "none";
  }

  private indexOf(id: number, call: string): number {
    const i = this.items.findIndex((p) => p.id === id);
    if (i < 0) throw new RangeError(`${call}: no wind primitive with id ${JSON.stringify(id)}; the ids are: ${this.ids()}`);
    return i;
  }

  /** The field's primitives and the markers follow the list; listeners (panel, address) are told. */
  private apply(): void {
    const prims = this.field.primitives;
    prims.length = 0;
    for (const p of this.items) prims.push(createPrimitive(p));
    this.markers?.sync(this.items);
    this.changed("primitives");
  }

  dispose(): void {
    this.markers?.dispose();
  }
}

/**
 * The point on the ground (y = 0) under canvas point (x, y) (CSS pixels) seen through `camera`,
 * or null when the ray misses the ground (at or above the horizon, or past PRIMITIVE_REACH).
 */
export function groundPoint(scene: Scene, camera: Camera | null, x: number, y: number): { x: number; z: number } | null {
  if (!camera) return null;
  const ray = scene.createPickingRay(x, y, Matrix.Identity(), camera);
  if (!(ray.direction.y < -1e-6)) return null;
  const s = -ray.origin.y / ray.direction.y;
  if (s < 0) return null;
  const gx = ray.origin.x + s * ray.direction.x, gz = ray.origin.z + s * ray.direction.z;
  if (Math.abs(gx) > PRIMITIVE_REACH || Math.abs(gz) > PRIMITIVE_REACH) return null;
  return { x: Math.round(gx * 100) / 100, z: Math.round(gz * 100) / 100 };
}
