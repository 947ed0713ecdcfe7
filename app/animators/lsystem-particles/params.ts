/**
 * Parameters of the lsystem-particles method (Barron, Sorge and Davis), declared once: the GUI,
 * the URL and the automation API derive from these. Every one can change while the tree moves.
 */
import { booleanParam, numberParam, type ParamDecls, type ValuesOf } from "../../math/params";

export const lsystemParticlesParams = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.3, "",
    "Eq. 2.7's k_d as the damping ratio of the tree's first mode, ζ = 0.01 · 100^d (the shared mapping): 0.01 (0) to critical (1)"),
  stiffness: numberParam("Stiffness", 0.2, 5, 0.05, 1, "×",
    "Scales every spring constant k_s (eq. 2.6), as E would: 1 is the wood's E I, each rod bent from its parent's end (paper-literal: k_s ∝ r²)"),
  gravity: numberParam("Gravity", 0, 2, 0.05, 1, "g",
    "§5.1.1: F_G, a constant force down; 1 is the Earth's"),
  timeStep: numberParam("Time step", 2, 100, 0.5, 16.5, "ms",
    "§6.1: time between updates of the particles; stiff rods sub-step where one step would blow up"),
  curveResolution: numberParam("Curve resolution", 1, 8, 1, 3, "",
    "§6.1: spline pieces per branch segment (Catmull-Rom, §4.2.1)"),
  sides: numberParam("Sides", 4, 16, 2, 8, "",
    "§4.2.2: polygons around a branch (even: half the ring by negation, eq. 7.1)"),
  minRadius: numberParam("Minimum branch radius", 0.5, 30, 0.5, 3, "mm",
    "§4.1, paper-literal only: every radius is scaled so that the thinnest branch has this radius (calibrated keeps the tree's own radii)"),
  spatial: numberParam("Turbulence spread", 0, 0.5, 0.01, 0.15, "",
    "§5.1.1: each particle scales the wind's fluctuation by its own factor 1 ± this"),
  paperLiteral: booleanParam("Paper-literal", false,
    "Barron's own forces: each rod's whole drag at its tip in the absolute wind, springs k_s ∝ r² toward a fixed rest direction, radii scaled by §4.1. Off: calibrated to the physical tree (distributed drag in the wind relative to the rod, leaves' drag, rigid joints: each rod's spring bends it from its parent's end by the beam's E I, subtree loads)"),
} satisfies ParamDecls;

/** The values of the parameters, derived from their declarations. */
export type LsystemParticlesParams = ValuesOf<typeof lsystemParticlesParams>;
