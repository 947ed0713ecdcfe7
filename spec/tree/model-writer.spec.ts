/**
 * app/tree/model-writer.ts: GLB and OBJ + MTL files of our trees, read back by the node readers
 * of spec/support/model-files.ts; and the sample models in assets/models/own_*, which are this
 * writer's output for shipped presets (spec/support/samples.ts makes them). The samples are
 * regenerated in memory and compared with the committed files; this spec never writes them:
 * `npm run samples` does, after a deliberate change.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GENERATOR, writeGlb, writeObj, type MaterialToWrite } from "../../app/tree/model-writer";
import { makeBarkTexture, makeLeafTexture } from "../../app/tree/textures";
import { glbImage, parseGlb, readGlb, readObj } from "../support/model-files";
import { encodePng } from "../support/png";
import { barkMaterial, checkedSample, firstDifference, MODELS, presetGeometry, samePixels, treeModel, triangleComponents, weldedModel } from "../support/samples";

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

describe("sample models (assets/models/own_*)", () => {
  it("own_habel_glb/habel.glb: the habel preset, bark and leaves as two meshes, textures embedded", () => {
    const g = presetGeometry("habel");
    const bytes = checkedSample("own_habel_glb/habel.glb");
    const pieces = readGlb(bytes);
    expect(pieces.map((p) => [p.mesh, p.material])).toEqual([["bark", "bark"], ["leaves", "leaf"]]);
    expect(pieces[0].positions.length).toBe(g.bark.positions.length);
    expect(pieces[1].indices.length).toBe(g.leaves!.indices.length);
    expect(bytes.length).toBeLessThan(3.5e6);
  });

  it("own_welded_obj/: the textures and the MTL of the welded sample", () => {
    for (const f of ["bark.png", "leaf.png", "welded.mtl"]) expect(checkedSample(`own_welded_obj/${f}`).length).toBeGreaterThan(100);
  });

  it("own_welded_obj/welded.obj: the sympodial preset with its bark as ONE welded mesh, plus its leaves", () => {
    const { bark, geometry: g } = weldedModel();
    expect(triangleComponents(bark.indices, bark.positions.length / 3)).toBe(1);
    const bytes = checkedSample("own_welded_obj/welded.obj");
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

  it("a sample that differs from the generator's output by one byte is reported, and nothing is written", () => {
    const dir = mkdtempSync(join(tmpdir(), "model-writer-"));
    try {
      const mtl = new Uint8Array(readFileSync(join(MODELS, "own_welded_obj/welded.mtl")));
      mtl[40] ^= 1;
      mkdirSync(join(dir, "own_welded_obj"));
      writeFileSync(join(dir, "own_welded_obj/welded.mtl"), mtl);
      expect(() => checkedSample("own_welded_obj/welded.mtl", dir)).toThrow(/differs from the generator's output at byte 40 .*npm run samples/);
      expect(readFileSync(join(dir, "own_welded_obj/welded.mtl"))).toEqual(Buffer.from(mtl));
      expect(() => checkedSample("own_welded_obj/none.mtl", dir)).toThrow(/missing: run `npm run samples`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
