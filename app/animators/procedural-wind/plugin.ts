/**
 * The procedural-wind skinning step as a Babylon material plugin (the `Meshes/lattice.material.ts`
 * way): the branch data texture (the per-branch pass's output, or the CPU's upload where the pass
 * cannot run) is bound per submesh, the GLSL of procedural-wind.glsl.ts is injected at
 * CUSTOM_VERTEX_UPDATE_POSITION / _NORMAL, lighting and shadows keep working.
 */
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase";
import type { Material } from "@babylonjs/core/Materials/material";
import type { MaterialDefines } from "@babylonjs/core/Materials/materialDefines";
import type { UniformBuffer } from "@babylonjs/core/Materials/uniformBuffer";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { Scene } from "@babylonjs/core/scene";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import type { SubMesh } from "@babylonjs/core/Meshes/subMesh";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import {
  BRANCH_SAMPLER,
  PROCEDURAL_WIND_UPDATE_NORMAL,
  PROCEDURAL_WIND_UPDATE_POSITION,
  PROCEDURAL_WIND_VERTEX_DEFINITIONS,
} from "./procedural-wind.glsl";

/** Where the plugin reads its branch data (owned by the animator). */
export interface BranchDataSource {
  /** The texture the vertex shader reads now. */
  readonly branchTexture: BaseTexture;
  /** Whether it holds this frame's data (a pass that has rendered; an uploaded texture). */
  branchDataReady(): boolean;
}

export class ProceduralWindPluginMaterial extends MaterialPluginBase {
  constructor(material: Material, private readonly source: BranchDataSource) {
    super(material, "ProceduralWind", 200, { PROCEDURAL_WIND: false });
    this._enable(true);
  }

  /** The branch data texture bound now. */
  get branchTexture(): BaseTexture {
    return this.source.branchTexture;
  }

  override getClassName(): string {
    return "ProceduralWindPluginMaterial";
  }

  override isCompatible(shaderLanguage: ShaderLanguage): boolean {
    // texelFetch on a float texture: GLSL (WebGL2) only.
    return shaderLanguage === ShaderLanguage.GLSL;
  }

  override prepareDefines(defines: MaterialDefines): void {
    defines["PROCEDURAL_WIND"] = true;
  }

  override isReadyForSubMesh(_defines: MaterialDefines, _scene: Scene, _engine: AbstractEngine, _subMesh: SubMesh): boolean {
    return this.source.branchDataReady();
  }

  override getAttributes(attributes: string[], _scene: Scene, _mesh: AbstractMesh): void {
    attributes.push(BINDING_ATTRIBUTES.branchIndex, BINDING_ATTRIBUTES.wVector);
  }

  override getSamplers(samplers: string[]): void {
    samplers.push(BRANCH_SAMPLER);
  }

  override bindForSubMesh(uniformBuffer: UniformBuffer): void {
    uniformBuffer.setTexture(BRANCH_SAMPLER, this.source.branchTexture);
  }

  override getCustomCode(shaderType: string, shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL): { [pointName: string]: string } | null {
    if (shaderType !== "vertex" || shaderLanguage !== ShaderLanguage.GLSL) return null;
    return {
      CUSTOM_VERTEX_DEFINITIONS: PROCEDURAL_WIND_VERTEX_DEFINITIONS,
      CUSTOM_VERTEX_UPDATE_POSITION: PROCEDURAL_WIND_UPDATE_POSITION,
      CUSTOM_VERTEX_UPDATE_NORMAL: PROCEDURAL_WIND_UPDATE_NORMAL,
    };
  }
}
