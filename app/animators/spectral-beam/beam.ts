/**
 * The tapered Euler-Bernoulli beam of Habel, Kusternig and Wimmer 2009, "Physically Guided
 * Animation of Trees", §4.1 and Appendix A. Plain TypeScript, no Babylon: the CPU reference for
 * the vertex shader.
 *
 * A branch is a linearly tapered circular cantilever of length L with radii s1 (root) and s2 (free
 * end), normalized to unit length: r1,2 = s1,2 / L, taper ratio α = r2 / r1 (eq. 4), rescaled
 * elasticity modulus E' = E L. It carries the constant transversal force F of eq. (1), i.e. a
 * uniformly distributed load (force per unit length), is clamped at the root (eq. 2) and free at
 * the tip (eq. 3). I(x) = π r1^4 ((α - 1) x + 1)^4 / 4 (eq. 6).
 *
 * Units: x is the normalized coordinate along the axis, x ∈ [0, 1]; deflections are in units of L
 * (multiply by L for metres), as in the paper's normalized model.
 */

/** The load case and material of one branch, in SI units. */
export interface BeamLoad {
  /** F: the constant transversal force of eq. (1), per unit length of the branch, N/m. */
  readonly force: number;
  /** E: the elastic modulus, Pa (constant along the branch). */
  readonly elasticModulus: number;
  /** L: the branch length, m. */
  readonly length: number;
  /** s1: the radius at the root, m (r1 = s1 / L, eq. 4). */
  readonly rootRadius: number;
}

/** The coefficients of the polynomial u(x) = c2 x^2 + c4 x^4 (eq. 7). */
export interface BeamPolynomial {
  readonly c2: number;
  readonly c4: number;
}

/** The least-squares fit of eq. (25) to eq. (7), with its error (Table 1). */
export interface BeamFit extends BeamPolynomial {
  /**
   * Δx_max of Table 1: the largest absolute error |c2 x^2 + c4 x^4 - u(x)| over x ∈ [0, 1], in the
   * normalization of Fig. 3 and Table 1 (F / (E' r1^4) = 1), so in the same units as c2 and c4.
   * Divide by `taperedBeamDeflection(1, taperRatio)` for the error relative to the tip deflection.
   */
  readonly maxError: number;
}

/** The valid taper ratios α = r2 / r1: a branch tapers (α ≤ 1) and keeps a radius at its tip (α > 0). */
export const TAPER_RATIO_MIN = 0;
export const TAPER_RATIO_MAX = 1;

/**
 * Samples of the least-squares fit: x = i / FIT_INTERVALS, i = 0..FIT_INTERVALS. With 100 intervals
 * the fit reproduces the coefficients of Table 1 to all printed digits; a continuous L2 fit over
 * [0, 1] does not (its c4 is 3.6 % off at α = 0.3).
 */
export const FIT_INTERVALS = 100;

/** Intervals of the grid on which `maxError` is measured. */
const ERROR_INTERVALS = 1000;

/** |(α - 1) x| up to which the series form is used instead of the closed form of eq. (25). */
const SERIES_LIMIT = 0.5;
const SERIES_MAX_TERMS = 200;

/** Throws a RangeError unless 0 < taperRatio ≤ 1. */
export function assertTaperRatio(taperRatio: number): void {
  if (!(taperRatio > TAPER_RATIO_MIN && taperRatio <= TAPER_RATIO_MAX)) {
    throw new RangeError(`taper ratio α = r2 / r1 must be in (${TAPER_RATIO_MIN}, ${TAPER_RATIO_MAX}], got ${taperRatio}`);
  }
}

function assertUnitCoordinate(x: number): void {
  if (!(x >= 0 && x <= 1)) throw new RangeError(`x must be in [0, 1] (unit-length beam), got ${x}`);
}

/**
 * The amplitude F / (E' r1^4) of eq. (25), with E' = E L and r1 = s1 / L (eq. 4): linear in the
 * force, proportional to r1^-4. Equal to F L^3 / (E s1^4), dimensionless (the deflection in units of L).
 *
 * The paper prints the factor as E' F / r1^4; the normalized eq. (1), (E'π r1^4 / 4) (ξ^4 u'')'' = F
 * with ξ = 1 + (α - 1) x, puts E' in the denominator, as any beam has it (stiffer, less deflection).
 */
export function deflectionScale(load: BeamLoad): number {
  const { force, elasticModulus, length, rootRadius } = load;
  if (!Number.isFinite(force)) throw new RangeError(`force must be finite, got ${force}`);
  if (!(elasticModulus > 0 && Number.isFinite(elasticModulus))) throw new RangeError(`elastic modulus must be in (0, ∞), got ${elasticModulus}`);
  if (!(length > 0 && Number.isFinite(length))) throw new RangeError(`length must be in (0, ∞), got ${length}`);
  if (!(rootRadius > 0 && Number.isFinite(rootRadius))) throw new RangeError(`root radius must be in (0, ∞), got ${rootRadius}`);
  const r1 = rootRadius / length; // eq. (4)
  const rescaledModulus = elasticModulus * length; // E' = E L
  return force / (rescaledModulus * r1 ** 4);
}

/**
 * The closed form of eq. (25) without its amplitude, for |(α - 1) x| > SERIES_LIMIT (where the
 * cancellation in the numerator is harmless).
 */
function closedFormShape(x: number, alpha: number): number {
  const a = alpha - 1;
  const y = x * a;
  const z = 1 + y; // r(x) / r1
  const numerator = y * (6 + y * (2 * y * (3 + (alpha - 3) * alpha) + 3 * (4 + (alpha - 2) * alpha))) - 6 * z * z * Math.log(z);
  return numerator / (3 * Math.PI * z * z * a ** 4);
}

/**
 * Eq. (25) as a power series in y = (α - 1) x, exact for |y| < 1 and free of the 0/0 of eq. (25) at
 * α = 1. From u'' = (2/π) (1 - x)^2 (1 + y)^-4 (eq. 1 with eq. 6) integrated twice under eq. (2):
 *   u = (2/π) Σn (-1)^n C(n+3, 3) y^n [x^2/((n+1)(n+2)) - 2x^3/((n+2)(n+3)) + x^4/((n+3)(n+4))].
 * The n = 0 term is the classical uniform cantilever x^2 (6 - 4x + x^2) / (6π).
 */
function seriesShape(x: number, alpha: number): number {
  const y = (alpha - 1) * x;
  const x2 = x * x;
  const x3 = x2 * x;
  const x4 = x2 * x2;
  let sum = 0;
  let power = 1; // (-y)^n
  for (let n = 0; n < SERIES_MAX_TERMS; n++) {
    const binomial = ((n + 1) * (n + 2) * (n + 3)) / 6;
    const bracket = x2 / ((n + 1) * (n + 2)) - (2 * x3) / ((n + 2) * (n + 3)) + x4 / ((n + 3) * (n + 4));
    const term = binomial * power * bracket;
    sum += term;
    if (Math.abs(term) <= 1e-17 * Math.abs(sum)) break;
    power *= -y;
  }
  return (2 / Math.PI) * sum;
}

/**
 * The deflection u(x) of the tapered cantilever, eq. (25) (Appendix A):
 *   u(x) = F / (E' r1^4) · (y (6 + y (2y (3 + (α-3)α) + 3 (4 + (α-2)α))) - 6 ξ^2 log ξ) / (3π ξ^2 (α-1)^4),
 *   y = (α - 1) x, ξ = 1 + y.
 * Without `load` the amplitude is 1, the normalization of Fig. 3 and Table 1. At and near α = 1
 * (the uniform beam) a series form is used; at α = 1 it is the classical cantilever under a
 * uniform load q = F, ū(x̄) = q x̄^2 (6L^2 - 4L x̄ + x̄^2) / (24 E I) with I = π s1^4 / 4, which in
 * units of L reads u(x) = F / (E' r1^4) · x^2 (6 - 4x + x^2) / (6π).
 */
export function taperedBeamDeflection(x: number, taperRatio: number, load?: BeamLoad): number {
  assertTaperRatio(taperRatio);
  assertUnitCoordinate(x);
  const scale = load === undefined ? 1 : deflectionScale(load);
  const y = Math.abs((taperRatio - 1) * x);
  return scale * (y <= SERIES_LIMIT ? seriesShape(x, taperRatio) : closedFormShape(x, taperRatio));
}

/** The fitted deflection u(x) = c2 x^2 + c4 x^4 (eq. 7). */
export function fittedDeflection(x: number, beam: BeamPolynomial): number {
  const x2 = x * x;
  return x2 * (beam.c2 + beam.c4 * x2);
}

/** Its slope u'(x) = 2 c2 x + 4 c4 x^3 (the derivative of eq. 7). */
export function fittedDeflectionSlope(x: number, beam: BeamPolynomial): number {
  return x * (2 * beam.c2 + 4 * beam.c4 * x * x);
}

/**
 * The least-squares fit of eq. (25) to u(x) = c2 x^2 + c4 x^4 (eq. 7) for one taper ratio, in the
 * normalization F / (E' r1^4) = 1 of Table 1 (for a loaded branch, multiply c2 and c4 by
 * `deflectionScale(load)`). Sampled at x = i / FIT_INTERVALS; maxError is Table 1's Δx_max.
 */
export function fitBeam(taperRatio: number): BeamFit {
  assertTaperRatio(taperRatio);
  // Normal equations of the 2x2 least-squares problem in the basis (x^2, x^4).
  let s44 = 0;
  let s46 = 0;
  let s88 = 0;
  let b2 = 0;
  let b4 = 0;
  for (let i = 1; i <= FIT_INTERVALS; i++) {
    const x = i / FIT_INTERVALS;
    const x2 = x * x;
    const x4 = x2 * x2;
    const u = taperedBeamDeflection(x, taperRatio);
    s44 += x4;
    s46 += x4 * x2;
    s88 += x4 * x4;
    b2 += x2 * u;
    b4 += x4 * u;
  }
  const det = s44 * s88 - s46 * s46;
  const c2 = (b2 * s88 - b4 * s46) / det;
  const c4 = (s44 * b4 - s46 * b2) / det;
  let maxError = 0;
  for (let i = 0; i <= ERROR_INTERVALS; i++) {
    const x = i / ERROR_INTERVALS;
    maxError = Math.max(maxError, Math.abs(fittedDeflection(x, { c2, c4 }) - taperedBeamDeflection(x, taperRatio)));
  }
  return { c2, c4, maxError };
}
