import { AnimatorRegistry, type AnyProvider } from "../../app/animators/animator";
import { numberParam } from "../../app/math/params";
import { restProvider } from "../../app/animators/rest/provider";

function fake(id: string, params: Record<string, unknown> = { damping: numberParam("Damping", 0, 1, 0.01, 0.5, "", "") }): AnyProvider {
  return { id, label: id, source: "test", params, create: () => { throw new Error("not used"); } } as unknown as AnyProvider;
}

describe("AnimatorRegistry", () => {
  it("keeps providers in registration order and finds them by id", () => {
    const r = new AnimatorRegistry();
    r.register(fake("spectral-beam"));
    r.register(restProvider);
    expect(r.ids()).toEqual(["spectral-beam", "rest"]);
    expect(r.get("rest")).toBe(restProvider);
  });

  it("throws on a duplicate id", () => {
    const r = new AnimatorRegistry();
    r.register(fake("a-b"));
    expect(() => r.register(fake("a-b"))).toThrow(/already registered/);
  });

  it("requires kebab-case ids and a damping parameter from 0 to 1", () => {
    const r = new AnimatorRegistry();
    expect(() => r.register(fake("SpectralBeam"))).toThrow(/kebab-case/);
    expect(() => r.register(fake("no-damping", {}))).toThrow(/damping/);
    expect(() => r.register(fake("bad-damping", { damping: numberParam("Damping", 0, 2, 0.1, 1, "", "") }))).toThrow(/damping/);
  });

  it("names the known methods for an unknown id", () => {
    const r = new AnimatorRegistry();
    r.register(restProvider);
    expect(() => r.get("nope")).toThrow('Unknown method "nope"; the methods are: rest');
  });
});
