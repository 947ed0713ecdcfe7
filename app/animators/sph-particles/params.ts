/**
 * Parameters of the sph-particles method (Akagi and Kitajima), declared once: the GUI, the URL and
 * the automation API derive from these. The tree's particles, budgets and breaking limits rebuild
 * the particle tree (the motion restarts from rest, the wind runs on); the rest change it live.
 */
import { booleanParam, numberParam, type ParamDecls, type ValuesOf } from "../../math/params";

export const sphParticlesParams = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.3, "",
    "The damping ratio ζ of the tree's first mode, 0.01 · 100^d (the shared mapping): the implicit step's stiffness-proportional damping β = 2ζ/ω₁, ω₁ the reference beam frame's first mode (the HHT-α step adds under 0.002 of its own)"),
  spacing: numberParam("Bone spacing", 0.02, 2, 0.01, 0.25, "m",
    "§2, Fig. 1 (a): distance between bone particles along a branch, coarsened in 15 % steps until the tree fits the particle budget. The paper's 0.1 m runs (the demo tree: 1,842 particles, about 1.6 times the step's time); 0.25 m by default bends within a few % of it (a branch's base is a half cell, links bend as the beam does)"),
  treeBudget: numberParam("Tree particle budget", 500, 120000, 100, 3000, "",
    "Most tree particles (bone, branch and leaf): a big tree first leaves its finest branches out (they ride on their parents), then groups its leaves into fewer leaf particles and coarsens the bone spacing, so it stays interactive; the paper's Table 3 ran 16,877 to 102,282"),
  windBudget: numberParam("Wind particles", 216, 40000, 1, 1200, "",
    "§2, eqs. 1-3: about how many SPH wind particles fill the box around the tree (a coarser lattice for fewer); the paper's Table 3 ran 7,680"),
  mach: numberParam("Mach number", 0.1, 1, 0.05, 0.6, "",
    "The wind's equation of state p = c² (ρ - ρ₀) with c = fastest wind / this (a floor of 10 m/s): lower is stiffer air, closer to incompressible, and more SPH substeps a frame"),
  woodStrength: numberParam("Wood strength", 0.05, 5, 0.01, 1, "×",
    "Eq. 10's limits e = 1 + ε, c = 1 - ε: ε the strain at which the species' green wood breaks in bending, its modulus of rupture over its Young's modulus (Wood Handbook Table 5-3a: oak 57 MPa / 8.6 GPa = 0.66 %, pine 0.50 %, birch 0.54 %, maple 0.61 %), times this: below 1 for decayed or flawed wood"),
  levelScale: numberParam("Limit per level", 0.3, 2, 0.01, 1, "×",
    "Each hierarchy level's ε is the trunk's times this to the power of the level: 1, the same wood throughout; below 1, twigs break before limbs"),
  leafHold: numberParam("Leaf hold", 0.05, 20, 0.05, 3, "N",
    "The median pull that tears a leaf off its twig (a petiole's eq. 10 limit); each leaf's hold is this times its own log-normal factor (90 % between 0.56 and 1.78): 3 N is the drag law's pull on a leaf of drag area 0.004 m² at 35 m/s, the weakest from 26 m/s; gusts tear them sooner (in Vogel's wind tunnel broad leaves tore in turbulent 20 m/s, others held at 30)"),
  gravity: numberParam("Gravity", 0, 2, 0.05, 1, "g",
    "Weight on what is cut off the tree, 1 is the Earth's: broken pieces and fallen leaves fall under it and rest on the ground. The tree standing is modelled already under its own weight (it does not sag further)"),
  coreThickness: numberParam("Core thickness", 0, 1, 0.01, 0.1, "",
    "§3's internal model of a branch, Fig. 3 (a): the core's (pith's) share of the radius at a break, from the centre; the three layers' shares are taken relative to their sum. Applies to breaks from now on"),
  woodThickness: numberParam("Wood thickness", 0.05, 1, 0.01, 0.75, "",
    "§3: the wood's share of the radius, around the core; its cut face is pale, fibres at 40 per unit area of the radius-1 section (the core 20, the bark 80)"),
  barkThickness: numberParam("Bark thickness", 0, 1, 0.01, 0.15, "",
    "§3: the bark's share of the radius, the outer layer; its cut face and the break's sides are dark"),
  brittleness: numberParam("Brittleness α", 0, 1, 0.01, 0.4, "",
    "Eq. 11's α: a break's surface drops along the side curve F = L α s² from where it started (the tension side) to L α on the far side, L the broken link's length: 0 is a flat cut, 1 a splinter as long as the link"),
  particles: booleanParam("Particles", false,
    "Fig. 5: the tree's particles drawn over it, coloured by type: bone (red), branch (tan), leaf (green); particles cut off the tree in magenta"),
  windParticles: booleanParam("Wind particles", false,
    "Fig. 6: the SPH wind particles, coloured by speed from blue (still) through green to red (1.5 × the mean wind and over)"),
} satisfies ParamDecls;

/** The values of the parameters, derived from their declarations. */
export type SphParticlesParams = ValuesOf<typeof sphParticlesParams>;
