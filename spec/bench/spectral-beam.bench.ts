/**
 * spectral-beam.textures.ms: synthesize every motion texture of Habel 2009 §5.4 / §7.2 at 256²
 * (node, one core): four branch levels (one synthesizeMotionField call each, the r and s
 * channels) and the leaves' three channels (two calls), into one RGBA Float32Array of three
 * 256² tiles: levels 0, 1 in tile 0 (RG, BA), levels 2, 3 in tile 1, leaves in tile 2 (RGB).
 * Warm-up once, median of 5. Prints one JSON line; asserts no time (targets: targets.json). Asserts
 * that every channel was written (non-zero RMS, finite) and that a seed gives the same textures again.
 */
import {
  branchMotionSpectrum, leafMetresPerUnit, leafMotionSpectrum, resonanceFrequency, synthesizeMotionField,
} from "../../app/animators/spectral-beam/motion";
import { Rng } from "../../app/math/rng";
import { defaultsOf } from "../../app/math/params";
import { grammarToSkeleton } from "../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../app/lsystem/presets";
import { applyTaper } from "../../app/tree/taper";
import { WindField } from "../../app/wind/wind-field";
import { SpectralBeamTwin } from "../../app/animators/spectral-beam/twin";
import { spectralBeamParams } from "../../app/animators/spectral-beam/params";

it("spectral-beam.textures.ms", () => {
  const size = 256;
  const tile = size * size * 4;
  const rgba = new Float32Array(tile * 3);
  const meanSpeed = 6;
  // Typical branch lengths per level (m) and a damping ratio per level (§5.4, "Damping").
  const levels = [
    branchMotionSpectrum(resonanceFrequency(8), 0.9, meanSpeed),
    branchMotionSpectrum(resonanceFrequency(3), 0.5, meanSpeed),
    branchMotionSpectrum(resonanceFrequency(1), 0.2, meanSpeed),
    branchMotionSpectrum(resonanceFrequency(0.3), 0.1, meanSpeed),
  ];
  const leaves = leafMotionSpectrum(meanSpeed, leafMetresPerUnit(0.08, size), size);
  const synthesizeAll = (seed: number): void => {
    const rng = new Rng(seed);
    for (let level = 0; level < 4; level++) {
      const base = (level >> 1) * tile + 2 * (level & 1);
      synthesizeMotionField(size, levels[level], rng.fork(level), rgba, rgba, 4, base, base + 1);
    }
    synthesizeMotionField(size, leaves, rng.fork(4), rgba, rgba, 4, 2 * tile, 2 * tile + 1);
    synthesizeMotionField(size, leaves, rng.fork(5), rgba, rgba, 4, 2 * tile + 2, 2 * tile + 3);
  };
  synthesizeAll(0); // warm the JIT and the per-size work buffers
  const times: number[] = [];
  for (let i = 1; i <= 5; i++) {
    const t0 = performance.now();
    synthesizeAll(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[2];
  process.stdout.write(JSON.stringify({ bench: "spectral-beam.textures.ms", value: Math.round(median * 10) / 10, unit: "ms" }) + "\n");
  expect(rgba.every(Number.isFinite)).toBe(true);
  // Every channel of the three tiles holds a field: levels 0 to 3 in RG and BA of tiles 0 and 1, the
  // leaves' three in RGB of tile 2 (the fourth channel of tile 2 is the second leaf call's spare).
  for (let t = 0; t < 3; t++) {
    for (let c = 0; c < 4; c++) {
      let ss = 0;
      for (let i = t * tile + c; i < (t + 1) * tile; i += 4) ss += rgba[i] * rgba[i];
      expect(Math.sqrt(ss / (size * size))).toBeGreaterThan(0);
    }
  }
  // The same seed makes the same textures (the timed calls did all the work, each time).
  const once = rgba.slice();
  synthesizeAll(5);
  expect(rgba).toEqual(once);
});

/**
 * spectral-beam.update.habel.ms: the CPU's whole share of a frame on the Habel-scale tree (node,
 * one core): the wind uniforms and the per-branch composition of the ancestors (twin.update).
 * Asserts that the frames moved the tree: the branch data changed and the branch tips moved.
 */
it("spectral-beam.update.habel.ms", () => {
  const habel = TREE_PRESETS.find((p) => p.name === "habel")!;
  const s = applyTaper(grammarToSkeleton(habel.text, { depth: habel.defaultDepth, seed: 1, fileName: "habel.lsys" }), 0.6);
  const twin = new SpectralBeamTwin(s, defaultsOf(spectralBeamParams), new Rng(1));
  const wind = new WindField({ speed: 12, direction: 30, turbulence: 0.4, gust: 0.5, seed: 3 });
  let t = 0;
  for (let i = 0; i < 60; i++) twin.update((t += 1 / 60), wind); // warm the JIT
  const tips = (): Float64Array => {
    const out = new Float64Array(3 * s.branchCount);
    for (let b = 0; b < s.branchCount; b++) twin.tipPosition(b, out, 3 * b);
    return out;
  };
  const dataBefore = twin.branchData.slice(), tipsBefore = tips();
  const frames = 300;
  const t0 = performance.now();
  for (let i = 0; i < frames; i++) twin.update((t += 1 / 60), wind);
  const value = Math.round(((performance.now() - t0) / frames) * 1000) / 1000;
  process.stdout.write(JSON.stringify({ bench: "spectral-beam.update.habel.ms", value, unit: "ms", branches: s.branchCount }) + "\n");
  expect(twin.hasNonFinite()).toBe(false);
  expect(twin.branchData).not.toEqual(dataBefore);
  const tipsAfter = tips();
  let moved = 0;
  for (let i = 0; i < tipsAfter.length; i++) moved = Math.max(moved, Math.abs(tipsAfter[i] - tipsBefore[i]));
  expect(moved).toBeGreaterThan(1e-3); // metres, in a 12 m/s wind after 5 s
  expect(moved).toBeLessThan(10);
});
