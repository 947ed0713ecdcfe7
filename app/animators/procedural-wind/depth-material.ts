/**
 * The shadow-depth material of procedural-wind: the same pwDeform as the visible materials,
 * then only what a depth pass needs (world position and normal for the shadow map's bias, the
 * leaf texture's alpha for the cut-out). ShadowDepthWrapper injects Babylon's depth code at the
 * SHADOWDEPTH_* markers (see app/animators/shadow-depth.ts).
 */
import type { Scene } from "@babylonjs/core/scene";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture";
import { ShaderMaterial } from "@babylonjs/core/Materials/shaderMaterial";
import { BRANCH_SAMPLER, PROCEDURAL_WIND_FUNCTIONS } from "./procedural-wind.glsl";

const VERTEX = /* glsl */ `
precision highp float;
precision highp sampler2D;
attribute vec3 position;
attribute vec3 normal;
attribute float branchIndex;
attribute vec4 wVector;
#ifdef ALPHATEST
attribute vec2 uv;
varying vec2 vUV;
#endif
uniform mat4 world;
uniform mat4 viewProjection;
uniform highp sampler2D ${BRANCH_SAMPLER};
${PROCEDURAL_WIND_FUNCTIONS}
void main(void) {
  vec3 p = position;
  vec3 n = normal;
  pwDeform(p, n, branchIndex, wVector);
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
export function proceduralWindDepthMaterial(name: string, scene: Scene, branchData: BaseTexture, alpha: { texture: BaseTexture; cutOff: number } | null, backFaceCulling: boolean): ShaderMaterial {
  const m = new ShaderMaterial(name, scene, { vertexSource: VERTEX, fragmentSource: FRAGMENT }, {
    attributes: alpha ? ["position", "normal", "branchIndex", "wVector", "uv"] : ["position", "normal", "branchIndex", "wVector"],
    uniforms: ["world", "viewProjection", "alphaCutOff"],
    samplers: alpha ? [BRANCH_SAMPLER, "diffuseSampler"] : [BRANCH_SAMPLER],
    defines: alpha ? ["#define ALPHATEST"] : [],
  });
  m.setTexture(BRANCH_SAMPLER, branchData);
  if (alpha) {
    m.setTexture("diffuseSampler", alpha.texture);
    m.setFloat("alphaCutOff", alpha.cutOff);
  }
  m.backFaceCulling = backFaceCulling;
  return m;
}
