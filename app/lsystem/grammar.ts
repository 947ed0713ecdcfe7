/**
 * Parametric, context-free, optionally stochastic L-systems in the notation of The Algorithmic
 * Beauty of Plants (ABOP; Prusinkiewicz & Lindenmayer 1990): an axiom and productions
 * `label: pred : cond -> successor : probability` (ABOP §1.10 parametric, §1.7 stochastic).
 * The `.lsys` text format is documented in docs/lsys-format.md.
 */
import { LSystemError, SourceMap } from "./errors";
import { type EvalContext, type Expr, type Scope, Scanner, parseConstant, parseExpression } from "./expression";

/** A string of modules: symbol codes, and the parameters of module i at params[paramStart[i] .. paramStart[i+1]). */
export interface ModuleString {
  readonly length: number;
  readonly symbols: Uint8Array;
  /** length + 1 entries. */
  readonly paramStart: Uint32Array;
  readonly params: Float64Array;
}

/** The successor of a production, compiled: module symbols and the expressions of their actual parameters. */
export interface Successor {
  readonly symbols: Uint8Array;
  /** Module i's arguments are args[argStart[i] .. argStart[i+1]). */
  readonly argStart: Int32Array;
  readonly args: readonly Expr[];
  /** Offset in the text of each argument, for runtime errors (division by zero ...). */
  readonly argPos: Int32Array;
}

/**
 * Productions with the same predecessor symbol, arity and condition. More than one successor
 * makes the group stochastic (ABOP §1.7): successor k is chosen with probability
 * cumulative[k] - cumulative[k-1].
 */
export interface ProductionGroup {
  readonly symbol: string;
  readonly arity: number;
  /** Null: no condition. Non-zero is true. */
  readonly condition: Expr | null;
  readonly successors: readonly Successor[];
  readonly cumulative: Float64Array | null;
  readonly line: number;
  readonly column: number;
}

export interface Tropism {
  /** Direction T of the tropism vector (ABOP §2.3), unit, e.g. (0, -1, 0) for gravitropism. */
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** Susceptibility e: the turtle bends by e |H x T| after each F. */
  readonly e: number;
}

export interface Grammar {
  readonly fileName: string;
  readonly constants: ReadonlyMap<string, number>;
  /** `#angle`: default turning angle delta, degrees (ABOP §1.5). */
  readonly angle: number;
  /** `#depth`: default number of derivation steps. */
  readonly depth: number;
  /** `#width`: initial width (diameter) of the turtle's line, metres. */
  readonly width: number;
  /** `#length`: step length of F and f without a parameter, metres. */
  readonly length: number;
  /** `#leafsize`: edge of a leaf card drawn by `~` without a parameter, metres. */
  readonly leafSize: number;
  /** `#tropism x, y, z, e`: bending of the turtle after each F (ABOP §2.3), or null. */
  readonly tropism: Tropism | null;
  /** `#jitter`: random perturbation of every turn, +- degrees, seeded (0: none). */
  readonly jitter: number;
  readonly axiom: ModuleString;
  /** Production groups by symbol code (0..127), in the order of the text; the first group whose condition holds applies. */
  readonly productions: readonly (readonly ProductionGroup[] | null)[];
  /** Random source of rand()/gauss() in expressions, set by derive. */
  readonly ctx: EvalContext;
  /** Line and column of an offset in the grammar text. */
  locate(pos: number): { line: number; column: number };
}

export interface ParseOptions {
  /** Replaces the value of `#define` constants by name (an unknown name is an error). */
  constants?: Readonly<Record<string, number>>;
}

/** Symbols the turtle interprets (ABOP §1.5, §2.3), with their [min, max] number of parameters. */
export const TURTLE_ARITY: Readonly<Record<string, readonly [number, number]>> = {
  F: [0, 2], f: [0, 1], "+": [0, 1], "-": [0, 1], "&": [0, 1], "^": [0, 1], "\\": [0, 1], "/": [0, 1],
  "|": [0, 0], "$": [0, 0], "[": [0, 0], "]": [0, 0], "!": [1, 1], "~": [0, 1],
};

const TURTLE_SYMBOLS = "+-&^\\/|$[]!~";
function isModuleSymbol(c: string): boolean {
  return (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || (c !== "" && TURTLE_SYMBOLS.includes(c));
}

/** Parses a `.lsys` grammar. Throws LSystemError with the line and column of the first problem. */
export function parseGrammar(text: string, fileName = "grammar.lsys", options: ParseOptions = {}): Grammar {
  const sc = new Scanner(text, fileName);
  const ctx: EvalContext = { rng: null };
  const constants = new Map<string, number>();
  const overrides = new Map(Object.entries(options.constants ?? {}));
  const settings = { angle: 22.5, depth: 5, width: 0.1, length: 1, leafSize: 0.1, jitter: 0 };
  let tropism: Tropism | null = null;
  let axiom: ModuleString | null = null;
  const raw: { symbol: string; arity: number; condKey: string; condition: Expr | null; successor: Successor; probability: number | null; pos: number }[] = [];
  const constScope: Scope = { params: [], constants, ctx, what: "a constant defined above" };

  while (sc.pos < text.length) {
    if (sc.atStatementEnd()) {
      sc.pos++;
      continue;
    }
    const start = sc.pos;
    if (sc.peek() === "#") {
      sc.pos++;
      const directive = sc.identifier();
      switch (directive) {
        case "define": {
          const namePos = (sc.skipBlanks(), sc.pos);
          const name = sc.identifier();
          if (name === null) throw sc.error(`expected a constant name after #define${sc.found()}`);
          if (constants.has(name)) throw sc.error(`constant '${name}' is already defined`, namePos);
          const v = parseConstant(sc, constScope, `the value of ${name}`);
          const o = overrides.get(name);
          constants.set(name, o ?? v);
          overrides.delete(name);
          break;
        }
        case "angle":
        case "width":
        case "length":
        case "leafsize":
        case "jitter":
        case "depth": {
          const vPos = (sc.skipBlanks(), sc.pos);
          const v = parseConstant(sc, constScope, `#${directive}`);
          if (directive === "depth" && !(Number.isInteger(v) && v >= 0)) throw sc.error("#depth must be a whole number >= 0", vPos);
          if (directive !== "depth" && directive !== "angle" && directive !== "jitter" && !(v > 0)) throw sc.error(`#${directive} must be > 0`, vPos);
          settings[directive === "leafsize" ? "leafSize" : directive] = v;
          break;
        }
        case "tropism": {
          const v: number[] = [];
          do v.push(parseConstant(sc, constScope, "#tropism"));
          while (sc.accept(","));
          if (v.length !== 4) throw sc.error(`#tropism takes 4 values (x, y, z, e), got ${v.length}`, start);
          const l = Math.hypot(v[0], v[1], v[2]);
          if (!(l > 0)) throw sc.error("#tropism direction must not be zero", start);
          tropism = { x: v[0] / l, y: v[1] / l, z: v[2] / l, e: v[3] };
          break;
        }
        default:
          throw sc.error(`unknown directive '#${directive ?? ""}' (known: #define, #angle, #depth, #width, #length, #leafsize, #tropism, #jitter)`, start);
      }
    } else {
      // `axiom:`, a label `p1:` (two or more characters), or straight the predecessor.
      const word = sc.identifier();
      const isLabel = word !== null && word.length >= 2 && sc.accept(":");
      if (isLabel && word === "axiom") {
        if (axiom) throw sc.error("the axiom is already given", start);
        axiom = parseAxiom(sc, constScope);
      } else {
        if (!isLabel) sc.pos = start;
        raw.push(parseProduction(sc, constants, ctx));
      }
    }
    if (!sc.atStatementEnd()) throw sc.error(`unexpected '${sc.peek()}'`);
  }
  if (!axiom) throw new LSystemError("no axiom (add a line such as `axiom: A(1)`)", fileName, 1, 1);
  if (overrides.size > 0) throw new LSystemError(`no constant named ${[...overrides.keys()].join(", ")} to override`, fileName);

  // Group productions by predecessor, arity and condition; check the stochastic groups' probabilities.
  const map = new SourceMap(text);
  const productions: ProductionGroup[][] = [];
  const groups = new Map<string, typeof raw>();
  for (const p of raw) {
    const key = `${p.symbol}/${p.arity}/${p.condKey}`;
    const g = groups.get(key);
    if (g) g.push(p);
    else groups.set(key, [p]);
  }
  for (const members of groups.values()) {
    const first = members[0];
    const { line, column } = map.locate(first.pos);
    let cumulative: Float64Array | null = null;
    if (members.length > 1 || first.probability !== null) {
      let sum = 0;
      cumulative = new Float64Array(members.length);
      members.forEach((m, k) => {
        if (m.probability === null) {
          throw sc.error(`${first.symbol} has ${members.length} productions with the same condition; give each a probability (': 0.5' after the successor) or different conditions`, m.pos);
        }
        sum += m.probability;
        cumulative![k] = sum;
      });
      if (Math.abs(sum - 1) > 1e-6) {
        throw sc.error(`the probabilities of the productions for ${first.symbol}${first.condKey ? " : " + first.condKey : ""} add up to ${+sum.toFixed(6)}, not 1`, first.pos);
      }
      cumulative[members.length - 1] = 1;
    }
    const code = first.symbol.charCodeAt(0);
    (productions[code] ??= []).push({
      symbol: first.symbol, arity: first.arity, condition: first.condition,
      successors: members.map((m) => m.successor), cumulative, line, column,
    });
  }
  const table: (ProductionGroup[] | null)[] = [];
  for (let c = 0; c < 128; c++) table.push(productions[c] ?? null);
  return {
    fileName, constants, ...settings, tropism, axiom, productions: table, ctx,
    locate: (pos) => map.locate(pos),
  };
}

function checkTurtleArity(sc: Scanner, symbol: string, n: number, pos: number): void {
  const a = TURTLE_ARITY[symbol];
  if (a && (n < a[0] || n > a[1])) {
    const want = a[0] === a[1] ? `${a[0]}` : `${a[0]} to ${a[1]}`;
    throw sc.error(`'${symbol}' takes ${want} parameter${a[1] === 1 ? "" : "s"}, got ${n}`, pos);
  }
}

/** Parses modules until the end of the statement or a ':' (the successor's probability). */
function parseModules(sc: Scanner, scope: Scope): { symbols: number[]; argStart: number[]; args: Expr[]; argPos: number[] } {
  const symbols: number[] = [], argStart: number[] = [0], args: Expr[] = [], argPos: number[] = [];
  for (;;) {
    if (sc.atStatementEnd() || sc.peek() === ":") break;
    const pos = sc.pos;
    const c = sc.peek();
    if (!isModuleSymbol(c)) {
      throw sc.error(c === "(" ? "'(' without a module symbol before it" : `unexpected '${c}': module symbols are letters and + - & ^ \\ / | $ [ ] ! ~`);
    }
    sc.pos++;
    let n = 0;
    if (sc.accept("(")) {
      do {
        sc.skipBlanks();
        argPos.push(sc.pos);
        args.push(parseExpression(sc, scope));
        n++;
      } while (sc.accept(","));
      sc.expect(")", `after the parameters of ${c}`);
    }
    checkTurtleArity(sc, c, n, pos);
    symbols.push(c.charCodeAt(0));
    argStart.push(args.length);
  }
  return { symbols, argStart, args, argPos };
}

function parseAxiom(sc: Scanner, scope: Scope): ModuleString {
  const m = parseModules(sc, scope);
  if (sc.peek() === ":") throw sc.error("the axiom takes no probability");
  const params = new Float64Array(m.args.length);
  const none = new Float64Array(0);
  for (let i = 0; i < m.args.length; i++) params[i] = m.args[i](none, 0);
  return { length: m.symbols.length, symbols: Uint8Array.from(m.symbols), paramStart: Uint32Array.from(m.argStart), params };
}

function parseProduction(sc: Scanner, constants: ReadonlyMap<string, number>, ctx: EvalContext) {
  sc.skipBlanks();
  const pos = sc.pos;
  const symbol = sc.peek();
  if (!isModuleSymbol(symbol) || symbol === "[" || symbol === "]") {
    throw sc.error(`expected a production (predecessor -> successor), '#' directive or 'axiom:'${sc.found()}`);
  }
  sc.pos++;
  const params: string[] = [];
  if (sc.accept("(")) {
    do {
      const namePos = (sc.skipBlanks(), sc.pos);
      const name = sc.identifier();
      if (name === null) throw sc.error(`expected a formal parameter name${sc.found()}`);
      if (params.includes(name)) throw sc.error(`parameter '${name}' appears twice`, namePos);
      params.push(name);
    } while (sc.accept(","));
    sc.expect(")", "after parameter list");
  }
  checkTurtleArity(sc, symbol, params.length, pos);
  const pred = params.length ? `${symbol}(${params.join(",")})` : symbol;
  const scope: Scope = { params, constants, ctx, what: `a parameter of ${pred} or a constant` };
  let condition: Expr | null = null;
  let condKey = "";
  if (sc.accept(":")) {
    sc.skipBlanks();
    const condPos = sc.pos;
    if (!sc.accept("*")) {
      condition = parseExpression(sc, scope);
      condKey = sc.text.slice(condPos, sc.pos).replace(/\s+/g, "");
    }
  }
  if (!sc.accept("->") && !sc.accept("→")) throw sc.error(`expected '->' after the predecessor ${pred}${condition ? " and its condition" : ""}${sc.found()}`);
  const m = parseModules(sc, scope);
  let probability: number | null = null;
  if (sc.accept(":")) {
    sc.skipBlanks();
    const probPos = sc.pos;
    probability = parseConstant(sc, { ...scope, params: [], what: "a constant (a probability cannot use parameters)" }, "a probability");
    if (!(probability > 0 && probability <= 1)) throw sc.error(`a probability must be in (0, 1], got ${probability}`, probPos);
  }
  const successor: Successor = {
    symbols: Uint8Array.from(m.symbols), argStart: Int32Array.from(m.argStart), args: m.args, argPos: Int32Array.from(m.argPos),
  };
  return { symbol, arity: params.length, condKey, condition, successor, probability, pos };
}
