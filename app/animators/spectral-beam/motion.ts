/**
 * Branch and leaf motion of Habel, Kusternig and Wimmer 2009, "Physically Guided Animation of
 * Trees", §5 (turbulent wind, motion spectrum, stochastic synthesis, 2D motion textures) and §7.2
 * (leaf animation). Plain TypeScript, no Babylon: the CPU reference for the vertex shader.
 *
 * A motion texture is a periodic size x size field whose 2D spectrum is a seeded complex Gaussian
 * field shaped by a radial profile (§5.4), chosen so that a straight line through it has the
 * wanted 1D spectrum (see synthesizeMotionField: the paper's radial slice does not). A branch follows a linear trajectory o + m t through
 * it with texture repeat; when m_x / m_y is far from a small rational the trajectory never closes
 * on itself, so every branch gets its own aperiodic signal from one texture per hierarchy level.
 *
 * Units: frequencies in Hz (or cycles per metre for the leaves' spatial textures), lengths in
 * metres, masses in kg, texture coordinates in texture units (1 = the whole texture).
 */
import { ifft } from "../../math/fft";
import type { Rng } from "../../math/rng";
import { simiuScanlan } from "../../math/spectra";
import type { TreeSkeleton } from "../../tree/skeleton";

/** ρ_w of eq. (16): density of wood, kg/m³, where no material is given (the tree's material's woodDensity otherwise). */
export const RHO_WOOD = 700;

/**
 * Zero padding of the motion spectrum (§5.4, "Signal smoothing"): the band occupies radii up to
 * size / (2 MOTION_TEXTURE_PADDING), so the highest frequency has 8 texels per cycle instead of 2
 * and bilinear filtering reconstructs it smoothly. Radius ρ maps to f = (ρ / (size / 8)) f_max, so
 * the lowest frequency is f_min = 8 f_max / size (the paper prints f_max / (8 res)).
 */
export const MOTION_TEXTURE_PADDING = 4;

/** Eq. (14), Simiu-Scanlan: P_w(f) ∝ v_m / (1 + f / v_m)^(5/3); f in Hz, v_m in m/s. */
export function windPowerSpectrum(f: number, meanSpeed: number): number {
  return simiuScanlan(f, meanSpeed);
}

/** Eq. (17): f_h = 2.55 L^-0.59 (Hz, L in metres), broad-leaf trees; leafless branches ×2.5 (§5.4). */
export function resonanceFrequency(length: number, leafless = false): number {
  if (!(length > 0) || !Number.isFinite(length)) throw new RangeError(`resonanceFrequency: branch length must be in (0, ∞) m; got ${length}`);
  const fh = 2.55 * Math.pow(length, -0.59); // eq. (17)
  return leafless ? 2.5 * fh : fh;
}

/** γ_h = 2 ζ ω_h with ω_h = 2π f_h: viscous damping per unit mass, 1/s (ζ = 1 is critical damping). */
export function dampingCoefficient(dampingRatio: number, fh: number): number {
  if (!(dampingRatio >= 0) || !Number.isFinite(dampingRatio)) throw new RangeError(`dampingCoefficient: damping ratio must be in [0, ∞); got ${dampingRatio}`);
  return 2 * dampingRatio * (2 * Math.PI * fh);
}

/**
 * Eq. (15) without V_w: the amplitude response |x / F| of the damped oscillator
 * m x'' + m γ_h x' + m ω_h² x = F at frequency f,
 *   1 / (m sqrt((ω_h² - ω²)² + (ω γ_h)²)),  ω = 2π f, ω_h = 2π f_h.
 * Eq. (15) as printed, 1 / (2π m (2π (f_h² - f²)² + (2π f γ_h)²)^½), puts a 2π inside the root
 * next to a term in Hz⁴ and another in Hz² s⁻²: dimensionally inconsistent. This is the standard
 * form it abbreviates. At f = 0 it is 1 / k with the stiffness k = m ω_h²; at f = f_h it is
 * 1 / (m ω_h γ_h) = 1 / (2 ζ k).
 */
export function oscillatorResponse(f: number, fh: number, gammaH: number, mass: number): number {
  const w = 2 * Math.PI * f;
  const wh = 2 * Math.PI * fh;
  const d = wh * wh - w * w;
  const c = w * gammaH;
  return 1 / (mass * Math.sqrt(d * d + c * c));
}

/**
 * Eq. (15) as printed, 1 / (2π m (2π (f_h² - f²)² + (2π f γ_h)²)^½), for the paper-literal mode:
 * its dynamic amplification (the ratio to its value at f = 0) peaks at about 1 / (31.5 ζ), not
 * the 1 / (2ζ) of the oscillator it abbreviates.
 */
export function printedOscillatorResponse(f: number, fh: number, gammaH: number, mass: number): number {
  const d = fh * fh - f * f;
  const c = 2 * Math.PI * f * gammaH;
  return 1 / (2 * Math.PI * mass * Math.sqrt(2 * Math.PI * d * d + c * c));
}

/**
 * Eq. (16) per branch: m = ρ_w Σ_i π L_i / 3 (s_i1² + s_i1 s_i2 + s_i2²), the frustum volumes of
 * the branch and all its descendants (the paper's light coupling). One reverse pass: a parent
 * always has a lower index than its children.
 */
export function branchMasses(s: TreeSkeleton, out?: Float64Array, woodDensity = RHO_WOOD): Float64Array {
  const n = s.branchCount;
  const m = out ?? new Float64Array(n);
  if (m.length < n) throw new RangeError(`branchMasses: out holds ${m.length} values; the skeleton has ${n} branches`);
  for (let b = 0; b < n; b++) {
    const s1 = s.branchRootRadius[b];
    const s2 = s.branchTipRadius[b];
    m[b] = woodDensity * ((Math.PI * s.branchLength[b]) / 3) * (s1 * s1 + s1 * s2 + s2 * s2); // eq. (16), one term
  }
  for (let b = n - 1; b > 0; b--) {
    const p = s.branchParent[b];
    if (p < 0) continue;
    if (p >= b) throw new RangeError(`branchMasses: branch ${b} has parent ${p}; parents must come before their children`);
    m[p] += m[b];
  }
  return m;
}

/**
 * Whether a direction's component ratio is close to a small rational (§5.4, "Trajectories"):
 * true when |ratio| · q is within `tolerance` of an integer for some q ≤ maxDenominator, i.e.
 * |ratio - p/q| < tolerance / q. Geometrically: a trajectory with m_y / m_x = ratio that has
 * crossed the texture q times along x is back within `tolerance` texture units of where it
 * started along y, so it nearly retraces itself with period q / |m_x|. Non-finite ratios
 * (an axis-aligned vector, m_y / 0) close after one period and count as rational.
 */
export function isNearRational(ratio: number, maxDenominator = 12, tolerance = 0.02): boolean {
  if (!Number.isFinite(ratio)) return true;
  const r = Math.abs(ratio);
  for (let q = 1; q <= maxDenominator; q++) {
    const x = r * q;
    if (Math.abs(x - Math.round(x)) < tolerance) return true;
  }
  return false;
}

/** Draws before trajectoryDirection gives up (about a third of all directions are rejected). */
const MAX_DIRECTION_DRAWS = 1000;

/**
 * A random unit 2D vector (out[o], out[o + 1]) whose ratios m_x / m_y and m_y / m_x are both far
 * from small rationals (isNearRational with its defaults), so the wrapped trajectory is
 * aperiodic (§5.4, "Trajectories"). Rejects and redraws; does not allocate.
 */
export function trajectoryDirection(rng: Rng, out: Float64Array, o = 0): void {
  for (let i = 0; i < MAX_DIRECTION_DRAWS; i++) {
    const a = 2 * Math.PI * rng.next();
    const x = Math.cos(a);
    const y = Math.sin(a);
    if (isNearRational(x / y) || isNearRational(y / x)) continue;
    out[o] = x;
    out[o + 1] = y;
    return;
  }
  throw new Error(`trajectoryDirection: no irrational direction in ${MAX_DIRECTION_DRAWS} draws`);
}

/** The radial spectrum of a motion texture. */
export interface MotionSpectrum {
  /** The frequency at the band edge, radius size / 8 of the texture spectrum (Hz, or cycles/m). */
  readonly fMax: number;
  /** The square root of the power spectrum a trajectory should show at f in [0, fMax] (f in the units of fMax). */
  amplitude(f: number): number;
}

/** Mean of eq. (14) over [0, fMax]: (1/fMax) ∫ v (1 + f/v)^(-5/3) df = 3 v² (1 - (1 + fMax/v)^(-2/3)) / (2 fMax). */
function meanWindPower(fMax: number, meanSpeed: number): number {
  const v = meanSpeed;
  return (1.5 * v * v * (1 - Math.pow(1 + fMax / v, -2 / 3))) / fMax;
}

/**
 * A branch level's motion spectrum (§5.2, §5.3): the wind force of eq. (14), normalised to unit
 * mean power over [0, f_max], through the oscillator of eq. (15) scaled by its stiffness
 * k = m ω_h², so the response is the dynamic amplification: 1 at f = 0, about 1 / (2ζ) at f_h.
 * f_max = 2 f_h (§5.4, "Signal smoothing"). meanSpeed ≤ 0 takes the shape for 1 m/s: the
 * texture stays defined and the caller scales its amplitude by the wind. The caller multiplies by
 * the force over m ω_h² (eq. 16's m), which makes it eq. (15) in metres. `printed`: eq. (15) as
 * printed (printedOscillatorResponse), relative to its value at f = 0 (the paper-literal mode).
 */
export function branchMotionSpectrum(fh: number, dampingRatio: number, meanSpeed: number, mass = 1, printed = false): MotionSpectrum {
  if (!(fh > 0) || !Number.isFinite(fh)) throw new RangeError(`branchMotionSpectrum: resonance frequency must be in (0, ∞) Hz; got ${fh}`);
  if (!(dampingRatio > 0) || !Number.isFinite(dampingRatio)) throw new RangeError(`branchMotionSpectrum: damping ratio must be in (0, ∞); got ${dampingRatio}`);
  if (!(mass > 0) || !Number.isFinite(mass)) throw new RangeError(`branchMotionSpectrum: mass must be in (0, ∞) kg; got ${mass}`);
  const v = meanSpeed > 0 && Number.isFinite(meanSpeed) ? meanSpeed : 1;
  const fMax = 2 * fh;
  const gammaH = dampingCoefficient(dampingRatio, fh);
  const wh = 2 * Math.PI * fh;
  const stiffness = mass * wh * wh;
  const meanPower = meanWindPower(fMax, v);
  const printedStatic = printedOscillatorResponse(0, fh, gammaH, mass);
  return {
    fMax,
    amplitude: printed
      ? (f: number): number => (Math.sqrt(simiuScanlan(f, v) / meanPower) * printedOscillatorResponse(f, fh, gammaH, mass)) / printedStatic
      : (f: number): number => Math.sqrt(simiuScanlan(f, v) / meanPower) * oscillatorResponse(f, fh, gammaH, mass) * stiffness,
  };
}

/**
 * The leaves' spectrum (§7.2): leaves sample the wind itself, P'_w of §5.3, as a spatial field
 * moved along the wind. κ in cycles per metre maps to f = v κ (Taylor's frozen turbulence) with
 * v = max(meanSpeed, 0.5) m/s; fMax is the band edge (size / 8) / metresPerUnit cycles/m.
 * Normalised to unit mean power over [0, fMax]. (With f = v κ the normalised shape is
 * (1 + κ)^(-5/3) for every speed: the wind's speed sets how fast the field moves, not its shape.)
 */
export function leafMotionSpectrum(meanSpeed: number, metresPerUnit: number, size: number): MotionSpectrum {
  if (!(metresPerUnit > 0) || !Number.isFinite(metresPerUnit)) throw new RangeError(`leafMotionSpectrum: metres per texture unit must be in (0, ∞); got ${metresPerUnit}`);
  assertTextureSize("leafMotionSpectrum", size);
  const v = Math.max(Number.isFinite(meanSpeed) ? meanSpeed : 0, 0.5);
  const fMax = size / (2 * MOTION_TEXTURE_PADDING) / metresPerUnit;
  const meanPower = meanWindPower(v * fMax, v);
  return { fMax, amplitude: (k: number): number => Math.sqrt(simiuScanlan(v * k, v) / meanPower) };
}

/**
 * Metres per leaf-texture unit (§7.2): the shortest wavelength in the texture, 8 texels, is
 * 4 times the largest leaf: 8 / size units = 4 maxLeafSize metres.
 */
export function leafMetresPerUnit(maxLeafSize: number, size: number): number {
  return (maxLeafSize * size) / 2;
}

/**
 * |m| in texture units per second for a branch of resonance fhBranch on a texture made with
 * branchMotionSpectrum (§5.4, "Branch frequencies"): the band edge, radius size / 8 cycles per
 * unit, must pass at f_max = 2 f_h, so |m| = 2 f_h / (size / 8) = 16 f_h / size. A branch's own
 * f_h (eq. 17) rescales the level texture's spectrum in time.
 */
export function trajectorySpeed(fhBranch: number, size: number): number {
  return (16 * fhBranch) / size;
}

function assertTextureSize(name: string, size: number): void {
  if (!Number.isInteger(size) || size < 16 || size > 1024 || (size & (size - 1)) !== 0) {
    throw new RangeError(`${name}: motion texture size must be a power of two from 16 to 1024; got ${size}`);
  }
}

// Math's functions held locally: a vm sandbox (jest) makes every global lookup in the hot loop slow.
const { sqrt, log, cos, sin, ceil, min } = Math;
const TWO_PI = 2 * Math.PI;

/** Radial shells per spectrum bin in the inversion of the trajectory projection (see synthesizeMotionField). */
const SHELLS_PER_BIN = 4;

/** Work buffers and band geometry per texture size, kept for the life of the page. */
interface SynthesisPlan {
  /** Band radius R = size / 8, in bins (cycles per texture unit). */
  readonly radius: number;
  /** Number of radial shells, R SHELLS_PER_BIN; shell j spans radii (j, j + 1] / SHELLS_PER_BIN. */
  readonly shells: number;
  /** chord[i shells + j], j ≥ i: the length of the line k·m̂ = f_i (f_i = (i + ½) / SHELLS_PER_BIN) inside shell j, both sides. */
  readonly chord: Float64Array;
  /** Power per bin in each shell. */
  readonly shellPower: Float64Array;
  /** Per slice of the projection k·m̂ (2 R SHELLS_PER_BIN of them over [-R, R]): first the bins in it, then each one's power. */
  readonly sliceCount: Float64Array;
  /** Columns kx = -R..R of the half-transformed spectrum, interleaved, column-major: ((kx + R) size + y) 2. */
  readonly columns: Float64Array;
  /** One interleaved line of size complex values. */
  readonly line: Float64Array;
}

const synthesisPlans = new Map<number, SynthesisPlan>();

function synthesisPlan(size: number): SynthesisPlan {
  let p = synthesisPlans.get(size);
  if (!p) {
    const radius = size / (2 * MOTION_TEXTURE_PADDING);
    const shells = radius * SHELLS_PER_BIN;
    const chord = new Float64Array(shells * shells);
    for (let i = 0; i < shells; i++) {
      const f = (i + 0.5) / SHELLS_PER_BIN;
      for (let j = i; j < shells; j++) {
        const inner = j / SHELLS_PER_BIN;
        const outer = (j + 1) / SHELLS_PER_BIN;
        chord[i * shells + j] = 2 * (Math.sqrt(outer * outer - f * f) - Math.sqrt(Math.max(inner * inner - f * f, 0)));
      }
    }
    p = {
      radius, shells, chord, shellPower: new Float64Array(shells), sliceCount: new Float64Array(2 * shells),
      columns: new Float64Array(2 * (2 * radius + 1) * size), line: new Float64Array(2 * size),
    };
    synthesisPlans.set(size, p);
  }
  return p;
}

/**
 * The radial power per bin whose projection is A² (onion peeling, outermost shell first):
 * A²(f_i) = Σ_j≥i shellPower[j] chord[i][j]. Where a shell would need negative power (below a
 * resonance peak, which no radially symmetric field can project without a plateau) it gets 0.
 */
function peelShells(plan: SynthesisPlan, spectrum: MotionSpectrum): void {
  const { radius, shells, chord, shellPower } = plan;
  for (let i = shells - 1; i >= 0; i--) {
    const f = ((i + 0.5) / SHELLS_PER_BIN / radius) * spectrum.fMax;
    const a = spectrum.amplitude(f);
    if (!(a >= 0) || !Number.isFinite(a)) throw new RangeError(`synthesizeMotionField: amplitude(${f}) must be finite and non-negative; got ${a}`);
    let projected = 0;
    for (let j = i + 1, k = i * shells + i + 1; j < shells; j++, k++) projected += shellPower[j] * chord[k];
    shellPower[i] = Math.max((a * a - projected) / chord[i * shells + i], 0);
  }
}

/**
 * Fills two independent periodic motion textures of size x size with one spectrum (§5.3, §5.4,
 * "Signal smoothing"). Spectrum bin k = (kx, ky) (signed, cycles per texture unit, FFT order with
 * negative frequencies wrapped), ρ = |k|, is G(k) sqrt(S_k) for 0 < ρ ≤ R = size / 8 and 0
 * elsewhere (the 4x zero padding), G a seeded complex Gaussian (re and im independent, variance
 * ½ each). The inverse 2D FFT's real part goes to outA and its imaginary part to outB: no
 * Hermitian symmetry, so the two are independent real fields with the same spectrum. Texel
 * (x, y) is written at (y size + x) stride + offset.
 *
 * S_k is not A²(ρ). A trajectory o + m t picks up bin k at the temporal frequency k·m, so its
 * power spectrum is the projection of the 2D one onto m (the projection-slice theorem), not the
 * radial slice that §5.4 assumes ("each such trajectory creates a 1D signal with a spectrum of
 * V_h(f)"). Two ways to make a trajectory show A²:
 *
 *  - `direction` given (unit 2D vector m̂): the texture is made for trajectories along m̂ (every
 *    branch of a slot follows the slot's direction, from its own start, at its own speed). Each bin
 *    gets the power its projection p = k·m̂ asks for, shared among the bins that project there:
 *    S_k = A²(|p|) Δp / n(p), n(p) the number of band bins whose projection falls in the same
 *    slice of width Δp (a quarter bin), counted on the lattice itself. Any spectrum comes out,
 *    a resonance peak included (its full height 1 / (2ζ)² over the low frequencies). The bins
 *    of a slice span the whole disc across m̂, so trajectories from different starts are as
 *    independent as before.
 *  - no direction (trajectories in every direction, the paper's random m per branch): S is
 *    radially symmetric, the radial profile whose Abel projection is A² (f = (ρ / R) fMax), by
 *    onion peeling over shells a quarter bin wide, constant per shell. Any non-increasing A² is
 *    reproduced (to a few per cent in the lattice); a resonance peak stays at f_h, with the
 *    shells below it set to 0 where they would need negative power, and its ring then projects
 *    a plateau below f_h (for ζ = 0.1 the peak stands about 3x above it, not 20x): a limit of
 *    radially symmetric textures.
 *
 * Scale: each output field has expected variance Σ_k S_k / (2R), the mean over f in (0, fMax]
 * of a trajectory's one-sided spectrum; where A² is reproduced, the mean of A² over the band. With
 * unit mean power over the band (the wind of branchMotionSpectrum, leafMotionSpectrum) the fields
 * have unit variance before the oscillator's amplification.
 *
 * Not a per-frame function: it evaluates amplitude R SHELLS_PER_BIN times, takes one draw from
 * rng per band bin and runs 2R + 1 + size complex FFTs of length size, in work buffers kept per size.
 */
export function synthesizeMotionField(
  size: number, spectrum: MotionSpectrum, rng: Rng, outA: Float32Array, outB: Float32Array, stride = 1, offsetA = 0, offsetB = 0,
  direction?: ArrayLike<number>,
): void {
  assertTextureSize("synthesizeMotionField", size);
  if (!Number.isInteger(stride) || stride < 1) throw new RangeError(`synthesizeMotionField: stride must be a positive integer; got ${stride}`);
  const last = (size * size - 1) * stride;
  if (!Number.isInteger(offsetA) || offsetA < 0 || last + offsetA >= outA.length) throw new RangeError(`synthesizeMotionField: outA (${outA.length} floats) cannot hold ${size}x${size} texels at stride ${stride}, offset ${offsetA}`);
  if (!Number.isInteger(offsetB) || offsetB < 0 || last + offsetB >= outB.length) throw new RangeError(`synthesizeMotionField: outB (${outB.length} floats) cannot hold ${size}x${size} texels at stride ${stride}, offset ${offsetB}`);
  if (!(spectrum.fMax > 0) || !Number.isFinite(spectrum.fMax)) throw new RangeError(`synthesizeMotionField: spectrum.fMax must be in (0, ∞); got ${spectrum.fMax}`);
  if (direction && !(Math.abs(Math.hypot(direction[0], direction[1]) - 1) < 1e-6)) throw new RangeError(`synthesizeMotionField: direction must be a unit 2D vector; got (${direction[0]}, ${direction[1]})`);

  const plan = synthesisPlan(size);
  const { radius, shells, shellPower, columns, line } = plan;
  if (direction) sliceShares(plan, spectrum, direction[0], direction[1]);
  else peelShells(plan, spectrum);
  const { sliceCount } = plan;
  const mx = direction ? direction[0] : 0, my = direction ? direction[1] : 0;
  const width = 2 * radius + 1;
  // ifft carries 1/size per pass: variance = c² Σ S / (2 size⁴), so c = size² / sqrt(R) gives Σ S / (2R).
  const scale = (size * size) / sqrt(radius);

  // The band's spectrum, column by column; drawn in a fixed order (ky, then kx) for determinism.
  columns.fill(0);
  for (let ky = -radius; ky <= radius; ky++) {
    const row = ky < 0 ? ky + size : ky;
    for (let kx = -radius; kx <= radius; kx++) {
      const rho2 = kx * kx + ky * ky;
      if (rho2 === 0 || rho2 > radius * radius) continue;
      // Power of this bin: its projection's slice share (direction given) or its shell's.
      const power = direction ? sliceCount[sliceOf(kx * mx + ky * my, radius)] : shellPower[min(ceil(sqrt(rho2) * SHELLS_PER_BIN - 1e-9) - 1, shells - 1)];
      // G = sqrt(-ln u) e^(2πi w): Box-Muller's pair as one complex number (E|G|² = 1, re and im
      // independent N(0, ½)), u and w the high and low 16 bits of one draw (the draws dominate
      // the cost; 16 bits cap |G| at 3.3, exceeded once in 65536 bins, and quantise the phase).
      const bits = rng.next() * 65536;
      const high = bits - (bits % 1);
      const u = (high + 0.5) / 65536;
      const phase = TWO_PI * (bits - high);
      const c = scale * sqrt(-power * log(u));
      const k = 2 * ((kx + radius) * size + row);
      columns[k] = c * cos(phase);
      columns[k + 1] = c * sin(phase);
    }
  }
  // First pass: inverse transform along y of the 2R + 1 non-zero columns only.
  for (let cx = 0; cx < width; cx++) {
    const base = 2 * cx * size;
    for (let i = 0; i < 2 * size; i++) line[i] = columns[base + i];
    ifft(line, line);
    for (let i = 0; i < 2 * size; i++) columns[base + i] = line[i];
  }
  // Second pass: inverse transform along x of every row, whose non-zero entries are the band columns.
  for (let y = 0; y < size; y++) {
    line.fill(0);
    for (let cx = 0; cx < width; cx++) {
      const kx = cx - radius;
      const col = kx < 0 ? kx + size : kx;
      const k = 2 * (cx * size + y);
      line[2 * col] = columns[k];
      line[2 * col + 1] = columns[k + 1];
    }
    ifft(line, line);
    for (let x = 0, i = y * size * stride; x < size; x++, i += stride) {
      outA[i + offsetA] = line[2 * x];
      outB[i + offsetB] = line[2 * x + 1];
    }
  }
}

/** The slice (of width 1 / SHELLS_PER_BIN bins) that a projection p = k·m̂ in [-R, R] falls in. */
function sliceOf(p: number, radius: number): number {
  return min(((p + radius) * SHELLS_PER_BIN) | 0, 2 * radius * SHELLS_PER_BIN - 1);
}

/**
 * For trajectories along (mx, my): per slice of the projection p = k·m̂, the power of each band
 * bin in it, A²(|p|) Δp / n, n the bins in the slice (written over plan.sliceCount).
 */
function sliceShares(plan: SynthesisPlan, spectrum: MotionSpectrum, mx: number, my: number): void {
  const { radius, sliceCount } = plan;
  sliceCount.fill(0);
  for (let ky = -radius; ky <= radius; ky++) {
    for (let kx = -radius; kx <= radius; kx++) {
      const rho2 = kx * kx + ky * ky;
      if (rho2 === 0 || rho2 > radius * radius) continue;
      sliceCount[sliceOf(kx * mx + ky * my, radius)]++;
    }
  }
  const dp = 1 / SHELLS_PER_BIN;
  for (let j = 0; j < sliceCount.length; j++) {
    const n = sliceCount[j];
    if (n === 0) continue;
    const p = Math.abs((j + 0.5) * dp - radius);
    const a = spectrum.amplitude((p / radius) * spectrum.fMax);
    if (!(a >= 0) || !Number.isFinite(a)) throw new RangeError(`synthesizeMotionField: amplitude(${(p / radius) * spectrum.fMax}) must be finite and non-negative; got ${a}`);
    sliceCount[j] = (a * a * dp) / n;
  }
}

/**
 * Bilinear lookup with texture repeat at (u, v) in texture units (1 = the whole texture), texel
 * centres at ((i + 0.5) / size, (j + 0.5) / size), as a GPU's LINEAR + REPEAT sampler does it.
 * Texel (i, j) is tex[(j size + i) stride + offset]. The GLSL twin with texelFetch:
 *   x = u size - 0.5;  i0 = floor(x);  fx = x - i0;  i0 = ((i0 % size) + size) % size;  i1 = (i0 + 1) % size
 *   y = v size - 0.5;  j0 = floor(y);  fy = y - j0;  j0 = ((j0 % size) + size) % size;  j1 = (j0 + 1) % size
 *   value = mix(mix(T(i0, j0), T(i1, j0), fx), mix(T(i0, j1), T(i1, j1), fx), fy)
 * (on the GPU, take fract(u) and fract(v) first so float32 keeps its precision far along a
 * trajectory). Does not allocate.
 */
export function sampleWrapped(tex: Float32Array, size: number, stride: number, offset: number, u: number, v: number): number {
  const x = u * size - 0.5;
  const y = v * size - 0.5;
  let i0 = Math.floor(x);
  let j0 = Math.floor(y);
  const fx = x - i0;
  const fy = y - j0;
  i0 = ((i0 % size) + size) % size;
  j0 = ((j0 % size) + size) % size;
  const i1 = (i0 + 1) % size;
  const j1 = (j0 + 1) % size;
  const r0 = j0 * size;
  const r1 = j1 * size;
  const t00 = tex[(r0 + i0) * stride + offset];
  const t10 = tex[(r0 + i1) * stride + offset];
  const t01 = tex[(r1 + i0) * stride + offset];
  const t11 = tex[(r1 + i1) * stride + offset];
  const a = t00 + (t10 - t00) * fx;
  const b = t01 + (t11 - t01) * fx;
  return a + (b - a) * fy;
}
