/**
 * GLSL of the forest's motion (Zioma 2007 §6.4, §6.5, §6.3.1, §6.3.2): forest-motion.ts's
 * ForestMotion.deformVertex line by line, as template strings. Every vertex of every instance
 * evaluates its branch's and its ancestors' rotations from the time, the wind texture at its tree
 * and the variant's branch table: no CPU step per tree, no previous frame.
 */
import { BRANCH_SWAY, FOREST_BRANCHES_PER_ROW, FOREST_TEXELS, MAX_CHAIN, TANH_CLAMP, TRUNK_SWAY } from "./forest-motion";
import { MAX_BRANCH_ANGLE, MAX_TRUNK_ANGLE } from "../animators/procedural-wind/state";

export const FOREST_TABLE_SAMPLER = "forestTable";
export const FOREST_WIND_SAMPLER = "forestWind";
/** vec4 uniforms: (grid half size, cell, texels per side, branch count) and (t, the mesh's level of detail, 0, 0). */
export const FOREST_UNIFORMS = ["forestGrid", "forestClock"] as const;
/** Per instance: (x, z, phase, 1 / stiffness) and (cos yaw, sin yaw, w1, w2). Per vertex: forestDrop. */
export const FOREST_TREE_ATTRIBUTE = "forestTree";
export const FOREST_LOD_ATTRIBUTE = "forestLod";
export const FOREST_DROP_ATTRIBUTE = "forestDrop";

const f = (x: number): string => (Number.isInteger(x) ? `${x}.0` : `${x}`);

/** Functions shared by the material plugin and the GPU check (needs the samplers and uniforms declared). */
export const FOREST_FUNCTIONS = /* glsl */ `
vec4 ftTexel(int b, int j) {
  int row = b / ${FOREST_BRANCHES_PER_ROW};
  return texelFetch(${FOREST_TABLE_SAMPLER}, ivec2((b - row * ${FOREST_BRANCHES_PER_ROW}) * ${FOREST_TEXELS} + j, row), 0);
}
vec4 ftWindTexel(int i, int j) {
  return texelFetch(${FOREST_WIND_SAMPLER}, ivec2(i, j), 0);
}
// ForestWindGrid.at: bilinear, clamped to the grid.
vec4 ftWindAt(vec2 xz) {
  float n = forestGrid.z;
  float a = clamp((xz.x + forestGrid.x) / forestGrid.y, 0.0, n - 1.0), b = clamp((xz.y + forestGrid.x) / forestGrid.y, 0.0, n - 1.0);
  int i0 = int(min(floor(a), n - 2.0)), j0 = int(min(floor(b), n - 2.0));
  float fa = a - float(i0), fb = b - float(j0);
  vec4 lo = mix(ftWindTexel(i0, j0), ftWindTexel(i0 + 1, j0), fa);
  vec4 hi = mix(ftWindTexel(i0, j0 + 1), ftWindTexel(i0 + 1, j0 + 1), fa);
  return mix(lo, hi, fb);
}
// The drag |u| u now (xy) and delayed (zw) in the tree's frame.
vec4 ftTreeWind(vec4 tree, vec4 lod) {
  vec4 w = ftWindAt(tree.xy);
  float c = lod.x, s = lod.y;
  vec2 l = vec2(w.x * c + w.y * s, -w.x * s + w.y * c);
  vec2 d = vec2(w.z * c + w.w * s, -w.z * s + w.w * c);
  return vec4(length(l) * l, length(d) * d);
}
vec3 ftRotation(int b, float t, vec4 tree, vec4 lod, vec4 g) {
  vec4 c1 = ftTexel(b, 1), c2 = ftTexel(b, 2), c3 = ftTexel(b, 3);
  int level = int(floor(c1.w + 0.5));
  bool trunk = level == 0;
  vec2 gg = trunk ? 0.5 * (g.xy + g.zw) : g.xy;
  float osc = 1.0 + (trunk ? ${f(TRUNK_SWAY)} : ${f(BRANCH_SWAY)}) * sin(c3.x * sqrt(tree.w) * t + tree.z + c3.y);
  vec3 r = (c1.xyz * gg.x + c2.xyz * gg.y) * (tree.w * osc);
  float angle = length(r);
  float limit = trunk ? ${f(MAX_TRUNK_ANGLE)} : ${f(MAX_BRANCH_ANGLE)};
  float weight = trunk ? 1.0 : (level == 1 ? lod.z : lod.w);
  return angle > 0.0 ? r * (limit * tanh(min(angle / limit, ${f(TANH_CLAMP)})) * weight / angle) : vec3(0.0);
}
vec4 ftBlended(vec3 r, float k) {
  float angle = length(r);
  float s = angle > 0.0 ? sin(0.5 * angle) / angle : 0.0;
  vec4 q = vec4(r * s * k, 1.0 - k + cos(0.5 * angle) * k);
  return q * inversesqrt(dot(q, q));
}
void forestDeform(inout vec3 p, inout vec3 n, float branchIndexF, vec4 w, vec4 drop, vec4 tree, vec4 lod) {
  float meshLod = forestClock.y;
  if (int(floor(drop.x + 0.5)) == int(meshLod) + 1) {
    float s = meshLod < 0.5 ? lod.w : lod.z;
    p = drop.yzw + (p - drop.yzw) * s;
  }
  int b = int(floor(branchIndexF + 0.5));
  if (b < 0 || float(b) >= forestGrid.w) return;
  float t = forestClock.x;
  vec4 g = ftTreeWind(tree, lod);
  vec4 t0 = ftTexel(b, 0);
  int level = int(floor(ftTexel(b, 1).w + 0.5));
  float x = dot(w, vec4(equal(ivec4(level), ivec4(0, 1, 2, 3))));
  vec4 q = ftBlended(ftRotation(b, t, tree, lod, g), 1.0 - pow(max(1.0 - x, 0.0), ftTexel(b, 2).w));
  int c = b;
  vec3 o = t0.xyz;
  for (int guard = 0; guard < ${MAX_CHAIN}; guard++) {
    p += 2.0 * cross(q.xyz, cross(q.xyz, p - o) + q.w * (p - o));
    n += 2.0 * cross(q.xyz, cross(q.xyz, n) + q.w * n);
    vec4 oc = ftTexel(c, 0);
    int par = int(floor(oc.w + 0.5));
    if (par < 0) break;
    float kParent = ftTexel(c, 3).z;
    o = ftTexel(par, 0).xyz;
    q = ftBlended(ftRotation(par, t, tree, lod, g), kParent);
    c = par;
  }
}
`;

/** Vertex-shader definitions injected by the plugin (CUSTOM_VERTEX_DEFINITIONS). */
export const FOREST_VERTEX_DEFINITIONS = /* glsl */ `
precision highp sampler2D;
uniform highp sampler2D ${FOREST_TABLE_SAMPLER};
uniform highp sampler2D ${FOREST_WIND_SAMPLER};
attribute float branchIndex;
attribute vec4 wVector;
attribute vec4 ${FOREST_DROP_ATTRIBUTE};
attribute vec4 ${FOREST_TREE_ATTRIBUTE};
attribute vec4 ${FOREST_LOD_ATTRIBUTE};
vec3 ftNormal;
${FOREST_FUNCTIONS}
`;

export const FOREST_UPDATE_POSITION = /* glsl */ `
#ifdef NORMAL
ftNormal = normalUpdated;
#else
ftNormal = vec3(0.0, 1.0, 0.0);
#endif
forestDeform(positionUpdated, ftNormal, branchIndex, wVector, ${FOREST_DROP_ATTRIBUTE}, ${FOREST_TREE_ATTRIBUTE}, ${FOREST_LOD_ATTRIBUTE});
`;

export const FOREST_UPDATE_NORMAL = /* glsl */ `
#ifdef NORMAL
normalUpdated = normalize(ftNormal);
#endif
`;
