/**
 * Parameters of the spectral-beam method (Habel, Kusternig and Wimmer 2009), declared once.
 * Plain data: the twin, the provider and the GUI all read this. Every one of them can change
 * while the tree moves (§8: "every single parameter can be set or overridden in real time").
 */
import { booleanParam, choiceParam, numberParam, type ParamDecls, type ValuesOf } from "../../math/params";

/** Motion texture sizes the panel offers (§5.4: one 2D motion texture per hierarchy level). */
export const TEXTURE_SIZES = ["64", "128", "256", "512"] as const;

export const spectralBeamParams = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.5, "",
    "The damping ratio ζ of the first mode (the trunk's sway), the same in every method: ζ = 0.01 · 100^d (0 → 0.01, 0.5 → 0.1, 1 → 1)"),
  damping0: numberParam("Damping ratio, trunk", 0.02, 2, 0.01, 1, "×",
    "The trunk's ζ relative to the first mode's, the damping slider's (1: the shared meaning; §8: every parameter can be overridden)"),
  damping1: numberParam("Damping ratio, level 1", 0.02, 2, 0.01, 0.6, "ζ",
    "Oscillator damping of the main branches (eq. 15), their own: §5.4, large branches with many sub-branches and leaves are close to critically damped"),
  damping2: numberParam("Damping ratio, level 2", 0.02, 2, 0.01, 0.35, "ζ",
    "Oscillator damping of the second-order branches (eq. 15), their own"),
  damping3: numberParam("Damping ratio, level 3", 0.02, 2, 0.01, 0.2, "ζ",
    "Oscillator damping of the twigs (eq. 15), their own: slightly underdamped, as measured [MM04]"),
  stiffness: numberParam("Stiffness", 0.1, 10, 0.05, 1, "×",
    "Scales the wood's elastic modulus E (eq. 1): deflection goes as 1 / E"),
  leafless: booleanParam("Leafless", false,
    "§5.4: leafless branches have 2.5 times the frequency of eq. 17; leaves are hidden and carry no wind load"),
  flutter: numberParam("Leaf flutter", 0, 1, 0.01, 0.35, "",
    "§7: strength of the leaves' translational and torsional flutter at 10 m/s"),
  lengthCorrection: booleanParam("Length correction", true,
    "§4.2: keep branch lengths under strong deflection; off is the paper's cheaper mode for light wind"),
  literal: booleanParam("Paper-literal", false,
    "Habel's own constants: each level's tip sways by a set share of its length at 10 m/s (1.2, 4, 8, 14 %) and eq. 15 as printed; off: the tree's material, drag.ts's drag and eq. 16's mass set the sway"),
  textureSize: choiceParam("Motion texture size", TEXTURE_SIZES, "256",
    "§5.4: resolution of each 2D motion texture; larger textures span a wider frequency range"),
} satisfies ParamDecls;

/** The values of the parameters, derived from their declarations. */
export type SpectralBeamParams = ValuesOf<typeof spectralBeamParams>;
