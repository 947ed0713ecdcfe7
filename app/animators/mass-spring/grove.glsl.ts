/**
 * The grove's vertex shader step (Van Haevre 2006 Fig. 7, drawn with instancing): every vertex
 * rides on a grove mass and turns with a segment, both read from float textures, the rest pose
 * (one row) and this instance's pose (row `groveTree`). TypeScript twin: grove-geometry.ts,
 * groveVertex (same arithmetic).
 */
export const GROVE_REST_SAMPLER = "groveRest";
export const GROVE_POSE_SAMPLER = "grovePose";
/** Per vertex: anchor, seg, segParent (local grove masses). */
export const GROVE_MASS_ATTRIBUTE = "groveMass";
/** Per instance: the tree's row in the pose texture. */
export const GROVE_TREE_ATTRIBUTE = "groveTree";

export const GROVE_FUNCTIONS = /* glsl */ `
vec3 groveTexel(highp sampler2D s, float m, float row) {
  return texelFetch(s, ivec2(int(m + 0.5), int(row + 0.5)), 0).xyz;
}
// p' = X(anchor) + R (p - X0(anchor)), n' = R n; R the shortest rotation taking the segment's
// rest direction to its current one: R v = c v + k x v + k (k . v) / (1 + c).
void groveDeform(inout vec3 p, inout vec3 n, vec3 gm, float tree) {
  vec3 o = p - groveTexel(${GROVE_REST_SAMPLER}, gm.x, 0.0);
  if (abs(gm.y - gm.z) > 0.5) {
    vec3 a = normalize(groveTexel(${GROVE_REST_SAMPLER}, gm.y, 0.0) - groveTexel(${GROVE_REST_SAMPLER}, gm.z, 0.0));
    vec3 b = normalize(groveTexel(${GROVE_POSE_SAMPLER}, gm.y, tree) - groveTexel(${GROVE_POSE_SAMPLER}, gm.z, tree));
    vec3 k = cross(a, b);
    float c = dot(a, b);
    float inv = 1.0 / max(1.0 + c, 1e-4);
    o = c * o + cross(k, o) + k * (dot(k, o) * inv);
    n = c * n + cross(k, n) + k * (dot(k, n) * inv);
  }
  p = groveTexel(${GROVE_POSE_SAMPLER}, gm.x, tree) + o;
}
`;

/** Declarations injected at CUSTOM_VERTEX_DEFINITIONS. */
export const GROVE_VERTEX_DEFINITIONS = /* glsl */ `
precision highp sampler2D;
uniform highp sampler2D ${GROVE_REST_SAMPLER};
uniform highp sampler2D ${GROVE_POSE_SAMPLER};
attribute vec3 ${GROVE_MASS_ATTRIBUTE};
attribute float ${GROVE_TREE_ATTRIBUTE};
vec3 groveNormal;
${GROVE_FUNCTIONS}
`;

/** At CUSTOM_VERTEX_UPDATE_POSITION (the normal is kept for the next point). */
export const GROVE_UPDATE_POSITION = /* glsl */ `
#ifdef NORMAL
groveNormal = normalUpdated;
#else
groveNormal = vec3(0.0, 1.0, 0.0);
#endif
groveDeform(positionUpdated, groveNormal, ${GROVE_MASS_ATTRIBUTE}, ${GROVE_TREE_ATTRIBUTE});
`;

/** At CUSTOM_VERTEX_UPDATE_NORMAL. */
export const GROVE_UPDATE_NORMAL = /* glsl */ `
#ifdef NORMAL
normalUpdated = normalize(groveNormal);
#endif
`;
