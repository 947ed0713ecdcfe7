/**
 * Barron, Sorge and Davis, "Real-Time Procedural Animation of Trees": the tree as a particle
 * system (§4.1) and its update (§2.3, §5.1). Plain TypeScript over typed arrays, no Babylon.
 *
 * Particles (§4.1). "Before the turtle begins parsing the string, a root particle is created ...
 * Anytime the turtle's position is moved, a new particle is added." The turtle (lsystem/turtle.ts)
 * makes one skeleton node per F, so the particles are the skeleton's nodes, less the base node of
 * every branch but the trunk: that node is a copy of the point the turtle stood on when the
 * branch began (TreeSkeleton.branchOrigin), which is the particle its first segment grows from.
 * Pointers as in the paper: parent, first child, next sibling, and the dominant child (the one
 * added at the same stack depth: the next node on the same axis; our turtle also carries an axis
 * on through a sympodial continuation, where the paper's rule would leave it without one).
 * Radii (§4.1): every radius scaled by one factor, the minimum branch radius over the smallest
 * radius in the tree, so the grammar sets how radii fall off and a grown tree gets thicker.
 *
 * Paper-literal (the "Paper-literal" switch) is what follows in this header; the calibrated default
 * changes the loads, joints, springs, inertia and damping as ParticleDynamics says.
 *
 * Gravity acts on the rod's own mass, whose centre is halfway along it: its torque is that of half
 * the force at the particle (the wind and the spring act at the particle, as eq. 2.1 assumes). An
 * upright rod stays up while k_s L > M g / 2, for every stiffness and gravity the sliders offer.
 *
 * Dynamics (§5.1). Each particle ends a rod (its "branch segment") fixed at its parent particle.
 * Forces on the particle (eq. 5.1): gravity F_G, the wind F_W (drag on the rod) and the spring
 * to its rest position F_S = -k_s x - k_d v (eq. 2.7; the paper prints +k_d v with v the velocity
 * of the spring's stretching, we write the damping as opposing the particle's velocity). The
 * torque on the rod τ = R × F (eq. 2.1, printed f ⊗ R; this order turns R toward f), the rod's
 * moment of inertia I = M L² / 3 (eq. 2.3), α = τ / I (eq. 2.2); the rod turns by the angle of
 * eq. 2.5 about the torque axis, its angular velocity follows eq. 2.4, and it is "added to the
 * parent particle's current position". Then propagation (eqs. 5.2, 5.3): a child's rest position
 * moves with its parent, R_child = (C_current - I_current) + I_child, and its current position is
 * R_child + S_child, its spring vector kept.
 *
 * What follows from eqs. 5.2 and 5.3: a rod's rest direction I_child - I_parent never changes,
 * and its length is kept exactly. Every rod is a damped angular oscillator about a fixed rest
 * direction, driven by the wind and gravity; the tree's shape is the sum of the rods.
 *
 * DEPARTURE (integration). Eq. 2.5 moves the angle by ω0 t + ½ α t². If eq. 2.4 then takes α
 * from the start of the step alone (explicit Euler in ω), the update gains energy on every step
 * that starts at rest in a deflected pose, whatever the damping (by x⁴/4 of the energy, x = h ω_n):
 * a spring-only tree cannot lose energy monotonically. Here eq. 2.4 uses the step's mean angular
 * acceleration, ½ (α0 + α1) (velocity Verlet), with the damping torque taken at the mean of the
 * old and new ω. Then for a linear rod the energy ½ I ω² + ½ k_s |S|² falls on every step as long
 * as h ω_n stays under a bound that depends only on the damping ratio (`verletStepLimit`): each
 * rod takes as many equal sub-steps as it needs to stay under half that bound ("sub-stepping" in
 * the stats), so every time step the slider offers is stable. (Calibrated: under STABLE_STEP,
 * velocity Verlet's stability; the air's damping of the rod's own turn is taken implicitly.)
 */
import { skeletonJoints, type TreeSkeleton } from "../../tree/skeleton";
import { G, WOOD_DENSITY } from "../../wind/drag";
import { airDamping, calibratedRods, subtreeTorques } from "./beam";
import { composeJoints, decomposeJoints, toParentFrames, type JointState } from "./joints";
import { rotateQuat, rotateVec } from "./quat";
import { dampingRatio } from "../../physics/damping";
import { defaultMaterial, type PhysicalMaterial } from "../../physics/material";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, hypot, ceil, max, min, PI } = Math;

export { rotateQuat, rotateVec };

// Gravity G and the wood's density (rod mass M = ρ π r² L) are app/wind/drag.ts's, shared by the CPU methods.
export { G, WOOD_DENSITY };
/**
 * Paper-literal only: spring constant per square metre of cross-section at stiffness 1 for wood of
 * density WOOD_DENSITY, N/m per m²: k_s = STIFFNESS_PER_AREA × (ρ / WOOD_DENSITY) × stiffness × r².
 * With M = ρ π r² L a rod's frequency then depends only on its length, whatever the wood
 * (ω_n² = 3 k_s / M ≈ 273 / L s⁻², 2.6 Hz for a 1 m rod); the wind turns thin rods more than thick
 * ones (angle ∝ u² / r).
 */
export const STIFFNESS_PER_AREA = 2.0e5;
/** Damping ratio at damping 0 and 1 (physics/damping.ts's dampingRatio, the slider's one mapping). */
export const ZETA_MIN = dampingRatio(0);
export const ZETA_MAX = dampingRatio(1);
/**
 * Calibrated: the largest h ω_n of one sub-step. Velocity Verlet is stable for h ω_n < 2 whatever
 * the damping; half of that. (Paper-literal keeps the energy-contracting bound, verletStepLimit.)
 */
export const STABLE_STEP = 1;
/** Sub-steps keep h ω_n under this share of the energy bound. */
export const STEP_SAFETY = 0.5;

/** The particle system of §4.1. Rest positions are the turtle's, metres. */
export interface ParticleTree {
  readonly count: number;
  /** Skeleton node of each particle. */
  readonly node: Int32Array;
  /** Parent particle, -1 for the root. Parents come before children. */
  readonly parent: Int32Array;
  readonly firstChild: Int32Array;
  /** Next child of the same parent, -1 at the end of the list. */
  readonly sibling: Int32Array;
  /** The child that continues this particle's axis, -1 at a tip. */
  readonly dominant: Int32Array;
  /** Initial (rest) position I, xyz. */
  readonly rest: Float64Array;
  /** Radius at the particle after the §4.1 scaling, metres. */
  readonly radius: Float64Array;
  /** Radius at the start of the rod ending at the particle (same scaling; its branch's own radius there, 0 for the root). */
  readonly baseRadius: Float64Array;
  /** Leaves carried by each particle: every leaf goes to the nearest node of its branch (as the reference's loads do). */
  readonly leaves: Float64Array;
  /** Rest length L of the rod ending at the particle (0 for the root). */
  readonly length: Float64Array;
  /** Particle of every skeleton node (a branch's base node maps to the particle it grows from). */
  readonly particleOfNode: Int32Array;
  /** The §4.1 factor every radius was scaled by (1: the tree's own radii). */
  readonly radiusScale: number;
}

/**
 * Builds the particle system from a skeleton (§4.1). `minRadius`: the constant "minimum radius of
 * any branch", metres; every radius is scaled by minRadius / (smallest radius in the tree). null:
 * the tree's own radii (the physical tree the reference solver bends).
 */
export function buildParticleTree(s: TreeSkeleton, minRadius: number | null): ParticleTree {
  if (minRadius !== null && !(minRadius > 0)) throw new RangeError(`minimum branch radius must be above 0; got ${minRadius}`);
  const np = s.nodePosition;
  // §4.1: one particle per turtle move plus the root; a branch's base is the turtle's current particle.
  const { jointOfNode: particleOfNode, node, parent } = skeletonJoints(s, "particle");
  const isBase = new Uint8Array(s.nodeCount);
  for (let b = 0; b < s.branchCount; b++) isBase[s.branchFirstNode[b]] = 1;
  const count = node.length;
  const firstChild = new Int32Array(count).fill(-1);
  const sibling = new Int32Array(count).fill(-1);
  const dominant = new Int32Array(count).fill(-1);
  // §4.1: a new particle goes to the end of its parent's list of children.
  const lastChild = new Int32Array(count).fill(-1);
  for (let i = 1; i < count; i++) {
    const p = parent[i];
    if (lastChild[p] < 0) firstChild[p] = i;
    else sibling[lastChild[p]] = i;
    lastChild[p] = i;
    // Dominant: the child on the same axis (same skeleton branch, next node).
    const k = node[i], kp = node[p];
    if (s.nodeBranch[k] === s.nodeBranch[kp] && k === kp + 1) dominant[p] = i;
  }
  const rest = new Float64Array(3 * count);
  const radius = new Float64Array(count);
  const length = new Float64Array(count);
  let smallest = Infinity;
  for (let i = 0; i < count; i++) {
    const k = node[i];
    rest[3 * i] = np[3 * k];
    rest[3 * i + 1] = np[3 * k + 1];
    rest[3 * i + 2] = np[3 * k + 2];
    const r = s.nodeRadius[k];
    if (r > 0 && r < smallest) smallest = r;
  }
  for (let k = 0; k < s.nodeCount; k++) if (isBase[k] && s.nodeRadius[k] > 0 && s.nodeRadius[k] < smallest) smallest = s.nodeRadius[k];
  if (!Number.isFinite(smallest)) throw new Error("the tree has no radius above 0");
  const radiusScale = minRadius === null ? 1 : minRadius / smallest;
  const baseRadius = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const k = node[i];
    radius[i] = s.nodeRadius[k] * radiusScale;
    if (i > 0) {
      // The rod runs from the previous node of its branch (a branch's base node: its own radius there).
      baseRadius[i] = (k > 0 && s.nodeBranch[k - 1] === s.nodeBranch[k] ? s.nodeRadius[k - 1] : s.nodeRadius[k]) * radiusScale;
      const p = parent[i];
      length[i] = hypot(rest[3 * i] - rest[3 * p], rest[3 * i + 1] - rest[3 * p + 1], rest[3 * i + 2] - rest[3 * p + 2]);
      if (!(length[i] > 1e-9)) throw new Error(`particle ${i} (node ${node[i]}) sits on its parent: a rod of zero length`);
    }
  }
  const leaves = new Float64Array(count);
  for (let l = 0; l < s.leafCount; l++) {
    const b = s.leafBranch[l], x = s.leafX[l];
    const first = s.branchFirstNode[b], last = first + s.branchNodeCount[b] - 1;
    let k = first;
    while (k < last - 1 && s.nodeX[k + 1] < x) k++;
    const span = s.nodeX[k + 1] - s.nodeX[k];
    const f = span > 0 ? (x - s.nodeX[k]) / span : 0;
    leaves[particleOfNode[f < 0.5 ? k : min(k + 1, last)]]++;
  }
  return { count, node, parent, firstChild, sibling, dominant, rest, radius, baseRadius, leaves, length, particleOfNode, radiusScale };
}

/** Settings of the dynamics. */
export interface DynamicsSettings {
  /** 0..1, the shared damping slider: the damping ratio ζ = dampingRatio(damping) (physics/damping.ts). */
  damping: number;
  /** Scales every spring constant k_s. */
  stiffness: number;
  /** Multiple of g. */
  gravity: number;
  /**
   * Barron's own conventions: each rod driven by the force at its particle alone (the rod's whole
   * drag at its tip, the absolute wind), its spring k_s ∝ r² toward a rest direction fixed in the
   * world. Off (the default): calibrated, see ParticleDynamics.
   */
  paperLiteral?: boolean;
  /** The physical tree's material (wood density, Young's modulus); the default species when left out. */
  material?: PhysicalMaterial;
}

/**
 * The largest x = h ω_n for which one step of this file's update contracts the energy of a linear
 * damped rod with damping ratio ζ (the 2 × 2 step matrix's largest singular value in the energy
 * norm stays ≤ 1). Found by bisection; about 8 ζ for small ζ, up to 2 near ζ = 0.5.
 */
export function verletStepLimit(zeta: number): number {
  const ok = (x: number) => stepNorm(x, zeta) <= 1 + 1e-12;
  if (!ok(1e-4)) return 0;
  let lo = 1e-4, hi = 4;
  if (ok(hi)) return hi;
  for (let i = 0; i < 60; i++) {
    const mid = 0.5 * (lo + hi);
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Largest singular value of the step matrix (θ√k, ω) → (θ'√k, ω') with k = 1, h = x, c = 2ζ. */
export function stepNorm(x: number, zeta: number): number {
  const h = x, c = 2 * zeta;
  const col = (t0: number, w0: number): [number, number] => {
    const a0 = -t0 - c * w0;
    const t1 = t0 + h * w0 + 0.5 * h * h * a0;
    const w1 = (w0 + 0.5 * h * (a0 - t1)) / (1 + 0.5 * h * c);
    return [t1, w1];
  };
  const [a, c1] = col(1, 0);
  const [b, d] = col(0, 1);
  // σ_max of [[a, b], [c1, d]]: the larger eigenvalue of MᵀM = [[p, m], [m, r]], written without cancellation.
  const p = a * a + c1 * c1, r = b * b + d * d, m = a * b + c1 * d;
  return sqrt(0.5 * (p + r + sqrt((p - r) * (p - r) + 4 * m * m)));
}

/**
 * The state and update of §5.1 over a ParticleTree. Per particle: the rotation q (unit quaternion
 * w, x, y, z) that takes the rod's rest vector to its current one, the angular velocity ω, and the
 * current position C. Allocation free after construction.
 *
 * Calibrated (the default) keeps the paper's rods, each turned by its own torque (eqs. 2.1 to 2.5),
 * and departs from it where beam theory says otherwise, so that the same physical tree bends as the
 * reference solver's (app/physics/reference):
 * - Load. `windForce` holds the external load at each particle: the caller puts half of each rod's
 *   distributed drag at each of its end particles (centre of pressure at mid-rod) and the leaves'
 *   drag on the particle that carries them; half of each rod's weight goes to each end. A rod turns
 *   under the moment about its base of every load beyond it (its subtree: the bending moment at a
 *   section of a beam), summed from the tips inward in O(n); eq. 2.1's τ = R × F is the one-rod case.
 * - Joints. The joints of wood are rigid: a rod's rest direction turns with its parent. Each rod's
 *   state (q, ω) is its bend, measured in the frame its parent rod's end carries, where eq. 5.2
 *   carries the rest direction unturned (a rod's world direction is then its own turn alone, and a
 *   twig on a limb that bends, say a leafy twig of the sympodial tree's, has to turn by the limb's
 *   bend as its own: no spring toward a fixed world direction does that for every wind, and the
 *   sympodial tree's level 1 and 2 tips went 1.2 to 1.3 times the reference's). The world rotations
 *   follow from the bends from the root out (joints.ts); eqs. 5.2 and 5.3 place the particles.
 * - Spring. Eq. 2.6 on the bend, k_s = K / L², K the beam's stiffness to the load shape of a steady
 *   wind: its own piece of tapered beam under the moment along it, the rod's end turning κ times its
 *   chord (beam.ts, `calibratedRods`). In a steady wind the rods lie on the beam's deflected shape.
 * - Inertia. Every joint sways at the tree's own frequency ω_R, Rayleigh's quotient of that deflected
 *   shape: I = K / ω_R². The joints move independently (as the paper's rods do), so a tree released
 *   from a steady wind swings as a whole at ω_R, as the reference's first mode does; rods with their
 *   own inertia (eq. 2.3's M L² / 3, even with their subtree's) would each ring at a frequency of
 *   their own. Masses (gravity) from the material's wood density, ρ π L (r_a² + r_a r_b + r_b²) / 3.
 * - Gravity. The modelled shape is the tree already bent under its own weight (as the reference
 *   takes it): the springs carry the weight's moment at rest, and gravity acts on the change of
 *   lever only (a few per cent more deflection than the reference, which leaves gravity out).
 * - Damping. c = 2 ζ ω_R with ζ = dampingRatio(slider): the sway decays at the first mode's ζ; the
 *   air adds its own through the wind relative to the moving rods.
 * - Limits. The springs are exact for a steady wind's load shape; a gust on one twig alone turns it
 *   by the stiffness its joint offers to that shape, and each twig sways at the tree's frequency
 *   rather than its own.
 */
export class ParticleDynamics {
  /** Current positions C, xyz per particle. */
  readonly current: Float64Array;
  /** Rotation of each rod from rest, quaternion (w, x, y, z), world axes. */
  readonly rotation: Float64Array;
  /** Angular velocity ω of each rod's state, rad/s: paper-literal its world turn; calibrated its bend's, in its parent's end frame. */
  readonly omega: Float64Array;
  /** Calibrated: each rod's bend and the frames and spins that follow (joints.ts). */
  readonly joints: JointState;
  /** Velocity of each particle, m/s (from ω, after every step; for the wind relative to the moving wood). */
  readonly velocity: Float64Array;
  /** External force per particle for the next step (wind, set by the caller), N, xyz. */
  readonly windForce: Float64Array;
  /**
   * Calibrated: how fast each particle's wind force falls as it moves downwind, N s/m (set by the
   * caller with windForce). The air's damping of a light twig carrying leaves is far faster than a
   * step, so the rod's own share of it is taken implicitly (see step).
   */
  readonly windRate: Float64Array;
  /** Calibrated: the air's damping of each rod's turn this step, 1/s. */
  private readonly airDamping: Float64Array;
  /** Rod rest vectors d0 = I_i - I_parent. */
  private readonly d0: Float64Array;
  readonly mass: Float64Array;
  readonly springK: Float64Array;
  private readonly invInertia: Float64Array;
  /** c = 3 k_d / M: the damping term of α, 1/s. */
  private readonly dampC: Float64Array;
  /** Natural angular frequency ω_n of each rod (spring, and gravity's lever at its worst), rad/s. */
  readonly omegaN: Float64Array;
  /** Per-particle angular acceleration without damping at the current state. */
  private readonly alpha: Float64Array;
  private readonly substeps: Int32Array;
  /** Calibrated: torque of the loads beyond each rod about its base, this step, N m. */
  private readonly torque: Float64Array;
  /** Calibrated: gravity's torque at rest (the springs' preload), per unit g. */
  private readonly restGravity: Float64Array;
  /** Scratch of the inward sums: force and moment (about the particle) of each subtree. */
  private readonly fSub: Float64Array;
  private readonly mSub: Float64Array;
  private literal = false;
  /** Calibrated: the tree's sway frequency, Rayleigh's from its static deflection, Hz (0 paper-literal). */
  swayHz = 0;
  private zeta = 0;
  /** STEP_SAFETY × verletStepLimit(ζ): the largest h ω_n of one sub-step. */
  private xLimit = 0;
  private gravity = 0;
  private stepFor = -1;
  private maxSub = 1;
  private subCount = 0;

  constructor(readonly tree: ParticleTree, settings: DynamicsSettings) {
    const n = tree.count;
    this.current = Float64Array.from(tree.rest);
    this.rotation = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) this.rotation[4 * i] = 1;
    this.omega = new Float64Array(3 * n);
    const unit = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) unit[4 * i] = 1;
    this.joints = { parent: tree.parent, endRatio: new Float64Array(n), bend: Float64Array.from(unit), frame: unit, spin: new Float64Array(3 * n), spinEnd: new Float64Array(3 * n) };
    this.velocity = new Float64Array(3 * n);
    this.windForce = new Float64Array(3 * n);
    this.windRate = new Float64Array(n);
    this.airDamping = new Float64Array(n);
    this.d0 = new Float64Array(3 * n);
    for (let i = 1; i < n; i++) {
      const p = tree.parent[i];
      for (let c = 0; c < 3; c++) this.d0[3 * i + c] = tree.rest[3 * i + c] - tree.rest[3 * p + c];
    }
    this.mass = new Float64Array(n);
    this.springK = new Float64Array(n);
    this.invInertia = new Float64Array(n);
    this.dampC = new Float64Array(n);
    this.omegaN = new Float64Array(n);
    this.alpha = new Float64Array(3 * n);
    this.substeps = new Int32Array(n).fill(1);
    this.torque = new Float64Array(3 * n);
    this.restGravity = new Float64Array(3 * n);
    this.fSub = new Float64Array(3 * n);
    this.mSub = new Float64Array(3 * n);
    this.configure(settings);
  }

  /** Applies new settings; the motion carries on from the current state. */
  configure(settings: DynamicsSettings): void {
    const { damping, stiffness, gravity } = settings;
    if (!(damping >= 0 && damping <= 1)) throw new RangeError(`damping must be from 0 to 1; got ${damping}`);
    if (!(stiffness > 0)) throw new RangeError(`stiffness must be above 0; got ${stiffness}`);
    if (!(gravity >= 0)) throw new RangeError(`gravity must be 0 or more; got ${gravity}`);
    const t = this.tree, n = t.count;
    const material = settings.material ?? defaultMaterial();
    const rho = material.woodDensity;
    const wasLiteral = this.literal;
    this.literal = settings.paperLiteral === true;
    this.zeta = dampingRatio(damping);
    this.xLimit = this.literal ? STEP_SAFETY * verletStepLimit(this.zeta) : STABLE_STEP;
    this.gravity = gravity;
    this.swayHz = 0;
    if (this.literal) {
      for (let i = 1; i < n; i++) {
        const r = t.radius[i], L = t.length[i];
        const M = rho * PI * r * r * L;
        const ks = STIFFNESS_PER_AREA * (rho / WOOD_DENSITY) * stiffness * r * r;
        this.mass[i] = M;
        this.springK[i] = ks;
        this.invInertia[i] = 3 / (M * L * L); // eq. 2.3
        // Angular stiffness k_s L² over I, and gravity's lever M g L / 2 (stiffening a hanging rod,
        // softening an upright one): the bound takes the larger.
        const wn = sqrt((3 * ks) / M + (1.5 * G * gravity) / L);
        this.omegaN[i] = wn;
        // c = 2 ζ ω_n for the spring alone: k_d = 2 ζ ω_n M / 3.
        this.dampC[i] = 2 * this.zeta * sqrt((3 * ks) / M);
      }
      // From bends to the world turns the paper's rods keep.
      if (!wasLiteral) this.omega.set(this.joints.spin);
      this.stepFor = -1;
      return;
    }
    // Calibrated: masses, beam-theory springs condensed, the sway frequency (beam.ts).
    const j = this.joints;
    const w2 = calibratedRods(t, material, stiffness, gravity, { mass: this.mass, springK: this.springK, invInertia: this.invInertia, omegaN: this.omegaN, endRatio: j.endRatio });
    // The bends of the world turns the rods have (once from paper-literal), or the frames again for the new κ.
    if (wasLiteral) decomposeJoints(j, this.omega, this.rotation);
    else composeJoints(j, this.omega, this.rotation);
    this.propagate();
    this.swayHz = sqrt(w2) / (2 * PI);
    for (let i = 1; i < n; i++) this.dampC[i] = 2 * this.zeta * sqrt(w2);
    // The weight's moment at rest, per g: the springs' preload.
    this.loadTorques(t.rest, 0, G, this.restGravity);
    this.alpha.fill(0);
    this.windForce.fill(0);
    this.stepFor = -1;
  }

  /** Calibrated: subtreeTorques over this state's scratch (leaves in mSub each particle's moment of the loads beyond it). */
  private loadTorques(C: Float64Array, wind: number, g: number, out: Float64Array): void {
    subtreeTorques(this.tree, this.mass, C, this.windForce, wind, g, this.fSub, this.mSub, out);
  }

  /** The damping ratio in use. */
  get dampingRatio(): number {
    return this.zeta;
  }

  private readonly subInfo = { max: 1, particles: 0 };

  /** Most sub-steps any rod takes per step, and how many rods take more than one (for the stats; the same object each call). */
  get subStepping(): { readonly max: number; readonly particles: number } {
    this.subInfo.max = this.maxSub;
    this.subInfo.particles = this.subCount;
    return this.subInfo;
  }

  /** Sub-steps per rod for a step of h seconds: h ω_n under the limit (STEP_SAFETY × verletStepLimit(ζ), or STABLE_STEP). */
  private planSubsteps(h: number): void {
    if (h === this.stepFor) return;
    this.stepFor = h;
    const xLim = this.xLimit;
    let most = 1, many = 0;
    for (let i = 1; i < this.tree.count; i++) {
      const n = max(1, ceil((h * this.omegaN[i]) / xLim));
      this.substeps[i] = n;
      if (n > most) most = n;
      if (n > 1) many++;
    }
    this.maxSub = most;
    this.subCount = many;
  }

  /** Puts every rod back at rest, still. */
  reset(): void {
    const n = this.tree.count;
    this.current.set(this.tree.rest);
    for (let i = 0; i < n; i++) {
      this.rotation[4 * i] = 1;
      this.rotation[4 * i + 1] = this.rotation[4 * i + 2] = this.rotation[4 * i + 3] = 0;
    }
    this.omega.fill(0);
    this.velocity.fill(0);
    const j = this.joints;
    j.bend.set(this.rotation);
    j.frame.set(this.rotation);
    j.spin.fill(0);
    j.spinEnd.fill(0);
  }

  /**
   * One step of h seconds: every rod from the root outward, propagation (eqs. 5.2, 5.3) first,
   * then its own turn (eqs. 2.1 to 2.5) in its sub-steps. Uses `windForce` as F_W.
   */
  step(h: number): void {
    this.planSubsteps(h);
    if (!this.literal) {
      // The loads beyond each rod in its parent's end frame, less the weight the springs carry at rest.
      const tq = this.torque, rg = this.restGravity, g = this.gravity;
      this.loadTorques(this.current, 1, G * g, tq);
      toParentFrames(this.joints, tq);
      for (let k = 3; k < tq.length; k++) tq[k] -= g * rg[k];
      airDamping(this.tree, this.current, this.windRate, this.omega, this.invInertia, this.alpha, this.fSub, this.mSub, tq, this.airDamping);
    }
    const n0 = this.tree.count;
    const q = this.state, w = this.omega, al = this.alpha, dc = this.dampC;
    for (let i = 1; i < n0; i++) {
      const n = this.substeps[i], hh = h / n, c = dc[i] + this.airDamping[i], o = 3 * i;
      this.undampedAlpha(i); // the forces of this step's wind at the current angle
      for (let k = 0; k < n; k++) {
        // α0: the undamped α plus the damping on the current ω.
        const wx = w[o], wy = w[o + 1], wz = w[o + 2];
        const a0x = al[o] - c * wx, a0y = al[o + 1] - c * wy, a0z = al[o + 2] - c * wz;
        // Eq. 2.5: the rod turns by ω0 t + ½ α t², about that vector's axis.
        rotateQuat(q, 4 * i, wx * hh + 0.5 * a0x * hh * hh, wy * hh + 0.5 * a0y * hh * hh, wz * hh + 0.5 * a0z * hh * hh);
        // α1 (undamped) at the new angle.
        this.undampedAlpha(i);
        // Eq. 2.4 with the step's mean α, the damping at the mean of ω0 and ω1:
        // ω1 = ω0 + ½ h (α0 + α1 - c ω1).
        const inv = 1 / (1 + 0.5 * hh * c);
        w[o] = (wx + 0.5 * hh * (a0x + al[o])) * inv;
        w[o + 1] = (wy + 0.5 * hh * (a0y + al[o + 1])) * inv;
        w[o + 2] = (wz + 0.5 * hh * (a0z + al[o + 2])) * inv;
      }
      // Spin about the rod's own axis moves nothing; drop it from ω, and keep the rotation the
      // shortest one from rest to the rod's direction: small turns about changing axes would
      // otherwise leave the rod twisted about itself (by the solid angle its path encloses), and
      // the bark and leaves, which read this rotation, would creep round the branch.
      const bx = this.bx, by = this.by, bz = this.bz;
      const l2 = bx * bx + by * by + bz * bz;
      const sp = (w[o] * bx + w[o + 1] * by + w[o + 2] * bz) / l2;
      w[o] -= sp * bx;
      w[o + 1] -= sp * by;
      w[o + 2] -= sp * bz;
      const dx = this.d0[o], dy = this.d0[o + 1], dz = this.d0[o + 2];
      const cw = l2 + (dx * bx + dy * by + dz * bz); // |d0| |b| (1 + cos θ), |d0| = |b|
      if (cw > 1e-9 * l2) {
        const cx = dy * bz - dz * by, cy = dz * bx - dx * bz, cz = dx * by - dy * bx;
        const inv = 1 / sqrt(cw * cw + cx * cx + cy * cy + cz * cz);
        q[4 * i] = cw * inv;
        q[4 * i + 1] = cx * inv;
        q[4 * i + 2] = cy * inv;
        q[4 * i + 3] = cz * inv;
      }
    }
    if (!this.literal) composeJoints(this.joints, w, this.rotation);
    this.propagate();
  }

  /** The rotations the rods' own turns act on: paper-literal the world's, calibrated the bends. */
  private get state(): Float64Array {
    return this.literal ? this.rotation : this.joints.bend;
  }

  /**
   * Eqs. 5.2 and 5.3 from the root out: C_i = R_i + S_i, R_i = (C_p - I_p) + I_i, S_i = q_i d0_i - d0_i,
   * q_i the rod's world rotation (`rotation`); and the particles' velocities from the rods' world spins.
   */
  propagate(): void {
    const t = this.tree, par = t.parent, rest = t.rest, C = this.current, q = this.rotation, d0 = this.d0, V = this.velocity;
    const w = this.literal ? this.omega : this.joints.spin;
    for (let i = 1; i < t.count; i++) {
      const p = par[i], o = 3 * i;
      rotateVec(q, 4 * i, d0[o], d0[o + 1], d0[o + 2], this);
      const bx = this.bx, by = this.by, bz = this.bz;
      // R_i (eq. 5.2) + S_i (eq. 5.3), with S_i = b - d0 and I_i - I_p = d0: C_p + b.
      C[o] = C[3 * p] - rest[3 * p] + rest[o] + (bx - d0[o]);
      C[o + 1] = C[3 * p + 1] - rest[3 * p + 1] + rest[o + 1] + (by - d0[o + 1]);
      C[o + 2] = C[3 * p + 2] - rest[3 * p + 2] + rest[o + 2] + (bz - d0[o + 2]);
      // The particle's velocity: its parent's plus ω × b.
      V[o] = V[3 * p] + w[o + 1] * bz - w[o + 2] * by;
      V[o + 1] = V[3 * p + 1] + w[o + 2] * bx - w[o] * bz;
      V[o + 2] = V[3 * p + 2] + w[o] * by - w[o + 1] * bx;
    }
  }


  /** Scratch: the rod vector b = q d0 of the last rotateVec. */
  bx = 0;
  by = 0;
  bz = 0;

  /** α (no damping) of rod i at its current rotation into alpha[3i..]; leaves b in bx, by, bz. */
  private undampedAlpha(i: number): void {
    const o = 3 * i, d0 = this.d0;
    rotateVec(this.state, 4 * i, d0[o], d0[o + 1], d0[o + 2], this);
    const bx = this.bx, by = this.by, bz = this.bz;
    const ks = this.springK[i], M = this.mass[i];
    const ii = this.invInertia[i];
    if (!this.literal) {
      // Eq. 2.6 on the bend, S = b - d0 (parent frame), with the condensed k_s; the loads beyond the rod were summed at the start of the step.
      const fx = -ks * (bx - d0[o]), fy = -ks * (by - d0[o + 1]), fz = -ks * (bz - d0[o + 2]);
      const tq = this.torque;
      this.alpha[o] = (tq[o] + by * fz - bz * fy) * ii;
      this.alpha[o + 1] = (tq[o + 1] + bz * fx - bx * fz) * ii;
      this.alpha[o + 2] = (tq[o + 2] + bx * fy - by * fx) * ii;
      return;
    }
    // Eq. 5.1: F_T = F_G + F_W + F_S, F_S = -k_s S (the damping part is applied by the caller);
    // F_G at the rod's centre of mass, so half of it at the particle (see the header).
    const fx = this.windForce[o] - ks * (bx - d0[o]);
    const fy = this.windForce[o + 1] - 0.5 * M * G * this.gravity - ks * (by - d0[o + 1]);
    const fz = this.windForce[o + 2] - ks * (bz - d0[o + 2]);
    // Eq. 2.1: τ = R × F; eq. 2.2: α = τ / I.
    this.alpha[o] = (by * fz - bz * fy) * ii;
    this.alpha[o + 1] = (bz * fx - bx * fz) * ii;
    this.alpha[o + 2] = (bx * fy - by * fx) * ii;
  }

  /** Kinetic plus spring energy of every rod, J (gravity and wind excluded): ½ I |ω|² + ½ k_s |S|² (I the rod's, or its subtree's when calibrated). */
  energy(): number {
    let e = 0;
    const d0 = this.d0, q = this.state;
    for (let i = 1; i < this.tree.count; i++) {
      const o = 3 * i;
      rotateVec(q, 4 * i, d0[o], d0[o + 1], d0[o + 2], this);
      const sx = this.bx - d0[o], sy = this.by - d0[o + 1], sz = this.bz - d0[o + 2];
      const w2 = this.omega[o] ** 2 + this.omega[o + 1] ** 2 + this.omega[o + 2] ** 2;
      e += 0.5 * w2 / this.invInertia[i] + 0.5 * this.springK[i] * (sx * sx + sy * sy + sz * sz);
    }
    return e;
  }

  /** True when every position, rotation and velocity is finite. */
  isFinite(): boolean {
    for (let i = 0; i < this.current.length; i++) if (!Number.isFinite(this.current[i]) || !Number.isFinite(this.omega[i])) return false;
    return true;
  }
}
