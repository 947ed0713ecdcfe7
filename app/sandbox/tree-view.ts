/**
 * The Babylon side of a tree: meshes, materials and textures built from a TreeSkeleton and its
 * TreeGeometry. Everything created here is disposed by `dispose()`, so switching trees leaks
 * nothing. Animators receive the result as a TreeInstance.
 */
import type { Scene } from "@babylonjs/core/scene";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Material } from "@babylonjs/core/Materials/material";
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { Texture } from "@babylonjs/core/Materials/Textures/texture";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import type { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import type { TreeInstance, TreePart } from "../animators/animator";
import type { TreeSkeleton } from "../tree/skeleton";
import { BINDING_ATTRIBUTES, buildTreeGeometry, toBabylonWinding, type MeshArrays, type TreeGeometry } from "../tree/geometry";
import { makeBarkTexture, makeLeafTexture } from "../tree/textures";
import { FlatShadingPlugin } from "./flat-shading";
import type { Material as BaseMaterial } from "@babylonjs/core/Materials/material";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { colourKind } from "../import/classify";
import type { MaterialLook } from "../import/load";
import { treeHeight } from "../tree/skeleton";

/** Bark colour when the bark texture is switched off (the texture's mean). */
const PLAIN_BARK = new Color3(0.42, 0.33, 0.25);

/** Radius of the tubes that draw the skeleton in "skeleton" render mode, metres (at least; a tall tree's are thicker, to be seen). */
const SKELETON_TUBE_RADIUS = 0.012;
const SKELETON_TUBE_SHARE = 0.0015;
/** The skeleton's colour, and its colour by hierarchy level (trunk, limbs, branches, twigs, deeper). */
const SKELETON_COLOUR = new Color3(0.95, 0.55, 0.15);
export const LEVEL_COLOURS: readonly (readonly [number, number, number])[] = [[0.95, 0.2, 0.15], [1, 0.62, 0.1], [0.95, 0.95, 0.2], [0.3, 0.9, 0.35], [0.25, 0.75, 1]];
/** Leaves of a model whose material has neither texture nor colour. */
const PLAIN_LEAF = new Color3(0.3, 0.5, 0.2);

/** A model's own materials, by role: an imported model keeps its own geometry and materials. */
export interface TreeLook {
  readonly bark: MaterialLook;
  readonly leaves: MaterialLook | null;
}

/** Barron §6.3's four ways to draw a tree: smooth-shaded, flat-shaded, wireframe, skeleton. */
export type RenderMode = "shaded" | "flat" | "wireframe" | "skeleton";
export const RENDER_MODES: readonly RenderMode[] = ["shaded", "flat", "wireframe", "skeleton"];
/** What the panel calls each mode. */
export const RENDER_MODE_LABELS: Readonly<Record<RenderMode, string>> = { shaded: "smooth", flat: "flat", wireframe: "wireframe", skeleton: "skeleton" };

type Role = TreePart["role"];

/** Textures are generated once per scene and shared by every tree built in it. */
interface SharedTextures {
  bark: RawTexture;
  leaf: RawTexture;
}
const sharedTextures = new WeakMap<Scene, SharedTextures>();

function texturesFor(scene: Scene): SharedTextures {
  let t = sharedTextures.get(scene);
  if (!t) {
    const barkImg = makeBarkTexture(256, 7);
    const leafImg = makeLeafTexture(128, 11);
    const bark = RawTexture.CreateRGBATexture(barkImg.data, barkImg.width, barkImg.height, scene, true, false, Texture.TRILINEAR_SAMPLINGMODE);
    bark.name = "tree-bark";
    bark.wrapU = Texture.WRAP_ADDRESSMODE;
    bark.wrapV = Texture.WRAP_ADDRESSMODE;
    const leaf = RawTexture.CreateRGBATexture(leafImg.data, leafImg.width, leafImg.height, scene, true, false, Texture.TRILINEAR_SAMPLINGMODE);
    leaf.name = "tree-leaf";
    leaf.hasAlpha = true;
    leaf.wrapU = Texture.CLAMP_ADDRESSMODE;
    leaf.wrapV = Texture.CLAMP_ADDRESSMODE;
    t = { bark, leaf };
    sharedTextures.set(scene, t);
    scene.onDisposeObservable.addOnce(() => sharedTextures.delete(scene));
  }
  return t;
}

function makeMesh(name: string, arrays: MeshArrays, scene: Scene, parent: TransformNode): Mesh {
  const mesh = new Mesh(name, scene);
  const vd = new VertexData();
  vd.positions = arrays.positions;
  vd.normals = arrays.normals;
  vd.uvs = arrays.uvs;
  // tree/geometry winds triangles counter-clockwise about their normals (right-handed);
  // Babylon's left-handed scene treats clockwise as front. Flip once, here, for every material.
  vd.indices = toBabylonWinding(arrays.indices);
  vd.applyToMesh(mesh, false);
  // The per-vertex binding every method needs (ARCHITECTURE.md, "The tree").
  mesh.setVerticesData(BINDING_ATTRIBUTES.branchIndex, arrays.branchIndex, false, 1);
  mesh.setVerticesData(BINDING_ATTRIBUTES.wVector, arrays.wVector, false, 4);
  mesh.setVerticesData(BINDING_ATTRIBUTES.skinNodes, arrays.skinNodes, false, 4);
  mesh.setVerticesData(BINDING_ATTRIBUTES.skinWeights, arrays.skinWeights, false, 4);
  mesh.setVerticesData(BINDING_ATTRIBUTES.leafFrame, arrays.leafFrame, false, 4);
  mesh.setVerticesData(BINDING_ATTRIBUTES.leafCoord, arrays.leafCoord, false, 2);
  mesh.parent = parent;
  // Vertex shaders move the tree beyond its rest bounds; never cull it away.
  mesh.alwaysSelectAsActiveMesh = true;
  return mesh;
}

/** A copy of the skeleton with every radius set to `radius`: drawn as the skeleton's "lines". */
function thinSkeleton(s: TreeSkeleton, radius: number): TreeSkeleton {
  const nodeRadius = new Float32Array(s.nodeCount).fill(radius);
  const r = new Float32Array(s.branchCount).fill(radius);
  return {
    ...s, nodeRadius, branchRootRadius: r, branchTipRadius: r, branchTaperRatio: new Float32Array(s.branchCount).fill(1),
    leafCount: 0, leafBranch: new Int32Array(0), leafX: new Float32Array(0), leafCenter: new Float32Array(0),
    leafNormal: new Float32Array(0), leafAxis: new Float32Array(0), leafSize: new Float32Array(0),
  };
}

export class TreeView implements TreeInstance {
  readonly geometry: TreeGeometry;
  readonly bark: Mesh;
  readonly leaves: Mesh | null;
  readonly skeletonLines: Mesh;
  readonly barkMaterial: StandardMaterial;
  readonly leafMaterial: StandardMaterial;
  readonly skeletonMaterial: StandardMaterial;
  readonly parts: readonly TreePart[];
  private mode: RenderMode = "shaded";
  private barkTextured = true;
  /** Meshes a method shows in place of a part's own (Barron's skins), by role. */
  private readonly substitutes = new Map<Role, Mesh>();
  private readonly barkTexture: BaseTexture | null;
  /** The bark's colour under its texture, and without it (the texture toggle off). */
  private readonly barkTint: Color3;
  private readonly barkPlain: Color3;
  private hierarchyOverlay = false;

  constructor(readonly skeleton: TreeSkeleton, geometry: TreeGeometry, scene: Scene, parent: TransformNode, private readonly shadows: ShadowGenerator | null, look: TreeLook | null = null) {
    this.geometry = geometry;
    const tex = texturesFor(scene);
    this.barkTexture = look ? look.bark.texture : tex.bark;
    this.barkTint = look && look.bark.texture ? look.bark.colour.clone() : new Color3(1, 1, 1);
    this.barkPlain = look && colourKind([look.bark.colour.r, look.bark.colour.g, look.bark.colour.b]) !== "grey" ? look.bark.colour.clone() : PLAIN_BARK.clone();

    this.barkMaterial = new StandardMaterial("bark", scene);
    this.barkMaterial.diffuseTexture = this.barkTexture;
    this.barkMaterial.specularColor = new Color3(0.05, 0.05, 0.04);
    if (look?.bark.doubleSided) {
      this.barkMaterial.backFaceCulling = false;
      this.barkMaterial.twoSidedLighting = true;
    }
    if (look?.bark.alphaTest && look.bark.texture) {
      look.bark.texture.hasAlpha = true;
      this.barkMaterial.useAlphaFromDiffuseTexture = true;
      this.barkMaterial.transparencyMode = Material.MATERIAL_ALPHATEST;
      this.barkMaterial.alphaCutOff = look.bark.alphaCutOff;
    }

    this.leafMaterial = new StandardMaterial("leaf", scene);
    this.leafMaterial.diffuseTexture = tex.leaf;
    this.leafMaterial.useAlphaFromDiffuseTexture = true;
    this.leafMaterial.transparencyMode = Material.MATERIAL_ALPHATEST;
    this.leafMaterial.alphaCutOff = 0.5;
    this.leafMaterial.backFaceCulling = false;
    this.leafMaterial.twoSidedLighting = true;
    this.leafMaterial.specularColor = new Color3(0.08, 0.1, 0.06);
    // Leaves are translucent: the side away from the sun still glows a little green.
    this.leafMaterial.emissiveColor = new Color3(0.1, 0.16, 0.06);
    const leafLook = look?.leaves;
    if (leafLook) {
      this.leafMaterial.diffuseTexture = leafLook.texture;
      const grey = colourKind([leafLook.colour.r, leafLook.colour.g, leafLook.colour.b]) === "grey";
      this.leafMaterial.diffuseColor = leafLook.texture ? leafLook.colour.clone() : grey ? PLAIN_LEAF.clone() : leafLook.colour.clone();
      const cut = leafLook.alphaTest && leafLook.texture !== null;
      // Its alpha cuts the leaf's shape (an OBJ's map_d names the same image as its map_Kd).
      if (cut) leafLook.texture!.hasAlpha = true;
      this.leafMaterial.useAlphaFromDiffuseTexture = cut;
      this.leafMaterial.transparencyMode = cut ? Material.MATERIAL_ALPHATEST : Material.MATERIAL_OPAQUE;
      this.leafMaterial.alphaCutOff = leafLook.alphaCutOff;
      // A crown (a lump, not cards) is lit as the solid it is.
      if (!cut) this.leafMaterial.emissiveColor = new Color3(0.03, 0.05, 0.02);
    }

    // Unlit: its colour is the emissive colour times the vertex colour. A vertex colour of
    // c / SKELETON_COLOUR shows c (by level); a method's substitute without colours shows the plain colour.
    this.skeletonMaterial = new StandardMaterial("skeleton", scene);
    this.skeletonMaterial.disableLighting = true;
    this.skeletonMaterial.diffuseColor = new Color3(0, 0, 0);
    this.skeletonMaterial.emissiveColor = SKELETON_COLOUR.clone();

    this.bark = makeMesh("tree-bark", this.geometry.bark, scene, parent);
    this.bark.material = this.barkMaterial;
    this.leaves = this.geometry.leaves ? makeMesh("tree-leaves", this.geometry.leaves, scene, parent) : null;
    if (this.leaves) this.leaves.material = this.leafMaterial;
    const lines = buildTreeGeometry(thinSkeleton(skeleton, Math.max(SKELETON_TUBE_RADIUS, SKELETON_TUBE_SHARE * treeHeight(skeleton))), { radialSegments: 3 });
    this.skeletonLines = makeMesh("tree-skeleton", lines.bark, scene, parent);
    this.skeletonLines.material = this.skeletonMaterial;
    this.skeletonLines.isVisible = false;
    const colours = new Float32Array(4 * lines.bark.branchIndex.length);
    for (let i = 0; i < lines.bark.branchIndex.length; i++) {
      const c = LEVEL_COLOURS[Math.min(LEVEL_COLOURS.length - 1, skeleton.branchLevel[Math.round(lines.bark.branchIndex[i])])];
      colours.set([c[0] / SKELETON_COLOUR.r, c[1] / SKELETON_COLOUR.g, c[2] / SKELETON_COLOUR.b, 1], 4 * i);
    }
    this.skeletonLines.setVerticesData(VertexBuffer.ColorKind, colours, false, 4);
    const parts: TreePart[] = [{ role: "bark", mesh: this.bark, material: this.barkMaterial }];
    if (this.leaves) parts.push({ role: "leaves", mesh: this.leaves, material: this.leafMaterial });
    parts.push({ role: "skeleton", mesh: this.skeletonLines, material: this.skeletonMaterial });
    this.parts = parts;
    this.bark.receiveShadows = true;
    // Leaf cards do not receive shadows: a card shadowing itself turns black at grazing sun angles.
    if (shadows) {
      shadows.addShadowCaster(this.bark, false);
      if (this.leaves) shadows.addShadowCaster(this.leaves, false);
    }
  }

  get vertexCount(): number {
    return this.geometry.vertexCount;
  }

  setRenderMode(mode: RenderMode): void {
    this.mode = mode;
    this.applyRenderMode();
  }

  get renderMode(): RenderMode {
    return this.mode;
  }

  /** Bark texture on (default) or off (plain bark colour): Barron §6.3's texture toggle. */
  setBarkTexture(on: boolean): void {
    this.barkTextured = on;
    this.applyRenderMode();
  }

  get barkTextureOn(): boolean {
    return this.barkTextured;
  }

  /**
   * A method that draws its own geometry for a part (Barron's spline skins, regenerated every step)
   * shows `mesh` in the part's place: the part's own mesh is hidden and leaves the shadow map, the
   * substitute follows the render mode, casts shadows and is picked instead. `null` puts the part's
   * own mesh back. The method owns (and disposes) the substitute.
   */
  substitute(role: Role, mesh: Mesh | null): void {
    const part = this.parts.find((p) => p.role === role);
    if (!part) throw new Error(`the tree has no ${role} part`);
    const old = this.substitutes.get(role);
    if (old === mesh) return;
    const casts = role !== "skeleton";
    if (old) {
      if (casts) this.shadows?.removeShadowCaster(old, false);
      old.isVisible = false;
      this.substitutes.delete(role);
    }
    if (mesh) {
      this.substitutes.set(role, mesh);
      if (casts) {
        this.shadows?.removeShadowCaster(part.mesh, false);
        this.shadows?.addShadowCaster(mesh, false);
        mesh.receiveShadows = part.mesh.receiveShadows;
      }
    } else if (casts) {
      this.shadows?.addShadowCaster(part.mesh, false);
    }
    this.applyRenderMode();
  }

  /** The mesh shown for a part now: its substitute, or its own. */
  displayed(role: Role): Mesh | null {
    return this.substitutes.get(role) ?? this.parts.find((p) => p.role === role)?.mesh ?? null;
  }

  /** Every mesh shown for the tree now (for picking). */
  displayedMeshes(): Mesh[] {
    return this.parts.map((p) => this.substitutes.get(p.role) ?? p.mesh);
  }

  /** The skeleton drawn over the tree, coloured by level, on or off. */
  setHierarchyOverlay(on: boolean): void {
    this.hierarchyOverlay = on;
    this.applyRenderMode();
  }

  /** Re-applies the mode to whatever meshes and materials are shown now (a method may have swapped them). */
  applyRenderMode(): void {
    const skeleton = this.mode === "skeleton";
    for (const part of this.parts) {
      const sub = this.substitutes.get(part.role);
      const on = part.role === "skeleton" ? skeleton || this.hierarchyOverlay : !skeleton;
      part.mesh.isVisible = !sub && on;
      const shown = sub ?? part.mesh;
      if (sub) sub.isVisible = on;
      // The overlay is drawn after the tree, over it (its own rendering group clears the depth).
      if (part.role === "skeleton") shown.renderingGroupId = this.hierarchyOverlay && !skeleton ? 1 : 0;
      const m = shown.material;
      if (!m || part.role === "skeleton") continue;
      m.wireframe = this.mode === "wireframe";
      // Flat shading hooks StandardMaterial's fragment shader (every tree part wears one).
      if (m instanceof StandardMaterial) FlatShadingPlugin.on(m).isFlat = this.mode === "flat";
      if (part.role === "bark") this.applyBarkTexture(m);
    }
  }

  private applyBarkTexture(m: BaseMaterial): void {
    if (!(m instanceof StandardMaterial)) return;
    if (this.barkTextured && this.barkTexture) {
      m.diffuseTexture = this.barkTexture;
      m.diffuseColor.copyFrom(this.barkTint);
    } else {
      m.diffuseTexture = null;
      m.diffuseColor.copyFrom(this.barkPlain);
    }
  }

  dispose(): void {
    for (const role of [...this.substitutes.keys()]) this.substitute(role, null);
    for (const m of [this.bark, this.leaves, this.skeletonLines]) {
      if (!m) continue;
      this.shadows?.removeShadowCaster(m, false);
      m.dispose(false, false);
    }
    this.barkMaterial.dispose(false, false);
    this.leafMaterial.dispose(false, false);
    this.skeletonMaterial.dispose(false, false);
  }
}
