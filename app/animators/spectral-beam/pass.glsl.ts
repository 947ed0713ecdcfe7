/**
 * GLSL of the spectral-beam per-branch pass (Habel, Kusternig and Wimmer 2009 §6, in the way of
 * Zioma 2007 §6.5.1's stream-out split): for the texel (b, j) of the branch data texture at
 * gl_FragCoord, branch b's chain of ancestors walked from the root down as pass.ts's
 * ChainComposer.composeChain does (compose.ts's operations per link: each ancestor's carried frame
 * and own amplitude from its motion texture, §5.4, with eqs. 18, 19 and the tanh cap and the ease,
 * then its bend and slope at the child's attachment point, eqs. 20, 21, 13, 22), then the texel:
 * j = 0..2 the carried frame, 3 the own amplitude, 4 T_b, 5..7 the rows of R_b, each with the
 * static .w of the input; j = 8 a copy. Inputs: the static branch data (sbData), the pass's table
 * (sbTable, pass.ts), the motion atlas (sbAtlas, read as vertex.ts's lookupAtlas reads it) and the
 * uniforms (sbFrame: the twin's eight vec4s, then the ease's start and the branch count).
 */
import { MAX_CHAIN } from "../branch-pass";
import { BRANCHES_PER_ROW, EASE_SPAN, EASE_TAU, TEXELS_PER_BRANCH } from "./layout";
import { FRAME_VEC4S, TABLE_TEXELS } from "./pass";
import { ARC_LENGTH_FUNCTIONS } from "./spectral-beam.glsl";

export const DATA_SAMPLER = "sbData";
export const TABLE_SAMPLER = "sbTable";
export const ATLAS_SAMPLER = "sbAtlas";
export const FRAME_UNIFORM = "sbFrame";

const f = (x: number): string => (Number.isInteger(x) ? `${x}.0` : `${x}`);

export const SPECTRAL_BEAM_PASS_FRAGMENT = /* glsl */ `
precision highp float;
precision highp int;
precision highp sampler2D;
uniform highp sampler2D ${DATA_SAMPLER};
uniform highp sampler2D ${TABLE_SAMPLER};
uniform highp sampler2D ${ATLAS_SAMPLER};
uniform vec4 ${FRAME_UNIFORM}[${FRAME_VEC4S}];
${ARC_LENGTH_FUNCTIONS}

vec4 sbStatic(int b, int j) {
  int row = b / ${BRANCHES_PER_ROW};
  return texelFetch(${DATA_SAMPLER}, ivec2((b - row * ${BRANCHES_PER_ROW}) * ${TEXELS_PER_BRANCH} + j, row), 0);
}
vec4 sbTab(int b, int j) {
  int row = b / ${BRANCHES_PER_ROW};
  return texelFetch(${TABLE_SAMPLER}, ivec2((b - row * ${BRANCHES_PER_ROW}) * ${TABLE_TEXELS} + j, row), 0);
}

// lookupAtlas (vertex.ts) with motion.ts's sampleWrapped: bilinear, wrapped, in tile \`tile\`.
vec4 sbAtlasLookup(int tile, float u, float v) {
  float size = ${FRAME_UNIFORM}[0].y;
  int n = int(size + 0.5);
  float x = u * size - 0.5, y = v * size - 0.5;
  float fi = floor(x), fj = floor(y);
  float fx = x - fi, fy = y - fj;
  int i0 = clamp(int(fi - size * floor(fi / size)), 0, n - 1);
  int j0 = clamp(int(fj - size * floor(fj / size)), 0, n - 1);
  int i1 = i0 + 1 == n ? 0 : i0 + 1;
  int j1 = j0 + 1 == n ? 0 : j0 + 1;
  int base = tile * n;
  vec4 t00 = texelFetch(${ATLAS_SAMPLER}, ivec2(i0, base + j0), 0);
  vec4 t10 = texelFetch(${ATLAS_SAMPLER}, ivec2(i1, base + j0), 0);
  vec4 t01 = texelFetch(${ATLAS_SAMPLER}, ivec2(i0, base + j1), 0);
  vec4 t11 = texelFetch(${ATLAS_SAMPLER}, ivec2(i1, base + j1), 0);
  vec4 a = t00 + (t10 - t00) * fx;
  vec4 b = t01 + (t11 - t01) * fx;
  return a + (b - a) * fy;
}

// The carried frame of branch c under R: R times its rest frame, normalised (compose.ts).
void sbCarry(int c, mat3 R, out vec3 t, out vec3 r, out vec3 s) {
  t = normalize(R * sbTab(c, 0).xyz);
  r = normalize(R * sbTab(c, 1).xyz);
  s = normalize(R * sbTab(c, 2).xyz);
}

// Branch c's own amplitude given its carried r, s (pass.ts's ownAmplitude).
vec2 sbOwn(int c, vec3 r, vec3 s, float ease) {
  vec4 e = sbTab(c, 5);
  vec2 A = vec2(0.0);
  if (sbTab(c, 2).w > 0.5) {
    float time = ${FRAME_UNIFORM}[0].x;
    vec4 d0 = sbStatic(c, 0), d4 = sbStatic(c, 4), d8 = sbStatic(c, 8);
    int slot = int(floor(sbStatic(c, 5).w + 0.5));
    int tile = slot / 2;
    vec4 smp = sbAtlasLookup(tile, sbStatic(c, 6).w + d8.x * time, sbStatic(c, 7).w + d8.y * time);
    vec2 fields = slot - 2 * tile == 1 ? smp.zw : smp.xy;
    float soft = d8.w / d0.w;
    vec4 load = sbTab(c, 4);
    float tt = ${FRAME_UNIFORM}[2].x * load.w;
    A = soft * (tt * fields + ${FRAME_UNIFORM}[1].w * vec2(dot(r, load.xyz), dot(s, load.xyz)));
    float amp = length(A), Amax = d4.w;
    if (amp > 0.0) A *= (Amax * tanh(min(amp / Amax, 10.0))) / amp;
  }
  return A + e.xy * ease;
}

void main(void) {
  ivec2 px = ivec2(gl_FragCoord.xy);
  int slotInRow = px.x / ${TEXELS_PER_BRANCH};
  int j = px.x - slotInRow * ${TEXELS_PER_BRANCH};
  int b = px.y * ${BRANCHES_PER_ROW} + slotInRow;
  vec4 v = b < int(${FRAME_UNIFORM}[8].y + 0.5) ? sbStatic(b, j) : vec4(0.0);
  if (j == 8 || b >= int(${FRAME_UNIFORM}[8].y + 0.5)) {
    gl_FragColor = v;
    return;
  }
  float age = ${FRAME_UNIFORM}[0].x - ${FRAME_UNIFORM}[8].x;
  float ease = ${FRAME_UNIFORM}[8].x >= 0.0 && age >= 0.0 && age < ${f(EASE_SPAN)} ? exp(-age / ${f(EASE_TAU)}) : 0.0;
  bool lengthCorrection = ${FRAME_UNIFORM}[0].z > 0.5;
  int chain[${MAX_CHAIN}];
  int n = 0;
  int c = b;
  for (int g = 0; g < ${MAX_CHAIN}; g++) {
    chain[n] = c;
    n++;
    c = int(floor(sbTab(c, 0).w + 0.5));
    if (c < 0) break;
  }
  mat3 R = mat3(1.0);
  vec3 T = vec3(0.0);
  vec3 t, r, s;
  vec2 A;
  for (int i = n - 1; i >= 1; i--) {
    int p = chain[i], ch = chain[i - 1];
    sbCarry(p, R, t, r, s);
    A = sbOwn(p, r, s, ease);
    // The parent's bend at the child's attachment point (eqs. 20, 21, 13), in its carried frame.
    float L = sbStatic(p, 0).w, c2 = sbStatic(p, 1).w, c4 = sbStatic(p, 2).w;
    float x = sbTab(ch, 1).w;
    float y = lengthCorrection ? sbArcLengthPosition(x, length(A), c2, c4) : x;
    float y2 = y * y, P = y2 * (c2 + c4 * y2), dP = y * (2.0 * c2 + 4.0 * c4 * y2);
    vec3 cb = sbTab(ch, 3).xyz;
    vec3 a = R * cb + T + (L * (y - x)) * t + (L * A.x * P) * r + (L * A.y * P) * s;
    // The rotation in the plane of t and g taking t to (t + g) / sqrt(1 + |g|^2) (eq. 22's tangent).
    vec3 G = dP * (A.x * r + A.y * s);
    float sq = sqrt(1.0 + dot(G, G));
    float ci = 1.0 / sq, cg = 1.0 / (sq * (1.0 + sq));
    // M = I + ci (G tᵀ - t Gᵀ) + (ci - 1) t tᵀ - cg G Gᵀ; R_c = M R_p; T_c = a - R_c c.
    mat3 M = mat3(1.0) + ci * (outerProduct(G, t) - outerProduct(t, G)) + (ci - 1.0) * outerProduct(t, t) - cg * outerProduct(G, G);
    R = M * R;
    T = a - R * cb;
  }
  sbCarry(b, R, t, r, s);
  A = sbOwn(b, r, s, ease);
  if (j == 0) v.xyz = t;
  else if (j == 1) v.xyz = r;
  else if (j == 2) v.xyz = s;
  else if (j == 3) v.xy = A;
  else if (j == 4) v.xyz = T;
  else v.xyz = vec3(R[0][j - 5], R[1][j - 5], R[2][j - 5]); // row j - 5 of R_b (GLSL's mat3 is column-major)
  gl_FragColor = v;
}
`;
