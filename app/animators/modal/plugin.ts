/**
 * The modal method's vertex step as a Babylon material plugin (as procedural-wind/plugin.ts): the
 * node displacement texture is bound per submesh, the GLSL of modal.glsl.ts is injected at
 * CUSTOM_VERTEX_UPDATE_POSITION, lighting and shadows keep working.
 */
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase";
import type { Material } from "@babylonjs/core/Materials/material";
import type { MaterialDefines } from "@babylonjs/core/Materials/materialDefines";
import type { UniformBuffer } from "@babylonjs/core/Materials/uniformBuffer";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { Scene } from "@babylonjs/core/scene";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import type { SubMesh } from "@babylonjs/core/Meshes/subMesh";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import { MODAL_UPDATE_POSITION, MODAL_VERTEX_DEFINITIONS, NODE_SAMPLER } from "./modal.glsl";

export class ModalPluginMaterial extends MaterialPluginBase {
  /** The node displacement texture (owned by the animator, not disposed here). */
  nodeTexture: RawTexture;

  constructor(material: Material, nodeTexture: RawTexture) {
    super(material, "Modal", 200, { MODAL_DEFORM: false });
    this.nodeTexture = nodeTexture;
    this._enable(true);
  }

  override getClassName(): string {
    return "ModalPluginMaterial";
  }

  override isCompatible(shaderLanguage: ShaderLanguage): boolean {
    // texelFetch on a float texture: GLSL (WebGL2) only.
    return shaderLanguage === ShaderLanguage.GLSL;
  }

  override prepareDefines(defines: MaterialDefines): void {
    defines["MODAL_DEFORM"] = true;
  }

  override isReadyForSubMesh(_defines: MaterialDefines, _scene: Scene, _engine: AbstractEngine, _subMesh: SubMesh): boolean {
    return this.nodeTexture.isReady();
  }

  override getAttributes(attributes: string[], _scene: Scene, _mesh: AbstractMesh): void {
    attributes.push(BINDING_ATTRIBUTES.skinNodes, BINDING_ATTRIBUTES.skinWeights);
  }

  override getSamplers(samplers: string[]): void {
    samplers.push(NODE_SAMPLER);
  }

  override bindForSubMesh(uniformBuffer: UniformBuffer): void {
    uniformBuffer.setTexture(NODE_SAMPLER, this.nodeTexture);
  }

  override getCustomCode(shaderType: string, shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL): { [pointName: string]: string } | null {
    if (shaderType !== "vertex" || shaderLanguage !== ShaderLanguage.GLSL) return null;
    return {
      CUSTOM_VERTEX_DEFINITIONS: MODAL_VERTEX_DEFINITIONS,
      CUSTOM_VERTEX_UPDATE_POSITION: MODAL_UPDATE_POSITION,
    };
  }
}
