/**
 * Van Haevre et al. 2006, "Physically-based driven tree animations", §4.2: a mass-spring system
 * on the tree skeleton. Plain TypeScript over typed arrays, no Babylon.
 *
 * Masses. "The system consists of masses attached to the tree skeleton joints": one mass per
 * skeleton node, less the base node of every branch but the trunk, which is the same point as the
 * node it grows from (TreeSkeleton.branchOrigin) and merges with it, so the system is one
 * connected tree (as lsystem-particles does). Parents come before children. Mass 0 is an anchor
 * below the trunk base (mass 1), along the trunk's first segment; both are fixed, the anchor only
 * gives the first trunk segment a parent segment for its angular spring.
 *
 * Mass law. "For each joint the weight attached to its mass should be larger than the sum of the
 * weights of its descendants": m_i = w_i + (1 + ε) D_i, with w_i the joint's own wood (half of
 * each segment it ends, ρ π r² L at the segment's mean radius) and D_i the sum of its descendants'
 * masses. The rule makes masses grow at least twofold per joint down a chain, which is the
 * paper's rule taken literally; the stiffness law below follows the masses, so the motion stays
 * scale free.
 *
 * Springs, forces by eq. 3, F_i = (-k_s C - k_d Ċ) ∂C/∂x_i (Witkin and Baraff 2001), per segment
 * i (from mass i to its parent j, whose parent is k), x_ij = x_i - x_j:
 * - linear (eq. 1): C = |x_ij| - L, stiff: k = m_i (2π f_axial)², ζ_axial = AXIAL_DAMPING_RATIO.
 * - angular (eq. 2): C = x_ij · x_kj - |x_ij| |x_kj| cos α, the segment's rest angle α to its
 *   parent segment; k₂ = k_bend / |x_kj|² (N/m³), which gives k_bend at mass i for a bend in the
 *   joint's plane, times sin² α.
 * - DEPARTURE, angular holding term: eq. 2 alone has no first-order stiffness where a segment
 *   continues its parent straight on (α = π: C grows with the square of the bend), which is most
 *   joints of an L-system skeleton, and none anywhere against a segment swinging round its
 *   parent's axis (C only sees the angle). So every angular spring also carries the vector
 *   behaviour function C_v = x_ij + λ x_kj - (x_ij + λ x_kj)_rest, λ = L_ij / L_kj, eq. 2's rest
 *   angle written as a vector: zero at rest, linear in the positions, rotation invariant at a
 *   straight joint (there its rest value is 0), with k_bend.
 * - Bending stiffness k_bend = stiffness × m̃_i (2π f_bend)², m̃_i = J_i / L_i², J_i the moment of
 *   inertia about joint j of everything segment i carries (mass i and all its descendants, at
 *   rest): every joint swings what it carries, held rigid, at f_bend, and, since the masses more
 *   than halve at every joint up the tree, "when located high in the tree structure, bending
 *   occurs much more easily, and so less stiffness and damping is required": the joint's
 *   rotational stiffness k_bend L_i² = stiffness (2π f_bend)² J_i falls at every joint up the tree
 *   (k_bend itself, per metre at mass i, can rise where a segment is much shorter than its parent).
 * - Damping: Rayleigh, split between eq. 3's k_d and the air. Eq. 3's dampers act on the springs'
 *   own rates Ċ, so with k_d ∝ k they damp a mode of angular frequency ω at ζ ω / ω_r only
 *   (stiffness-proportional damping), and the slowest modes, where a whole twig chain bends a
 *   little at every joint, hardly at all. So k_d = ζ √(k m̃_i) (ζ / ω_r times k, ω_r = 2π f_bend
 *   √stiffness), and DEPARTURE, every free mass also feels an air damping -α m_i v_i with
 *   α = ζ ω_r (mass-proportional): together every mode gets ζ(ω) = ζ (ω_r / ω + ω / ω_r) / 2 ≥ ζ,
 *   ζ at ω_r, and decays at least at ζ ω_r / 2 (1.5 /s at the default settings) unless it is
 *   overdamped, below ω ≈ ζ ω_r / 2. ζ from the shared damping.
 * - DEPARTURE from the first version (k_bend = m_i (2π f_bend)², k_d = 2 ζ √(k m_i), no air): a
 *   joint held its own mass only at f_bend, but with the mass rule a twig chain's descendants at
 *   their lever arms weigh about 9 m_i (J_i ≈ 9 m_i L_i²), and the chain's joints bend in series,
 *   so the slowest modes of the habel tree sat at 0.17 Hz (not 1.5) with ζ = 0.036, decaying at
 *   0.04 /s (the demo tree's: 0.22 Hz, ζ = 0.045, 3.7 cm still off rest 30 s after a 1.8 m
 *   swing). Now they sit at about 0.5 Hz (demo 0.6) with ζ ≈ 0.5 and decay at 1.65 /s (demo 1.7).
 *   The linear springs keep their own k_d (ζ_axial); their modes are far above ω_r.
 *
 * External forces: `external` (N per mass, xyz), set by the caller (wind drag, gravity) before
 * each step; `windDrag` and `addGravity` fill it.
 */
import { skeletonJoints, type TreeSkeleton } from "../../tree/skeleton";
import { cylinderDragFactor, WOOD_DENSITY } from "../../wind/drag";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, hypot, max, abs, PI } = Math;

/** The paper's mass rule, m_i = w_i + (1 + ε) D_i. */
export const MASS_EPSILON = 0.05;
/** Damping ratio of the linear springs. */
export const AXIAL_DAMPING_RATIO = 0.5;
/** Damping ratio of the angular springs at damping 0 and 1: ζ = ZETA_MIN + (ZETA_MAX - ZETA_MIN) × damping. */
export const ZETA_MIN = 0.02;
export const ZETA_MAX = 1;

export interface MassSpringSettings {
  /** Frequency of a linear spring on its own mass, Hz (stiff: far above the step rate). */
  axialHz: number;
  /** Frequency of an angular spring on its own mass, Hz. */
  bendHz: number;
  /** Scales every angular spring constant. */
  stiffness: number;
  /** 0..1, the shared damping: angular damping ratio ζ = ZETA_MIN + (ZETA_MAX - ZETA_MIN) × damping. */
  damping: number;
}

export const DEFAULT_MASS_SPRING: MassSpringSettings = { axialHz: 60, bendHz: 1.5, stiffness: 1, damping: 0.3 };


export class MassSpringSystem {
  readonly count: number;
  /** Parent mass, -1 for the anchor. parent[i] < i. */
  readonly parent: Int32Array;
  /** Skeleton node of each mass (-1 for the anchor). */
  readonly node: Int32Array;
  /** Mass of every skeleton node. */
  readonly massOfNode: Int32Array;
  /** 1 for the fixed masses (the anchor and the trunk base). */
  readonly fixed: Uint8Array;
  readonly rest: Float64Array;
  readonly position: Float64Array;
  readonly velocity: Float64Array;
  /** External force per mass for the next step, N, xyz (wind, gravity), set by the caller. */
  readonly external: Float64Array;
  /** Mass by the paper's rule, kg. */
  readonly mass: Float64Array;
  /** Own wood mass, kg (what gravity and the wind's area belong to). */
  readonly woodMass: Float64Array;
  /** Radius at the mass, metres. */
  readonly radius: Float64Array;
  /** Rest length L of segment i (mass i to its parent); 0 for the anchor. */
  readonly restLength: Float64Array;
  /**
   * m̃_i = J_i / L_i²: the moment of inertia J_i about joint j (mass i's parent) of mass i and all
   * its descendants at rest, over L_i², kg; what segment i's angular spring swings.
   */
  readonly swingMass: Float64Array;
  /** α of the air damping -α m_i v_i on every free mass, 1/s (from configure). */
  airDamping = 0;
  /** Linear spring of segment i: k, k_d. */
  readonly linearK: Float64Array;
  readonly linearKd: Float64Array;
  /** Angular spring of segment i against its parent segment: k_bend, its damping, cos α, λ, the vector rest value. */
  readonly bendK: Float64Array;
  readonly bendKd: Float64Array;
  readonly cosAlpha: Float64Array;
  readonly lambda: Float64Array;
  readonly bendRest: Float64Array;
  private settingsNow: MassSpringSettings;

  constructor(readonly skeleton: TreeSkeleton, settings: MassSpringSettings = DEFAULT_MASS_SPRING) {
    const s = skeleton, np = s.nodePosition;
    // Mass i + 1 is joint i: mass 0 is the anchor below the root.
    const joints = skeletonJoints(s, "mass-spring");
    const massOfNode = joints.jointOfNode.map((j) => j + 1);
    const nodeOf = [-1, ...joints.node];
    const parentOf = [-1, ...Array.from(joints.parent, (p) => p + 1)];
    const n = nodeOf.length;
    if (n < 3) throw new Error("the skeleton has fewer than two joints");
    this.count = n;
    this.node = Int32Array.from(nodeOf);
    this.parent = Int32Array.from(parentOf);
    this.massOfNode = massOfNode;
    this.fixed = new Uint8Array(n);
    this.fixed[0] = this.fixed[1] = 1;
    this.rest = new Float64Array(3 * n);
    this.radius = new Float64Array(n);
    for (let i = 1; i < n; i++) {
      const k = this.node[i];
      for (let c = 0; c < 3; c++) this.rest[3 * i + c] = np[3 * k + c];
      this.radius[i] = s.nodeRadius[k];
    }
    this.restLength = new Float64Array(n);
    for (let i = 2; i < n; i++) {
      const L = this.dist(this.rest, i, this.parent[i]);
      if (!(L > 1e-9)) throw new Error(`mass ${i} (node ${this.node[i]}) sits on its parent: a segment of zero length`);
      this.restLength[i] = L;
    }
    // The anchor: one first-segment length below the trunk base, along that segment.
    let first = -1;
    for (let i = 2; i < n && first < 0; i++) if (this.parent[i] === 1) first = i;
    const L1 = this.restLength[first];
    for (let c = 0; c < 3; c++) this.rest[c] = 2 * this.rest[3 + c] - this.rest[3 * first + c];
    this.radius[0] = this.radius[1];
    this.restLength[1] = L1;
    // Wood: half of each segment to each of its ends (the anchor's segment is not wood).
    this.woodMass = new Float64Array(n);
    for (let i = 2; i < n; i++) {
      const j = this.parent[i], r = 0.5 * (this.radius[i] + this.radius[j]);
      const w = WOOD_DENSITY * PI * r * r * this.restLength[i];
      this.woodMass[i] += 0.5 * w;
      this.woodMass[j] += 0.5 * w;
    }
    // The paper's rule: m_i = w_i + (1 + ε) D_i, children before parents.
    this.mass = new Float64Array(n);
    const descendants = new Float64Array(n);
    for (let i = n - 1; i >= 1; i--) {
      this.mass[i] = this.woodMass[i] + (1 + MASS_EPSILON) * descendants[i];
      const j = this.parent[i];
      descendants[j] += this.mass[i] + descendants[i];
    }
    this.mass[0] = this.mass[1];
    // m̃_i: subtree moments S0 = Σ m, S1 = Σ m x, S2 = Σ m |x|², children before parents;
    // J_i about x_j is S2 - 2 x_j · S1 + S0 |x_j|².
    this.swingMass = new Float64Array(n);
    const s0 = new Float64Array(n), s1 = new Float64Array(3 * n), s2 = new Float64Array(n), r = this.rest;
    for (let i = n - 1; i >= 2; i--) {
      const m = this.mass[i];
      s0[i] += m;
      s2[i] += m * (r[3 * i] * r[3 * i] + r[3 * i + 1] * r[3 * i + 1] + r[3 * i + 2] * r[3 * i + 2]);
      for (let c = 0; c < 3; c++) s1[3 * i + c] += m * r[3 * i + c];
      const j = this.parent[i], xj = r[3 * j], yj = r[3 * j + 1], zj = r[3 * j + 2];
      const J = s2[i] - 2 * (xj * s1[3 * i] + yj * s1[3 * i + 1] + zj * s1[3 * i + 2]) + s0[i] * (xj * xj + yj * yj + zj * zj);
      const L = this.restLength[i];
      this.swingMass[i] = max(m, J / (L * L)); // ≥ m_i L_i² / L_i²; max() only against round-off
      s0[j] += s0[i];
      s2[j] += s2[i];
      for (let c = 0; c < 3; c++) s1[3 * j + c] += s1[3 * i + c];
    }
    this.cosAlpha = new Float64Array(n);
    this.lambda = new Float64Array(n);
    this.bendRest = new Float64Array(3 * n);
    for (let i = 2; i < n; i++) {
      const j = this.parent[i], k = this.parent[j], r = this.rest;
      let dot = 0;
      for (let c = 0; c < 3; c++) dot += (r[3 * i + c] - r[3 * j + c]) * (r[3 * k + c] - r[3 * j + c]);
      this.cosAlpha[i] = dot / (this.restLength[i] * this.restLength[j]);
      const lam = this.restLength[i] / this.restLength[j];
      this.lambda[i] = lam;
      for (let c = 0; c < 3; c++) this.bendRest[3 * i + c] = r[3 * i + c] - (1 + lam) * r[3 * j + c] + lam * r[3 * k + c];
    }
    this.linearK = new Float64Array(n);
    this.linearKd = new Float64Array(n);
    this.bendK = new Float64Array(n);
    this.bendKd = new Float64Array(n);
    this.position = new Float64Array(this.rest);
    this.velocity = new Float64Array(3 * n);
    this.external = new Float64Array(3 * n);
    this.settingsNow = settings;
    this.configure(settings);
  }

  get settings(): MassSpringSettings {
    return this.settingsNow;
  }

  /** Sets the spring constants from the settings (the stiffness laws in the file comment). */
  configure(settings: MassSpringSettings): void {
    if (!(settings.axialHz > 0 && settings.bendHz > 0 && settings.stiffness >= 0)) throw new RangeError("axialHz and bendHz must be above 0, stiffness at least 0");
    if (!(settings.damping >= 0 && settings.damping <= 1)) throw new RangeError(`damping must be in [0, 1]; got ${settings.damping}`);
    this.settingsNow = { ...settings };
    const wa = 2 * PI * settings.axialHz, wb = 2 * PI * settings.bendHz;
    const zeta = ZETA_MIN + (ZETA_MAX - ZETA_MIN) * settings.damping;
    // Rayleigh split (file comment): eq. 3's k_d = (ζ / ω_r) k_bend, air α = ζ ω_r.
    this.airDamping = zeta * wb * sqrt(settings.stiffness);
    for (let i = 2; i < this.count; i++) {
      const m = this.mass[i], ms = this.swingMass[i];
      this.linearK[i] = m * wa * wa;
      this.linearKd[i] = 2 * AXIAL_DAMPING_RATIO * m * wa;
      this.bendK[i] = settings.stiffness * ms * wb * wb;
      this.bendKd[i] = zeta * sqrt(this.bendK[i] * ms);
    }
  }

  /** Back to the rest pose, at rest; external forces cleared. */
  reset(): void {
    this.position.set(this.rest);
    this.velocity.fill(0);
    this.external.fill(0);
  }

  /**
   * Drag of a uniform wind u (m/s) on every mass, across its segment's frontal area 2 r L
   * (F = ½ ρ C_d A |u - v| (u - v)), written into `external` (replacing what is there).
   */
  windDrag(ux: number, uy: number, uz: number): void {
    const f = this.external, v = this.velocity;
    for (let i = 0; i < this.count; i++) {
      const rx = ux - v[3 * i], ry = uy - v[3 * i + 1], rz = uz - v[3 * i + 2];
      const c = this.fixed[i] ? 0 : cylinderDragFactor(this.radius[i], this.restLength[i]) * hypot(rx, ry, rz);
      f[3 * i] = c * rx;
      f[3 * i + 1] = c * ry;
      f[3 * i + 2] = c * rz;
    }
  }

  /** Adds the weight of the wood, g × multiple, to `external`. */
  addGravity(g: number): void {
    for (let i = 0; i < this.count; i++) this.external[3 * i + 1] -= g * this.woodMass[i];
  }

  /** Sum of the masses of every descendant of each mass (for checks). */
  descendantMass(): Float64Array {
    const d = new Float64Array(this.count);
    for (let i = this.count - 1; i >= 1; i--) d[this.parent[i]] += this.mass[i] + d[i];
    return d;
  }

  /**
   * Total force on every mass at the current state, eq. 3 for every spring, the air damping and
   * `external`, into f (3 per mass; zero on the fixed masses).
   */
  forces(f: Float64Array): void {
    const x = this.position, v = this.velocity, n = this.count, air = this.airDamping;
    f.set(this.external);
    // Air damping (DEPARTURE, file comment): -α m_i v_i.
    for (let i = 2; i < n; i++) {
      const c = -air * this.mass[i];
      addTo(f, i, c * v[3 * i], c * v[3 * i + 1], c * v[3 * i + 2]);
    }
    for (let i = 2; i < n; i++) {
      const j = this.parent[i], k = this.parent[j];
      const ax = x[3 * i] - x[3 * j], ay = x[3 * i + 1] - x[3 * j + 1], az = x[3 * i + 2] - x[3 * j + 2];
      const bx = x[3 * k] - x[3 * j], by = x[3 * k + 1] - x[3 * j + 1], bz = x[3 * k + 2] - x[3 * j + 2];
      const la = sqrt(ax * ax + ay * ay + az * az), lb = sqrt(bx * bx + by * by + bz * bz);
      const vax = v[3 * i] - v[3 * j], vay = v[3 * i + 1] - v[3 * j + 1], vaz = v[3 * i + 2] - v[3 * j + 2];
      const vbx = v[3 * k] - v[3 * j], vby = v[3 * k + 1] - v[3 * j + 1], vbz = v[3 * k + 2] - v[3 * j + 2];
      // Linear spring (eq. 1, eq. 3): ∂C/∂x_i = x̂_ij = -∂C/∂x_j.
      const ux = ax / la, uy = ay / la, uz = az / la;
      const sl = -this.linearK[i] * (la - this.restLength[i]) - this.linearKd[i] * (ux * vax + uy * vay + uz * vaz);
      addTo(f, i, sl * ux, sl * uy, sl * uz);
      addTo(f, j, -sl * ux, -sl * uy, -sl * uz);
      // Angular spring (eq. 2, eq. 3): ∂C/∂x_i = x_kj - cos α |x_kj| x̂_ij, ∂C/∂x_k = x_ij - cos α |x_ij| x̂_kj.
      const ca = this.cosAlpha[i], k2 = this.bendK[i] / (this.restLength[j] * this.restLength[j]), kd2 = this.bendKd[i] / (this.restLength[j] * this.restLength[j]);
      const c2 = ax * bx + ay * by + az * bz - la * lb * ca;
      const gix = bx - ca * lb * ux, giy = by - ca * lb * uy, giz = bz - ca * lb * uz;
      const gkx = ax - ca * la * bx / lb, gky = ay - ca * la * by / lb, gkz = az - ca * la * bz / lb;
      const c2dot = gix * vax + giy * vay + giz * vaz + gkx * vbx + gky * vby + gkz * vbz;
      const s2 = -k2 * c2 - kd2 * c2dot;
      addTo(f, i, s2 * gix, s2 * giy, s2 * giz);
      addTo(f, k, s2 * gkx, s2 * gky, s2 * gkz);
      addTo(f, j, -s2 * (gix + gkx), -s2 * (giy + gky), -s2 * (giz + gkz));
      // Holding term: C_v = x_i - (1 + λ) x_j + λ x_k - rest, F_a = -c_a (k C_v + k_d Ċ_v).
      const lam = this.lambda[i], kb = this.bendK[i], kdb = this.bendKd[i], r = this.bendRest;
      const cx = ax + lam * bx - r[3 * i], cy = ay + lam * by - r[3 * i + 1], cz = az + lam * bz - r[3 * i + 2];
      const hx = -kb * cx - kdb * (vax + lam * vbx), hy = -kb * cy - kdb * (vay + lam * vby), hz = -kb * cz - kdb * (vaz + lam * vbz);
      addTo(f, i, hx, hy, hz);
      addTo(f, j, -(1 + lam) * hx, -(1 + lam) * hy, -(1 + lam) * hz);
      addTo(f, k, lam * hx, lam * hy, lam * hz);
    }
    for (let i = 0; i < n; i++) if (this.fixed[i]) f[3 * i] = f[3 * i + 1] = f[3 * i + 2] = 0;
  }

  /** Relative change of every segment's length, max |(|x_ij| - L) / L|. */
  maxStrain(): number {
    let m = 0;
    for (let i = 2; i < this.count; i++) m = max(m, abs(this.dist(this.position, i, this.parent[i]) / this.restLength[i] - 1));
    return m;
  }

  /** Largest distance of a mass from its rest position, metres. */
  maxDisplacement(): number {
    let m = 0;
    for (let i = 0; i < this.count; i++) m = max(m, this.dist2(this.position, this.rest, i));
    return m;
  }

  isFinite(): boolean {
    for (let i = 0; i < this.position.length; i++) if (!Number.isFinite(this.position[i]) || !Number.isFinite(this.velocity[i])) return false;
    return true;
  }

  private dist(p: Float64Array, a: number, b: number): number {
    return hypot(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
  }

  private dist2(p: Float64Array, q: Float64Array, a: number): number {
    return hypot(p[3 * a] - q[3 * a], p[3 * a + 1] - q[3 * a + 1], p[3 * a + 2] - q[3 * a + 2]);
  }
}

function addTo(f: Float64Array, i: number, x: number, y: number, z: number): void {
  f[3 * i] += x;
  f[3 * i + 1] += y;
  f[3 * i + 2] += z;
}

/** Forward (explicit) Euler, for comparison: x += h v, v += h M⁻¹ f(x, v), both from the start of the step. */
export function explicitEulerStep(sys: MassSpringSystem, h: number, f: Float64Array): void {
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
