/**
 * Minimal readers of the sample model files for node tests (the app reads them with
 * @babylonjs/loaders): an OBJ's positions and triangles per material (faces fan-triangulated),
 * and a plain glTF 2.0's primitives (positions and indices from its one buffer).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface ModelPiece {
  material: string;
  positions: Float32Array;
  indices: Uint32Array;
}

/** Every material group of an OBJ, sharing the file's vertex list. */
export function readObj(path: string): ModelPiece[] {
  const v: number[] = [];
  const faces = new Map<string, number[]>();
  let material = "";
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const t = line.trim().split(/\s+/);
    if (t[0] === "v") v.push(+t[1], +t[2], +t[3]);
    else if (t[0] === "usemtl") material = t[1];
    else if (t[0] === "f") {
      const idx = t.slice(1).map((s) => {
        const i = parseInt(s.split("/")[0], 10);
        return i < 0 ? v.length / 3 + i : i - 1;
      });
      const list = faces.get(material) ?? [];
      for (let k = 1; k + 1 < idx.length; k++) list.push(idx[0], idx[k], idx[k + 1]);
      faces.set(material, list);
    }
  }
  const positions = Float32Array.from(v);
  return [...faces].map(([m, f]) => ({ material: m, positions, indices: Uint32Array.from(f) }));
}

/** Every primitive of a glTF's first mesh (float positions; 16- or 32-bit indices). */
export function readGltf(path: string): ModelPiece[] {
  const j = JSON.parse(readFileSync(path, "utf8"));
  const bin = readFileSync(join(dirname(path), j.buffers[0].uri));
  const accessor = (i: number) => {
    const a = j.accessors[i], view = j.bufferViews[a.bufferView];
    const offset = bin.byteOffset + (view.byteOffset ?? 0) + (a.byteOffset ?? 0);
    const comps = ({ SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 } as Record<string, number>)[a.type];
    const n = a.count * comps;
    if (a.componentType === 5126) return new Float32Array(bin.buffer.slice(offset, offset + 4 * n));
    if (a.componentType === 5125) return new Uint32Array(bin.buffer.slice(offset, offset + 4 * n));
    return Uint32Array.from(new Uint16Array(bin.buffer.slice(offset, offset + 2 * n)));
  };
  return j.meshes[0].primitives.map((p: { material: number; attributes: { POSITION: number }; indices: number }) => ({
    material: j.materials[p.material].name as string,
    positions: accessor(p.attributes.POSITION) as Float32Array,
    indices: accessor(p.indices) as Uint32Array,
  }));
}
