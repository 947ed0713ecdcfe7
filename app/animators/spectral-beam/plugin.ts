/**
 * The spectral-beam deformation as a Babylon material plugin (the `Meshes/lattice.material.ts`
 * way): the branch data (the per-branch pass's output, or the CPU's upload) and the leaves' motion
 * textures are bound per submesh, the eight vec4 uniforms go
 * through the material's uniform buffer, the GLSL of spectral-beam.glsl.ts is injected at
 * CUSTOM_VERTEX_UPDATE_POSITION / _NORMAL, and lighting and shadows keep working.
 */
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase";
import type { Material } from "@babylonjs/core/Materials/material";
import type { MaterialDefines } from "@babylonjs/core/Materials/materialDefines";
import type { UniformBuffer } from "@babylonjs/core/Materials/uniformBuffer";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh";
import type { Scene } from "@babylonjs/core/scene";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import type { SubMesh } from "@babylonjs/core/Meshes/subMesh";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage";
import { BINDING_ATTRIBUTES } from "../../tree/geometry";
import {
  BRANCH_SAMPLER, LEAF_SAMPLER, SPECTRAL_BEAM_FRAGMENT_BEFORE_FRAGCOLOR, SPECTRAL_BEAM_FRAGMENT_DEFINITIONS,
  SPECTRAL_BEAM_UPDATE_NORMAL, SPECTRAL_BEAM_UPDATE_POSITION, SPECTRAL_BEAM_VERTEX_DEFINITIONS, UNIFORM_NAMES, HARDWARE_FILTER_DEFINE, HIGHLIGHT_DEFINE, LEAVES_DEFINE,
} from "./spectral-beam.glsl";

/** Where the plugin reads its textures and uniforms (owned by the animator). */
export interface SpectralBeamBindings {
  /** The branch data: the per-branch pass's output, or the CPU's upload where the pass cannot run. */
  branchTexture: BaseTexture;
  /** Whether it holds this frame's data (a pass that has rendered; an uploaded texture). */
  branchReady(): boolean;
  /** The leaves' motion textures (RGB), LINEAR + REPEAT when `hardwareFilter`. */
  leafTexture: RawTexture;
  hardwareFilter: boolean;
  /** A branch is selected: compile the highlight in. */
  highlight: boolean;
  /** UNIFORM_NAMES.length * 4 floats. */
  uniforms: Float32Array;
}

export class SpectralBeamPluginMaterial extends MaterialPluginBase {
  /** `leaves`: the material draws leaf cards (their attributes and the flutter are compiled in). */
  constructor(material: Material, private readonly bindings: SpectralBeamBindings, private readonly leaves: boolean) {
    super(material, "SpectralBeam", 200, { SPECTRAL_BEAM: false, [HARDWARE_FILTER_DEFINE]: false, [HIGHLIGHT_DEFINE]: false, [LEAVES_DEFINE]: false });
    this._enable(true);
  }

  /** Recompiles with or without the highlight (after `bindings.highlight` changed). */
  refreshDefines(): void {
    this.markAllDefinesAsDirty();
  }

  override getClassName(): string {
    return "SpectralBeamPluginMaterial";
  }

  override isCompatible(shaderLanguage: ShaderLanguage): boolean {
    return shaderLanguage === ShaderLanguage.GLSL; // texelFetch on float textures: WebGL2
  }

  override prepareDefines(defines: MaterialDefines): void {
    defines["SPECTRAL_BEAM"] = true;
    defines[HARDWARE_FILTER_DEFINE] = this.bindings.hardwareFilter;
    defines[HIGHLIGHT_DEFINE] = this.bindings.highlight;
    defines[LEAVES_DEFINE] = this.leaves;
  }

  override isReadyForSubMesh(_defines: MaterialDefines, _scene: Scene, _engine: AbstractEngine, _subMesh: SubMesh): boolean {
    return this.bindings.branchReady() && this.bindings.leafTexture.isReady();
  }

  override getAttributes(attributes: string[], _scene: Scene, _mesh: AbstractMesh): void {
    attributes.push(BINDING_ATTRIBUTES.branchIndex, BINDING_ATTRIBUTES.wVector);
    if (this.leaves) attributes.push(BINDING_ATTRIBUTES.leafFrame, BINDING_ATTRIBUTES.leafCoord);
  }

  override getSamplers(samplers: string[]): void {
    samplers.push(BRANCH_SAMPLER, LEAF_SAMPLER);
  }

  override getUniforms(): { ubo: { name: string; size: number; type: string }[]; vertex: string } {
    return {
      ubo: UNIFORM_NAMES.map((name) => ({ name, size: 4, type: "vec4" })),
      vertex: UNIFORM_NAMES.map((n) => `uniform vec4 ${n};`).join("\n"),
    };
  }

  override bindForSubMesh(uniformBuffer: UniformBuffer): void {
    const u = this.bindings.uniforms;
    for (let i = 0; i < UNIFORM_NAMES.length; i++) {
      uniformBuffer.updateFloat4(UNIFORM_NAMES[i], u[4 * i], u[4 * i + 1], u[4 * i + 2], u[4 * i + 3]);
    }
    uniformBuffer.setTexture(BRANCH_SAMPLER, this.bindings.branchTexture);
    uniformBuffer.setTexture(LEAF_SAMPLER, this.bindings.leafTexture);
  }

  override getCustomCode(shaderType: string, shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL): { [pointName: string]: string } | null {
    if (shaderLanguage !== ShaderLanguage.GLSL) return null;
    if (shaderType === "vertex") {
      return {
        CUSTOM_VERTEX_DEFINITIONS: SPECTRAL_BEAM_VERTEX_DEFINITIONS,
        CUSTOM_VERTEX_UPDATE_POSITION: SPECTRAL_BEAM_UPDATE_POSITION,
        CUSTOM_VERTEX_UPDATE_NORMAL: SPECTRAL_BEAM_UPDATE_NORMAL,
      };
    }
    return {
      CUSTOM_FRAGMENT_DEFINITIONS: SPECTRAL_BEAM_FRAGMENT_DEFINITIONS,
      CUSTOM_FRAGMENT_BEFORE_FRAGCOLOR: SPECTRAL_BEAM_FRAGMENT_BEFORE_FRAGCOLOR,
    };
  }
}
