/**
 * Akagi and Kitajima's method in time: the particle tree (particle-tree.ts) in the SPH wind
 * (sph.ts), its elasticity (elasticity.ts) and its breaking (breaking.ts), one step at a time.
 * Plain TypeScript over typed arrays, no Babylon; the provider reads `position`, `velocity`, the
 * wind's particles and `counts()`.
 *
 * A step of dt: the wind takes its CFL substeps with the tree's particles held where they are (the
 * tree moves little in dt) and returns the air's mean force on each; the tree takes one implicit
 * step under that force and gravity; particles below the ground (y = 0) are put back on it with
 * Coulomb friction; eq. 10 erases what is strained too far and the pieces are recounted. Leaves
 * whose petiole broke tumble: each turns at its own seeded rate (the RNG passed in), faster in a
 * faster relative wind (`leafAngle`, for the renderer). Same inputs, same numbers.
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import type { Rng } from "../../math/rng";
import { branchDragPerLength } from "../../wind/drag";
import { BONE, buildParticleTree, defaultTreeSettings, treeBounds, type ParticleTree, type ParticleTreeSettings } from "./particle-tree";
import { SphWind, windBoxAround, windSpacingForBudget, type SphSettings, type TreeCoupling, type WindVelocity } from "./sph";
import { boundaryVolumes } from "./boundary-volumes";
import { ElasticSolver, type ElasticSettings } from "./elasticity";
import { TreeBreaking, type BreakCounts } from "./breaking";

const { sqrt, min, max } = Math;

export interface SphTreeSettings {
  tree: Partial<ParticleTreeSettings>;
  /** Wind lattice spacing, m; 0: from windBudget. */
  windSpacing: number;
  /** About how many wind particles when windSpacing is 0 (the paper's Table 3 ran 7,680). */
  windBudget: number;
  /** Air beyond the tree's bounds on every side (not below ground), m. */
  margin: number;
  sph: Partial<SphSettings>;
  elastic: Partial<ElasticSettings>;
  /** m/s². */
  gravity: number;
  /** Coulomb friction of the ground. */
  groundFriction: number;
  /** Hold the tree still (the wind still feels it): a fixed obstacle. */
  fixedTree: boolean;
  /**
   * Whether gravity pulls on the tree still standing (true), or only on what is cut off it (false:
   * the modelled shape is the tree already under its own weight, so it neither sags nor swings at the
   * start, and a steady wind's bend is the wind's alone, as the reference solver measures it).
   */
  weighStanding: boolean;
}

/**
 * The spread of the leaves' holds: σ of the log of a leaf's hold over the median (90 % of leaves
 * between 0.56 and 1.78 times it). With the median hold of 3 N (particle-tree.ts's default), the
 * drag law's pull on a leaf of the shared drag area 0.004 m² at 35 m/s, the weakest 5 % go from
 * 26 m/s and the strongest 5 % hold past 47 m/s in a steady wind; in a gusty one (turbulence 0.3)
 * a leaf's largest pull over a second and a half is 1.1 to 1.7 times the steady drag, so on the
 * demo tree a gale of 25 m/s tears 6 to 33 % of the leaves (by the wind's seed), 40 m/s 84 to 94 %,
 * and 20 m/s only the weakest few: as in Vogel's wind tunnel (J. Exp. Bot. 40, 1989), where broad
 * leaves tore in turbulent winds of 20 m/s while others were undamaged at 30 m/s.
 */
export const LEAF_HOLD_SPREAD = 0.35;
const LEAF_HOLD_LABEL = 0x1eaf;

export const DEFAULT_SIMULATION: SphTreeSettings = {
  tree: {}, windSpacing: 0, windBudget: 8000, margin: 1, sph: {}, elastic: {}, gravity: 9.81, groundFriction: 0.6, fixedTree: false, weighStanding: true,
};

export interface SphCounts extends BreakCounts {
  windParticles: number;
  treeParticles: number;
}

export class SphTreeSimulation {
  readonly tree: ParticleTree;
  readonly wind: SphWind;
  readonly elastic: ElasticSolver;
  readonly breaking: TreeBreaking;
  readonly settings: SphTreeSettings;
  /** The tree's particles: positions and velocities, xyz. */
  readonly position: Float64Array;
  readonly velocity: Float64Array;
  /** The air's mean force on each tree particle over the last step, N. */
  readonly airForce: Float64Array;
  /** Tumble angle of every skeleton leaf (0 while it hangs on), radians. */
  readonly leafAngle: Float64Array;
  private readonly leafRate: Float64Array;
  private readonly coupling: TreeCoupling;
  private readonly external: Float64Array;
  private readonly dragPerSpeed: Float64Array;
  /** Time of the state, s. */
  time: number;

  constructor(skeleton: TreeSkeleton, windVelocity: WindVelocity, rng: Rng, settings: Partial<SphTreeSettings> = {}, startTime = 0) {
    this.settings = { ...DEFAULT_SIMULATION, ...settings };
    const st = this.settings;
    if (!(st.gravity >= 0 && st.gravity <= 30)) throw new RangeError(`gravity must be from 0 to 30 m/s²; got ${st.gravity}`);
    if (!(st.groundFriction >= 0 && st.groundFriction <= 2)) throw new RangeError(`groundFriction must be from 0 to 2; got ${st.groundFriction}`);
    const treeSettings = { ...defaultTreeSettings(), ...st.tree };
    if (!treeSettings.leafHoldFactor) {
      // Leaves differ: each one's hold over the median, log-normal (seeded apart from the tumbling rates).
      const holds = rng.fork(LEAF_HOLD_LABEL);
      treeSettings.leafHoldFactor = Float64Array.from({ length: skeleton.leafCount }, () => Math.exp(LEAF_HOLD_SPREAD * holds.gaussian()));
    }
    const tree = (this.tree = buildParticleTree(skeleton, treeSettings));
    const n = tree.count;
    const bounds = treeBounds(tree);
    const spacing = st.windSpacing > 0 ? st.windSpacing : windSpacingForBudget(bounds, st.margin, st.windBudget);
    const sph = { restDensity: treeSettings.material.airDensity, ...st.sph };
    this.wind = new SphWind(windBoxAround(bounds, st.margin, spacing), windVelocity, sph, n, startTime);
    this.elastic = new ElasticSolver(tree, st.elastic);
    this.breaking = new TreeBreaking(tree);
    this.position = Float64Array.from(tree.restPosition);
    this.velocity = new Float64Array(3 * n);
    this.airForce = new Float64Array(3 * n);
    this.external = new Float64Array(3 * n);
    this.time = startTime;
    // The air's sums: each particle's volume; the drag law for the share the lattice does not resolve.
    const sphVolume = boundaryVolumes(tree.restPosition, tree.solidVolume, this.wind.h, new Float64Array(n));
    const resolved = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (tree.type[i] !== BONE || tree.branch[i] < 0) continue;
      let sv = sphVolume[i], so = tree.solidVolume[i];
      for (let r = tree.ringStart[i]; r < tree.ringStart[i] + tree.ringCount[i]; r++) {
        sv += sphVolume[r];
        so += tree.solidVolume[r];
      }
      // Resolved: what the lattice sees of the wood (its volume in the sums), and only as far as the
      // branch is as thick as the kernel's reach (a 16 cm trunk in a 0.5 m kernel took a quarter of its drag).
      resolved[i] = so > 0 ? min(1, sv / so) * min(1, (2 * tree.radius[i]) / this.wind.h) : 0;
    }
    this.dragPerSpeed = new Float64Array(n);
    const m = treeSettings.material;
    for (let i = 0; i < n; i++) {
      if (tree.pinned[i]) continue;
      if (tree.type[i] === BONE) this.dragPerSpeed[i] = (1 - resolved[i]) * branchDragPerLength(m, tree.radius[i]) * tree.axisLength[i];
    }
    // A leaf particle: ½ ρ (C_d A) per leaf it stands for (drag.ts's leaf law).
    for (let l = 0; l < tree.leafParticle.length; l++) this.dragPerSpeed[tree.leafParticle[l]] = 0.5 * m.airDensity * m.leafDragArea * tree.leafWeight[l];
    this.coupling = {
      count: n, position: this.position, velocity: this.velocity, sphVolume, dragFactor: this.dragPerSpeed,
      dragAxis: new Float64Array(3 * n), force: this.airForce, dragDamping: new Float64Array(n),
    };
    this.leafAngle = new Float64Array(skeleton.leafCount);
    this.leafRate = new Float64Array(skeleton.leafCount);
    for (let l = 0; l < skeleton.leafCount; l++) this.leafRate[l] = (rng.next() < 0.5 ? -1 : 1) * rng.range(2, 8);
  }

  /** Advances the wind and the tree by dt (s) from the current time; `time`, if given, is the host's clock at the step's start. */
  step(dt: number, time = this.time): void {
    if (!(dt > 0 && dt <= 0.05)) throw new RangeError(`time step must be in (0, 0.05] s; got ${dt}`);
    const tr = this.tree, n = tr.count, x = this.position, v = this.velocity, c = this.coupling;
    for (let i = 0; i < n; i++) {
      const p = tr.prevBone[i];
      if (tr.type[i] !== BONE || p < 0) continue;
      for (let a = 0; a < 3; a++) c.dragAxis[3 * i + a] = x[3 * i + a] - x[3 * p + a];
    }
    this.wind.step(dt, time, c);
    const ext = this.external, g = this.settings.gravity, all = this.settings.weighStanding, attached = this.breaking.attached;
    for (let i = 0; i < n; i++) {
      ext[3 * i] = this.airForce[3 * i];
      ext[3 * i + 1] = this.airForce[3 * i + 1] - (all || !attached[i] ? tr.mass[i] * g : 0);
      ext[3 * i + 2] = this.airForce[3 * i + 2];
    }
    if (!this.settings.fixedTree) {
      this.elastic.step(x, v, ext, dt, c.dragDamping);
      this.ground(dt);
      this.breaking.check(x);
    }
    for (let l = 0; l < this.leafAngle.length; l++) {
      if (!tr.broken[tr.leafLink[l]]) continue;
      const i = tr.leafParticle[l];
      const f = sqrt(this.airForce[3 * i] ** 2 + this.airForce[3 * i + 1] ** 2 + this.airForce[3 * i + 2] ** 2);
      this.leafAngle[l] += dt * this.leafRate[l] * (1 + f / max(1e-9, tr.mass[i] * max(g, 1)));
    }
    this.time = time + dt;
  }

  /** Particles below y = 0 go back onto it; the ground's friction takes at most μ times the normal impulse. */
  private ground(dt: number): void {
    const tr = this.tree, x = this.position, v = this.velocity, mu = this.settings.groundFriction, a = this.elastic.acceleration;
    for (let i = 0; i < tr.count; i++) {
      if (tr.pinned[i] || x[3 * i + 1] >= 0) continue;
      x[3 * i + 1] = 0;
      if (a[3 * i + 1] < 0) a[3 * i + 1] = 0; // the ground holds what pushed it down
      const dvn = max(0, -v[3 * i + 1]) + this.settings.gravity * dt;
      if (v[3 * i + 1] < 0) v[3 * i + 1] = 0;
      const vt = sqrt(v[3 * i] ** 2 + v[3 * i + 2] ** 2);
      const s = vt > 0 ? max(0, 1 - (mu * dvn) / vt) : 0;
      v[3 * i] *= s;
      v[3 * i + 2] *= s;
    }
  }

  /** What the stats show. */
  counts(): SphCounts {
    return { windParticles: this.wind.count, treeParticles: this.tree.count, ...this.breaking.counts };
  }

  /** "Restore tree": every link back, the tree at rest in its rest shape, leaves untumbled. The wind runs on. */
  restore(): void {
    this.breaking.restore();
    this.position.set(this.tree.restPosition);
    this.velocity.fill(0);
    this.elastic.reset();
    this.leafAngle.fill(0);
  }
}
