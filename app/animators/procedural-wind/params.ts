/**
 * Parameters of the procedural-wind method (Zioma 2007, GPU Gems 3 ch. 6), declared once.
 * Plain data: the twin, the provider and the GUI all read this.
 */
import { numberParam, type ParamDecls, type ValuesOf } from "../../math/params";

export const proceduralWindParams = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.3, "",
    "Less overshoot when the wind drops (Fig. 6-2 segment B) and weaker high-frequency bands"),
  stiffness: numberParam("Stiffness (mass)", 0.25, 4, 0.05, 1, "×",
    "Fig. 6-3: a heavier, stiffer tree sways with lower amplitude and lower frequency"),
  branchSway: numberParam("Branch sway", 0, 0.6, 0.01, 0.12, "rad",
    "Sway angle of a branch at the reference wind of 10 m/s (branchSwayPower, Example 6-1)"),
  phaseRandomization: numberParam("Phase randomization", 0, 1, 0.01, 1, "",
    "§6.3.3: spread of the per-branch phase shifts; 0 moves all branches in lockstep"),
  trunkTwist: numberParam("Trunk twist", 0, 0.5, 0.01, 0.1, "×",
    "Rotation about the trunk axis relative to the parallel sway (§6.3.3)"),
  flutterFrequency: numberParam("Branch frequency", 0.2, 4, 0.05, 0.9, "Hz",
    "Sway frequency of a first-level branch; thinner levels and thinner branches go faster"),
  inertia: numberParam("Branch inertia", 0, 1, 0.01, 0.7, "",
    "§6.3.3: how much branches pressed toward the trunk are released while the trunk swings back"),
} satisfies ParamDecls;

/** The values of the parameters, derived from their declarations. */
export type ProceduralWindParams = ValuesOf<typeof proceduralWindParams>;
