/**
 * app/tree/model-writer.ts: GLB and OBJ + MTL files of our trees, read back by the node readers
 * of spec/support/model-files.ts; and the sample models in assets/models/own_*, which
 * are this writer's output for shipped presets.
 *
 * The samples are regenerated here, in memory, and compared with the committed files: the GLB,
 * OBJ and MTL byte for byte, the PNG textures by their pixels (zlib's deflate may compress the
 * same pixels to other bytes on another zlib build; the GLB is rebuilt around the PNG bytes it
 * holds, after checking their pixels). To rewrite the samples after a deliberate change to the
 * trees, textures or writer:
 *
 *   WRITE_SAMPLES=1 npx jest --selectProjects unit --testPathPatterns 'tree/model-writer'
 *
 * then look at them (the app's model import, or any glTF / OBJ viewer) and commit them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { buildTreeGeometry, type MeshArrays, type TreeGeometry } from "../../app/tree/geometry";
import { GENERATOR, writeGlb, writeObj, type MaterialToWrite, type MeshToWrite, type ModelToWrite } from "../../app/tree/model-writer";
import type { TreeSkeleton } from "../../app/tree/skeleton";
import { weldTree } from "../support/weld-tree";
import { applyTaper, TAPER_RANGE } from "../../app/tree/taper";
import { makeBarkTexture, makeLeafTexture, type TextureData } from "../../app/tree/textures";
import { glbImage, parseGlb, readGlb, readObj } from "../support/model-files";
import { decodePng, encodePng } from "../support/png";

const MODELS = join(__dirname, "../../assets/models");
const WRITE_SAMPLES = process.env.WRITE_SAMPLES === "1";

/** A preset's tree as the app builds it by default: its #depth, seed 1, the default taper. */
function presetTree(name: string): { skeleton: TreeSkeleton; geometry: TreeGeometry } {
  const p = TREE_PRESETS.find((t) => t.name === name)!;
  const skeleton = applyTaper(grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1, fileName: `${name}.lsys` }), TAPER_RANGE.default);
  return { skeleton, geometry: buildTreeGeometry(skeleton) };
}
const presetGeometry = (name: string) => presetTree(name).geometry;

const barkMaterial = (png: Uint8Array): MaterialToWrite => ({ name: "bark", colour: [1, 1, 1], texture: { fileName: "bark.png", png, wrap: "repeat" } });
const leafMaterial = (png: Uint8Array): MaterialToWrite => ({ name: "leaf", colour: [1, 1, 1], texture: { fileName: "leaf.png", png, wrap: "clamp" }, alphaCutoff: 0.5, doubleSided: true });

/** Bark and leaves of a tree as two meshes. */
function treeModel(g: TreeGeometry, barkPng: Uint8Array, leafPng: Uint8Array): ModelToWrite {
  const { bark, leaves } = g;
  const meshes: ModelToWrite["meshes"] = [{ name: "bark", material: barkMaterial(barkPng), positions: bark.positions, normals: bark.normals, uvs: bark.uvs, indices: bark.indices }];
  if (leaves) meshes.push({ name: "leaves", material: leafMaterial(leafPng), positions: leaves.positions, normals: leaves.normals, uvs: leaves.uvs, indices: leaves.indices });
  return { meshes };
}

/** Where two byte arrays first differ (-1: equal). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

function samePixels(png: Uint8Array, image: TextureData): boolean {
  const d = decodePng(png);
  return d.width === image.width && d.height === image.height && firstDifference(d.data, image.data) < 0;
}

describe("writeGlb", () => {
  const g = presetGeometry("demo");
  const barkPng = encodePng({ width: 2, height: 2, data: new Uint8Array(16).fill(200) });
  const leafPng = encodePng({ width: 1, height: 1, data: Uint8Array.from([40, 120, 30, 255]) });
  const model = treeModel(g, barkPng, leafPng);
  const glb = writeGlb(model);

  it("is a GLB: header, a JSON chunk and a BIN chunk, 4-byte aligned", () => {
    const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
    expect(String.fromCharCode(...glb.subarray(0, 4))).toBe("glTF");
    expect(dv.getUint32(4, true)).toBe(2);
    expect(dv.getUint32(8, true)).toBe(glb.length);
    const jsonLength = dv.getUint32(12, true);
    expect(String.fromCharCode(...glb.subarray(16, 20))).toBe("JSON");
    expect(jsonLength % 4).toBe(0);
    const binAt = 20 + jsonLength;
    expect(String.fromCharCode(...glb.subarray(binAt + 4, binAt + 8))).toBe("BIN\0");
    expect(dv.getUint32(binAt, true) % 4).toBe(0);
    expect(binAt + 8 + dv.getUint32(binAt, true)).toBe(glb.length);
    const { json, bin } = parseGlb(glb);
    expect(json.asset).toEqual({ version: "2.0", generator: GENERATOR });
    expect(json.buffers).toEqual([{ byteLength: bin.length }]);
    for (const v of json.bufferViews) {
      expect(v.byteOffset % 4).toBe(0);
      expect(v.byteOffset + v.byteLength).toBeLessThanOrEqual(bin.length);
    }
  });

  it("one node, mesh and primitive per input mesh; accessor counts and min/max match the input", () => {
    const { json } = parseGlb(glb);
    expect(json.scenes[json.scene].nodes).toEqual([0, 1]);
    expect(json.nodes).toEqual([{ name: "bark", mesh: 0 }, { name: "leaves", mesh: 1 }]);
    expect(json.meshes.map((m: { name: string }) => m.name)).toEqual(["bark", "leaves"]);
    model.meshes.forEach((m, k) => {
      expect(json.meshes[k].primitives).toHaveLength(1);
      const p = json.meshes[k].primitives[0];
      expect(p.mode).toBe(4);
      const n = m.positions.length / 3;
      const pos = json.accessors[p.attributes.POSITION];
      expect([pos.count, pos.type, pos.componentType]).toEqual([n, "VEC3", 5126]);
      const min = [0, 1, 2].map((c) => Math.min(...m.positions.filter((_, i) => i % 3 === c)));
      const max = [0, 1, 2].map((c) => Math.max(...m.positions.filter((_, i) => i % 3 === c)));
      expect(pos.min).toEqual(min);
      expect(pos.max).toEqual(max);
      expect([json.accessors[p.attributes.NORMAL].count, json.accessors[p.attributes.NORMAL].type]).toEqual([n, "VEC3"]);
      expect([json.accessors[p.attributes.TEXCOORD_0].count, json.accessors[p.attributes.TEXCOORD_0].type]).toEqual([n, "VEC2"]);
      const ix = json.accessors[p.indices];
      expect([ix.count, ix.type, ix.componentType]).toEqual([m.indices.length, "SCALAR", 5125]);
    });
  });

  it("materials: metallic-roughness, the leaves alpha-masked and double-sided, textures embedded as PNG", () => {
    const parsed = parseGlb(glb);
    const { json } = parsed;
    expect(json.materials).toEqual([
      { name: "bark", pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1], baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 1 } },
      { name: "leaf", pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1], baseColorTexture: { index: 1 }, metallicFactor: 0, roughnessFactor: 1 }, alphaMode: "MASK", alphaCutoff: 0.5, doubleSided: true },
    ]);
    expect(json.meshes.map((m: { primitives: { material: number }[] }) => m.primitives[0].material)).toEqual([0, 1]);
    expect(json.images.map((i: { name: string; mimeType: string }) => [i.name, i.mimeType])).toEqual([["bark.png", "image/png"], ["leaf.png", "image/png"]]);
    expect(json.samplers.map((s: { wrapS: number; wrapT: number }) => [s.wrapS, s.wrapT])).toEqual([[10497, 10497], [33071, 33071]]);
    expect(json.textures).toEqual([{ sampler: 0, source: 0 }, { sampler: 1, source: 1 }]);
    expect(firstDifference(glbImage(parsed, 0), barkPng)).toBe(-1);
    expect(firstDifference(glbImage(parsed, 1), leafPng)).toBe(-1);
  });

  it("reads back to the same positions, normals, uvs and indices", () => {
    const pieces = readGlb(glb);
    expect(pieces.map((p) => [p.mesh, p.material])).toEqual([["bark", "bark"], ["leaves", "leaf"]]);
    pieces.forEach((p, k) => {
      const m = model.meshes[k];
      expect(firstDifference(new Uint8Array(p.positions.buffer), new Uint8Array(m.positions.slice().buffer))).toBe(-1);
      expect(firstDifference(new Uint8Array(p.normals!.buffer), new Uint8Array(m.normals.slice().buffer))).toBe(-1);
      expect(firstDifference(new Uint8Array(p.uvs!.buffer), new Uint8Array(m.uvs.slice().buffer))).toBe(-1);
      expect(firstDifference(new Uint8Array(p.indices.buffer), new Uint8Array(m.indices.slice().buffer))).toBe(-1);
    });
  });

  it("writes a material and an image once when meshes share them; an untextured material has no texture", () => {
    const plain: MaterialToWrite = { name: "plain", colour: [0.5, 0.25, 0.125] };
    const tri = { positions: Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0), normals: Float32Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1), uvs: new Float32Array(6), indices: Uint32Array.of(0, 1, 2) };
    const { json } = parseGlb(writeGlb({ meshes: [
      { name: "a", material: barkMaterial(barkPng), ...tri }, { name: "b", material: barkMaterial(barkPng), ...tri }, { name: "c", material: plain, ...tri },
    ] }));
    expect(json.materials).toHaveLength(2);
    expect(json.images).toHaveLength(1);
    expect(json.materials[1]).toEqual({ name: "plain", pbrMetallicRoughness: { baseColorFactor: [0.5, 0.25, 0.125, 1], metallicFactor: 0, roughnessFactor: 1 } });
    expect(json.meshes.map((m: { primitives: { material: number }[] }) => m.primitives[0].material)).toEqual([0, 0, 1]);
    expect(() => writeGlb({ meshes: [] })).toThrow(RangeError);
    expect(() => writeGlb({ meshes: [{ name: "x", material: plain, ...tri, uvs: new Float32Array(4) }] })).toThrow(/uv/);
    expect(() => writeGlb({ meshes: [{ name: "x", material: plain, ...tri, indices: Uint32Array.of(0, 1, 3) }] })).toThrow(/vertex 3/);
  });
});

describe("writeObj", () => {
  const g = presetGeometry("demo");
  const model = treeModel(g, new Uint8Array(0), new Uint8Array(0));
  const { obj, mtl } = writeObj(model, "tree.mtl");

  it("reads back to the same positions (to 0.01 mm) and the same triangles per material", () => {
    const dir = mkdtempSync(join(tmpdir(), "model-writer-"));
    try {
      writeFileSync(join(dir, "tree.obj"), obj);
      const pieces = readObj(join(dir, "tree.obj"));
      expect(pieces.map((p) => p.material)).toEqual(["bark", "leaf"]);
      const bark = model.meshes[0], leaves = model.meshes[1];
      const nb = bark.positions.length / 3;
      const all = new Float32Array([...bark.positions, ...leaves.positions]);
      let worst = 0;
      for (let i = 0; i < all.length; i++) worst = Math.max(worst, Math.abs(pieces[0].positions[i] - all[i]));
      expect(pieces[0].positions.length).toBe(all.length);
      expect(worst).toBeLessThanOrEqual(5.1e-6);
      expect(Array.from(pieces[0].indices)).toEqual(Array.from(bark.indices));
      expect(Array.from(pieces[1].indices)).toEqual(Array.from(leaves.indices, (i) => i + nb));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("one v, vt and vn per vertex, faces i/i/i, an o and a usemtl per mesh; vt is (u, 1 - v)", () => {
    const lines = obj.split("\n");
    const n = (model.meshes[0].positions.length + model.meshes[1].positions.length) / 3;
    const count = (p: string) => lines.filter((l) => l.startsWith(p)).length;
    expect([count("v "), count("vt "), count("vn ")]).toEqual([n, n, n]);
    expect(lines.filter((l) => /^(o|usemtl|mtllib) /.test(l))).toEqual(["mtllib tree.mtl", "o bark", "usemtl bark", "o leaves", "usemtl leaf"]);
    expect(lines.filter((l) => l.startsWith("f ")).every((l) => /^f (\d+)\/\1\/\1 (\d+)\/\2\/\2 (\d+)\/\3\/\3$/.test(l))).toBe(true);
    const vt = lines.filter((l) => l.startsWith("vt "));
    const uv = model.meshes[0].uvs;
    for (const i of [0, 1, 17, 100]) {
      const [, u, v] = vt[i].split(" ").map(Number);
      expect(u).toBeCloseTo(uv[2 * i], 4);
      expect(v).toBeCloseTo(1 - uv[2 * i + 1], 4);
    }
    const vn = lines.filter((l) => l.startsWith("vn ")).slice(0, 50).map((l) => l.split(" ").slice(1).map(Number));
    for (const v of vn) expect(Math.abs(Math.hypot(v[0], v[1], v[2]) - 1)).toBeLessThan(2e-4);
  });

  it("the MTL: Kd and map_Kd per material, d and map_d for the alpha-tested leaves", () => {
    const blocks = mtl.split("newmtl ").slice(1).map((b) => b.trim().split("\n"));
    expect(blocks.map((b) => b[0])).toEqual(["bark", "leaf"]);
    expect(blocks[0]).toEqual(expect.arrayContaining(["Kd 1 1 1", "map_Kd bark.png"]));
    expect(blocks[0].some((l) => /^(d|map_d) /.test(l))).toBe(false);
    expect(blocks[1]).toEqual(expect.arrayContaining(["Kd 1 1 1", "map_Kd leaf.png", "d 1", "map_d leaf.png"]));
    expect(() => writeObj(model, "my tree.mtl")).toThrow(/no spaces/);
  });
});

describe("PNG encoder (spec/support/png.ts)", () => {
  it("round-trips the procedural textures", () => {
    for (const image of [makeLeafTexture(32, 3), makeBarkTexture(16, 2)]) expect(samePixels(encodePng(image), image)).toBe(true);
  });
});

/**
 * A sample file: with WRITE_SAMPLES=1 written; else compared byte for byte with the committed one.
 * `make` gets the committed file's bytes (null when writing) and returns what the file should hold.
 */
function sample(path: string, make: (committed: Uint8Array | null) => Uint8Array): Uint8Array {
  const full = join(MODELS, path);
  if (WRITE_SAMPLES) {
    const out = make(null);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, out);
    return out;
  }
  if (!existsSync(full)) throw new Error(`${path} is missing: run this spec with WRITE_SAMPLES=1 to write it`);
  const committed = new Uint8Array(readFileSync(full));
  const expected = make(committed);
  const at = firstDifference(committed, expected);
  if (at >= 0) throw new Error(`${path} differs from the generator's output at byte ${at} (${committed.length} vs ${expected.length} bytes): rerun with WRITE_SAMPLES=1 if the change is meant`);
  return committed;
}

/** A texture's PNG sample: written fresh, or the committed bytes once their pixels are the texture's. */
function pngSample(path: string, image: TextureData): Uint8Array {
  return sample(path, (committed) => {
    if (committed && !samePixels(committed, image)) throw new Error(`${path}: its pixels are not the procedural texture's: rerun with WRITE_SAMPLES=1 if the change is meant`);
    return committed ?? encodePng(image);
  });
}

describe("sample models (assets/models/own_*)", () => {
  // As the app draws them (app/sandbox/tree-view.ts).
  const barkImage = makeBarkTexture(256, 7);
  const leafImage = makeLeafTexture(128, 11);

  it("own_habel_glb/habel.glb: the habel preset, bark and leaves as two meshes, textures embedded", () => {
    const g = presetGeometry("habel");
    const bytes = sample("own_habel_glb/habel.glb", (committed) => {
      let barkPng: Uint8Array = encodePng(barkImage), leafPng: Uint8Array = encodePng(leafImage);
      if (committed) {
        // The PNGs it holds, if their pixels are right: deflate's bytes are not compared.
        const glb = parseGlb(committed);
        const names: string[] = (glb.json.images ?? []).map((i: { name: string }) => i.name);
        const held = (name: string, image: TextureData, fresh: Uint8Array) => {
          const i = names.indexOf(name);
          return i >= 0 && samePixels(glbImage(glb, i), image) ? glbImage(glb, i).slice() : fresh;
        };
        barkPng = held("bark.png", barkImage, barkPng);
        leafPng = held("leaf.png", leafImage, leafPng);
      }
      return writeGlb(treeModel(g, barkPng, leafPng));
    });
    const pieces = readGlb(bytes);
    expect(pieces.map((p) => [p.mesh, p.material])).toEqual([["bark", "bark"], ["leaves", "leaf"]]);
    expect(pieces[0].positions.length).toBe(g.bark.positions.length);
    expect(pieces[1].indices.length).toBe(g.leaves!.indices.length);
    expect(bytes.length).toBeLessThan(3.5e6);
  });

  it("own_welded_obj/: the textures and the MTL of the welded sample", () => {
    pngSample("own_welded_obj/bark.png", barkImage);
    pngSample("own_welded_obj/leaf.png", leafImage);
    const { mtl } = writeObj(treeModel(presetGeometry("sympodial"), new Uint8Array(0), new Uint8Array(0)), "welded.mtl");
    sample("own_welded_obj/welded.mtl", () => new TextEncoder().encode(mtl));
  });

  it("own_welded_obj/welded.obj: the sympodial preset with its bark as ONE welded mesh, plus its leaves", () => {
    const { skeleton, geometry: g } = presetTree("sympodial");
    const bark = weldedBark(skeleton, g.bark);
    expect(triangleComponents(bark.indices, bark.positions.length / 3)).toBe(1);
    const model = treeModel(g, new Uint8Array(0), new Uint8Array(0));
    model.meshes[0] = { ...model.meshes[0], ...bark };
    const { obj } = writeObj(model, "welded.mtl");
    const bytes = sample("own_welded_obj/welded.obj", () => new TextEncoder().encode(obj));
    expect(bytes.length).toBeLessThan(3.5e6);
    const dir = mkdtempSync(join(tmpdir(), "model-writer-"));
    try {
      writeFileSync(join(dir, "welded.obj"), bytes);
      const pieces = readObj(join(dir, "welded.obj"));
      expect(pieces.map((p) => [p.material, p.indices.length])).toEqual([["bark", bark.indices.length], ["leaf", g.leaves!.indices.length]]);
      // As a reader sees it: the wood is one piece (shared vertices, not just touching tubes).
      expect(triangleComponents(pieces[0].indices, pieces[0].positions.length / 3)).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Connected pieces of a triangle mesh, joined only by shared vertices (not by position). */
function triangleComponents(indices: ArrayLike<number>, n: number): number {
  const up = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (up[i] !== i) i = up[i] = up[up[i]];
    return i;
  };
  const used = new Uint8Array(n);
  for (let t = 0; t < indices.length; t += 3) {
    const a = find(indices[t]), b = find(indices[t + 1]), c = find(indices[t + 2]);
    up[b] = a;
    up[find(c)] = a;
    used[indices[t]] = used[indices[t + 1]] = used[indices[t + 2]] = 1;
  }
  let roots = 0;
  for (let i = 0; i < n; i++) if (used[i] && find(i) === i) roots++;
  return roots;
}

/**
 * The bark welded into one mesh (weldTree) with the bark's own normals and uvs. weldTree keeps the
 * bark's vertex list and leaves the base rings it replaced unused; those are dropped here (the
 * rest renumbered in order), so the OBJ holds only the welded mesh's vertices. Should weldTree
 * ever move vertices, uvs come from the bark's vertex at the same place (the nearest one for a
 * new place) and normals are recomputed from the welded triangles (area-weighted).
 */
function weldedBark(skeleton: TreeSkeleton, bark: MeshArrays): Pick<MeshToWrite, "positions" | "normals" | "uvs" | "indices"> {
  const wood = weldTree(skeleton, bark);
  const all = wood.positions.length / 3;
  const used = new Int32Array(all).fill(-1);
  let n = 0;
  for (const i of wood.indices) used[i] = 0;
  for (let i = 0; i < all; i++) if (used[i] === 0) used[i] = n++;
  const indices = Uint32Array.from(wood.indices, (i) => used[i]);
  const keep = <T extends Float32Array>(a: T, per: number): Float32Array => {
    const out = new Float32Array(per * n);
    for (let i = 0; i < all; i++) if (used[i] >= 0) for (let c = 0; c < per; c++) out[per * used[i] + c] = a[per * i + c];
    return out;
  };
  const positions = keep(wood.positions, 3);
  if (wood.positions.length === bark.positions.length && wood.positions.every((x, i) => x === bark.positions[i])) {
    return { positions, normals: keep(bark.normals, 3), uvs: keep(bark.uvs, 2), indices };
  }
  const at = new Map<string, number>();
  for (let i = bark.positions.length / 3 - 1; i >= 0; i--) at.set(`${bark.positions[3 * i]},${bark.positions[3 * i + 1]},${bark.positions[3 * i + 2]}`, i);
  const uvs = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    let j = at.get(`${positions[3 * i]},${positions[3 * i + 1]},${positions[3 * i + 2]}`);
    if (j === undefined) {
      let best = Infinity;
      for (let k = 0; k < bark.positions.length / 3; k++) {
        const d = (bark.positions[3 * k] - positions[3 * i]) ** 2 + (bark.positions[3 * k + 1] - positions[3 * i + 1]) ** 2 + (bark.positions[3 * k + 2] - positions[3 * i + 2]) ** 2;
        if (d < best) [best, j] = [d, k];
      }
    }
    uvs[2 * i] = bark.uvs[2 * j!];
    uvs[2 * i + 1] = bark.uvs[2 * j! + 1];
  }
  const sum = new Float64Array(3 * n);
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2];
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2];
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    for (const v of [a, b, c]) {
      sum[v] += cx;
      sum[v + 1] += cy;
      sum[v + 2] += cz;
    }
  }
  const normals = new Float32Array(3 * n);
  for (let i = 0; i < 3 * n; i += 3) {
    const l = Math.hypot(sum[i], sum[i + 1], sum[i + 2]) || 1;
    normals[i] = sum[i] / l;
    normals[i + 1] = sum[i + 1] / l;
    normals[i + 2] = sum[i + 2] / l;
  }
  return { positions, normals, uvs, indices };
}
