/**
 * Minimal readers of the sample model files for node tests (the app reads them with
 * @babylonjs/loaders): an OBJ's positions and triangles per material (faces fan-triangulated),
 * and a glTF 2.0's primitives (positions, indices, normals and uvs from its one buffer), plain
 * (.gltf + .bin) or binary (.glb).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface ModelPiece {
  material: string;
  /** The glTF mesh's name (glTF and GLB only). */
  mesh?: string;
  positions: Float32Array;
  indices: Uint32Array;
  /** glTF and GLB only, where the primitive has them. */
  normals?: Float32Array;
  uvs?: Float32Array;
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

/** Every primitive of every mesh of a glTF with its binary in one external buffer (float positions; 16- or 32-bit indices). */
export function readGltf(path: string): ModelPiece[] {
  const j = JSON.parse(readFileSync(path, "utf8"));
  return gltfPieces(j, readFileSync(join(dirname(path), j.buffers[0].uri)));
}

/** A GLB's two chunks: its JSON and its binary chunk (checked: magic "glTF", version 2, lengths, 4-byte alignment). */
export interface Glb {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  bin: Uint8Array;
}

/** Parses a binary glTF 2.0 (GLB) file: the 12-byte header, the JSON chunk and the BIN chunk. */
export function parseGlb(pathOrBytes: string | Uint8Array): Glb {
  const bytes = typeof pathOrBytes === "string" ? new Uint8Array(readFileSync(pathOrBytes)) : pathOrBytes;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string) => {
    throw new Error(`not a valid GLB: ${why}`);
  };
  if (bytes.length < 20) fail("shorter than its header");
  if (dv.getUint32(0, true) !== 0x46546c67) fail("magic is not \"glTF\"");
  if (dv.getUint32(4, true) !== 2) fail(`version ${dv.getUint32(4, true)}, not 2`);
  if (dv.getUint32(8, true) !== bytes.length) fail(`header says ${dv.getUint32(8, true)} bytes, the file has ${bytes.length}`);
  const jsonLength = dv.getUint32(12, true);
  if (dv.getUint32(16, true) !== 0x4e4f534a) fail("first chunk is not JSON");
  if (jsonLength % 4 !== 0) fail("JSON chunk not padded to 4 bytes");
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  let bin: Uint8Array = new Uint8Array(0);
  const at = 20 + jsonLength;
  if (at < bytes.length) {
    const binLength = dv.getUint32(at, true);
    if (dv.getUint32(at + 4, true) !== 0x004e4942) fail("second chunk is not BIN");
    if (binLength % 4 !== 0) fail("BIN chunk not padded to 4 bytes");
    if (at + 8 + binLength !== bytes.length) fail("BIN chunk does not end the file");
    bin = bytes.subarray(at + 8, at + 8 + binLength);
  }
  return { json, bin };
}

/** Every primitive of every mesh of a GLB (as readGltf), from its path or bytes. */
export function readGlb(pathOrBytes: string | Uint8Array): ModelPiece[] {
  const { json, bin } = parseGlb(pathOrBytes);
  return gltfPieces(json, bin);
}

/** The bytes of a GLB's image `i` (one held in a buffer view). */
export function glbImage(glb: Glb, i: number): Uint8Array {
  const view = glb.json.bufferViews[glb.json.images[i].bufferView];
  return glb.bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
}

/** The typed array of glTF accessor `i` over `bin` (the buffer 0 every view refers to; tightly packed views only). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function gltfAccessor(j: any, bin: Uint8Array, i: number): Float32Array | Uint32Array {
  const a = j.accessors[i], view = j.bufferViews[a.bufferView];
  const offset = bin.byteOffset + (view.byteOffset ?? 0) + (a.byteOffset ?? 0);
  const comps = ({ SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 } as Record<string, number>)[a.type];
  const size = a.componentType === 5123 ? 2 : 4;
  if (view.byteStride !== undefined && view.byteStride !== comps * size) throw new Error(`accessor ${i}: interleaved views are not read here`);
  const n = a.count * comps;
  if (a.componentType === 5126) return new Float32Array(bin.buffer.slice(offset, offset + 4 * n));
  if (a.componentType === 5125) return new Uint32Array(bin.buffer.slice(offset, offset + 4 * n));
  if (a.componentType === 5123) return Uint32Array.from(new Uint16Array(bin.buffer.slice(offset, offset + 2 * n)));
  throw new Error(`accessor ${i}: component type ${a.componentType} is not read here`);
}

interface GltfPrimitive {
  material: number;
  attributes: { POSITION: number; NORMAL?: number; TEXCOORD_0?: number };
  indices: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function gltfPieces(j: any, bin: Uint8Array): ModelPiece[] {
  return (j.meshes as { name?: string; primitives: GltfPrimitive[] }[]).flatMap((mesh) => mesh.primitives.map((p) => ({
    material: j.materials[p.material].name as string,
    mesh: mesh.name,
    positions: gltfAccessor(j, bin, p.attributes.POSITION) as Float32Array,
    indices: gltfAccessor(j, bin, p.indices) as Uint32Array,
    normals: p.attributes.NORMAL === undefined ? undefined : gltfAccessor(j, bin, p.attributes.NORMAL) as Float32Array,
    uvs: p.attributes.TEXCOORD_0 === undefined ? undefined : gltfAccessor(j, bin, p.attributes.TEXCOORD_0) as Float32Array,
  })));
}
