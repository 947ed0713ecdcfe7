/**
 * Shadows that follow a vertex shader, cheaply. Babylon's ShadowDepthWrapper makes the depth
 * pass run a material's custom vertex code (TOOLCHAIN.md), but wrapped around the visible
 * material it also runs that material's whole fragment shader (lights, textures, even the
 * shadow lookups) for every shadow-map texel: on SwiftShader that more than doubled the cost of
 * the shadow pass. Here the shadow maps instead draw each deformed mesh with a depth-only
 * material that deforms the same way (a ShaderMaterial with SHADOWDEPTH_* markers), wrapped in
 * "standalone" mode: the wrapper compiles it for the shadow pass by itself.
 */
import type { Scene } from "@babylonjs/core/scene";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import type { Nullable } from "@babylonjs/core/types";
import type { Material } from "@babylonjs/core/Materials/material";
import { ShadowDepthWrapper } from "@babylonjs/core/Materials/shadowDepthWrapper";
import type { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial";

/**
 * A new StandardMaterial with the look of the sandbox's `source` (textures shared, not copied): the
 * material a deforming method puts on a tree part before adding its plugin.
 */
export function copyStandardMaterial(source: StandardMaterial, name: string, scene: Scene): StandardMaterial {
  const m = new StandardMaterial(name, scene);
  m.diffuseTexture = source.diffuseTexture;
  m.opacityTexture = source.opacityTexture;
  m.bumpTexture = source.bumpTexture;
  m.diffuseColor.copyFrom(source.diffuseColor);
  m.specularColor.copyFrom(source.specularColor);
  m.emissiveColor.copyFrom(source.emissiveColor);
  m.ambientColor.copyFrom(source.ambientColor);
  m.specularPower = source.specularPower;
  m.useAlphaFromDiffuseTexture = source.useAlphaFromDiffuseTexture;
  m.transparencyMode = source.transparencyMode;
  m.alphaCutOff = source.alphaCutOff;
  m.alpha = source.alpha;
  m.backFaceCulling = source.backFaceCulling;
  m.twoSidedLighting = source.twoSidedLighting;
  m.disableLighting = source.disableLighting;
  m.wireframe = source.wireframe;
  return m;
}

/** Shadow generators of the scene's lights that draw `mesh` into their shadow map. */
function generatorsCasting(scene: Scene, mesh: Mesh): ShadowGenerator[] {
  const out: ShadowGenerator[] = [];
  for (const light of scene.lights) {
    const g = light.getShadowGenerator() as Nullable<ShadowGenerator>;
    const list = g?.getShadowMap()?.renderList;
    if (g && list && list.includes(mesh)) out.push(g);
  }
  return out;
}

/**
 * Makes every shadow map that draws `mesh` draw it with the material `makeDepth` returns.
 * Returns a function that puts things back and disposes that material.
 */
export function deformedShadows(scene: Scene, mesh: Mesh, makeDepth: () => Material): () => void {
  const generators = generatorsCasting(scene, mesh);
  if (generators.length === 0) return () => {};
  const depth = makeDepth();
  depth.shadowDepthWrapper = new ShadowDepthWrapper(depth, scene, { standalone: true });
  for (const g of generators) g.getShadowMap()!.setMaterialForRendering(mesh, depth);
  return () => {
    for (const g of generators) g.getShadowMap()?.setMaterialForRendering(mesh, undefined);
    if (depth.shadowDepthWrapper) releaseDepthEffects(depth.shadowDepthWrapper);
    depth.shadowDepthWrapper?.dispose();
    depth.shadowDepthWrapper = null;
    depth.dispose(false, false);
  };
}

/**
 * The depth effects a wrapper compiled (one per sub-mesh and shadow generator, each under its own
 * random token, so never shared): Babylon's ShadowDepthWrapper.dispose() leaves them in the
 * engine's effect cache, with their GL programs and an observer each on the engine (it frees them
 * only when the mesh is disposed, and dispose() stops listening for that). Released here, or every
 * method switch, compare view and tree would leave two programs behind.
 */
function releaseDepthEffects(wrapper: ShadowDepthWrapper): void {
  const byMesh = (wrapper as unknown as { _subMeshToDepthWrapper?: { mm?: Map<unknown, Map<unknown, { mainDrawWrapper?: { effect?: { dispose(): void } | null } }>> } })._subMeshToDepthWrapper?.mm;
  if (!byMesh) return;
  for (const byGenerator of byMesh.values()) for (const entry of byGenerator.values()) entry.mainDrawWrapper?.effect?.dispose();
  byMesh.clear();
}
