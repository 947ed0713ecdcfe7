import { DEFAULT_MODULE_CAP, LSystemError, derive, parseGrammar } from "../../app/lsystem/lsystem";

describe("derive", () => {
  const binary = parseGrammar("axiom: A\nA -> F[+A][-A]\n", "bin.lsys");

  it("keeps the string in typed arrays", () => {
    const d = derive(binary, { depth: 3, seed: 1 });
    expect(d.symbols).toBeInstanceOf(Uint8Array);
    expect(d.paramStart).toBeInstanceOf(Uint32Array);
    expect(d.params).toBeInstanceOf(Float64Array);
    expect(d.paramStart.length).toBe(d.length + 1);
    expect(d.steps).toBe(3);
  });

  it("uses the grammar's #depth by default and stops early at a fixed point", () => {
    const g = parseGrammar("#depth 7\naxiom: A(3)\nA(n) : n > 0 -> F A(n - 1)\n");
    const d = derive(g, { seed: 1 });
    expect(d.steps).toBe(3);
    expect(d.length).toBe(4);
  });

  it("refuses a depth past the module cap and names the depth to lower to", () => {
    expect(DEFAULT_MODULE_CAP).toBe(2_000_000);
    // The string has 8 * 2^n - 7 modules: 505 at depth 6, 1017 at 7, 32,761 at 12.
    let err: unknown = null;
    try {
      derive(binary, { depth: 12, seed: 1, moduleCap: 1000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LSystemError);
    expect((err as Error).message).toBe("bin.lsys: depth 12 would produce about 33,688 modules (cap 1,000); lower the depth to 6 or less");
    expect(() => derive(binary, { depth: 6, seed: 1, moduleCap: 1000 })).not.toThrow();
  });

  it("says millions in the cap message", () => {
    expect(() => derive(binary, { depth: 22, seed: 1 })).toThrow(/depth 22 would produce about 33\.6 million modules \(cap 2,000,000\); lower the depth to 17 or less/);
  });

  it("says 'more than a trillion' without a hedge when the estimate is beyond counting", () => {
    const tenfold = parseGrammar("axiom: A\nA -> AAAAAAAAAA\n", "ten.lsys");
    let message = "";
    try {
      derive(tenfold, { depth: 30, seed: 1 });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe("ten.lsys: depth 30 would produce more than a trillion modules (cap 2,000,000); lower the depth to 6 or less");
  });

  it("rejects a negative or fractional depth", () => {
    expect(() => derive(binary, { depth: -1, seed: 1 })).toThrow(LSystemError);
    expect(() => derive(binary, { depth: 1.5, seed: 1 })).toThrow(LSystemError);
  });
});
