/**
 * One seeded WindField for all methods (ARCHITECTURE.md, "The wind").
 *
 * wind(p, t) = strength(t) d  +  verticalStrength(t) up  +  turbulenceAmplitude(t) (u d + v perp + w up)
 *              +  sum of primitives
 *
 *  - d = (cos θ, 0, sin θ): the way the wind blows (θ = direction, 0 toward +x, 90 toward +z);
 *    perp = (-d.z, 0, d.x), up = +y.
 *  - factor(τ) = modulation(τ) × (1 + gust(τ)): modulation is smooth seeded value noise around 1
 *    (periods of tens of seconds, depth ±20% at the default turbulence 0.35 and above, in
 *    proportion below it: the slow swings of the mean are the turbulence's lowest frequencies, so
 *    turbulence 0 is a steady wind, the one the reference solver and the calibration assume); gust(t) is the envelope of seeded gust events
 *    (rise, hold, fall), peak proportional to the `gust` setting. factor does not depend on speed.
 *  - Gusts that roll: factor is read at the point's own time τ = t - (x d.x + z d.z) / U_g, with
 *    U_g = max(speed, GUST_MIN_TRAVEL), so a gust front and the slow swings travel downwind with
 *    the mean wind, frozen like the turbulence (Taylor): a point s metres downwind of another sees
 *    the same gust s / speed later, and points across the wind see it at the same time. At the
 *    origin τ = t (a tree standing there feels the same mean wind as before gusts rolled).
 *  - strength(t) = speed × factor(τ), the horizontal mean wind; verticalStrength(t) = vertical ×
 *    factor(τ), the vertical mean wind (updraft > 0): the mean wind is the 3D vector
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
 *  - The parts beside this file: gusts.ts (the slow modulation and the gusts), turbulence.ts (the
 *    texture's synthesis and the contract's lookup), primitives.ts (vortex, blast), hash.ts.
 *
 * THE GPU CONTRACT (what windFromGpuState in turbulence.ts computes, and what a shader reproduces
 * with texelFetch and manual bilinear interpolation, to float precision). With s = gpuState(t, s,
 * x0, z0), the uniforms for a tree standing at (x0, z0) (its mean wind at its own τ; default the
 * origin), the formula below gives sample() exactly at (x0, z0) and, elsewhere on the tree, the
 * turbulence at the point with the tree's mean wind (the gust's delay across a crown of a few
 * metres, a fraction of a second at the speeds gusts matter, is left out):
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
 *  Wind primitives (blast, vortex, fan; Zioma 2007 §6.3.1) are added by sample() only, outside the
 *  contract: a GPU method feels them through primitivesAt() at a point of its tree (they are pure
 *  functions too).
 *  The texture keeps its identity when the seed changes: its data is rewritten in place and its
 *  `version` goes up, so an uploader re-uploads when version differs. For long runs a GPU method
 *  may upload advection modulo width × cellSize (same field, by wrap-around) to keep float32 precision.
 */
import { defaultsOf, numberParam, validatePatch, type ParamSpec } from "../math/params";
import { MODULATION_DEPTH, MeanFactor, gustEnvelope, gustEvents, type GustEvent } from "./gusts";
import type { WindPrimitive } from "./primitives";
import { cachedTurbulence, TURBULENCE_CELL, TURBULENCE_HEIGHT, TURBULENCE_WIDTH, windFromGpuState, type TurbulenceTexture, type WindGpuState } from "./turbulence";

/** Turbulence at and above which the mean wind's slow modulation has its full depth (the default turbulence). */
export const MODULATION_FULL_TURBULENCE = 0.35;

/**
 * The slowest the gusts and the slow swings travel downwind, m/s: below it (a calm with an updraft,
 * a timeline passing through 0) they travel at this speed, so one gust is not spread over minutes
 * across the scene.
 */
export const GUST_MIN_TRAVEL = 1;

/** The slow modulation's depth for a turbulence intensity: MODULATION_DEPTH from 0.35 up, in proportion below, 0 at 0. */
export function modulationDepth(turbulence: number): number {
  return MODULATION_DEPTH * Math.min(1, Math.max(0, turbulence) / MODULATION_FULL_TURBULENCE);
}

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

export type { TurbulenceTexture, WindGpuState } from "./turbulence";

export const WIND_PARAMS: ParamSpec<WindSettings> = {
  speed: numberParam("Wind speed", 0, 40, 0.1, 6, "m/s", "Mean wind speed"),
  direction: numberParam("Direction", 0, 360, 1, 0, "deg", "The way the wind blows: 0 toward +x, 90 toward +z"),
  vertical: numberParam("Vertical wind", -10, 10, 0.1, 0, "m/s", "Mean vertical component (updraft > 0): the y of Barron's x, y, z wind sliders"),
  turbulence: numberParam("Turbulence", 0, 1, 0.01, 0.35, "", "Standard deviation of the along-wind fluctuation over the mean speed (Simiu-Scanlan spectrum, Habel 2009 eq. 14)"),
  gust: numberParam("Gusts", 0, 1, 0.01, 0.3, "", "Peak of the gusts, as a fraction of the mean speed (a few gusts per minute)"),
  seed: numberParam("Seed", 0, 2147483647, 1, 1, "", "Seed of the wind's randomness: same seed, same wind"),
};

export const DEFAULT_WIND: WindSettings = defaultsOf(WIND_PARAMS);

// Math's members read once: in jest's vm context every read of the global `Math` is a slow
// interceptor call (30x slower hot loops); in browsers this costs nothing.
const { sin, cos, max, PI } = Math;

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
  /** Local wind primitives summed by sample() and primitivesAt() (not part of the GPU contract). */
  readonly primitives: WindPrimitive[] = [];
  private readonly tex: { width: number; height: number; cellSize: number; data: Float32Array; version: number };
  private s: WindSettings;
  private readonly modulation: boolean;
  private dirX = 1;
  private dirZ = 0;
  private cacheT = NaN;
  private cacheFactor = 0;
  private readonly meanFactor = new MeanFactor();
  /** The slow modulation's depth for the settings (0 without modulation): read per sample, computed per change. */
  private depth = 0;
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
    this.depth = this.modulation ? modulationDepth(full.turbulence) : 0;
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
    this.depth = this.modulation ? modulationDepth(next.turbulence) : 0;
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

  /** slow modulation(τ) × (1 + gust envelope(τ)), the factor of both mean components at local time τ; pure (cached for the last τ). */
  private factor(tau: number): number {
    if (tau === this.cacheT) return this.cacheFactor;
    const s = this.s;
    const f = this.meanFactor.at(s.seed, s.gust, this.depth, tau);
    this.cacheT = tau;
    this.cacheFactor = f;
    return f;
  }

  /**
   * Seconds after the origin that the gusts and slow swings reach (x, z): the distance along the
   * wind over the speed they travel at (the mean speed, at least GUST_MIN_TRAVEL); negative upwind.
   */
  gustDelay(x: number, z: number): number {
    return (x * this.dirX + z * this.dirZ) / max(this.s.speed, GUST_MIN_TRAVEL);
  }

  /** Horizontal mean wind at (x, z) (default the origin): speed × slow modulation × (1 + gust envelope) at τ = t - gustDelay(x, z), m/s; pure. Exactly 0 at speed 0. */
  strength(t: number, x = 0, z = 0): number {
    const speed = this.s.speed;
    return speed > 0 ? speed * this.factor(x === 0 && z === 0 ? t : t - this.gustDelay(x, z)) : 0;
  }

  /** Vertical mean wind (+y) at (x, z) (default the origin): vertical × the same factor as strength(), m/s; pure. Exactly 0 at vertical 0. */
  verticalStrength(t: number, x = 0, z = 0): number {
    const vertical = this.s.vertical;
    return vertical === 0 ? 0 : vertical * this.factor(x === 0 && z === 0 ? t : t - this.gustDelay(x, z));
  }

  /** The gust envelope at t at the origin (fraction of the mean speed), for plots. */
  gustEnvelope(t: number): number {
    return gustEnvelope(this.s.seed, this.s.gust, t);
  }

  /** Gust events starting in [t0, t1), for plots and tests. */
  gustEvents(t0: number, t1: number): GustEvent[] {
    return gustEvents(this.s.seed, this.s.gust, t0, t1);
  }

  /** The uniforms of the GPU contract at time t for a tree standing at (x, z) (default the origin; see the file header). */
  gpuState(t: number, out: WindGpuState, x = 0, z = 0): WindGpuState {
    const str = this.strength(t, x, z);
    out.dirX = this.dirX;
    out.dirZ = this.dirZ;
    out.strength = str;
    out.vertical = this.verticalStrength(t, x, z);
    out.turbulenceAmplitude = this.s.turbulence * str;
    out.advection = this.s.speed * t;
    return out;
  }

  /** Wind velocity (m/s) at (x, y, z) and time t into out[offset..offset+2]. Allocation free; pure in (p, t). */
  sample(x: number, y: number, z: number, t: number, out: Float32Array | Float64Array, offset = 0): void {
    windFromGpuState(this.gpuState(t, this.state, x, z), this.tex, x, z, out, offset);
    const prims = this.primitives;
    for (let i = 0; i < prims.length; i++) prims[i].add(x, y, z, t, out, offset);
  }

  /**
   * The wind primitives' part alone at (x, y, z) and time t into out[offset..offset+2] (zeros when
   * there are none): what a GPU method, whose shader reads only the contract, adds to the mean wind
   * of its tree. Returns whether any primitive is in the field. Allocation free; pure.
   */
  primitivesAt(x: number, y: number, z: number, t: number, out: Float32Array | Float64Array, offset = 0): boolean {
    out[offset] = out[offset + 1] = out[offset + 2] = 0;
    const prims = this.primitives;
    for (let i = 0; i < prims.length; i++) prims[i].add(x, y, z, t, out, offset);
    return prims.length > 0;
  }
}
