/**
 * The physical tree's material (app/physics/material.ts): wood density, Young's modulus, the
 * branches' drag coefficient, a leaf's drag area and the air's density, set as a species preset or
 * by hand. One material for every view, kept across tree changes (an imported model starts with the
 * default species, oak, like every tree) and in the page address.
 */
import { validatePatch } from "../math/params";
import { defaultMaterial, materialOf, PHYSICS_PARAMS, type PhysicalMaterial } from "../physics/material";
import type { SandboxChange } from "./events";

export class PhysicsControl {
  private material: PhysicalMaterial = defaultMaterial();

  constructor(private readonly changed: (what: SandboxChange) => void) {}

  /** The material now (a copy). */
  get(): PhysicalMaterial {
    return { ...this.material };
  }

  /**
   * Validates a patch (a RangeError names the allowed range) and applies it. A species sets its
   * density and modulus (values in the same patch win); changing either by hand makes it "custom".
   */
  set(patch: Record<string, unknown>): void {
    if (typeof patch !== "object" || patch === null) throw new TypeError("physics() takes an object such as { species: \"pine\" } or { youngModulus: 9e9 }");
    const valid = validatePatch("physics", PHYSICS_PARAMS, patch);
    let next: PhysicalMaterial = { ...this.material };
    if (valid.species !== undefined && valid.species !== "custom") {
      const s = materialOf(valid.species);
      next = { ...next, species: s.species, woodDensity: s.woodDensity, youngModulus: s.youngModulus };
    }
    const { species: _species, ...values } = valid;
    void _species;
    const byHand = (values.woodDensity !== undefined && values.woodDensity !== next.woodDensity) || (values.youngModulus !== undefined && values.youngModulus !== next.youngModulus);
    next = { ...next, ...values };
    if (valid.species === "custom" || byHand) next.species = "custom";
    this.material = next;
    this.changed("physics");
  }
}
