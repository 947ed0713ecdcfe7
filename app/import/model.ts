/**
 * A tree model made elsewhere, as the loaders hand it to the import pipeline: its
 * triangles grouped by mesh and material, in the file's own coordinates (right-handed, its own up
 * axis and units), with what the materials say about them. Plain data: no Babylon. load.ts fills
 * it from @babylonjs/loaders; tests fill it from files directly.
 */

/** What a group of triangles is to the tree. */
export type PartRole = "wood" | "leaves" | "ignore";
export const PART_ROLES: readonly PartRole[] = ["wood", "leaves", "ignore"];

/** One mesh's triangles of one material. */
export interface ModelPrimitive {
  /** The mesh's name in the file. */
  readonly mesh: string;
  /** The material's name in the file ("" when it has none). */
  readonly material: string;
  /**
   * The object it belongs to: the top node under the file's root that holds it (a scene's
   * several trees are several objects). "" when the file is one object.
   */
  readonly object: string;
  /** xyz per vertex in the file's coordinates (node transforms applied). */
  readonly positions: Float32Array;
  /** xyz per vertex, unit (computed when the file has none). */
  readonly normals: Float32Array;
  /** uv per vertex, or null. */
  readonly uvs: Float32Array | null;
  /** Three per triangle, counter-clockwise about the normals. */
  readonly indices: Uint32Array;
  /** The material's base colour, sRGB 0..1 (its texture's colour is not known here). */
  readonly colour: readonly [number, number, number];
  /** The material cuts holes by its texture's alpha (glTF MASK or BLEND, an OBJ's map_d). */
  readonly alphaTested: boolean;
  /** The material has a colour texture. */
  readonly textured: boolean;
}

export interface ModelData {
  /** The file's name ("oak.glb"). */
  readonly name: string;
  readonly primitives: readonly ModelPrimitive[];
  /** The up axis the format prescribes (glTF: +y), used when the trunk does not show one; none for OBJ. */
  readonly upConvention?: "+y";
  /** Loader warnings worth passing on (a texture the file names that was not found). */
  readonly warnings: readonly string[];
}

/** Vertices in all primitives. */
export function modelVertexCount(m: ModelData): number {
  let n = 0;
  for (const p of m.primitives) n += p.positions.length / 3;
  return n;
}
