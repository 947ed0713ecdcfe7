/**
 * GLSL of the wind a branch pass reads (branch-pass-wind.ts packs its uniforms): the WindField's
 * GPU contract (wind-field.ts's header: turbulence.ts's turbulenceAt and windFromGpuState line by
 * line) and the wind primitives (primitives.ts's Vortex, Blast and Fan add() line by line), as
 * template strings. Needs BRANCH_PASS_WIND_DECLARATIONS (the turbulence texture's sampler) and
 * the pass's own vec4 uniform array holding the primitives (branch-pass-wind.ts's packPrimitives)
 * from element `base` on.
 */
import { FAN_SPREAD, MAX_WIND_PRIMITIVES } from "../wind/primitives";
import { BLAST_KIND, FAN_KIND, PRIMITIVE_VEC4S, VORTEX_KIND } from "./branch-pass-wind";

export const TURBULENCE_SAMPLER = "bpTurbulence";

export const BRANCH_PASS_WIND_DECLARATIONS = /* glsl */ `
uniform highp sampler2D ${TURBULENCE_SAMPLER};
`;

/** The functions, reading the primitives from `array`[base + ...]. */
export const branchPassWindFunctions = (array: string, base: number): string => /* glsl */ `
// turbulenceAt: bilinear, wrapped; texel (i, j) at integer coordinates (a, c). tex = (width, height, cell, 0).
vec3 bpTurbulenceAt(float a, float c, vec4 tex) {
  float fa = floor(a), fc = floor(c);
  float ta = a - fa, tc = c - fc;
  int w = int(tex.x + 0.5), h = int(tex.y + 0.5);
  int i0 = int(fa - tex.x * floor(fa / tex.x));
  int j0 = int(fc - tex.y * floor(fc / tex.y));
  i0 = clamp(i0, 0, w - 1);
  j0 = clamp(j0, 0, h - 1);
  int i1 = i0 + 1 == w ? 0 : i0 + 1;
  int j1 = j0 + 1 == h ? 0 : j0 + 1;
  vec3 p00 = texelFetch(${TURBULENCE_SAMPLER}, ivec2(i0, j0), 0).xyz;
  vec3 p10 = texelFetch(${TURBULENCE_SAMPLER}, ivec2(i1, j0), 0).xyz;
  vec3 p01 = texelFetch(${TURBULENCE_SAMPLER}, ivec2(i0, j1), 0).xyz;
  vec3 p11 = texelFetch(${TURBULENCE_SAMPLER}, ivec2(i1, j1), 0).xyz;
  return (1.0 - ta) * (1.0 - tc) * p00 + ta * (1.0 - tc) * p10 + (1.0 - ta) * tc * p01 + ta * tc * p11;
}

// windFromGpuState: s0 = (dirX, dirZ, strength, vertical), s1 = (turbulence amplitude, advection, ...).
vec3 bpContractWind(vec4 s0, vec4 s1, vec4 tex, float x, float z) {
  float dx = s0.x, dz = s0.y;
  if (s1.x == 0.0) return vec3(s0.z * dx, s0.w, s0.z * dz);
  float a = (x * dx + z * dz - s1.y) / tex.z;
  float c = (z * dx - x * dz) / tex.z;
  vec3 uvw = bpTurbulenceAt(a, c, tex);
  return vec3(s0.z * dx + s1.x * (uvw.x * dx - uvw.y * dz), s0.w + s1.x * uvw.z, s0.z * dz + s1.x * (uvw.x * dz + uvw.y * dx));
}

float bpSmoothstep(float x) {
  return x * x * (3.0 - 2.0 * x);
}

// fadeWindow: 0 outside [start, start + duration], eased in and out over fade.
float bpFadeWindow(float t, float start, float duration, float fade) {
  if (t <= start || t >= start + duration) return 0.0;
  float f = min(1.0, min((t - start) / fade, (start + duration - t) / fade));
  return bpSmoothstep(f);
}

// The primitives' wind at (x, z) and time t (their add(), summed); count from the state's s1.z.
vec3 bpPrimitivesAt(float x, float z, float t, int count) {
  vec3 sum = vec3(0.0);
  for (int i = 0; i < ${MAX_WIND_PRIMITIVES}; i++) {
    if (i >= count) break;
    vec4 a = ${array}[${base} + ${PRIMITIVE_VEC4S} * i];
    vec4 b = ${array}[${base} + ${PRIMITIVE_VEC4S} * i + 1];
    vec4 c = ${array}[${base} + ${PRIMITIVE_VEC4S} * i + 2];
    int kind = int(a.x + 0.5);
    float dx = x - a.y, dz = z - a.z;
    float r2 = dx * dx + dz * dz;
    if (kind == ${VORTEX_KIND}) {
      float win = c.x > 0.5 ? bpFadeWindow(t, c.y, c.z, c.w) : 1.0;
      if (win == 0.0 || r2 == 0.0) continue;
      float r = sqrt(r2);
      float q = r / a.w;
      float v = (win * b.x * 2.0 * q) / (1.0 + q * q);
      sum.x += (-dz / r) * v;
      sum.z += (dx / r) * v;
    } else if (kind == ${BLAST_KIND}) {
      float age = t - c.y;
      if (age < 0.0 || age >= c.z || r2 == 0.0) continue;
      float r = sqrt(r2);
      float e = (r - b.x * age) / b.y;
      float v = a.w * exp(-e * e - age / b.z);
      if (c.x > 0.5) v *= bpSmoothstep(min(1.0, (c.z - age) / c.w));
      sum.x += (dx / r) * v;
      sum.z += (dz / r) * v;
    } else if (kind == ${FAN_KIND}) {
      float win = c.x > 0.5 ? bpFadeWindow(t, c.y, c.z, c.w) : 1.0;
      if (win == 0.0) continue;
      float s = dx * b.y + dz * b.z, cr = dz * b.y - dx * b.z;
      float w = a.w + ${FAN_SPREAD.toFixed(4)} * max(0.0, s);
      float q = cr / w;
      float v = (win * b.x * a.w * exp(-q * q)) / w;
      if (s < 0.0) {
        float bb = s / (0.5 * a.w);
        v *= exp(-bb * bb);
      }
      sum.x += b.y * v;
      sum.z += b.z * v;
    }
  }
  return sum;
}

// The wind a branch pass sees at world p at time t: the contract for its tree plus the primitives.
vec3 bpWindAt(vec4 s0, vec4 s1, vec4 tex, vec3 p, float t) {
  return bpContractWind(s0, s1, tex, p.x, p.z) + bpPrimitivesAt(p.x, p.z, t, int(s1.z + 0.5));
}
`;
