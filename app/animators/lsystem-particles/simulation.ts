/**
 * Barron's tree in the shared wind, in time: the particle dynamics (particles.ts) stepped at the
 * time step the person chose, the wind force of every rod from the shared WindField, and the
 * shown state. Plain TypeScript, no Babylon.
 *
 * Wind (§5.1.1). "A turbulence factor is added to the wind force ... The turbulence T varies
 * across time-steps to simulate temporal variance in the wind, with a small scalar factor t
 * applied per particle to simulate spatial variance". The shared field already varies in time and
 * space (gusts, frozen turbulence carried by the mean wind); each particle scales its fluctuation
 * about the mean by its own seeded factor 1 + t, t uniform in ±spread. The force on a rod is the
 * drag of a cylinder across the flow (app/wind/drag.ts, the tree's material), ½ ρ C_d (2 r) L |u⊥| u⊥,
 * u⊥ the wind less its part along the rod (which pushes nothing).
 *
 * Calibrated (the default): u is the wind relative to the moving rod at mid-rod (the mean of its
 * two ends' wind and velocity: motion against the wind is damped by the air), r the rod's mean
 * radius, and the load is distributed along the rod: half at each end particle, so that its torque
 * about the base is the distributed load's (centre of pressure at mid-rod). Each leaf's drag,
 * ½ ρ (C_d A) |u| u with the wind relative to the particle carrying it, acts on that particle.
 * Paper-literal: the rod's whole drag at its tip particle, in the absolute wind there, no leaves.
 *
 * Time (§6.1, "the time step slider"). A step no longer than the host's frame is an integration
 * step: each frame takes ceil(frame / step) equal steps, in lockstep with the host's clock. A
 * longer step advances the simulation less often than the frames come; the frames in between show
 * the last two states blended (rotations by normalised lerp), one step behind.
 */
import type { WindField, WindGpuState } from "../../wind/wind-field";
import type { Rng } from "../../math/rng";
import { branchDragPerLength, crossFlowDrag, leafDrag } from "../../wind/drag";
import { defaultMaterial, type PhysicalMaterial } from "../../physics/material";
import { ParticleDynamics, type DynamicsSettings, type ParticleTree } from "./particles";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, max, ceil, hypot } = Math;

export interface SimulationSettings extends DynamicsSettings {
  /** Integration step, seconds. */
  timeStep: number;
  /** Spread of the per-particle turbulence factor: t uniform in ±spread. */
  spatial: number;
}

/** A step up to 2 % longer than asked keeps whole steps per frame (16.5 ms at 60 fps: one step). */
export const LOCKSTEP_SLACK = 1.02;

export class BarronSimulation {
  readonly dynamics: ParticleDynamics;
  /** What to draw: positions and rotations at the shown time (the dynamics' own, or a blend). */
  readonly shownPositions: Float64Array;
  readonly shownRotations: Float64Array;
  private readonly prevPositions: Float64Array;
  private readonly prevRotations: Float64Array;
  /** ½ ρ C_d (2 r) L of each rod (r: the particle's radius paper-literal, the rod's mean calibrated). */
  private readonly drag: Float64Array;
  /** The wind at every particle this step (calibrated), xyz. */
  private readonly windAt: Float64Array;
  private readonly scratch = new Float64Array(3);
  private material: PhysicalMaterial;
  /** Uniform in [-1, 1) per particle, times `spatial`. */
  private readonly spread: Float64Array;
  private settings: SimulationSettings;
  private readonly gpu: WindGpuState = { dirX: 1, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 };
  private readonly u = new Float64Array(3);
  /** Simulated time of the dynamics' state, seconds. */
  private simTime = 0;
  /** Time the shown state stands for. */
  private shownTime = 0;
  private stepsLastUpdate = 0;

  /** `startTime`: the host clock's time now (the wind is sampled on the host's time line). */
  constructor(readonly tree: ParticleTree, private readonly wind: WindField, settings: SimulationSettings, rng: Rng, startTime = 0) {
    checkSettings(settings);
    this.settings = { ...settings };
    this.dynamics = new ParticleDynamics(tree, settings);
    this.shownPositions = Float64Array.from(this.dynamics.current);
    this.shownRotations = Float64Array.from(this.dynamics.rotation);
    this.prevPositions = Float64Array.from(this.dynamics.current);
    this.prevRotations = Float64Array.from(this.dynamics.rotation);
    this.drag = new Float64Array(tree.count);
    this.windAt = new Float64Array(3 * tree.count);
    this.material = settings.material ?? defaultMaterial();
    this.dragFactors();
    this.spread = new Float64Array(tree.count);
    const r = rng.fork(0xba77);
    for (let i = 0; i < tree.count; i++) this.spread[i] = r.range(-1, 1);
    this.simTime = this.shownTime = startTime;
  }

  configure(settings: SimulationSettings): void {
    checkSettings(settings);
    this.settings = { ...settings };
    this.material = settings.material ?? defaultMaterial();
    this.dragFactors();
    this.dynamics.configure(settings);
  }

  private dragFactors(): void {
    const t = this.tree, literal = this.settings.paperLiteral === true;
    for (let i = 1; i < t.count; i++) {
      const r = literal ? t.radius[i] : 0.5 * (t.radius[i] + t.baseRadius[i]);
      this.drag[i] = branchDragPerLength(this.material, r) * t.length[i];
    }
  }

  /** Steps the dynamics took in the last update. */
  get steps(): number {
    return this.stepsLastUpdate;
  }

  get time(): number {
    return this.shownTime;
  }

  /** Advances by one host frame of dt seconds. */
  update(dt: number): void {
    const h = this.settings.timeStep;
    const d = this.dynamics;
    let steps = 0;
    if (h <= dt * LOCKSTEP_SLACK) {
      // Lockstep with the host: equal steps no longer than h (give or take the slack).
      const n = max(1, ceil(dt / (h * LOCKSTEP_SLACK) - 1e-9));
      const hh = dt / n;
      for (let k = 0; k < n; k++) {
        this.applyWind(this.simTime);
        d.step(hh);
        this.simTime += hh;
      }
      steps = n;
      this.shownTime = this.simTime;
      this.shownPositions.set(d.current);
      this.shownRotations.set(d.rotation);
    } else {
      // Longer steps than frames: step when the shown time passes the state's, blend in between.
      this.shownTime += dt;
      while (this.simTime < this.shownTime + 1e-9) {
        this.prevPositions.set(d.current);
        this.prevRotations.set(d.rotation);
        this.applyWind(this.simTime);
        d.step(h);
        this.simTime += h;
        steps++;
      }
      this.blend(1 - (this.simTime - this.shownTime) / h);
    }
    this.stepsLastUpdate = steps;
  }

  /** Shown = prev + f (current - prev), rotations by normalised lerp. */
  private blend(f: number): void {
    const C = this.dynamics.current, q = this.dynamics.rotation, pc = this.prevPositions, pq = this.prevRotations;
    const sc = this.shownPositions, sq = this.shownRotations;
    for (let i = 0; i < C.length; i++) sc[i] = pc[i] + f * (C[i] - pc[i]);
    for (let i = 0; i < q.length; i += 4) {
      const w = pq[i] + f * (q[i] - pq[i]), x = pq[i + 1] + f * (q[i + 1] - pq[i + 1]);
      const y = pq[i + 2] + f * (q[i + 2] - pq[i + 2]), z = pq[i + 3] + f * (q[i + 3] - pq[i + 3]);
      const l = 1 / sqrt(w * w + x * x + y * y + z * z);
      sq[i] = w * l; sq[i + 1] = x * l; sq[i + 2] = y * l; sq[i + 3] = z * l;
    }
  }

  /** F_W of every rod at time t into dynamics.windForce. */
  private applyWind(t: number): void {
    const w = this.wind, g = w.gpuState(t, this.gpu);
    const mx = g.strength * g.dirX, my = g.vertical, mz = g.strength * g.dirZ;
    const C = this.dynamics.current, F = this.dynamics.windForce, u = this.u, drag = this.drag, spread = this.spread, par = this.tree.parent;
    const spatial = this.settings.spatial;
    const still = mx === 0 && my === 0 && mz === 0 && w.primitives.length === 0; // no mean wind: no wind at all (WindField's contract)
    if (this.settings.paperLiteral !== true) {
      this.relativeWind(t, still, mx, my, mz);
      return;
    }
    if (still) {
      F.fill(0);
      return;
    }
    for (let i = 1; i < this.tree.count; i++) {
      w.sample(C[3 * i], C[3 * i + 1], C[3 * i + 2], t, u);
      // §5.1.1: the particle's own factor on the fluctuation about the mean.
      const f = 1 + spatial * spread[i];
      const p = par[i];
      crossFlowDrag(
        drag[i], mx + f * (u[0] - mx), my + f * (u[1] - my), mz + f * (u[2] - mz),
        C[3 * i] - C[3 * p], C[3 * i + 1] - C[3 * p + 1], C[3 * i + 2] - C[3 * p + 2], F, 3 * i,
      );
    }
  }

  /** Calibrated F_W: each rod's drag in the wind relative to it, half at each end; the leaves' on their particles. */
  private relativeWind(t: number, still: boolean, mx: number, my: number, mz: number): void {
    const w = this.wind, d = this.dynamics, C = d.current, V = d.velocity, F = d.windForce, U = this.windAt, rate = d.windRate;
    const tree = this.tree, par = tree.parent, leaves = tree.leaves, drag = this.drag, spread = this.spread, sc = this.scratch;
    const spatial = this.settings.spatial, m = this.material;
    const u = this.u;
    F.fill(0);
    rate.fill(0);
    for (let i = 0; i < tree.count; i++) {
      const o = 3 * i;
      if (still) {
        U[o] = U[o + 1] = U[o + 2] = 0;
        continue;
      }
      w.sample(C[o], C[o + 1], C[o + 2], t, u);
      // §5.1.1: the particle's own factor on the fluctuation about the mean.
      const f = 1 + spatial * spread[i];
      U[o] = mx + f * (u[0] - mx);
      U[o + 1] = my + f * (u[1] - my);
      U[o + 2] = mz + f * (u[2] - mz);
    }
    for (let i = 1; i < tree.count; i++) {
      const o = 3 * i, p = par[i], q = 3 * p;
      // Mid-rod: the mean of the ends' wind less the mean of their velocities.
      crossFlowDrag(
        drag[i],
        0.5 * (U[o] + U[q] - V[o] - V[q]), 0.5 * (U[o + 1] + U[q + 1] - V[o + 1] - V[q + 1]), 0.5 * (U[o + 2] + U[q + 2] - V[o + 2] - V[q + 2]),
        C[o] - C[q], C[o + 1] - C[q + 1], C[o + 2] - C[q + 2], sc, 0,
      );
      F[o] += 0.5 * sc[0];
      F[o + 1] += 0.5 * sc[1];
      F[o + 2] += 0.5 * sc[2];
      F[q] += 0.5 * sc[0];
      F[q + 1] += 0.5 * sc[1];
      F[q + 2] += 0.5 * sc[2];
      // Its fall with the rod's own turn along the flow, d/dv of k |u| u = 2 k |u|, over the rod
      // (∫ (2 k |u| / L) s² ds = (2 k |u| / 3) L²): 2 k |u| / 3 at the particle.
      const ur = hypot(0.5 * (U[o] + U[q] - V[o] - V[q]), 0.5 * (U[o + 1] + U[q + 1] - V[o + 1] - V[q + 1]), 0.5 * (U[o + 2] + U[q + 2] - V[o + 2] - V[q + 2]));
      rate[i] += (2 * drag[i] * ur) / 3;
      if (leaves[i] > 0) {
        const lx = U[o] - V[o], ly = U[o + 1] - V[o + 1], lz = U[o + 2] - V[o + 2];
        leafDrag(m, lx, ly, lz, sc, 0);
        F[o] += leaves[i] * sc[0];
        F[o + 1] += leaves[i] * sc[1];
        F[o + 2] += leaves[i] * sc[2];
        rate[i] += leaves[i] * m.airDensity * m.leafDragArea * hypot(lx, ly, lz);
      }
    }
  }

  /** Back to rest at time t. */
  reset(t = 0): void {
    this.dynamics.reset();
    this.simTime = this.shownTime = t;
    for (const a of [this.shownPositions, this.prevPositions]) a.set(this.dynamics.current);
    for (const a of [this.shownRotations, this.prevRotations]) a.set(this.dynamics.rotation);
  }
}

function checkSettings(s: SimulationSettings): void {
  if (!(s.timeStep > 0 && s.timeStep <= 1)) throw new RangeError(`time step must be above 0 and at most 1 s; got ${s.timeStep}`);
  if (!(s.spatial >= 0 && s.spatial <= 1)) throw new RangeError(`spatial turbulence spread must be from 0 to 1; got ${s.spatial}`);
}
