/**
 * Checks of a mass-spring state (system.ts), plain TypeScript: how far it strains and moves, and
 * whether it can still be a tree's motion; the share of the twist pull a step carries stably; and
 * forward Euler, the step the paper's implicit one is compared with.
 */
/** What these read of a MassSpringSystem (structurally, so system.ts can import them). */
export interface MassSpringState {
  readonly count: number;
  readonly parent: Int32Array;
  readonly fixed: Uint8Array;
  readonly mass: Float64Array;
  readonly rest: Float64Array;
  readonly position: Float64Array;
  readonly velocity: Float64Array;
  readonly restLength: Float64Array;
  readonly bendK: Float64Array;
  readonly bendKd: Float64Array;
  readonly twistShare: Float64Array;
  forces(f: Float64Array): void;
}

const { sqrt, hypot, max, abs } = Math;

/**
 * |p_a - p_b|, as forces() and the implicit step measure a segment (the same operations): the
 * rest pose is exactly free of the stiff linear springs' force (E A / L: a last-bit difference
 * of hypot's is 1e-8 N on a trunk).
 */
export function segmentLength(p: Float64Array, a: number, b: number): number {
  const x = p[3 * a] - p[3 * b], y = p[3 * a + 1] - p[3 * b + 1], z = p[3 * a + 2] - p[3 * b + 2];
  return sqrt(x * x + y * y + z * z);
}

/** |p_a - q_a|: mass a's distance between two states. */
function apart(p: Float64Array, q: Float64Array, a: number): number {
  return hypot(p[3 * a] - q[3 * a], p[3 * a + 1] - q[3 * a + 1], p[3 * a + 2] - q[3 * a + 2]);
}

/** Relative change of every segment's length, max |(|x_ij| - L) / L|. */
export function maxStrain(sys: MassSpringState): number {
  let m = 0;
  for (let i = 2; i < sys.count; i++) m = max(m, abs(segmentLength(sys.position, i, sys.parent[i]) / sys.restLength[i] - 1));
  return m;
}

/** Largest distance of a mass from its rest position, metres. */
export function maxDisplacement(sys: MassSpringState): number {
  let m = 0;
  for (let i = 0; i < sys.count; i++) m = max(m, apart(sys.position, sys.rest, i));
  return m;
}

/**
 * Why the state cannot be a tree's motion, or null: a mass farther from its rest than twice the
 * tree's reach (its farthest mass from the trunk's base; no bend takes a point farther), or a
 * segment stretched to twice its length or shrunk to a third (the linear springs are stiff).
 * What a simulation that went unstable shows while still finite.
 */
export function instability(sys: MassSpringState): string | null {
  const r = sys.rest, n = sys.count;
  let reach = 0;
  for (let i = 0; i < n; i++) reach = max(reach, hypot(r[3 * i] - r[3], r[3 * i + 1] - r[4], r[3 * i + 2] - r[5]));
  let far = 0, at = 0;
  for (let i = 0; i < n; i++) {
    const d = apart(sys.position, r, i);
    if (d > far) {
      far = d;
      at = i;
    }
  }
  if (far > 2 * reach) return `mass ${at} is ${far.toPrecision(3)} m from its rest, beyond twice the tree's reach (${reach.toPrecision(3)} m)`;
  for (let i = 2; i < n; i++) {
    const s = segmentLength(sys.position, i, sys.parent[i]) / sys.restLength[i];
    if (s > 2 || s < 1 / 3) return `segment ${i} is ${s.toPrecision(3)} times its rest length`;
  }
  return null;
}

/**
 * sys.twistShare for steps of h (system.ts's file comment): the pull of segment i's spring through the twist of
 * R_k about û_j, k = p(j), is a stiffness k g on the turn of segment k, g = |t × û_j|² |û_j × û_k|² / L_k²
 * (at rest), on the pair of masses at its ends (reduced mass μ), taken explicitly at the step's
 * end; it stays stable while σ g (3 k h² + 2 h k_d) ≤ μ.
 */
export function twistShares(sys: MassSpringState, h: number): void {
  const n = sys.count, r = sys.rest, par = sys.parent, share = sys.twistShare;
  share.fill(1);
  for (let i = 2; i < n; i++) {
    const j = par[i], k = par[j];
    if (k < 2) continue; // segments 0 and 1 are held: no pull through their frames
    const l = par[k], kb = sys.bendK[i];
    if (!(kb > 0)) continue;
    const Lj = sys.restLength[j], Lk = sys.restLength[k];
    const ux = (r[3 * j] - r[3 * k]) / Lj, uy = (r[3 * j + 1] - r[3 * k + 1]) / Lj, uz = (r[3 * j + 2] - r[3 * k + 2]) / Lj;
    const vx = (r[3 * k] - r[3 * l]) / Lk, vy = (r[3 * k + 1] - r[3 * l + 1]) / Lk, vz = (r[3 * k + 2] - r[3 * l + 2]) / Lk;
    const tx = r[3 * i] - r[3 * j], ty = r[3 * i + 1] - r[3 * j + 1], tz = r[3 * i + 2] - r[3 * j + 2];
    // |t × û_j|², |û_j × û_k|²
    const a = (ty * uz - tz * uy) ** 2 + (tz * ux - tx * uz) ** 2 + (tx * uy - ty * ux) ** 2;
    const b = (uy * vz - uz * vy) ** 2 + (uz * vx - ux * vz) ** 2 + (ux * vy - uy * vx) ** 2;
    const g = a * b / (Lk * Lk);
    const mk = sys.mass[k], ml = sys.mass[l];
    const mu = sys.fixed[l] ? mk : mk * ml / (mk + ml);
    const need = g * (3 * kb * h * h + 2 * h * sys.bendKd[i]);
    if (need > mu) share[i] = mu / need;
  }
}

/** Forward (explicit) Euler, for comparison: x += h v, v += h M⁻¹ f(x, v), both from the start of the step. */
export function explicitEulerStep(sys: MassSpringState, h: number, f: Float64Array): void {
  sys.forces(f);
  const x = sys.position, v = sys.velocity;
  for (let i = 0; i < sys.count; i++) {
    if (sys.fixed[i]) continue;
    const im = 1 / sys.mass[i];
    for (let c = 0; c < 3; c++) {
      x[3 * i + c] += h * v[3 * i + c];
      v[3 * i + c] += h * im * f[3 * i + c];
    }
  }
}
