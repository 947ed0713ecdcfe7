import { booleanParam, choiceParam, defaultsOf, numberParam, validatePatch, type ParamDecls, type ParamSpec, type Params, type ValuesOf } from "../../app/math/params";

type P = {
  damping: number;
  correction: boolean;
  shape: string;
};
const spec: ParamSpec<P> = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.5, "", "How fast motion dies away"),
  correction: booleanParam("Length correction", true, "Keep branch length"),
  shape: choiceParam("Shape", ["round", "flat"], "round", "Leaf shape"),
};

describe("parameter declarations", () => {
  it("derives the defaults from the declaration", () => {
    expect(defaultsOf(spec)).toEqual({ damping: 0.5, correction: true, shape: "round" });
  });

  it("accepts values inside the range and reads strings by the declared kind", () => {
    expect(validatePatch("m", spec, { damping: 0.7 })).toEqual({ damping: 0.7 });
    expect(validatePatch("m", spec, { damping: "0.25", correction: "false" })).toEqual({ damping: 0.25, correction: false });
    expect(validatePatch("m", spec, { damping: 0, shape: "flat" })).toEqual({ damping: 0, shape: "flat" });
  });

  it("throws a RangeError naming the range on an out-of-range number", () => {
    expect(() => validatePatch("m", spec, { damping: 1.5 })).toThrow(RangeError);
    expect(() => validatePatch("m", spec, { damping: 1.5 })).toThrow("m.damping must be a number from 0 to 1; got 1.5");
    expect(() => validatePatch("m", spec, { damping: Number.NaN })).toThrow(/from 0 to 1/);
  });

  it("throws naming the known keys on an unknown key", () => {
    expect(() => validatePatch("m", spec, { nope: 1 })).toThrow('m has no parameter "nope"; its parameters are: damping, correction, shape');
  });

  it("rejects wrong kinds and unknown choices", () => {
    expect(() => validatePatch("m", spec, { correction: 1 })).toThrow(/true or false/);
    expect(() => validatePatch("m", spec, { shape: "square" })).toThrow(/one of "round", "flat"/);
  });
});

// Declared once: the value type is derived from the declaration (checked by `tsc`, which runs on spec/).
const SHAPES = ["round", "flat"] as const;
const declared = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.5, "", "How fast motion dies away"),
  correction: booleanParam("Length correction", true, "Keep branch length"),
  shape: choiceParam("Shape", SHAPES, "flat", "Leaf shape"),
  inline: choiceParam("Inline", ["a", "b"], "b", "Options written in place keep their literal types"),
  named: choiceParam("Named", ["x", "y"] as string[], "x", "Options only known as strings give a string"),
} satisfies ParamDecls;
type Declared = ValuesOf<typeof declared>;

/** True when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const derivedExactly: Equal<Declared, { damping: number; correction: boolean; shape: "round" | "flat"; inline: "a" | "b"; named: string }> = true;

describe("parameter values derived from their declaration (ValuesOf)", () => {
  it("has the declared value types, and is a Params", () => {
    expect(derivedExactly).toBe(true);
    const values: Declared = defaultsOf(declared);
    // A mapped type, not an interface: assignable where any parameter object is expected.
    const asParams: Params = values;
    // The declaration is the provider's ParamSpec of the derived type.
    const asSpec: ParamSpec<Declared> = declared;
    // @ts-expect-error a choice admits only its options
    values.shape = "square";
    expect(asParams).toBe(values);
    expect(asSpec.shape.options).toEqual(["round", "flat"]);
  });

  it("takes its defaults and validates patches from the declaration", () => {
    expect(defaultsOf(declared)).toEqual({ damping: 0.5, correction: true, shape: "flat", inline: "b", named: "x" });
    const patch: Partial<Declared> = validatePatch("d", declared, { shape: "round", damping: "0.1" });
    expect(patch).toEqual({ shape: "round", damping: 0.1 });
    expect(() => validatePatch("d", declared, { inline: "c" })).toThrow('d.inline must be one of "a", "b"; got "c"');
  });
});
