/**
 * The length correction of Habel, Kusternig and Wimmer 2009, §4.2 (eqs. 8 to 10). Plain
 * TypeScript, no Babylon: the CPU reference for the vertex shader.
 *
 * The beam deflection moves a point only transversally, p_u = (x, y + u(x)), which stretches the
 * branch (a shear). The correction moves the deflected point back along its tangent by the local
 * length difference d(x), turning the shear into a rotation about the point where the tangent
 * meets the undeflected axis. It is exact for a straight (linear) deflection and an approximation
 * for a curved one: see the spec for how much length it keeps at strong deflections.
 *
 * Coordinates: x along the undeflected axis of the unit-length beam, x ∈ [0, 1]; "transversal" is
 * the direction of the deflection u(x).
 */

/** A corrected position: axial (along the undeflected axis) and transversal (along u). */
export interface CorrectedPosition {
  axial: number;
  transversal: number;
}

/** The stretch factor of the shear, s(x) = sqrt(1 + u'(x)^2): the length of the tangent (1, u'). */
export function stretchFactor(slope: number): number {
  return Math.sqrt(1 + slope * slope);
}

/**
 * The local length difference of eq. (8), d(x) = u(x) / u'(x) · (s(x) - 1), written as
 * u u' / (s + 1) (since s - 1 = u'^2 / (s + 1)) so that it is finite where u' = 0 (the root).
 */
export function lengthDifference(deflection: number, slope: number): number {
  return (deflection * slope) / (stretchFactor(slope) + 1);
}

/**
 * The corrected position of a point on the beam, eqs. (9) and (10): the point at x on the
 * undeflected axis, at transversal offset y from it (0 on the axis), deflected by u = u(x) with
 * slope u' = u'(x), moves to
 *   p_x = x - d(x) / s(x),   p_y = y + u(x) / s(x).
 * Writes into `out` when given (no allocation per vertex).
 */
export function lengthCorrectedPosition(
  x: number,
  deflection: number,
  slope: number,
  y = 0,
  out: CorrectedPosition = { axial: 0, transversal: 0 },
): CorrectedPosition {
  const s = stretchFactor(slope);
  const d = (deflection * slope) / (s + 1); // eq. (8)
  out.axial = x - d / s; // eq. (9)
  out.transversal = y + deflection / s;
  return out;
}

/** The offset vector o(x) = (-d(x), u(x)) / s(x) of eq. (10): p = p_o + o(x). */
export function lengthCorrectionOffset(
  deflection: number,
  slope: number,
  out: CorrectedPosition = { axial: 0, transversal: 0 },
): CorrectedPosition {
  return lengthCorrectedPosition(0, deflection, slope, 0, out);
}

/** A deflection curve over the unit beam: u(x) and u'(x). */
export interface DeflectionCurve {
  deflection(x: number): number;
  slope(x: number): number;
}

/**
 * The arc length of the deflected axis x ∈ [0, 1], as a polyline through `intervals + 1` points:
 * with the length correction (eq. 9) by default, or the uncorrected p_u = (x, u(x)) when
 * `lengthCorrection` is false. For tests: the undeflected beam has length 1.
 */
export function deflectedArcLength(curve: DeflectionCurve, lengthCorrection = true, intervals = 2000): number {
  if (!(Number.isInteger(intervals) && intervals > 0)) throw new RangeError(`intervals must be a positive integer, got ${intervals}`);
  const point: CorrectedPosition = { axial: 0, transversal: 0 };
  let previousAxial = 0;
  let previousTransversal = 0;
  let length = 0;
  for (let i = 0; i <= intervals; i++) {
    const x = i / intervals;
    const u = curve.deflection(x);
    if (lengthCorrection) {
      lengthCorrectedPosition(x, u, curve.slope(x), 0, point);
    } else {
      point.axial = x;
      point.transversal = u;
    }
    if (i > 0) length += Math.hypot(point.axial - previousAxial, point.transversal - previousTransversal);
    previousAxial = point.axial;
    previousTransversal = point.transversal;
  }
  return length;
}

/**
 * Newton steps of `arcLengthPosition`. One step from eq. (9)'s start keeps a half-length tip
 * deflection's arc length within 1 % for every taper ratio (see the spec).
 */
export const ARC_LENGTH_NEWTON_STEPS = 1;

/**
 * ∫_0^y sqrt(1 + (A P'(ξ))^2) dξ for P(ξ) = c2 ξ^2 + c4 ξ^4 (eq. 7), by composite Simpson on four
 * intervals: the arc length of the deflected centre line from the root to parameter y.
 */
export function deflectedArcTo(y: number, amplitude: number, c2: number, c4: number): number {
  const h = 0.25 * y;
  let sum = 1; // ξ = 0: P'(0) = 0
  for (let i = 1; i <= 4; i++) {
    const xi = i * h;
    const slope = amplitude * (2 * c2 * xi + 4 * c4 * xi * xi * xi);
    sum += (i === 4 ? 1 : i % 2 === 1 ? 4 : 2) * Math.sqrt(1 + slope * slope);
  }
  return (h / 3) * sum;
}

/**
 * The length correction taken to its end (§4.2: "the exact incorporation of the length requires
 * the solution of an elliptical integral"). Eqs. (8)-(10) move the deflected point back along its
 * tangent; that is exact for a straight deflection but leaves a curved one up to 9 % long or
 * short at a half-length deflection. Here eq. (9)'s corrected coordinate x - d/s is only the
 * start: Newton's method then finds the parameter y on the deflected curve (ξ, A P(ξ)) whose arc
 * length from the root is the point's own rest position x,
 *   S(y) = ∫_0^y sqrt(1 + A^2 P'(ξ)^2) dξ = x,   y ← y - (S(y) - x) / sqrt(1 + A^2 P'(y)^2),
 * so every point keeps its distance from the root along the branch. Both transversal directions
 * share the shape P (eq. 11: u_{r,s} = A_{r,s} u), so the deflected curve is planar and A is
 * |(A_r, A_s)|. Returns y: the length-corrected x of eq. (21) (the axial position is y, the
 * deflection u_{r,s}(y), the slopes for eqs. (13), (22), (23) are taken at y).
 */
export function arcLengthPosition(x: number, amplitude: number, c2: number, c4: number): number {
  const a = Math.abs(amplitude);
  if (a === 0 || x <= 0) return x;
  // Eq. (9)'s x - d(x)/s(x), with d = u u' / (s + 1) (eq. 8).
  const u = a * (c2 * x * x + c4 * x * x * x * x);
  const du = a * (2 * c2 * x + 4 * c4 * x * x * x);
  const s = Math.sqrt(1 + du * du);
  let y = x - (u * du) / (s + 1) / s;
  for (let k = 0; k < ARC_LENGTH_NEWTON_STEPS; k++) {
    const slope = a * (2 * c2 * y + 4 * c4 * y * y * y);
    y -= (deflectedArcTo(y, a, c2, c4) - x) / Math.sqrt(1 + slope * slope);
  }
  return y;
}
