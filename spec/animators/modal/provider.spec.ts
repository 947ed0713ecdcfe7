/**
 * The modal provider under NullEngine: materials with the plugin on every part, deformed shadows,
 * the tips moving in wind and resting without it, determinism after a restart, probe() changing
 * nothing, and 20 create/update/dispose cycles leaving the scene as it was.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { Mesh } from "@babylonjs/core/Meshes/mesh";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { ShaderMaterial } from "@babylonjs/core/Materials/shaderMaterial";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";
import { Material } from "@babylonjs/core/Materials/material";
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import { Constants } from "@babylonjs/core/Engines/constants";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../../app/lsystem/presets";
import { buildTreeGeometry, type MeshArrays } from "../../../app/tree/geometry";
import { tipNode } from "../../../app/tree/skeleton";
import { WindField } from "../../../app/wind/wind-field";
import type { AnimatorContext, TreeInstance } from "../../../app/animators/animator";
import { AnimatorRegistry } from "../../../app/animators/animator";
import { createRegistry } from "../../../app/animators/registry";
import { modalProvider, ModalAnimator } from "../../../app/animators/modal/provider";
import { ModalPluginMaterial } from "../../../app/animators/modal/plugin";

const p = TREE_PRESETS.find((t) => t.name === "demo")!;
const skeleton = grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1, fileName: "demo.lsys" });
const geometry = buildTreeGeometry(skeleton);

function makeMesh(name: string, scene: Scene, a: MeshArrays, parent: TransformNode): Mesh {
  const mesh = new Mesh(name, scene);
  const vd = new VertexData();
  vd.positions = a.positions; vd.normals = a.normals; vd.indices = a.indices;
  vd.applyToMesh(mesh);
  mesh.setVerticesData("skinNodes", a.skinNodes, false, 4);
  mesh.setVerticesData("skinWeights", a.skinWeights, false, 4);
  mesh.parent = parent;
  return mesh;
}

describe("modal provider under NullEngine", () => {
  let engine: NullEngine;
  let scene: Scene;
  let tree: TreeInstance;
  let root: TransformNode;
  let shadows: ShadowGenerator;
  let wind: WindField;
  const clock = { time: 0, dt: 1 / 60 };
  const context = (): AnimatorContext => ({ scene, tree, wind, rng: new Rng(9), root, clock });

  beforeEach(() => {
    engine = new NullEngine();
    scene = new Scene(engine);
    root = new TransformNode("root", scene);
    wind = new WindField({ speed: 12, direction: 30, turbulence: 0.3, gust: 0.2, seed: 5 }, { width: 256, height: 64 });
    new FreeCamera("camera", new Vector3(0, 3, -15), scene).setTarget(new Vector3(0, 3, 0));
    const sun = new DirectionalLight("sun", new Vector3(-1, -2, 1), scene);
    shadows = new ShadowGenerator(256, sun);
    const barkMaterial = new StandardMaterial("bark", scene);
    barkMaterial.diffuseTexture = new RawTexture(new Uint8Array([120, 90, 60, 255]), 1, 1, Constants.TEXTUREFORMAT_RGBA, scene);
    const leafMaterial = new StandardMaterial("leaf", scene);
    leafMaterial.diffuseTexture = new RawTexture(new Uint8Array([60, 140, 50, 200]), 1, 1, Constants.TEXTUREFORMAT_RGBA, scene);
    leafMaterial.useAlphaFromDiffuseTexture = true;
    leafMaterial.transparencyMode = Material.MATERIAL_ALPHATEST;
    leafMaterial.backFaceCulling = false;
    const bark = makeMesh("bark", scene, geometry.bark, root);
    const leaves = makeMesh("leaves", scene, geometry.leaves!, root);
    bark.material = barkMaterial;
    leaves.material = leafMaterial;
    tree = {
      skeleton, geometry, bark, leaves, barkMaterial, leafMaterial,
      parts: [{ role: "bark", mesh: bark, material: barkMaterial }, { role: "leaves", mesh: leaves, material: leafMaterial }],
      substitute: () => { throw new Error("modal deforms the tree's own meshes"); },
    };
    shadows.addShadowCaster(bark);
    shadows.addShadowCaster(leaves);
    clock.time = 0;
  });

  afterEach(() => {
    scene.dispose();
    engine.dispose();
  });

  const run = (steps: number, probeEvery = false): Float32Array => {
    clock.time = 0;
    const a = modalProvider.create(context(), defaultsOf(modalProvider.params));
    for (let f = 0; f < steps; f++) {
      clock.time += clock.dt;
      a.update(clock.dt);
      if (probeEvery) a.probe();
    }
    const tips = a.probe();
    a.dispose();
    return tips;
  };

  test("registers before rest; spectral-beam stays the default", () => {
    expect(() => new AnimatorRegistry().register(modalProvider)).not.toThrow();
    const ids = createRegistry().ids();
    expect(ids).toContain("modal");
    expect(ids[ids.length - 1]).toBe("rest");
  });

  test("puts the plugin and deformed shadows on every part, moves in wind, rests without it, restores the materials", () => {
    const a = modalProvider.create(context(), defaultsOf(modalProvider.params)) as ModalAnimator;
    expect(tree.bark.material).not.toBe(tree.barkMaterial);
    const plugin = (tree.bark.material as StandardMaterial).pluginManager?.getPlugin<ModalPluginMaterial>("Modal");
    expect(plugin).toBeInstanceOf(ModalPluginMaterial);
    const attributes: string[] = [];
    plugin!.getAttributes(attributes, scene, tree.bark);
    expect(attributes).toEqual(["skinNodes", "skinWeights"]);
    expect(plugin!.getCustomCode("vertex")!.CUSTOM_VERTEX_UPDATE_POSITION).toContain("mdDeform(positionUpdated");
    const shadowPass = shadows.getShadowMap()!.renderPassId;
    const depth = tree.leaves!.getMaterialForRenderPass(shadowPass) as ShaderMaterial;
    expect(depth).toBeInstanceOf(ShaderMaterial);
    expect((depth.shaderPath as { vertexSource: string }).vertexSource).toContain("mdDeform(p, n, skinNodes, skinWeights)");
    const rest = a.probe();
    for (let b = 0; b < skeleton.branchCount; b++) {
      const k = tipNode(skeleton, b);
      for (let c = 0; c < 3; c++) expect(rest[3 * b + c]).toBeCloseTo(skeleton.nodePosition[3 * k + c], 5);
    }
    for (let f = 0; f < 120; f++) { clock.time += clock.dt; a.update(clock.dt); }
    scene.render();
    let moved = 0;
    const windy = a.probe();
    for (let i = 0; i < windy.length; i++) moved = Math.max(moved, Math.abs(windy[i] - rest[i]));
    expect(moved).toBeGreaterThan(1e-3);
    const st = a.stats();
    expect(st.nonFinite).toBe(false);
    expect(st.counts.modes).toBe(12);
    wind.set({ speed: 0, gust: 0, turbulence: 0 });
    for (let f = 0; f < 60 * 30; f++) { clock.time += clock.dt; a.update(clock.dt); }
    const calm = a.probe();
    let off = 0;
    for (let i = 0; i < calm.length; i++) off = Math.max(off, Math.abs(calm[i] - rest[i]));
    expect(off).toBeLessThan(1e-3 * moved);
    a.setParams({ damping: 1, modes: 20 });
    expect(a.dynamics.modeCount).toBe(20);
    a.setParams({ modes: 4 });
    expect(a.dynamics.modeCount).toBe(4);
    a.dispose();
    expect(tree.bark.material).toBe(tree.barkMaterial);
    expect(tree.leaves!.material).toBe(tree.leafMaterial);
    expect(tree.leaves!.getMaterialForRenderPass(shadowPass)).toBeUndefined();
  });

  test("deterministic: the same seed and wind give the same tips after a restart, probed or not, moved or not", () => {
    const first = run(90);
    expect(run(90)).toEqual(first);
    expect(run(90, true)).toEqual(first);
    root.position.set(5, 0, 2);
    const moved = run(90);
    expect(moved).not.toEqual(first);
  });

  test("20 create/update/dispose cycles leave meshes, materials and textures as they were", () => {
    scene.render();
    const counts = () => [scene.meshes.length, scene.materials.length, scene.textures.length, scene.transformNodes.length];
    const before = counts();
    for (let i = 0; i < 20; i++) {
      const a = modalProvider.create(context(), defaultsOf(modalProvider.params));
      clock.time += clock.dt;
      a.update(clock.dt);
      scene.render();
      a.dispose();
    }
    expect(counts()).toEqual(before);
    expect(tree.bark.material).toBe(tree.barkMaterial);
  });
});
