/**
 * The grove on screen (Van Haevre 2006 Fig. 7): the grove tree's bark and leaf meshes
 * (grove-geometry.ts) drawn once per tree with thin instances. Each instance carries its world
 * matrix (where it stands, how it is turned and scaled) and its row in a float texture of poses;
 * a material plugin moves every vertex in the vertex shader (grove.glsl.ts), so a frame costs the
 * CPU only the walks and the poses of the grove masses, and one texture upload.
 */
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage";
import type { Material } from "@babylonjs/core/Materials/material";
import type { MaterialDefines } from "@babylonjs/core/Materials/materialDefines";
import type { UniformBuffer } from "@babylonjs/core/Materials/uniformBuffer";
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import type { SubMesh } from "@babylonjs/core/Meshes/subMesh";
import type { Scene } from "@babylonjs/core/scene";
import "@babylonjs/core/Meshes/thinInstanceMesh";
import { floatTexture } from "../float-texture";
import { toBabylonWinding } from "../../tree/geometry";
import { copyStandardMaterial } from "../shadow-depth";
import type { DeformShader } from "../deform-shader";
import { groveVertex, TEXEL, type GroveGeometry, type GroveMesh, type GrovePlacement } from "./grove-geometry";
import {
  GROVE_FUNCTIONS, GROVE_MASS_ATTRIBUTE, GROVE_POSE_SAMPLER, GROVE_REST_SAMPLER, GROVE_TREE_ATTRIBUTE,
  GROVE_UPDATE_NORMAL, GROVE_UPDATE_POSITION, GROVE_VERTEX_DEFINITIONS,
} from "./grove.glsl";

class GrovePluginMaterial extends MaterialPluginBase {
  constructor(material: Material, private readonly rest: RawTexture, private readonly pose: RawTexture) {
    super(material, "MassSpringGrove", 200, { MASS_SPRING_GROVE: false });
    this._enable(true);
  }

  override getClassName(): string {
    return "MassSpringGrovePluginMaterial";
  }

  override isCompatible(shaderLanguage: ShaderLanguage): boolean {
    return shaderLanguage === ShaderLanguage.GLSL; // texelFetch: WebGL2
  }

  override prepareDefines(defines: MaterialDefines): void {
    defines["MASS_SPRING_GROVE"] = true;
  }

  override isReadyForSubMesh(_d: MaterialDefines, _s: Scene, _e: AbstractEngine, _m: SubMesh): boolean {
    return this.rest.isReady() && this.pose.isReady();
  }

  override getAttributes(attributes: string[], _scene: Scene, _mesh: AbstractMesh): void {
    attributes.push(GROVE_MASS_ATTRIBUTE, GROVE_TREE_ATTRIBUTE);
  }

  override getSamplers(samplers: string[]): void {
    samplers.push(GROVE_REST_SAMPLER, GROVE_POSE_SAMPLER);
  }

  override bindForSubMesh(uniformBuffer: UniformBuffer): void {
    uniformBuffer.setTexture(GROVE_REST_SAMPLER, this.rest);
    uniformBuffer.setTexture(GROVE_POSE_SAMPLER, this.pose);
  }

  override getCustomCode(shaderType: string, shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL): { [pointName: string]: string } | null {
    if (shaderType !== "vertex" || shaderLanguage !== ShaderLanguage.GLSL) return null;
    return {
      CUSTOM_VERTEX_DEFINITIONS: GROVE_VERTEX_DEFINITIONS,
      CUSTOM_VERTEX_UPDATE_POSITION: GROVE_UPDATE_POSITION,
      CUSTOM_VERTEX_UPDATE_NORMAL: GROVE_UPDATE_NORMAL,
    };
  }
}

export class GroveView {
  readonly meshes: Mesh[] = [];
  readonly materials: StandardMaterial[] = [];
  readonly restTexture: RawTexture;
  readonly poseTexture: RawTexture;
  /** Rows of TEXEL floats per grove mass, one row per tree (row 0: the tree drawn in full). */
  readonly pose: Float32Array;
  /** For the GPU-vs-twin check: the shader's deformation of tree `checkTree` (a uniform). */
  readonly deformShader: DeformShader;
  private readonly checkTree = new Float32Array(4);

  /** Instances for placements 1.. (placement 0 is the full tree at the centre). */
  constructor(scene: Scene, parent: TransformNode, readonly geometry: GroveGeometry, readonly placements: readonly GrovePlacement[], bark: StandardMaterial, leaf: StandardMaterial) {
    const g = geometry.masses.length, trees = placements.length;
    this.pose = new Float32Array(TEXEL * g * trees);
    for (let t = 0; t < trees; t++) this.pose.set(geometry.rest, TEXEL * g * t);
    this.restTexture = floatTexture(geometry.rest, g, 1, scene, "mass-spring grove rest");
    this.poseTexture = floatTexture(this.pose, g, trees, scene, "mass-spring grove poses");
    const matrices = new Float32Array(16 * max1(trees - 1)), rows = new Float32Array(max1(trees - 1));
    for (let k = 1; k < trees; k++) {
      const p = placements[k], c = Math.cos(p.yaw) * p.scale, s = Math.sin(p.yaw) * p.scale, o = 16 * (k - 1);
      // Row vectors (Babylon): rows are the images of x, y, z, then the translation. x -> (c, 0, s), z -> (-s, 0, c).
      matrices.set([c, 0, s, 0, 0, p.scale, 0, 0, -s, 0, c, 0, p.x, 0, p.z, 1], o);
      rows[k - 1] = k;
    }
    const parts: [GroveMesh | null, StandardMaterial, string][] = [[geometry.bark, bark, "bark"], [geometry.leaves, leaf, "leaves"]];
    for (const [arrays, source, role] of parts) {
      if (!arrays || trees < 2) continue;
      const mesh = new Mesh(`mass-spring grove ${role}`, scene);
      const vd = new VertexData();
      vd.positions = arrays.positions;
      vd.normals = arrays.normals;
      vd.uvs = arrays.uvs;
      vd.indices = toBabylonWinding(arrays.indices);
      vd.applyToMesh(mesh, false);
      mesh.setVerticesData(GROVE_MASS_ATTRIBUTE, arrays.groveMass, false, 3);
      mesh.thinInstanceSetBuffer("matrix", matrices, 16, true);
      mesh.thinInstanceSetBuffer(GROVE_TREE_ATTRIBUTE, rows, 1, true);
      mesh.parent = parent;
      mesh.isPickable = false;
      mesh.alwaysSelectAsActiveMesh = true; // the trees move beyond any bounds computed at rest
      const m = copyStandardMaterial(source, `mass-spring grove ${role}`, scene);
      new GrovePluginMaterial(m, this.restTexture, this.poseTexture);
      mesh.material = m;
      this.meshes.push(mesh);
      this.materials.push(m);
    }
    const rest = geometry.rest, pose = this.pose, checkTree = this.checkTree;
    this.deformShader = {
      glsl: `uniform highp sampler2D ${GROVE_REST_SAMPLER};\nuniform highp sampler2D ${GROVE_POSE_SAMPLER};\nuniform vec4 groveCheckTree;\n${GROVE_FUNCTIONS}`,
      call: `groveDeform(p, n, ${GROVE_MASS_ATTRIBUTE}, groveCheckTree.x);`,
      attributes: [{ name: GROVE_MASS_ATTRIBUTE, size: 3 }],
      uniforms: ["groveCheckTree"],
      uniformData: checkTree,
      textures: () => ({ [GROVE_REST_SAMPLER]: this.restTexture, [GROVE_POSE_SAMPLER]: this.poseTexture }),
      twin: (position, normal, attributes, out) => {
        const a = attributes[0];
        groveVertex(rest, pose, TEXEL * g * checkTree[0], a[0], a[1], a[2], position, normal, out);
      },
    };
  }

  /** Which tree the GPU-vs-twin check deforms. */
  setCheckTree(tree: number): void {
    this.checkTree[0] = tree;
  }

  /** Sends the poses written into `pose` to the GPU. */
  upload(): void {
    this.poseTexture.update(this.pose);
  }

  setVisible(on: boolean): void {
    for (const m of this.meshes) m.isVisible = on;
  }

  dispose(): void {
    for (const m of this.meshes) m.dispose(false, false);
    for (const m of this.materials) m.dispose(false, false);
    this.restTexture.dispose();
    this.poseTexture.dispose();
  }
}

function max1(n: number): number {
  return n < 1 ? 1 : n;
}
