/**
 * One seeded WindField for all methods (ARCHITECTURE.md, "The wind"). CONTRACT STUB: the
 * wind helper replaces the bodies; the signatures are what the rest of the app uses.
 */

/** What a person sets. direction: the way the wind blows, degrees, 0 toward +x, 90 toward +z. */
export interface WindSettings {
  /** Mean speed, m/s, 0 to 40. */
  speed: number;
  /** Degrees, 0 to 360: 0 blows toward +x, 90 toward +z. */
  direction: number;
  /** Turbulence intensity 0 to 1 (standard deviation of the fluctuation over the mean speed). */
  turbulence: number;
  /** Gust strength 0 to 1. */
  gust: number;
  /** Seed of the wind's randomness (integer). */
  seed: number;
}

/** What a GPU method uploads as uniforms each frame (with the turbulence texture). */
export interface WindGpuState {
  /** Unit vector the wind blows toward, xz. */
  dirX: number;
  dirZ: number;
  /** Mean speed times slow modulation times gust factor at time t, m/s (no turbulence). */
  strength: number;
  /** Scale of the turbulence texture's values, m/s. */
  turbulenceAmplitude: number;
  /** Metres the frozen turbulence pattern has travelled along the wind by time t. */
  advection: number;
}

export class WindField {
  constructor(_settings: WindSettings) {
    throw new Error("WindField: not written yet");
  }
}
