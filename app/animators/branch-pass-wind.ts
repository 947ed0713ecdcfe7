/**
 * The wind as a branch pass reads it (branch-pass-wind.glsl.ts), packed into vec4 uniforms: the
 * WindField's GPU contract for a tree (its gpuState at the tree's foot and the turbulence texture's
 * size; wind-field.ts's header) and the wind primitives (blast, vortex, fan; app/wind/primitives.ts),
 * which are outside the contract: their parameters go to the pass, which evaluates them where each
 * branch stands, as primitives.ts does. `windAt` is the same on the CPU, from the same functions
 * (windFromGpuState, primitivesAt). No Babylon.
 */
import { Blast, Fan, FAN_SPREAD, MAX_WIND_PRIMITIVES, Vortex, type WindPrimitive } from "../wind/primitives";
import { windFromGpuState, type TurbulenceTexture, type WindGpuState } from "../wind/turbulence";

/** What a pass's method needs of the WindField. */
export interface PassWindSource {
  /** The contract's uniforms at time t for a tree standing at (x, z). */
  gpuState(t: number, out: WindGpuState, x?: number, z?: number): unknown;
  /** The contract's texture (absent: no turbulence, the mean wind alone). */
  readonly turbulenceTexture?: TurbulenceTexture;
  /** The primitives' wind alone at a point (WindField.primitivesAt). */
  primitivesAt?(x: number, y: number, z: number, t: number, out: Float64Array, offset?: number): boolean;
  /** The primitives themselves, for the pass's uniforms. */
  readonly primitives?: readonly WindPrimitive[];
}

/** vec4s of one primitive in the pass's array, and of the array. */
export const PRIMITIVE_VEC4S = 3;
export const PRIMITIVE_ARRAY_VEC4S = PRIMITIVE_VEC4S * MAX_WIND_PRIMITIVES;
/** Primitive kinds in the array's first float. */
export const VORTEX_KIND = 1;
export const BLAST_KIND = 2;
export const FAN_KIND = 3;
/** What stands for "for ever" (an infinite duration) in float32 uniforms. */
const FOREVER = 1e30;

const { cos, sin, min, PI, floor } = Math;

/**
 * Writes the primitives' parameters into `out` (PRIMITIVE_ARRAY_VEC4S vec4s): per primitive
 * (kind, x, z, a), (b, c, d, 0), (windowed or finite, start, duration, fade). Returns how many, or
 * -1 when one is not a blast, vortex or fan (a pass cannot evaluate it: the method keeps the CPU
 * path while it is in the field).
 */
export function packPrimitives(prims: readonly WindPrimitive[] | undefined, out: Float32Array): number {
  const n = prims ? prims.length : 0;
  if (n > MAX_WIND_PRIMITIVES) return -1;
  for (let i = 0; i < n; i++) {
    const p = prims![i], o = 4 * PRIMITIVE_VEC4S * i;
    if (p instanceof Vortex) {
      const windowed = Number.isFinite(p.start), duration = Number.isFinite(p.duration) ? p.duration : FOREVER;
      out[o] = VORTEX_KIND; out[o + 1] = p.x; out[o + 2] = p.z; out[o + 3] = p.radius;
      out[o + 4] = p.speed; out[o + 5] = 0; out[o + 6] = 0; out[o + 7] = 0;
      out[o + 8] = windowed ? 1 : 0; out[o + 9] = windowed ? p.start : 0; out[o + 10] = duration; out[o + 11] = min(1, duration / 4);
    } else if (p instanceof Blast) {
      const finite = p.duration !== Infinity, duration = finite ? p.duration : FOREVER;
      out[o] = BLAST_KIND; out[o + 1] = p.x; out[o + 2] = p.z; out[o + 3] = p.peak;
      out[o + 4] = p.frontSpeed; out[o + 5] = p.width; out[o + 6] = p.decay; out[o + 7] = 0;
      out[o + 8] = finite ? 1 : 0; out[o + 9] = p.time; out[o + 10] = duration; out[o + 11] = min(0.5, duration / 4);
    } else if (p instanceof Fan) {
      const windowed = Number.isFinite(p.start), duration = Number.isFinite(p.duration) ? p.duration : FOREVER;
      const th = (p.direction * PI) / 180;
      out[o] = FAN_KIND; out[o + 1] = p.x; out[o + 2] = p.z; out[o + 3] = p.radius;
      out[o + 4] = p.speed; out[o + 5] = cos(th); out[o + 6] = sin(th); out[o + 7] = 0;
      out[o + 8] = windowed ? 1 : 0; out[o + 9] = windowed ? p.start : 0; out[o + 10] = duration; out[o + 11] = min(1, duration / 4);
    } else {
      return -1;
    }
  }
  return n;
}

/**
 * The contract's state and texture size as two vec4s and one: (dirX, dirZ, strength, vertical),
 * (turbulence amplitude, advection, primitives, 0), (width, height, cell size, 0). The advection
 * is sent modulo the texture's length along the wind (the same field, wrapped: float32 keeps its
 * precision in long runs, as the contract allows).
 */
export function packWindState(s: WindGpuState, tex: TurbulenceTexture | undefined, primitives: number, out: Float32Array, o: number): void {
  out[o] = s.dirX; out[o + 1] = s.dirZ; out[o + 2] = s.strength; out[o + 3] = s.vertical;
  const length = tex ? tex.width * tex.cellSize : 0;
  out[o + 4] = tex ? s.turbulenceAmplitude : 0;
  out[o + 5] = length > 0 ? s.advection - length * floor(s.advection / length) : 0;
  out[o + 6] = primitives; out[o + 7] = 0;
  out[o + 8] = tex ? tex.width : 1; out[o + 9] = tex ? tex.height : 1; out[o + 10] = tex ? tex.cellSize : 1; out[o + 11] = 0;
}

const primitiveScratch = new Float64Array(3);

/**
 * The wind a pass sees at world (x, y, z): the contract's lookup for a tree whose gpuState is `s`
 * (turbulence at the point, the tree's mean wind), plus the primitives at the point at time `t`.
 * Writes xyz into out. No allocation.
 */
export function windAt(wind: PassWindSource, s: WindGpuState, x: number, y: number, z: number, t: number, out: Float64Array): void {
  const tex = wind.turbulenceTexture;
  if (tex && s.turbulenceAmplitude !== 0) {
    windFromGpuState(s, tex, x, z, out, 0);
  } else {
    out[0] = s.strength * s.dirX; out[1] = s.vertical; out[2] = s.strength * s.dirZ;
  }
  if (wind.primitivesAt && wind.primitivesAt(x, y, z, t, primitiveScratch, 0)) {
    out[0] += primitiveScratch[0]; out[1] += primitiveScratch[1]; out[2] += primitiveScratch[2];
  }
}

function smoothstep(x: number): number {
  return x * x * (3 - 2 * x);
}

function fadeWindow(t: number, start: number, duration: number, fade: number): number {
  if (t <= start || t >= start + duration) return 0;
  return smoothstep(min(1, min((t - start) / fade, (start + duration - t) / fade)));
}

/**
 * bpPrimitivesAt (branch-pass-wind.glsl.ts) line by line, reading the packed array: the pass's
 * view of the primitives, which the specs hold against primitives.ts's own add(). Writes xyz.
 */
export function packedPrimitivesAt(packed: ArrayLike<number>, count: number, x: number, z: number, t: number, out: Float64Array): void {
  out[0] = 0; out[1] = 0; out[2] = 0;
  for (let i = 0; i < count; i++) {
    const o = 4 * PRIMITIVE_VEC4S * i;
    const kind = Math.round(packed[o]);
    const dx = x - packed[o + 1], dz = z - packed[o + 2];
    const r2 = dx * dx + dz * dz;
    if (kind === VORTEX_KIND) {
      const win = packed[o + 8] > 0.5 ? fadeWindow(t, packed[o + 9], packed[o + 10], packed[o + 11]) : 1;
      if (win === 0 || r2 === 0) continue;
      const r = Math.sqrt(r2), q = r / packed[o + 3];
      const v = (win * packed[o + 4] * 2 * q) / (1 + q * q);
      out[0] += (-dz / r) * v;
      out[2] += (dx / r) * v;
    } else if (kind === BLAST_KIND) {
      const age = t - packed[o + 9];
      if (age < 0 || age >= packed[o + 10] || r2 === 0) continue;
      const r = Math.sqrt(r2), e = (r - packed[o + 4] * age) / packed[o + 5];
      let v = packed[o + 3] * Math.exp(-e * e - age / packed[o + 6]);
      if (packed[o + 8] > 0.5) v *= smoothstep(min(1, (packed[o + 10] - age) / packed[o + 11]));
      out[0] += (dx / r) * v;
      out[2] += (dz / r) * v;
    } else if (kind === FAN_KIND) {
      const win = packed[o + 8] > 0.5 ? fadeWindow(t, packed[o + 9], packed[o + 10], packed[o + 11]) : 1;
      if (win === 0) continue;
      const fx = packed[o + 5], fz = packed[o + 6], radius = packed[o + 3];
      const s = dx * fx + dz * fz, c = dz * fx - dx * fz;
      const w = radius + FAN_SPREAD * Math.max(0, s);
      const q = c / w;
      let v = (win * packed[o + 4] * radius * Math.exp(-q * q)) / w;
      if (s < 0) {
        const bb = s / (0.5 * radius);
        v *= Math.exp(-bb * bb);
      }
      out[0] += fx * v;
      out[2] += fz * v;
    }
  }
}
