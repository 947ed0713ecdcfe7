/**
 * Van Haevre et al. 2006, "Physically-based driven tree animations", §4.2: a mass-spring system
 * on the tree skeleton. Plain TypeScript over typed arrays, no Babylon.
 *
 * Masses. "The system consists of masses attached to the tree skeleton joints": one mass per
 * skeleton node, less the base node of every branch but the trunk, which is the same point as the
 * node it grows from (TreeSkeleton.branchOrigin) and merges with it, so the system is one
 * connected tree (as lsystem-particles does). Parents come before children. Mass 0 is an anchor
 * below the trunk base (mass 1), along the trunk's first segment; both are fixed: the anchor's
 * segment is the ground, the frame the trunk's base segment bends against.
 *
 * Two ways to size them (the `paperLiteral` setting):
 * - calibrated (default): the physical tree (app/physics/material.ts). Each mass is its own wood,
 *   half of each segment it ends, ρ π r² L at the segment's mean radius (ρ the material's
 *   woodDensity), lumped as the reference's beams are distributed; each angular spring is the
 *   bending stiffness of the wood it stands for (below); ζ of the first mode from the shared slider.
 * - paper-literal: "for each joint the weight attached to its mass should be larger than the sum
 *   of the weights of its descendants": m_i = w_i + (1 + ε) D_i (w_i the own wood at
 *   WOOD_DENSITY, D_i the descendants' masses), which grows at least twofold per joint down a
 *   chain (twelve orders of magnitude across the habel tree); stiffness k_bend = stiffness × m̃_i
 *   (2π f_bend)² with m̃_i = J_i / L_i² (J_i the moment of inertia about the joint of everything
 *   the segment carries), eq. 2 beside it, and Rayleigh damping at ω_r = 2π f_bend: the constants
 *   of this method before it was calibrated, kept for comparison.
 *
 * Springs, forces by eq. 3, F_i = (-k_s C - k_d Ċ) ∂C/∂x_i (Witkin and Baraff 2001), per segment
 * i (from mass i to its parent j, whose parent is k), x_ij = x_i - x_j, u_i = x_i - x_j:
 * - linear (eq. 1): C = |x_ij| - L, stiff, ζ_axial = AXIAL_DAMPING_RATIO. Calibrated: the wood's
 *   axial stiffness k = E π r_a r_b / L (∫ ds / E A over the linear taper; at least m_i (2π f_axial)²),
 *   as the angular springs are its E I (on its own mass alone, as paper-literal keeps, leafy twigs
 *   of the habel model stretched to 2-2.7 times their length in a 20 m/s gust).
 * - angular, in the parent's frame: eq. 2 "restricts the motion of a branch to a rest angle with
 *   respect to its parent branch"; written as a vector, C_v = u_i - R_j u_i⁰, with u_i⁰ the
 *   segment at rest and R_j the rotation of the parent segment's frame from rest. C_v = 0 at rest
 *   and for any rigid rotation of the tree with its ground (every frame turns with it), and is
 *   linear in the bend in both directions at every joint, straight ones included (where eq. 2's
 *   scalar C grows with the square of the bend). Frames: R_0 = I (the ground), and down the tree
 *   R_j = Rmin(R_k û_j⁰ → û_j) R_k, the parent's frame turned by the least rotation that lays it on
 *   segment j (a segment has no twist of its own). With the ground held, turning the tree about an
 *   axis across the trunk's base segment bends the base joint alone; a twist about the trunk's
 *   own axis is resisted at the branches' joints instead of in the trunk (no twist to carry it;
 *   on the demo tree as a torsion spring of ~3e5 N·m/rad, the order of the trunk's G J / L). In
 *   the forces R_k is the one computed at the start of the step (`updateFrames`) and the last
 *   turn, from û_j, is taken at the current positions, so the spring pushes back on the parent
 *   segment (k, j) with the bend's moment:
 *   ∂C_v/∂x_i = I, ∂C_v/∂x_j = M - I, ∂C_v/∂x_k = -M, M = [t]×[û_j]× / |u_j|, t = R_j u_i⁰.
 *   R_k itself turns with every segment below it: their swing about an axis along û_j (where the
 *   chain curves) twists R_j about û_j and turns t. The spring pulls back on those segments too,
 *   ∂E/∂δ_k = -(û_j · (t × s)) û_j carried down the tree (frames.ts), so the springs' forces are
 *   the gradient of their energy ½ k |C_v|² (to first order in the bends). Without it a curving
 *   chain's springs did work over a cycle: the sympodial tree's spiralling trunk swung free with
 *   ζ -0.007 where no damping was set, and 0.031 against the slider's 0.040.
 *   That pull is taken explicitly: at a zigzag (a segment kinked sharply off a parent kinked
 *   sharply off its own) it is a stiffness far beyond what an explicit step takes, so each spring's
 *   share of it (`twistShare`) is cut to what the step integrates stably (checks.ts twistShares).
 * - A node's radius for the bending stiffness is at least the largest further out on its branch
 *   (a model's node that measures 0 inside a branch would otherwise be a hinge).
 *   Energy ½ k |C_v|² ≈ ½ k L_i² θ², so k = K_i / L_i² for a rotational stiffness K_i (N·m/rad).
 * - eq. 2 itself, C = x_ij · x_kj - |x_ij| |x_kj| cos α, only with paperLiteral (its stiffness is
 *   inside C_v's).
 * - K_i from beam theory (calibrated): an Euler-Bernoulli beam of bending stiffness E I(s),
 *   I = π r⁴ / 4, bends by θ = ∫ M / EI ds; chains of rigid segments hinged at the masses bend like
 *   it when each hinge carries the flexibility of the wood on either side up to the segments'
 *   middles (the midpoint rule: rotation and end slope both right for a moment-carrying segment,
 *   where a hinge with its whole segment's EI / L at the segment's base bends the segment's own end
 *   twice as far). So K_i = 1 / (½ F_j + ½ F_i) where segment i continues segment j's branch,
 *   1 / (½ F_i) at a branch's base (the parent's half is the continuation's) and the trunk's base
 *   (the ground is rigid), F = ∫ ds / E I over the segment (closed form for the linear taper),
 *   times `stiffness` (1 by default).
 * - Damping (calibrated): Rayleigh, C = α M + β K, split so that the first mode (ω₁, found by
 *   inverse iteration, implicit.ts) gets the slider's ζ = dampingRatio(damping): α = ζ' ω₁ on every
 *   mass (air) and eq. 3's k_d = (ζ' / ω₁) k on the angular springs; ζ' is ζ less implicit Euler's
 *   own numerical damping of that mode at the step used (implicit.ts chooses substeps so that
 *   the latter stays below ζ). Slower motion of a mode above ω₁ is damped more: ζ(ω) =
 *   ζ' (ω₁ / ω + ω / ω₁) / 2.
 *
 * External forces: `external` (N per mass, xyz), set by the caller (wind drag, gravity) before
 * each step; wind-load.ts fills it from the shared drag law, `windDrag` and `addGravity` are
 * simple helpers for tests and captures.
 */
import { skeletonJoints, type TreeSkeleton } from "../../tree/skeleton";
import { cylinderDragFactor, WOOD_DENSITY } from "../../wind/drag";
import { defaultMaterial, type PhysicalMaterial } from "../../physics/material";
import { dampingRatio } from "../../physics/damping";
import { frameReactions, minimalRotation, mul3 } from "./frames";
import { instability, maxDisplacement, maxStrain, segmentLength, twistShares } from "./checks";

export { explicitEulerStep } from "./checks";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, hypot, max, PI } = Math;

/** The paper's mass rule, m_i = w_i + (1 + ε) D_i (paper-literal). */
export const MASS_EPSILON = 0.05;
/** Damping ratio of the linear springs. */
export const AXIAL_DAMPING_RATIO = 0.5;
/** Radii are at least this (metres), as the reference's (app/physics/reference/frame.ts). */
const MIN_RADIUS = 1e-4;

export interface MassSpringSettings {
  /** Frequency of a linear spring on its own mass, Hz (stiff: far above the step rate); calibrated, a floor under the wood's E A / L. */
  axialHz: number;
  /** Paper-literal: frequency of an angular spring on what its joint carries, Hz. */
  bendHz: number;
  /** Scales every angular spring constant. */
  stiffness: number;
  /** 0..1, the shared damping slider: ζ = dampingRatio(damping) of the first mode (paper-literal: at 2π bendHz). */
  damping: number;
  /** Van Haevre's mass rule and this method's constants from before calibration. */
  paperLiteral: boolean;
  /** The physical tree (default: the default species). */
  material?: PhysicalMaterial;
}

export const DEFAULT_MASS_SPRING: MassSpringSettings = { axialHz: 60, bendHz: 1.5, stiffness: 1, damping: 0.3, paperLiteral: false };

/** ∫ ds / (E π r⁴ / 4) over a segment of length L whose radius goes linearly from a to b. */
export function segmentFlexibility(E: number, a: number, b: number, L: number): number {
  a = max(a, MIN_RADIUS);
  b = max(b, MIN_RADIUS);
  // ∫₀¹ (a + (b - a) ξ)^-4 dξ = (a² + a b + b²) / (3 a³ b³)
  return (4 * L / (E * PI)) * (a * a + a * b + b * b) / (3 * a * a * a * b * b * b);
}

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
  /**
   * Per mass, this step: 2 k |u_rel| summed over the drag terms acting on it (kg/s), a bound on
   * -∂F_drag/∂v that the implicit step takes into its matrix: a thin, leafy twig whose air
   * damping is faster than one step (k |u| h / m > 2) stays stable.
   */
  readonly dragDamping: Float64Array;
  /** Mass, kg (calibrated: its own wood; paper-literal: the paper's rule). */
  readonly mass: Float64Array;
  /** Own wood mass, kg (what gravity acts on). */
  readonly woodMass: Float64Array;
  /** Radius at the mass, metres. */
  readonly radius: Float64Array;
  /** Radius of segment i at its parent's end and at mass i, metres (its own branch's). */
  readonly segmentRadiusA: Float64Array;
  readonly segmentRadiusB: Float64Array;
  /**
   * The radii the bending stiffness takes at segment i's two ends: each node's radius raised to
   * the largest further out on its branch (file comment), else segmentRadiusA/B.
   */
  readonly stiffRadiusA: Float64Array;
  readonly stiffRadiusB: Float64Array;
  /** 1 where segment i continues its parent segment's branch. */
  readonly continues: Uint8Array;
  /** Rest length L of segment i (mass i to its parent); 0 for the anchor. */
  readonly restLength: Float64Array;
  /** Paper-literal: m̃_i = J_i / L_i², what segment i's angular spring swings, kg. */
  readonly swingMass: Float64Array;
  /** α of the air damping -α m_i v_i on every free mass, 1/s. */
  airDamping = 0;
  /** Linear spring of segment i: k, k_d. */
  readonly linearK: Float64Array;
  readonly linearKd: Float64Array;
  /** Angular spring of segment i in its parent's frame: k (N/m) and k_d of C_v. */
  readonly bendK: Float64Array;
  readonly bendKd: Float64Array;
  /** Eq. 2 of segment i (paper-literal only, else 0): k₂, k_d₂ (per m² of |x_kj|²-scaled C), cos α. */
  readonly eq2K: Float64Array;
  readonly eq2Kd: Float64Array;
  readonly cosAlpha: Float64Array;
  /** Frame of every segment (mass p(i) to i), rotation from rest, row-major 3 × 3 (updateFrames). */
  readonly frame: Float64Array;
  /** Scratch of forces(): per segment, what the angular springs ask of its frame's turn (frames.ts). */
  private readonly frameTorque: Float64Array;
  /**
   * Share (0..1] of segment i's angular spring's pull through its grandparent segment's frame
   * that forces() applies (setDamping, for the step h): 1 where the step integrates that pull
   * stably, less at a zigzag (file comment).
   */
  readonly twistShare: Float64Array;
  /**
   * The ground's frame R_0, row-major (identity: the ground stands still). Turned with the whole
   * tree, it makes every frame turn with it: a rigid rotation of tree and ground about any axis.
   */
  readonly ground = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
  /** angularGeometry of every segment (t, M: 12 per mass) as the last forces() found it. */
  readonly angular: Float64Array;
  /**
   * ω₁ of the system's first mode, rad/s (calibrated damping needs it; implicit.ts finds it by
   * inverse iteration when `modeStale`).
   */
  firstOmega = 0;
  modeStale = true;
  /** The step h the damping terms were last set for (0: not yet). */
  dampedFor = 0;
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
      const L = segmentLength(this.rest, i, this.parent[i]);
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
    // Segment radii from the segment's own branch (a branch's base node merged into its parent's
    // node has the branch's radius, not the parent's), and which segments continue their parent's branch.
    this.segmentRadiusA = new Float64Array(n);
    this.segmentRadiusB = new Float64Array(n);
    this.continues = new Uint8Array(n);
    // A branch is no thinner anywhere than further out along it: the radius of every node is at
    // least the largest beyond it on its branch, for the bending stiffness.
    const stiffR = Float64Array.from(s.nodeRadius);
    for (let b = 0; b < s.branchCount; b++) {
      const first = s.branchFirstNode[b];
      for (let k = first + s.branchNodeCount[b] - 2; k >= first; k--) stiffR[k] = max(stiffR[k], stiffR[k + 1]);
    }
    this.stiffRadiusA = new Float64Array(n);
    this.stiffRadiusB = new Float64Array(n);
    for (let i = 2; i < n; i++) {
      const k = this.node[i], b = s.nodeBranch[k], firstOfBranch = k === s.branchFirstNode[b];
      this.segmentRadiusB[i] = s.nodeRadius[k];
      this.segmentRadiusA[i] = firstOfBranch ? s.nodeRadius[k] : s.nodeRadius[k - 1];
      this.stiffRadiusB[i] = stiffR[k];
      this.stiffRadiusA[i] = firstOfBranch ? stiffR[k] : stiffR[k - 1];
      const j = this.parent[i];
      this.continues[i] = j >= 2 && !firstOfBranch && s.nodeBranch[this.node[j]] === b && this.massOfNode[k - 1] === j && this.node[j] !== s.branchFirstNode[b] ? 1 : 0;
    }
    this.woodMass = new Float64Array(n);
    this.mass = new Float64Array(n);
    this.swingMass = new Float64Array(n);
    this.cosAlpha = new Float64Array(n);
    for (let i = 2; i < n; i++) {
      const j = this.parent[i], k = this.parent[j], r = this.rest;
      let dot = 0;
      for (let c = 0; c < 3; c++) dot += (r[3 * i + c] - r[3 * j + c]) * (r[3 * k + c] - r[3 * j + c]);
      this.cosAlpha[i] = dot / (this.restLength[i] * this.restLength[j]);
    }
    this.linearK = new Float64Array(n);
    this.linearKd = new Float64Array(n);
    this.bendK = new Float64Array(n);
    this.bendKd = new Float64Array(n);
    this.eq2K = new Float64Array(n);
    this.eq2Kd = new Float64Array(n);
    this.frame = new Float64Array(9 * n);
    this.frameTorque = new Float64Array(3 * n);
    this.twistShare = new Float64Array(n).fill(1);
    this.angular = new Float64Array(12 * n);
    this.position = new Float64Array(this.rest);
    this.velocity = new Float64Array(3 * n);
    this.external = new Float64Array(3 * n);
    this.dragDamping = new Float64Array(n);
    this.settingsNow = settings;
    this.updateFrames();
    this.configure(settings);
  }

  get settings(): MassSpringSettings {
    return this.settingsNow;
  }

  get material(): PhysicalMaterial {
    return this.settingsNow.material ?? defaultMaterial();
  }

  /** ζ the slider asks of the first mode (paper-literal: at ω_r = 2π f_bend). */
  get zeta(): number {
    return dampingRatio(this.settingsNow.damping);
  }

  /**
   * Sets masses and spring constants from the settings (the laws in the file comment). Damping
   * terms follow at the next step (setDamping, from the step's length and the first mode).
   */
  configure(settings: MassSpringSettings): void {
    if (!(settings.axialHz > 0 && settings.bendHz > 0 && settings.stiffness >= 0)) throw new RangeError("axialHz and bendHz must be above 0, stiffness at least 0");
    if (!(settings.damping >= 0 && settings.damping <= 1)) throw new RangeError(`damping must be in [0, 1]; got ${settings.damping}`);
    const before = this.settingsNow;
    this.settingsNow = { ...settings };
    const literal = settings.paperLiteral, mat = this.material, n = this.count;
    // Wood: half of each segment to each of its ends (the anchor's segment is not wood).
    const rho = literal ? WOOD_DENSITY : mat.woodDensity;
    this.woodMass.fill(0);
    for (let i = 2; i < n; i++) {
      const j = this.parent[i], r = literal ? 0.5 * (this.radius[i] + this.radius[j]) : 0.5 * (this.segmentRadiusA[i] + this.segmentRadiusB[i]);
      const w = rho * PI * r * r * this.restLength[i];
      this.woodMass[i] += 0.5 * w;
      this.woodMass[j] += 0.5 * w;
    }
    if (literal) this.paperMasses();
    else this.mass.set(this.woodMass);
    this.mass[0] = this.mass[1];
    const wa = 2 * PI * settings.axialHz, wb = 2 * PI * settings.bendHz;
    const E = mat.youngModulus;
    for (let i = 2; i < n; i++) {
      const m = this.mass[i], L = this.restLength[i], j = this.parent[i];
      // Paper-literal: on the own mass at f_axial; calibrated: the wood's E A / L (file comment).
      const kl = literal ? m * wa * wa : max(m * wa * wa, E * PI * max(this.stiffRadiusA[i], MIN_RADIUS) * max(this.stiffRadiusB[i], MIN_RADIUS) / L);
      this.linearK[i] = kl;
      this.linearKd[i] = 2 * AXIAL_DAMPING_RATIO * sqrt(kl * m);
      if (literal) {
        this.bendK[i] = settings.stiffness * this.swingMass[i] * wb * wb;
        this.eq2K[i] = this.bendK[i] / (this.restLength[j] * this.restLength[j]);
      } else {
        // K_i = 1 / (½ F_j + ½ F_i) (midpoint rule, file comment), k = K_i / L_i².
        let flex = 0.5 * segmentFlexibility(E, this.stiffRadiusA[i], this.stiffRadiusB[i], L);
        if (this.continues[i]) flex += 0.5 * segmentFlexibility(E, this.stiffRadiusA[j], this.stiffRadiusB[j], this.restLength[j]);
        this.bendK[i] = settings.stiffness / flex / (L * L);
        this.eq2K[i] = 0;
      }
    }
    const stiffnessSame = before.paperLiteral === settings.paperLiteral && before.stiffness === settings.stiffness
      && (!literal || before.bendHz === settings.bendHz) && before.axialHz === settings.axialHz
      && (literal || sameMaterial(before.material, settings.material));
    if (!stiffnessSame) this.modeStale = true;
    this.dampedFor = 0;
  }

  /** Paper-literal masses: m_i = w_i + (1 + ε) D_i, children before parents, and m̃_i = J_i / L_i². */
  private paperMasses(): void {
    const n = this.count, descendants = new Float64Array(n);
    for (let i = n - 1; i >= 1; i--) {
      this.mass[i] = this.woodMass[i] + (1 + MASS_EPSILON) * descendants[i];
      const j = this.parent[i];
      descendants[j] += this.mass[i] + descendants[i];
    }
    // Subtree moments S0 = Σ m, S1 = Σ m x, S2 = Σ m |x|², children before parents;
    // J_i about x_j is S2 - 2 x_j · S1 + S0 |x_j|².
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
  }

  /**
   * Damping terms for steps of h seconds (implicit.ts calls this). Calibrated: Rayleigh at the
   * first mode ω₁ with ζ' = ζ less `numerical` (implicit Euler's own damping of that mode at h);
   * paper-literal: at ω_r = 2π f_bend √stiffness, eq. 3's k_d = ζ √(k m̃) and air ζ ω_r.
   */
  setDamping(h: number, numerical: number): void {
    const st = this.settingsNow, n = this.count, zeta = this.zeta;
    if (st.paperLiteral) {
      const wr = 2 * PI * st.bendHz * sqrt(st.stiffness);
      this.airDamping = zeta * wr;
      for (let i = 2; i < n; i++) {
        this.bendKd[i] = zeta * sqrt(this.bendK[i] * this.swingMass[i]);
        this.eq2Kd[i] = this.bendKd[i] / (this.restLength[this.parent[i]] ** 2);
      }
    } else {
      const z = max(0, zeta - numerical), w1 = this.firstOmega;
      this.airDamping = z * w1;
      const beta = w1 > 0 ? z / w1 : 0;
      for (let i = 2; i < n; i++) {
        this.bendKd[i] = beta * this.bendK[i];
        this.eq2Kd[i] = 0;
      }
    }
    twistShares(this, h);
    this.dampedFor = h;
  }

  /**
   * Every segment's frame from the current positions, root to tips: R_0 = `ground` (I),
   * R_i = Rmin(R_p û_i⁰ → û_i) R_p (file comment). Called at the start of each step.
   */
  updateFrames(): void {
    const R = this.frame, x = this.position, r = this.rest, par = this.parent, n = this.count;
    R.set(this.ground);
    // parent[1] = 0: the anchor's segment (mass 0 to 1) turns from the ground's frame R_0.
    for (let i = 1; i < n; i++) {
      const p = par[i], o = 9 * p, q = 9 * i, L0 = this.restLength[i];
      const w0x = (r[3 * i] - r[3 * p]) / L0, w0y = (r[3 * i + 1] - r[3 * p + 1]) / L0, w0z = (r[3 * i + 2] - r[3 * p + 2]) / L0;
      // w = R_p û_i⁰
      const wx = R[o] * w0x + R[o + 1] * w0y + R[o + 2] * w0z;
      const wy = R[o + 3] * w0x + R[o + 4] * w0y + R[o + 5] * w0z;
      const wz = R[o + 6] * w0x + R[o + 7] * w0y + R[o + 8] * w0z;
      let ux = x[3 * i] - x[3 * p], uy = x[3 * i + 1] - x[3 * p + 1], uz = x[3 * i + 2] - x[3 * p + 2];
      const lu = sqrt(ux * ux + uy * uy + uz * uz);
      ux /= lu; uy /= lu; uz /= lu;
      minimalRotation(wx, wy, wz, ux, uy, uz, ROT);
      mul3(ROT, 0, R, o, R, q);
    }
  }

  /** Back to the rest pose, at rest; external forces cleared. */
  reset(): void {
    this.position.set(this.rest);
    this.velocity.fill(0);
    this.external.fill(0);
    this.updateFrames();
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
   * `external`, into f (3 per mass; zero on the fixed masses). `h`: the implicit step these forces
   * start (0: the state alone); the angular springs' pull on the frames below them is taken at its
   * end. `throughFrames` false leaves that pull out (what the implicit step's matrix linearises).
   */
  forces(f: Float64Array, h = 0, throughFrames = true): void {
    const x = this.position, v = this.velocity, n = this.count, air = this.airDamping, G = this.angular;
    f.set(this.external);
    // Air damping (Rayleigh's mass part): -α m_i v_i.
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
      // Eq. 2 (paper-literal): ∂C/∂x_i = x_kj - cos α |x_kj| x̂_ij, ∂C/∂x_k = x_ij - cos α |x_ij| x̂_kj.
      const k2 = this.eq2K[i];
      if (k2 > 0) {
        const ca = this.cosAlpha[i], kd2 = this.eq2Kd[i];
        const c2 = ax * bx + ay * by + az * bz - la * lb * ca;
        const gix = bx - ca * lb * ux, giy = by - ca * lb * uy, giz = bz - ca * lb * uz;
        const gkx = ax - ca * la * bx / lb, gky = ay - ca * la * by / lb, gkz = az - ca * la * bz / lb;
        const c2dot = gix * vax + giy * vay + giz * vaz + gkx * vbx + gky * vby + gkz * vbz;
        const s2 = -k2 * c2 - kd2 * c2dot;
        addTo(f, i, s2 * gix, s2 * giy, s2 * giz);
        addTo(f, k, s2 * gkx, s2 * gky, s2 * gkz);
        addTo(f, j, -s2 * (gix + gkx), -s2 * (giy + gky), -s2 * (giz + gkz));
      }
      // Angular spring in the parent's frame: C_v = u_i - t, Ċ_v = (v_i - v_j) + M (v_j - v_k),
      // s = k C_v + k_d Ċ_v, F_i = -s, F_k = Mᵀ s, F_j = s - Mᵀ s (file comment).
      const kb = this.bendK[i];
      if (kb > 0) {
        this.angularGeometry(i, G, 12 * i);
        const o = 12 * i;
        const kdb = this.bendKd[i];
        const dvx = -vbx, dvy = -vby, dvz = -vbz; // v_j - v_k
        const mvx = G[o + 3] * dvx + G[o + 4] * dvy + G[o + 5] * dvz, mvy = G[o + 6] * dvx + G[o + 7] * dvy + G[o + 8] * dvz, mvz = G[o + 9] * dvx + G[o + 10] * dvy + G[o + 11] * dvz;
        const sx = kb * (ax - G[o]) + kdb * (vax + mvx), sy = kb * (ay - G[o + 1]) + kdb * (vay + mvy), sz = kb * (az - G[o + 2]) + kdb * (vaz + mvz);
        // Mᵀ s
        const tx = G[o + 3] * sx + G[o + 6] * sy + G[o + 9] * sz, ty = G[o + 4] * sx + G[o + 7] * sy + G[o + 10] * sz, tz = G[o + 5] * sx + G[o + 8] * sy + G[o + 11] * sz;
        addTo(f, i, -sx, -sy, -sz);
        addTo(f, k, tx, ty, tz);
        addTo(f, j, sx - tx, sy - ty, sz - tz);
        // Through R_k's twist about û_j (frames.ts): ∂E/∂δ_k = -(û_j · (t × s')) û_j, û_j = -b / |b|,
        // s' = s + h k Ċ_v: the spring at the step's end, where the implicit step takes its pull.
        const t0 = G[o], t1 = G[o + 1], t2 = G[o + 2], hk = h * kb;
        const px = sx + hk * (vax + mvx), py = sy + hk * (vay + mvy), pz = sz + hk * (vaz + mvz);
        const tw = this.twistShare[i] * (bx * (t1 * pz - t2 * py) + by * (t2 * px - t0 * pz) + bz * (t0 * py - t1 * px)) / (lb * lb);
        const T = this.frameTorque;
        T[3 * k] -= tw * bx;
        T[3 * k + 1] -= tw * by;
        T[3 * k + 2] -= tw * bz;
      }
    }
    if (throughFrames) frameReactions(this.parent, x, 2, this.frameTorque, f);
    else this.frameTorque.fill(0);
    for (let i = 0; i < n; i++) if (this.fixed[i]) f[3 * i] = f[3 * i + 1] = f[3 * i + 2] = 0;
  }

  /**
   * The angular spring of segment i at the current positions into out[at..at+11]: the target
   * t = R_j u_i⁰ (R_j = Rmin(R_k û_j⁰ → û_j) R_k with R_k from updateFrames) and
   * M = [t]×[û_j]× / |u_j| = (û_j tᵀ - (t · û_j) I) / |u_j|, row-major.
   */
  angularGeometry(i: number, out: Float64Array, at = 0): void {
    const x = this.position, r = this.rest, R = this.frame, j = this.parent[i], k = this.parent[j], o = 9 * k;
    const L0 = this.restLength[j];
    const w0x = (r[3 * j] - r[3 * k]) / L0, w0y = (r[3 * j + 1] - r[3 * k + 1]) / L0, w0z = (r[3 * j + 2] - r[3 * k + 2]) / L0;
    const wx = R[o] * w0x + R[o + 1] * w0y + R[o + 2] * w0z;
    const wy = R[o + 3] * w0x + R[o + 4] * w0y + R[o + 5] * w0z;
    const wz = R[o + 6] * w0x + R[o + 7] * w0y + R[o + 8] * w0z;
    const ex = x[3 * j] - x[3 * k], ey = x[3 * j + 1] - x[3 * k + 1], ez = x[3 * j + 2] - x[3 * k + 2];
    const le = sqrt(ex * ex + ey * ey + ez * ez), hx = ex / le, hy = ey / le, hz = ez / le;
    // R_k u_i⁰, then turned by Rmin(w → û_j): v + c × v + c × (c × v) / (1 + d), c = w × û_j, d = w · û_j.
    const u0x = r[3 * i] - r[3 * j], u0y = r[3 * i + 1] - r[3 * j + 1], u0z = r[3 * i + 2] - r[3 * j + 2];
    const px = R[o] * u0x + R[o + 1] * u0y + R[o + 2] * u0z;
    const py = R[o + 3] * u0x + R[o + 4] * u0y + R[o + 5] * u0z;
    const pz = R[o + 6] * u0x + R[o + 7] * u0y + R[o + 8] * u0z;
    const cx = wy * hz - wz * hy, cy = wz * hx - wx * hz, cz = wx * hy - wy * hx, d = 1 / (1 + wx * hx + wy * hy + wz * hz);
    const qx = cy * pz - cz * py, qy = cz * px - cx * pz, qz = cx * py - cy * px;
    const tx = px + qx + d * (cy * qz - cz * qy), ty = py + qy + d * (cz * qx - cx * qz), tz = pz + qz + d * (cx * qy - cy * qx);
    const a = at;
    out[a] = tx; out[a + 1] = ty; out[a + 2] = tz;
    const s = 1 / le, td = (tx * hx + ty * hy + tz * hz) * s;
    out[a + 3] = hx * tx * s - td; out[a + 4] = hx * ty * s; out[a + 5] = hx * tz * s;
    out[a + 6] = hy * tx * s; out[a + 7] = hy * ty * s - td; out[a + 8] = hy * tz * s;
    out[a + 9] = hz * tx * s; out[a + 10] = hz * ty * s; out[a + 11] = hz * tz * s - td;
  }

  /** Relative change of every segment's length, max |(|x_ij| - L) / L| (checks.ts). */
  maxStrain(): number {
    return maxStrain(this);
  }

  /** Largest distance of a mass from its rest position, metres. */
  maxDisplacement(): number {
    return maxDisplacement(this);
  }

  /** Why the state cannot be a tree's motion, or null (checks.ts). */
  instability(): string | null {
    return instability(this);
  }

  isFinite(): boolean {
    for (let i = 0; i < this.position.length; i++) if (!Number.isFinite(this.position[i]) || !Number.isFinite(this.velocity[i])) return false;
    return true;
  }
}

/** Scratch of updateFrames. */
const ROT = new Float64Array(9);

function sameMaterial(a: PhysicalMaterial | undefined, b: PhysicalMaterial | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.woodDensity === b.woodDensity && a.youngModulus === b.youngModulus;
}

function addTo(f: Float64Array, i: number, x: number, y: number, z: number): void {
  f[3 * i] += x;
  f[3 * i + 1] += y;
  f[3 * i + 2] += z;
}
