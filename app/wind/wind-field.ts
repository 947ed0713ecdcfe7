/**
 * One seeded WindField for all methods (ARCHITECTURE.md, "The wind").
 *
 * wind(p, t) = strength(t) d  +  verticalStrength(t) up  +  turbulenceAmplitude(t) (u d + v perp + w up)
 *              +  sum of primitives
 *
 *  - d = (cos θ, 0, sin θ): the way the wind blows (θ = direction, 0 toward +x, 90 toward +z);
 *    perp = (-d.z, 0, d.x), up = +y.
 *  - factor(t) = modulation(t) × (1 + gust(t)): modulation is smooth seeded value noise around 1
 *    (periods of tens of seconds, depth ±20%); gust(t) is the envelope of seeded gust events
 *    (rise, hold, fall), peak proportional to the `gust` setting. factor does not depend on speed.
 *  - strength(t) = speed × factor(t), the horizontal mean wind; verticalStrength(t) = vertical ×
 *    factor(t), the vertical mean wind (updraft > 0): the mean wind is the 3D vector
 *    (speed d + vertical up) × factor(t), so gusts and the slow modulation scale both components
 *    alike. Barron's x, y, z wind sliders map onto this: (x, z) = speed d (`speed` and
 *    `direction` are its polar form) and y = `vertical`. Gusts are fluctuations of the mean wind:
 *    at speed 0 and vertical 0 there is no wind at all, whatever gust and turbulence say; at
 *    speed 0 and vertical ≠ 0 the wind blows straight up or down (gusting, modulated).
 *  - turbulenceAmplitude(t) = turbulence × strength(t): the turbulence scales with the horizontal
 *    mean wind only (it is carried along d by the horizontal wind, below); a pure updraft has none.
 *  - Turbulence is frozen (Taylor's hypothesis) and carried along with the mean wind:
 *    (u, v, w) is read from a 2D periodic texture (along-wind × cross-wind) that moves
 *    advection(t) = speed × t metres along d. The texture's along-wind spectrum is Habel 2009
 *    eq. 14 in wavenumber form, (1 + k)^(-5/3) with k in cycles per metre: a point passed by the
 *    pattern at speed U sees f = U k, so it feels P(f) ∝ (1 + f/U)^(-5/3) / U; with
 *    turbulenceAmplitude = turbulence × strength ∝ U that is P_w(f) ∝ U / (1 + f/U)^(5/3), eq. 14
 *    with v_m = U, for every speed from the same texture. The cross-wind coherence decays over a
 *    few metres (exp(-Δy/ℓ) times a Davenport-like exp(-c k Δy)), so trees 10 m apart across
 *    the wind sway independently, while trees 10 m apart along it see the same eddy Δx/U later.
 *  - Everything is a pure function of (p, t): no state is advanced by calls, so any t in any
 *    order gives the same value (GPU and CPU, compare views and recordings agree).
 *
 * THE GPU CONTRACT (what windFromGpuState below computes, and what a shader reproduces with
 * texelFetch and manual bilinear interpolation, to float precision). With s = gpuState(t):
 *    a = (x s.dirX + z s.dirZ - s.advection) / cellSize        (along-wind texel coordinate)
 *    c = (x perp.x + z perp.z) / cellSize,  perp = (-s.dirZ, s.dirX)   (cross-wind texel coordinate)
 *    (u, v, w) = bilinear(turbulenceTexture, a, c), wrapping around in both directions; texel
 *      (i, j) sits exactly at integer coordinates (a, c) = (i, j), i.e. with i0 = floor(a),
 *      fa = a - i0 (same for c): mix(mix(T[i0,j0], T[i0+1,j0], fa), mix(T[i0,j0+1], T[i0+1,j0+1], fa), fc),
 *      indices mod (width, height). data[(j * width + i) * 4 + 0..3] = (u, v, w, 0): i along the
 *      wind (width texels), j across it (height texels).
 *    wind = s.strength (dirX, 0, dirZ) + (0, s.vertical, 0)
 *           + s.turbulenceAmplitude (u dirX + v perp.x, w, u dirZ + v perp.z)
 *  (s.strength and s.vertical are already modulated and gusted: a shader adds them as they are.)
 *  Wind primitives (vortex, blast; Zioma 2007 §6.3.1) are added by sample() only, outside the
 *  contract: a GPU method that wants them evaluates them itself (they are pure functions too).
 *  The texture keeps its identity when the seed changes: its data is rewritten in place and its
 *  `version` goes up, so an uploader re-uploads when version differs. For long runs a GPU method
 *  may upload advection modulo width × cellSize (same field, by wrap-around) to keep float32 precision.
 */
import { Rng } from "../math/rng";
import { defaultsOf, numberParam, validatePatch, type ParamSpec } from "../math/params";
import { ifft2d } from "../math/fft";
import { simiuScanlan } from "../math/spectra";

/** What a person sets. direction: the way the wind blows, degrees, 0 toward +x, 90 toward +z. */
export type WindSettings = {
  /** Mean speed, m/s, 0 to 40. */
  speed: number;
  /** Degrees, 0 to 360: 0 blows toward +x, 90 toward +z. */
  direction: number;
  /** Mean vertical wind, m/s, -10 to 10 (updraft > 0): the y of Barron's x, y, z wind sliders. */
  vertical: number;
  /** Turbulence intensity 0 to 1 (standard deviation of the fluctuation over the mean speed). */
  turbulence: number;
  /** Gust strength 0 to 1. */
  gust: number;
  /** Seed of the wind's randomness (integer). */
  seed: number;
};

/** What a GPU method uploads as uniforms each frame (with the turbulence texture). */
export interface WindGpuState {
  /** Unit vector the wind blows toward, xz. */
  dirX: number;
  dirZ: number;
  /** Mean speed times slow modulation times gust factor at time t, m/s (no turbulence). */
  strength: number;
  /** Mean vertical wind (+y, updraft > 0) times slow modulation times gust factor at time t, m/s. */
  vertical: number;
  /** Scale of the turbulence texture's values, m/s (turbulence × strength: horizontal only). */
  turbulenceAmplitude: number;
  /** Metres the frozen turbulence pattern has travelled along the wind by time t. */
  advection: number;
}

/** The frozen turbulence: RGBA per texel = (along-wind u, cross-wind v, vertical w, 0); u about unit variance, v 0.8², w 0.5². */
export interface TurbulenceTexture {
  /** Texels along the wind (coordinate a, index i). */
  readonly width: number;
  /** Texels across the wind (coordinate c, index j). */
  readonly height: number;
  /** Metres per texel, both directions. */
  readonly cellSize: number;
  /** RGBA float texels, row j (cross-wind) after row: data[(j * width + i) * 4 + channel]. */
  readonly data: Float32Array;
  /** Goes up each time data is rewritten (seed change). */
  readonly version: number;
}

export const WIND_PARAMS: ParamSpec<WindSettings> = {
  speed: numberParam("Wind speed", 0, 40, 0.1, 6, "m/s", "Mean wind speed"),
  direction: numberParam("Direction", 0, 360, 1, 0, "deg", "The way the wind blows: 0 toward +x, 90 toward +z"),
  vertical: numberParam("Vertical wind", -10, 10, 0.1, 0, "m/s", "Mean vertical component (updraft > 0): the y of Barron's x, y, z wind sliders"),
  turbulence: numberParam("Turbulence", 0, 1, 0.01, 0.35, "", "Standard deviation of the along-wind fluctuation over the mean speed (Simiu-Scanlan spectrum, Habel 2009 eq. 14)"),
  gust: numberParam("Gusts", 0, 1, 0.01, 0.3, "", "Peak of the gusts, as a fraction of the mean speed (a few gusts per minute)"),
  seed: numberParam("Seed", 0, 2147483647, 1, 1, "", "Seed of the wind's randomness: same seed, same wind"),
};

export const DEFAULT_WIND: WindSettings = defaultsOf(WIND_PARAMS);

// ---------------------------------------------------------------------------------------------
// Constants of the model

/** Default turbulence texture: 2048 × 256 texels at 1/8 m = 256 m along the wind × 32 m across. */
export const TURBULENCE_WIDTH = 2048;
export const TURBULENCE_HEIGHT = 256;
export const TURBULENCE_CELL = 0.125;
/** Cross-wind correlation length of the turbulence, m: coherence exp(-Δy / ℓ) at low wavenumber. */
export const CROSS_WIND_LENGTH = 6;
/** Davenport-like decay of the cross-wind coherence with wavenumber: exp(-2π DAVENPORT k Δy). */
const DAVENPORT = 0.05;
/** Standard deviations of the cross-wind and vertical components relative to the along-wind one. */
export const SIGMA_V = 0.8;
export const SIGMA_W = 0.5;

/** Slow modulation: depth and the knot spacings (s) of its two octaves of value noise. */
export const MODULATION_DEPTH = 0.2;
const MOD_KNOT_1 = 37;
const MOD_KNOT_2 = 13.3;
const MOD_WEIGHT_1 = 0.65;

/** Gust events: at most one starts in each slot of GUST_SLOT s, with probability GUST_PROBABILITY. */
export const GUST_SLOT = 20;
const GUST_PROBABILITY = 0.85;
export const GUST_RISE: readonly [number, number] = [1, 3];
export const GUST_HOLD: readonly [number, number] = [1, 4];
export const GUST_FALL: readonly [number, number] = [2, 5];
/** Peak of an event as a fraction of the `gust` setting: uniform in this range. */
const GUST_PEAK: readonly [number, number] = [0.5, 1];

// ---------------------------------------------------------------------------------------------
// Seeded hashing: random access in time, no state, no allocation

// Math's members read once: in jest's vm context every read of the global `Math` is a slow
// interceptor call (30x slower hot loops); in browsers this costs nothing.
const { imul, floor, sqrt, sin, cos, log, exp, abs, min, PI } = Math;

/** splitmix32 finaliser, the same as Rng.mix (app/math/rng.ts), over the aliased imul. */
function mix(x: number): number {
  x = (x + 0x9e3779b9) >>> 0;
  x = imul(x ^ (x >>> 16), 0x21f0aaad) >>> 0;
  x = imul(x ^ (x >>> 15), 0x735a2d97) >>> 0;
  return (x ^ (x >>> 15)) >>> 0;
}

/** Uniform in [0, 1) from (seed, a, b); a, b integers (may be negative). */
function hashUnit(seed: number, a: number, b: number): number {
  let x = mix((seed ^ imul(a | 0, 0x27d4eb2d)) >>> 0);
  x = mix((x ^ imul((b | 0) + 0x3c6ef372, 0x165667b1)) >>> 0);
  return x / 4294967296;
}

/** Fills out with independent standard normals (Box-Muller, both outputs), from a 32-bit seed (mulberry32 stream as in Rng). */
function gaussians(seed: number, out: Float64Array): void {
  let state = mix(seed >>> 0);
  const next = (): number => {
    let t = (state = (state + 0x6d2b79f5) >>> 0);
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = 0; i < out.length; i += 2) {
    const u = 1 - next(); // (0, 1]
    const r = sqrt(-2 * log(u));
    const th = 2 * PI * next();
    out[i] = r * cos(th);
    if (i + 1 < out.length) out[i + 1] = r * sin(th);
  }
}

function smoothstep(x: number): number {
  return x * x * (3 - 2 * x);
}

/** Smooth seeded value noise in [-1, 1], knots every `period` s, quintic fade (bounded: no overshoot). */
function valueNoise(seed: number, channel: number, t: number, period: number): number {
  const s = t / period;
  const i = floor(s);
  const f = s - i;
  const fade = f * f * f * (f * (f * 6 - 15) + 10);
  const v0 = 2 * hashUnit(seed, i, channel) - 1;
  const v1 = 2 * hashUnit(seed, i + 1, channel) - 1;
  return v0 + (v1 - v0) * fade;
}

/** The slow modulation of strength: a multiplier around 1 within ±depth. */
export function slowModulation(seed: number, t: number, depth = MODULATION_DEPTH): number {
  const n = MOD_WEIGHT_1 * valueNoise(seed, 101, t, MOD_KNOT_1) + (1 - MOD_WEIGHT_1) * valueNoise(seed, 202, t, MOD_KNOT_2);
  return 1 + depth * n;
}

/** One gust: starts at `start` (s), rises, holds, falls; `peak` is the envelope's maximum (fraction of mean). */
export interface GustEvent {
  start: number;
  rise: number;
  hold: number;
  fall: number;
  peak: number;
}

/** Envelope of one event at time t: smoothstep up over rise, 1 over hold, smoothstep down over fall. */
export function gustShape(rise: number, hold: number, fall: number, tau: number): number {
  if (tau <= 0) return 0;
  if (tau < rise) return smoothstep(tau / rise);
  tau -= rise;
  if (tau <= hold) return 1;
  tau -= hold;
  if (tau < fall) return smoothstep(1 - tau / fall);
  return 0;
}

/** Longest possible event, s: events of one slot spill at most this far into the next. */
const GUST_MAX_LENGTH = GUST_RISE[1] + GUST_HOLD[1] + GUST_FALL[1];
const GUST_SLOTS_BACK = Math.ceil(GUST_MAX_LENGTH / GUST_SLOT);

/** The event of slot `slot` (or false when that slot has none). Writes into out (no allocation). */
function gustOfSlot(seed: number, slot: number, gust: number, out: GustEvent): boolean {
  if (hashUnit(seed, slot, 1) >= GUST_PROBABILITY) return false;
  out.start = (slot + hashUnit(seed, slot, 2)) * GUST_SLOT;
  out.rise = GUST_RISE[0] + (GUST_RISE[1] - GUST_RISE[0]) * hashUnit(seed, slot, 3);
  out.hold = GUST_HOLD[0] + (GUST_HOLD[1] - GUST_HOLD[0]) * hashUnit(seed, slot, 4);
  out.fall = GUST_FALL[0] + (GUST_FALL[1] - GUST_FALL[0]) * hashUnit(seed, slot, 5);
  out.peak = gust * (GUST_PEAK[0] + (GUST_PEAK[1] - GUST_PEAK[0]) * hashUnit(seed, slot, 6));
  return true;
}

const gustScratch: GustEvent = { start: 0, rise: 0, hold: 0, fall: 0, peak: 0 };

/** Gust envelope at t: the largest of the overlapping events (0 when gust is 0). */
export function gustEnvelope(seed: number, gust: number, t: number): number {
  if (gust <= 0) return 0;
  const slot = floor(t / GUST_SLOT);
  let env = 0;
  for (let s = slot - GUST_SLOTS_BACK; s <= slot; s++) {
    if (!gustOfSlot(seed, s, gust, gustScratch)) continue;
    const e = gustScratch.peak * gustShape(gustScratch.rise, gustScratch.hold, gustScratch.fall, t - gustScratch.start);
    if (e > env) env = e;
  }
  return env;
}

/** The gust events starting in [t0, t1), for tests and plots. */
export function gustEvents(seed: number, gust: number, t0: number, t1: number): GustEvent[] {
  const out: GustEvent[] = [];
  for (let s = Math.floor(t0 / GUST_SLOT); s * GUST_SLOT < t1; s++) {
    const e: GustEvent = { start: 0, rise: 0, hold: 0, fall: 0, peak: 0 };
    if (gustOfSlot(seed, s, gust, e) && e.start >= t0 && e.start < t1) out.push(e);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Turbulence texture: synthesised once per seed with kissfft (Habel 2009 §5.1 and §5.3)

function sinc(x: number): number {
  return x === 0 ? 1 : sin(x) / x;
}

/**
 * Synthesises the frozen turbulence: a 2D periodic Gaussian field whose along-wind spectrum is
 * eq. 14 in wavenumber form, filtered spectrum G(k) sqrt(P(k)) as in Habel 2009 §5.1 (random
 * Gaussian field times the square root of the power spectrum), transformed back with an inverse
 * 2D FFT. Along the wind the spectrum is pre-emphasised by 1 / sinc²(π k h) so that after the
 * contract's bilinear interpolation the continuous field follows eq. 14 up to the Nyquist
 * wavenumber 1 / (2h). Across the wind each along-wind wavenumber's power is spread over k_c with
 * a Lorentzian of half-width γ = 1/(2πℓ) + DAVENPORT |k|: coherence exp(-Δy/ℓ - 2π DAVENPORT k Δy).
 * Channels scaled so that the band-limited field (before pre-emphasis) has unit variance for u,
 * SIGMA_V² for v, SIGMA_W² for w: sampled between texels, as sample() does, std(u) ≈ 1 (measured
 * 1.00 ± 0.02); the texels themselves, pre-emphasised, have variance ≈ 1.44 for u. A sampling
 * that lands exactly on texels every time (speed × dt a whole number of cells, e.g. 7.5 m/s at
 * 60 fps) sees that rougher texel field: std ≈ +16%. Every row has zero mean.
 */
export function synthesizeTurbulence(seed: number, width = TURBULENCE_WIDTH, height = TURBULENCE_HEIGHT, cellSize = TURBULENCE_CELL, out?: Float32Array): Float32Array {
  const W = width, H = height, h = cellSize, N = W * H;
  const data = out ?? new Float32Array(4 * N);
  const A = new Float64Array(2 * N); // spectrum of u + i v: Gaussian noise G, then G sqrt(P)
  const B = new Float64Array(2 * N); // spectrum of w (+ i unused)
  const rng = new Rng(seed);
  gaussians(rng.fork(1).next() * 4294967296, A);
  gaussians(rng.fork(2).next() * 4294967296, B);
  const gamma0 = 1 / (2 * PI * CROSS_WIND_LENGTH);
  const kc = new Float64Array(H);
  for (let j = 0; j < H; j++) kc[j] = (j <= H / 2 ? j : j - H) / (H * h);
  const emphasis = new Float64Array(W);
  const lor = new Float64Array(H);
  for (let i = 0; i < W; i++) {
    const ka = abs(i <= W / 2 ? i : i - W) / (W * h);
    const s = sinc(PI * ka * h);
    emphasis[i] = 1 / (s * s);
    if (i === 0) {
      // zero mean along every row: no k_a = 0 column
      for (let j = 0; j < H; j++) A[2 * j * W] = A[2 * j * W + 1] = B[2 * j * W] = B[2 * j * W + 1] = 0;
      continue;
    }
    const p = simiuScanlan(ka, 1); // eq. 14 with f = U k: (1 + k)^(-5/3)
    const gamma = gamma0 + DAVENPORT * ka;
    let norm = 0;
    for (let j = 0; j < H; j++) norm += (lor[j] = gamma / (gamma * gamma + kc[j] * kc[j]));
    for (let j = 0; j < H; j++) {
      const amp = sqrt((p * lor[j]) / norm) * emphasis[i];
      const q = 2 * (j * W + i);
      A[q] *= amp;
      A[q + 1] *= amp;
      B[q] *= amp;
      B[q + 1] *= amp;
    }
  }
  // Variances of the real and imaginary parts of the un-emphasised field (Parseval): the
  // real part's spectrum is (X(k) + conj X(-k)) / 2, the imaginary part's (X(k) - conj X(-k)) / 2i.
  let varRe = 0, varIm = 0, varB = 0;
  for (let j = 0; j < H; j++) {
    const jm = (H - j) % H;
    for (let i = 0; i < W; i++) {
      const im = (W - i) % W;
      const q = 2 * (j * W + i), qm = 2 * (jm * W + im);
      const e = emphasis[i];
      const ar = A[q] / e, ai = A[q + 1] / e, mr = A[qm] / e, mi = A[qm + 1] / e;
      varRe += ((ar + mr) ** 2 + (ai - mi) ** 2) / 4;
      varIm += ((ar - mr) ** 2 + (ai + mi) ** 2) / 4;
      const br = B[q] / e, bi = B[q + 1] / e, nr = B[qm] / e, ni = B[qm + 1] / e;
      varB += ((br + nr) ** 2 + (bi - ni) ** 2) / 4;
    }
  }
  const n2 = N * N;
  const su = varRe > 0 ? 1 / sqrt(varRe / n2) : 0;
  const sv = varIm > 0 ? SIGMA_V / sqrt(varIm / n2) : 0;
  const sw = varB > 0 ? SIGMA_W / sqrt(varB / n2) : 0;
  ifft2d(A, H, W, A);
  ifft2d(B, H, W, B);
  for (let p = 0; p < N; p++) {
    data[4 * p] = A[2 * p] * su;
    data[4 * p + 1] = A[2 * p + 1] * sv;
    data[4 * p + 2] = B[2 * p] * sw;
    data[4 * p + 3] = 0;
  }
  return data;
}

/** A few recent syntheses by (seed, size), so many fields with one seed synthesise once. */
const textureCache: { key: string; data: Float32Array }[] = [];
const TEXTURE_CACHE_SIZE = 2;

function cachedTurbulence(seed: number, width: number, height: number, cellSize: number, into: Float32Array): void {
  const key = `${seed}/${width}/${height}/${cellSize}`;
  const hit = textureCache.find((e) => e.key === key);
  if (hit) {
    into.set(hit.data);
    return;
  }
  synthesizeTurbulence(seed, width, height, cellSize, into);
  textureCache.unshift({ key, data: into.slice() });
  if (textureCache.length > TEXTURE_CACHE_SIZE) textureCache.pop();
}

// ---------------------------------------------------------------------------------------------
// The contract's lookup, pure (the GPU twin reuses these)

type Vec = { [i: number]: number };
const lookupScratch = new Float64Array(3);

/**
 * Bilinear lookup of the turbulence texture at texel coordinates (a, c) with wrap-around; texel
 * (i, j) is the value at integer coordinates (i, j). Writes (u, v, w) into out[offset..offset+2].
 */
export function turbulenceAt(tex: TurbulenceTexture, a: number, c: number, out: Vec, offset = 0): void {
  const W = tex.width, H = tex.height, d = tex.data;
  const fa = floor(a), fc = floor(c);
  const ta = a - fa, tc = c - fc;
  let i0 = fa % W;
  if (i0 < 0) i0 += W;
  let j0 = fc % H;
  if (j0 < 0) j0 += H;
  const i1 = i0 + 1 === W ? 0 : i0 + 1;
  const j1 = j0 + 1 === H ? 0 : j0 + 1;
  const p00 = (j0 * W + i0) * 4, p10 = (j0 * W + i1) * 4, p01 = (j1 * W + i0) * 4, p11 = (j1 * W + i1) * 4;
  const w00 = (1 - ta) * (1 - tc), w10 = ta * (1 - tc), w01 = (1 - ta) * tc, w11 = ta * tc;
  out[offset] = w00 * d[p00] + w10 * d[p10] + w01 * d[p01] + w11 * d[p11];
  out[offset + 1] = w00 * d[p00 + 1] + w10 * d[p10 + 1] + w01 * d[p01 + 1] + w11 * d[p11 + 1];
  out[offset + 2] = w00 * d[p00 + 2] + w10 * d[p10 + 2] + w01 * d[p01 + 2] + w11 * d[p11 + 2];
}

/** The GPU contract in one pure function: wind velocity (m/s) at (x, z) from a gpuState and the texture. */
export function windFromGpuState(s: WindGpuState, tex: TurbulenceTexture, x: number, z: number, out: Vec, offset = 0): void {
  const dx = s.dirX, dz = s.dirZ;
  const amp = s.turbulenceAmplitude, str = s.strength, vert = s.vertical;
  if (amp === 0) {
    // No turbulence (and exact zeros, not -0, in calm air).
    out[offset] = str === 0 ? 0 : str * dx;
    out[offset + 1] = vert === 0 ? 0 : vert;
    out[offset + 2] = str === 0 ? 0 : str * dz;
    return;
  }
  const a = (x * dx + z * dz - s.advection) / tex.cellSize;
  const c = (z * dx - x * dz) / tex.cellSize; // x perp.x + z perp.z with perp = (-dz, dx)
  turbulenceAt(tex, a, c, lookupScratch, 0);
  const u = lookupScratch[0], v = lookupScratch[1], w = lookupScratch[2];
  out[offset] = str * dx + amp * (u * dx - v * dz);
  out[offset + 1] = vert + amp * w;
  out[offset + 2] = str * dz + amp * (u * dz + v * dx);
}

// ---------------------------------------------------------------------------------------------
// Wind primitives (Zioma 2007 §6.3.1: v = G(x, t), analytic, local), outside the GPU contract

/** An analytic local wind v = G(x, t) (Zioma 2007 §6.3.1), added to out[offset..offset+2]. Pure; must not allocate. */
export interface WindPrimitive {
  add(x: number, y: number, z: number, t: number, out: Vec, offset: number): void;
}

function fadeWindow(t: number, start: number, duration: number, fade: number): number {
  if (t <= start || t >= start + duration) return 0;
  const f = min(1, (t - start) / fade, (start + duration - t) / fade);
  return smoothstep(f);
}

/** A vortex around a vertical axis at (x, z): tangential speed peaks at `radius`, decays as 1/r beyond. */
export class Vortex implements WindPrimitive {
  constructor(
    public x: number,
    public z: number,
    /** m */
    public radius: number,
    /** m/s at the radius; positive blows along (-dz, dx) for an offset (dx, dz) from the centre. */
    public speed: number,
    /** s: active from start for duration, fading in and out over 1 s. */
    public start = -Infinity,
    public duration = Infinity,
  ) {}

  add(x: number, _y: number, z: number, t: number, out: Vec, offset: number): void {
    const win = Number.isFinite(this.start) ? fadeWindow(t, this.start, this.duration, 1) : 1;
    if (win === 0) return;
    const dx = x - this.x, dz = z - this.z;
    const r2 = dx * dx + dz * dz;
    if (r2 === 0) return;
    const r = sqrt(r2);
    const q = r / this.radius;
    const v = (win * this.speed * 2 * q) / (1 + q * q); // peak `speed` at r = radius
    out[offset] += (-dz / r) * v;
    out[offset + 2] += (dx / r) * v;
  }
}

/** A blast at (x, z) at time `time`: a radial front moving out at `frontSpeed`, Gaussian of `width`, decaying with `decay` s. */
export class Blast implements WindPrimitive {
  constructor(
    public x: number,
    public z: number,
    public time: number,
    /** m/s at the front */
    public peak: number,
    public frontSpeed = 30,
    public width = 3,
    public decay = 1.5,
  ) {}

  add(x: number, _y: number, z: number, t: number, out: Vec, offset: number): void {
    const age = t - this.time;
    if (age < 0) return;
    const dx = x - this.x, dz = z - this.z;
    const r2 = dx * dx + dz * dz;
    if (r2 === 0) return;
    const r = sqrt(r2);
    const e = (r - this.frontSpeed * age) / this.width;
    const v = this.peak * exp(-e * e - age / this.decay);
    out[offset] += (dx / r) * v;
    out[offset + 2] += (dz / r) * v;
  }
}

// ---------------------------------------------------------------------------------------------

export interface WindFieldOptions {
  /** Slow modulation of the mean wind (default true); false leaves strength = speed × (1 + gust) (and vertical alike), for analysis. */
  modulation?: boolean;
  /** Turbulence texture size and resolution (defaults TURBULENCE_WIDTH × TURBULENCE_HEIGHT at TURBULENCE_CELL m). */
  width?: number;
  height?: number;
  cellSize?: number;
}

function checkSeed(seed: number): void {
  if (!Number.isInteger(seed)) throw new RangeError(`wind.seed must be an integer from 0 to ${WIND_PARAMS.seed.max}; got ${JSON.stringify(seed)}`);
}

export class WindField {
  /** Local wind primitives summed by sample() (not part of the GPU contract). */
  readonly primitives: WindPrimitive[] = [];
  private readonly tex: { width: number; height: number; cellSize: number; data: Float32Array; version: number };
  private s: WindSettings;
  private readonly modulation: boolean;
  private dirX = 1;
  private dirZ = 0;
  private cacheT = NaN;
  private cacheFactor = 0;
  private readonly state: WindGpuState = { dirX: 1, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 };

  constructor(settings: Partial<WindSettings> = DEFAULT_WIND, options: WindFieldOptions = {}) {
    const full = { ...DEFAULT_WIND, ...validatePatch("wind", WIND_PARAMS, settings as Record<string, unknown>) };
    checkSeed(full.seed);
    this.s = full;
    this.modulation = options.modulation ?? true;
    const width = options.width ?? TURBULENCE_WIDTH, height = options.height ?? TURBULENCE_HEIGHT;
    const cellSize = options.cellSize ?? TURBULENCE_CELL;
    this.tex = { width, height, cellSize, data: new Float32Array(4 * width * height), version: 0 };
    cachedTurbulence(full.seed, width, height, cellSize, this.tex.data);
    this.updateDirection();
  }

  /** The frozen turbulence texture (same object for the field's life; `version` goes up on seed change). */
  get turbulenceTexture(): TurbulenceTexture {
    return this.tex;
  }

  /** A copy of the settings. */
  settings(): WindSettings {
    return { ...this.s };
  }

  /** The way the mean wind blows, degrees (as settings().direction, without the copy). */
  get direction(): number {
    return this.s.direction;
  }

  /** The mean speed setting, m/s, without copying the settings (for per-frame readers). */
  get meanSpeed(): number {
    return this.s.speed;
  }

  /** Changes settings; throws a RangeError naming the range on an unknown key or out-of-range value. */
  set(patch: Partial<WindSettings>): void {
    const p = validatePatch("wind", WIND_PARAMS, patch as Record<string, unknown>);
    if (p.seed !== undefined) checkSeed(p.seed);
    const next = { ...this.s, ...p };
    const reseed = next.seed !== this.s.seed;
    this.s = next;
    if (reseed) {
      cachedTurbulence(next.seed, this.tex.width, this.tex.height, this.tex.cellSize, this.tex.data);
      this.tex.version++;
    }
    this.updateDirection();
    this.cacheT = NaN;
  }

  /**
   * Speed, direction and gust as a wind timeline plays them (conditions.ts, values already within
   * WIND_PARAMS): no validation and no allocation, every fixed step.
   */
  setMean(speed: number, direction: number, gust: number): void {
    this.s.speed = speed;
    this.s.direction = direction;
    this.s.gust = gust;
    this.updateDirection();
    this.cacheT = NaN;
  }

  private updateDirection(): void {
    const th = (this.s.direction * PI) / 180;
    this.dirX = cos(th);
    this.dirZ = sin(th);
  }

  /** slow modulation(t) × (1 + gust envelope(t)), the factor of both mean components; pure in t (cached for the last t). */
  private factor(t: number): number {
    if (t === this.cacheT) return this.cacheFactor;
    const { gust, seed } = this.s;
    let f = 1 + gustEnvelope(seed, gust, t);
    if (this.modulation) f *= slowModulation(seed, t);
    this.cacheT = t;
    this.cacheFactor = f;
    return f;
  }

  /** Horizontal mean wind: speed × slow modulation(t) × (1 + gust envelope(t)), m/s; pure in t. Exactly 0 at speed 0. */
  strength(t: number): number {
    const speed = this.s.speed;
    return speed > 0 ? speed * this.factor(t) : 0;
  }

  /** Vertical mean wind (+y): vertical × slow modulation(t) × (1 + gust envelope(t)), m/s; pure in t. Exactly 0 at vertical 0. */
  verticalStrength(t: number): number {
    const vertical = this.s.vertical;
    return vertical === 0 ? 0 : vertical * this.factor(t);
  }

  /** The gust envelope at t (fraction of the mean speed), for plots. */
  gustEnvelope(t: number): number {
    return gustEnvelope(this.s.seed, this.s.gust, t);
  }

  /** Gust events starting in [t0, t1), for plots and tests. */
  gustEvents(t0: number, t1: number): GustEvent[] {
    return gustEvents(this.s.seed, this.s.gust, t0, t1);
  }

  /** The uniforms of the GPU contract at time t (see the file header). */
  gpuState(t: number, out: WindGpuState): WindGpuState {
    const str = this.strength(t);
    out.dirX = this.dirX;
    out.dirZ = this.dirZ;
    out.strength = str;
    out.vertical = this.verticalStrength(t);
    out.turbulenceAmplitude = this.s.turbulence * str;
    out.advection = this.s.speed * t;
    return out;
  }

  /** Wind velocity (m/s) at (x, y, z) and time t into out[offset..offset+2]. Allocation free; pure in (p, t). */
  sample(x: number, y: number, z: number, t: number, out: Float32Array | Float64Array, offset = 0): void {
    windFromGpuState(this.gpuState(t, this.state), this.tex, x, z, out, offset);
    const prims = this.primitives;
    for (let i = 0; i < prims.length; i++) prims[i].add(x, y, z, t, out, offset);
  }
}
