/**
 * Calibrated lsystem-particles: every rod's turn measured at its joint, from the frame its parent
 * rod's end carries (particles.ts, "Joints"). Each rod's state is its bend, the rotation of its
 * chord from rest in that frame; a rod's world rotation, and the frame at its own end that its
 * children turn from, follow from the bends from the root out:
 *   Q_i = P_p B_i,   P_i = P_p B_i^κ_i,   P_root = 1,
 * κ_i the rod's end turn over its chord's (beam.ts: 4/3 to 2 for a uniform rod, a tip load 3/2).
 * Angular velocities alike: a rod's chord turns at Ω_p + P_p ω_i, its end at Ω_p + κ_i P_p ω_i
 * (ω_i its bend's rate, in the parent's frame). Plain TypeScript over typed arrays, no Babylon.
 */
import { divQuat, mulQuat, powQuat, rotateVec, unrotateVec } from "./quat";

/** The joint state of a tree of rods (rod i from particle parent[i] to particle i; 0 the root). */
export interface JointState {
  readonly parent: Int32Array;
  /** κ per rod (index 0 unused). */
  readonly endRatio: Float64Array;
  /** Per rod: its bend B_i (quaternion, 4 per particle). */
  readonly bend: Float64Array;
  /** Per rod: the frame P_i at its end (4 per particle; the root's stays 1). */
  readonly frame: Float64Array;
  /** Per rod: its chord's and its end's angular velocity, world axes (3 per particle; the root's stay 0). */
  readonly spin: Float64Array;
  readonly spinEnd: Float64Array;
}

const tmp = new Float64Array(4);
const vec = { bx: 0, by: 0, bz: 0 };

/** World rotations Q (into `rotation`), end frames and spins from the bends and their rates `omega` (parent frames). */
export function composeJoints(j: JointState, omega: Float64Array, rotation: Float64Array): void {
  const par = j.parent, P = j.frame, B = j.bend, S = j.spin, SE = j.spinEnd, kappa = j.endRatio;
  for (let i = 1; i < par.length; i++) {
    const p = par[i], o = 3 * i, q = 3 * p;
    mulQuat(P, 4 * p, B, 4 * i, rotation, 4 * i);
    powQuat(B, 4 * i, kappa[i], tmp, 0);
    mulQuat(P, 4 * p, tmp, 0, P, 4 * i);
    rotateVec(P, 4 * p, omega[o], omega[o + 1], omega[o + 2], vec);
    const k = kappa[i];
    S[o] = SE[q] + vec.bx;
    S[o + 1] = SE[q + 1] + vec.by;
    S[o + 2] = SE[q + 2] + vec.bz;
    SE[o] = SE[q] + k * vec.bx;
    SE[o + 1] = SE[q + 1] + k * vec.by;
    SE[o + 2] = SE[q + 2] + k * vec.bz;
  }
}

/**
 * The inverse of composeJoints: bends from world rotations, and `omega` from world angular
 * velocities to the bends' rates in place (for a switch from the paper's world-fixed rods).
 */
export function decomposeJoints(j: JointState, omega: Float64Array, rotation: Float64Array): void {
  const par = j.parent, P = j.frame, B = j.bend, S = j.spin, SE = j.spinEnd, kappa = j.endRatio;
  for (let i = 1; i < par.length; i++) {
    const p = par[i], o = 3 * i, q = 3 * p, k = kappa[i];
    divQuat(P, 4 * p, rotation, 4 * i, B, 4 * i);
    powQuat(B, 4 * i, k, tmp, 0);
    mulQuat(P, 4 * p, tmp, 0, P, 4 * i);
    for (let c = 0; c < 3; c++) {
      S[o + c] = omega[o + c];
      omega[o + c] -= SE[q + c];
      SE[o + c] = SE[q + c] + k * omega[o + c];
    }
    unrotateVec(P, 4 * p, omega, o);
  }
}

/** v (3 per rod, world axes) into each rod's parent frame P_p, in place. */
export function toParentFrames(j: JointState, v: Float64Array): void {
  const par = j.parent;
  for (let i = 1; i < par.length; i++) unrotateVec(j.frame, 4 * par[i], v, 3 * i);
}
