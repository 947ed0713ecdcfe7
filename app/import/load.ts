/**
 * Reading tree models with @babylonjs/loaders: .glb, .gltf with its .bin and
 * textures, .obj with its .mtl and textures; from files a person picked or dropped, or from a URL
 * (the companions a file names are fetched beside it). The loaders read into an AssetContainer
 * that never joins the scene; what comes out is plain data (model.ts) in the file's own
 * coordinates, plus the looks (colour texture, colour, alpha test) of its materials.
 *
 * Babylon's handedness conversions are undone: the glTF loader's root node (a mirror into
 * Babylon's left-handed space) is set to identity, the OBJ loader's negated x negated back, and
 * every triangle wound counter-clockwise about its normals, as tree/geometry.ts winds ours.
 */
import type { Scene } from "@babylonjs/core/scene";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader";
import { FilesInputStore } from "@babylonjs/core/Misc/filesInputStore";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { InstancedMesh } from "@babylonjs/core/Meshes/instancedMesh";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { Quaternion, Vector3, Matrix } from "@babylonjs/core/Maths/math.vector";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import type { Material } from "@babylonjs/core/Materials/material";
import { MultiMaterial } from "@babylonjs/core/Materials/multiMaterial";
import type { AssetContainer } from "@babylonjs/core/assetContainer";
import type { Node } from "@babylonjs/core/node";
import "@babylonjs/loaders/glTF/2.0";
import "@babylonjs/loaders/OBJ/objFileLoader";
import type { ModelData, ModelPrimitive } from "./model";

/** The formats read, by extension. */
export const MODEL_EXTENSIONS = [".glb", ".gltf", ".obj"] as const;
const OTHER_FORMATS: Record<string, string> = {
  ".fbx": "FBX", ".blend": "Blender", ".dae": "Collada", ".3ds": "3DS", ".max": "3ds Max", ".ma": "Maya", ".mb": "Maya",
  ".stl": "STL", ".ply": "PLY", ".usd": "USD", ".usdz": "USDZ", ".x3d": "X3D", ".spm": "SpeedTree", ".srt": "SpeedTree",
};
const IMAGE = /\.(png|jpe?g|webp|gif|bmp|ktx2?|basis|dds|tga)$/i;

/** A file of a model: its name (a path relative to the model file, or a bare name) and its bytes. */
export interface ModelFile {
  readonly name: string;
  readonly data: Blob;
}

/** How a material of the model looks, for the sandbox's own materials. */
export interface MaterialLook {
  /** The colour texture (owned by the LoadedModel), or null. */
  readonly texture: BaseTexture | null;
  /** sRGB base colour (multiplies the texture). */
  readonly colour: Color3;
  /** Holes cut by the texture's alpha. */
  readonly alphaTest: boolean;
  readonly alphaCutOff: number;
  readonly doubleSided: boolean;
}

export interface LoadedModel {
  readonly data: ModelData;
  /** By material name. */
  readonly looks: ReadonlyMap<string, MaterialLook>;
  /** Releases the textures the looks hold. */
  dispose(): void;
}

function extensionOf(name: string): string {
  const m = /\.[^./\\]+$/.exec(name);
  return m ? m[0].toLowerCase() : "";
}
function baseName(name: string): string {
  return name.split(/[\\/]/).pop() ?? name;
}

/** The model file among `files`: the first .glb, .gltf or .obj; throws saying what is read when there is none. */
export function mainFile(files: readonly ModelFile[]): ModelFile {
  if (files.length === 0) throw new RangeError("no file given");
  const main = files.find((f) => (MODEL_EXTENSIONS as readonly string[]).includes(extensionOf(f.name)));
  if (main) return main;
  const f = files[0], ext = extensionOf(f.name);
  const known = OTHER_FORMATS[ext];
  const what = known ? `${known} (${ext}) is not a format the sandbox reads; export the tree as glTF (.glb) or OBJ and load that` : `${f.name} is not a tree model: the sandbox reads ${MODEL_EXTENSIONS.join(", ")} (a .gltf with its .bin and textures, an .obj with its .mtl and textures)`;
  throw new RangeError(what);
}

/** The files a model file names: a glTF's buffers and images, an OBJ's material libraries, an MTL's maps. */
async function companionsNamed(file: ModelFile): Promise<string[]> {
  const ext = extensionOf(file.name);
  if (ext === ".gltf") {
    const json = parseGltfJson(await file.data.text(), file.name);
    const uris: string[] = [];
    for (const b of json.buffers ?? []) if (b.uri && !b.uri.startsWith("data:")) uris.push(decodeURIComponent(b.uri));
    for (const i of json.images ?? []) if (i.uri && !i.uri.startsWith("data:")) uris.push(decodeURIComponent(i.uri));
    return uris;
  }
  if (ext === ".obj") return [...(await file.data.text()).matchAll(/^\s*mtllib\s+(.+?)\s*$/gm)].map((m) => m[1]);
  if (ext === ".mtl") return [...(await file.data.text()).matchAll(/^\s*(?:map_\w+|bump|disp|decal|refl)\s+(.+?)\s*$/gm)].map((m) => mapFileName(m[1]));
  return [];
}

/** The file an MTL map line names: its last word (options such as `-bm 1.0` come first), folders dropped (absolute Windows paths). */
function mapFileName(rest: string): string {
  return baseName(rest.trim().split(/\s+/).pop() ?? "");
}

interface GltfJson {
  asset?: { version?: string };
  buffers?: { uri?: string }[];
  images?: { uri?: string }[];
}
function parseGltfJson(text: string, name: string): GltfJson {
  let json: GltfJson;
  try {
    json = JSON.parse(text) as GltfJson;
  } catch (e) {
    throw new RangeError(`${name} is not a glTF file: its JSON does not parse (${e instanceof Error ? e.message : e}); the file may be damaged or cut short`);
  }
  if (!json || typeof json !== "object" || !json.asset) throw new RangeError(`${name} is not a glTF file: it has no "asset" (JSON of some other kind)`);
  return json;
}

/**
 * Fetches a model and the files it names, from beside it (`extra`: more files to fetch, relative
 * to it, such as textures an MTL does not name). A companion that is missing is left out (the
 * load says what it lacks); the model file itself must be there.
 */
export async function fetchModelFiles(url: string, extra: readonly string[] = [], absent: readonly string[] = []): Promise<ModelFile[]> {
  const abs = new URL(url, typeof location !== "undefined" ? location.href : "http://localhost/");
  const get = async (u: URL) => {
    let r: Response;
    try {
      r = await fetch(u.href);
    } catch (e) {
      throw new RangeError(`could not fetch ${u.href}: ${e instanceof Error ? e.message : e} (the server may be unreachable, or it does not let this page read its files: CORS)`);
    }
    if (!r.ok) throw new RangeError(`could not fetch ${u.pathname.split("/").pop()}: ${r.status} ${r.statusText || "error"} (${u.href})`);
    return r.blob();
  };
  const name = decodeURIComponent(abs.pathname.split("/").pop() ?? "model");
  const files: ModelFile[] = [{ name, data: await get(abs) }];
  mainFile(files); // the format first: nothing else is fetched for a file the sandbox cannot read
  // Files known to be missing are not asked for (the browser logs every failed request).
  const seen = new Set([name.toLowerCase(), ...absent.map((a) => a.toLowerCase())]);
  const queue = [...(await companionsNamed(files[0])), ...extra];
  while (queue.length > 0) {
    const rel = queue.shift()!;
    if (seen.has(rel.toLowerCase())) continue;
    seen.add(rel.toLowerCase());
    try {
      const f = { name: rel, data: await get(new URL(rel, abs)) };
      files.push(f);
      if (extensionOf(rel) === ".mtl") queue.push(...(await companionsNamed(f)));
    } catch {
      // Missing companions are reported by readModel, which knows which ones matter.
    }
  }
  return files;
}

/** A 1x1 white PNG: stands in for a texture the model names but that is not there. */
const PLACEHOLDER_PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/58BAwAI/AL+hc2rNAAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

let loading = false;

/**
 * Reads a model from its files (the model file and any companions) with @babylonjs/loaders.
 * Throws RangeError with a message a person can act on: not a model, damaged, a .bin missing.
 */
export async function readModel(files: readonly ModelFile[], scene: Scene, from: string | null = null): Promise<LoadedModel> {
  const main = mainFile(files);
  const ext = extensionOf(main.name);
  const byName = new Map<string, Blob>();
  for (const f of files) {
    byName.set(f.name.toLowerCase().replace(/\\/g, "/"), f.data);
    if (!byName.has(baseName(f.name).toLowerCase())) byName.set(baseName(f.name).toLowerCase(), f.data);
  }
  const warnings: string[] = [];
  const placeholders = new Set<string>();
  const registered: Record<string, Blob> = {};
  const register = (name: string, data: Blob) => {
    registered[name.toLowerCase()] = data;
  };
  // What the file names, found among the files (by path, then by bare name), or stood in for.
  const need = async (file: ModelFile, required: (n: string) => boolean) => {
    for (const n of await companionsNamed(file)) {
      const key = n.toLowerCase().replace(/\\/g, "/");
      const data = byName.get(key) ?? byName.get(baseName(key));
      if (data) {
        register(key, data);
        if (extensionOf(n) === ".mtl") await need({ name: n, data: await fixMtl(data, byName) }, () => false);
        continue;
      }
      if (required(n)) {
        throw new RangeError(from
          ? `${main.name} needs ${n}, which could not be fetched from beside it (${new URL(n, new URL(from, typeof location !== "undefined" ? location.href : "http://localhost/")).href})`
          : `${main.name} needs ${baseName(n)}, which was not given: pick or drop it together with ${main.name}`);
      }
      if (IMAGE.test(n)) {
        placeholders.add(baseName(key));
        register(key, new Blob([PLACEHOLDER_PNG], { type: "image/png" }));
        warnings.push(`texture ${baseName(n)} not found: shown without it`);
      } else warnings.push(`${baseName(n)} not found`);
    }
  };
  if (ext === ".glb") {
    const head = new Uint8Array(await main.data.slice(0, 12).arrayBuffer());
    const magic = String.fromCharCode(...head.subarray(0, 4));
    if (magic !== "glTF") throw new RangeError(`${main.name} is not a GLB file (it does not start with "glTF"); it may be another kind of file renamed`);
    const declared = head.length === 12 ? new DataView(head.buffer).getUint32(8, true) : 0;
    if (declared > main.data.size) throw new RangeError(`${main.name} is cut short: ${main.data.size.toLocaleString("en-US")} of its ${declared.toLocaleString("en-US")} bytes; download or export it again`);
    if (declared < 20 + 8) throw new RangeError(`${main.name} is damaged: its header says it is ${declared} bytes long, too short for a GLB with any content; export it again`);
  }
  if (ext === ".gltf") await need(main, (n) => !IMAGE.test(n));
  if (ext === ".obj") {
    const text = await main.data.text();
    if (!/^\s*v\s+[-+0-9.eE]+\s+[-+0-9.eE]+\s+[-+0-9.eE]+/m.test(text)) throw new RangeError(`${main.name} is not an OBJ model: it has no vertex ("v x y z") lines`);
    for (const n of await companionsNamed(main)) {
      const key = n.toLowerCase();
      const data = byName.get(key) ?? byName.get(baseName(key));
      if (!data) {
        // A plain library of the materials the OBJ uses stands in: the loader does not go looking
        // for the file, and the materials keep their names (which say wood or leaves).
        const names = [...new Set([...text.matchAll(/^\s*usemtl\s+(.+?)\s*$/gm)].map((m) => m[1]))];
        register(key, new Blob([names.map((m) => `newmtl ${m}\nKd 0.6 0.6 0.6\n`).join("")], { type: "text/plain" }));
        warnings.push(`${baseName(n)} not found: the model is shown in plain colours`);
        continue;
      }
      const fixed = await fixMtl(data, byName);
      register(key, fixed);
      await need({ name: n, data: fixed }, () => false);
    }
  }
  if (loading) throw new RangeError("a model is already loading; wait for it to finish");
  loading = true;
  let container: AssetContainer;
  const before = { ...FilesInputStore.FilesToLoad };
  Object.assign(FilesInputStore.FilesToLoad, registered);
  const disposeObservers = new Set(scene.onDisposeObservable.observers);
  try {
    const file = new File([main.data], main.name);
    container = await LoadAssetContainerAsync(file, scene, { rootUrl: "file:", pluginExtension: ext });
    forgetOnSceneDispose(container, scene, disposeObservers);
  } catch (e) {
    // A container the loader made before it failed is dropped: its observer goes too.
    for (const o of containerObservers(scene, disposeObservers)) scene.onDisposeObservable.remove(o);
    const why = e instanceof Error ? e.message : String(e);
    throw new RangeError(`${main.name} could not be read: ${why.replace(/^Unable to load from file:[^:]*: /, "")}. The file may be damaged or cut short; export it again`);
  } finally {
    FilesInputStore.FilesToLoad = before;
    loading = false;
  }
  try {
    return extract(container, main.name, ext, warnings, placeholders);
  } catch (e) {
    container.dispose();
    throw e;
  }
}

/**
 * An MTL with its maps' folders dropped (absolute Windows paths such as `C:/Bark.png`), and a
 * colour texture added to a material that names none when a given image is named after it
 * (`Tree_Bark.jpg` for material `Bark`), with its alpha when it is a PNG and the material looks like leaves.
 */
async function fixMtl(data: Blob, byName: ReadonlyMap<string, Blob>): Promise<Blob> {
  const lines = (await data.text()).split(/\r?\n/);
  const images = [...byName.keys()].filter((k) => IMAGE.test(k) && !k.includes("/"));
  const out: string[] = [];
  let material = "", hasMap = false;
  const close = () => {
    if (!material || hasMap) return;
    const words = material.toLowerCase();
    const image = images.find((i) => i.replace(/\.[^.]+$/, "") === words) ?? images.find((i) => i.replace(/\.[^.]+$/, "").includes(words)) ?? images.find((i) => words.includes(i.replace(/\.[^.]+$/, "")));
    if (!image) return;
    out.push(`map_Kd ${image}`);
    if (/\.png$/.test(image) && /leaf|leaves|foliage|needle/.test(words)) out.push(`map_d ${image}`);
  };
  for (const line of lines) {
    const t = line.trim();
    if (/^newmtl\s/.test(t)) {
      close();
      material = t.slice(6).trim();
      hasMap = false;
      out.push(line);
      continue;
    }
    const m = /^(map_\w+|bump|disp|decal|refl)\s+(.+)$/.exec(t);
    if (m) {
      if (m[1] === "map_Kd") hasMap = true;
      const opts = m[2].trim().split(/\s+/);
      opts[opts.length - 1] = baseName(opts[opts.length - 1]);
      out.push(`${m[1]} ${opts.join(" ")}`);
      continue;
    }
    out.push(line);
  }
  close();
  return new Blob([out.join("\n")], { type: "text/plain" });
}

/**
 * Babylon's AssetContainer adds an observer to scene.onDisposeObservable when it is made (to dispose
 * itself with the scene) and its dispose() never removes it: every model loaded would leave one
 * observer, and the emptied container it holds, on the scene. The container here is always disposed
 * by this module (extract() or a failure), so that observer goes when the container does: the ones
 * added while it loaded that are the container's own (their code names `_wasAddedToScene`).
 */
function forgetOnSceneDispose(container: AssetContainer, scene: Scene, before: ReadonlySet<unknown>): void {
  const own = containerObservers(scene, before);
  const dispose = container.dispose.bind(container);
  container.dispose = () => {
    dispose();
    for (const o of own) scene.onDisposeObservable.remove(o);
  };
}

function containerObservers(scene: Scene, before: ReadonlySet<unknown>) {
  return scene.onDisposeObservable.observers.filter((o) => !before.has(o) && String(o.callback).includes("_wasAddedToScene"));
}

/** Plain data and looks from the loaded container; disposes all of it but the textures kept. */
function extract(container: AssetContainer, name: string, ext: string, warnings: string[], placeholders: ReadonlySet<string>): LoadedModel {
  // Undo the glTF loader's conversion to Babylon's left-handed space: the file's coordinates.
  const root = container.meshes.find((m) => m.name === "__root__");
  if (root) {
    root.rotationQuaternion = Quaternion.Identity();
    root.scaling.setAll(1);
    root.position.setAll(0);
  }
  const objectOf = objectNamer(container, root ?? null);
  const primitives: ModelPrimitive[] = [];
  const looks = new Map<string, MaterialLook>();
  const kept = new Set<BaseTexture>();
  const world = new Matrix(), normalMatrix = new Matrix();
  for (const mesh of container.meshes) {
    // A copy of a mesh (the glTF loader instances a mesh used by several nodes: a forest of one
    // tree) is its source's geometry where the copy stands.
    const geometry = mesh instanceof InstancedMesh ? mesh.sourceMesh : mesh;
    if (!(geometry instanceof Mesh) || geometry.getTotalVertices() === 0) continue;
    const indices = geometry.getIndices();
    const pos = geometry.getVerticesData(VertexBuffer.PositionKind);
    if (!indices || indices.length === 0 || !pos) continue;
    computeChain(mesh);
    world.copyFrom(mesh.getWorldMatrix());
    world.invertToRef(normalMatrix);
    normalMatrix.transposeToRef(normalMatrix);
    let nrm = geometry.getVerticesData(VertexBuffer.NormalKind);
    if (!nrm) {
      const computed = new Float32Array(pos.length);
      VertexData.ComputeNormals(pos, indices, computed);
      nrm = computed;
    }
    const uv = geometry.getVerticesData(VertexBuffer.UVKind);
    const n = pos.length / 3;
    const positions = new Float32Array(3 * n), normals = new Float32Array(3 * n);
    const v = new Vector3(), w = new Vector3();
    // The OBJ loader negates x to suit Babylon's left-handed space; the file had it positive.
    const sx = ext === ".obj" ? -1 : 1;
    for (let i = 0; i < n; i++) {
      v.set(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
      Vector3.TransformCoordinatesToRef(v, world, w);
      positions[3 * i] = sx * w.x; positions[3 * i + 1] = w.y; positions[3 * i + 2] = w.z;
      v.set(nrm[3 * i], nrm[3 * i + 1], nrm[3 * i + 2]);
      Vector3.TransformNormalToRef(v, normalMatrix, w);
      const l = w.length() || 1;
      normals[3 * i] = (sx * w.x) / l; normals[3 * i + 1] = w.y / l; normals[3 * i + 2] = w.z / l;
    }
    const subMeshes = geometry.subMeshes && geometry.subMeshes.length > 0 ? geometry.subMeshes : null;
    const ranges = subMeshes ? subMeshes.map((s) => ({ start: s.indexStart, count: s.indexCount, material: materialOf(geometry.material, s.materialIndex) })) : [{ start: 0, count: indices.length, material: geometry.material }];
    for (const r of ranges) {
      if (r.count < 3) continue;
      const tri = new Uint32Array(r.count - (r.count % 3));
      for (let k = 0; k < tri.length; k++) tri[k] = indices[r.start + k];
      windAboutNormals(positions, normals, tri);
      const matName = r.material?.name ?? "";
      const look = lookOf(r.material, placeholders);
      if (!looks.has(matName)) {
        looks.set(matName, look);
        if (look.texture) kept.add(look.texture);
      }
      primitives.push({
        mesh: mesh.name, material: matName, object: objectOf(mesh), positions, normals, uvs: uv ? Float32Array.from(uv) : null, indices: tri,
        colour: [look.colour.r, look.colour.g, look.colour.b], alphaTested: look.alphaTest, textured: look.texture !== null,
      });
    }
  }
  // Everything but the kept textures goes.
  for (const t of kept) {
    const i = container.textures.indexOf(t);
    if (i >= 0) container.textures.splice(i, 1);
  }
  container.dispose();
  return {
    data: { name, primitives, warnings, upConvention: ext === ".obj" ? undefined : "+y" },
    looks,
    dispose: () => {
      for (const t of kept) t.dispose();
    },
  };
}

function computeChain(node: Node): void {
  const chain: Node[] = [];
  for (let n: Node | null = node; n; n = n.parent) chain.unshift(n);
  for (const n of chain) (n as Mesh).computeWorldMatrix?.(true);
}

function materialOf(m: Material | null, index: number): Material | null {
  if (m instanceof MultiMaterial) return m.subMaterials[index] ?? null;
  return m;
}

/** Swaps b and c of every triangle wound clockwise about its vertices' normals. */
function windAboutNormals(p: Float32Array, n: Float32Array, tri: Uint32Array): void {
  for (let t = 0; t < tri.length; t += 3) {
    const a = 3 * tri[t], b = 3 * tri[t + 1], c = 3 * tri[t + 2];
    const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
    const gx = uy * vz - uz * vy, gy = uz * vx - ux * vz, gz = ux * vy - uy * vx;
    const sx = n[a] + n[b] + n[c], sy = n[a + 1] + n[b + 1] + n[c + 1], sz = n[a + 2] + n[b + 2] + n[c + 2];
    if (gx * sx + gy * sy + gz * sz < 0) {
      const k = tri[t + 1];
      tri[t + 1] = tri[t + 2];
      tri[t + 2] = k;
    }
  }
}

/** What a Babylon material (PBR from glTF, Standard from OBJ) says about the look. */
function lookOf(m: Material | null, placeholders: ReadonlySet<string>): MaterialLook {
  const any = m as unknown as Record<string, unknown> | null;
  let texture = (any?.albedoTexture ?? any?.diffuseTexture ?? null) as BaseTexture | null;
  // Named after its file (the loaders leave some unnamed), for the panel and tests.
  if (texture && !texture.name) texture.name = baseName(((texture as unknown as { url?: string }).url ?? "").replace(/^file:/, ""));
  if (texture && placeholders.has(baseName(((texture as unknown as { url?: string }).url ?? texture.name).replace(/^file:/, "")).toLowerCase())) texture = null;
  let colour = new Color3(1, 1, 1);
  if (any?.albedoColor instanceof Color3) colour = (any.albedoColor as Color3).toGammaSpace();
  else if (any?.diffuseColor instanceof Color3) colour = (any.diffuseColor as Color3).clone();
  const transparencyMode = any?.transparencyMode as number | null | undefined;
  const alphaTest = Boolean(texture && (transparencyMode === 1 || transparencyMode === 3 || any?.opacityTexture || (texture.hasAlpha && (any?.useAlphaFromAlbedoTexture || any?.useAlphaFromDiffuseTexture))));
  const cutoff = typeof any?.alphaCutOff === "number" ? (any.alphaCutOff as number) : 0.4;
  return { texture, colour, alphaTest, alphaCutOff: cutoff, doubleSided: m ? !m.backFaceCulling : false };
}

/**
 * The object a mesh belongs to: below the root, the chain of single children is the file's
 * wrapping (a glTF scene node, a converter's group); the nodes where it first branches are the
 * objects. A file whose meshes hang directly there (one mesh's primitives, an OBJ's groups) is
 * one object ("").
 */
function objectNamer(container: AssetContainer, root: Node | null): (mesh: Node) => string {
  const holds = (n: Node): boolean => ((n instanceof Mesh || n instanceof InstancedMesh) && n.getTotalVertices() > 0) || n.getChildren().some(holds);
  const tops = root ? [root] : [...container.meshes, ...container.transformNodes].filter((n) => !n.parent);
  let level: Node[] = tops.filter(holds);
  while (level.length === 1 && level[0].getChildren().filter(holds).length > 0) level = level[0].getChildren().filter(holds);
  if (level.every((n) => n.getChildren().filter(holds).length === 0)) return () => "";
  const set = new Set(level);
  return (mesh) => {
    for (let n: Node | null = mesh; n; n = n.parent) if (set.has(n)) return n.name;
    return "";
  };
}
