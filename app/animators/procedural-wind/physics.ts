/**
 * What the calibrated procedural-wind method knows of the physical tree, precomputed once per tree
 * and material (Zioma 2007 §6.4: "wind field state, bone hierarchy, and tree parameters are the
 * only required input"; these are the tree parameters). All from the shared physics: the drag of
 * app/wind/drag.ts distributed along every element with the leaves' drag on their branch
 * (app/physics/reference/loads.ts), the tapered beam frame and its O(n) static solve.
 *
 * - the static tip deflection of every branch in a steady 10 m/s wind along +x and along +z (the
 *   "amplitude modifiers" §6.3.3 asks for: Ota 2003's stiffness, here the beam's exact compliance);
 * - the tip deflection under a unit sideways acceleration of the tree's own mass along x and z,
 *   from which each branch's natural frequency follows (Rayleigh: ω² ≈ 1.545 a / δ, the uniform
 *   cantilever's ratio of its first mode to its tip deflection under its own weight);
 * - the first mode's frequency (inverse iteration over the same static solve, Rayleigh quotient)
 *   and its aerodynamic damping per m/s of mean wind: the drag of the wind relative to the moving
 *   wood, F = k |u - v| (u - v), linearised about the mean wind U, is a damper 2 k U on the motion
 *   along the wind; projected on the mode, ζ_air = c* / (2 m* ω).
 * Plain TypeScript over typed arrays, no Babylon.
 */
import { ReferenceTree } from "../../physics/reference";
import type { PhysicalMaterial } from "../../physics/material";
import { tipNode, type TreeSkeleton } from "../../tree/skeleton";

/** Wind speed of the precomputed static solves, m/s (the response scales with its square). */
export const CALIBRATION_SPEED = 10;

export interface TreeResponse {
  /** Per branch, xyz of its tip's static displacement in a steady CALIBRATION_SPEED wind along +x, m. */
  readonly windX: Float64Array;
  /** The same along +z. */
  readonly windZ: Float64Array;
  /** Per branch, xyz of its tip's displacement under a unit acceleration (1 m/s²) of all the wood along +x, m. */
  readonly inertiaX: Float64Array;
  /** The same along +z. */
  readonly inertiaZ: Float64Array;
  /** The first mode's frequency, Hz. */
  readonly firstHz: number;
  /** The first mode's aerodynamic damping ratio per m/s of mean wind. */
  readonly airZetaPerSpeed: number;
}

/** The tree's response (see the file's comment). O(n) solves and one tree walk. */
export function treeResponse(skeleton: TreeSkeleton, material: PhysicalMaterial): TreeResponse {
  const ref = new ReferenceTree(skeleton, material);
  const fr = ref.frame, nb = skeleton.branchCount, nd = fr.dofCount;
  const windX = ref.staticDeflection(CALIBRATION_SPEED, 1, 0);
  const windZ = ref.staticDeflection(CALIBRATION_SPEED, 0, 1);
  const e = new Float64Array(nd), load = new Float64Array(nd), u = new Float64Array(nd);
  const tips = (dofs: Float64Array): Float64Array => {
    const out = new Float64Array(3 * nb);
    for (let b = 0; b < nb; b++) {
      const j = 6 * fr.nodeJoint[tipNode(skeleton, b)];
      out[3 * b] = dofs[j]; out[3 * b + 1] = dofs[j + 1]; out[3 * b + 2] = dofs[j + 2];
    }
    return out;
  };
  const unitAcceleration = (axis: number): Float64Array => {
    e.fill(0);
    for (let j = 1; j < fr.jointCount; j++) e[6 * j + axis] = 1;
    fr.massTimes(e, load);
    ref.solver.solve(load, u);
    return tips(u);
  };
  const inertiaZ = unitAcceleration(2);
  const inertiaX = unitAcceleration(0);
  // u now holds K⁻¹ M e_x; two more steps of inverse iteration, then the Rayleigh quotient
  // ω² = uᵀ K u / uᵀ M u with K u = M u_previous.
  const mu = new Float64Array(nd);
  let omega2 = 0;
  for (let it = 0; it < 3; it++) {
    fr.massTimes(u, load);
    let norm = 0;
    for (let i = 0; i < nd; i++) norm += u[i] * load[i];
    const s = 1 / Math.sqrt(norm);
    for (let i = 0; i < nd; i++) { u[i] *= s; load[i] *= s; }
    ref.solver.solve(load, u);
    fr.massTimes(u, mu);
    let num = 0, den = 0;
    for (let i = 0; i < nd; i++) { num += u[i] * load[i]; den += u[i] * mu[i]; }
    omega2 = num / den;
  }
  const omega = Math.sqrt(omega2);
  // Modal mass and the air's damper on the mode (per m/s of a wind along x, the mode's direction).
  let mStar = 0;
  for (let i = 0; i < nd; i++) mStar += u[i] * mu[i];
  let cStar = 0;
  const ax = fr.axis, par = fr.jointParent;
  for (let j = 1; j < fr.jointCount; j++) {
    const L = fr.length[j];
    if (L === 0) continue;
    const tx = ax[3 * j];
    const r = 0.5 * (fr.radiusA[j] + fr.radiusB[j]);
    const v = 0.5 * (u[6 * j] + u[6 * par[j]]);
    // d/dv of k |u⊥| u⊥ along x for a cylinder along t: about 2 k U (1 - t_x²) (drag.ts's k = ρ C_d r per length).
    cStar += 2 * material.airDensity * material.dragCoefficient * r * L * (1 - tx * tx) * v * v;
  }
  // A leaf's drag ½ ρ (C_d A) |u| u: d/dv = ρ C_d A U, at the node nearest its place on the branch.
  for (let i = 0; i < skeleton.leafCount; i++) {
    const b = skeleton.leafBranch[i], first = skeleton.branchFirstNode[b];
    const k = first + Math.round(skeleton.leafX[i] * (skeleton.branchNodeCount[b] - 1));
    const v = u[6 * fr.nodeJoint[k]];
    cStar += material.airDensity * material.leafDragArea * v * v;
  }
  return {
    windX, windZ, inertiaX, inertiaZ,
    firstHz: omega / (2 * Math.PI),
    airZetaPerSpeed: mStar > 0 && omega > 0 ? cStar / (2 * mStar * omega) : 0,
  };
}
