/**
 * Writes a tree's meshes as model files other programs read (our own sample models in
 * assets/models/own_*, later the app's "export"): binary glTF 2.0 (GLB) and Wavefront OBJ + MTL.
 * Plain TypeScript over typed arrays: no Babylon, no node modules (TextEncoder and DataView only),
 * so it runs in the browser too. The output is a pure function of the input (no dates, no
 * randomness): the same model gives the same bytes.
 *
 * Conventions of the input (those of app/tree/geometry.ts): right-handed, +y up, metres;
 * triangles counter-clockwise seen from the side their normal points to; uv (0, 0) at the
 * texture's first row (textures.ts: row 0 is v = 0), which is glTF's convention too. So the GLB
 * gets the arrays as they are; the OBJ gets v flipped (OBJ's v = 0 is the image's bottom row).
 */
import { pad4, writeGlbChunks } from "../export/glb";

/** A texture: the image file's name (the OBJ's MTL refers to it; GLB image name) and its PNG bytes. */
export interface TextureToWrite {
  /** File name without directories, e.g. "bark.png". */
  fileName: string;
  /** The PNG file's bytes, embedded as they are in a GLB (the OBJ writer only names the file; the caller writes it). */
  png: Uint8Array;
  /** Sampler wrap mode in u and v: "repeat" (default; bark's v runs past 1) or "clamp" (leaf cards). */
  wrap?: "repeat" | "clamp";
}

export interface MaterialToWrite {
  name: string;
  /** Linear RGB, 0..1: glTF baseColorFactor, MTL Kd. It multiplies the texture where there is one, so a textured material's is usually [1, 1, 1]. */
  colour: [number, number, number];
  texture?: TextureToWrite;
  /** Alpha test (leaves): texels whose alpha is below this are cut out. glTF alphaMode "MASK" + alphaCutoff; MTL map_d (the texture's alpha). Absent: opaque. */
  alphaCutoff?: number;
  /** Both sides drawn (leaf cards). glTF doubleSided; OBJ/MTL has no such flag (a comment says so). */
  doubleSided?: boolean;
}

export interface MeshToWrite {
  /** The mesh's (and its node's, or the OBJ object's) name, e.g. "bark", "leaves". */
  name: string;
  material: MaterialToWrite;
  /** xyz per vertex. */
  positions: Float32Array;
  /** xyz per vertex, unit length. */
  normals: Float32Array;
  /** uv per vertex (v = 0 at the texture's first row). */
  uvs: Float32Array;
  /** Three per triangle, counter-clockwise about the normals. */
  indices: Uint32Array;
}

/**
 * A model to write: one mesh per part (one node, one mesh, one primitive each in a GLB; one `o`
 * group with one `usemtl` in an OBJ). Materials are told apart by name (meshes whose materials
 * share a name share the first such material) and textures by fileName: each is written once.
 */
export interface ModelToWrite {
  meshes: MeshToWrite[];
}

/** asset.generator of a GLB, and the first comment of an OBJ and MTL. */
export const GENERATOR = "Tree Wind Sandbox";

const FLOAT = 5126;
const UNSIGNED_INT = 5125;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const TRIANGLES = 4;
const REPEAT = 10497;
const CLAMP_TO_EDGE = 33071;
const LINEAR = 9729;
const LINEAR_MIPMAP_LINEAR = 9987;

/** Checks one mesh's arrays agree with each other; returns its vertex count. */
function checkMesh(m: MeshToWrite): number {
  const n = m.positions.length / 3;
  if (!Number.isInteger(n) || n === 0) throw new RangeError(`mesh "${m.name}": positions need xyz per vertex and at least one vertex; got ${m.positions.length} numbers`);
  if (m.normals.length !== 3 * n) throw new RangeError(`mesh "${m.name}": ${n} vertices need ${3 * n} normal components; got ${m.normals.length}`);
  if (m.uvs.length !== 2 * n) throw new RangeError(`mesh "${m.name}": ${n} vertices need ${2 * n} uv components; got ${m.uvs.length}`);
  if (m.indices.length === 0 || m.indices.length % 3 !== 0) throw new RangeError(`mesh "${m.name}": indices need three per triangle and at least one triangle; got ${m.indices.length}`);
  for (let i = 0; i < m.indices.length; i++) {
    if (m.indices[i] >= n) throw new RangeError(`mesh "${m.name}": triangle ${Math.floor(i / 3)} uses vertex ${m.indices[i]}, but the mesh has ${n}`);
  }
  return n;
}

/** Distinct values of `key` over `items`, in first-seen order, and each item's index among them. */
function distinct<T, K>(items: T[], key: (t: T) => K): { values: T[]; indexOf: (t: T) => number } {
  const first = new Map<K, number>();
  const values: T[] = [];
  for (const t of items) {
    const k = key(t);
    if (!first.has(k)) {
      first.set(k, values.length);
      values.push(t);
    }
  }
  return { values, indexOf: (t) => first.get(key(t))! };
}

/**
 * A binary glTF 2.0 file (GLB): a 12-byte header, a JSON chunk (padded with spaces) and one BIN
 * chunk (padded with zeros) holding, per mesh, its positions (with min and max), normals, uvs
 * (float) and indices (uint32), then the PNG images; every buffer view starts on a 4-byte
 * boundary. One scene, one node per mesh (named as the mesh), one primitive per mesh. Materials
 * are metallic-roughness (metallic 0, roughness 1) with baseColorFactor, an optional
 * baseColorTexture, alphaMode "MASK" + alphaCutoff when alphaCutoff is set, and doubleSided.
 */
export function writeGlb(model: ModelToWrite): Uint8Array<ArrayBuffer> {
  if (model.meshes.length === 0) throw new RangeError("a model needs at least one mesh");
  const counts = model.meshes.map(checkMesh);
  const materials = distinct(model.meshes.map((m) => m.material), (m) => m.name);
  const textured = materials.values.filter((m) => m.texture).map((m) => m.texture!);
  const images = distinct(textured, (t) => t.fileName);

  // Lay out the binary chunk: every view 4-byte aligned.
  const views: { byteOffset: number; byteLength: number; target?: number; write: (dv: DataView, at: number) => void }[] = [];
  let binLength = 0;
  const addView = (byteLength: number, write: (dv: DataView, at: number) => void, target?: number): number => {
    binLength = pad4(binLength);
    views.push({ byteOffset: binLength, byteLength, target, write });
    binLength += byteLength;
    return views.length - 1;
  };
  const floats = (a: Float32Array) => (dv: DataView, at: number) => {
    for (let i = 0; i < a.length; i++) dv.setFloat32(at + 4 * i, a[i], true);
  };
  const uints = (a: Uint32Array) => (dv: DataView, at: number) => {
    for (let i = 0; i < a.length; i++) dv.setUint32(at + 4 * i, a[i], true);
  };

  const accessors: object[] = [];
  const meshes: object[] = [];
  model.meshes.forEach((m, k) => {
    const n = counts[k];
    const { min, max } = bounds(m.positions);
    const attr = (a: Float32Array, type: "VEC2" | "VEC3", extra: object = {}) => {
      accessors.push({ bufferView: addView(4 * a.length, floats(a), ARRAY_BUFFER), componentType: FLOAT, count: n, type, ...extra });
      return accessors.length - 1;
    };
    const POSITION = attr(m.positions, "VEC3", { min, max });
    const NORMAL = attr(m.normals, "VEC3");
    const TEXCOORD_0 = attr(m.uvs, "VEC2");
    accessors.push({ bufferView: addView(4 * m.indices.length, uints(m.indices), ELEMENT_ARRAY_BUFFER), componentType: UNSIGNED_INT, count: m.indices.length, type: "SCALAR" });
    const indices = accessors.length - 1;
    meshes.push({ name: m.name, primitives: [{ attributes: { POSITION, NORMAL, TEXCOORD_0 }, indices, material: materials.indexOf(m.material), mode: TRIANGLES }] });
  });

  const imageViews = images.values.map((t) => addView(t.png.length, (dv, at) => new Uint8Array(dv.buffer, dv.byteOffset + at, t.png.length).set(t.png)));
  // One sampler per wrap mode used, in first-seen order.
  const samplers = distinct(images.values, (t) => t.wrap ?? "repeat");

  const gltf: Record<string, unknown> = {
    asset: { version: "2.0", generator: GENERATOR },
    scene: 0,
    scenes: [{ nodes: model.meshes.map((_, i) => i) }],
    nodes: model.meshes.map((m, i) => ({ name: m.name, mesh: i })),
    meshes,
    materials: materials.values.map((mat) => {
      const pbr: Record<string, unknown> = { baseColorFactor: [...mat.colour, 1] };
      if (mat.texture) pbr.baseColorTexture = { index: images.indexOf(mat.texture) };
      pbr.metallicFactor = 0;
      pbr.roughnessFactor = 1;
      const out: Record<string, unknown> = { name: mat.name, pbrMetallicRoughness: pbr };
      if (mat.alphaCutoff !== undefined) {
        out.alphaMode = "MASK";
        out.alphaCutoff = mat.alphaCutoff;
      }
      if (mat.doubleSided) out.doubleSided = true;
      return out;
    }),
  };
  if (images.values.length > 0) {
    // Texture i is image i (one per distinct file).
    gltf.textures = images.values.map((t, i) => ({ sampler: samplers.indexOf(t), source: i }));
    gltf.images = images.values.map((t, i) => ({ name: t.fileName, mimeType: "image/png", bufferView: imageViews[i] }));
    gltf.samplers = samplers.values.map((t) => {
      const wrap = (t.wrap ?? "repeat") === "repeat" ? REPEAT : CLAMP_TO_EDGE;
      return { magFilter: LINEAR, minFilter: LINEAR_MIPMAP_LINEAR, wrapS: wrap, wrapT: wrap };
    });
  }
  gltf.accessors = accessors;
  gltf.bufferViews = views.map((v) => (v.target === undefined ? { buffer: 0, byteOffset: v.byteOffset, byteLength: v.byteLength } : { buffer: 0, byteOffset: v.byteOffset, byteLength: v.byteLength, target: v.target }));
  binLength = pad4(binLength);
  gltf.buffers = [{ byteLength: binLength }];

  const bin = new Uint8Array(binLength);
  const dv = new DataView(bin.buffer);
  for (const v of views) v.write(dv, v.byteOffset);
  return writeGlbChunks(gltf, bin);
}

/**
 * A Wavefront OBJ and its MTL. The OBJ names the MTL (`mtllib mtlName`), then per mesh: `o name`,
 * its `v`, `vt` and `vn` lines (one of each per vertex, so a face corner is `i/i/i`), `usemtl`
 * and its triangles as `f a/a/a b/b/b c/c/c` (1-based, counting from the file's first vertex).
 * Positions are written to 0.01 mm (5 decimals), normals and uvs to 4 and 5 decimals; vt is
 * (u, 1 - v), OBJ's v = 0 being the image's bottom row. The MTL has per material Kd (the colour),
 * map_Kd (the texture's fileName), and for an alpha-tested material `d 1` and `map_d` (the same
 * texture: its alpha); the textures' files are the caller's to write next to it.
 */
export function writeObj(model: ModelToWrite, mtlName: string): { obj: string; mtl: string } {
  if (model.meshes.length === 0) throw new RangeError("a model needs at least one mesh");
  const counts = model.meshes.map(checkMesh);
  const materials = distinct(model.meshes.map((m) => m.material), (m) => m.name);
  for (const name of [mtlName, ...model.meshes.map((m) => m.name), ...materials.values.flatMap((m) => (m.texture ? [m.name, m.texture.fileName] : [m.name]))]) {
    if (!/^\S+$/.test(name)) throw new RangeError(`OBJ and MTL names and file names need at least one character and no spaces; got "${name}"`);
  }

  const lines: string[] = [`# ${GENERATOR}`, `# ${model.meshes.length} meshes, ${counts.reduce((a, b) => a + b, 0)} vertices`, `mtllib ${mtlName}`];
  let base = 1;
  model.meshes.forEach((m, k) => {
    const n = counts[k];
    lines.push(`o ${m.name}`);
    const p = m.positions, nr = m.normals, uv = m.uvs;
    for (let i = 0; i < n; i++) lines.push(`v ${num(p[3 * i], 5)} ${num(p[3 * i + 1], 5)} ${num(p[3 * i + 2], 5)}`);
    for (let i = 0; i < n; i++) lines.push(`vt ${num(uv[2 * i], 5)} ${num(1 - uv[2 * i + 1], 5)}`);
    for (let i = 0; i < n; i++) lines.push(`vn ${num(nr[3 * i], 4)} ${num(nr[3 * i + 1], 4)} ${num(nr[3 * i + 2], 4)}`);
    lines.push(`usemtl ${m.material.name}`, "s off");
    const ix = m.indices;
    for (let t = 0; t < ix.length; t += 3) {
      const a = ix[t] + base, b = ix[t + 1] + base, c = ix[t + 2] + base;
      lines.push(`f ${a}/${a}/${a} ${b}/${b}/${b} ${c}/${c}/${c}`);
    }
    base += n;
  });

  const mtl: string[] = [`# ${GENERATOR}`];
  for (const mat of materials.values) {
    const [r, g, b] = mat.colour;
    mtl.push("", `newmtl ${mat.name}`, "Ka 0 0 0", `Kd ${num(r, 4)} ${num(g, 4)} ${num(b, 4)}`, "Ks 0 0 0", "Ns 1", "illum 1");
    if (mat.texture) mtl.push(`map_Kd ${mat.texture.fileName}`);
    if (mat.alphaCutoff !== undefined) {
      mtl.push(`# alpha-tested at ${num(mat.alphaCutoff, 4)} (the texture's alpha)`, "d 1");
      if (mat.texture) mtl.push(`map_d ${mat.texture.fileName}`);
    }
    if (mat.doubleSided) mtl.push("# double-sided");
  }
  return { obj: lines.join("\n") + "\n", mtl: mtl.join("\n") + "\n" };
}

/** Per-component min and max of xyz triples (exact float32 values, as glTF asks). */
function bounds(p: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      const x = p[i + c];
      if (x < min[c]) min[c] = x;
      if (x > max[c]) max[c] = x;
    }
  }
  if (![...min, ...max].every(Number.isFinite)) throw new RangeError("positions must be finite numbers");
  return { min, max };
}

/** A number with at most `digits` decimals, trailing zeros dropped, never "-0". */
function num(x: number, digits: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot write ${x} to a model file`);
  let s = x.toFixed(digits);
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s === "-0" ? "0" : s;
}
