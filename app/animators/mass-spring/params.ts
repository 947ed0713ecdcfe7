/**
 * Parameters of the mass-spring method (Van Haevre 2006), declared once: the GUI, the URL and the
 * automation API derive from these. Every one can change while the tree moves.
 */
import { booleanParam, choiceParam, numberParam, type ParamDecls, type ValuesOf } from "../../math/params";

/** What is shown: the live simulation (§4.2), one tree walking its motion graph (§6.1), or the grove (Fig. 7). */
export const MASS_SPRING_MODES = ["live", "graph", "grove"] as const;
export type MassSpringMode = (typeof MASS_SPRING_MODES)[number];
/** How a walk chooses at each sample: at random (§6.1.1) or toward the wind arrow (§6.1.2). */
export const WALK_KINDS = ["interactive", "random"] as const;

export const massSpringParams = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.3, "",
    "The damping ratio ζ of the tree's first mode, 0.01 · 100^d (the shared mapping: 0 → 0.01, 0.3 → 0.04, 1 → critical): Rayleigh damping, eq. 3's k_d on the angular springs and air on every mass, less implicit Euler's own. Paper-literal: ζ at the sway frequency"),
  stiffness: numberParam("Stiffness", 0.2, 5, 0.05, 1, "×",
    "Scales every angular spring constant: 1 is the wood's bending stiffness E I (beam theory, the material's Young's modulus)"),
  sway: numberParam("Sway frequency", 0.3, 5, 0.05, 1, "Hz",
    "Paper-literal only: each joint's angular spring swings what the joint carries (its moment of inertia) at this frequency; softer up the tree as the load falls"),
  paperLiteral: booleanParam("Paper-literal", false,
    "Van Haevre's mass rule (each joint heavier than all its descendants, m_i = w_i + 1.05 D_i) with this method's constants before calibration: springs sized to swing those masses at the sway frequency, eq. 2 beside them, each segment's drag at its tip. Off: calibrated to the physical tree (the wood's own masses, beam-theory springs from E I, the shared drag law distributed along each segment with the leaves' drag, ζ of the first mode)"),
  gravity: numberParam("Gravity", 0, 2, 0.05, 0, "g",
    "Weight added on top of the modelled shape (which is the tree already under its own weight); 1 is the Earth's, and the paper-literal masses make it sag a lot"),
  mode: choiceParam("Show", MASS_SPRING_MODES, "live",
    "live: the simulation (§4.2); graph: the tree walks the motion graph of a recording (§5, §6.1); grove: 100 trees walk their own graphs (Fig. 7). Without a recording, one is made first"),
  walk: choiceParam("Walk", WALK_KINDS, "interactive",
    "interactive: at each sample the transition whose motion best follows the wind arrow (§6.1.2); random: any transition (§6.1.1)"),
  recordSeconds: numberParam("Recording length", 2, 60, 1, 10, "s",
    "How long a recording runs (§4.3), sampled at 30 per second"),
  turningWind: booleanParam("Turning wind while recording", true,
    "While recording, the wind turns once round and swings ±143° every 2.5 s, so the tree's path comes back over itself from every side: many transitions (§5.2.1), and walks the arrow can steer (§6.1.2)"),
  transition: numberParam("Transition length", 1, 10, 1, 3, "samples",
    "§5.2.1: a transition starts this many samples before the crossing and ends this many after it"),
  trees: numberParam("Grove trees", 1, 100, 1, 100, "",
    "How many trees the grove shows, each with its own recording and control point (Fig. 7)"),
  springs: booleanParam("Springs overlay", false,
    "Fig. 2: linear springs in brown, angular springs in green"),
  graph: booleanParam("Motion graph overlay", false,
    "Fig. 5: the control point's backbone in blue, transitions in green, pruned dead ends in red"),
} satisfies ParamDecls;

/** The values of the parameters, derived from their declarations. */
export type MassSpringParams = ValuesOf<typeof massSpringParams>;
