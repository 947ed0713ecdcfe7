/**
 * Akagi and Kitajima §2, "Interaction models for branches and leaves": the tree's elastic forces
 * (eqs. 4-8) and their time step. Plain TypeScript over typed arrays, no Babylon.
 *
 * Eq. 4 prints f = Σ k ((x_j - x_i) - L), a vector less a length. We use the spring along the link,
 * f_i = k (|x_j - x_i| - L) (x_j - x_i) / |x_j - x_i|, the reaction -f_i on j.
 * Eq. 6, the restoring force toward the rest direction of the central axis carried by eq. 5's
 * quaternion, f_i = G_b (target - V_i), target = α V_j + β u₀ + γ u₁ in the parent station's
 * frame (particle-tree.ts says why); it is the force of the energy ½ G_b |C|², C = target - V_i, a
 * linear function of five positions (six for a ring's torsion term, particle-tree.ts), so the
 * parent station takes the reactions (momentum and angular momentum kept) and a rigid motion costs
 * nothing.
 * Eq. 8, the shear force keeping a ring particle on its circle's plane,
 * f_i = G_s (n · x_j - n · x_i) n with n = V_i / |V_i| (eq. 7), the reaction on the bone j. As
 * printed the pair leaves a couple unbalanced (it bent a cantilever 1.6 times too far); we add
 * its reaction on the axis link, the forces of the energy ½ G_s (n · (x_j - x_i))², so eq. 8 is
 * conservative and a rigid rotation costs nothing.
 *
 * The time step. The wood is stiff: a link of E A / L between particles of ρ A L / n has
 * ω ≈ √(E / ρ) / L ≈ 3 × 10⁴ rad/s at 0.1 m, so semi-implicit Euler would need 30 µs steps (500
 * per frame). We take one linearly implicit step of the HHT-α method (Hilber, Hughes and Taylor
 * 1977; Newmark's updates with β = (1 - α)² / 4, γ = ½ - α): the equation of motion is held at
 * (1 + α) of the way through the step, M a₁ = (1 + α) f(x₁, v₁) - α f(x₀, v₀), linearised about x₀:
 * (M + (1 + α)[(β dt² + γ dt β_R) K̂ + γ dt C_air]) a₁ = f₀ - (1 + α)[K̂ (dt v₀ + dt² (½ - β) a₀)
 * + (β_R K̂ + C_air) dt (1 - γ) a₀], f₀ the forces at x₀ with the damping -β_R K̂ v₀; then
 * x₁ = x₀ + dt v₀ + dt² ((½ - β) a₀ + β a₁), v₁ = v₀ + dt ((1 - γ) a₀ + γ a₁). K̂ = -K, K the
 * forces' Jacobian (a spring's k [n nᵀ + max(0, 1 - L/l)(I - n nᵀ)], eq. 6's G w_p w_q I, eq. 8's
 * G_s n nᵀ with n held over the step), β_R the stiffness-proportional (Rayleigh) damping, C_air
 * the air's drag damping on the diagonal; solved directly (block-cholesky.ts: conjugate gradients
 * needed about 3,000 iterations on a 200-particle tree, the wood being that stiff). Stable at any
 * step; the paper's 0.01 s and a frame's 1/60 s both run (elasticity spec). Backward Euler, used
 * before, damped a mode of ω by about ω dt / 2 by itself (0.21 on the demo tree's 4.3 Hz first
 * mode at 1/60 s), so the damping slider's low settings could not be had; HHT-α damps the sway
 * by under 0.002 and the stiff axial motions strongly, so β_R = 2 ζ / ω₁ sets ζ of the first mode.
 */
import { BlockCholesky } from "./block-cholesky";
import { TERM_SIZE, type ParticleTree } from "./particle-tree";

const { sqrt, max } = Math;

/**
 * HHT-α's α (Hilber, Hughes and Taylor 1977), from -1/3 to 0: the numerical damping of the
 * stiffest motions (their amplitude at most 0.54 a step at -0.3) while the tree's sway keeps its
 * own (ζ 0.0015 at ω dt = 0.45, the demo tree's first mode at 1/60 s; 0.00005 at 0.14, Habel's).
 * β and γ follow: second order, unconditionally stable for a linear system.
 */
export const HHT_ALPHA = -0.3;
const HHT_BETA = (1 - HHT_ALPHA) ** 2 / 4, HHT_GAMMA = 0.5 - HHT_ALPHA;

/** Pairs of particles in one eq. 6 term. */
const TERM_PAIRS = (TERM_SIZE * (TERM_SIZE - 1)) / 2;

export interface ElasticSettings {
  /** β of the stiffness-proportional damping, s (ζ = β ω / 2 at mode frequency ω). */
  stiffnessDamping: number;
}

export const DEFAULT_ELASTIC: ElasticSettings = { stiffnessDamping: 0.004 };

/** Whether eq. 6's term is active: its own link and its parent's axis link unbroken. */
export function termActive(tree: ParticleTree, t: number): boolean {
  const pl = tree.termParentLink[t];
  return !tree.broken[tree.termLink[t]] && (pl < 0 || !tree.broken[pl]);
}

/** Whether eq. 8's term is active: its spoke and its axis link unbroken. */
export function shearActive(tree: ParticleTree, s: number): boolean {
  return !tree.broken[tree.shearSpoke[s]] && !tree.broken[tree.shearAxis[s]];
}

/** Eq. 7's normal of ring s's circle at x, V_center / |V_center| of the axis link into its station, into out; returns |V_center|. */
export function shearNormal(tree: ParticleTree, s: number, x: Float64Array, out: Float64Array): number {
  const l = tree.shearAxis[s], p = tree.linkA[l], q = tree.linkB[l];
  const dx = x[3 * q] - x[3 * p], dy = x[3 * q + 1] - x[3 * p + 1], dz = x[3 * q + 2] - x[3 * p + 2];
  const d = sqrt(dx * dx + dy * dy + dz * dz) || 1;
  out[0] = dx / d; out[1] = dy / d; out[2] = dz / d;
  return d;
}

/** Eq. 6's C = target - V_i (Σ w_q x_q) for term t at positions x, into out[0..2]. */
export function restoringOffset(tree: ParticleTree, t: number, x: Float64Array, out: Float64Array): void {
  out[0] = out[1] = out[2] = 0;
  for (let e = TERM_SIZE * t; e < TERM_SIZE * (t + 1); e++) {
    const q = tree.termParticle[e], w = tree.termWeight[e];
    if (q < 0) break;
    out[0] += w * x[3 * q]; out[1] += w * x[3 * q + 1]; out[2] += w * x[3 * q + 2];
  }
}

export class ElasticSolver {
  settings: ElasticSettings;
  /** Every particle's acceleration after the last step (HHT-α carries it), m/s², xyz. */
  readonly acceleration: Float64Array;
  private readonly cholesky: BlockCholesky;
  private readonly linkBlock: Int32Array;
  private readonly termBlock: Int32Array;
  private readonly shearBlock: Int32Array;
  private readonly linkJ: Float64Array;
  private readonly shearGrad: Float64Array;
  private readonly f: Float64Array;
  private readonly rhs: Float64Array;
  private readonly next: Float64Array;
  private readonly w: Float64Array;
  private readonly kv: Float64Array;
  private readonly c = new Float64Array(3);
  private readonly m9 = new Float64Array(9);
  private hK = 0;

  constructor(readonly tree: ParticleTree, settings: Partial<ElasticSettings> = {}) {
    this.settings = { ...DEFAULT_ELASTIC, ...settings };
    checkElastic(this.settings);
    const n = tree.count;
    const pairs: number[] = [];
    for (let l = 0; l < tree.linkCount; l++) pairs.push(tree.linkA[l], tree.linkB[l]);
    const tp = tree.termParticle;
    for (let t = 0; t < tree.termCount; t++) {
      const o = TERM_SIZE * t;
      for (let a = 0; a < TERM_SIZE; a++) for (let b = a + 1; b < TERM_SIZE; b++) if (tp[o + a] >= 0 && tp[o + b] >= 0) pairs.push(tp[o + a], tp[o + b]);
    }
    for (let s = 0; s < tree.shearCount; s++) pairs.push(tree.shearRing[s], tree.shearBone[s], tree.shearRing[s], shearParticle(tree, s, 2), tree.shearBone[s], shearParticle(tree, s, 2));
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = n - 1 - i; // leaves, then tips to root (see block-cholesky.ts)
    this.cholesky = new BlockCholesky(n, pairs, order);
    this.linkBlock = Int32Array.from({ length: tree.linkCount }, (_, l) => this.cholesky.blockIndex(tree.linkA[l], tree.linkB[l]));
    // Blocks of each eq. 6 term's particle pairs (a < b), TERM_PAIRS per term, -1 past its last particle.
    this.termBlock = new Int32Array(TERM_PAIRS * tree.termCount).fill(-1);
    for (let t = 0; t < tree.termCount; t++) {
      const o = TERM_SIZE * t;
      let e = TERM_PAIRS * t;
      for (let a = 0; a < TERM_SIZE; a++) for (let b = a + 1; b < TERM_SIZE; b++, e++) if (tp[o + a] >= 0 && tp[o + b] >= 0) this.termBlock[e] = this.cholesky.blockIndex(tp[o + a], tp[o + b]);
    }
    // Blocks (i, j), (i, p), (j, p) of each eq. 8 term: index e + f - 1 for particles e < f.
    this.shearBlock = new Int32Array(3 * tree.shearCount);
    for (let s = 0; s < tree.shearCount; s++) for (let e = 0; e < 3; e++) for (let f = e + 1; f < 3; f++) this.shearBlock[3 * s + e + f - 1] = this.cholesky.blockIndex(shearParticle(tree, s, e), shearParticle(tree, s, f));
    this.linkJ = new Float64Array(6 * tree.linkCount);
    this.shearGrad = new Float64Array(9 * tree.shearCount);
    this.f = new Float64Array(3 * n);
    this.rhs = new Float64Array(3 * n);
    this.next = new Float64Array(3 * n);
    this.w = new Float64Array(3 * n);
    this.acceleration = new Float64Array(3 * n);
    this.kv = new Float64Array(3 * n);
  }

  /** The elastic forces (eqs. 4, 6, 8) of the unbroken links at positions x, added into out (N). */
  addForces(x: Float64Array, out: Float64Array): void {
    const tr = this.tree, c = this.c;
    for (let l = 0; l < tr.linkCount; l++) {
      if (tr.broken[l]) continue;
      const a = tr.linkA[l], b = tr.linkB[l];
      const dx = x[3 * b] - x[3 * a], dy = x[3 * b + 1] - x[3 * a + 1], dz = x[3 * b + 2] - x[3 * a + 2];
      const len = sqrt(dx * dx + dy * dy + dz * dz);
      if (!(len > 0)) continue;
      const s = (tr.stiffness[l] * (len - tr.restLength[l])) / len; // eq. 4, along the link
      out[3 * a] += s * dx; out[3 * a + 1] += s * dy; out[3 * a + 2] += s * dz;
      out[3 * b] -= s * dx; out[3 * b + 1] -= s * dy; out[3 * b + 2] -= s * dz;
    }
    for (let t = 0; t < tr.termCount; t++) {
      if (!termActive(tr, t)) continue;
      restoringOffset(tr, t, x, c); // eq. 6: f_q = -G w_q C (f_i = G C, the reactions on the frame's particles)
      const G = tr.termG[t];
      for (let e = TERM_SIZE * t; e < TERM_SIZE * (t + 1); e++) {
        const q = tr.termParticle[e];
        if (q < 0) break;
        const g = -G * tr.termWeight[e];
        out[3 * q] += g * c[0]; out[3 * q + 1] += g * c[1]; out[3 * q + 2] += g * c[2];
      }
    }
    for (let s = 0; s < tr.shearCount; s++) {
      if (!shearActive(tr, s)) continue;
      const i = tr.shearRing[s], j = tr.shearBone[s], l = tr.shearAxis[s], p = tr.linkA[l], q = tr.linkB[l];
      const len = shearNormal(tr, s, x, c); // eq. 7
      const nx = c[0], ny = c[1], nz = c[2];
      const dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1], dz = x[3 * j + 2] - x[3 * i + 2];
      const C = nx * dx + ny * dy + nz * dz, Cr = C - tr.shearRest[s];
      const g = tr.shearG[s] * Cr; // eq. 8: f_i = G_s (n·x_j - n·x_i) n, -f_i on j
      out[3 * i] += g * nx; out[3 * i + 1] += g * ny; out[3 * i + 2] += g * nz;
      out[3 * j] -= g * nx; out[3 * j + 1] -= g * ny; out[3 * j + 2] -= g * nz;
      // The couple of that pair, taken by the axis (the force of the energy ½ G_s C²): n turns with it.
      const ax = (g * (dx - C * nx)) / len, ay = (g * (dy - C * ny)) / len, az = (g * (dz - C * nz)) / len;
      out[3 * q] -= ax; out[3 * q + 1] -= ay; out[3 * q + 2] -= az;
      out[3 * p] += ax; out[3 * p + 1] += ay; out[3 * p + 2] += az;
    }
  }

  /**
   * One HHT-α step of dt (see the file's comment): positions x and velocities v (xyz per particle)
   * in place, and `acceleration`, under the elastic forces and `external` (N, xyz); `dragDamping`
   * (kg/s per particle, optional): the derivative of the air's drag against the particle's
   * velocity, taken implicitly.
   */
  step(x: Float64Array, v: Float64Array, external: Float64Array, dt: number, dragDamping?: Float64Array): void {
    if (!(dt > 0 && dt <= 0.05)) throw new RangeError(`elastic time step must be in (0, 0.05] s; got ${dt}`);
    const tr = this.tree, n = tr.count, f = this.f, a = this.acceleration, w = this.w, rhs = this.rhs;
    const al = HHT_ALPHA, be = HHT_BETA, ga = HHT_GAMMA, rayleigh = this.settings.stiffnessDamping;
    f.set(external);
    this.addForces(x, f);
    for (let p = 0; p < n; p++) if (tr.pinned[p]) v[3 * p] = v[3 * p + 1] = v[3 * p + 2] = a[3 * p] = a[3 * p + 1] = a[3 * p + 2] = 0;
    this.hK = (1 + al) * (be * dt * dt + ga * dt * rayleigh);
    this.jacobians(x);
    // rhs = f + K [(1 + α)(dt v + dt² (½ - β) a + β_R dt (1 - γ) a) + β_R v] - (1 + α) dt (1 - γ) C_air a
    for (let q = 0; q < 3 * n; q++) w[q] = (1 + al) * (dt * v[q] + (dt * dt * (0.5 - be) + rayleigh * dt * (1 - ga)) * a[q]) + rayleigh * v[q];
    this.applyK(w, this.kv);
    for (let q = 0; q < 3 * n; q++) {
      const p = (q / 3) | 0;
      rhs[q] = tr.pinned[p] ? 0 : f[q] + this.kv[q] - (dragDamping ? (1 + al) * dt * (1 - ga) * dragDamping[p] * a[q] : 0);
    }
    this.assemble((1 + al) * ga * dt, dragDamping);
    this.cholesky.factor();
    this.cholesky.solve(rhs, this.next);
    const next = this.next;
    for (let p = 0; p < n; p++) {
      if (tr.pinned[p]) continue;
      for (let e = 3 * p; e < 3 * p + 3; e++) {
        x[e] += dt * v[e] + dt * dt * ((0.5 - be) * a[e] + be * next[e]);
        v[e] += dt * ((1 - ga) * a[e] + ga * next[e]);
        a[e] = next[e];
      }
    }
  }

  /** Forgets the acceleration carried from step to step (the tree put at rest, or moved by hand). */
  reset(): void {
    this.acceleration.fill(0);
  }

  /** out = K p over the unbroken links and active terms (pinned particles' p must be 0). */
  private applyK(p: Float64Array, out: Float64Array): void {
    const tr = this.tree, J = this.linkJ;
    out.fill(0);
    for (let l = 0; l < tr.linkCount; l++) {
      if (tr.broken[l]) continue;
      const a = tr.linkA[l], b = tr.linkB[l], o = 6 * l;
      const dx = p[3 * a] - p[3 * b], dy = p[3 * a + 1] - p[3 * b + 1], dz = p[3 * a + 2] - p[3 * b + 2];
      const fx = J[o] * dx + J[o + 1] * dy + J[o + 2] * dz;
      const fy = J[o + 1] * dx + J[o + 3] * dy + J[o + 4] * dz;
      const fz = J[o + 2] * dx + J[o + 4] * dy + J[o + 5] * dz;
      out[3 * a] -= fx; out[3 * a + 1] -= fy; out[3 * a + 2] -= fz;
      out[3 * b] += fx; out[3 * b + 1] += fy; out[3 * b + 2] += fz;
    }
    const c = this.c;
    for (let t = 0; t < tr.termCount; t++) {
      if (!termActive(tr, t)) continue;
      restoringOffset(tr, t, p, c); // C(p) = Σ w_q p_q; (K p)_q = -G w_q C
      const G = tr.termG[t];
      for (let e = TERM_SIZE * t; e < TERM_SIZE * (t + 1); e++) {
        const q = tr.termParticle[e];
        if (q < 0) break;
        const g = -G * tr.termWeight[e];
        out[3 * q] += g * c[0]; out[3 * q + 1] += g * c[1]; out[3 * q + 2] += g * c[2];
      }
    }
    const Sg = this.shearGrad;
    for (let s = 0; s < tr.shearCount; s++) {
      if (!shearActive(tr, s)) continue;
      const G = tr.shearG[s], o = 9 * s;
      let C = 0;
      for (let e = 0; e < 3; e++) {
        const q = shearParticle(tr, s, e);
        C += Sg[o + 3 * e] * p[3 * q] + Sg[o + 3 * e + 1] * p[3 * q + 1] + Sg[o + 3 * e + 2] * p[3 * q + 2];
      }
      for (let e = 0; e < 3; e++) {
        const q = shearParticle(tr, s, e); // (K p)_q = -G g_q (Σ g · p)
        out[3 * q] -= G * Sg[o + 3 * e] * C; out[3 * q + 1] -= G * Sg[o + 3 * e + 1] * C; out[3 * q + 2] -= G * Sg[o + 3 * e + 2] * C;
      }
    }
  }

  /** Springs' 3 × 3 stiffness blocks (symmetric, 6 values) and eq. 8's normals at x. */
  private jacobians(x: Float64Array): void {
    const tr = this.tree, J = this.linkJ;
    for (let l = 0; l < tr.linkCount; l++) {
      if (tr.broken[l]) continue;
      const a = tr.linkA[l], b = tr.linkB[l], o = 6 * l;
      let dx = x[3 * b] - x[3 * a], dy = x[3 * b + 1] - x[3 * a + 1], dz = x[3 * b + 2] - x[3 * a + 2];
      const len = sqrt(dx * dx + dy * dy + dz * dz) || 1;
      dx /= len; dy /= len; dz /= len;
      const k = tr.stiffness[l], g = max(0, 1 - tr.restLength[l] / len);
      J[o] = k * (dx * dx + g * (1 - dx * dx)); J[o + 1] = k * (1 - g) * dx * dy; J[o + 2] = k * (1 - g) * dx * dz;
      J[o + 3] = k * (dy * dy + g * (1 - dy * dy)); J[o + 4] = k * (1 - g) * dy * dz;
      J[o + 5] = k * (dz * dz + g * (1 - dz * dz));
    }
    // Eq. 8's C = n · (x_j - x_i) - C0 has the gradient -n on i, n + t on j and -t on the axis's
    // lower end p, t = (d - (n · d) n) / |V|: its Gauss-Newton stiffness G_s g gᵀ, held over the step.
    const c = this.c, Sg = this.shearGrad;
    for (let s = 0; s < tr.shearCount; s++) {
      const len = shearNormal(tr, s, x, c), i = tr.shearRing[s], j = tr.shearBone[s], o = 9 * s;
      const dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1], dz = x[3 * j + 2] - x[3 * i + 2];
      const C = c[0] * dx + c[1] * dy + c[2] * dz;
      const tx = (dx - C * c[0]) / len, ty = (dy - C * c[1]) / len, tz = (dz - C * c[2]) / len;
      Sg[o] = -c[0]; Sg[o + 1] = -c[1]; Sg[o + 2] = -c[2];
      Sg[o + 3] = c[0] + tx; Sg[o + 4] = c[1] + ty; Sg[o + 5] = c[2] + tz;
      Sg[o + 6] = -tx; Sg[o + 7] = -ty; Sg[o + 8] = -tz;
    }
  }

  /** A = M + airFactor D_air - hK K into the factorisation's blocks; pinned rows the identity, uncoupled. */
  private assemble(airFactor: number, dragDamping: Float64Array | undefined): void {
    const tr = this.tree, n = tr.count, J = this.linkJ, hK = this.hK, A = this.cholesky, m9 = this.m9, pin = tr.pinned;
    A.clear();
    for (let l = 0; l < tr.linkCount; l++) {
      if (tr.broken[l]) continue;
      const a = tr.linkA[l], b = tr.linkB[l], o = 6 * l;
      m9[0] = J[o]; m9[1] = J[o + 1]; m9[2] = J[o + 2];
      m9[3] = J[o + 1]; m9[4] = J[o + 3]; m9[5] = J[o + 4];
      m9[6] = J[o + 2]; m9[7] = J[o + 4]; m9[8] = J[o + 5];
      if (!pin[a]) A.addDiag(a, m9, 0, hK);
      if (!pin[b]) A.addDiag(b, m9, 0, hK);
      if (!pin[a] && !pin[b]) A.addOff(a, b, this.linkBlock[l], m9, 0, -hK);
    }
    const tp = tr.termParticle, tw = tr.termWeight;
    for (let t = 0; t < tr.termCount; t++) {
      if (!termActive(tr, t)) continue;
      const G = hK * tr.termG[t], o = TERM_SIZE * t;
      let e = TERM_PAIRS * t;
      for (let a = 0; a < TERM_SIZE; a++) {
        const qa = tp[o + a];
        if (qa < 0) break;
        if (!pin[qa]) A.addDiagIso(qa, G * tw[o + a] * tw[o + a]);
        for (let b = a + 1; b < TERM_SIZE; b++, e++) {
          const qb = tp[o + b];
          if (qb >= 0 && !pin[qa] && !pin[qb]) A.addOffIso(this.termBlock[e], G * tw[o + a] * tw[o + b]);
        }
      }
    }
    const Sg = this.shearGrad;
    for (let s = 0; s < tr.shearCount; s++) {
      if (!shearActive(tr, s)) continue;
      const G = hK * tr.shearG[s], o = 9 * s;
      for (let e = 0; e < 3; e++) for (let f = e; f < 3; f++) {
        const a = shearParticle(tr, s, e), b = shearParticle(tr, s, f);
        if (pin[a] || pin[b]) continue;
        for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) m9[3 * r + q] = Sg[o + 3 * e + r] * Sg[o + 3 * f + q];
        if (e === f) A.addDiag(a, m9, 0, G);
        else A.addOff(a, b, this.shearBlock[3 * s + e + f - 1], m9, 0, G);
      }
    }
    for (let q = 0; q < n; q++) A.addDiagIso(q, pin[q] ? 1 : tr.mass[q] + (dragDamping ? airFactor * dragDamping[q] : 0));
  }
}

/** Eq. 8 term s's particles: 0 the ring particle, 1 its bone, 2 the axis link's lower end. */
function shearParticle(tr: ParticleTree, s: number, e: number): number {
  return e === 0 ? tr.shearRing[s] : e === 1 ? tr.shearBone[s] : tr.linkA[tr.shearAxis[s]];
}

function checkElastic(s: ElasticSettings): void {
  if (!(s.stiffnessDamping >= 0 && s.stiffnessDamping <= 1)) throw new RangeError(`stiffnessDamping must be from 0 to 1 s; got ${s.stiffnessDamping}`);
}
