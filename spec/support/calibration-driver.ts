/**
 * A method of the sandbox, under Babylon's NullEngine, as a calibration driver: restarted in a
 * steady wind toward +x (no turbulence, no gusts), stepped on the fixed clock, its tips read through
 * the API. With the reference's static deflection for the same tree and material, for comparisons.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { createRegistry } from "../../app/animators/registry";
import type { SandboxPanelApi } from "../../app/sandbox/api";
import { Sandbox } from "../../app/sandbox/sandbox";
import { CALIBRATION_DEFAULTS, calibrateMethod, levelMeans, type CalibrationDriver, type MethodCalibration } from "../../app/physics/calibration";
import { dampingRatio } from "../../app/physics/damping";
import { ReferenceTree, lowestModes } from "../../app/physics/reference";
import type { TreeSkeleton } from "../../app/tree/skeleton";

export interface CalibrationBench {
  api: SandboxPanelApi;
  sandbox: Sandbox;
  engine: NullEngine;
  /** Every branch's hierarchy level, probe order. */
  levels: Int32Array;
  dispose(): void;
}

/** A sandbox on `hash` (e.g. "#tree=habel"), not drawing on its own. */
export async function openBench(hash: string): Promise<CalibrationBench> {
  const engine = new NullEngine();
  const sandbox = new Sandbox(engine, null, createRegistry(), { offscreen: true }); // as the app's calibration (calibration-control.ts)
  const api = sandbox.api();
  await sandbox.start(hash, "", { renderLoop: false });
  const skeleton = skeletonOf(sandbox);
  const levels = new Int32Array(skeleton.branchCount);
  for (let b = 0; b < skeleton.branchCount; b++) levels[b] = skeleton.branchLevel[b];
  return { api, sandbox, engine, levels, dispose: () => { sandbox.dispose(); engine.dispose(); } };
}

/** The skeleton on show (the sandbox's tree source). */
export function skeletonOf(sandbox: Sandbox): TreeSkeleton {
  const shown = sandbox.trees.tree;
  if (!shown) throw new Error("no tree on show");
  return shown.skeleton;
}

/** Method `id` of the bench as a driver. */
export function driverFor(bench: CalibrationBench, id: string): CalibrationDriver {
  const { api } = bench;
  return {
    async restart(speed, turbulence = 0) {
      api.wind({ speed, direction: 0, vertical: 0, turbulence, gust: 0 });
      await api.use(id);
    },
    setSpeed(speed) {
      api.wind({ speed });
    },
    step(frames) {
      api.step(frames);
    },
    probe: () => api.probe(),
  };
}

/** The calibration figures of method `id` on the bench's tree (defaults unless given). */
export function calibrate(bench: CalibrationBench, id: string, o: Partial<typeof CALIBRATION_DEFAULTS> = {}): Promise<MethodCalibration> {
  return calibrateMethod(driverFor(bench, id), { ...CALIBRATION_DEFAULTS, ...o, levels: bench.levels });
}

/** The reference's per-level mean static deflection at each speed (wind toward +x) and its first mode, Hz. */
export function referenceFigures(bench: CalibrationBench, speeds: readonly number[] = CALIBRATION_DEFAULTS.speeds): { static: { speed: number; levels: number[] }[]; firstHz: number } {
  const tree = new ReferenceTree(skeletonOf(bench.sandbox), bench.api.physics());
  const statics = speeds.map((speed) => ({ speed, levels: levelMeans(tree.staticDeflection(speed, 1, 0), bench.levels) }));
  const modes = lowestModes(tree.frame, tree.solver, 1);
  return { static: statics, firstHz: Math.sqrt(modes.omega2[0]) / (2 * Math.PI) };
}

/** The figures of `m` beside the reference's, on the console (ratios per level, Hz, ζ against the slider's `zeta`). */
export function printCalibration(tree: string, what: string, ref: ReturnType<typeof referenceFigures>, m: MethodCalibration, zeta: number): void {
  const lines = [`${tree}, ${what}`];
  for (let k = 0; k < ref.static.length; k++) {
    const r = ref.static[k].levels, v = m.static[k].levels;
    lines.push(`  ${ref.static[k].speed} m/s per level: method ${v.map((x) => x.toFixed(4)).join(" ")} | reference ${r.map((x) => x.toFixed(4)).join(" ")} | ratio ${v.map((x, l) => (x / r[l]).toFixed(3)).join(" ")}`);
  }
  lines.push(`  free motion ${m.free.hz.toFixed(3)} Hz (reference first mode ${ref.firstHz.toFixed(3)}), ζ ${m.free.zeta.toFixed(3)} (slider ${zeta.toFixed(3)})`);
  console.log(lines.join("\n"));
}

/**
 * Method `id` with free motion, calibrated on the bench's tree: every level's static deflection at
 * every speed within `tolerance` of the reference's, the free motion's frequency within it of the
 * reference's first mode and its ζ within it of the damping slider's.
 */
export async function expectCalibrated(bench: CalibrationBench, id: string, tree: string, tolerance = 0.2): Promise<void> {
  const ref = referenceFigures(bench);
  const zeta = dampingRatio(bench.api.params(id).damping as number);
  const m = await calibrate(bench, id);
  printCalibration(tree, "calibrated", ref, m, zeta);
  expect(m.static.length).toBe(ref.static.length);
  for (let k = 0; k < ref.static.length; k++) {
    ref.static[k].levels.forEach((r, l) => expect({ speed: ref.static[k].speed, level: l, off: Math.abs(m.static[k].levels[l] / r - 1) < tolerance }).toEqual({ speed: ref.static[k].speed, level: l, off: true }));
  }
  expect(Math.abs(m.free.hz / ref.firstHz - 1)).toBeLessThan(tolerance);
  expect(Math.abs(m.free.zeta / zeta - 1)).toBeLessThan(tolerance);
}
