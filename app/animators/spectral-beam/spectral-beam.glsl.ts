/**
 * GLSL of the spectral-beam vertex deformation (Habel, Kusternig and Wimmer 2009, §3-§7), as
 * template strings shared by the material plugin, the shadow-depth material and the GPU check.
 * Mirrors deformVertex (vertex.ts) line by line; the layouts of the branch data texture, the
 * motion atlas and the uniforms are documented in layout.ts.
 */
import { BRANCHES_PER_ROW, IN_PLANE_FLUTTER, LEAF_SAMPLE_SPREAD, MAX_FLUTTER, TEXELS_PER_BRANCH, UNIFORM_VEC4S } from "./layout";
import { ARC_LENGTH_NEWTON_STEPS } from "./length-correction";

export const BRANCH_SAMPLER = "sbBranchData";
/** The leaves' motion textures (§7.2), three fields in RGB: the leaf tile of the twin's atlas. */
export const LEAF_SAMPLER = "sbLeafMotion";
/** Uniform names sbU0..sbU7 (vec4). */
export const UNIFORM_NAMES: readonly string[] = Array.from({ length: UNIFORM_VEC4S }, (_, i) => `sbU${i}`);

/** Uniform and sampler declarations for a shader of our own (depth material, GPU check). */
export const SPECTRAL_BEAM_DECLARATIONS = /* glsl */ `
uniform highp sampler2D ${BRANCH_SAMPLER};
uniform highp sampler2D ${LEAF_SAMPLER};
${UNIFORM_NAMES.map((n) => `uniform vec4 ${n};`).join("\n")}
`;

/** Defined when the leaf texture is sampled LINEAR with REPEAT (float textures need
 *  OES_texture_float_linear); otherwise the same bilinear filter is written out with texelFetch. */
export const HARDWARE_FILTER_DEFINE = "SB_HARDWARE_FILTER";
/** Defined in the shadow-depth pass: the branches' bends only, no leaf flutter and no normals (the
 *  normal only biases the shadow map, the rest normal does that as well; a fluttering leaf's shadow
 *  is lost in the filtered shadow map), as Habel 2009 §8's "simplified" mode. */
export const POSITION_ONLY_DEFINE = "SB_POSITION_ONLY";
/** Defined while a branch is selected: the selection's highlight costs nothing otherwise. */
export const HIGHLIGHT_DEFINE = "SB_HIGHLIGHT";
/** Defined for a mesh that has leaves: without it the leaf attributes and the flutter code are
 *  left out (the bark reads six floats less per vertex and skips the leaf code). */
export const LEAVES_DEFINE = "SB_LEAVES";

/** §4.2's length correction (length-correction.ts's arcLengthPosition line by line), shared with the per-branch pass. */
export const ARC_LENGTH_FUNCTIONS = /* glsl */ `
// Arc length of the deflected centre line from the root to parameter y (Simpson, 4 intervals).
float sbArcTo(float y, float a, float c2, float c4) {
  float h = 0.25 * y;
  float sum = 1.0;
  for (int i = 1; i <= 4; i++) {
    float xi = float(i) * h;
    float sl = a * (2.0 * c2 * xi + 4.0 * c4 * xi * xi * xi);
    sum += (i == 4 ? 1.0 : (i == 2 ? 2.0 : 4.0)) * sqrt(1.0 + sl * sl);
  }
  return (h / 3.0) * sum;
}

// §4.2 length correction: eq. 9's x - d/s, then Newton on the arc length (length-correction.ts).
float sbArcLengthPosition(float x, float a, float c2, float c4) {
  if (a == 0.0 || x <= 0.0) return x;
  float u = a * (c2 * x * x + c4 * x * x * x * x);
  float du = a * (2.0 * c2 * x + 4.0 * c4 * x * x * x);
  float s = sqrt(1.0 + du * du);
  float y = x - (u * du) / (s + 1.0) / s;
  for (int k = 0; k < ${ARC_LENGTH_NEWTON_STEPS}; k++) {
    float sl = a * (2.0 * c2 * y + 4.0 * c4 * y * y * y);
    y -= (sbArcTo(y, a, c2, c4) - x) / sqrt(1.0 + sl * sl);
  }
  return y;
}
`;

/** The functions; need the samplers and sbU0..sbU7 declared. */
export const SPECTRAL_BEAM_FUNCTIONS = /* glsl */ `
// Where branch b's texels start in the branch data texture.
ivec2 sbBranchBase(int b) {
  int row = b / ${BRANCHES_PER_ROW};
  return ivec2((b - row * ${BRANCHES_PER_ROW}) * ${TEXELS_PER_BRANCH}, row);
}
#ifdef ${HARDWARE_FILTER_DEFINE}
// Bilinear, wrapped lookup at uv texture units (texel centres at (i + 0.5) / size): the GPU's own
// LINEAR filter with REPEAT.
vec4 sbLeafLookup(vec2 uv) {
  return texture(${LEAF_SAMPLER}, uv);
}
#else
// The same bilinear, wrapped lookup, written out (no float filtering here).
vec4 sbLeafLookup(vec2 uv) {
  float size = sbU0.y;
  int n = int(size);
  vec2 x = uv * size - 0.5;
  vec2 f0 = floor(x);
  vec2 fr = x - f0;
  ivec2 i0 = ivec2(mod(f0, size));
  i0 -= n * ivec2(greaterThanEqual(i0, ivec2(n)));
  ivec2 i1 = i0 + 1;
  i1 -= n * ivec2(greaterThanEqual(i1, ivec2(n)));
  vec4 a = texelFetch(${LEAF_SAMPLER}, ivec2(i0.x, i0.y), 0);
  vec4 b = texelFetch(${LEAF_SAMPLER}, ivec2(i1.x, i0.y), 0);
  vec4 c = texelFetch(${LEAF_SAMPLER}, ivec2(i0.x, i1.y), 0);
  vec4 d = texelFetch(${LEAF_SAMPLER}, ivec2(i1.x, i1.y), 0);
  vec4 top = a + (b - a) * fr.x;
  vec4 bottom = c + (d - c) * fr.x;
  return top + (bottom - top) * fr.y;
}
#endif

// A point's projection on a plane, turned and moved by -W t, in leaf-texture units (§7.2).
vec2 sbPlane(float a, float b, vec2 cs, float inv, vec2 offset) {
  return vec2((cs.x * a - cs.y * b) * inv - offset.x, (cs.y * a + cs.x * b) * inv - offset.y);
}

${ARC_LENGTH_FUNCTIONS}
// u^l(x) = A x on a leaf (§7.1): an exact rotation after eqs. 8-10. t: axis, r: deflection.
void sbLeafBend(inout vec3 p, inout vec3 n, vec3 t, vec3 r, vec3 nr, float x, float A, float size) {
  float s = sqrt(1.0 + A * A);
  p += (size * x * (1.0 / s - 1.0)) * t + (size * x * A / s) * r;
#ifndef ${POSITION_ONLY_DEFINE}
  n -= A * dot(nr, n) * t;
#endif
}

// The whole deformation: leaves flutter (§7), then the ancestors' rigid motion (R_b, T_b, composed
// per branch from the trunk down, compose.ts) and the branch's own bend at the vertex's x (eqs. 20-23).
void sbDeform(inout vec3 p, inout vec3 n, float branchIndexF, vec4 w, vec4 leafFrame, vec2 leafCoord) {
  int b = int(floor(branchIndexF + 0.5));
  if (b < 0) return; // unbound (an imported model's vertex on no branch): stays at rest, as in the twin
#ifdef ${LEAVES_DEFINE}
  if (leafFrame.w > 0.0 && sbU2.w > 0.5) {
    p = vec3(0.0); // leafless: the leaf collapses, its triangles draw nothing
    return;
  }
#ifndef ${POSITION_ONLY_DEFINE}
  if (leafFrame.w > 0.0 && sbU2.y > 0.0) {
    vec3 n0 = n;
    vec3 bl = leafFrame.xyz;
    vec3 tl = cross(bl, n0);
    float size = leafFrame.w;
    // Sampled part of the way from the petiole to the vertex (layout.ts, LEAF_SAMPLE_SPREAD).
    vec3 q = p - ((1.0 - ${LEAF_SAMPLE_SPREAD.toFixed(4)}) * size) * (leafCoord.y * bl + leafCoord.x * tl);
    float inv = sbU2.z;
    vec3 amp = sbU4.z * sbLeafLookup(sbPlane(q.x, q.y, sbU3.xy, inv, sbU6.xy)).rgb;
    amp += sbU4.w * sbLeafLookup(sbPlane(q.x, q.z, sbU3.zw, inv, sbU6.zw)).rgb;
    amp += sbU5.x * sbLeafLookup(sbPlane(q.y, q.z, sbU4.xy, inv, sbU7.xy)).rgb;
    // Torsion (Fig. 9), then the flap along the stipe, then the sway in the leaf's plane.
    float mf = ${MAX_FLUTTER.toFixed(4)};
    sbLeafBend(p, n, tl, n0, n0, leafCoord.x, mf * tanh(sbU2.y * amp.y / mf), size);
    sbLeafBend(p, n, bl, n0, n0, leafCoord.y, mf * tanh(sbU2.y * amp.x / mf), size);
    sbLeafBend(p, n, bl, tl, tl, leafCoord.y, mf * tanh(${IN_PLANE_FLUTTER.toFixed(4)} * sbU2.y * amp.z / mf), size);
  }
#endif
#endif
  ivec2 o = sbBranchBase(b);
  vec4 t0 = texelFetch(${BRANCH_SAMPLER}, o, 0);
  vec4 t1 = texelFetch(${BRANCH_SAMPLER}, o + ivec2(1, 0), 0);
  vec4 t2 = texelFetch(${BRANCH_SAMPLER}, o + ivec2(2, 0), 0);
  vec4 t3 = texelFetch(${BRANCH_SAMPLER}, o + ivec2(3, 0), 0);
  vec4 t4 = texelFetch(${BRANCH_SAMPLER}, o + ivec2(4, 0), 0);
  vec3 t = t0.xyz, r = t1.xyz, s = t2.xyz;
  float L = t0.w, c2 = t1.w, c4 = t2.w, Ar = t3.x, As = t3.y;
  vec3 m0 = texelFetch(${BRANCH_SAMPLER}, o + ivec2(5, 0), 0).xyz;                    // R_b, the ancestors'
  vec3 m1 = texelFetch(${BRANCH_SAMPLER}, o + ivec2(6, 0), 0).xyz;                    // rotation (rows):
  vec3 m2 = texelFetch(${BRANCH_SAMPLER}, o + ivec2(7, 0), 0).xyz;                    // p = R_b p + T_b
  p = vec3(dot(m0, p), dot(m1, p), dot(m2, p));
#ifndef ${POSITION_ONLY_DEFINE}
  n = vec3(dot(m0, n), dot(m1, n), dot(m2, n));                                         // n = R_b n
#endif
  float x = w[int(t3.z + 0.5)];
  float y = sbU0.z > 0.5 ? sbArcLengthPosition(x, sqrt(Ar * Ar + As * As), c2, c4) : x;   // eq. 21
  float y2 = y * y;
  float P = y2 * (c2 + c4 * y2);                                                        // eq. 7
  float dP = y * (2.0 * c2 + 4.0 * c4 * y2);
  p += t4.xyz + (L * (y - x)) * t + (L * Ar * P) * r + (L * As * P) * s;                 // T_b, eq. 20
#ifndef ${POSITION_ONLY_DEFINE}
  float gr = Ar * dP, gs = As * dP;                                                     // eq. 13
  n -= (gr * dot(r, n) + gs * dot(s, n)) * t;                                           // eq. 23
#endif
}
`;

/** Vertex-shader definitions the material plugin injects (uniforms come from the plugin's UBO). */
export const SPECTRAL_BEAM_VERTEX_DEFINITIONS = /* glsl */ `
precision highp sampler2D;
uniform highp sampler2D ${BRANCH_SAMPLER};
uniform highp sampler2D ${LEAF_SAMPLER};
attribute float branchIndex;
attribute vec4 wVector;
#ifdef ${LEAVES_DEFINE}
attribute vec4 leafFrame;
attribute vec2 leafCoord;
#endif
#ifdef ${HIGHLIGHT_DEFINE}
varying float sbHighlight;
#endif
vec3 sbNormal;
${SPECTRAL_BEAM_FUNCTIONS}
`;

export const SPECTRAL_BEAM_UPDATE_POSITION = /* glsl */ `
#ifdef NORMAL
sbNormal = normalUpdated;
#else
sbNormal = vec3(0.0, 1.0, 0.0);
#endif
#ifdef ${LEAVES_DEFINE}
sbDeform(positionUpdated, sbNormal, branchIndex, wVector, leafFrame, leafCoord);
#else
sbDeform(positionUpdated, sbNormal, branchIndex, wVector, vec4(0.0), vec2(0.0));
#endif
#ifdef ${HIGHLIGHT_DEFINE}
sbHighlight = branchIndex < -0.5 ? 0.0 : texelFetch(${BRANCH_SAMPLER}, sbBranchBase(int(floor(branchIndex + 0.5))) + ivec2(3, 0), 0).w;
#endif
`;

export const SPECTRAL_BEAM_UPDATE_NORMAL = /* glsl */ `
#ifdef NORMAL
normalUpdated = normalize(sbNormal);
#endif
`;

export const SPECTRAL_BEAM_FRAGMENT_DEFINITIONS = /* glsl */ `
#ifdef ${HIGHLIGHT_DEFINE}
varying float sbHighlight;
#endif
`;

/** The selected branch glows orange (Fig. 11's selection). */
export const SPECTRAL_BEAM_FRAGMENT_BEFORE_FRAGCOLOR = /* glsl */ `
#ifdef ${HIGHLIGHT_DEFINE}
color.rgb = mix(color.rgb, vec3(1.0, 0.45, 0.05), 0.7 * sbHighlight);
#endif
`;
