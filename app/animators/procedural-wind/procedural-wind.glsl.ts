/**
 * GLSL of the procedural-wind skinning step (Zioma 2007 §6.4, §6.5), as template strings.
 * The per-branch quaternions, and each branch's composite of all its ancestors' transforms, come
 * from the simulation step per branch (§6.5.1's stream-out split: the GPU pass of pass.glsl.ts,
 * or the twin's step on the CPU where the pass cannot run); each vertex applies its own branch's
 * quaternion blended with identity (§6.5 two-bone blend), then that composite.
 * Mirrors ProceduralWindTwin.deformVertex line by line.
 */
import { BRANCHES_PER_ROW, TEXELS_PER_BRANCH } from "./twin";

/** Sampler name of the RGBA32F branch data texture (layout: twin.ts TEXELS_PER_BRANCH). */
export const BRANCH_SAMPLER = "pwBranchData";

/** Functions shared by the material plugin and the GPU check. Needs `uniform highp sampler2D pwBranchData`. */
export const PROCEDURAL_WIND_FUNCTIONS = /* glsl */ `
vec4 pwTexel(int b, int j) {
  int row = b / ${BRANCHES_PER_ROW};
  int col = (b - row * ${BRANCHES_PER_ROW}) * ${TEXELS_PER_BRANCH} + j;
  return texelFetch(${BRANCH_SAMPLER}, ivec2(col, row), 0);
}

// v' - v for the rotation of v by unit quaternion q: 2 u x (u x v + w v) (§6.4.1).
vec3 pwRotateDelta(vec4 q, vec3 v) {
  return 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

// §6.4 + §6.5: the vertex's own rotation about its branch origin, blended with the parent bone
// by 1 - (1 - x)^e, then all ancestors at once through the per-branch composite transform
// (texels 5, 6) that the simulation step concatenated, as §6.5.1's stream-out step does.
void pwDeform(inout vec3 p, inout vec3 n, float branchIndexF, vec4 w) {
  int b = int(floor(branchIndexF + 0.5));
  if (b < 0) return; // unbound (an imported model's vertex on no branch): stays at rest, as in the twin
  vec4 t0 = pwTexel(b, 0); // origin.xyz
  vec4 q = pwTexel(b, 1);  // branch quaternion
  vec4 t3 = pwTexel(b, 3); // tangent r, joint exponent
  vec4 qa = pwTexel(b, 5); // ancestors' rotation Q_b
  vec4 ta = pwTexel(b, 6); // ancestors' translation t_b, level
  int level = int(floor(ta.w + 0.5));
  float x = dot(w, vec4(equal(ivec4(level), ivec4(0, 1, 2, 3))));
  float k = 1.0 - pow(max(1.0 - x, 0.0), t3.w);
  vec4 qk = mix(vec4(0.0, 0.0, 0.0, 1.0), q, k);
  qk *= inversesqrt(dot(qk, qk));
  vec3 v = p - t0.xyz;
  p += pwRotateDelta(qk, v);
  n += pwRotateDelta(qk, n);
  p += pwRotateDelta(qa, p) + ta.xyz;
  n += pwRotateDelta(qa, n);
}
`;

/** Vertex-shader definitions injected by the plugin (CUSTOM_VERTEX_DEFINITIONS). */
export const PROCEDURAL_WIND_VERTEX_DEFINITIONS = /* glsl */ `
precision highp sampler2D;
uniform highp sampler2D ${BRANCH_SAMPLER};
attribute float branchIndex;
attribute vec4 wVector;
vec3 pwNormal;
${PROCEDURAL_WIND_FUNCTIONS}
`;

/** At CUSTOM_VERTEX_UPDATE_POSITION: deform position (and the normal, kept for the next point). */
export const PROCEDURAL_WIND_UPDATE_POSITION = /* glsl */ `
#ifdef NORMAL
pwNormal = normalUpdated;
#else
pwNormal = vec3(0.0, 1.0, 0.0);
#endif
pwDeform(positionUpdated, pwNormal, branchIndex, wVector);
`;

/** At CUSTOM_VERTEX_UPDATE_NORMAL. */
export const PROCEDURAL_WIND_UPDATE_NORMAL = /* glsl */ `
#ifdef NORMAL
normalUpdated = pwNormal;
#endif
`;
