import { smallTree } from "./fixtures";
import { MassSpringSystem } from "../../../app/animators/mass-spring/system";
import { ImplicitEuler } from "../../../app/animators/mass-spring/implicit";
import { Recorder, captureRecording, turningWind } from "../../../app/animators/mass-spring/capture";

describe("Recorder (Van Haevre 2006 §4.3)", () => {
  /** A state of M = 2 masses whose every number is `call * 10 + index`, so each sample says which call it came from. */
  function state(call: number, off: number): Float64Array {
    return Float64Array.from({ length: 6 }, (_, i) => call * 10 + i + off);
  }

  it("keeps the first offered step and every stride-th after it, N samples, interval = stride × dt", () => {
    const rec = new Recorder({ masses: 2, dt: 0.01, stride: 3, samples: 4, rest: [0, 0, 0, 1, 1, 1] });
    expect(rec.interval).toBeCloseTo(0.03, 12);
    const full: boolean[] = [];
    for (let call = 0; call < 10; call++) {
      full.push(rec.offer(state(call, 0), state(call, 0.25), state(call, 0.5)));
      expect(rec.taken).toBe(Math.floor(call / 3) + 1);
    }
    // samples at calls 0, 3, 6, 9: full after the 10th call
    expect(full).toEqual([false, false, false, false, false, false, false, false, false, true]);
    expect(rec.done()).toBe(true);
    expect(rec.progress()).toBe(1);
    expect(rec.offer(state(99, 0), state(99, 0), state(99, 0))).toBe(true); // ignored
    const r = rec.finish(7, "test");
    expect(r).toMatchObject({ id: 7, label: "test", masses: 2, samples: 4 });
    expect(r.interval).toBeCloseTo(0.03, 12);
    for (let s = 0; s < 4; s++) {
      for (let m = 0; m < 2; m++) {
        for (let k = 0; k < 3; k++) {
          const i = (s * 2 + m) * 3 + k; // sample-major
          expect(r.positions[i]).toBe(Math.fround(3 * s * 10 + 3 * m + k));
          expect(r.velocities[i]).toBe(Math.fround(3 * s * 10 + 3 * m + k + 0.25));
          expect(r.forces[i]).toBe(Math.fround(3 * s * 10 + 3 * m + k + 0.5));
        }
      }
    }
    expect(Array.from(r.rest)).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it("reports progress, and refuses to finish early", () => {
    const rec = new Recorder({ masses: 1, dt: 1 / 60, stride: 2, samples: 5, rest: [0, 0, 0] });
    const z = new Float64Array(3);
    expect(rec.progress()).toBe(0);
    for (let i = 0; i < 4; i++) rec.offer(z, z, z);
    expect(rec.taken).toBe(2);
    expect(rec.progress()).toBeCloseTo(0.4, 12);
    expect(() => rec.finish(1, "early")).toThrow(Error);
  });

  it("rejects bad options", () => {
    const ok = { masses: 1, dt: 0.01, stride: 1, samples: 2, rest: [0, 0, 0] };
    expect(() => new Recorder({ ...ok, stride: 0 })).toThrow(RangeError);
    expect(() => new Recorder({ ...ok, stride: 1.5 })).toThrow(RangeError);
    expect(() => new Recorder({ ...ok, samples: 1 })).toThrow(RangeError);
    expect(() => new Recorder({ ...ok, dt: 0 })).toThrow(RangeError);
    expect(() => new Recorder({ ...ok, rest: [0, 0] })).toThrow(RangeError);
  });
});

describe("captureRecording and turningWind (§4.3)", () => {
  it("records a simulated tree: interval = stride × dt, the state after each sampled step, the applied force", () => {
    const sys = new MassSpringSystem(smallTree()), solver = new ImplicitEuler(sys);
    const wind = turningWind(sys, 12, 2, 1);
    let steps = 0;
    const dt = 1 / 60, stride = 3, samples = 20, warmup = 10;
    const rec = captureRecording(sys, solver, { dt, stride, samples, warmup, id: 3, label: "2 s", forces: (t) => { steps++; wind(t); } });
    expect(steps).toBe(warmup + (samples - 1) * stride + 1);
    expect(rec.interval).toBeCloseTo(stride * dt, 12);
    expect(rec).toMatchObject({ id: 3, label: "2 s", masses: sys.count, samples });
    expect(rec.positions.length).toBe(samples * sys.count * 3);
    // the last sample is the system's state now, and the force applied in that step
    const last = (samples - 1) * sys.count * 3;
    for (let i = 0; i < 3 * sys.count; i++) {
      expect(rec.positions[last + i]).toBe(Math.fround(sys.position[i]));
      expect(rec.velocities[last + i]).toBe(Math.fround(sys.velocity[i]));
      expect(rec.forces[last + i]).toBe(Math.fround(sys.external[i]));
      expect(rec.rest[i]).toBe(Math.fround(sys.rest[i]));
    }
    // the tree moved, and the fixed masses did not
    let moved = 0;
    for (let m = 2; m < sys.count; m++) moved = Math.max(moved, Math.hypot(rec.positions[last + 3 * m] - rec.rest[3 * m], rec.positions[last + 3 * m + 2] - rec.rest[3 * m + 2]));
    expect(moved).toBeGreaterThan(5e-4); // the oak sapling at 12 m/s on its bare wood: about a millimetre
    for (let k = 0; k < 6; k++) expect(rec.positions[last + k]).toBe(rec.rest[k]);
  });

  it("turningWind: a drag that starts along +x and leans the tree toward every side", () => {
    const sys = new MassSpringSystem(smallTree());
    const f = turningWind(sys, 12, 10, 1);
    f(0);
    const m = sys.count - 1;
    expect(sys.external[3 * m]).toBeGreaterThan(0);
    expect(Math.abs(sys.external[3 * m + 2])).toBeLessThan(1e-9);
    const quadrants = new Set<number>();
    for (let t = 0; t < 10; t += 0.05) {
      f(t);
      quadrants.add((sys.external[3 * m] > 0 ? 1 : 0) + (sys.external[3 * m + 2] > 0 ? 2 : 0));
    }
    expect(quadrants.size).toBe(4);
    expect(() => turningWind(sys, 12, 0)).toThrow(RangeError);
  });
});
