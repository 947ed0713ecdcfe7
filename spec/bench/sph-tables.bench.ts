/**
 * Akagi and Kitajima's Tables 3 and 4, measured here: the time of one full step (the wind's SPH
 * substeps with the tree in its sums, then the tree's deformation and breaking) at the paper's
 * time step (0.01 s) and particle counts, in node on one core.
 *  - sph-particles.table3.<tree particles>.ms: 7,680 wind particles, the tree at the paper's six
 *    sizes (16,877 to 102,282 particles): the Habel-scale tree's particle tree at the bone spacing
 *    that gives that many (the count reached is printed beside it);
 *  - sph-particles.table4.<wind particles>.ms: about 21,900 tree particles, the wind at the paper's six
 *    sizes (2,560 to 35,072);
 *  - sph-particles.table3.growth: the cost per tree particle of the last row of Table 3 over the
 *    first (the paper's grows 2.4 times; a cost linear in the count is 1).
 * Each row: the median of STEPS steps after two warm-up steps, in a steady 10 m/s wind. Prints one
 * JSON line per figure; asserts no time (targets: targets.json, 10 times faster than the paper on
 * every row). Asserts the tree counts are the paper's within 5 % (the wind lattice's within 15 %: it grows by whole layers) and the state stays finite.
 * SPH_TABLES_SCALE=0.1 runs every row at a tenth of the counts (a quick look, not the figures).
 */
import { buildParticleTree } from "../../app/animators/sph-particles/particle-tree";
import { SphTreeSimulation } from "../../app/animators/sph-particles/simulation";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { Rng } from "../../app/math/rng";
import { applyTaper } from "../../app/tree/taper";
import type { TreeSkeleton } from "../../app/tree/skeleton";
import type { WindVelocity } from "../../app/animators/sph-particles/sph";

/** The paper's rows: particle count and seconds per frame (SPH, tree deformation, total). */
const TABLE3 = { wind: 7680, rows: [[16877, 0.36], [22319, 0.535], [31812, 0.829], [44222, 1.325], [72759, 3.028], [102282, 5.219]] } as const;
const TABLE4 = { tree: 21900, rows: [[2560, 0.439], [5120, 0.484], [9984, 0.569], [17664, 0.787], [25088, 1.27], [35072, 2.492]] } as const;
const DT = 0.01;
const STEPS = Number(process.env.SPH_TABLES_STEPS ?? 5);
const SCALE = Number(process.env.SPH_TABLES_SCALE ?? 1);

const steady: WindVelocity = (_x, _y, _z, _t, out, o) => {
  out[o] = 10;
  out[o + 1] = 0;
  out[o + 2] = 0;
};

function habel(): TreeSkeleton {
  const p = TREE_PRESETS.find((t) => t.name === "habel")!;
  return applyTaper(grammarToSkeleton(p.text, { depth: p.defaultDepth, seed: 1, fileName: "habel.lsys" }), 0.6);
}

/** The bone spacing (m) at which the skeleton's particle tree has about `want` particles (bisection on the spacing's logarithm). */
function spacingFor(s: TreeSkeleton, want: number): { spacing: number; count: number } {
  const count = (spacing: number) => buildParticleTree(s, { spacing }).count;
  let lo = Math.log(0.005), hi = Math.log(2);
  let best = { spacing: Math.exp(hi), count: count(Math.exp(hi)) };
  for (let i = 0; i < 14; i++) {
    const mid = 0.5 * (lo + hi), c = count(Math.exp(mid));
    if (Math.abs(c - want) < Math.abs(best.count - want)) best = { spacing: Math.exp(mid), count: c };
    if (Math.abs(c / want - 1) < 0.01) break;
    if (c > want) lo = mid;
    else hi = mid;
  }
  return best;
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1];
}

/** One row: the median step time, and the counts reached. */
function row(s: TreeSkeleton, spacing: number, windBudget: number): { ms: number; tree: number; wind: number; finite: boolean } {
  const sim = new SphTreeSimulation(s, steady, new Rng(1), { tree: { spacing }, windBudget, weighStanding: false });
  const times: number[] = [];
  for (let i = 0; i < 2 + STEPS; i++) {
    const t0 = performance.now();
    sim.step(DT);
    if (i >= 2) times.push(performance.now() - t0);
  }
  const c = sim.counts();
  return { ms: median(times), tree: c.treeParticles, wind: c.windParticles, finite: sim.position.every(Number.isFinite) };
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

it("sph-particles: Akagi and Kitajima's Tables 3 and 4, one full step per row", () => {
  const s = habel();
  const perParticle: number[] = [];
  for (const [tree, paper] of TABLE3.rows) {
    const want = Math.round(tree * SCALE);
    const { spacing } = spacingFor(s, want);
    const r = row(s, spacing, Math.round(TABLE3.wind * SCALE));
    perParticle.push(r.ms / r.tree);
    process.stdout.write(JSON.stringify({ bench: `sph-particles.table3.${tree}.ms`, value: round(r.ms), unit: "ms", treeParticles: r.tree, windParticles: r.wind, spacing: round(spacing, 4), paperMs: paper * 1000, faster: round((paper * 1000) / r.ms) }) + "\n");
    expect(Math.abs(r.tree / want - 1)).toBeLessThan(0.05);
    expect(Math.abs(r.wind / (TABLE3.wind * SCALE) - 1)).toBeLessThan(0.15);
    expect(r.finite).toBe(true);
  }
  const growth = perParticle[perParticle.length - 1] / perParticle[0];
  process.stdout.write(JSON.stringify({ bench: "sph-particles.table3.growth", value: round(growth, 2), unit: "ratio", paper: round((5.219 / 102282) / (0.36 / 16877), 2) }) + "\n");

  const { spacing } = spacingFor(s, Math.round(TABLE4.tree * SCALE));
  for (const [wind, paper] of TABLE4.rows) {
    const r = row(s, spacing, Math.round(wind * SCALE));
    process.stdout.write(JSON.stringify({ bench: `sph-particles.table4.${wind}.ms`, value: round(r.ms), unit: "ms", treeParticles: r.tree, windParticles: r.wind, paperMs: paper * 1000, faster: round((paper * 1000) / r.ms) }) + "\n");
    expect(Math.abs(r.wind / (wind * SCALE) - 1)).toBeLessThan(0.15);
    expect(r.finite).toBe(true);
  }
}, 1_800_000);
