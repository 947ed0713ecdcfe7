/**
 * The physical tree: a species preset (green-wood density and Young's modulus from the Wood
 * Handbook) or values set by hand, the branches' drag coefficient, a leaf's drag area and the
 * air's density. Every control comes from the material's declarations (app/physics/material.ts);
 * Young's modulus is shown in GPa.
 */
import type { SandboxPanelApi } from "../../sandbox/api";
import { numberParam } from "../../math/params";
import { PHYSICS_PARAMS, SPECIES } from "../../physics/material";
import { MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";

const E = PHYSICS_PARAMS.youngModulus;
/** Young's modulus as the panel shows it: GPa. */
const E_GPA = numberParam(E.label, E.min / 1e9, E.max / 1e9, E.step / 1e9, E.default / 1e9, "GPa", E.help);

export function physicsSection(sb: SandboxPanelApi, scope: Scope): PanelSection {
  scope.section("Physical tree");
  const m = () => sb.physics();
  const label = (id: string) => SPECIES.find((s) => s.id === id)?.label.split(" (")[0] ?? "Custom";
  scope.control("physics.species", PHYSICS_PARAMS.species, () => m().species, (v: string) => sb.physics({ species: v as never }), { labels: label, row: true });
  scope.control("physics.woodDensity", PHYSICS_PARAMS.woodDensity, () => m().woodDensity, (v: number) => sb.physics({ woodDensity: v }));
  scope.control("physics.youngModulus", E_GPA, () => m().youngModulus / 1e9, (v: number) => sb.physics({ youngModulus: Math.round(v * 10) * 1e8 }));
  scope.control("physics.dragCoefficient", PHYSICS_PARAMS.dragCoefficient, () => m().dragCoefficient, (v: number) => sb.physics({ dragCoefficient: v }));
  scope.control("physics.leafDragArea", PHYSICS_PARAMS.leafDragArea, () => m().leafDragArea, (v: number) => sb.physics({ leafDragArea: v }));
  scope.control("physics.airDensity", PHYSICS_PARAMS.airDensity, () => m().airDensity, (v: number) => sb.physics({ airDensity: v }));
  scope.note("Green wood: Wood Handbook (USDA FPL-GTR-190), Tables 5-3a and 4-1.", 11, MUTED);
  return { on: ["physics"], refresh: () => scope.refresh() };
}
