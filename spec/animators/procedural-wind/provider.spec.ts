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
import { tipNode, type TreeSkeleton } from "../../../app/tree/skeleton";
import { WindField } from "../../../app/wind/wind-field";
import type { AnimatorContext, TreeInstance } from "../../../app/animators/animator";
import { AnimatorRegistry } from "../../../app/animators/animator";
import { proceduralWindProvider, ProceduralWindAnimator } from "../../../app/animators/procedural-wind/provider";
import { ProceduralWindPluginMaterial } from "../../../app/animators/procedural-wind/plugin";
import { fourLevelTree } from "./fixtures";

/** A mesh with one vertex per skeleton node, bound like tree/geometry.ts binds vertices. */
function nodeMesh(name: string, scene: Scene, s: TreeSkeleton, parent: TransformNode): Mesh {
  const positions = Array.from(s.nodePosition);
  const normals: number[] = [], indices: number[] = [], branchIndex: number[] = [], wVector: number[] = [];
  for (let k = 0; k < s.nodeCount; k++) {
    normals.push(1, 0, 0);
    let b = s.nodeBranch[k];
    branchIndex.push(b);
    const w = [0, 0, 0, 0];
    w[s.branchLevel[b]] = s.nodeX[k];
    while (s.branchParent[b] >= 0) {
      w[s.branchLevel[s.branchParent[b]]] = s.branchParentX[b];
      b = s.branchParent[b];
    }
    wVector.push(...w);
  }
  for (let k = 0; k + 2 < s.nodeCount; k++) indices.push(k, k + 1, k + 2);
  const mesh = new Mesh(name, scene);
  const vd = new VertexData();
  vd.positions = positions; vd.normals = normals; vd.indices = indices;
  vd.applyToMesh(mesh);
  mesh.setVerticesData("branchIndex", branchIndex, false, 1);
  mesh.setVerticesData("wVector", wVector, false, 4);
  mesh.parent = parent;
  return mesh;
}

describe("procedural-wind provider under NullEngine", () => {
  let engine: NullEngine;
  let scene: Scene;
  let tree: TreeInstance;
  let root: TransformNode;
  let shadows: ShadowGenerator;
  const wind = new WindField({ speed: 10, direction: 30, turbulence: 0.3, gust: 0.2, seed: 5 }, { width: 256, height: 64 });
  const clock = { time: 0, dt: 1 / 60 };
  const context = (): AnimatorContext => ({ scene, tree, wind, rng: new Rng(9), root, clock });

  beforeEach(() => {
    engine = new NullEngine();
    scene = new Scene(engine);
    root = new TransformNode("root", scene);
    new FreeCamera("camera", new Vector3(0, 3, -15), scene).setTarget(new Vector3(0, 3, 0));
    const sun = new DirectionalLight("sun", new Vector3(-1, -2, 1), scene);
    shadows = new ShadowGenerator(256, sun);
    const skeleton = fourLevelTree();
    const barkMaterial = new StandardMaterial("bark", scene);
    barkMaterial.diffuseTexture = new RawTexture(new Uint8Array([120, 90, 60, 255]), 1, 1, Constants.TEXTUREFORMAT_RGBA, scene);
    const leafMaterial = new StandardMaterial("leaf", scene);
    leafMaterial.diffuseTexture = new RawTexture(new Uint8Array([60, 140, 50, 200]), 1, 1, Constants.TEXTUREFORMAT_RGBA, scene);
    leafMaterial.useAlphaFromDiffuseTexture = true;
    leafMaterial.transparencyMode = Material.MATERIAL_ALPHATEST;
    leafMaterial.backFaceCulling = false;
    const bark = nodeMesh("bark", scene, skeleton, root);
    const leaves = nodeMesh("leaves", scene, skeleton, root);
    tree = {
      skeleton,
      geometry: { bark: null as never, leaves: null, vertexCount: 2 * skeleton.nodeCount },
      bark,
      leaves,
      barkMaterial,
      leafMaterial,
      parts: [
        { role: "bark", mesh: bark, material: barkMaterial },
        { role: "leaves", mesh: leaves, material: leafMaterial },
      ],
      substitute: () => {
        throw new Error("procedural-wind deforms the tree's own meshes; it never substitutes them");
      },
    };
    tree.bark.material = barkMaterial;
    shadows.addShadowCaster(tree.bark);
    shadows.addShadowCaster(tree.leaves!);
    tree.leaves!.material = leafMaterial;
    clock.time = 0;
  });

  afterEach(() => {
    scene.dispose();
    engine.dispose();
  });

  test("declares its id, label and a damping parameter from 0 to 1 (registers)", () => {
    expect(proceduralWindProvider.id).toBe("procedural-wind");
    expect(proceduralWindProvider.label).toBe("Procedural wind (Zioma 2007)");
    expect(() => new AnimatorRegistry().register(proceduralWindProvider)).not.toThrow();
  });

  test("creates, updates, probes and restores the materials", () => {
    const a = proceduralWindProvider.create(context(), defaultsOf(proceduralWindProvider.params));
    expect(tree.bark.material).not.toBe(tree.barkMaterial);
    const leaf = tree.leaves!.material as StandardMaterial;
    expect(leaf.diffuseTexture).toBe(tree.leafMaterial.diffuseTexture);
    expect(leaf.transparencyMode).toBe(Material.MATERIAL_ALPHATEST);
    expect(leaf.useAlphaFromDiffuseTexture).toBe(true);
    expect(leaf.backFaceCulling).toBe(false);
    // Shadows: the shadow map draws the leaves with a depth-only material that deforms the same
    // way and cuts the cards out, wrapped standalone (app/animators/shadow-depth.ts).
    const shadowPass = shadows.getShadowMap()!.renderPassId;
    const depth = tree.leaves!.getMaterialForRenderPass(shadowPass) as ShaderMaterial;
    expect(depth).toBeInstanceOf(ShaderMaterial);
    expect(depth.shadowDepthWrapper?.standalone).toBe(true);
    expect(depth.options.defines).toContain("#define ALPHATEST");
    expect((depth.shaderPath as { vertexSource: string }).vertexSource).toContain("pwDeform(p, n, branchIndex, wVector)");
    expect(tree.bark.getMaterialForRenderPass(shadowPass)).toBeInstanceOf(ShaderMaterial);
    const s = tree.skeleton;
    for (let f = 0; f < 120; f++) {
      clock.time += clock.dt;
      a.update(clock.dt);
    }
    scene.render();
    const tips = a.probe();
    expect(tips.length).toBe(3 * s.branchCount);
    let moved = 0;
    for (let b = 0; b < s.branchCount; b++) {
      const k = tipNode(s, b);
      moved = Math.max(moved, Math.hypot(tips[3 * b] - s.nodePosition[3 * k], tips[3 * b + 1] - s.nodePosition[3 * k + 1], tips[3 * b + 2] - s.nodePosition[3 * k + 2]));
    }
    // The fixture is a 6 m oak with a 25 cm trunk: at 10 m/s its tips move by tenths of a millimetre (the reference's figure too).
    expect(moved).toBeGreaterThan(1e-5);
    const st = a.stats();
    expect(st.counts.branches).toBe(s.branchCount);
    expect(st.counts.vertices).toBe(2 * s.nodeCount);
    expect(st.nonFinite).toBe(false);
    a.setParams({ stiffness: 2 });
    a.dispose();
    expect(tree.bark.material).toBe(tree.barkMaterial);
    expect(tree.leaves!.material).toBe(tree.leafMaterial);
    expect(tree.leaves!.getMaterialForRenderPass(shadowPass)).toBeUndefined();
    expect(scene.materials).not.toContain(depth);
    expect(tree.barkMaterial.diffuseTexture).toBeTruthy();
  });

  test("without float render targets (NullEngine) it steps every branch on the CPU, says so, and one tip's probe is probe()'s", () => {
    const a = proceduralWindProvider.create(context(), defaultsOf(proceduralWindProvider.params)) as ProceduralWindAnimator;
    expect(a.gpu).toBeNull();
    const tip = new Float64Array(3);
    for (let f = 0; f < 30; f++) {
      clock.time += clock.dt;
      a.update(clock.dt);
      a.probeTip(5, tip);
    }
    expect(a.simulatesOnGpu).toBe(false);
    expect(a.branchTexture).toBe(a.dataTexture);
    expect(a.stats().notes?.join(" ")).toMatch(/per-branch simulation on the CPU: no float render targets/);
    const tips = a.probe();
    for (let b = 0; b < tree.skeleton.branchCount; b++) {
      a.probeTip(b, tip);
      for (let k = 0; k < 3; k++) expect(tip[k]).toBeCloseTo(tips[3 * b + k], 5);
    }
    a.dispose();
  });

  test("probe follows the root: moving the tree moves the tips", () => {
    const a = proceduralWindProvider.create(context(), defaultsOf(proceduralWindProvider.params));
    const before = a.probe();
    root.position.x = 20;
    const after = a.probe();
    expect(after[0] - before[0]).toBeCloseTo(20, 5);
    a.dispose();
  });

  test("reading the tips changes nothing: probing every step or only at the end gives the same frames, wherever the tree stands", () => {
    // The local wind is sampled where the tree stands (§6.3.1). That place is read at every step,
    // not when someone probes: a tree moved after the method started shows the same motion
    // whether or not its tips were read in between, and the same as one started there.
    const run = (probeEvery: boolean, moveAfterStart: boolean): Float32Array => {
      root.position.set(moveAfterStart ? 0 : 7, 0, moveAfterStart ? 0 : -3);
      clock.time = 0;
      const a = proceduralWindProvider.create(context(), defaultsOf(proceduralWindProvider.params));
      root.position.set(7, 0, -3);
      for (let f = 0; f < 120; f++) {
        clock.time += clock.dt;
        a.update(clock.dt);
        if (probeEvery) a.probe();
      }
      const tips = a.probe();
      a.dispose();
      return tips;
    };
    const reference = run(false, false);
    expect(run(true, false)).toEqual(reference);
    expect(run(false, true)).toEqual(reference);
    expect(run(true, true)).toEqual(reference);
  });

  test("the plugin injects its vertex code at the update points", () => {
    const a = proceduralWindProvider.create(context(), defaultsOf(proceduralWindProvider.params)) as ProceduralWindAnimator;
    const plugin = a.barkMaterial.pluginManager?.getPlugin<ProceduralWindPluginMaterial>("ProceduralWind");
    expect(plugin).toBeInstanceOf(ProceduralWindPluginMaterial);
    const code = plugin!.getCustomCode("vertex")!;
    expect(Object.keys(code)).toEqual(expect.arrayContaining(["CUSTOM_VERTEX_DEFINITIONS", "CUSTOM_VERTEX_UPDATE_POSITION", "CUSTOM_VERTEX_UPDATE_NORMAL"]));
    expect(code.CUSTOM_VERTEX_DEFINITIONS).toContain("texelFetch");
    expect(code.CUSTOM_VERTEX_DEFINITIONS).toContain("attribute vec4 wVector");
    expect(code.CUSTOM_VERTEX_UPDATE_POSITION).toContain("pwDeform(positionUpdated");
    expect(code.CUSTOM_VERTEX_UPDATE_NORMAL).toContain("normalUpdated");
    expect(plugin!.getCustomCode("fragment")).toBeNull();
    const attributes: string[] = [];
    plugin!.getAttributes(attributes, scene, tree.bark);
    expect(attributes).toEqual(["branchIndex", "wVector"]);
    const samplers: string[] = [];
    plugin!.getSamplers(samplers);
    expect(samplers).toEqual(["pwBranchData"]);
    a.dispose();
  });

  test("50 create/update/dispose cycles leave meshes, materials and textures as they were", () => {
    scene.render();
    const counts = () => [scene.meshes.length, scene.materials.length, scene.textures.length, scene.transformNodes.length];
    const before = counts();
    for (let i = 0; i < 50; i++) {
      const a = proceduralWindProvider.create(context(), defaultsOf(proceduralWindProvider.params));
      clock.time += clock.dt;
      a.update(clock.dt);
      scene.render();
      a.dispose();
    }
    expect(counts()).toEqual(before);
    expect(tree.bark.material).toBe(tree.barkMaterial);
  });
});
