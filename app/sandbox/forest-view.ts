/**
 * The forest on screen (Zioma 2007 §6.1-§6.5 at scale): each variant's bark and leaves at three
 * levels of detail (app/forest/forest-lod.ts), drawn with thin instances, one mesh per chunk of
 * ground, variant, level and part, so a chunk off screen is culled as a whole. Each instance
 * carries its world matrix and two vec4s (its tree and its level-of-detail weights); a material
 * plugin moves every vertex in the vertex shader (app/forest/forest.glsl.ts), reading the variant's
 * branch table and the wind texture over the scene. The CPU's part per frame: the wind texture
 * (ForestWindGrid.fill and one upload), the clock uniform, and, when the camera has moved, the
 * trees' levels and the instance buffers.
 */
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage";
import { BoundingBox } from "@babylonjs/core/Culling/boundingBox";
import { Frustum } from "@babylonjs/core/Maths/math.frustum";
import type { Plane } from "@babylonjs/core/Maths/math.plane";
import type { Camera } from "@babylonjs/core/Cameras/camera";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector";
import type { Material } from "@babylonjs/core/Materials/material";
import type { MaterialDefines } from "@babylonjs/core/Materials/materialDefines";
import type { UniformBuffer } from "@babylonjs/core/Materials/uniformBuffer";
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import type { SubMesh } from "@babylonjs/core/Meshes/subMesh";
import type { Scene } from "@babylonjs/core/scene";
import "@babylonjs/core/Meshes/thinInstanceMesh";
import { floatTexture } from "../animators/float-texture";
import { BINDING_ATTRIBUTES, toBabylonWinding, type TreeGeometry } from "../tree/geometry";
import { treeHeight, treeReach, type TreeSkeleton } from "../tree/skeleton";
import { copyStandardMaterial } from "../animators/shadow-depth";
import type { DeformShader } from "../animators/deform-shader";
import { ForestMotion, ForestWindGrid, type ForestVariantTable } from "../forest/forest-motion";
import { dropAttributes, ForestBuckets, LOD_LEVELS, lodArrays, lodAt, type ForestLodBands, type LodArrays } from "../forest/forest-lod";
import type { ForestPlacement } from "../forest/scatter";
import {
  FOREST_DROP_ATTRIBUTE, FOREST_FUNCTIONS, FOREST_LOD_ATTRIBUTE, FOREST_TABLE_SAMPLER, FOREST_TREE_ATTRIBUTE, FOREST_UNIFORMS,
  FOREST_UPDATE_NORMAL, FOREST_UPDATE_POSITION, FOREST_VERTEX_DEFINITIONS, FOREST_WIND_SAMPLER,
} from "../forest/forest.glsl";

/** Values the plugins read when they bind: per variant (grid), shared (clock). */
interface ForestBindings {
  table: RawTexture;
  wind: RawTexture;
  /** (half, cell, size, branch count) */
  grid: Float32Array;
  /** (t, 0, 0, 0): the level of detail is the plugin's own. */
  clock: Float32Array;
}

class ForestPluginMaterial extends MaterialPluginBase {
  constructor(material: Material, private readonly b: ForestBindings, private readonly lod: number) {
    super(material, "Forest", 200, { FOREST: false });
    this._enable(true);
  }
  override getClassName(): string {
    return "ForestPluginMaterial";
  }
  setEnabled(on: boolean): void {
    this._enable(on);
  }
  override isCompatible(shaderLanguage: ShaderLanguage): boolean {
    return shaderLanguage === ShaderLanguage.GLSL;
  }
  override prepareDefines(defines: MaterialDefines): void {
    defines["FOREST"] = true;
  }
  override isReadyForSubMesh(_d: MaterialDefines, _s: Scene, _e: AbstractEngine, _m: SubMesh): boolean {
    return this.b.table.isReady() && this.b.wind.isReady();
  }
  override getAttributes(attributes: string[], _scene: Scene, _mesh: AbstractMesh): void {
    attributes.push(BINDING_ATTRIBUTES.branchIndex, BINDING_ATTRIBUTES.wVector, FOREST_DROP_ATTRIBUTE, FOREST_TREE_ATTRIBUTE, FOREST_LOD_ATTRIBUTE);
  }
  override getSamplers(samplers: string[]): void {
    samplers.push(FOREST_TABLE_SAMPLER, FOREST_WIND_SAMPLER);
  }
  override getUniforms(): { ubo: { name: string; size: number; type: string }[]; vertex: string } {
    return { ubo: FOREST_UNIFORMS.map((name) => ({ name, size: 4, type: "vec4" })), vertex: FOREST_UNIFORMS.map((n) => `uniform vec4 ${n};`).join("\n") };
  }
  override bindForSubMesh(uniformBuffer: UniformBuffer): void {
    const g = this.b.grid, c = this.b.clock;
    uniformBuffer.updateFloat4("forestGrid", g[0], g[1], g[2], g[3]);
    uniformBuffer.updateFloat4("forestClock", c[0], this.lod, 0, 0);
    uniformBuffer.setTexture(FOREST_TABLE_SAMPLER, this.b.table);
    uniformBuffer.setTexture(FOREST_WIND_SAMPLER, this.b.wind);
  }
  override getCustomCode(shaderType: string, shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL): { [pointName: string]: string } | null {
    if (shaderType !== "vertex" || shaderLanguage !== ShaderLanguage.GLSL) return null;
    return { CUSTOM_VERTEX_DEFINITIONS: FOREST_VERTEX_DEFINITIONS, CUSTOM_VERTEX_UPDATE_POSITION: FOREST_UPDATE_POSITION, CUSTOM_VERTEX_UPDATE_NORMAL: FOREST_UPDATE_NORMAL };
  }
}

/** One tree variant as the forest draws it. */
export interface ForestVariant {
  readonly name: string;
  readonly skeleton: TreeSkeleton;
  readonly geometry: TreeGeometry;
  readonly table: ForestVariantTable;
  readonly bark: StandardMaterial;
  readonly leaves: StandardMaterial;
}

/** Wind texture texels per side. */
export const FOREST_WIND_TEXELS = 48;

export class ForestView {
  readonly grid: ForestWindGrid;
  readonly buckets: ForestBuckets;
  readonly windTexture: RawTexture;
  /** Per bucket, its meshes (bark, then leaves when the variant has them). */
  readonly bucketMeshes: Mesh[][] = [];
  readonly materials: StandardMaterial[] = [];
  private readonly plugins: ForestPluginMaterial[] = [];
  private still = false;
  private readonly tables: RawTexture[] = [];
  private readonly clock = new Float32Array(4);
  private readonly grids: Float32Array[] = [];
  /** Per chunk, its box (the trees' reach and sway included) and whether it is on screen. */
  private readonly chunkBoxes: BoundingBox[] = [];
  private readonly visible: Uint8Array;
  /** Per variant and part, the arrays of each level (for the GPU check). */
  readonly levels: { bark: LodArrays[]; leaves: LodArrays[] | null }[] = [];
  private readonly camAt = new Float64Array(2).fill(NaN);
  private bands: ForestLodBands;
  private readonly centre = new Float64Array(2);
  /** The tallest variant's height, m. */
  readonly height: number;

  /** Vertices of one tree of each variant at each level (variant × LOD_LEVELS + level). */
  private readonly treeVertices: Float64Array;
  /** The share of the bands in use (1, or less to stay within the budget) and the vertices drawn. */
  lodScale = 1;
  private readonly drawn = new Float64Array(1);
  private readonly scaled: ForestLodBands = { near: 0, far: 0, band: 0 };

  /** `vertexBudget`: the most vertices the trees on screen may draw a frame (the bands shrink to stay within it). */
  constructor(scene: Scene, readonly variants: readonly ForestVariant[], readonly placement: ForestPlacement, readonly area: number, bands: ForestLodBands, readonly vertexBudget = Infinity) {
    this.bands = { ...bands };
    this.height = Math.max(...variants.map((v) => treeHeight(v.skeleton)));
    this.grid = new ForestWindGrid(FOREST_WIND_TEXELS, area / 2 + 2);
    this.windTexture = floatTexture(this.grid.data, FOREST_WIND_TEXELS, FOREST_WIND_TEXELS, scene, "forest wind");
    this.buckets = new ForestBuckets(placement, variants.length, area);
    const B = this.buckets;
    for (let k = 0; k < B.bucketCount; k++) this.bucketMeshes.push([]);
    const reach = Math.max(...variants.map((v) => treeReach(v.skeleton))) * 1.25 + 1;
    for (let c = 0; c < B.chunks * B.chunks; c++) {
      B.chunkCentre(c, this.centre);
      const h = B.chunkSize / 2 + reach;
      this.chunkBoxes.push(new BoundingBox(new Vector3(this.centre[0] - h, -1, this.centre[1] - h), new Vector3(this.centre[0] + h, this.height * 1.25 + 1, this.centre[1] + h)));
    }
    this.visible = new Uint8Array(B.chunks * B.chunks);
    this.treeVertices = new Float64Array(variants.length * LOD_LEVELS);
    variants.forEach((v, vi) => {
      const table = floatTexture(v.table.data, v.table.width, v.table.height, scene, `forest ${v.name} branches`);
      this.tables.push(table);
      const grid = new Float32Array([this.grid.half, this.grid.cell, FOREST_WIND_TEXELS, v.table.branchCount]);
      this.grids.push(grid);
      const bindings: ForestBindings = { table, wind: this.windTexture, grid, clock: this.clock };
      const parts: ["bark" | "leaves", TreeGeometry["bark"] | null, StandardMaterial][] = [["bark", v.geometry.bark, v.bark], ["leaves", v.geometry.leaves, v.leaves]];
      const lv: { bark: LodArrays[]; leaves: LodArrays[] | null } = { bark: [], leaves: null };
      this.levels.push(lv);
      for (const [role, arrays, source] of parts) {
        if (!arrays) continue;
        const drop = dropAttributes(arrays, v.skeleton, role === "leaves");
        const arr: LodArrays[] = [];
        for (let lod = 0; lod < LOD_LEVELS; lod++) {
          const a = lodArrays(arrays, drop, lod);
          arr.push(a);
          if (a.vertexCount === 0 || a.indices.length === 0) continue;
          const mesh = new Mesh(`forest ${v.name} ${role} ${lod}`, scene);
          const vd = new VertexData();
          vd.positions = a.positions; vd.normals = a.normals; vd.uvs = a.uvs; vd.indices = toBabylonWinding(a.indices);
          vd.applyToMesh(mesh, false);
          mesh.setVerticesData(BINDING_ATTRIBUTES.branchIndex, a.branchIndex, false, 1);
          mesh.setVerticesData(BINDING_ATTRIBUTES.wVector, a.wVector, false, 4);
          mesh.setVerticesData(FOREST_DROP_ATTRIBUTE, a.drop, false, 4);
          const m = copyStandardMaterial(source, `forest ${v.name} ${role} ${lod}`, scene);
          this.plugins.push(new ForestPluginMaterial(m, bindings, lod));
          this.materials.push(m);
          mesh.material = m;
          mesh.isPickable = false;
          // Culled by chunk on the CPU (assign): Babylon draws whatever instances are written.
          mesh.alwaysSelectAsActiveMesh = true;
          mesh.doNotSyncBoundingInfo = true;
          const k = vi * LOD_LEVELS + lod;
          mesh.thinInstanceSetBuffer("matrix", B.matrices[k], 16, false);
          mesh.thinInstanceSetBuffer(FOREST_TREE_ATTRIBUTE, B.trees[k], 4, false);
          mesh.thinInstanceSetBuffer(FOREST_LOD_ATTRIBUTE, B.lods[k], 4, false);
          mesh.thinInstanceCount = 0;
          mesh.isVisible = false;
          this.bucketMeshes[k].push(mesh);
        }
        if (role === "bark") lv.bark = arr;
        else lv.leaves = arr;
        for (let lod = 0; lod < LOD_LEVELS; lod++) this.treeVertices[vi * LOD_LEVELS + lod] += arr[lod].vertexCount;
      }
    });
  }

  /** Levels of detail from now on (the buckets are rewritten at the next update). */
  setBands(bands: ForestLodBands): void {
    this.bands = { ...bands };
    this.recull();
  }

  /** The next cull looks again (after the instance buffers were written by hand). */
  recull(): void {
    this.lastView.fill(NaN);
  }

  /** The frame's CPU work before the scene draws: the wind texture for time t and the clock. */
  update(t: number, wind: { sample(x: number, y: number, z: number, t: number, out: Float64Array, o?: number): void }): void {
    if (this.still) return;
    this.grid.fill(wind, t);
    this.windTexture.update(this.grid.data);
    this.clock[0] = t;
  }

  /**
   * Before `camera` draws (its matrices are this frame's): when it has moved or turned, the chunks
   * on screen (their boxes against its frustum) and every tree's level, into the instance buffers.
   */
  cull(camera: Camera, views = 1): void {
    const m = camera.getTransformationMatrix().m, last = this.lastView;
    let same = views === this.lastViews;
    for (let i = 0; i < 16; i++) if (m[i] !== last[i]) { same = false; last[i] = m[i]; }
    if (same) return;
    this.lastViews = views;
    Frustum.GetPlanesToRef(camera.getTransformationMatrix(), this.planes);
    // Compare views see the forest through cells of other shapes: every chunk is kept then.
    for (let c = 0; c < this.chunkBoxes.length; c++) this.visible[c] = views > 1 || this.chunkBoxes[c].isInFrustum(this.planes) ? 1 : 0;
    const p = camera.globalPosition;
    this.camAt[0] = p.x;
    this.camAt[1] = p.z;
    this.assign(p.x, p.z, this.visible);
  }
  private readonly lastView = new Float32Array(16).fill(NaN);
  private lastViews = 1;
  private readonly planes: Plane[] = Frustum.GetPlanes(new Matrix());

  /** Chunks on screen after the last cull. */
  get chunksOnScreen(): number {
    return this.visible.reduce((a, b) => a + b, 0);
  }

  /** Every tree's level for a camera at (x, z), the trees of the chunks `visible` (null: all) into the instance buffers. */
  assign(camX: number, camZ: number, visible: Uint8Array | null = null): void {
    const B = this.buckets, b = this.bands, sc = this.scaled;
    // Within the budget: the bands shrink (every band alike) until the trees on screen fit.
    const k = (this.lodScale = B.budgetScale(camX, camZ, b, this.treeVertices, this.vertexBudget, visible, this.drawn));
    sc.near = b.near * k; sc.far = b.far * k; sc.band = b.band * k;
    B.assign(camX, camZ, sc, visible);
    for (let k = 0; k < B.bucketCount; k++) {
      const n = B.counts[k];
      for (const mesh of this.bucketMeshes[k]) {
        mesh.thinInstanceCount = n;
        mesh.isVisible = n > 0;
        if (n === 0) continue;
        mesh.thinInstanceBufferUpdated("matrix");
        mesh.thinInstanceBufferUpdated(FOREST_TREE_ATTRIBUTE);
        mesh.thinInstanceBufferUpdated(FOREST_LOD_ATTRIBUTE);
      }
    }
  }

  /**
   * A still forest (the benchmark's baseline, `npm run bench`'s forest.frame.ratio): the materials
   * without the motion (their shaders recompile) and no wind texture; false puts both back.
   */
  setStill(on: boolean): void {
    this.still = on;
    for (const p of this.plugins) p.setEnabled(!on);
  }

  /** Vertices the trees on screen draw a frame after the last assignment. */
  get drawnVertices(): number {
    return this.drawn[0];
  }

  /** Trees drawn at each level after the last assignment. */
  levelCounts(): number[] {
    const out = [0, 0, 0];
    for (let t = 0; t < this.placement.count; t++) out[this.buckets.level[t]]++;
    return out;
  }

  /** Every mesh drawn (for tests and the GPU check). */
  get meshes(): Mesh[] {
    return this.bucketMeshes.flat();
  }

  /**
   * The GPU-vs-twin check's shader for tree `tree` of the placement at level `lod` of variant
   * `variant`'s `part`: the plugin's GLSL with the per-instance vec4s as uniforms.
   */
  deformShader(tree: number, lod: number, variant: number, part: "bark" | "leaves"): { shader: DeformShader; arrays: LodArrays } {
    const p = this.placement, v = this.variants[variant];
    if (!(Number.isInteger(tree) && tree >= 0 && tree < p.count)) throw new RangeError(`tree must be a whole number from 0 to ${p.count - 1}; got ${tree}`);
    if (!(Number.isInteger(lod) && lod >= 0 && lod < LOD_LEVELS)) throw new RangeError(`lod must be 0, 1 or 2; got ${lod}`);
    if (part === "leaves" && !this.levels[variant].leaves) throw new RangeError(`the variant "${v.name}" has no leaves`);
    const arrays = part === "bark" ? this.levels[variant].bark[lod] : this.levels[variant].leaves![lod];
    const w = new Float64Array(2);
    const d = Math.hypot(p.x[tree] - this.camAt[0], p.z[tree] - this.camAt[1]);
    lodAt(Number.isFinite(d) ? d : 0, this.lodScale === 1 ? this.bands : this.scaled, w);
    const treeV = new Float32Array([p.x[tree], p.z[tree], p.phase[tree], 1 / p.stiffness[tree]]);
    const lodV = new Float32Array([Math.cos(p.yaw[tree]), Math.sin(p.yaw[tree]), w[0], w[1]]);
    const grid = this.grids[variant], clock = this.clock;
    const uniformData = new Float32Array([...grid, clock[0], lod, 0, 0, ...treeV, ...lodV]);
    const motion = new ForestMotion(v.table, this.grid);
    const shader: DeformShader = {
      glsl: `uniform highp sampler2D ${FOREST_TABLE_SAMPLER};\nuniform highp sampler2D ${FOREST_WIND_SAMPLER};\nuniform vec4 forestGrid;\nuniform vec4 forestClock;\nuniform vec4 checkTree;\nuniform vec4 checkLod;\n${FOREST_FUNCTIONS}`,
      call: `forestDeform(p, n, ${BINDING_ATTRIBUTES.branchIndex}, ${BINDING_ATTRIBUTES.wVector}, ${FOREST_DROP_ATTRIBUTE}, checkTree, checkLod);`,
      attributes: [{ name: BINDING_ATTRIBUTES.branchIndex, size: 1 }, { name: BINDING_ATTRIBUTES.wVector, size: 4 }, { name: FOREST_DROP_ATTRIBUTE, size: 4 }],
      uniforms: ["forestGrid", "forestClock", "checkTree", "checkLod"],
      uniformData,
      textures: () => ({ [FOREST_TABLE_SAMPLER]: this.tables[variant], [FOREST_WIND_SAMPLER]: this.windTexture }),
      twin: (position, normal, attributes, out) => motion.deformVertex(uniformData[4], treeV, lodV, lod, position, normal, attributes[0][0], attributes[1], attributes[2], out),
    };
    return { shader, arrays };
  }

  dispose(): void {
    for (const m of this.meshes) m.dispose(false, false);
    for (const m of this.materials) m.dispose(false, false);
    for (const t of this.tables) t.dispose();
    this.windTexture.dispose();
  }
}
