/**
 * Flat shading for any StandardMaterial (Barron §6.3: "smooth-shaded, flat-shaded, in wireframe,
 * or as a skeleton"): a material plugin that replaces the interpolated normal by the face normal,
 * from the screen-space derivatives of the world position, oriented like the interpolated one so
 * two-sided lighting still works. Added to whatever material a tree part wears (a method may have
 * swapped in its own), switched by a define, so smooth and flat share one compiled material each.
 */
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase";
import type { Material } from "@babylonjs/core/Materials/material";
import type { MaterialDefines } from "@babylonjs/core/Materials/materialDefines";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage";

const NAME = "FlatShading";

export class FlatShadingPlugin extends MaterialPluginBase {
  private flat = false;

  constructor(material: Material) {
    super(material, NAME, 300, { FLAT_SHADING: false });
    this._enable(true);
  }

  /** The plugin on `material`, added when missing. */
  static on(material: Material): FlatShadingPlugin {
    const existing = material.pluginManager?.getPlugin(NAME) as FlatShadingPlugin | null | undefined;
    return existing ?? new FlatShadingPlugin(material);
  }

  get isFlat(): boolean {
    return this.flat;
  }

  set isFlat(on: boolean) {
    if (on === this.flat) return;
    this.flat = on;
    this.markAllDefinesAsDirty();
  }

  override getClassName(): string {
    return "FlatShadingPlugin";
  }

  override isCompatible(shaderLanguage: ShaderLanguage): boolean {
    return shaderLanguage === ShaderLanguage.GLSL;
  }

  override prepareDefines(defines: MaterialDefines): void {
    defines["FLAT_SHADING"] = this.flat;
  }

  override getCustomCode(shaderType: string, shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL): { [pointName: string]: string } | null {
    if (shaderType !== "fragment" || shaderLanguage !== ShaderLanguage.GLSL) return null;
    return {
      CUSTOM_FRAGMENT_UPDATE_DIFFUSE: `
#ifdef FLAT_SHADING
  {
    vec3 faceNormal = normalize(cross(dFdx(vPositionW), dFdy(vPositionW)));
    normalW = dot(faceNormal, normalW) < 0.0 ? -faceNormal : faceNormal;
  }
#endif
`,
    };
  }
}
