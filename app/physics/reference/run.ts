/**
 * One reference computation, as the app asks for it: the frame built from the tree and its
 * material, the static deflection of every branch tip at each wind speed, and the lowest modes'
 * frequencies. A plain function of plain data (typed arrays clone into a worker), reporting its
 * progress, so it runs off the frame loop: in a worker in the browser, in slices elsewhere.
 */
import type { PhysicalMaterial } from "../material";
import type { TreeSkeleton } from "../../tree/skeleton";
import { ReferenceTree } from "./index";

export interface ReferenceRequest {
  readonly skeleton: TreeSkeleton;
  readonly material: PhysicalMaterial;
  /** Steady wind speeds, m/s, for the static deflection. */
  readonly speeds: readonly number[];
  /** How many of the lowest modes. */
  readonly modes: number;
  /** The way the wind blows, degrees: 0 toward +x, 90 toward +z. */
  readonly direction: number;
}

export interface ReferenceResult {
  /** The lowest natural modes, ascending. */
  modes: { hz: number }[];
  /** Per speed: xyz displacement of every branch tip, metres, in probe()'s order (tipNode of branch 0, 1, ...). */
  static: { speed: number; tips: number[] }[];
  /** Milliseconds the computation took. */
  ms: number;
}

export type ReferenceProgress = (fraction: number, text: string) => void;

/** Runs the whole computation (synchronously); `progress` hears of each stage. */
export function runReference(req: ReferenceRequest, progress: ReferenceProgress = () => undefined): ReferenceResult {
  const t0 = Date.now();
  progress(0, "building the beam frame");
  const tree = new ReferenceTree(req.skeleton, req.material);
  const a = (req.direction * Math.PI) / 180, dirX = Math.cos(a), dirZ = Math.sin(a);
  const statics: ReferenceResult["static"] = [];
  req.speeds.forEach((speed, i) => {
    progress(0.05 + (0.15 * i) / Math.max(1, req.speeds.length), `static deflection at ${speed} m/s`);
    statics.push({ speed, tips: Array.from(tree.staticDeflection(speed, dirX, dirZ)) });
  });
  let modes: ReferenceResult["modes"] = [];
  if (req.modes > 0) {
    progress(0.2, `the ${req.modes} lowest modes (Lanczos)`);
    modes = Array.from(tree.modes(req.modes).hz, (hz) => ({ hz }));
  }
  progress(1, "done");
  return { modes, static: statics, ms: Date.now() - t0 };
}
