/**
 * Parameters of the modal method (Shinya and Fournier 1992, Stam 1997, Diener et al. 2009), declared
 * once. Plain data: the dynamics, the provider and the GUI all read this.
 */
import { booleanParam, numberParam, type ParamDecls, type ValuesOf } from "../../math/params";
import { MAX_MODES } from "./modes";

export const modalParams = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.3, "",
    "Every mode's damping ratio ζ = 0.01 · 100^damping on a log scale: 0 gives ζ = 0.01 (rings for long), 0.3 gives ζ ≈ 0.04, 0.5 gives ζ = 0.1, 1 gives ζ = 1 (critical); the drag of the relative wind adds aerodynamic damping on top"),
  modes: numberParam("Modes", 1, MAX_MODES, 1, 12, "",
    "How many of the tree's lowest natural modes (the reference beam frame's) are superposed: more catch more of the twigs' motion and of the static bend, at the cost of a longer precomputation"),
  staticCorrection: booleanParam("Static correction", true,
    "Adds the left-out modes' quasi-static share of the bend (the mode-acceleration method: the static solution less what the kept modes hold), so a steady wind bends the tree as the reference does whatever the number of modes; it costs one static solve of the beam frame per step (on the Habel tree about as much again as the 12 modes: 3 ms more per step on a 2-core CI machine); off: the modes alone"),
} satisfies ParamDecls;

/** The values of the parameters, derived from their declarations. */
export type ModalParams = ValuesOf<typeof modalParams>;
