/**
 * The forest (Zioma 2007 at the scale it was made for): the seeded placement, the stateless per-tree motion
 * under the wind texture (blast, vortex, rolling gusts, still air), and the levels of detail.
 */
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { buildTreeGeometry } from "../../app/tree/geometry";
import { WindField } from "../../app/wind/wind-field";
import { createPrimitive, validatePrimitive } from "../../app/wind/primitives";
import { CURRENT_VARIANT, FOREST_CLEARING, scatterForest, validateForestSpec, type ForestPlacement, type ForestSpec } from "../../app/forest/scatter";
import { ForestMotion, ForestWindGrid, forestTexel, forestVariantTable, NEVER_DROPPED, type ForestVariantTable } from "../../app/forest/forest-motion";
import { BUDGET_SCALES, DEFAULT_LOD, dropAttributes, ForestBuckets, LOD_LEVELS, lodArrays, lodAt, validateLod } from "../../app/forest/forest-lod";

const demoPreset = TREE_PRESETS.find((p) => p.name === "demo")!;
const demo = grammarToSkeleton(demoPreset.text, { depth: demoPreset.defaultDepth, seed: 1 });
let table: ForestVariantTable;
beforeAll(() => {
  table = forestVariantTable(demo);
});

const known = (n: string) => n === CURRENT_VARIANT || TREE_PRESETS.some((p) => p.name === n);

/** Every tree's top at time t (the wind texture filled for t), flat xyz. */
function tops(placement: ForestPlacement, field: WindField, grid: ForestWindGrid, t: number, out = new Float64Array(3 * placement.count)): Float64Array {
  grid.fill(field, t);
  const motion = new ForestMotion(table, grid);
  const tree = new Float64Array(4), lod = new Float64Array([1, 0, 1, 1]);
  for (let k = 0; k < placement.count; k++) {
    tree[0] = placement.x[k]; tree[1] = placement.z[k]; tree[2] = placement.phase[k]; tree[3] = 1 / placement.stiffness[k];
    lod[0] = Math.cos(placement.yaw[k]); lod[1] = Math.sin(placement.yaw[k]);
    motion.topPosition(t, tree, lod, placement.scale[k], out, 3 * k);
  }
  return out;
}

function still(): WindField {
  return new WindField({ speed: 0, gust: 0, turbulence: 0 }, { modulation: false });
}

describe("the forest's placement", () => {
  const spec: ForestSpec = { trees: 300, area: 80, variants: ["current", "demo"], seed: 7 };

  it("puts the trees asked for inside the area, out of the clearing, each with its own yaw, scale, phase, stiffness and variant", () => {
    const p = scatterForest(validateForestSpec(spec, known));
    expect(p.count).toBe(300);
    let bad = 0;
    const variants = new Set<number>();
    for (let k = 0; k < p.count; k++) {
      if (Math.abs(p.x[k]) > 40 || Math.abs(p.z[k]) > 40 || Math.hypot(p.x[k], p.z[k]) < FOREST_CLEARING) bad++;
      if (!(p.scale[k] >= 0.8 && p.scale[k] <= 1.2 && p.stiffness[k] >= 0.7 && p.stiffness[k] <= 1.4)) bad++;
      variants.add(p.variant[k]);
    }
    expect(bad).toBe(0);
    expect([...variants].sort()).toEqual([0, 1]);
    expect(new Set(p.phase).size).toBe(300);
  });

  it("gives the same forest for the same seed and another for another seed", () => {
    const a = scatterForest(spec), b = scatterForest(spec), c = scatterForest({ ...spec, seed: 8 });
    expect(Array.from(a.x)).toEqual(Array.from(b.x));
    expect(Array.from(a.phase)).toEqual(Array.from(b.phase));
    expect(Array.from(a.x)).not.toEqual(Array.from(c.x));
  });

  it("names what is wrong in a bad spec", () => {
    expect(() => validateForestSpec({ ...spec, trees: 0 }, known)).toThrow(/forest.trees must be a whole number from 1 to 10000; got 0/);
    expect(() => validateForestSpec({ ...spec, trees: 10001 }, known)).toThrow(/from 1 to 10000/);
    expect(() => validateForestSpec({ ...spec, area: 5000 }, known)).toThrow(/forest.area must be a number of metres from 10 to 400/);
    expect(() => validateForestSpec({ ...spec, variants: ["oak"] }, known)).toThrow(/no tree "oak"/);
    expect(() => validateForestSpec({ ...spec, variants: [] }, known)).toThrow(/1 to 4 tree names/);
    expect(() => validateForestSpec({ ...spec, trees: 10000, area: 20 }, known)).toThrow(/do not fit in 20 m/);
    expect(() => validateForestSpec({ ...spec, size: 3 }, known)).toThrow(/unknown setting "size"/);
    expect(() => validateLod({ near: 50, far: 40 })).toThrow(/far \(40 m\) must be beyond near \(50 m\)/);
    expect(() => validateLod({ band: -1 })).toThrow(/forestLod.band/);
    // A blend that would begin before the previous one ends (it would shrink at `near` what the middle level draws).
    expect(() => validateLod({ near: 35, far: 40, band: 12 })).toThrow(/forestLod.band must be metres from 0 to 5 \(the smaller of near and far - near\); got 12/);
  });
});

describe("the forest's motion", () => {
  const placement = scatterForest({ trees: 200, area: 100, variants: ["current"], seed: 3 });
  const grid = new ForestWindGrid(32, 52);

  it("stays still in still air", () => {
    const rest = tops(placement, still(), grid, 0);
    for (const t of [0.5, 3.7, 11]) {
      const now = tops(placement, still(), grid, t);
      let worst = 0;
      for (let i = 0; i < now.length; i++) worst = Math.max(worst, Math.abs(now[i] - rest[i]));
      expect(worst).toBe(0);
    }
    // The tops stand where the trees stand, at the tree's height times its scale.
    expect(rest[0]).toBeCloseTo(placement.x[0] + placement.scale[0] * (Math.cos(placement.yaw[0]) * table.top[0] - Math.sin(placement.yaw[0]) * table.top[2]), 5);
    expect(rest[1]).toBeCloseTo(placement.scale[0] * table.top[1], 5);
  });

  it("is a function of the time alone: any frame evaluated directly is the frame stepped to, the same seed the same motion", () => {
    const field = new WindField({ speed: 12, gust: 0.6, turbulence: 0.3, seed: 4 });
    const direct = tops(placement, field, grid, 9.25).slice();
    tops(placement, field, grid, 2);
    tops(placement, field, grid, 30);
    expect(Array.from(tops(placement, field, grid, 9.25))).toEqual(Array.from(direct));
    const other = tops(scatterForest({ trees: 200, area: 100, variants: ["current"], seed: 3 }), new WindField({ speed: 12, gust: 0.6, turbulence: 0.3, seed: 4 }), grid, 9.25);
    expect(Array.from(other)).toEqual(Array.from(direct));
  });

  it("moves the trees near a blast before the far ones: arrival time grows with distance", () => {
    const field = still();
    field.primitives.push(createPrimitive(validatePrimitive({ kind: "blast", x: -50, z: 0, strength: 30, radius: 50, start: 1 }, 0)));
    const rest = tops(placement, still(), grid, 0).slice();
    // Each tree's displacement over 4 s; it arrives when the top has moved a fifth of its largest.
    const steps = 4 * 30, n = placement.count;
    const moved = new Float64Array(n * (steps + 1)), peak = new Float64Array(n);
    const buf = new Float64Array(3 * n);
    for (let step = 0; step <= steps; step++) {
      tops(placement, field, grid, 1 + step / 30, buf);
      for (let k = 0; k < n; k++) {
        const m = Math.hypot(buf[3 * k] - rest[3 * k], buf[3 * k + 2] - rest[3 * k + 2]);
        moved[k * (steps + 1) + step] = m;
        peak[k] = Math.max(peak[k], m);
      }
    }
    const arrival = new Float64Array(n).fill(Infinity);
    for (let k = 0; k < n; k++) {
      if (peak[k] < 1e-4) continue;
      for (let step = 0; step <= steps; step++) if (moved[k * (steps + 1) + step] > 0.2 * peak[k]) { arrival[k] = 1 + step / 30; break; }
    }
    const near: number[] = [], far: number[] = [];
    const pairs: [number, number][] = [];
    for (let k = 0; k < placement.count; k++) {
      const d = Math.hypot(placement.x[k] + 50, placement.z[k]);
      if (arrival[k] === Infinity) continue;
      pairs.push([d, arrival[k]]);
      if (d < 30) near.push(arrival[k]);
      if (d > 60) far.push(arrival[k]);
    }
    expect(pairs.length).toBeGreaterThan(100);
    expect(near.length).toBeGreaterThan(5);
    expect(far.length).toBeGreaterThan(5);
    expect(Math.max(...near)).toBeLessThan(Math.min(...far));
    // Rank correlation of distance and arrival (Spearman).
    const rank = (v: number[]) => { const o = v.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]); const r = new Array(v.length); o.forEach(([, i], j) => (r[i] = j)); return r; };
    const rd = rank(pairs.map((p) => p[0])), ra = rank(pairs.map((p) => p[1]));
    const np = pairs.length;
    let s = 0;
    for (let i = 0; i < np; i++) s += (rd[i] - ra[i]) ** 2;
    expect(1 - (6 * s) / (np * (np * np - 1))).toBeGreaterThan(0.9);
  });

  it("turns the trees around a vortex in opposite directions on opposite sides", () => {
    const field = still();
    field.primitives.push(createPrimitive(validatePrimitive({ kind: "vortex", x: 25, z: 20, strength: 20, radius: 10 }, 0)));
    const rest = tops(placement, still(), grid, 0).slice();
    const now = tops(placement, field, grid, 4);
    let east = 0, west = 0, swirl = 0, against = 0;
    for (let k = 0; k < placement.count; k++) {
      const dx = placement.x[k] - 25, dz = placement.z[k] - 20, r = Math.hypot(dx, dz);
      if (r < 4 || r > 25) continue;
      const mx = now[3 * k] - rest[3 * k], mz = now[3 * k + 2] - rest[3 * k + 2];
      // Along the swirl (-dz, dx) / r: every tree the same way round.
      if ((-dz * mx + dx * mz) / r > 1e-4) swirl++; else against++;
      if (Math.abs(dz) < 6) { if (dx > 0) east += mz; else west += mz; }
    }
    expect(swirl).toBeGreaterThan(10);
    expect(against).toBe(0);
    expect(east).toBeGreaterThan(1e-3);
    expect(west).toBeLessThan(-1e-3);
  });

  it("carries a gust front across the forest at the wind's speed", () => {
    const field = new WindField({ speed: 10, direction: 0, gust: 1, turbulence: 0, seed: 11 }, { modulation: false });
    const motion = new ForestMotion(table, grid);
    const up = new Float64Array([1, 0, 1, 1]), out = new Float64Array(3);
    const a = [-40, 0, 0, 1], b = [40, 0, 0, 1];
    const dt = 0.1, steps = 900;
    const sa = new Float64Array(steps), sb = new Float64Array(steps);
    for (let i = 0; i < steps; i++) {
      const t = 10 + i * dt;
      grid.fill(field, t);
      motion.topPosition(t, a, up, 1, out, 0); sa[i] = out[0] - a[0];
      motion.topPosition(t, b, up, 1, out, 0); sb[i] = out[0] - b[0];
    }
    const mean = (v: Float64Array) => v.reduce((x, y) => x + y, 0) / v.length;
    const ma = mean(sa), mb = mean(sb);
    let best = -Infinity, lag = 0;
    for (let k = 0; k < 200; k++) {
      let c = 0;
      for (let i = 0; i + k < steps; i++) c += (sa[i] - ma) * (sb[i + k] - mb);
      if (c > best) { best = c; lag = k * dt; }
    }
    // 80 m downwind at 10 m/s: 8 s later.
    expect(Math.abs(lag - 8)).toBeLessThan(0.3);
  });
});

describe("the forest's levels of detail", () => {
  const geometry = buildTreeGeometry(demo);
  const drop = dropAttributes(geometry.bark, demo, false);
  const leafDrop = dropAttributes(geometry.leaves!, demo, true);

  it("keeps fewer vertices at each coarser level: the trunk and first level, then the trunk (with an eighth of the leaves)", () => {
    const counts = [0, 1, 2].map((l) => lodArrays(geometry.bark, drop, l).vertexCount);
    const leaves = [0, 1, 2].map((l) => lodArrays(geometry.leaves!, leafDrop, l).vertexCount);
    expect(counts[0]).toBe(geometry.bark.positions.length / 3);
    expect(counts[1]).toBeLessThan(counts[0]);
    expect(counts[2]).toBeLessThan(counts[1]);
    const trunkOnly = lodArrays(geometry.bark, drop, 2);
    expect(Array.from(new Set(trunkOnly.branchIndex))).toEqual([0]);
    expect(leaves[1] / leaves[0]).toBeGreaterThan(0.35);
    expect(leaves[1] / leaves[0]).toBeLessThan(0.65);
    expect(leaves[2] / leaves[0]).toBeGreaterThan(0.04);
    expect(leaves[2] / leaves[0]).toBeLessThan(0.22);
  });

  it("changes level with nothing to pop: at the boundary the finer mesh draws what the coarser draws, the rest shrunk to points", () => {
    const grid = new ForestWindGrid(8, 20);
    const field = new WindField({ speed: 15, gust: 0.3, turbulence: 0.3, seed: 2 });
    grid.fill(field, 5);
    const motion = new ForestMotion(table, grid);
    for (const [boundary, lodFine] of [[DEFAULT_LOD.near, 0], [DEFAULT_LOD.far, 1]] as const) {
      const w = new Float64Array(2);
      expect(lodAt(boundary, DEFAULT_LOD, w)).toBe(lodFine + 1);
      const tree = [3, 4, 0.7, 1], lod = [Math.cos(1), Math.sin(1), w[0], w[1]];
      const fine = lodArrays(geometry.bark, drop, lodFine), coarse = lodArrays(geometry.bark, drop, lodFine + 1);
      const a = new Float64Array(6);
      const deformed = (m: typeof fine, meshLod: number, v: number) => {
        motion.deformVertex(5, tree, lod, meshLod, m.positions.subarray(3 * v), m.normals.subarray(3 * v), m.branchIndex[v], m.wVector.subarray(4 * v), m.drop.subarray(4 * v), a);
        return [a[0], a[1], a[2]];
      };
      // The coarse mesh's vertices are the first of the fine mesh's with the same rest position.
      const key = (m: typeof fine, v: number) => `${m.positions[3 * v]},${m.positions[3 * v + 1]},${m.positions[3 * v + 2]},${m.branchIndex[v]}`;
      const fineAt = new Map<string, number>();
      for (let v = fine.vertexCount - 1; v >= 0; v--) fineAt.set(key(fine, v), v);
      let worst = 0, matched = 0;
      for (let v = 0; v < coarse.vertexCount; v++) {
        const f = fineAt.get(key(coarse, v));
        if (f === undefined) continue;
        matched++;
        const p = deformed(fine, lodFine, f), q = deformed(coarse, lodFine + 1, v);
        worst = Math.max(worst, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
      }
      expect(matched).toBe(coarse.vertexCount);
      expect(worst).toBeLessThan(1e-9);
      // What only the fine mesh has is shrunk to points: those triangles have no area.
      let area = 0, dropped = 0;
      for (let i = 0; i < fine.indices.length; i += 3) {
        const vs = [fine.indices[i], fine.indices[i + 1], fine.indices[i + 2]];
        if (!vs.some((v) => Math.round(fine.drop[4 * v]) === lodFine + 1)) continue;
        if (!vs.every((v) => Math.round(fine.drop[4 * v]) === lodFine + 1)) continue;
        dropped++;
        const [p, q, r] = vs.map((v) => deformed(fine, lodFine, v));
        const u = [q[0] - p[0], q[1] - p[1], q[2] - p[2]], s = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
        area += Math.hypot(u[1] * s[2] - u[2] * s[1], u[2] * s[0] - u[0] * s[2], u[0] * s[1] - u[1] * s[0]);
      }
      expect(dropped).toBeGreaterThan(10);
      expect(area).toBeLessThan(1e-9);
    }
  });

  it("moves the branches of far trees with their trunk only (simulation level of detail)", () => {
    const grid = new ForestWindGrid(8, 20);
    grid.fill(new WindField({ speed: 25, gust: 0, turbulence: 0 }, { modulation: false }), 3);
    const motion = new ForestMotion(table, grid);
    // The same tree with every branch but the trunk made rigid.
    const data = table.data.slice();
    for (let b = 1; b < table.branchCount; b++) for (const j of [1, 2]) for (let k = 0; k < 3; k++) data[forestTexel(b, j) + k] = 0;
    const rigid = new ForestMotion({ ...table, data }, grid);
    const m = lodArrays(geometry.bark, drop, 0);
    const tree = [0, 0, 0.2, 1], keep = [NEVER_DROPPED, 0, 0, 0];
    let farVsRigid = 0, nearVsRigid = 0;
    const a = new Float64Array(6), c = new Float64Array(6);
    for (let v = 0; v < m.vertexCount; v++) {
      const args = [m.positions.subarray(3 * v), m.normals.subarray(3 * v), m.branchIndex[v], m.wVector.subarray(4 * v), keep] as const;
      rigid.deformVertex(3, tree, [1, 0, 1, 1], 0, ...args, c);
      motion.deformVertex(3, tree, [1, 0, 0, 0], 0, ...args, a);
      farVsRigid = Math.max(farVsRigid, Math.hypot(a[0] - c[0], a[1] - c[1], a[2] - c[2]));
      motion.deformVertex(3, tree, [1, 0, 1, 1], 0, ...args, a);
      nearVsRigid = Math.max(nearVsRigid, Math.hypot(a[0] - c[0], a[1] - c[1], a[2] - c[2]));
    }
    expect(farVsRigid).toBe(0);
    expect(nearVsRigid).toBeGreaterThan(1e-4);
  });

  it("shrinks the bands just enough to keep the trees on screen within a vertex budget", () => {
    const p = scatterForest({ trees: 3000, area: 300, variants: ["a"], seed: 6 });
    const buckets = new ForestBuckets(p, 1, 300);
    const vertices = [5000, 1000, 100], drawn = new Float64Array(1);
    const count = (k: number) => {
      let total = 0;
      for (let t = 0; t < p.count; t++) {
        const d = Math.hypot(p.x[t], p.z[t]);
        total += vertices[d < DEFAULT_LOD.near * k ? 0 : d < DEFAULT_LOD.far * k ? 1 : 2];
      }
      return total;
    };
    expect(buckets.budgetScale(0, 0, DEFAULT_LOD, vertices, Infinity, null, drawn)).toBe(1);
    expect(drawn[0]).toBe(count(1));
    const budget = 0.5 * count(1);
    const k = buckets.budgetScale(0, 0, DEFAULT_LOD, vertices, budget, null, drawn);
    expect(k).toBeLessThan(1);
    expect(drawn[0]).toBe(count(k));
    expect(count(k)).toBeLessThanOrEqual(budget);
    // The next larger share would pass the budget.
    expect(count(BUDGET_SCALES[BUDGET_SCALES.indexOf(k) - 1])).toBeGreaterThan(budget);
    expect(buckets.budgetScale(0, 0, DEFAULT_LOD, vertices, 10, null, drawn)).toBe(0);
  });

  it("buckets every tree on screen once per assignment, by variant and level, and leaves out the chunks off screen", () => {
    const p = scatterForest({ trees: 2000, area: 300, variants: ["a", "b"], seed: 5 });
    const buckets = new ForestBuckets(p, 2, 300);
    const visible = new Uint8Array(buckets.chunks * buckets.chunks).fill(1);
    visible[0] = 0; visible[5] = 0;
    buckets.assign(10, -20, DEFAULT_LOD, visible);
    const off = Array.from(buckets.chunkOf).filter((c) => c === 0 || c === 5).length;
    expect(off).toBeGreaterThan(0);
    expect(buckets.counts.reduce((a, b) => a + b, 0)).toBe(2000 - off);
    buckets.assign(10, -20, DEFAULT_LOD);
    const total = buckets.counts.reduce((a, b) => a + b, 0);
    expect(total).toBe(2000);
    const perLevel = [0, 0, 0];
    for (let k = 0; k < buckets.bucketCount; k++) perLevel[k % LOD_LEVELS] += buckets.counts[k];
    expect(perLevel[0]).toBeGreaterThan(0);
    expect(perLevel[2]).toBeGreaterThan(perLevel[0]);
    for (let t = 0; t < p.count; t++) expect(buckets.level[t]).toBe(lodAt(Math.hypot(p.x[t] - 10, p.z[t] + 20), DEFAULT_LOD, new Float64Array(2)));
  });
});
