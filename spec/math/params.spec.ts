import { booleanParam, choiceParam, defaultsOf, numberParam, validatePatch, type ParamSpec } from "../../app/math/params";

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
