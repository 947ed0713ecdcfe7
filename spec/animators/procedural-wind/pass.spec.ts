// The procedural-wind per-branch pass's TypeScript twin (twin.ts's composeChain, ownRotation;
// branch-pass-wind.ts) against the CPU step it replaces, and what the pass is given.
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { TREE_PRESETS } from "../../../app/lsystem/presets";
import type { TreeSkeleton } from "../../../app/tree/skeleton";
import { WindField } from "../../../app/wind/wind-field";
import { Blast, Fan, Vortex, type WindPrimitive } from "../../../app/wind/primitives";
import { proceduralWindParams } from "../../../app/animators/procedural-wind/params";
import { ProceduralWindTwin, branchTexel } from "../../../app/animators/procedural-wind/twin";
import { FRAME_FLOATS, PRIMITIVE_FLOATS, passTable, tableTexel, writeFrame } from "../../../app/animators/procedural-wind/pass";
import { packPrimitives, packedPrimitivesAt } from "../../../app/animators/branch-pass-wind";
import { chainDepth } from "../../../app/animators/procedural-wind/provider";
import { fourLevelTree } from "./fixtures";

const DT = 1 / 60;
const defaults = defaultsOf(proceduralWindParams);
const preset = (name: string): TreeSkeleton => grammarToSkeleton(TREE_PRESETS.find((p) => p.name === name)!.text, { seed: 1 });
const trees: [string, () => TreeSkeleton][] = [["four-level", fourLevelTree], ["demo", () => preset("demo")], ["habel", () => preset("habel")]];

/** A gusty, turbulent wind with a blast, a vortex and a fan near the tree. */
function stormy(): WindField {
  const w = new WindField({ speed: 12, direction: 35, turbulence: 0.5, gust: 0.6, vertical: 1, seed: 4 }, { width: 256, height: 64 });
  w.primitives.push(new Blast(6, -3, 0.4, 18, 30, 3, 0.3, 5), new Vortex(-2, 2, 4, 6, 0.2, 8), new Fan(-8, 1, 10, 3, 9, 0, Infinity));
  return w;
}

/** Texels 1, 4.z, 5 and 6 of every branch (what the pass writes per frame). */
function perFrame(tw: ProceduralWindTwin): Float64Array {
  const out = new Float64Array(13 * tw.branchCount);
  for (let b = 0; b < tw.branchCount; b++) {
    const d = tw.branchData, o = 13 * b;
    for (let k = 0; k < 4; k++) {
      out[o + k] = d[branchTexel(b, 1) + k];
      out[o + 4 + k] = d[branchTexel(b, 5) + k];
    }
    for (let k = 0; k < 3; k++) out[o + 8 + k] = d[branchTexel(b, 6) + k];
    out[o + 11] = d[branchTexel(b, 4) + 2];
    out[o + 12] = d[branchTexel(b, 6) + 3];
  }
  return out;
}

function maxDiff(a: Float64Array, b: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe("procedural-wind per-branch pass: the twin", () => {
  describe.each(trees)("%s tree", (_name, build) => {
    const skeleton = build();
    const wind = stormy();
    const stepped = new Map<boolean, ProceduralWindTwin>();
    for (const paperLiteral of [false, true]) stepped.set(paperLiteral, new ProceduralWindTwin(skeleton, { ...defaults, paperLiteral, inertia: 1 }, new Rng(7)));

    test.each([false, true])("paper-literal %p: each branch's chain alone gives the quaternions, composites and wind power of the whole step, at three times", (paperLiteral) => {
      const cpu = stepped.get(paperLiteral)!;
      const chain = new ProceduralWindTwin(skeleton, { ...defaults, paperLiteral, inertia: 1 }, new Rng(7));
      let moved = 0;
      for (const t of [0.25, 0.6, 3.1]) {
        cpu.step(t, DT, wind);
        chain.prepare(t, wind);
        for (let b = 0; b < skeleton.branchCount; b++) chain.composeChain(b);
        const a = perFrame(cpu), c = perFrame(chain);
        // float32 storage in the step, float64 along the chain: the same numbers to float precision.
        expect(maxDiff(a, c)).toBeLessThan(2e-6);
        for (let b = 0; b < skeleton.branchCount; b++) {
          const o = branchTexel(b, 1), d = cpu.branchData;
          moved = Math.max(moved, Math.hypot(d[o], d[o + 1], d[o + 2]));
        }
      }
      // Not a comparison of rest poses: the branches turned (half-angle sines).
      expect(moved).toBeGreaterThan(2e-3);
    });
  });

  test("stateless: frame 600 evaluated directly through the chains equals 600 steps", () => {
    const skeleton = fourLevelTree(), wind = stormy();
    const a = new ProceduralWindTwin(skeleton, defaults, new Rng(3));
    for (let f = 1; f <= 600; f++) a.step(f * DT, DT, wind);
    const b = new ProceduralWindTwin(skeleton, defaults, new Rng(3));
    b.prepare(600 * DT, wind);
    for (let k = 0; k < skeleton.branchCount; k++) b.composeChain(k);
    expect(maxDiff(perFrame(a), perFrame(b))).toBeLessThan(2e-6);
  });

  test("the packed primitives evaluate as primitives.ts does, before, during and after each", () => {
    const wind = stormy();
    const packed = new Float32Array(PRIMITIVE_FLOATS);
    const count = packPrimitives(wind.primitives, packed);
    expect(count).toBe(3);
    const ref = new Float64Array(3), got = new Float64Array(3);
    let largest = 0;
    for (const t of [0, 0.21, 0.5, 0.9, 1.4, 4, 5.5, 9, 12]) {
      for (let i = 0; i < 40; i++) {
        const x = -12 + 0.61 * i, z = -6 + 0.37 * i;
        wind.primitivesAt(x, 3, z, t, ref);
        packedPrimitivesAt(packed, count, x, z, t, got);
        for (let k = 0; k < 3; k++) expect(got[k]).toBeCloseTo(ref[k], 4);
        largest = Math.max(largest, Math.hypot(ref[0], ref[2]));
      }
    }
    expect(largest).toBeGreaterThan(1);
    // A primitive the pass does not know keeps the method on the CPU.
    const odd: WindPrimitive = { add: () => {} };
    expect(packPrimitives([odd], packed)).toBe(-1);
  });

  test("the uniforms and the table hold what the twin computed", () => {
    const skeleton = fourLevelTree(), wind = stormy();
    const tw = new ProceduralWindTwin(skeleton, defaults, new Rng(3));
    tw.setPlacement(1, 0, -2);
    tw.prepare(1.5, wind);
    const frame = new Float32Array(FRAME_FLOATS), prims = new Float32Array(PRIMITIVE_FLOATS);
    expect(writeFrame(tw, wind, frame, prims)).toBe(true);
    expect(frame[0]).toBe(1.5);
    expect(Array.from(frame.subarray(4, 8))).toEqual(Array.from(tw.branchData.subarray(branchTexel(0, 1), branchTexel(0, 1) + 4)));
    expect(frame[22]).toBe(3); // the primitives
    expect(Array.from(frame.subarray(28, 31))).toEqual([1, 0, -2]);
    const table = passTable(tw, skeleton.branchParentX);
    for (let b = 0; b < skeleton.branchCount; b++) {
      expect(table[tableTexel(b, 0) + 3]).toBeCloseTo(tw.branchOmega[b], 4);
      expect(table[tableTexel(b, 2) + 3]).toBeCloseTo(skeleton.branchParentX[b], 6);
    }
    wind.primitives.push({ add: () => {} });
    expect(writeFrame(tw, wind, frame, prims)).toBe(false);
  });

  test("the shipped trees' chains fit the pass", () => {
    for (const [, build] of trees) expect(chainDepth(build())).toBeLessThanOrEqual(64);
  });
});
