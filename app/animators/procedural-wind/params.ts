/**
 * Parameters of the procedural-wind method (Zioma 2007, GPU Gems 3 ch. 6), declared once.
 * Plain data: the twin, the provider and the GUI all read this.
 */
import { booleanParam, numberParam, type ParamDecls, type ValuesOf } from "../../math/params";

export const proceduralWindParams = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.3, "",
    "The first mode's damping ratio ζ = 0.01·100^d (0 → 0.01, 1 → critical; physics/damping.ts), plus the air's; paper-literal: ζ = 0.06 + 0.8 d and weaker high-frequency bands"),
  stiffness: numberParam("Stiffness (mass)", 0.25, 4, 0.05, 1, "×",
    "Fig. 6-3: a heavier, stiffer tree sways with lower amplitude (1/s) and lower frequency (1/√s); 1 is the physical tree"),
  branchSway: numberParam("Branch sway", 0, 0.6, 0.01, 0.12, "rad",
    "Sway of a branch about its static bend: 0.12 is a third of the bend; paper-literal: its angle at 10 m/s (branchSwayPower, Example 6-1)"),
  phaseRandomization: numberParam("Phase randomization", 0, 1, 0.01, 1, "",
    "§6.3.3: spread of the per-branch phase shifts; 0 moves all branches in lockstep"),
  trunkTwist: numberParam("Trunk twist", 0, 0.5, 0.01, 0.1, "×",
    "Rotation about the trunk axis relative to the parallel sway (§6.3.3)"),
  flutterFrequency: numberParam("Branch frequency", 0.2, 4, 0.05, 0.9, "Hz",
    "Paper-literal only: sway frequency of a first-level branch (calibrated, each branch sways at its own natural frequency)"),
  inertia: numberParam("Branch inertia", 0, 1, 0.01, 0.7, "",
    "§6.3.3: how much branches pressed toward the trunk are released while the trunk swings back"),
  paperLiteral: booleanParam("Paper-literal", false,
    "Zioma's own constants: sway amplitudes and frequencies set by hand per level and drag ∝ (u/10 m/s)², not the physical tree's beam compliance, natural frequencies and drag"),
} satisfies ParamDecls;

/** The values of the parameters, derived from their declarations. */
export type ProceduralWindParams = ValuesOf<typeof proceduralWindParams>;
