/**
 * The wind's push on a piece of wood, shared by the CPU methods (lsystem-particles, mass-spring):
 * drag of a cylinder across the flow, F = ½ ρ C_d (2 r L) |u⊥| u⊥, u⊥ the air's velocity past it
 * less its part along the cylinder's axis (which pushes nothing). Plain TypeScript, no Babylon.
 */

// Math's members read once: in jest's vm context every read of the global `Math` is slow (see wind-field.ts).
const { sqrt } = Math;

/** Air density, kg/m³. */
export const AIR_DENSITY = 1.225;
/** Drag coefficient of a cylinder across the flow. */
export const CYLINDER_DRAG = 1.2;
/** Standard gravity, m/s². */
export const G = 9.81;
/** Density of green wood, kg/m³. */
export const WOOD_DENSITY = 700;

/** ½ ρ C_d (2 r L): the factor of |u⊥| u⊥ for a cylinder of radius r and length L. */
export function cylinderDragFactor(radius: number, length: number): number {
  return 0.5 * AIR_DENSITY * CYLINDER_DRAG * 2 * radius * length;
}

/**
 * Drag force k |u⊥| u⊥ on a cylinder along (bx, by, bz) (any length) in air moving at (ux, uy, uz)
 * relative to it, written to out[o..o+2]. Allocation free.
 */
export function crossFlowDrag(k: number, ux: number, uy: number, uz: number, bx: number, by: number, bz: number, out: Float64Array, o: number): void {
  const b2 = bx * bx + by * by + bz * bz;
  if (b2 > 0) {
    const along = (ux * bx + uy * by + uz * bz) / b2;
    ux -= along * bx;
    uy -= along * by;
    uz -= along * bz;
  }
  const s = k * sqrt(ux * ux + uy * uy + uz * uz);
  out[o] = s * ux;
  out[o + 1] = s * uy;
  out[o + 2] = s * uz;
}

/** The material's constants the drag needs (app/physics/material.ts's PhysicalMaterial has them). */
export interface DragConstants {
  /** ρ of the air, kg/m³. */
  readonly airDensity: number;
  /** C_d of a branch as a cylinder across the flow. */
  readonly dragCoefficient: number;
  /** C_d A of one leaf, m². */
  readonly leafDragArea: number;
}

/** ½ ρ C_d (2 r): the factor of |u⊥| u⊥ per unit length of a branch of radius r, for a material. */
export function branchDragPerLength(m: DragConstants, radius: number): number {
  return m.airDensity * m.dragCoefficient * radius;
}

/**
 * One leaf's drag ½ ρ (C_d A) |u| u (the whole air velocity: a leaf has no axis that lets air past),
 * written to out[o..o+2]. Allocation free.
 */
export function leafDrag(m: DragConstants, ux: number, uy: number, uz: number, out: Float64Array, o: number): void {
  const s = 0.5 * m.airDensity * m.leafDragArea * sqrt(ux * ux + uy * uy + uz * uz);
  out[o] = s * ux;
  out[o + 1] = s * uy;
  out[o + 2] = s * uz;
}
