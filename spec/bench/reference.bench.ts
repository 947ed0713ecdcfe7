/**
 * reference.modes.habel.ms: the reference solver's 20 lowest natural modes of the Habel-scale tree
 * (shift-invert block Lanczos over the O(n) static solve; node, one core). Target at most 500 ms.
 * Also the frame's construction and one static solve under a steady wind. Prints one JSON line;
 * asserts no time.
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
    bench: "reference.modes.habel.ms", value: round(value), unit: "ms", target: 500, modes: modes.hz.length,
    coldMs: round(coldMs), krylov: modes.frame.dimension, residual: Number(modes.frame.residual.toExponential(1)),
    hzFirst: Number(modes.hz[0].toFixed(3)), hzLast: Number(modes.hz[modes.hz.length - 1].toFixed(3)),
    staticMs: Math.round(median(staticTimes) * 100) / 100, buildMs: round(median(buildTimes)),
    joints: tree.frame.jointCount, dofs: tree.frame.dofCount, branches: s.branchCount, leaves: s.leafCount,
  }) + "\n");
  expect(Number.isFinite(value)).toBe(true);
  expect(modes.hz.length).toBe(20);
});
