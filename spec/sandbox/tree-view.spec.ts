import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { TreeView } from "../../app/sandbox/tree-view";
import { BINDING_ATTRIBUTES, buildTreeGeometry } from "../../app/tree/geometry";
import { randomTree } from "../tree/fixtures";

describe("TreeView (the tree's meshes under NullEngine)", () => {
  let engine: NullEngine;
  let scene: Scene;
  let root: TransformNode;
  let shadows: ShadowGenerator;

  beforeEach(() => {
    engine = new NullEngine();
    scene = new Scene(engine);
    root = new TransformNode("root", scene);
    shadows = new ShadowGenerator(256, new DirectionalLight("sun", new Vector3(-1, -2, 1), scene));
  });
  afterEach(() => {
    scene.dispose();
    engine.dispose();
  });

  it("carries the per-vertex binding on every part, with Babylon's winding", () => {
    const skeleton = randomTree({ children: [3, 3, 2], leavesPerTip: 2 });
    const geometry = buildTreeGeometry(skeleton);
    const view = new TreeView(skeleton, geometry, scene, root, shadows);
    expect(view.parts.map((p) => p.role)).toEqual(["bark", "leaves", "skeleton"]);
    for (const { mesh } of view.parts) {
      const n = mesh.getTotalVertices();
      expect(mesh.getVerticesData(BINDING_ATTRIBUTES.branchIndex)!.length).toBe(n);
      expect(mesh.getVerticesData(BINDING_ATTRIBUTES.wVector)!.length).toBe(4 * n);
      expect(mesh.getVerticesData(BINDING_ATTRIBUTES.skinNodes)!.length).toBe(4 * n);
      expect(mesh.getVerticesData(BINDING_ATTRIBUTES.skinWeights)!.length).toBe(4 * n);
      expect(mesh.parent).toBe(root);
    }
    // Same triangles as tree/geometry, each with its second and third corners swapped.
    const idx = view.bark.getIndices()!;
    for (let i = 0; i < 30; i += 3) {
      expect([idx[i], idx[i + 1], idx[i + 2]]).toEqual([geometry.bark.indices[i], geometry.bark.indices[i + 2], geometry.bark.indices[i + 1]]);
    }
    expect(view.bark.getVerticesData(VertexBuffer.PositionKind)!.length).toBe(geometry.bark.positions.length);
    const casters = shadows.getShadowMap()!.renderList!;
    expect(casters.length).toBe(2);
    expect(casters[0] === view.bark && casters[1] === view.leaves).toBe(true);
  });

  it("switches render modes: skeleton tubes replace bark and leaves, wireframe on the materials on the meshes", () => {
    const skeleton = randomTree({ children: [2, 2, 2], leavesPerTip: 1 });
    const view = new TreeView(skeleton, buildTreeGeometry(skeleton), scene, root, shadows);
    expect([view.bark.isVisible, view.leaves!.isVisible, view.skeletonLines.isVisible]).toEqual([true, true, false]);
    view.setRenderMode("skeleton");
    expect([view.bark.isVisible, view.leaves!.isVisible, view.skeletonLines.isVisible]).toEqual([false, false, true]);
    view.setRenderMode("wireframe");
    expect([view.bark.isVisible, view.skeletonLines.isVisible]).toEqual([true, false]);
    expect(view.bark.material!.wireframe).toBe(true);
    view.setRenderMode("shaded");
    expect(view.bark.material!.wireframe).toBe(false);
  });

  it("leaves the scene as it found it when disposed (the shared textures stay for the next tree)", () => {
    const skeleton = randomTree({ children: [2, 2, 2], leavesPerTip: 1 });
    new TreeView(skeleton, buildTreeGeometry(skeleton), scene, root, shadows).dispose(); // creates the shared textures
    const counts = () => [scene.meshes.length, scene.materials.length, scene.textures.length];
    const before = counts();
    for (let i = 0; i < 5; i++) new TreeView(skeleton, buildTreeGeometry(skeleton), scene, root, shadows).dispose();
    expect(counts()).toEqual(before);
    expect(shadows.getShadowMap()!.renderList!.length).toBe(0);
  });
});
