/**
 * Parameters declared once (ARCHITECTURE.md, "Parameters"): range, step, default, unit and one
 * line of meaning. The GUI controls, the URL state and the automation API's validation all
 * derive from these declarations.
 */
export type ParamValue = number | boolean | string;
export type Params = Record<string, ParamValue>;

export interface NumberParam {
  readonly kind: "number";
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly default: number;
  readonly unit: string;
  readonly help: string;
}
export interface BooleanParam {
  readonly kind: "boolean";
  readonly label: string;
  readonly default: boolean;
  readonly help: string;
}
/** A choice among named options; `O` is the union of the option names when they are literals. */
export interface ChoiceParam<O extends string = string> {
  readonly kind: "choice";
  readonly label: string;
  readonly options: readonly O[];
  readonly default: O;
  readonly help: string;
}
export type ParamDecl = NumberParam | BooleanParam | ChoiceParam;

/** A set of declarations, one per parameter name (an object literal or a `ParamSpec`). */
export type ParamDecls<D = Record<string, ParamDecl>> = { readonly [K in keyof D]: ParamDecl };

/** The value one declaration admits: a number, a boolean, or one of the choice's options. */
export type ValueOf<D> =
  D extends NumberParam ? number
  : D extends BooleanParam ? boolean
  : D extends ChoiceParam<infer O> ? (string extends O ? string : O)
  : never;

/**
 * The parameter object a set of declarations describes, so that a method writes its parameters
 * once: `type P = ValuesOf<typeof declarations>`. A mapped type (not an interface), so the result
 * is still assignable to `Params`.
 */
export type ValuesOf<D> = { -readonly [K in keyof D]: ValueOf<D[K]> };

/** The declaration of a parameter object P: one declaration per key, of the matching kind. */
export type ParamSpec<P extends Params> = {
  // Index signatures (from `extends Record<string, ...>`) are not parameters: only named keys are.
  readonly [K in keyof P as string extends K ? never : K]: P[K] extends number ? NumberParam : P[K] extends boolean ? BooleanParam : ChoiceParam<P[K] & string>;
};

export function numberParam(label: string, min: number, max: number, step: number, def: number, unit: string, help: string): NumberParam {
  return { kind: "number", label, min, max, step, default: def, unit, help };
}
export function booleanParam(label: string, def: boolean, help: string): BooleanParam {
  return { kind: "boolean", label, default: def, help };
}
/** Keeps the option names as literals: `choiceParam("Show", ["a", "b"], "a", ...)` is a `ChoiceParam<"a" | "b">`. */
export function choiceParam<const O extends readonly string[]>(label: string, options: O, def: O[number], help: string): ChoiceParam<O[number]> {
  return { kind: "choice", label, options, default: def, help };
}

/** The default values of a declaration. */
export function defaultsOf<D extends ParamDecls<D>>(spec: D): ValuesOf<D> {
  const out: Params = {};
  for (const key of Object.keys(spec)) out[key] = (spec as Record<string, ParamDecl>)[key].default;
  return out as ValuesOf<D>;
}

/** Describes the allowed values of a declaration, for error messages. */
export function describeRange(d: ParamDecl): string {
  switch (d.kind) {
    case "number":
      return `a number from ${d.min} to ${d.max}${d.unit ? " " + d.unit : ""}`;
    case "boolean":
      return "true or false";
    case "choice":
      return `one of ${d.options.map((o) => JSON.stringify(o)).join(", ")}`;
  }
}

/**
 * Checks a patch against a declaration and returns it typed. Throws a RangeError naming the
 * allowed keys or range on an unknown key, a wrong type or an out-of-range value. `owner` names
 * what the parameters belong to in the message ("procedural-wind", "wind").
 */
export function validatePatch<D extends ParamDecls<D>>(owner: string, spec: D, patch: Record<string, unknown>): Partial<ValuesOf<D>> {
  const decls = spec as Record<string, ParamDecl>;
  const out: Params = {};
  for (const key of Object.keys(patch)) {
    const d = decls[key];
    if (!d) {
      throw new RangeError(`${owner} has no parameter "${key}"; its parameters are: ${Object.keys(decls).join(", ")}`);
    }
    let v = patch[key];
    // Values from the URL or a GUI text field arrive as strings: read them by the declared kind.
    if (typeof v === "string" && d.kind === "number" && v.trim() !== "" && Number.isFinite(Number(v))) v = Number(v);
    if (typeof v === "string" && d.kind === "boolean" && (v === "true" || v === "false")) v = v === "true";
    const ok =
      d.kind === "number" ? typeof v === "number" && Number.isFinite(v) && v >= d.min && v <= d.max
      : d.kind === "boolean" ? typeof v === "boolean"
      : typeof v === "string" && d.options.includes(v);
    if (!ok) {
      throw new RangeError(`${owner}.${key} must be ${describeRange(d)}; got ${JSON.stringify(v)}`);
    }
    out[key] = v as ParamValue;
  }
  return out as Partial<ValuesOf<D>>;
}
