/**
 * The Babylon side of a motion export: the tree on show (its bark and leaves, its own vertices,
 * uvs and materials) skinned to one bone per skeleton node with the sandbox's own per-vertex
 * binding (up to four skin nodes and weights), written as a binary glTF by @babylonjs/serializers
 * (loaded only when exporting), then the baked clip (bake.ts) added to it as one glTF animation
 * ("wind": per bone a translation and a rotation channel, linear, one key per frame).
 *
 * The tree is rebuilt in a scene of its own, right-handed as glTF is, so the file's numbers are
 * the sandbox's: a viewer shows the tree as the sandbox does and the import path reads it back
 * to the same coordinates. That scene is virtual (never drawn, not the engine's "last scene") and
 * is disposed when the file is written.
 */
import type { Engine } from "@babylonjs/core/Engines/engine";
import { Scene } from "@babylonjs/core/scene";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { Skeleton } from "@babylonjs/core/Bones/skeleton";
import { Bone } from "@babylonjs/core/Bones/bone";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import type { TreeInstance } from "../animators/animator";
import type { MeshArrays } from "../tree/geometry";
import { POSE_STRIDE, type BakedClip, type BoneRig } from "./bake";
import { pad4, readGlbChunks, writeGlbChunks } from "./glb";

/** The animation's name in the file. */
export const CLIP_NAME = "wind";

/** Vertices and indices the file's meshes hold (for the size estimate before baking). */
export function meshCounts(tree: TreeInstance): { vertices: number; indices: number } {
  const parts = [tree.geometry.bark, tree.geometry.leaves].filter((m): m is MeshArrays => m !== null);
  return { vertices: parts.reduce((n, m) => n + m.positions.length / 3, 0), indices: parts.reduce((n, m) => n + m.indices.length, 0) };
}

/** Bones created parents first. */
function parentsFirst(rig: BoneRig): number[] {
  const children: number[][] = Array.from({ length: rig.count }, () => []);
  const order: number[] = [];
  for (let k = 0; k < rig.count; k++) (rig.parent[k] < 0 ? order : children[rig.parent[k]]).push(k);
  for (let i = 0; i < order.length; i++) for (const c of children[order[i]]) order.push(c);
  if (order.length !== rig.count) throw new Error(`exporting the motion: the skeleton's node parents form a loop (${rig.count - order.length} nodes unreachable from the base)`);
  return order;
}

/** A copy of the sandbox's material in the export scene (its colour, texture and alpha test; the texture object is shared, not copied). */
function materialCopy(m: StandardMaterial, scene: Scene): StandardMaterial {
  const c = new StandardMaterial(m.name, scene);
  c.diffuseColor = m.diffuseColor.clone();
  // A texture that never loaded (or a NullEngine's, never ready) is left out: the serializer would wait for it forever.
  c.diffuseTexture = m.diffuseTexture?.isReady() ? m.diffuseTexture : null;
  c.emissiveColor = m.emissiveColor.clone();
  c.specularColor = m.specularColor.clone();
  c.backFaceCulling = m.backFaceCulling;
  c.twoSidedLighting = m.twoSidedLighting;
  c.useAlphaFromDiffuseTexture = m.useAlphaFromDiffuseTexture;
  c.transparencyMode = m.transparencyMode;
  c.alphaCutOff = m.alphaCutOff;
  return c;
}

function skinnedMesh(name: string, a: MeshArrays, scene: Scene, parent: TransformNode, skeleton: Skeleton, material: StandardMaterial): Mesh {
  const n = a.positions.length / 3;
  const joints = new Float32Array(4 * n), weights = new Float32Array(4 * n);
  for (let v = 0; v < n; v++) {
    let sum = 0;
    for (let j = 0; j < 4; j++) sum += Math.max(0, a.skinWeights[4 * v + j]);
    if (!(sum > 0)) {
      // Unbound (a model's stray piece): it rides on the root bone, where it stands.
      weights[4 * v] = 1;
      continue;
    }
    for (let j = 0; j < 4; j++) {
      const w = Math.max(0, a.skinWeights[4 * v + j]) / sum;
      weights[4 * v + j] = w;
      joints[4 * v + j] = w > 0 ? a.skinNodes[4 * v + j] : 0;
    }
  }
  const mesh = new Mesh(name, scene);
  const data = new VertexData();
  data.positions = a.positions;
  data.normals = a.normals;
  data.uvs = a.uvs;
  // Counter-clockwise as tree/geometry winds them: glTF's front faces, in this right-handed scene.
  data.indices = a.indices;
  data.matricesIndices = joints;
  data.matricesWeights = weights;
  data.applyToMesh(mesh);
  mesh.parent = parent;
  mesh.skeleton = skeleton;
  mesh.numBoneInfluencers = 4;
  mesh.material = material;
  return mesh;
}

/**
 * Writes the tree skinned to the rig's bones, in its rest pose, as GLB bytes (the serializer's
 * work; the clip is added by addClip).
 */
export async function writeSkinnedTree(engine: Engine, tree: TreeInstance, rig: BoneRig, name: string): Promise<Uint8Array> {
  const { GLTF2Export } = await import(/* webpackChunkName: "gltf-serializer" */ "@babylonjs/serializers/glTF/2.0/glTFSerializer");
  // The serializer encodes textures to PNG through a pass effect whose vertex shader it does not
  // import: without it in the shader store the effect is fetched from the server, never compiles,
  // and the encoding fails.
  await import(/* webpackChunkName: "gltf-serializer" */ "@babylonjs/core/Shaders/postprocess.vertex");
  const scene = new Scene(engine, { virtual: true });
  scene.useRightHandedSystem = true;
  try {
    const root = new TransformNode(name, scene);
    const skeleton = new Skeleton(`${name} skeleton`, `${name}-skeleton`, scene);
    const nodes: TransformNode[] = new Array(rig.count);
    const bones: Bone[] = new Array(rig.count);
    const I = rig.rest;
    for (const k of parentsFirst(rig)) {
      const p = rig.parent[k];
      const local = p < 0 ? new Vector3(I[3 * k], I[3 * k + 1], I[3 * k + 2]) : new Vector3(I[3 * k] - I[3 * p], I[3 * k + 1] - I[3 * p + 1], I[3 * k + 2] - I[3 * p + 2]);
      const node = new TransformNode(`bone-${k}`, scene);
      node.parent = p < 0 ? root : nodes[p];
      node.position = local;
      node.rotationQuaternion = Quaternion.Identity();
      nodes[k] = node;
      bones[k] = new Bone(`bone-${k}`, skeleton, p < 0 ? null : bones[p], Matrix.Translation(local.x, local.y, local.z), null, null, k);
      bones[k].linkTransformNode(node);
    }
    skinnedMesh(`${name} bark`, tree.geometry.bark, scene, root, skeleton, materialCopy(tree.barkMaterial, scene));
    if (tree.geometry.leaves && tree.leaves) skinnedMesh(`${name} leaves`, tree.geometry.leaves, scene, root, skeleton, materialCopy(tree.leafMaterial, scene));
    const data = await GLTF2Export.GLBAsync(scene, name, { exportWithoutWaitingForScene: true });
    const blob = Object.values(data.files).find((f): f is Blob => f instanceof Blob);
    if (!blob) throw new Error("exporting the motion: the glTF serializer wrote no binary file");
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    scene.dispose();
  }
}

const FLOAT = 5126;

interface GltfJson {
  nodes?: { name?: string }[];
  buffers?: { byteLength: number }[];
  bufferViews?: { buffer: number; byteOffset?: number; byteLength: number }[];
  accessors?: { bufferView: number; byteOffset?: number; componentType: number; count: number; type: string; min?: number[]; max?: number[] }[];
  animations?: { name?: string; channels: { sampler: number; target: { node: number; path: string } }[]; samplers: { input: number; output: number; interpolation: string }[] }[];
  extras?: Record<string, unknown>;
}

/** The JSON and binary chunks of a GLB (glb.ts, typed for the clip's fields). */
export function readGlb(bytes: Uint8Array): { json: GltfJson; bin: Uint8Array } {
  return readGlbChunks<GltfJson>(bytes);
}

/**
 * Adds the clip to a GLB whose nodes include "bone-<k>" for every bone: per bone a translation
 * and a rotation sampler over the clip's key times (linear), in one animation named CLIP_NAME.
 */
export function addClip(glb: Uint8Array, clip: BakedClip, bones: number, extras: Record<string, unknown> = {}): Uint8Array {
  const { json, bin } = readGlb(glb);
  const nodeOf = new Int32Array(bones).fill(-1);
  (json.nodes ?? []).forEach((n, i) => {
    const m = /^bone-(\d+)$/.exec(n.name ?? "");
    if (m && Number(m[1]) < bones) nodeOf[Number(m[1])] = i;
  });
  const missing = nodeOf.indexOf(-1);
  if (missing >= 0) throw new Error(`exporting the motion: the written file lacks the node of bone ${missing}`);
  const F = clip.frames;
  const timesBytes = 4 * F, trBytes = 12 * F * bones, rotBytes = 16 * F * bones;
  const start = pad4(bin.length);
  const out = new Uint8Array(start + timesBytes + trBytes + rotBytes);
  out.set(bin);
  const times = new Float32Array(out.buffer, start, F);
  times.set(clip.times);
  const tr = new Float32Array(out.buffer, start + timesBytes, 3 * F * bones);
  const rot = new Float32Array(out.buffer, start + timesBytes + trBytes, 4 * F * bones);
  const L = clip.local, stride = bones * POSE_STRIDE;
  for (let k = 0; k < bones; k++) {
    for (let f = 0; f < F; f++) {
      const o = f * stride + k * POSE_STRIDE, t = 3 * (k * F + f), r = 4 * (k * F + f);
      tr[t] = L[o]; tr[t + 1] = L[o + 1]; tr[t + 2] = L[o + 2];
      rot[r] = L[o + 3]; rot[r + 1] = L[o + 4]; rot[r + 2] = L[o + 5]; rot[r + 3] = L[o + 6];
    }
  }
  json.buffers = json.buffers?.length ? json.buffers : [{ byteLength: 0 }];
  json.buffers[0].byteLength = out.length;
  const views = (json.bufferViews ??= []);
  const accessors = (json.accessors ??= []);
  const view = (byteOffset: number, byteLength: number) => views.push({ buffer: 0, byteOffset, byteLength }) - 1;
  const timeView = view(start, timesBytes), trView = view(start + timesBytes, trBytes), rotView = view(start + timesBytes + trBytes, rotBytes);
  const input = accessors.push({ bufferView: timeView, componentType: FLOAT, count: F, type: "SCALAR", min: [times[0]], max: [times[F - 1]] }) - 1;
  const channels: NonNullable<GltfJson["animations"]>[number]["channels"] = [];
  const samplers: NonNullable<GltfJson["animations"]>[number]["samplers"] = [];
  for (let k = 0; k < bones; k++) {
    const t = accessors.push({ bufferView: trView, byteOffset: 12 * F * k, componentType: FLOAT, count: F, type: "VEC3" }) - 1;
    const r = accessors.push({ bufferView: rotView, byteOffset: 16 * F * k, componentType: FLOAT, count: F, type: "VEC4" }) - 1;
    channels.push({ sampler: samplers.push({ input, output: t, interpolation: "LINEAR" }) - 1, target: { node: nodeOf[k], path: "translation" } });
    channels.push({ sampler: samplers.push({ input, output: r, interpolation: "LINEAR" }) - 1, target: { node: nodeOf[k], path: "rotation" } });
  }
  (json.animations ??= []).push({ name: CLIP_NAME, channels, samplers });
  json.extras = { ...(json.extras ?? {}), ...extras };
  return writeGlbChunks(json, out);
}
