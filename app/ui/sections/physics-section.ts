/**
 * The physical tree: a species preset (green-wood density and Young's modulus from the Wood
 * Handbook) or values set by hand, the branches' drag coefficient, a leaf's drag area and the
 * air's density. Every control comes from the material's declarations (app/physics/material.ts);
 * Young's modulus is shown in GPa.
 */
import type { ReferenceResult, SandboxPanelApi } from "../../sandbox/api";
import { numberParam } from "../../math/params";
import { PHYSICS_PARAMS, SPECIES } from "../../physics/material";
import { ACCENT, MUTED, type Scope } from "../widgets";
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
  // The reference solver for this tree and material: its lowest modes and static deflection.
  scope.button("physics.reference", "Compute the reference solver", () => sb.reference());
  const progress = scope.progressBar("physics.reference.progress");
  const result = scope.note("", 12, ACCENT);
  scope.named.set("physics.reference.result", result);
  const showResult = () => {
    const r = sb.latestReference();
    const text = r ? referenceText(r) : "";
    if (result.text !== text) result.text = text;
    result.isVisible = text !== "";
  };
  showResult();
  return {
    on: ["physics", "reference", "tree"],
    refresh() {
      showResult();
      scope.refresh();
    },
    frame: () => progress.set(sb.referenceProgress()),
  };
}

/** The reference in a few lines: the lowest frequencies and the mean tip deflection at each speed. */
function referenceText(r: ReferenceResult): string {
  const hz = r.modes.slice(0, 8).map((m) => m.hz.toFixed(2)).join(", ");
  const lines = r.modes.length ? [`Lowest modes (Hz): ${hz}${r.modes.length > 8 ? ", …" : ""}`] : [];
  for (const s of r.static) {
    let sum = 0;
    const n = s.tips.length / 3;
    for (let b = 0; b < n; b++) sum += Math.hypot(s.tips[3 * b], s.tips[3 * b + 1], s.tips[3 * b + 2]);
    lines.push(`${s.speed} m/s: mean tip deflection ${(100 * sum / Math.max(1, n)).toFixed(1)} cm`);
  }
  lines.push(`(${(r.ms / 1000).toFixed(1)} s to compute)`);
  return lines.join("\n");
}
