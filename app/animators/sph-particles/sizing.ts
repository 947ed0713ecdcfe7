/**
 * How big the particle tree may be, and what the damping slider means for it. Plain TypeScript,
 * no Babylon.
 *
 * - Under a budget of tree particles, a big tree's leaves go in groups (leaf-groups.ts: at most
 *   LEAF_SHARE of the budget) and its bone spacing grows from the spacing asked in 15 % steps until
 *   the tree fits. A tree that cannot fit (every branch keeps one station and a ring of three: the
 *   Habel-scale tree's 1,500 branches are 6,000 particles at any spacing) stops at the first
 *   spacing within 5 % of the fewest it can have, rather than a 2 m spacing that would draw its
 *   trunk with three stations.
 * - The damping slider: ζ of the first mode (app/physics/damping.ts). Stiffness-proportional
 *   damping β gives a mode of ω the damping ratio β ω / 2, so β = 2 ζ / ω₁, ω₁ the reference beam
 *   frame's first mode (inverse iteration on its O(n) static solve). The HHT-α step adds under
 *   0.002 of its own at the frame's dt (elasticity.ts).
 */
import type { TreeSkeleton } from "../../tree/skeleton";
import type { PhysicalMaterial } from "../../physics/material";
import { ReferenceTree } from "../../physics/reference";
import { MAX_SPACING, MIN_SPACING, particleCount } from "./particle-tree";

const { min, max, sqrt, PI } = Math;

/** Most of the tree particle budget leaf particles may take. */
export const LEAF_SHARE = 0.3;

/** Leaf particles allowed under a tree particle budget. */
export function leafBudget(budget: number): number {
  return max(1, Math.floor(LEAF_SHARE * budget));
}

/** The bone spacing for a tree under a particle budget (see the file's comment), and the particles it gives. */
export function spacingFor(s: TreeSkeleton, budget: number, preferred: number): { spacing: number; particles: number; fits: boolean } {
  if (!(budget >= 10)) throw new RangeError(`tree particle budget must be at least 10; got ${budget}`);
  if (!(preferred >= MIN_SPACING && preferred <= MAX_SPACING)) throw new RangeError(`bone spacing must be from ${MIN_SPACING} to ${MAX_SPACING} m; got ${preferred}`);
  const tried: { spacing: number; particles: number }[] = [];
  let sp = preferred;
  for (;;) {
    const n = particleCount(s, sp);
    tried.push({ spacing: sp, particles: n });
    if (n <= budget) return { spacing: sp, particles: n, fits: true };
    if (sp >= MAX_SPACING) break;
    sp = min(MAX_SPACING, sp * 1.15);
  }
  const fewest = tried[tried.length - 1].particles;
  const near = tried.find((t) => t.particles <= 1.05 * fewest)!;
  return { ...near, fits: false };
}

/** The reference beam frame's first natural frequency, rad/s (four steps of inverse iteration from a sideways sway). */
export function firstModeOmega(s: TreeSkeleton, material: PhysicalMaterial): number {
  const ref = new ReferenceTree(s, material);
  const fr = ref.frame, nd = fr.dofCount;
  const u = new Float64Array(nd), load = new Float64Array(nd), mu = new Float64Array(nd);
  for (let j = 1; j < fr.jointCount; j++) u[6 * j] = 1;
  let omega2 = 0;
  for (let it = 0; it < 4; it++) {
    fr.massTimes(u, load);
    let norm = 0;
    for (let i = 0; i < nd; i++) norm += u[i] * load[i];
    if (!(norm > 0)) return 2 * PI; // no mass to sway: 1 Hz
    const k = 1 / sqrt(norm);
    for (let i = 0; i < nd; i++) load[i] *= k;
    ref.solver.solve(load, u);
    fr.massTimes(u, mu);
    let num = 0, den = 0;
    for (let i = 0; i < nd; i++) { num += u[i] * load[i]; den += u[i] * mu[i]; }
    omega2 = num / den;
  }
  return Number.isFinite(omega2) && omega2 > 0 ? sqrt(omega2) : 2 * PI;
}

/** β of the implicit step for damping ratio ζ of a first mode ω₁ (at most 1 s). */
export function stiffnessDampingFor(zeta: number, omega1: number): number {
  return min(1, max(0, (2 * zeta) / omega1));
}
