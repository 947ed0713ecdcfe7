/**
 * Wind primitives (Zioma 2007 §6.3.1: v = G(x, t), analytic, local) that WindField.sample() adds
 * on top of the mean wind and the turbulence. Outside the GPU contract: a GPU method that wants
 * them evaluates them itself (they are pure functions too).
 */
import { smoothstep } from "./hash";
import type { Vec } from "./turbulence";

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt, exp, min } = Math;

/** An analytic local wind v = G(x, t) (Zioma 2007 §6.3.1), added to out[offset..offset+2]. Pure; must not allocate. */
export interface WindPrimitive {
  add(x: number, y: number, z: number, t: number, out: Vec, offset: number): void;
}

function fadeWindow(t: number, start: number, duration: number, fade: number): number {
  if (t <= start || t >= start + duration) return 0;
  const f = min(1, (t - start) / fade, (start + duration - t) / fade);
  return smoothstep(f);
}

/** A vortex around a vertical axis at (x, z): tangential speed peaks at `radius`, decays as 1/r beyond. */
export class Vortex implements WindPrimitive {
  constructor(
    public x: number,
    public z: number,
    /** m */
    public radius: number,
    /** m/s at the radius; positive blows along (-dz, dx) for an offset (dx, dz) from the centre. */
    public speed: number,
    /** s: active from start for duration, fading in and out over 1 s. */
    public start = -Infinity,
    public duration = Infinity,
  ) {}

  add(x: number, _y: number, z: number, t: number, out: Vec, offset: number): void {
    const win = Number.isFinite(this.start) ? fadeWindow(t, this.start, this.duration, 1) : 1;
    if (win === 0) return;
    const dx = x - this.x, dz = z - this.z;
    const r2 = dx * dx + dz * dz;
    if (r2 === 0) return;
    const r = sqrt(r2);
    const q = r / this.radius;
    const v = (win * this.speed * 2 * q) / (1 + q * q); // peak `speed` at r = radius
    out[offset] += (-dz / r) * v;
    out[offset + 2] += (dx / r) * v;
  }
}

/** A blast at (x, z) at time `time`: a radial front moving out at `frontSpeed`, Gaussian of `width`, decaying with `decay` s. */
export class Blast implements WindPrimitive {
  constructor(
    public x: number,
    public z: number,
    public time: number,
    /** m/s at the front */
    public peak: number,
    public frontSpeed = 30,
    public width = 3,
    public decay = 1.5,
  ) {}

  add(x: number, _y: number, z: number, t: number, out: Vec, offset: number): void {
    const age = t - this.time;
    if (age < 0) return;
    const dx = x - this.x, dz = z - this.z;
    const r2 = dx * dx + dz * dz;
    if (r2 === 0) return;
    const r = sqrt(r2);
    const e = (r - this.frontSpeed * age) / this.width;
    const v = this.peak * exp(-e * e - age / this.decay);
    out[offset] += (dx / r) * v;
    out[offset + 2] += (dz / r) * v;
  }
}
