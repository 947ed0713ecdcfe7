/**
 * The sample models in assets/models/own_* are this file's output for shipped presets (written by
 * app/tree/model-writer.ts). spec/tree/model-writer.spec.ts regenerates them in memory and compares
 * them with the committed files (never writes); after a deliberate change to the trees, textures
 * or writer, `npm run samples` rewrites them (spec/tree/write-samples.task.ts): look at them (the
 * app's model import, or any glTF / OBJ viewer) and commit them.
 *
 * The GLB, OBJ and MTL compare byte for byte, the PNG textures by their pixels (zlib's deflate may
 * compress the same pixels to other bytes on another zlib build; the GLB is rebuilt around the PNG
 * bytes it holds, after checking their pixels).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { buildTreeGeometry, type MeshArrays, type TreeGeometry } from "../../app/tree/geometry";
import { writeGlb, writeObj, type MaterialToWrite, type MeshToWrite, type ModelToWrite } from "../../app/tree/model-writer";
import type { TreeSkeleton } from "../../app/tree/skeleton";
import { applyTaper, TAPER_RANGE } from "../../app/tree/taper";
import { makeBarkTexture, makeLeafTexture, type TextureData } from "../../app/tree/textures";
import { glbImage, parseGlb } from "./model-files";
import { decodePng, encodePng } from "./png";
import { weldTree } from "./weld-tree";

export const MODELS = join(__dirname, "../../assets/models");

/** A preset's tree as the app builds it by default: its #depth, seed 1, the default taper. */
export function presetTree(name: string): { skeleton: TreeSkeleton; geometry: TreeGeometry } {
  const p = TREE_PRESETS.find((t) => t.name === name)!;
  const skeleton = applyTaper(grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1, fileName: `${name}.lsys` }), TAPER_RANGE.default);
  return { skeleton, geometry: buildTreeGeometry(skeleton) };
}
export const presetGeometry = (name: string) => presetTree(name).geometry;

export const barkMaterial = (png: Uint8Array): MaterialToWrite => ({ name: "bark", colour: [1, 1, 1], texture: { fileName: "bark.png", png, wrap: "repeat" } });
export const leafMaterial = (png: Uint8Array): MaterialToWrite => ({ name: "leaf", colour: [1, 1, 1], texture: { fileName: "leaf.png", png, wrap: "clamp" }, alphaCutoff: 0.5, doubleSided: true });

/** Bark and leaves of a tree as two meshes. */
export function treeModel(g: TreeGeometry, barkPng: Uint8Array, leafPng: Uint8Array): ModelToWrite {
  const { bark, leaves } = g;
  const meshes: ModelToWrite["meshes"] = [{ name: "bark", material: barkMaterial(barkPng), positions: bark.positions, normals: bark.normals, uvs: bark.uvs, indices: bark.indices }];
  if (leaves) meshes.push({ name: "leaves", material: leafMaterial(leafPng), positions: leaves.positions, normals: leaves.normals, uvs: leaves.uvs, indices: leaves.indices });
  return { meshes };
}

/** Where two byte arrays first differ (-1: equal). */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

export function samePixels(png: Uint8Array, image: TextureData): boolean {
  const d = decodePng(png);
  return d.width === image.width && d.height === image.height && firstDifference(d.data, image.data) < 0;
}


// As the app draws them (app/sandbox/tree-view.ts).
const barkImage = makeBarkTexture(256, 7);
const leafImage = makeLeafTexture(128, 11);

/** A texture's PNG: the committed bytes once their pixels are the texture's, else fresh ones. */
function pngFile(path: string, image: TextureData) {
  return (committed: Uint8Array | null): Uint8Array => {
    if (committed && !samePixels(committed, image)) throw new Error(`${path}: its pixels are not the procedural texture's: run \`npm run samples\` if the change is meant`);
    return committed ?? encodePng(image);
  };
}

/** The welded sample's model: the sympodial preset with its bark as ONE welded mesh, plus its leaves. */
export function weldedModel(): { model: ModelToWrite; bark: ReturnType<typeof weldedBark>; geometry: TreeGeometry } {
  const { skeleton, geometry } = presetTree("sympodial");
  const bark = weldedBark(skeleton, geometry.bark);
  const model = treeModel(geometry, new Uint8Array(0), new Uint8Array(0));
  model.meshes[0] = { ...model.meshes[0], ...bark };
  return { model, bark, geometry };
}

/**
 * Every sample file (path under assets/models) and what it should hold: `make(committed)` gets the
 * committed file's bytes (null when writing afresh) so that PNGs whose pixels are right are kept.
 */
export const SAMPLE_FILES: Record<string, (committed: Uint8Array | null) => Uint8Array> = {
  "own_habel_glb/habel.glb": (committed) => {
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
    return writeGlb(treeModel(presetGeometry("habel"), barkPng, leafPng));
  },
  "own_welded_obj/bark.png": pngFile("own_welded_obj/bark.png", barkImage),
  "own_welded_obj/leaf.png": pngFile("own_welded_obj/leaf.png", leafImage),
  "own_welded_obj/welded.mtl": () => new TextEncoder().encode(writeObj(treeModel(presetGeometry("sympodial"), new Uint8Array(0), new Uint8Array(0)), "welded.mtl").mtl),
  "own_welded_obj/welded.obj": () => new TextEncoder().encode(writeObj(weldedModel().model, "welded.mtl").obj),
};

/** The committed sample at `path`, after checking it is what the generator makes; throws where it differs. */
export function checkedSample(path: string, root = MODELS): Uint8Array {
  const full = join(root, path);
  if (!existsSync(full)) throw new Error(`${path} is missing: run \`npm run samples\` to write it`);
  const committed = new Uint8Array(readFileSync(full));
  const expected = SAMPLE_FILES[path](committed);
  const at = firstDifference(committed, expected);
  if (at >= 0) throw new Error(`${path} differs from the generator's output at byte ${at} (${committed.length} vs ${expected.length} bytes): run \`npm run samples\` if the change is meant`);
  return committed;
}

/** Writes every sample afresh (npm run samples); returns the paths written. */
export function writeSamples(): string[] {
  return Object.entries(SAMPLE_FILES).map(([path, make]) => {
    const full = join(MODELS, path);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, make(null));
    return full;
  });
}

/** Connected pieces of a triangle mesh, joined only by shared vertices (not by position). */
export function triangleComponents(indices: ArrayLike<number>, n: number): number {
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
export function weldedBark(skeleton: TreeSkeleton, bark: MeshArrays): Pick<MeshToWrite, "positions" | "normals" | "uvs" | "indices"> {
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
