/**
 * Parameters of the mass-spring method (Van Haevre 2006 §4.2), declared once: the GUI, the URL
 * and the automation API derive from these. Every one can change while the tree moves.
 */
import { numberParam, type ParamSpec } from "../../math/params";

export type MassSpringParams = {
  damping: number;
  stiffness: number;
  sway: number;
  gravity: number;
};

export const massSpringParams: ParamSpec<MassSpringParams> = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.3, "",
    "Eq. 3's k_d as the angular springs' damping ratio: 0.02 (0) to critical (1)"),
  stiffness: numberParam("Stiffness", 0.2, 5, 0.05, 1, "×",
    "Scales every angular spring constant (eq. 2 and the holding term)"),
  sway: numberParam("Sway frequency", 0.3, 5, 0.05, 1.5, "Hz",
    "Each joint's angular spring swings its own mass at this frequency; softer up the tree as the masses fall"),
  gravity: numberParam("Gravity", 0, 2, 0.05, 0, "g",
    "Weight added on top of the modelled shape (which is the tree already under its own weight); 1 is the Earth's, and the paper's heavy masses make it sag a lot"),
};
