import { fitBeam, fittedDeflection, fittedDeflectionSlope } from "../../../app/animators/spectral-beam/beam";
import {
  arcLengthPosition, deflectedArcLength, deflectedArcTo, lengthCorrectedPosition, lengthCorrectionOffset, lengthDifference, stretchFactor,
  type DeflectionCurve,
} from "../../../app/animators/spectral-beam/length-correction";

/** The fitted deflection of eq. (7) with amplitude A (eq. 11) chosen so that u(1) = tip. */
function branchCurve(taperRatio: number, tip: number): DeflectionCurve {
  const fit = fitBeam(taperRatio);
  const amplitude = tip / (fit.c2 + fit.c4);
  return {
    deflection: (x) => amplitude * fittedDeflection(x, fit),
    slope: (x) => amplitude * fittedDeflectionSlope(x, fit),
  };
}

describe("length correction (§4.2, eqs. 8 to 10)", () => {
  it("computes s(x) and d(x) of eq. (8), finite at the root where u' = 0", () => {
    expect(stretchFactor(0.75)).toBeCloseTo(1.25, 15);
    const u = 0.3;
    const slope = 0.75;
    expect(lengthDifference(u, slope)).toBeCloseTo((u / slope) * (stretchFactor(slope) - 1), 15); // eq. (8)
    expect(lengthDifference(0, 0)).toBe(0);
    expect(lengthCorrectedPosition(0, 0, 0)).toEqual({ axial: 0, transversal: 0 });
  });

  it("moves p_u = (x, y + u) back along its tangent by d (both forms of eq. 9) and offsets by o(x) (eq. 10)", () => {
    const x = 0.8;
    const y = 0.05;
    const u = 0.4;
    const slope = 1.1;
    const s = stretchFactor(slope);
    const d = lengthDifference(u, slope);
    const p = lengthCorrectedPosition(x, u, slope, y);
    expect(p.axial).toBeCloseTo(x - d / s, 15);
    expect(p.transversal).toBeCloseTo(y + u - (slope * d) / s, 14);
    expect(p.transversal).toBeCloseTo(y + u / s, 15);
    const o = lengthCorrectionOffset(u, slope);
    expect(o.axial).toBeCloseTo(-d / s, 15);
    expect(o.transversal).toBeCloseTo(u / s, 15);
    // The correction is a move along the tangent (1, u') of the uncorrected point.
    expect((p.transversal - (y + u)) / (p.axial - x)).toBeCloseTo(slope, 12);
  });

  it("writes into `out` without allocating", () => {
    const out = { axial: 0, transversal: 0 };
    expect(lengthCorrectedPosition(0.5, 0.1, 0.4, 0, out)).toBe(out);
  });

  it("turns a shear into a rotation: exact for a straight deflection u = k x", () => {
    const k = 1.5;
    const straight: DeflectionCurve = { deflection: (x) => k * x, slope: () => k };
    expect(deflectedArcLength(straight, false)).toBeCloseTo(Math.hypot(1, k), 9);
    expect(deflectedArcLength(straight)).toBeCloseTo(1, 9);
    for (const x of [0.2, 0.6, 1]) {
      const p = lengthCorrectedPosition(x, k * x, k);
      expect(Math.hypot(p.axial, p.transversal)).toBeCloseTo(x, 12);
    }
  });

  // Measured arc lengths of the unit branch (eq. 7 fit, tip deflected transversally):
  //   tip L/4: uncorrected +3.6 % (α = 1) .. +5.7 % (α = 0.05); corrected +0.8 % .. -3.7 %
  //   tip L/2: uncorrected +13 %  .. +19 %;                    corrected +2.9 % .. -8.8 %
  // Eqs. (8) to (10) are exact only for a straight deflection; on a curved one they remove most
  // of the stretch but not all of it (over-shortening strongly tapered branches). The paper says as
  // much: exact length needs an elliptic integral [BD45] with no explicit form.
  describe("a branch deflected by half its length", () => {
    it.each([1, 0.3, 0.2, 0.1, 0.05])("is stretched without the correction, much less with it (α = %p)", (alpha) => {
      const curve = branchCurve(alpha, 0.5);
      const stretched = deflectedArcLength(curve, false) - 1;
      const corrected = deflectedArcLength(curve) - 1;
      expect(stretched).toBeGreaterThan(0.13);
      expect(Math.abs(corrected)).toBeLessThan(0.09);
      expect(Math.abs(corrected)).toBeLessThan(0.6 * stretched);
    });

    it("keeps the uniform branch within 1 % at the paper's threshold of noticeable stretch (L/4), 3 % at L/2", () => {
      const quarter = branchCurve(1, 0.25);
      expect(deflectedArcLength(quarter, false) - 1).toBeGreaterThan(0.03);
      expect(Math.abs(deflectedArcLength(quarter) - 1)).toBeLessThan(0.01);
      expect(Math.abs(deflectedArcLength(branchCurve(1, 0.5)) - 1)).toBeLessThan(0.03);
    });

    it("keeps the root fixed and the tip moving toward the root", () => {
      const curve = branchCurve(0.2, 0.5);
      expect(lengthCorrectedPosition(0, curve.deflection(0), curve.slope(0))).toEqual({ axial: 0, transversal: 0 });
      const tip = lengthCorrectedPosition(1, curve.deflection(1), curve.slope(1));
      expect(tip.axial).toBeLessThan(1);
      expect(tip.transversal).toBeLessThan(0.5);
      expect(tip.transversal).toBeGreaterThan(0.2);
    });
  });

  describe("taken to its end: arc-length parameter by Newton from eq. (9)'s start", () => {
    // The polyline through the corrected points (y(x), A P(y(x))) for x = i/N.
    function arcPolyline(alpha: number, tip: number, n = 400): { total: number; worstSegment: number } {
      const { c2, c4 } = fitBeam(alpha);
      const a = tip / (c2 + c4);
      let total = 0, worst = 0, py = 0, pu = 0;
      for (let i = 1; i <= n; i++) {
        const y = arcLengthPosition(i / n, a, c2, c4);
        const u = a * (c2 * y * y + c4 * y ** 4);
        const seg = Math.hypot(y - py, u - pu);
        total += seg;
        worst = Math.max(worst, Math.abs(seg * n - 1));
        py = y; pu = u;
      }
      return { total, worstSegment: worst };
    }

    it.each([1, 0.3, 0.2, 0.1, 0.05])("keeps a half-length deflection's arc length within 1 %% and every piece of it unstretched (α = %p)", (alpha) => {
      const { total, worstSegment } = arcPolyline(alpha, 0.5);
      expect(Math.abs(total - 1)).toBeLessThan(0.01);
      expect(worstSegment).toBeLessThan(0.01);
      // Without any correction the same branch is stretched by 13 % or more.
      expect(deflectedArcLength(branchCurve(alpha, 0.5), false) - 1).toBeGreaterThan(0.13);
    });

    it("holds even at a deflection as large as the branch (α = 0.05)", () => {
      expect(Math.abs(arcPolyline(0.05, 1).total - 1)).toBeLessThan(0.01);
    });

    it("is the identity without deflection and at the root, and close to eq. (9) for a small one", () => {
      expect(arcLengthPosition(0.7, 0, 0.3, 0.4)).toBe(0.7);
      expect(arcLengthPosition(0, 2, 0.3, 0.4)).toBe(0);
      const { c2, c4 } = fitBeam(0.3);
      const a = 0.02 / (c2 + c4);
      const curve = { deflection: (x: number) => a * (c2 * x * x + c4 * x ** 4), slope: (x: number) => a * (2 * c2 * x + 4 * c4 * x ** 3) };
      const paper = lengthCorrectedPosition(1, curve.deflection(1), curve.slope(1)).axial;
      // Both shorten the tip by a few 1e-4 of the length; they agree to 2e-4.
      expect(Math.abs(arcLengthPosition(1, a, c2, c4) - paper)).toBeLessThan(2e-4);
      expect(1 - arcLengthPosition(1, a, c2, c4)).toBeGreaterThan(1e-4);
    });

    it("integrates the arc length of eq. (7) to 1e-4 (Simpson on four intervals)", () => {
      const { c2, c4 } = fitBeam(0.1);
      const a = 0.5 / (c2 + c4);
      let fine = 0;
      const n = 20000;
      for (let i = 0; i < n; i++) {
        const xi = (i + 0.5) / n;
        const sl = a * (2 * c2 * xi + 4 * c4 * xi ** 3);
        fine += Math.sqrt(1 + sl * sl) / n;
      }
      expect(Math.abs(deflectedArcTo(1, a, c2, c4) - fine)).toBeLessThan(1e-3 * fine);
    });
  });

  it("rejects a bad interval count", () => {
    expect(() => deflectedArcLength({ deflection: () => 0, slope: () => 0 }, true, 0)).toThrow(RangeError);
  });
});
