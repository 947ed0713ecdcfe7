/**
 * The physical tree: what every method's physics stands on. Wood density and Young's modulus of
 * green (living) wood, the drag coefficient of the branches (a cylinder across the flow), the drag
 * area of one leaf and the air's density. Species presets from published green-wood values.
 *
 * Young's modulus E and specific gravity G (oven-dry mass over green volume) are the "green"
 * columns of the USDA Forest Products Laboratory's Wood Handbook (FPL-GTR-190, 2010), Table 5-3a;
 * the density of living wood is G x 1000 kg/m³ x (1 + MC), with MC the green moisture content
 * (Table 4-1, the mean of heartwood and sapwood). Plain TypeScript, no Babylon.
 */
import { choiceParam, numberParam, type ValuesOf } from "../math/params";

export interface SpeciesPreset {
  readonly id: string;
  readonly label: string;
  /** Density of green wood, kg/m³ (wood and water). */
  readonly woodDensity: number;
  /** Young's modulus along the grain, green, Pa. */
  readonly youngModulus: number;
  /** Modulus of rupture (bending strength), green, Pa. */
  readonly ruptureModulus: number;
  /** Where the figures come from. */
  readonly source: string;
}

const HANDBOOK = "Wood Handbook (USDA FPL-GTR-190, 2010), Table 5-3a (green E, G, modulus of rupture) and Table 4-1 (green moisture content)";

/** Green-wood presets: E, G and the modulus of rupture from Table 5-3a; density G × 1000 × (1 + MC). */
export const SPECIES: readonly SpeciesPreset[] = [
  // White oak (Quercus alba): E 8.6 GPa, MOR 57 MPa, G 0.60, MC (64 % + 78 %) / 2 = 71 %.
  { id: "oak", label: "Oak (white oak)", woodDensity: 1026, youngModulus: 8.6e9, ruptureModulus: 57e6, source: HANDBOOK },
  // Eastern white pine (Pinus strobus): E 6.8 GPa, MOR 34 MPa, G 0.34, MC (55 % + 149 %) / 2 = 102 %.
  { id: "pine", label: "Pine (eastern white pine)", woodDensity: 687, youngModulus: 6.8e9, ruptureModulus: 34e6, source: HANDBOOK },
  // Paper birch (Betula papyrifera): E 8.1 GPa, MOR 44 MPa, G 0.48, MC (89 % + 72 %) / 2 = 80 %.
  { id: "birch", label: "Birch (paper birch)", woodDensity: 866, youngModulus: 8.1e9, ruptureModulus: 44e6, source: HANDBOOK },
  // Sugar maple (Acer saccharum): E 10.7 GPa, MOR 65 MPa, G 0.56, MC (65 % + 72 %) / 2 = 68 %.
  { id: "maple", label: "Maple (sugar maple)", woodDensity: 942, youngModulus: 10.7e9, ruptureModulus: 65e6, source: HANDBOOK },
];

/** "custom": values set by hand, no preset. */
export const SPECIES_IDS = ["oak", "pine", "birch", "maple", "custom"] as const;

/** The material's parameters, declared once (panel, URL and API validation derive from these). */
export const PHYSICS_PARAMS = {
  species: choiceParam("Species", SPECIES_IDS, "oak",
    "A species' green-wood density and Young's modulus (Wood Handbook); custom keeps values set by hand"),
  woodDensity: numberParam("Wood density", 200, 1500, 1, 1026, "kg/m³",
    "Density of green wood (wood and water): the branches' mass"),
  youngModulus: numberParam("Young's modulus", 1e9, 30e9, 1e8, 8.6e9, "Pa",
    "Stiffness of green wood along the grain: a branch's bending stiffness is E times its second moment of area π r⁴ / 4"),
  dragCoefficient: numberParam("Branch drag coefficient", 0.1, 3, 0.05, 1.2, "",
    "C_d of a branch as a cylinder across the flow (about 1.2 at a branch's Reynolds numbers)"),
  leafDragArea: numberParam("Leaf drag area", 0, 0.05, 0.0005, 0.004, "m²",
    "C_d times area of one leaf: its drag, ½ ρ C_d A |u| u, is carried by its branch"),
  airDensity: numberParam("Air density", 0.5, 1.5, 0.005, 1.225, "kg/m³",
    "ρ of the air (1.225 at sea level and 15 °C)"),
} as const;

export type PhysicalMaterial = ValuesOf<typeof PHYSICS_PARAMS>;

/** The default tree's material (and an imported model's): oak. */
export function defaultMaterial(): PhysicalMaterial {
  return materialOf("oak");
}

/** A species' material with the shared defaults for drag and air. */
export function materialOf(species: string): PhysicalMaterial {
  const p = SPECIES.find((s) => s.id === species);
  if (!p) throw new RangeError(`no species "${species}"; the species are: ${SPECIES_IDS.join(", ")}`);
  return {
    species: p.id as PhysicalMaterial["species"], woodDensity: p.woodDensity, youngModulus: p.youngModulus,
    dragCoefficient: PHYSICS_PARAMS.dragCoefficient.default, leafDragArea: PHYSICS_PARAMS.leafDragArea.default, airDensity: PHYSICS_PARAMS.airDensity.default,
  };
}

/**
 * The strain at which green wood of the material's species breaks in bending: its modulus of
 * rupture over its Young's modulus (oak 0.66 %, pine 0.50 %, birch 0.54 %, maple 0.61 %); a custom
 * material takes the presets' mean (0.58 %).
 */
export function ruptureStrainOf(material: PhysicalMaterial): number {
  const p = SPECIES.find((s) => s.id === material.species);
  if (p) return p.ruptureModulus / p.youngModulus;
  let sum = 0;
  for (const s of SPECIES) sum += s.ruptureModulus / s.youngModulus;
  return sum / SPECIES.length;
}
