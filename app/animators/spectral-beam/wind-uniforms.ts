/**
 * The spectral-beam uniforms that follow the wind each frame (Habel, Kusternig and Wimmer 2009
 * §5.5 and §7.2): the mean and turbulent drag, the leaf flutter strength, and the leaves' three
 * projection planes (turned away from rational slopes, weighted by eq. 24, moved by -W t).
 * The mean wind is the WindField's at the tree's foot (`foot`, world space: its gusts as they reach
 * the tree) plus the wind primitives' at its crown (`at`: a blast, vortex or fan nearby): the shader reads
 * only the contract's uniforms, so whatever the primitives add at the crown joins the mean drag
 * (eqs. 18, 19) and the leaves' flutter, every frame.
 */
import type { WindGpuState } from "../../wind/wind-field";
import { REFERENCE_WIND_SPEED } from "./layout";
import { isNearRational, leafMetresPerUnit } from "./motion";
import type { SpectralBeamParams } from "./params";

/** What the twin needs of the WindField: the state the GPU gets, and the settings' mean speed. */
export interface WindSource {
  /** The contract's uniforms at time t for a tree standing at (x, z). */
  gpuState(t: number, out: WindGpuState, x?: number, z?: number): unknown;
  /** The wind primitives' part alone at a point (WindField.primitivesAt); whether there are any. */
  primitivesAt?(x: number, y: number, z: number, t: number, out: Float64Array): boolean;
  /** The mean wind speed setting, m/s (eq. 14's v_m). */
  readonly meanSpeed: number;
}

export class WindUniforms {
  private readonly gpu: WindGpuState = { dirX: 1, dirZ: 0, strength: 0, vertical: 0, turbulenceAmplitude: 0, advection: 0 };
  private readonly planeAngle = new Float64Array(3);
  private planeWindX = NaN;
  private planeWindZ = NaN;
  /** Where the tree feels the primitives: its crown, world space (the twin sets it). */
  readonly at = new Float64Array(3);
  /** Where the gusts reach the tree: its foot (x, z), world space. */
  readonly foot = new Float64Array(2);
  private readonly local = new Float64Array(3);

  /** Writes the uniforms at time t into u (layout.ts, UNIFORM_FLOATS): all but u0.w, the selected branch. */
  write(u: Float32Array, t: number, wind: WindSource, p: SpectralBeamParams, motionSize: number, maxLeafSize: number): void {
    const g = this.gpu, at = this.at, local = this.local;
    wind.gpuState(t, g, this.foot[0], this.foot[1]);
    const v = g.strength, vertical = g.vertical;
    // The primitives at the crown, added to the mean wind (their horizontal part also to the flutter).
    const primitives = wind.primitivesAt?.(at[0], at[1], at[2], t, local) === true && (local[0] !== 0 || local[1] !== 0 || local[2] !== 0);
    u[0] = t;
    u[1] = motionSize;
    u[2] = p.lengthCorrection ? 1 : 0;
    // The mean drag ~ |M| M of the 3D mean wind M = v d + vertical up (eqs. 18, 19 project it onto
    // r and s): an updraft lifts the branches across it. With no vertical wind M = v d exactly.
    let flutterSpeed = Math.abs(v);
    if (primitives) {
      const mx = v * g.dirX + local[0], my = vertical + local[1], mz = v * g.dirZ + local[2];
      const m = Math.sqrt(mx * mx + my * my + mz * mz);
      if (m > 0) { u[4] = mx / m; u[5] = my / m; u[6] = mz / m; } else { u[4] = g.dirX; u[5] = 0; u[6] = g.dirZ; }
      u[7] = m * m;
      flutterSpeed = Math.hypot(mx, mz);
    } else if (vertical === 0) {
      u[4] = g.dirX; u[5] = 0; u[6] = g.dirZ;
      u[7] = v * Math.abs(v);
    } else {
      const m = Math.sqrt(v * v + vertical * vertical); // |d| = 1
      u[4] = (v * g.dirX) / m; u[5] = vertical / m; u[6] = (v * g.dirZ) / m;
      u[7] = m * m;
    }
    // Fluctuating drag ~ 2 v u': the turbulence rides on the horizontal wind (WindField: turbulence
    // amplitude = turbulence × strength), so v here is the horizontal strength.
    u[8] = 2 * Math.abs(v) * g.turbulenceAmplitude;
    u[9] = p.leafless ? 0 : p.flutter * Math.min(2, flutterSpeed / REFERENCE_WIND_SPEED);
    const D = leafMetresPerUnit(maxLeafSize, motionSize);
    u[10] = 1 / D;
    u[11] = p.leafless ? 1 : 0;
    this.choosePlaneAngles(g.dirX, 0, g.dirZ);
    for (let p = 0; p < 3; p++) {
      const c = Math.cos(this.planeAngle[p]), sn = Math.sin(this.planeAngle[p]);
      const o = p < 2 ? 12 + 2 * p : 16;
      u[o] = c; u[o + 1] = sn;
    }
    // eq. 24: a plane's texture is weighted by how much of the wind lies in it, normalised so the
    // amplitude does not depend on the wind direction.
    const W = Math.hypot(g.dirX, g.dirZ);
    let wxy = 1, wxz = 1, wyz = 1;
    if (W > 0) {
      wxy = 1 - Math.abs(g.dirZ) / W;
      wyz = 1 - Math.abs(g.dirX) / W;
      wxz = 1; // W_y = 0
    }
    const sum = wxy + wxz + wyz;
    u[18] = wxy / sum; u[19] = wxz / sum; u[20] = wyz / sum;
    u[21] = u[22] = u[23] = 0;
    // -W t projected on the planes, rotated, in texture units, wrapped (float32 precision).
    const ax = g.advection * g.dirX, az = g.advection * g.dirZ;
    this.planeOffset(0, ax, 0, u, 24);
    this.planeOffset(1, ax, az, u, 26);
    this.planeOffset(2, 0, az, u, 28);
    u[30] = u[31] = 0;
  }

  private planeOffset(plane: number, a: number, b: number, out: Float32Array, o: number): void {
    const c = Math.cos(this.planeAngle[plane]), s = Math.sin(this.planeAngle[plane]);
    const inv = out[10]; // 1 / metres per leaf-texture unit, written before the offsets
    const x = (c * a - s * b) * inv, y = (s * a + c * b) * inv;
    out[o] = x - Math.floor(x);
    out[o + 1] = y - Math.floor(y);
  }

  /**
   * §7.2: "the same measures against periodicity should be taken for the wind vector as in §5.3":
   * each plane's texture is turned so the wind's path through it has a slope far from any rational
   * with a small denominator (a rational slope would close on itself and repeat).
   */
  private choosePlaneAngles(wx: number, wy: number, wz: number): void {
    if (wx === this.planeWindX && wz === this.planeWindZ) return;
    this.planeWindX = wx;
    this.planeWindZ = wz;
    const planes = [[wx, wy], [wx, wz], [wy, wz]];
    for (let p = 0; p < 3; p++) {
      let angle = 0.37 + 0.61 * p;
      const [a, b] = planes[p];
      for (let k = 0; k < 64; k++) {
        const c = Math.cos(angle), s = Math.sin(angle);
        const x = c * a - s * b, y = s * a + c * b;
        if (Math.hypot(x, y) < 1e-9 || (!isNearRational(x / y) && !isNearRational(y / x))) break;
        angle += 0.0731;
      }
      this.planeAngle[p] = angle;
    }
  }
}
