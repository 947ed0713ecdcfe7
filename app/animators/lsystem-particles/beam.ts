/**
 * The calibrated rods of lsystem-particles (ParticleDynamics' header says why): the loads beyond
 * every rod summed from the tips inward, the beam's bend under a steady wind's load condensed
 * onto one spring per joint (turning each rod from its parent's end, joints.ts), the tree's sway
 * frequency by Rayleigh's quotient, and the air's damping of each rod's turn. Plain TypeScript over typed arrays, no Babylon.
 */
import { G, branchDragPerLength, crossFlowDrag, leafDrag } from "../../wind/drag";
import type { PhysicalMaterial } from "../../physics/material";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, hypot, min, max, PI } = Math;

/** What these need of the particle system (particles.ts's ParticleTree): rod i runs from parent[i] to i. */
export interface RodTree {
  readonly count: number;
  readonly parent: Int32Array;
  /** Rest positions, xyz per particle. */
  readonly rest: Float64Array;
  /** Radius at each rod's tip and base, and its length, metres. */
  readonly radius: Float64Array;
  readonly baseRadius: Float64Array;
  readonly length: Float64Array;
  /** Leaves carried by each particle. */
  readonly leaves: Float64Array;
}

/** The per-rod constants calibratedRods writes (index 0, the root, unused). */
export interface RodConstants {
  /** Rod mass, kg. */
  readonly mass: Float64Array;
  /** Eq. 2.6's k_s at the rod's tip, N/m. */
  readonly springK: Float64Array;
  /** 1 / I, the rod's inverse moment of inertia about its base. */
  readonly invInertia: Float64Array;
  /** Natural angular frequency for the sub-steps (the sway, and gravity's lever at its worst), rad/s. */
  readonly omegaN: Float64Array;
  /** κ: how far the rod's end turns for a turn of its chord under its own bend (joints.ts). */
  readonly endRatio: Float64Array;
}

/**
 * The torque about every rod's base of the loads beyond it: `wind` times W at the particles and
 * half of every rod's weight (mass × g) at each end, positions C, into `out` (3 per particle). F and
 * Mo are scratch (3 per particle); Mo is left holding each particle's moment of the loads beyond it.
 * From the tips inward (children come after parents): τ_i = b_i × F_sub + M_sub, O(n).
 */
export function subtreeTorques(t: RodTree, mass: Float64Array, C: Float64Array, W: Float64Array, wind: number, g: number, F: Float64Array, Mo: Float64Array, out: Float64Array): void {
  const n = t.count, par = t.parent;
  for (let i = 0; i < n; i++) {
    const o = 3 * i;
    F[o] = wind * W[o];
    F[o + 1] = wind * W[o + 1];
    F[o + 2] = wind * W[o + 2];
    Mo[o] = Mo[o + 1] = Mo[o + 2] = 0;
  }
  for (let i = 1; i < n; i++) {
    const w = -0.5 * mass[i] * g;
    F[3 * i + 1] += w;
    F[3 * par[i] + 1] += w;
  }
  for (let i = n - 1; i >= 1; i--) {
    const o = 3 * i, q = 3 * par[i];
    const bx = C[o] - C[q], by = C[o + 1] - C[q + 1], bz = C[o + 2] - C[q + 2];
    const fx = F[o], fy = F[o + 1], fz = F[o + 2];
    const tx = by * fz - bz * fy + Mo[o], ty = bz * fx - bx * fz + Mo[o + 1], tz = bx * fy - by * fx + Mo[o + 2];
    out[o] = tx;
    out[o + 1] = ty;
    out[o + 2] = tz;
    F[q] += fx;
    F[q + 1] += fy;
    F[q + 2] += fz;
    Mo[q] += tx;
    Mo[q + 1] += ty;
    Mo[q + 2] += tz;
  }
}

/**
 * The calibrated rods of a tree of `material`, written into `r`; returns ω_R², the square of the
 * angular frequency every rod sways at. Allocates its scratch (called when the settings change).
 *
 * Masses: the tapered rod's ρ π L (r_a² + r_a r_b + r_b²) / 3. Bending: E I(s) times `stiffness`,
 * I = π r⁴ / 4, r linear from r_a to r_b along the rod.
 *
 * Condensation. Each rod is bent at its joint, from the frame its parent's end carries
 * (joints.ts). For the load of a steady wind at rest (along x and along z, per unit speed²: the
 * load's shape does not change with the speed), the beam's own bend of every rod follows from the
 * bending moment along it: linear from what lies beyond its tip (M_b at its base, M_t at its tip)
 * plus the parabola of its own distributed drag (M_o = b × F_own / 2 at its base, (1 - s/L)² along
 * it; the dynamics lump that drag half at each end, which gives the same base moment but, taken
 * as linear, bends a rod of one or two segments too far). With B_k = ∫₀ᴸ (L - s)^k / E I(s) ds
 * over the tapered section (a rod whose radius halves along it is far more flexible near its tip,
 * where the moment is small), the rod's chord turns against its parent's end by
 *   φ_i = [M_t B1 + (M_b - M_o - M_t) B2 / L + M_o B3 / L²] / L
 * and its end by e_i = M_t B0 + (M_b - M_o - M_t) B1 / L + M_o B2 / L² (for a uniform rod, K = E I / L:
 * (M_b' / 3 + M_t / 6 + M_o / 4) / K and ((M_b' + M_t) / 2 + M_o / 3) / K with M_b' = M_b - M_o).
 * The rod's spring turns it by φ's part along the moment M_b it feels, over both winds (the parts
 * across the rod, which alone turn it): K = Σ |M_b⊥|² / Σ M_b⊥ · φ⊥ (its compliance kept between
 * a pure moment's, B1 / L, and its own drag's alone, B3 / L³; a tip force's, B2 / L², where the
 * winds do not bend it), k_s = K / L²; its end turns κ = Σ e⊥ · φ⊥ / Σ |φ⊥|² times its chord
 * (kept between the same three loads' ratios, B0 L / B1, B1 L / B2 and B2 L / B3). In a steady
 * wind the chain of rods then lies on the beam's deflected shape, Φ_i = Φ_end(parent) + φ_i,
 * Φ_end(i) = Φ_end(parent) + e_i, within a few per cent at every tip of the shipped trees.
 *
 * Sway: Rayleigh's quotient of that deflected shape u, ω_R² = Σ F · u / Σ m |u|² (the lower of the
 * two winds), an upper bound of the tree's first ω² (Rayleigh's principle) and close to it for a
 * shape near the first mode's, as a cantilever's static deflection is (3.53 against 3.516 for β₁²).
 * Every rod's inertia is then I = K / ω_R²: every joint sways at ω_R.
 */
/**
 * B_k = ∫₀ᴸ (L - s)^k / (E I(s)) ds for k = 0..3, I = π r⁴ / 4 with r linear from ra to rb, into
 * out[0..3]: 8-point Gauss-Legendre (the integrand is smooth; exact for a uniform rod up to k = 3).
 */
export function rodFlexibilities(ra: number, rb: number, L: number, E: number, out: Float64Array): void {
  out[0] = out[1] = out[2] = out[3] = 0;
  for (let g = 0; g < GL_X.length; g++) {
    const x = 0.5 * (GL_X[g] + 1), w = 0.5 * GL_W[g] * L;
    const r = ra + (rb - ra) * x, flex = w / (E * 0.25 * PI * r * r * r * r), d = L * (1 - x);
    out[0] += flex;
    out[1] += flex * d;
    out[2] += flex * d * d;
    out[3] += flex * d * d * d;
  }
}

/** 8-point Gauss-Legendre on [-1, 1]. */
const GL_X = [-0.9602898564975363, -0.7966664774136267, -0.525532409916329, -0.1834346424956498, 0.1834346424956498, 0.525532409916329, 0.7966664774136267, 0.9602898564975363];
const GL_W = [0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.362683783378362, 0.362683783378362, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763];

export function calibratedRods(t: RodTree, material: PhysicalMaterial, stiffness: number, gravity: number, r: RodConstants): number {
  const n = t.count, par = t.parent, rest = t.rest, rho = material.woodDensity, E = stiffness * material.youngModulus;
  const subMass = new Float64Array(n), com = new Float64Array(3 * n);
  for (let i = n - 1; i >= 1; i--) {
    const ra = t.baseRadius[i], rb = t.radius[i], L = t.length[i], p = par[i], o = 3 * i;
    const m = (rho * PI * L * (ra * ra + ra * rb + rb * rb)) / 3;
    r.mass[i] = m;
    // The subtree's mass and first moment (for gravity's lever).
    subMass[i] += m;
    for (let c = 0; c < 3; c++) com[o + c] += 0.5 * m * (rest[o + c] + rest[3 * p + c]);
    if (p > 0) {
      subMass[p] += subMass[i];
      for (let c = 0; c < 3; c++) com[3 * p + c] += com[o + c];
    }
  }
  // Condensation and Rayleigh's quotient over the two steady winds.
  const W = new Float64Array(3 * n), tq = new Float64Array(3 * n), F = new Float64Array(3 * n), Mt = new Float64Array(3 * n);
  const phiEnd = new Float64Array(3 * n), u = new Float64Array(3 * n), num = new Float64Array(n), den = new Float64Array(n);
  const endNum = new Float64Array(n), endDen = new Float64Array(n);
  const own = new Float64Array(3 * n), flexB = new Float64Array(4 * n), fb = new Float64Array(4);
  for (let i = 1; i < n; i++) {
    rodFlexibilities(t.baseRadius[i], t.radius[i], t.length[i], E, fb);
    flexB.set(fb, 4 * i);
  }
  const sc = new Float64Array(3), phi = new Float64Array(3), mb = new Float64Array(3), mo = new Float64Array(3);
  let rayleigh = Infinity;
  for (let dir = 0; dir < 2; dir++) {
    const ux = dir === 0 ? 1 : 0, uz = dir === 0 ? 0 : 1;
    W.fill(0);
    for (let i = 1; i < n; i++) {
      const o = 3 * i, q = 3 * par[i];
      const k = branchDragPerLength(material, 0.5 * (t.radius[i] + t.baseRadius[i])) * t.length[i];
      crossFlowDrag(k, ux, 0, uz, rest[o] - rest[q], rest[o + 1] - rest[q + 1], rest[o + 2] - rest[q + 2], sc, 0);
      for (let c = 0; c < 3; c++) {
        W[o + c] += 0.5 * sc[c];
        W[q + c] += 0.5 * sc[c];
        own[o + c] = sc[c];
      }
      leafDrag(material, ux, 0, uz, sc, 0);
      for (let c = 0; c < 3; c++) W[o + c] += t.leaves[i] * sc[c];
    }
    subtreeTorques(t, r.mass, rest, W, 1, 0, F, Mt, tq);
    phiEnd.fill(0);
    u.fill(0);
    let work = 0, kinetic = 0;
    for (let i = 1; i < n; i++) {
      const o = 3 * i, q = 3 * par[i];
      const bx = rest[o] - rest[q], by = rest[o + 1] - rest[q + 1], bz = rest[o + 2] - rest[q + 2];
      const b2 = bx * bx + by * by + bz * bz;
      // M_o = b × F_own / 2: the own drag's part of the base moment (its parabola).
      const fx = own[o], fy = own[o + 1], fz = own[o + 2];
      mo[0] = 0.5 * (by * fz - bz * fy); mo[1] = 0.5 * (bz * fx - bx * fz); mo[2] = 0.5 * (bx * fy - by * fx);
      const L = t.length[i], B0 = flexB[4 * i], B1 = flexB[4 * i + 1], B2 = flexB[4 * i + 2], B3 = flexB[4 * i + 3];
      for (let c = 0; c < 3; c++) {
        mb[c] = tq[o + c];
        const mt = Mt[o + c], slope = mb[c] - mo[c] - mt;
        phi[c] = phiEnd[q + c] + (mt * B1 + (slope * B2) / L + (mo[c] * B3) / (L * L)) / L;
        phiEnd[o + c] = phiEnd[q + c] + mt * B0 + (slope * B1) / L + (mo[c] * B2) / (L * L);
      }
      // Rayleigh: the rod's end moves by u_p + Φ × b; work F · u, kinetic M (|u_a|² + u_a · u_b + |u_b|²) / 3.
      u[o] = u[q] + phi[1] * bz - phi[2] * by;
      u[o + 1] = u[q + 1] + phi[2] * bx - phi[0] * bz;
      u[o + 2] = u[q + 2] + phi[0] * by - phi[1] * bx;
      work += W[o] * u[o] + W[o + 1] * u[o + 1] + W[o + 2] * u[o + 2];
      kinetic += (r.mass[i] / 3) * (u[o] * u[o] + u[o + 1] * u[o + 1] + u[o + 2] * u[o + 2]
        + u[o] * u[q] + u[o + 1] * u[q + 1] + u[o + 2] * u[q + 2] + u[q] * u[q] + u[q + 1] * u[q + 1] + u[q + 2] * u[q + 2]);
      // The rod's own bend, chord and end, against its parent's end; the parts across the rod.
      const cx = phi[0] - phiEnd[q], cy = phi[1] - phiEnd[q + 1], cz = phi[2] - phiEnd[q + 2];
      const dx = phiEnd[o] - phiEnd[q], dy = phiEnd[o + 1] - phiEnd[q + 1], dz = phiEnd[o + 2] - phiEnd[q + 2];
      const along = (cx * bx + cy * by + cz * bz) / b2, alongM = (mb[0] * bx + mb[1] * by + mb[2] * bz) / b2;
      const alongE = (dx * bx + dy * by + dz * bz) / b2;
      const px = cx - along * bx, py = cy - along * by, pz = cz - along * bz;
      const mx = mb[0] - alongM * bx, my = mb[1] - alongM * by, mz = mb[2] - alongM * bz;
      const ex = dx - alongE * bx, ey = dy - alongE * by, ez = dz - alongE * bz;
      num[i] += mx * mx + my * my + mz * mz;
      den[i] += mx * px + my * py + mz * pz;
      endNum[i] += ex * px + ey * py + ez * pz;
      endDen[i] += px * px + py * py + pz * pz;
    }
    if (kinetic > 0 && work > 0) rayleigh = min(rayleigh, work / kinetic);
  }
  const w2 = Number.isFinite(rayleigh) ? rayleigh : 1;
  for (let i = 1; i < n; i++) {
    const L = t.length[i], B0 = flexB[4 * i], B1 = flexB[4 * i + 1], B2 = flexB[4 * i + 2], B3 = flexB[4 * i + 3];
    // Compliance between a pure moment's and the rod's own drag's; a tip force's where the winds do not bend it.
    const c = den[i] > 0 && num[i] > 0 ? min(B1 / L, max(B3 / (L * L * L), den[i] / num[i])) : B2 / (L * L);
    const kMoment = (B0 * L) / B1, kTip = (B1 * L) / B2, kOwn = (B2 * L) / B3;
    r.endRatio[i] = endDen[i] > 0 ? min(max(kMoment, kTip, kOwn), max(min(kMoment, kTip, kOwn), endNum[i] / endDen[i])) : kTip;
    const K = 1 / c;
    r.springK[i] = K / (L * L);
    r.invInertia[i] = w2 / K;
    // Gravity's lever at its worst, m_sub g |c_sub - base| / I, on top of the sway for the sub-steps.
    const o = 3 * par[i], m = subMass[i];
    const lever = hypot(com[3 * i] / m - rest[o], com[3 * i + 1] / m - rest[o + 1], com[3 * i + 2] / m - rest[o + 2]);
    r.omegaN[i] = sqrt(w2 + m * G * gravity * lever * r.invInertia[i]);
  }
  return w2;
}

/**
 * The air's damping of each rod turning with its subtree, C = Σ c_j |C_j - base|² over the
 * subtree's particles (c_j: `rate`, N s/m), written to `out` as the rate C / I. The wind's torque
 * was taken at the step's start velocities; linearly implicit in the rod's own ω,
 * τ(ω) ≈ τ(ω0) - C (ω - ω0): C ω0 joins `torque` and C / I the damping of the sub-steps (stable
 * however fast the air damps a light twig carrying leaves). s0, s1, s2: scratch, 3 per particle.
 */
export function airDamping(t: RodTree, C: Float64Array, rate: Float64Array, w: Float64Array, invInertia: Float64Array, s0: Float64Array, s1: Float64Array, s2: Float64Array, torque: Float64Array, out: Float64Array): void {
  const n = t.count, par = t.parent;
  for (let i = 0; i < n; i++) {
    const o = 3 * i, c = rate[i], x = C[o], y = C[o + 1], z = C[o + 2];
    s0[o] = c;
    s1[o] = c * x;
    s1[o + 1] = c * y;
    s1[o + 2] = c * z;
    s2[o] = c * (x * x + y * y + z * z);
  }
  for (let i = n - 1; i >= 1; i--) {
    const o = 3 * i, q = 3 * par[i];
    const px = C[q], py = C[q + 1], pz = C[q + 2];
    const Ca = max(0, s2[o] - 2 * (px * s1[o] + py * s1[o + 1] + pz * s1[o + 2]) + s0[o] * (px * px + py * py + pz * pz));
    out[i] = Ca * invInertia[i];
    torque[o] += Ca * w[o];
    torque[o + 1] += Ca * w[o + 1];
    torque[o + 2] += Ca * w[o + 2];
    if (par[i] > 0) {
      s0[q] += s0[o];
      s1[q] += s1[o];
      s1[q + 1] += s1[o + 1];
      s1[q + 2] += s1[o + 2];
      s2[q] += s2[o];
    }
  }
}
