/**
 * The wind's frozen turbulence (wind-field.ts): the periodic texture synthesised once per seed
 * (Habel 2009 §5.1, §5.3, eq. 14), and the GPU contract's lookup in it as pure functions that the
 * CPU twins and the tests share with the shaders.
 */
import { Rng } from "../math/rng";
import { ifft2d } from "../math/fft";
import { simiuScanlan } from "../math/spectra";
import { gaussians } from "./hash";

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


// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { floor, sqrt, sin, abs, PI } = Math;

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

export function cachedTurbulence(seed: number, width: number, height: number, cellSize: number, into: Float32Array): void {
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

export type Vec = { [i: number]: number };
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
