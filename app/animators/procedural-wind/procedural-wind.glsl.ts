/**
 * GLSL of the procedural-wind skinning step (Zioma 2007 §6.4, §6.5), as template strings.
 * The per-branch quaternions come from the CPU simulation step (twin.ts, as §6.5.1's stream-out
 * step); each vertex walks from its branch up to the trunk (at most 4 levels), rotating about
 * each branch origin by that branch's quaternion blended with identity (§6.5 two-bone blend).
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

// §6.4 + §6.5: concatenate the blended rotations of the vertex's branch and its ancestors.
void pwDeform(inout vec3 p, inout vec3 n, float branchIndexF, vec4 w) {
  int b = int(floor(branchIndexF + 0.5));
  for (int i = 0; i < 4; i++) {
    if (b < 0) break;
    vec4 t0 = pwTexel(b, 0); // origin.xyz, parent
    vec4 q = pwTexel(b, 1);  // branch quaternion
    vec4 t2 = pwTexel(b, 2); // axis t, level
    vec4 t3 = pwTexel(b, 3); // tangent r, joint exponent
    int level = int(floor(t2.w + 0.5));
    float x = dot(w, vec4(equal(ivec4(level), ivec4(0, 1, 2, 3))));
    float k = 1.0 - pow(max(1.0 - x, 0.0), t3.w);
    vec4 qk = mix(vec4(0.0, 0.0, 0.0, 1.0), q, k);
    qk *= inversesqrt(dot(qk, qk));
    vec3 v = p - t0.xyz;
    p += pwRotateDelta(qk, v);
    n += pwRotateDelta(qk, n);
    b = int(floor(t0.w + 0.5));
  }
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
