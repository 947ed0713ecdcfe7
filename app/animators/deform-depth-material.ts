/**
 * The shadow-depth material of a method that deforms in the vertex shader: the same GLSL as its
 * visible materials, then only what a depth pass needs (world position and normal for the shadow
 * map's bias, the leaf texture's alpha for the cut-out). ShadowDepthWrapper injects Babylon's
 * depth code at the SHADOWDEPTH_* markers (see shadow-depth.ts).
 */
import type { Scene } from "@babylonjs/core/scene";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import { ShaderMaterial } from "@babylonjs/core/Materials/shaderMaterial";
import { attributeDeclarations, type DeformShader } from "./deform-shader";

function vertexSource(shader: DeformShader): string {
  return /* glsl */ `
precision highp float;
precision highp int;
precision highp sampler2D;
attribute vec3 position;
attribute vec3 normal;
${attributeDeclarations(shader.attributes)}
#ifdef ALPHATEST
attribute vec2 uv;
varying vec2 vUV;
#endif
uniform mat4 world;
uniform mat4 viewProjection;
${shader.glsl}
void main(void) {
  vec3 p = position;
  vec3 n = normal;
  ${shader.call}
  vec4 worldPos = world * vec4(p, 1.0);
  vec3 vNormalW = normalize(mat3(world) * n);
#define SHADOWDEPTH_NORMALBIAS
  gl_Position = viewProjection * worldPos;
#define SHADOWDEPTH_METRIC
#ifdef ALPHATEST
  vUV = uv;
#endif
}
`;
}

const FRAGMENT = /* glsl */ `
precision highp float;
#ifdef ALPHATEST
varying vec2 vUV;
uniform sampler2D diffuseSampler;
uniform float alphaCutOff;
#endif
void main(void) {
#ifdef ALPHATEST
  if (texture2D(diffuseSampler, vUV).a < alphaCutOff) discard;
#endif
#define SHADOWDEPTH_FRAGMENT
  gl_FragColor = vec4(1.0);
}
`;

/** A depth-only material deforming like the visible one; `alpha` cuts out leaf cards. */
export function deformDepthMaterial(
  name: string, scene: Scene, shader: DeformShader,
  alpha: { texture: BaseTexture; cutOff: number } | null, backFaceCulling: boolean,
): ShaderMaterial {
  const attributes = ["position", "normal", ...shader.attributes.map((a) => a.name)];
  const m = new ShaderMaterial(name, scene, { vertexSource: vertexSource(shader), fragmentSource: FRAGMENT }, {
    attributes: alpha ? [...attributes, "uv"] : attributes,
    uniforms: ["world", "viewProjection", "alphaCutOff", ...shader.uniforms],
    samplers: alpha ? [...Object.keys(shader.textures()), "diffuseSampler"] : Object.keys(shader.textures()),
    defines: [...(alpha ? ["#define ALPHATEST"] : []), ...(shader.depthDefines ?? []).map((d) => `#define ${d}`)],
  });
  if (alpha) {
    m.setTexture("diffuseSampler", alpha.texture);
    m.setFloat("alphaCutOff", alpha.cutOff);
  }
  // The method's uniforms: views of its uniformData, so every bind sends the current values
  // (ShaderMaterial keeps the arrays by reference; uniform4fv sets a plain vec4).
  shader.uniforms.forEach((name, i) => m.setArray4(name, shader.uniformData.subarray(4 * i, 4 * i + 4) as unknown as number[]));
  refreshDepthTextures(m, shader);
  m.backFaceCulling = backFaceCulling;
  return m;
}

/** Points the material at the method's current textures (after the method replaced one). */
export function refreshDepthTextures(m: ShaderMaterial, shader: DeformShader): void {
  for (const [name, texture] of Object.entries(shader.textures())) m.setTexture(name, texture);
}
