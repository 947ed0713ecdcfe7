/**
 * The reference for the tree on show: the reference solver's static deflection at a few wind speeds
 * and its lowest modes, for the tree's skeleton and material. Runs off the frame loop through a
 * runner (a worker in the browser, slices elsewhere), one computation at a time, with a progress
 * bar; the last result is kept until the tree or the material changes.
 */
import type { PhysicalMaterial } from "../physics/material";
import type { ReferenceProgress, ReferenceRequest, ReferenceResult } from "../physics/reference/run";
import { runReference } from "../physics/reference/run";
import type { TreeSkeleton } from "../tree/skeleton";
import type { SandboxChange } from "./events";

/** Runs a request off the frame loop. */
export type ReferenceRunner = (req: ReferenceRequest, progress: ReferenceProgress) => Promise<ReferenceResult>;

export const REFERENCE_DEFAULTS = { speeds: [5, 10, 20], modes: 20 } as const;
const MAX_SPEEDS = 16, MAX_MODES = 40, MAX_SPEED = 40;

/** Runs in this thread, after letting a frame be drawn (tests, and pages without workers). */
export const inlineRunner: ReferenceRunner = async (req, progress) => {
  await new Promise((r) => setTimeout(r, 0));
  return runReference(req, progress);
};

export interface ReferenceOptions {
  speeds?: number[];
  modes?: number;
}

export class ReferenceControl {
  private busy: { text: string; fraction: number } | null = null;
  private last: { key: string; result: ReferenceResult } | null = null;

  constructor(private readonly runner: ReferenceRunner, private readonly changed: (what: SandboxChange) => void) {}

  /** Validated options with defaults; a RangeError names what is wrong. */
  static settings(o: ReferenceOptions = {}): { speeds: number[]; modes: number } {
    if (typeof o !== "object" || o === null) throw new TypeError("reference() takes an object such as { speeds: [5, 10, 20], modes: 20 }");
    for (const k of Object.keys(o)) if (k !== "speeds" && k !== "modes") throw new RangeError(`reference() has no option "${k}"; its options are: speeds, modes`);
    const speeds = o.speeds ?? [...REFERENCE_DEFAULTS.speeds];
    if (!Array.isArray(speeds) || speeds.length > MAX_SPEEDS || !speeds.every((s) => typeof s === "number" && s >= 0 && s <= MAX_SPEED)) {
      throw new RangeError(`reference(): speeds must be a list of at most ${MAX_SPEEDS} wind speeds from 0 to ${MAX_SPEED} m/s; got ${JSON.stringify(o.speeds)}`);
    }
    const modes = o.modes ?? REFERENCE_DEFAULTS.modes;
    if (!(Number.isInteger(modes) && modes >= 0 && modes <= MAX_MODES)) throw new RangeError(`reference(): modes must be a whole number from 0 to ${MAX_MODES}; got ${JSON.stringify(o.modes)}`);
    return { speeds, modes };
  }

  /** The reference for `skeleton` and `material` in a wind blowing toward `direction` degrees. */
  async run(o: ReferenceOptions, skeleton: TreeSkeleton, material: PhysicalMaterial, direction: number, treeVersion: number): Promise<ReferenceResult> {
    const { speeds, modes } = ReferenceControl.settings(o);
    const key = JSON.stringify([treeVersion, material, speeds, modes, direction]);
    if (this.last?.key === key) return structuredClone(this.last.result);
    if (this.busy) throw new RangeError("the reference is being computed; wait for it to finish");
    this.busy = { text: "starting", fraction: 0 };
    this.changed("progress");
    try {
      const result = await this.runner({ skeleton, material, speeds, modes, direction }, (fraction, text) => {
        this.busy = { text, fraction };
        this.changed("progress");
      });
      this.last = { key, result };
      this.changed("reference");
      return structuredClone(result);
    } finally {
      this.busy = null;
      this.changed("progress");
    }
  }

  /** The computation under way, for a progress bar; null when none. */
  progress(): { text: string; fraction: number } | null {
    return this.busy ? { ...this.busy } : null;
  }

  /** The last result, if it is for this tree version (null otherwise). */
  latest(): ReferenceResult | null {
    return this.last ? structuredClone(this.last.result) : null;
  }

  /** The tree or material changed: the last result no longer holds. */
  forget(): void {
    if (!this.last) return;
    this.last = null;
    this.changed("reference");
  }
}
