import { LSystemError, derive, moduleStringToText, parseGrammar } from "../../app/lsystem/lsystem";

/** The derived string after `depth` steps, as ABOP writes it. */
function derived(text: string, depth: number, seed = 1): string {
  return moduleStringToText(derive(parseGrammar(text, "t.lsys"), { depth, seed }));
}

/** The LSystemError a grammar throws (parse or derivation). */
function errorOf(text: string, depth = 3): LSystemError {
  try {
    derive(parseGrammar(text, "bad.lsys"), { depth, seed: 1 });
  } catch (e) {
    expect(e).toBeInstanceOf(LSystemError);
    return e as LSystemError;
  }
  throw new Error("expected an LSystemError");
}

describe("ABOP textbook derivations", () => {
  it("Anabaena catenula (ABOP §1.1): a -> ab, b -> a", () => {
    const g = "axiom: a\na -> ab\nb -> a\n";
    expect([0, 1, 2, 3, 4, 5].map((d) => derived(g, d))).toEqual(["a", "ab", "aba", "abaab", "abaababa", "abaababaabaab"]);
  });

  it("the parametric example of ABOP §1.10 (fig. 1.30)", () => {
    const g = `
// ABOP p. 43
axiom: B(2)A(4,4)
p1: A(x,y) : y <= 3 -> A(x*2, x+y)
p2: A(x,y) : y > 3 -> B(x)A(x/y, 0)
p3: B(x) : x < 1 -> C
p4: B(x) : x >= 1 -> B(x-1)
`;
    expect([0, 1, 2, 3, 4].map((d) => derived(g, d))).toEqual(["B(2)A(4,4)", "B(1)B(4)A(1,0)", "B(0)B(3)A(2,1)", "CB(2)A(4,3)", "CB(1)A(8,7)"]);
    expect(derived(g, 5)).toBe("CB(0)B(8)A(1.1429,0)");
  });

  it("Koch island productions with turtle symbols (ABOP §1.5)", () => {
    expect(derived("#angle 90\naxiom: F-F-F-F\nF -> F-F+F+FF-F-F+F\n", 1)).toBe("F-F+F+FF-F-F+F-F-F+F+FF-F-F+F-F-F+F+FF-F-F+F-F-F+F+FF-F-F+F");
  });
});

describe("parseGrammar", () => {
  it("reads directives, constants and settings", () => {
    const g = parseGrammar("#define A 2\n#define B A * 3 + 1\n#angle 30\n#depth 4\n#width 0.3\n#leafsize 0.2\n#tropism 0, -2, 0, 0.1\naxiom: X(B)\n");
    expect(g.constants.get("B")).toBe(7);
    expect([g.angle, g.depth, g.width, g.leafSize]).toEqual([30, 4, 0.3, 0.2]);
    expect(g.tropism).toEqual({ x: 0, y: -1, z: 0, e: 0.1 });
    expect(moduleStringToText(g.axiom)).toBe("X(7)");
  });

  it("overrides constants by name", () => {
    const g = parseGrammar("#define N 3\naxiom: A(N)\n", "t.lsys", { constants: { N: 5 } });
    expect(moduleStringToText(g.axiom)).toBe("A(5)");
    expect(() => parseGrammar("#define N 3\naxiom: A(N)\n", "t.lsys", { constants: { M: 5 } })).toThrow(/no constant named M/);
  });

  it("evaluates arithmetic: precedence, power, comparisons, logic, functions", () => {
    const g = `axiom: A(2, 3)
A(x, y) -> R(-2^2, 2^3^2, 1 + 2 * 3 - 4 / 2, (1 + 2) * 3, 7 % 4) R(x < y, x >= y, x == 2 && y != 3, x = 2 || y > 9, !(x > 1))
    R(sqrt(16), min(x, y), max(x, y), abs(-x), floor(2.7), clamp(5, 0, 1), round(cos(pi)), deg(rad(30)), atan2(0, 1))`;
    expect(derived(g, 1)).toBe("R(-4,512,5,9,3)R(1,0,0,1,0)R(4,2,3,2,2,1,-1,30,0)");
  });

  it("continues a statement on indented lines and ignores comments", () => {
    const g = "axiom: A // start\n\nA ->\n   F(1)   // first\n   F(2)\n// between\nF(x) -> F(x)\n";
    expect(derived(g, 1)).toBe("F(1)F(2)");
  });

  it("accepts labels, '*' as no condition, the unicode arrow and an empty successor", () => {
    expect(derived("axiom: ABC\np1: A : * → X\np2: B ->\n", 1)).toBe("XC");
  });

  it("applies the first production group whose condition holds, in file order", () => {
    expect(derived("axiom: A(5)\nA(x) : x > 3 -> B\nA(x) : x > 1 -> C\n", 1)).toBe("B");
    expect(derived("axiom: A(2)\nA(x) : x > 3 -> B\nA(x) : x > 1 -> C\n", 1)).toBe("C");
  });

  it("matches predecessors by number of parameters; unmatched modules stay", () => {
    expect(derived("axiom: A A(1) A(1,2)\nA(x) -> B(x)\n", 1)).toBe("AB(1)A(1,2)");
  });
});

describe("stochastic productions (ABOP §1.7)", () => {
  const g = "axiom: A\nA -> F[+A]A : 0.33\nA -> F[-A]A : 0.33\nA -> FA : 0.34\n";

  it("same seed, same string; another seed, another string", () => {
    expect(derived(g, 6, 42)).toBe(derived(g, 6, 42));
    expect(derived(g, 6, 42)).not.toBe(derived(g, 6, 43));
  });

  it("draws successors with their probabilities", () => {
    const s = derived("axiom: " + "A".repeat(10000) + "\nA -> X : 0.25\nA -> Y : 0.75\n", 1, 7);
    const x = s.split("X").length - 1;
    expect(x / 10000).toBeGreaterThan(0.22);
    expect(x / 10000).toBeLessThan(0.28);
  });

  it("seeds rand() from the derivation", () => {
    const r = "axiom: A\nA -> B(rand(0, 1)) A\n";
    expect(derived(r, 3, 5)).toBe(derived(r, 3, 5));
    expect(derived(r, 3, 5)).not.toBe(derived(r, 3, 6));
  });
});

describe("errors carry the file, line and column", () => {
  it("unknown name in an expression", () => {
    const e = errorOf("axiom: A(1)\nA(x) -> A(x * k)\n");
    expect([e.line, e.column]).toEqual([2, 15]);
    expect(e.message).toBe("bad.lsys:2:15: unknown name 'k': not a parameter of A(x) or a constant");
  });

  it("missing parenthesis after a parameter list", () => {
    const e = errorOf("axiom: A(1)\n\nA(x, y -> B\n");
    expect(e.message).toBe("bad.lsys:3:8: expected ')' after parameter list, found '-'");
  });

  it("missing parenthesis in a successor", () => {
    expect(errorOf("axiom: A(1)\nA(x) -> B(x + (1)\n").message).toMatch(/^bad\.lsys:2:18: expected '\)' after the parameters of B/);
  });

  it("probabilities that do not add up to 1", () => {
    const e = errorOf("axiom: A\nA -> B : 0.5\nA -> C : 0.4\n");
    expect(e.message).toBe("bad.lsys:2:1: the probabilities of the productions for A add up to 0.9, not 1");
  });

  it("two productions with the same condition and no probabilities", () => {
    expect(errorOf("axiom: A\nA -> B\nA -> C\n").message).toMatch(/^bad\.lsys:2:1: A has 2 productions with the same condition/);
  });

  it("a probability outside (0, 1]", () => {
    expect(errorOf("axiom: A\nA -> B : 1.5\n").message).toBe("bad.lsys:2:10: a probability must be in (0, 1], got 1.5");
  });

  it("constant division by zero", () => {
    expect(errorOf("#define Z 0\naxiom: A(1 / Z)\n").message).toBe("bad.lsys:2:12: division by zero");
  });

  it("division by zero during the derivation names the argument", () => {
    const e = errorOf("axiom: A(1)\nA(x) -> A(1 / (x - 1))\n");
    expect([e.line, e.column]).toEqual([2, 11]);
    expect(e.message).toMatch(/became infinite during the derivation/);
  });

  it("unknown function, unknown directive, wrong turtle arity, stray characters, missing axiom", () => {
    expect(errorOf("axiom: A(foo(1))\n").message).toBe("bad.lsys:1:10: unknown function 'foo'");
    expect(errorOf("#angel 30\naxiom: A\n").message).toMatch(/^bad\.lsys:1:1: unknown directive '#angel'/);
    expect(errorOf("axiom: F(1, 2, 3)\n").message).toBe("bad.lsys:1:8: 'F' takes 0 to 2 parameters, got 3");
    expect(errorOf("axiom: A\nA -> B @ C\n").message).toMatch(/^bad\.lsys:2:8: unexpected '@'/);
    expect(errorOf("A -> B\n").message).toBe("bad.lsys:1:1: no axiom (add a line such as `axiom: A(1)`)");
  });
});
