/**
 * reference.modes.habel.ms: the reference solver's 20 lowest natural modes of the Habel-scale tree
 * (shift-invert block Lanczos over the O(n) static solve; node, one core). Also the frame's
 * construction and one static solve under a steady wind. Prints one JSON line; asserts no time
 * (targets: targets.json). Asserts that the modes are what the figure claims: 20, ascending, the
 * lowest near the 1.33 Hz BENCHMARKS.md reports, converged; and that the wind bent the tree.
 */
import { ReferenceTree } from "../../app/physics/reference";
import { defaultMaterial } from "../../app/physics/material";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { applyTaper } from "../../app/tree/taper";

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const round = (x: number): number => Math.round(x * 10) / 10;

it("reference.modes.habel.ms", () => {
  const habel = TREE_PRESETS.find((p) => p.name === "habel")!;
  const s = applyTaper(grammarToSkeleton(habel.text, { depth: habel.defaultDepth, seed: 1, fileName: "habel.lsys" }), 0.6);
  const buildTimes: number[] = [];
  let tree = new ReferenceTree(s, defaultMaterial());
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    tree = new ReferenceTree(s, defaultMaterial());
    buildTimes.push(performance.now() - t0);
  }
  const out = new Float64Array(3 * s.branchCount);
  const staticTimes: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    tree.staticDeflection(10, 1, 0, out);
    staticTimes.push(performance.now() - t0);
  }
  const coldT0 = performance.now();
  let modes = tree.modes(20);
  const coldMs = performance.now() - coldT0;
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    modes = tree.modes(20);
    times.push(performance.now() - t0);
  }
  const value = median(times);
  process.stdout.write(JSON.stringify({
    bench: "reference.modes.habel.ms", value: round(value), unit: "ms", modes: modes.hz.length,
    coldMs: round(coldMs), krylov: modes.frame.dimension, residual: Number(modes.frame.residual.toExponential(1)),
    hzFirst: Number(modes.hz[0].toFixed(3)), hzLast: Number(modes.hz[modes.hz.length - 1].toFixed(3)),
    staticMs: Math.round(median(staticTimes) * 100) / 100, buildMs: round(median(buildTimes)),
    joints: tree.frame.jointCount, dofs: tree.frame.dofCount, branches: s.branchCount, leaves: s.leafCount,
  }) + "\n");
  expect(modes.hz.length).toBe(20);
  for (let i = 1; i < 20; i++) expect(modes.hz[i]).toBeGreaterThanOrEqual(modes.hz[i - 1]);
  expect(modes.hz[0]).toBeGreaterThan(1);
  expect(modes.hz[0]).toBeLessThan(2);
  expect(modes.frame.residual).toBeLessThan(1e-6);
  expect(out.every(Number.isFinite)).toBe(true);
  expect(Math.max(...out.map(Math.abs))).toBeGreaterThan(1e-3); // metres at 10 m/s
});
