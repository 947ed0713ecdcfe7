import {
  deflectionScale, fitBeam, fittedDeflection, fittedDeflectionSlope, taperedBeamDeflection, type BeamLoad,
} from "../../../app/animators/spectral-beam/beam";

/** Table 1 of Habel 2009: α, c2, c4, Δx_max. */
const TABLE_1: readonly (readonly [number, number, number, number])[] = [
  [0.05, 0.221875, 0.754029, 0.0469],
  [0.1, 0.3326, 0.398924, 0.0024],
  [0.2, 0.374571, 0.129428, 0.0081],
  [0.3, 0.364816, 0.024577, 0.006],
];

/** The classical uniform cantilever under a uniform load, normalized: x^2 (6 - 4x + x^2) / (6π). */
const uniformCantilever = (x: number): number => (x * x * (6 - 4 * x + x * x)) / (6 * Math.PI);

/**
 * An independent solution of eq. (1) with eq. (6), normalized (E' = r1 = F = 1): the bending moment
 * of a uniform load on a cantilever free at x = 1 is (1 - x)^2 / 2, so u'' = (1 - x)^2 / (2 I(x)),
 * I(x) = π (1 + (α - 1) x)^4 / 4, integrated twice from u(0) = u'(0) = 0 (eq. 2) with Simpson's rule.
 */
function integratedDeflection(x: number, alpha: number, steps = 4000): number {
  const curvature = (t: number): number => (2 / Math.PI) * (1 - t) ** 2 / (1 + (alpha - 1) * t) ** 4;
  const h = x / steps;
  let u = 0;
  let slope = 0;
  for (let i = 0; i < steps; i++) {
    const t = i * h;
    const k0 = curvature(t);
    const k1 = curvature(t + h / 2);
    const k2 = curvature(t + h);
    u += slope * h + h * h * (k0 / 6 + k1 / 3);
    slope += (h * (k0 + 4 * k1 + k2)) / 6;
  }
  return u;
}

const relative = (a: number, b: number): number => Math.abs(a / b - 1);

describe("taperedBeamDeflection (eq. 25)", () => {
  it.each([0.05, 0.1, 0.3, 0.6, 0.9, 0.999, 1])("solves eq. (1) with eq. (6) under eqs. (2, 3) for α = %p", (alpha) => {
    for (const x of [0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
      expect(relative(taperedBeamDeflection(x, alpha), integratedDeflection(x, alpha))).toBeLessThan(1e-8);
    }
  });

  it("is clamped at the root (eq. 2)", () => {
    for (const alpha of [0.05, 0.3, 1]) {
      const h = 1e-4;
      expect(taperedBeamDeflection(0, alpha)).toBe(0);
      expect(taperedBeamDeflection(h, alpha) / h).toBeLessThan(1e-3); // u'(0) = 0
    }
  });

  it("deflects more, and more toward the tip, as the taper ratio decreases (Fig. 3)", () => {
    const tips = [1, 0.3, 0.2, 0.1, 0.05].map((alpha) => taperedBeamDeflection(1, alpha));
    for (let i = 1; i < tips.length; i++) expect(tips[i]).toBeGreaterThan(tips[i - 1]);
    // The share of the tip deflection reached at mid-length drops with the taper.
    expect(taperedBeamDeflection(0.5, 0.05) / tips[4]).toBeLessThan(taperedBeamDeflection(0.5, 1) / tips[0]);
  });

  it("equals the classical uniform cantilever at α = 1, and approaches it continuously", () => {
    for (const x of [0, 0.2, 0.5, 0.8, 1]) {
      expect(taperedBeamDeflection(x, 1)).toBeCloseTo(uniformCantilever(x), 14);
      expect(relative(taperedBeamDeflection(x, 1 - 1e-9) || 1, uniformCantilever(x) || 1)).toBeLessThan(1e-8);
      expect(relative(taperedBeamDeflection(x, 0.999) || 1, uniformCantilever(x) || 1)).toBeLessThan(1e-2);
    }
    expect(taperedBeamDeflection(1, 1)).toBeCloseTo(1 / (2 * Math.PI), 14); // u(L) = qL^4 / (8EI)
  });

  it("is continuous where the series form hands over to the closed form (|(α - 1) x| = 0.5)", () => {
    const alpha = 0.2; // (α - 1) x = -0.5 at x = 0.625
    const below = taperedBeamDeflection(0.625 - 1e-12, alpha);
    const above = taperedBeamDeflection(0.625 + 1e-12, alpha);
    expect(relative(above, below)).toBeLessThan(1e-10);
    expect(relative(below, integratedDeflection(0.625, alpha))).toBeLessThan(1e-8);
  });

  describe("physical scaling F / (E' r1^4), E' = E L, r1 = s1 / L", () => {
    const branch: BeamLoad = { force: 20, elasticModulus: 1e9, length: 2, rootRadius: 0.04 };

    it("is linear in the force", () => {
      const u = taperedBeamDeflection(0.7, 0.3, branch);
      expect(relative(taperedBeamDeflection(0.7, 0.3, { ...branch, force: 3 * branch.force }), 3 * u)).toBeLessThan(1e-12);
      expect(relative(taperedBeamDeflection(0.7, 0.3, { ...branch, force: -branch.force }), -u)).toBeLessThan(1e-12);
      expect(taperedBeamDeflection(0.7, 0.3, { ...branch, force: 0 })).toBe(0);
    });

    it("scales with r1^-4 (root radius) and 1 / E", () => {
      const u = taperedBeamDeflection(1, 0.2, branch);
      expect(relative(taperedBeamDeflection(1, 0.2, { ...branch, rootRadius: branch.rootRadius / 2 }), 16 * u)).toBeLessThan(1e-12);
      expect(relative(taperedBeamDeflection(1, 0.2, { ...branch, rootRadius: 3 * branch.rootRadius }), u / 81)).toBeLessThan(1e-12);
      expect(relative(taperedBeamDeflection(1, 0.2, { ...branch, elasticModulus: 2 * branch.elasticModulus }), u / 2)).toBeLessThan(1e-12);
    });

    it("is the textbook deflection q x^2 (6L^2 - 4Lx + x^2) / (24 E I) for a uniform branch, in units of L", () => {
      const { force: q, elasticModulus: E, length: L, rootRadius: s1 } = branch;
      const I = (Math.PI * s1 ** 4) / 4; // eq. (5)
      for (const x of [0.25, 0.5, 1]) {
        const xBar = x * L;
        const metres = (q * xBar * xBar * (6 * L * L - 4 * L * xBar + xBar * xBar)) / (24 * E * I);
        expect(relative(L * taperedBeamDeflection(x, 1, branch), metres)).toBeLessThan(1e-12);
      }
      expect(relative(deflectionScale(branch), (q * L ** 3) / (E * s1 ** 4))).toBeLessThan(1e-12);
    });

    it("rejects a non-physical load", () => {
      expect(() => deflectionScale({ ...branch, elasticModulus: 0 })).toThrow(RangeError);
      expect(() => deflectionScale({ ...branch, length: -1 })).toThrow(RangeError);
      expect(() => deflectionScale({ ...branch, rootRadius: 0 })).toThrow(RangeError);
      expect(() => deflectionScale({ ...branch, force: Number.NaN })).toThrow(RangeError);
    });
  });

  it("rejects taper ratios outside (0, 1] and x outside [0, 1] with a RangeError naming the range", () => {
    for (const alpha of [0, -0.2, 1.01, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => taperedBeamDeflection(0.5, alpha)).toThrow(RangeError);
      expect(() => taperedBeamDeflection(0.5, alpha)).toThrow("(0, 1]");
    }
    expect(() => taperedBeamDeflection(-0.01, 0.5)).toThrow(RangeError);
    expect(() => taperedBeamDeflection(1.01, 0.5)).toThrow("[0, 1]");
  });
});

describe("fitBeam (eq. 7, Table 1)", () => {
  it.each(TABLE_1)("reproduces Table 1 for α = %p", (alpha, c2, c4, maxError) => {
    const fit = fitBeam(alpha);
    expect(relative(fit.c2, c2)).toBeLessThan(0.02);
    expect(relative(fit.c4, c4)).toBeLessThan(0.02);
    // In fact to all six printed digits (least squares on x = i / 100).
    expect(Math.abs(fit.c2 - c2)).toBeLessThan(1e-6);
    expect(Math.abs(fit.c4 - c4)).toBeLessThan(1e-6);
    // Δx_max: absolute, normalized to F / (E' r1^4) = 1. The paper's values agree to 5e-4 only
    // (0.0469, 0.0024, 0.0081, 0.006 printed; 0.0470, 0.0027, 0.0085, 0.0059 here; the
    // largest error lies at the tip, except for α = 0.1 where it lies near x = 0.8).
    expect(Math.abs(fit.maxError - maxError)).toBeLessThan(5e-4);
  });

  it("is virtually exact above α = 0.1 (max error under 2 % of the tip deflection)", () => {
    for (const alpha of [0.1, 0.2, 0.3, 0.5, 0.8]) {
      const fit = fitBeam(alpha);
      expect(fit.maxError / taperedBeamDeflection(1, alpha)).toBeLessThan(0.02);
    }
  });

  it("fits the uniform beam without a division by zero", () => {
    const fit = fitBeam(1);
    expect(Number.isFinite(fit.c2) && Number.isFinite(fit.c4)).toBe(true);
    expect(fit.maxError / uniformCantilever(1)).toBeLessThan(0.05);
    expect(relative(fitBeam(1 - 1e-9).c2, fit.c2)).toBeLessThan(1e-6);
  });

  it("evaluates eq. (7) and its slope", () => {
    const beam = { c2: 0.3, c4: 0.2 };
    expect(fittedDeflection(0.5, beam)).toBeCloseTo(0.3 * 0.25 + 0.2 * 0.0625, 15);
    const h = 1e-6;
    expect(fittedDeflectionSlope(0.5, beam)).toBeCloseTo((fittedDeflection(0.5 + h, beam) - fittedDeflection(0.5 - h, beam)) / (2 * h), 8);
  });

  it("rejects a bad taper ratio", () => {
    expect(() => fitBeam(0)).toThrow(RangeError);
    expect(() => fitBeam(1.5)).toThrow("taper ratio");
  });
});
