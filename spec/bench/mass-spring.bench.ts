/**
 * mass-spring.step.habel.ms: one implicit Euler step (Van Haevre 2006 §4.2, Baraff and Witkin
 * 1998) of the Habel-scale tree's skeleton (the "habel" preset, seed 1) on the CPU (node, one
 * core), at dt = 1/30 s: forces and Jacobians assembled into the block-3×3 matrix, the tree's
 * block LDLᵀ, CG to a relative residual of 1e-6. Wind-like force: drag of a 15 m/s wind whose
 * direction and strength swing slowly. Median of 60 steps after 30 warm-up steps; also reports CG
 * iterations, and the same step with block-Jacobi CG for comparison. Prints one JSON line per
 * figure; asserts no time. Target (issue 6): at most 4 ms.
 */
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { MassSpringSystem } from "../../app/animators/mass-spring/system";
import { ImplicitEuler, type PreconditionerKind } from "../../app/animators/mass-spring/implicit";

function run(kind: PreconditionerKind): { median: number; iterations: number; maxIterations: number; residual: number; masses: number } {
  const s = grammarToSkeleton(TREE_PRESETS.find((p) => p.name === "habel")!.text, { seed: 1 });
  const sys = new MassSpringSystem(s);
  const solver = new ImplicitEuler(sys, { preconditioner: kind, maxIterations: 500 });
  const h = 1 / 30;
  let t = 0, iterations = 0, maxIterations = 0, residual = 0;
  const step = (): void => {
    const a = 0.5 * Math.sin(0.7 * t), u = 15 * (1 + 0.3 * Math.sin(2.1 * t));
    sys.windDrag(u * Math.cos(a), 0, u * Math.sin(a));
    solver.step(h);
    t += h;
  };
  for (let i = 0; i < 30; i++) step();
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t0 = performance.now();
    step();
    times.push(performance.now() - t0);
    iterations += solver.stats.iterations;
    maxIterations = Math.max(maxIterations, solver.stats.iterations);
    residual = Math.max(residual, solver.stats.residual);
  }
  times.sort((a, b) => a - b);
  expect(sys.isFinite()).toBe(true);
  return { median: times[30], iterations: iterations / 60, maxIterations, residual, masses: sys.count };
}

it("mass-spring.step.habel.ms", () => {
  const r = run("tree-ldlt");
  process.stdout.write(
    JSON.stringify({ bench: "mass-spring.step.habel.ms", value: Math.round(r.median * 1000) / 1000, unit: "ms", masses: r.masses, cgIterations: r.iterations, cgMaxIterations: r.maxIterations, maxResidual: r.residual }) + "\n",
  );
  expect(Number.isFinite(r.median)).toBe(true);
});

it("mass-spring.step.habel.jacobi.ms", () => {
  const r = run("jacobi");
  process.stdout.write(
    JSON.stringify({ bench: "mass-spring.step.habel.jacobi.ms", value: Math.round(r.median * 1000) / 1000, unit: "ms", masses: r.masses, cgIterations: r.iterations, cgMaxIterations: r.maxIterations, maxResidual: r.residual }) + "\n",
  );
  expect(Number.isFinite(r.median)).toBe(true);
});
