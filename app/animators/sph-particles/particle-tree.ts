/**
 * Akagi and Kitajima, "A Study on the Animations of Swaying and Breaking Trees based on a
 * Particle-based Simulation": the particle tree of §2 (Fig. 1 a-c), built from a TreeSkeleton.
 * Plain TypeScript over typed arrays, no Babylon.
 *
 * (a) Central axis: bone particles along every branch's centre line at the spacing asked (0.1 m
 * in the paper), stations at equal arc length. A child branch's first station is the parent's
 * bone particle nearest to its base (one shared particle), so the central axis runs across the
 * joint. (b) Branch particles: a ring of n = max(3, round(2 π r / spacing)) particles on the
 * circle of the branch's radius around each bone particle, normal to the axis (n is the branch's,
 * from its root radius, so neighbouring rings pair up); leaf particles at the leaves' centres.
 * (c) Links: ring neighbours, ring to centre (spokes), ring to the neighbouring ring (the same
 * place, and one place on: a diagonal that resists twist and shear), centre to centre along the
 * axis, leaves to the nearest bone particle of their branch (a petiole).
 *
 * Stiffness from the physical tree (material.ts), k = E A / L along the grain. Split so that a
 * segment's axial stiffness is E A and its bending stiffness E I (I = π r⁴ / 4): the ring's
 * longitudinal links together carry A / 4 at radius r (their bending stiffness Σ E a y² =
 * E (A/4) r² / 2 = E I / 2), the central link the other 3 A / 4, and eq. 6's restoring term the
 * other half of E I (G_b = E I / (2 L³): a tip displaced δ = L θ pulls back G_b δ, a moment
 * G_b L² θ = (E I / 2) θ / L). A link's strain is then the strain of the wood there: bending
 * stretches the ring's windward links by the outer fibre's strain M r / (E I), so the breaking
 * limits of eqs. 9-10 are the wood's own: by default the modulus of rupture of the species' green
 * wood over its E (oak 57 MPa / 8.6 GPa = 0.66 %, Wood Handbook Table 5-3a; material.ts), the same
 * at every level. At a joint (no ring links) eq. 6 carries all of E I (at a branch's base, more:
 * rootCell), and a station's term takes the I of the tapered beam around it (cellInertia), not one
 * radius's. Diagonals take the shear modulus (E / 16 for wood), the ring and the spokes
 * (the cross-section's shape) the transverse modulus (E / 20).
 *
 * Eq. 5's quaternion Q_j turns the parent's axis V_j into the child's V_i at rest. Applied as a
 * fixed rotation in world space it would pull a rigidly turned tree back (the test that a rigid
 * rotation costs nothing fails), so it is carried by the parent station's frame: the rest child
 * axis is written in coordinates of three vectors that turn with the parent station, its axis
 * V_j and two of its ring particles' offsets, target = α V_j + β u₀ + γ u₁. The target is then
 * linear in the positions, its energy ½ G_b |target - V_i|² is invariant under rigid motions, and
 * its reactions on the parent station conserve momentum and angular momentum.
 *
 * DEPARTURE (torsion). The paper's links give a branch next to no torsional stiffness where the
 * bone spacing is much longer than the radius: a diagonal between neighbouring rings runs nearly
 * along the axis, and turning one ring against the next by φ stretches it by about 1.5 r² φ / L,
 * so the diagonals hold (r / L)² of G J / L (3 % for a 4 cm limb at 0.25 m), and at a joint the
 * child's first ring has no neighbouring ring at all. On the demo tree the wind's drag on the side
 * shoots turned each limb 30-40° about itself at 5 m/s (and 7° along it at 10 m/s with the joints
 * held), and its shoots' tips swung off 0.2-0.3 m, 60 to 300 times the beam frame's bend. Each
 * ring particle (past the root station) gets an eq. 6 term of its own: its offset from its bone
 * held in the previous station's frame, G_t = G J / (n L r²) (G = E / 16, J = π r⁴ / 2): the
 * link's torsional stiffness G J / L; that term also resists the ring's tilt, so eq. 6's term on
 * the bone carries E I / (16 L) less (TORSION_BENDING).
 *
 * DEPARTURE (leaves). Table 2 gives a leaf only eq. 4's spring to its branch; on a spring alone a
 * leaf swings freely about its petiole and hangs straight down. Each leaf also has an eq. 6 term
 * in its bone's station frame, stiff enough for a sway of `leafFrequency` (3 Hz), so it keeps
 * its rest direction; the petiole is stiff along itself (20 Hz) and tears at `leafHold` newtons
 * times the leaf's own `leafHoldFactor`.
 *
 * Masses: the wood's volume (π r² times the station's share of the centre line) times the wood
 * density, shared equally by the bone particle and its ring; a leaf LEAF_AREAL_MASS per m².
 * Only `broken` changes after construction (breaking.ts).
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import { defaultMaterial, ruptureStrainOf, type PhysicalMaterial } from "../../physics/material";

const { max, min, round, PI, abs, hypot } = Math;

/** Particle types (Table 2). */
export const BONE = 0, BRANCH = 1, LEAF = 2;
/** Link kinds. */
export const AXIS = 0, RING_AXIAL = 1, DIAGONAL = 2, RING = 3, SPOKE = 4, PETIOLE = 5;

/** Fresh leaves' mass per area, kg/m² (typical of broadleaf trees: 0.1 to 0.2). */
export const LEAF_AREAL_MASS = 0.12;
/** Thickness standing for a leaf's volume in the air's sums, m. */
export const LEAF_THICKNESS = 3e-4;
/** Spacing range, metres. */
export const MIN_SPACING = 0.02, MAX_SPACING = 2;
/**
 * Eq. 8's G_s over the ring's axial link stiffness E A / (4 n L). At 1 a 1 m cantilever of 2 cm
 * bends 7 % further than beam theory (PL³ / 3EI; 17 % without eq. 8); at 10 the Jacobian's
 * lagged normal no longer holds and the step goes soft.
 */
export const SHEAR_STIFFNESS = 1;
/**
 * The cross-section's links (ring and spokes) hold its shape and do not break: wood fails along the
 * grain (the axial, ring-axial and diagonal links), and on a twig of a few millimetres the ring
 * takes the reactions of eq. 6's terms of its leaves amplified by (leaf distance / radius), which
 * tore twigs' rings at 20 m/s when they had the wood's limits.
 */
const SHAPE_LIMIT = Infinity;
/**
 * The share of a station's bending stiffness E I / L its torsion terms carry: a term
 * G_t = G J / (n L r²) (G = E / 16, J = π r⁴ / 2) on each of the n ring particles resists a tilt of
 * the ring by θ with n G_t r² θ / 2 = E I θ / (16 L); eq. 6's term on the bone carries that much less.
 */
const TORSION_BENDING = 1 / 16;
/** Most particles in one eq. 6 term (i, o, j, k and two of j's ring). */
export const TERM_SIZE = 6;
/** Most ring particles around one bone particle. */
export const MAX_RING = 24;

export interface ParticleTreeSettings {
  /** Distance between bone particles along a branch, m (default 0.1, the paper's). */
  spacing: number;
  /** The physical tree (E, wood density, drag, air). */
  material: PhysicalMaterial;
  /** Wood's rupture strain: eq. 10's e = 1 + ε, c = 1 - ε (default the material's modulus of rupture over its E). */
  ruptureStrain: number;
  /** Per-level scaling of the limits: level l's ε is ruptureStrain × levelScale^l. */
  levelScale: number;
  /** Median pull that tears a leaf off its twig, N (the petiole's eq. 10 limit; simulation.ts sets the default). */
  leafHold: number;
  /** Each skeleton leaf's hold over the median (null: 1 each): leaves differ (simulation.ts draws them). */
  leafHoldFactor: ArrayLike<number> | null;
  /** A leaf's sway frequency about its petiole, Hz (eq. 6's stiffness for leaves). */
  leafFrequency: number;
  /**
   * How many leaves each skeleton leaf stands for (null: one each). A provider that groups a big
   * crown's leaves into fewer particles gives each group its leaf count: the group's drag and the
   * pull that tears it scale with it (its mass already does, through its size).
   */
  leafWeight: ArrayLike<number> | null;
}

export function defaultTreeSettings(): ParticleTreeSettings {
  const material = defaultMaterial();
  return { spacing: 0.1, material, ruptureStrain: ruptureStrainOf(material), levelScale: 1, leafHold: 3, leafHoldFactor: null, leafFrequency: 3, leafWeight: null };
}

export interface ParticleTree {
  readonly count: number;
  readonly spacing: number;
  /** Rest positions, xyz. */
  readonly restPosition: Float64Array;
  /** BONE, BRANCH or LEAF. */
  readonly type: Uint8Array;
  readonly mass: Float64Array;
  /** 1 for the trunk's root station and the anchor below it: held in place. */
  readonly pinned: Uint8Array;
  /** Branch of the particle (-1: the anchor) and its level. */
  readonly branch: Int32Array;
  readonly level: Uint8Array;
  /** Branch radius at the particle's station (a leaf: its edge length), m. */
  readonly radius: Float64Array;
  /** Solid volume: wood, or a leaf's area times LEAF_THICKNESS, m³. */
  readonly solidVolume: Float64Array;
  /** Bone particle: the bone before it on the central axis (-1: none). Others: their station's bone. */
  readonly prevBone: Int32Array;
  /** Bone particle: first ring particle and ring size (0 for the anchor). */
  readonly ringStart: Int32Array;
  readonly ringCount: Int32Array;
  /** Bone particles: the length of central axis the particle stands for, m (drag per station). */
  readonly axisLength: Float64Array;
  /** Leaves each skeleton leaf stands for (ParticleTreeSettings.leafWeight; 1 each by default). */
  readonly leafWeight: Float64Array;
  /** Leaf particle of every skeleton leaf, and its petiole link. */
  readonly leafParticle: Int32Array;
  readonly leafLink: Int32Array;
  /** The pinned particle one spacing below the root: the trunk's rest direction (eq. 6). */
  readonly anchor: number;

  readonly linkCount: number;
  readonly linkA: Int32Array;
  readonly linkB: Int32Array;
  readonly linkKind: Uint8Array;
  readonly restLength: Float64Array;
  /** Spring constant k of eq. 4, N/m. */
  readonly stiffness: Float64Array;
  /** Eq. 10's e and c. */
  readonly stretchLimit: Float64Array;
  readonly compressLimit: Float64Array;
  /** RING_AXIAL and DIAGONAL: the AXIS link they surround (-1 otherwise). */
  readonly aroundOf: Int32Array;
  /** AXIS links: how many links surround them (0 at a joint). */
  readonly aroundCount: Int32Array;
  /** Erased links (eq. 10). The one mutable part. */
  readonly broken: Uint8Array;

  /**
   * Eq. 6 restoring terms, each C = target - (x_i - x_o) = Σ w_q x_q over up to TERM_SIZE particles
   * (target = α (x_j - x_k) + β (x_r0 - x_j) + γ (x_r1 - x_j), the frame of station j; o = j for a
   * bone's or a leaf's direction, o the ring's own bone for a joint's torsion term), 0 at rest:
   * force -G w_q C on each. Particles -1 (and weight 0) past a term's last.
   */
  readonly termCount: number;
  readonly termParticle: Int32Array;
  readonly termWeight: Float64Array;
  readonly termG: Float64Array;
  /** The link the term bends about (AXIS or PETIOLE) and the parent's axis link (-1: the anchor's). */
  readonly termLink: Int32Array;
  readonly termParentLink: Int32Array;
  /** Joint terms (no ring around): the outer fibre's strain per metre of eq. 6's offset |C| (eq. 10's check), else 0. */
  readonly termBendStrain: Float64Array;

  /** Eq. 8 shear terms: ring particle, its bone, its spoke link and the axis link whose direction is the normal. */
  readonly shearCount: number;
  readonly shearRing: Int32Array;
  readonly shearBone: Int32Array;
  readonly shearSpoke: Int32Array;
  readonly shearAxis: Int32Array;
  readonly shearG: Float64Array;
  /** n · (x_j - x_i) at rest (not 0 where the branch curves: the ring is normal to the centre line, not to the chord). */
  readonly shearRest: Float64Array;
}

/**
 * The bending stiffness of a branch's base node over an inner station's E I / L, for a branch of
 * n links. The links are rigid between stations and bend at them: an inner station stands for the
 * beam from half a link before it to half a link after, but the base only for the half link after
 * (a half cell: twice the stiffness, 2 E I / L), and a chain of n links with 2 E I / L at its base
 * still bends (2 n² + 1) / (2 n²) times as far as the beam under a tip load: 1.5 times for one link.
 * 6 n / (3 n - 1) (3 for one link, 2.4 for two, toward 2) makes the tip load's deflection the
 * beam's, PL³ / 3EI, for any n, and a uniform load's within (n² + 1/3) / n² (one link 1.33, two
 * 1.08, four 1.02). With E I / L at every node as before, a branch of four links bent 1.4 times as
 * far as the beam and one of a single link 3 times (the demo tree's twigs at 0.25 m spacing).
 */
export function rootCell(n: number): number {
  return (6 * n) / (3 * n - 1);
}

/**
 * The second moment of area a station's bending spring stands for: the tapered beam from arc a0 to
 * a1 in series, each piece weighted by the square of the moment a load at the branch's end (arc
 * `end`) puts on it, ∫ w dx / ∫ (w / I(x)) dx with w = (end - x)², I = π r⁴ / 4 (Simpson's rule over
 * eight intervals). A station's I taken at one radius (the link's
 * mean radius, or at a joint the child's first station, a whole link out) bent a coarse tapered
 * branch much further than a fine one: the Habel tree's level-2 branches at 0.58 m 1.7 times as far
 * as at 0.15 m (now within about 5 %); a branch tapering 2:1 under a tip load 2.02 times the tapered
 * beam in two links (now 1.28) and 1.39 times in four (now 1.17).
 */
export function cellInertia(at: (arc: number) => { r: number }, a0: number, a1: number, end: number): number {
  if (!(a1 > a0)) return (PI * max(at(a0).r, 1e-4) ** 4) / 4;
  let sum = 0, wsum = 0;
  for (let q = 0; q <= 8; q++) {
    const x = a0 + ((a1 - a0) * q) / 8, w = (q === 0 || q === 8 ? 1 : q % 2 ? 4 : 2) * ((end - x) ** 2 + 1e-12);
    sum += w / max(at(x).r, 1e-4) ** 4;
    wsum += w;
  }
  return (PI / 4) * (wsum / sum);
}

/** Ring size for a radius at a spacing: 2 π r / spacing, at least 3. */
export function ringSize(radius: number, spacing: number): number {
  return min(MAX_RING, max(3, round((2 * PI * radius) / spacing)));
}

function checkSpacing(spacing: number): void {
  if (!(spacing >= MIN_SPACING && spacing <= MAX_SPACING)) throw new RangeError(`particle spacing must be from ${MIN_SPACING} to ${MAX_SPACING} m; got ${spacing}`);
}

function stationsOf(s: TreeSkeleton, b: number, spacing: number): number {
  return max(1, round(s.branchLength[b] / spacing));
}

/** Particles the tree would have at a spacing (bone, ring, leaf and the anchor). */
export function particleCount(s: TreeSkeleton, spacing: number): number {
  checkSpacing(spacing);
  let n = 1 + s.leafCount;
  for (let b = 0; b < s.branchCount; b++) n += (stationsOf(s, b, spacing) + (b === 0 ? 1 : 0)) * (1 + ringSize(s.branchRootRadius[b], spacing));
  return n;
}

/** The finest spacing from `preferred` up (in steps of 15 %) whose tree has at most `budget` particles. */
export function spacingForBudget(s: TreeSkeleton, budget: number, preferred = 0.1): number {
  if (!(budget >= 10)) throw new RangeError(`particle budget must be at least 10; got ${budget}`);
  let sp = preferred;
  checkSpacing(sp);
  while (sp < MAX_SPACING && particleCount(s, sp) > budget) sp = min(MAX_SPACING, sp * 1.15);
  return sp;
}

/** Grows typed arrays as particles and links are added. */
class Growing {
  data: number[] = [];
  push(...v: number[]): void {
    for (const x of v) this.data.push(x);
  }
}

export function buildParticleTree(s: TreeSkeleton, settings: Partial<ParticleTreeSettings> = {}): ParticleTree {
  const set = { ...defaultTreeSettings(), ...settings };
  const sp = set.spacing;
  checkSpacing(sp);
  if (!(set.ruptureStrain > 0 && set.ruptureStrain < 0.5)) throw new RangeError(`ruptureStrain must be in (0, 0.5); got ${set.ruptureStrain}`);
  if (!(set.levelScale >= 0.1 && set.levelScale <= 10)) throw new RangeError(`levelScale must be from 0.1 to 10; got ${set.levelScale}`);
  if (!(set.leafHold > 0)) throw new RangeError(`leafHold must be > 0 N; got ${set.leafHold}`);
  if (!(set.leafFrequency > 0)) throw new RangeError(`leafFrequency must be > 0 Hz; got ${set.leafFrequency}`);
  const E = set.material.youngModulus, rho = set.material.woodDensity;
  const pos = new Growing(), type: number[] = [], mass: number[] = [], pinned: number[] = [], branchOf: number[] = [], levelOf: number[] = [];
  const radius: number[] = [], solid: number[] = [], prevBone: number[] = [], ringStart: number[] = [], ringCount: number[] = [], axisLength: number[] = [];
  const lA: number[] = [], lB: number[] = [], lKind: number[] = [], lRest: number[] = [], lK: number[] = [], lE: number[] = [], lC: number[] = [], lAround: number[] = [];
  const tP: number[] = [], tW: number[] = [], tG: number[] = [], tLink: number[] = [], tParent: number[] = [], tBend: number[] = [];
  const sh: number[][] = [[], [], [], [], []];
  const addParticle = (x: number, y: number, z: number, ty: number, m: number, b: number, r: number, v: number): number => {
    pos.push(x, y, z);
    type.push(ty); mass.push(m); pinned.push(0); branchOf.push(b); levelOf.push(b >= 0 ? s.branchLevel[b] : 0);
    radius.push(r); solid.push(v); prevBone.push(-1); ringStart.push(-1); ringCount.push(0); axisLength.push(0);
    return type.length - 1;
  };
  const P = () => pos.data;
  const dist = (a: number, b: number) => hypot(P()[3 * a] - P()[3 * b], P()[3 * a + 1] - P()[3 * b + 1], P()[3 * a + 2] - P()[3 * b + 2]);
  const addLink = (a: number, b: number, kind: number, area: number, modulus: number, eps: number): number => {
    const L = max(dist(a, b), 1e-4);
    lA.push(a); lB.push(b); lKind.push(kind); lRest.push(L); lK.push((modulus * area) / L);
    lE.push(1 + eps); lC.push(eps === Infinity ? 0 : max(0.05, 1 - eps)); lAround.push(-1);
    return lA.length - 1;
  };
  const epsOf = (b: number) => set.ruptureStrain * set.levelScale ** s.branchLevel[b];
  const axisLinkOf = new Map<number, number>(); // bone -> its incoming AXIS link
  // Eq. 6's term on particle i in station j's frame (origin o: x_i - x_o is held; o = j but for torsion).
  const addTerm = (i: number, j: number, G: number, link: number, bendStrain: number, o = j): void => {
    const k = prevBone[j], r0 = ringStart[j], r1 = ringStart[j] + 1;
    const p = P();
    const V = [p[3 * j] - p[3 * k], p[3 * j + 1] - p[3 * k + 1], p[3 * j + 2] - p[3 * k + 2]];
    const u0 = [p[3 * r0] - p[3 * j], p[3 * r0 + 1] - p[3 * j + 1], p[3 * r0 + 2] - p[3 * j + 2]];
    const u1 = [p[3 * r1] - p[3 * j], p[3 * r1 + 1] - p[3 * j + 1], p[3 * r1 + 2] - p[3 * j + 2]];
    const w = [p[3 * i] - p[3 * o], p[3 * i + 1] - p[3 * o + 1], p[3 * i + 2] - p[3 * o + 2]];
    const [al, be, ga] = solve3(V, u0, u1, w);
    // C = α (x_j - x_k) + β (x_r0 - x_j) + γ (x_r1 - x_j) - x_i + x_o, a particle named twice taking the sum.
    const q = [i, o, j, k, r0, r1], wt = [-1, 1, al - be - ga, -al, be, ga];
    const slot: number[] = [], weight: number[] = [];
    q.forEach((particle, e) => {
      const at = slot.indexOf(particle);
      if (at >= 0) weight[at] += wt[e];
      else { slot.push(particle); weight.push(wt[e]); }
    });
    for (let e = 0; e < TERM_SIZE; e++) {
      tP.push(e < slot.length ? slot[e] : -1);
      tW.push(e < slot.length ? weight[e] : 0);
    }
    tG.push(G); tLink.push(link); tParent.push(axisLinkOf.get(j) ?? -1);
    tBend.push(bendStrain);
  };
  const bonesOf: number[][] = [];
  const aroundCountOf = new Map<number, number>();

  for (let b = 0; b < s.branchCount; b++) {
    const first = s.branchFirstNode[b], nn = s.branchNodeCount[b];
    const cum = [0];
    for (let k = 1; k < nn; k++) {
      const a = 3 * (first + k - 1), c = 3 * (first + k);
      cum.push(cum[k - 1] + hypot(s.nodePosition[c] - s.nodePosition[a], s.nodePosition[c + 1] - s.nodePosition[a + 1], s.nodePosition[c + 2] - s.nodePosition[a + 2]));
    }
    const len = cum[nn - 1], nSeg = stationsOf(s, b, sp), seg = len / nSeg;
    const nRing = ringSize(s.branchRootRadius[b], sp);
    const at = (arc: number) => {
      let k = 1;
      while (k < nn - 1 && cum[k] < arc) k++;
      const f = cum[k] > cum[k - 1] ? min(1, max(0, (arc - cum[k - 1]) / (cum[k] - cum[k - 1]))) : 0;
      const a = 3 * (first + k - 1), c = 3 * (first + k);
      const np = s.nodePosition;
      const tx = np[c] - np[a], ty = np[c + 1] - np[a + 1], tz = np[c + 2] - np[a + 2], tl = hypot(tx, ty, tz) || 1;
      return {
        p: [np[a] + f * (np[c] - np[a]), np[a + 1] + f * (np[c + 1] - np[a + 1]), np[a + 2] + f * (np[c + 2] - np[a + 2])],
        r: s.nodeRadius[first + k - 1] + f * (s.nodeRadius[first + k] - s.nodeRadius[first + k - 1]),
        t: [tx / tl, ty / tl, tz / tl],
      };
    };
    const bones: number[] = [];
    let ref = [s.branchFrame[9 * b + 3], s.branchFrame[9 * b + 4], s.branchFrame[9 * b + 5]];
    let prevRing = -1;
    if (b > 0) {
      // The parent's bone particle nearest to the branch's base: the joint's shared particle.
      const base = [s.nodePosition[3 * first], s.nodePosition[3 * first + 1], s.nodePosition[3 * first + 2]];
      let best = -1, bestD = Infinity;
      for (const q of bonesOf[s.branchParent[b]]) {
        const d = hypot(P()[3 * q] - base[0], P()[3 * q + 1] - base[1], P()[3 * q + 2] - base[2]);
        if (d < bestD) { bestD = d; best = q; }
      }
      bones.push(best);
    }
    for (let k = b === 0 ? 0 : 1; k <= nSeg; k++) {
      const st = at(k * seg);
      const r = max(st.r, 1e-4);
      const share = k === 0 || k === nSeg ? 0.5 * seg : seg;
      const volume = PI * r * r * share, m = (rho * volume) / (nRing + 1);
      const bone = addParticle(st.p[0], st.p[1], st.p[2], BONE, m, b, r, volume / (nRing + 1));
      axisLength[bone] = share;
      // Ring frame: the reference carried along (projected normal to the axis), and t × ref.
      let rx = ref[0] - st.t[0] * dot3(ref, st.t), ry = ref[1] - st.t[1] * dot3(ref, st.t), rz = ref[2] - st.t[2] * dot3(ref, st.t);
      let rl = hypot(rx, ry, rz);
      if (rl < 1e-6) {
        const h = abs(st.t[0]) < 0.9 ? [1, 0, 0] : [0, 0, 1];
        rx = h[0] - st.t[0] * dot3(h, st.t); ry = h[1] - st.t[1] * dot3(h, st.t); rz = h[2] - st.t[2] * dot3(h, st.t);
        rl = hypot(rx, ry, rz);
      }
      rx /= rl; ry /= rl; rz /= rl;
      ref = [rx, ry, rz];
      const qx = st.t[1] * rz - st.t[2] * ry, qy = st.t[2] * rx - st.t[0] * rz, qz = st.t[0] * ry - st.t[1] * rx;
      ringStart[bone] = type.length;
      ringCount[bone] = nRing;
      for (let a = 0; a < nRing; a++) {
        const th = (2 * PI * a) / nRing, c = r * Math.cos(th), sn = r * Math.sin(th);
        addParticle(st.p[0] + c * rx + sn * qx, st.p[1] + c * ry + sn * qy, st.p[2] + c * rz + sn * qz, BRANCH, m, b, r, volume / (nRing + 1));
        prevBone[type.length - 1] = bone;
      }
      const eps = epsOf(b), A = PI * r * r, chord = 2 * r * Math.sin(PI / nRing);
      const ET = E / 20, G = E / 16;
      const rs = ringStart[bone];
      for (let a = 0; a < nRing; a++) {
        addLink(rs + a, rs + ((a + 1) % nRing), RING, share * 0.5 * r, ET, SHAPE_LIMIT);
        const spoke = addLink(rs + a, bone, SPOKE, share * chord, ET, SHAPE_LIMIT);
        if (k > 0) {
          sh[0].push(rs + a); sh[1].push(bone); sh[2].push(spoke); sh[3].push(-1);
          sh[4].push((SHEAR_STIFFNESS * E * A) / (4 * nRing * seg));
        }
      }
      if (k === 0) {
        // The root station and the anchor below it are held (the trunk's clamp in the ground).
        for (let q = bone; q < bone + 1 + nRing; q++) pinned[q] = 1;
        const anchor = addParticle(st.p[0] - st.t[0] * seg, st.p[1] - st.t[1] * seg, st.p[2] - st.t[2] * seg, BONE, 0, -1, r, 0);
        pinned[anchor] = 1;
        prevBone[bone] = anchor;
      } else {
        const prev = bones[bones.length - 1];
        prevBone[bone] = prev;
        const rPrev = radius[prev] > 0 && prevRing >= 0 ? radius[prev] : max(at(0).r, 1e-4); // at a joint: the branch's own base
        const rm = 0.5 * (r + rPrev), Am = PI * rm * rm, I = (PI * rm ** 4) / 4;
        const joint = prevRing < 0;
        // The branch's base node is a half cell: its bending stiffness is rootCell times a station's.
        const cell = k === 1 ? rootCell(nSeg) : 1;
        const axis = addLink(prev, bone, AXIS, joint ? Am : 0.75 * Am, E, eps);
        axisLinkOf.set(bone, axis);
        let around = 0;
        if (!joint) {
          // Bent by θ = M L / (cell E I) at the base, the ring's links stretch by 1 / cell of the fibre's strain M r / (E I).
          for (let a = 0; a < nRing; a++) {
            lAround[addLink(prevRing + a, rs + a, RING_AXIAL, Am / (4 * nRing), E, eps / cell)] = axis;
            lAround[addLink(prevRing + a, rs + ((a + 1) % nRing), DIAGONAL, Am / (4 * nRing), G, eps / cell)] = axis;
            around += 2;
          }
        }
        const L = lRest[axis];
        // Eq. 6's term bends the chain at station k - 1: the beam of its cell (the half link after a base), in series.
        const Ib = cellInertia(at, k === 1 ? 0 : (k - 1.5) * seg, k === 1 ? 0.5 * seg : (k - 0.5) * seg, len);
        // At a joint the link runs from the parent's nearest station, up to half a spacing from the
        // branch's base: the beam that bends is the branch's own first link, seg from its base (a
        // 0.4 m twig 0.2 m off its parent's station bent 1.4 times as far at L = the link's length).
        const Lb = joint ? seg : L;
        addTerm(bone, prev, (cell - (joint ? 0 : 0.5) - TORSION_BENDING) * (E * Ib) / Lb ** 3, axis, joint ? (cell * rm) / (Lb * Lb) : 0);
        // Torsion: each ring particle's offset from its bone held in the previous station's frame, G_t = G J / (n L r²).
        for (let a = 0; a < nRing; a++) addTerm(rs + a, prev, (G * 2 * I) / (nRing * L * r * r), axis, 0, bone);
        aroundCountOf.set(axis, around);
        for (let a = 0; a < nRing; a++) sh[3][sh[3].length - nRing + a] = axis;
      }
      bones.push(bone);
      prevRing = rs;
    }
    bonesOf.push(bones);
  }
  // Leaves: each to the nearest bone particle of its branch, by a petiole (eq. 4) and eq. 6's restoring term.
  const leafParticle = new Int32Array(s.leafCount), leafLink = new Int32Array(s.leafCount);
  const leafWeight = new Float64Array(s.leafCount).fill(1);
  if (set.leafHoldFactor) {
    if (set.leafHoldFactor.length !== s.leafCount) throw new RangeError(`leafHoldFactor needs one factor per leaf (${s.leafCount}); got ${set.leafHoldFactor.length}`);
    for (let l = 0; l < s.leafCount; l++) if (!(set.leafHoldFactor[l] > 0)) throw new RangeError(`leaf ${l}'s hold factor must be > 0; got ${set.leafHoldFactor[l]}`);
  }
  if (set.leafWeight) {
    if (set.leafWeight.length !== s.leafCount) throw new RangeError(`leafWeight needs one weight per leaf (${s.leafCount}); got ${set.leafWeight.length}`);
    for (let l = 0; l < s.leafCount; l++) {
      const w = set.leafWeight[l];
      if (!(w >= 1 && w <= 1e6)) throw new RangeError(`leaf ${l}'s weight must be from 1 to 1,000,000 leaves; got ${w}`);
      leafWeight[l] = w;
    }
  }
  for (let l = 0; l < s.leafCount; l++) {
    const c = [s.leafCenter[3 * l], s.leafCenter[3 * l + 1], s.leafCenter[3 * l + 2]], size = s.leafSize[l];
    const m = max(1e-6, LEAF_AREAL_MASS * size * size); // a leaf of no size still has a mass to step
    const leaf = addParticle(c[0], c[1], c[2], LEAF, m, s.leafBranch[l], size, size * size * LEAF_THICKNESS);
    let best = -1, bestD = Infinity;
    for (const q of bonesOf[s.leafBranch[l]]) {
      const d = dist(leaf, q);
      if (d < bestD) { bestD = d; best = q; }
    }
    prevBone[leaf] = best;
    const w = 2 * PI * set.leafFrequency, kPetiole = m * (40 * PI) ** 2; // petiole: axially stiff (20 Hz)
    const link = addLink(leaf, best, PETIOLE, 1, 0, 0);
    const L = lRest[link];
    lK[link] = kPetiole;
    const eps = (set.leafHold * (set.leafHoldFactor ? set.leafHoldFactor[l] : 1) * leafWeight[l]) / (kPetiole * L);
    lE[link] = 1 + eps;
    lC[link] = max(0.05, 1 - eps);
    if (bestD < 1e-4) lRest[link] = 1e-4;
    leafParticle[l] = leaf;
    leafLink[l] = link;
    addTerm(leaf, best, m * w * w, link, 0);
  }
  const n = type.length, nl = lA.length;
  const aroundCount = new Int32Array(nl);
  for (const [link, c] of aroundCountOf) aroundCount[link] = c;
  const anchor = pinned.findIndex((p, i) => p === 1 && branchOf[i] < 0);
  return {
    count: n, spacing: sp, restPosition: Float64Array.from(pos.data), type: Uint8Array.from(type), mass: Float64Array.from(mass),
    pinned: Uint8Array.from(pinned), branch: Int32Array.from(branchOf), level: Uint8Array.from(levelOf), radius: Float64Array.from(radius),
    solidVolume: Float64Array.from(solid), prevBone: Int32Array.from(prevBone), ringStart: Int32Array.from(ringStart), ringCount: Int32Array.from(ringCount),
    axisLength: Float64Array.from(axisLength), leafWeight, leafParticle, leafLink, anchor,
    linkCount: nl, linkA: Int32Array.from(lA), linkB: Int32Array.from(lB), linkKind: Uint8Array.from(lKind), restLength: Float64Array.from(lRest),
    stiffness: Float64Array.from(lK), stretchLimit: Float64Array.from(lE), compressLimit: Float64Array.from(lC), aroundOf: Int32Array.from(lAround),
    aroundCount, broken: new Uint8Array(nl),
    termCount: tG.length, termParticle: Int32Array.from(tP), termWeight: Float64Array.from(tW), termG: Float64Array.from(tG),
    termLink: Int32Array.from(tLink), termParentLink: Int32Array.from(tParent), termBendStrain: Float64Array.from(tBend),
    shearCount: sh[0].length, shearRing: Int32Array.from(sh[0]), shearBone: Int32Array.from(sh[1]), shearSpoke: Int32Array.from(sh[2]),
    shearAxis: Int32Array.from(sh[3]), shearG: Float64Array.from(sh[4]), shearRest: shearRestOf(pos.data, sh, lA, lB),
  };
}

function shearRestOf(p: number[], sh: number[][], lA: number[], lB: number[]): Float64Array {
  const out = new Float64Array(sh[0].length);
  for (let s = 0; s < out.length; s++) {
    const i = sh[0][s], j = sh[1][s], a = lA[sh[3][s]], b = lB[sh[3][s]];
    const n = [p[3 * b] - p[3 * a], p[3 * b + 1] - p[3 * a + 1], p[3 * b + 2] - p[3 * a + 2]];
    const l = hypot(n[0], n[1], n[2]) || 1;
    out[s] = (n[0] * (p[3 * j] - p[3 * i]) + n[1] * (p[3 * j + 1] - p[3 * i + 1]) + n[2] * (p[3 * j + 2] - p[3 * i + 2])) / l;
  }
  return out;
}

function dot3(a: number[], b: number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** Coefficients (α, β, γ) with α a + β b + γ c = w (Cramer's rule); a, b, c independent. */
function solve3(a: number[], b: number[], c: number[], w: number[]): number[] {
  const det = (x: number[], y: number[], z: number[]) =>
    x[0] * (y[1] * z[2] - y[2] * z[1]) - y[0] * (x[1] * z[2] - x[2] * z[1]) + z[0] * (x[1] * y[2] - x[2] * y[1]);
  const d = det(a, b, c);
  if (abs(d) < 1e-30) throw new Error("a station's frame is degenerate (its axis lies in its ring's plane)");
  return [det(w, b, c) / d, det(a, w, c) / d, det(a, b, w) / d];
}

/** The rest shape's bounding box (the anchor left out), m. */
export function treeBounds(tree: ParticleTree): { min: number[]; max: number[] } {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < tree.count; i++) {
    if (tree.pinned[i] && tree.branch[i] < 0) continue;
    for (let a = 0; a < 3; a++) {
      lo[a] = min(lo[a], tree.restPosition[3 * i + a]);
      hi[a] = max(hi[a], tree.restPosition[3 * i + a]);
    }
  }
  return { min: lo, max: hi };
}
