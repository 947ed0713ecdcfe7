/**
 * Arithmetic expressions of parametric L-systems (ABOP §1.10): the actual parameters of
 * successor modules, the conditions of productions and the values of constants. Parsed to a
 * small tree, folded where constant, and compiled to closures over the parameter array of the
 * module being rewritten, so a derivation step evaluates without allocating.
 */
import type { Rng } from "../math/rng";
import { LSystemError, SourceMap } from "./errors";

/** A compiled expression: reads formal parameter i of the predecessor at `params[offset + i]`. */
export type Expr = (params: Float64Array, offset: number) => number;

/** Random source of the expressions' `rand` and `gauss`; set by `derive` before each derivation. */
export interface EvalContext {
  rng: Rng | null;
}

/** Reads characters of a grammar text; shared by the expression and the grammar parsers. */
export class Scanner {
  pos = 0;
  private readonly map: SourceMap;

  constructor(
    readonly text: string,
    readonly fileName: string,
  ) {
    this.map = new SourceMap(text);
  }

  error(reason: string, pos = this.pos): LSystemError {
    const { line, column } = this.map.locate(pos);
    return new LSystemError(reason, this.fileName, line, column);
  }

  peek(k = 0): string {
    return this.text.charAt(this.pos + k);
  }

  /**
   * Skips blanks and `//` comments within a statement. A newline continues the statement when
   * the next line starts with a blank and holds something (indented continuation lines).
   */
  skipBlanks(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 13) this.pos++;
      else if (c === 47 && t.charCodeAt(this.pos + 1) === 47) {
        while (this.pos < t.length && t.charCodeAt(this.pos) !== 10) this.pos++;
      } else if (c === 10 && this.continuesOnNextLine()) this.pos++;
      else return;
    }
  }

  /** True at the end of the text or of the statement (a newline that does not continue it). */
  atStatementEnd(): boolean {
    this.skipBlanks();
    return this.pos >= this.text.length || this.text.charCodeAt(this.pos) === 10;
  }

  private continuesOnNextLine(): boolean {
    const t = this.text;
    let p = this.pos + 1;
    const first = t.charCodeAt(p);
    if (first !== 32 && first !== 9) return false;
    while (p < t.length) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 9 || c === 13) p++;
      else return c !== 10 && !(c === 47 && t.charCodeAt(p + 1) === 47);
    }
    return false;
  }

  /** Consumes `s` (after blanks) if it comes next. */
  accept(s: string): boolean {
    this.skipBlanks();
    if (this.text.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }

  expect(s: string, what: string): void {
    if (!this.accept(s)) throw this.error(`expected '${s}' ${what}${this.found()}`);
  }

  /** ", found 'x'" for error messages. */
  found(): string {
    this.skipBlanks();
    if (this.pos >= this.text.length) return ", found the end of the file";
    const c = this.text.charAt(this.pos);
    return c === "\n" ? ", found the end of the line" : `, found '${c}'`;
  }

  identifier(): string | null {
    this.skipBlanks();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.pos, this.pos + 64));
    if (!m) return null;
    this.pos += m[0].length;
    return m[0];
  }
}

type Node =
  | { k: "num"; v: number; pos: number }
  | { k: "par"; i: number; pos: number }
  | { k: "un"; op: string; a: Node; pos: number }
  | { k: "bin"; op: string; a: Node; b: Node; pos: number }
  | { k: "call"; f: string; args: Node[]; pos: number };

/** Names an expression may use: formal parameters (by index) and named constants. */
export interface Scope {
  params: readonly string[];
  constants: ReadonlyMap<string, number>;
  ctx: EvalContext;
  /** What the scope is, for "unknown name" messages (e.g. "a parameter of A(l,w) or a constant"). */
  what: string;
}

const FUNCTIONS: Record<string, { arity: number; fn: ((...a: number[]) => number) | null }> = {
  sqrt: { arity: 1, fn: Math.sqrt },
  sin: { arity: 1, fn: Math.sin },
  cos: { arity: 1, fn: Math.cos },
  tan: { arity: 1, fn: Math.tan },
  asin: { arity: 1, fn: Math.asin },
  acos: { arity: 1, fn: Math.acos },
  atan: { arity: 1, fn: Math.atan },
  atan2: { arity: 2, fn: Math.atan2 },
  exp: { arity: 1, fn: Math.exp },
  log: { arity: 1, fn: Math.log },
  abs: { arity: 1, fn: Math.abs },
  floor: { arity: 1, fn: Math.floor },
  ceil: { arity: 1, fn: Math.ceil },
  round: { arity: 1, fn: Math.round },
  sign: { arity: 1, fn: Math.sign },
  min: { arity: 2, fn: Math.min },
  max: { arity: 2, fn: Math.max },
  pow: { arity: 2, fn: Math.pow },
  clamp: { arity: 3, fn: (x, lo, hi) => Math.min(hi, Math.max(lo, x)) },
  rad: { arity: 1, fn: (d) => (d * Math.PI) / 180 },
  deg: { arity: 1, fn: (r) => (r * 180) / Math.PI },
  // Seeded random numbers (an extension to ABOP): drawn from the derivation's Rng, in order.
  rand: { arity: 2, fn: null },
  gauss: { arity: 2, fn: null },
};

const BUILTIN_CONSTANTS: ReadonlyMap<string, number> = new Map([["pi", Math.PI]]);

/** Parses and compiles one expression at the scanner's position. */
export function parseExpression(sc: Scanner, scope: Scope): Expr {
  const node = parseOr(sc, scope);
  return compile(fold(node, sc), scope.ctx);
}

/** Parses an expression that must be constant (constants only) and returns its value. */
export function parseConstant(sc: Scanner, scope: Scope, what: string): number {
  const start = (sc.skipBlanks(), sc.pos);
  const node = fold(parseOr(sc, scope), sc);
  if (node.k !== "num") throw sc.error(`${what} must be a constant expression (no parameters, no rand)`, start);
  return node.v;
}

function parseOr(sc: Scanner, scope: Scope): Node {
  let a = parseAnd(sc, scope);
  for (;;) {
    sc.skipBlanks();
    const pos = sc.pos;
    if (!sc.accept("||")) return a;
    a = { k: "bin", op: "||", a, b: parseAnd(sc, scope), pos };
  }
}

function parseAnd(sc: Scanner, scope: Scope): Node {
  let a = parseComparison(sc, scope);
  for (;;) {
    sc.skipBlanks();
    const pos = sc.pos;
    if (!sc.accept("&&")) return a;
    a = { k: "bin", op: "&&", a, b: parseComparison(sc, scope), pos };
  }
}

function parseComparison(sc: Scanner, scope: Scope): Node {
  const a = parseSum(sc, scope);
  sc.skipBlanks();
  const pos = sc.pos;
  for (const op of ["<=", ">=", "==", "!=", "<", ">", "="]) {
    if (sc.accept(op)) return { k: "bin", op: op === "=" ? "==" : op, a, b: parseSum(sc, scope), pos };
  }
  return a;
}

function parseSum(sc: Scanner, scope: Scope): Node {
  let a = parseProduct(sc, scope);
  for (;;) {
    sc.skipBlanks();
    const pos = sc.pos;
    const c = sc.peek();
    if (c === "+" || (c === "-" && sc.peek(1) !== ">")) {
      sc.pos++;
      a = { k: "bin", op: c, a, b: parseProduct(sc, scope), pos };
    } else return a;
  }
}

function parseProduct(sc: Scanner, scope: Scope): Node {
  let a = parseUnary(sc, scope);
  for (;;) {
    sc.skipBlanks();
    const pos = sc.pos;
    const c = sc.peek();
    if (c === "*" || c === "/" || c === "%") {
      sc.pos++;
      a = { k: "bin", op: c, a, b: parseUnary(sc, scope), pos };
    } else return a;
  }
}

function parseUnary(sc: Scanner, scope: Scope): Node {
  sc.skipBlanks();
  const pos = sc.pos;
  const c = sc.peek();
  if ((c === "-" && sc.peek(1) !== ">") || c === "+" || (c === "!" && sc.peek(1) !== "=")) {
    sc.pos++;
    return { k: "un", op: c, a: parseUnary(sc, scope), pos };
  }
  return parsePower(sc, scope);
}

/** `^` is exponentiation, right-associative, binding tighter than unary minus: -2^2 = -4. */
function parsePower(sc: Scanner, scope: Scope): Node {
  const a = parsePrimary(sc, scope);
  sc.skipBlanks();
  const pos = sc.pos;
  if (sc.peek() === "^") {
    sc.pos++;
    return { k: "bin", op: "^", a, b: parseUnary(sc, scope), pos };
  }
  return a;
}

function parsePrimary(sc: Scanner, scope: Scope): Node {
  sc.skipBlanks();
  const pos = sc.pos;
  const num = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(sc.text.slice(pos, pos + 64));
  if (num) {
    sc.pos += num[0].length;
    return { k: "num", v: Number(num[0]), pos };
  }
  if (sc.accept("(")) {
    const e = parseOr(sc, scope);
    sc.expect(")", "to close '('");
    return e;
  }
  const name = sc.identifier();
  if (name === null) throw sc.error(`expected a number, a name or '('${sc.found()}`);
  sc.skipBlanks();
  if (sc.peek() === "(") {
    const f = FUNCTIONS[name];
    if (!f || !Object.prototype.hasOwnProperty.call(FUNCTIONS, name)) throw sc.error(`unknown function '${name}'`, pos);
    sc.pos++;
    const args: Node[] = [];
    if (!sc.accept(")")) {
      do args.push(parseOr(sc, scope));
      while (sc.accept(","));
      sc.expect(")", `after the arguments of ${name}()`);
    }
    if (args.length !== f.arity) throw sc.error(`${name}() takes ${f.arity} argument${f.arity > 1 ? "s" : ""}, got ${args.length}`, pos);
    return { k: "call", f: name, args, pos };
  }
  const i = scope.params.indexOf(name);
  if (i >= 0) return { k: "par", i, pos };
  const v = scope.constants.get(name) ?? BUILTIN_CONSTANTS.get(name);
  if (v !== undefined) return { k: "num", v, pos };
  throw sc.error(`unknown name '${name}': not ${scope.what}`, pos);
}

function unary(op: string, a: number): number {
  return op === "-" ? -a : op === "!" ? (a === 0 ? 1 : 0) : a;
}

function binary(op: string, a: number, b: number): number {
  switch (op) {
    case "+": return a + b;
    case "-": return a - b;
    case "*": return a * b;
    case "/": return a / b;
    case "%": return a % b;
    case "^": return Math.pow(a, b);
    case "<": return a < b ? 1 : 0;
    case ">": return a > b ? 1 : 0;
    case "<=": return a <= b ? 1 : 0;
    case ">=": return a >= b ? 1 : 0;
    case "==": return a === b ? 1 : 0;
    case "!=": return a !== b ? 1 : 0;
    case "&&": return a !== 0 && b !== 0 ? 1 : 0;
    default: return a !== 0 || b !== 0 ? 1 : 0; // "||"
  }
}

/** Folds constant subtrees; a constant division by zero or NaN is reported where it stands. */
function fold(n: Node, sc: Scanner): Node {
  let r: Node = n;
  if (n.k === "un") {
    const a = fold(n.a, sc);
    r = a.k === "num" ? { k: "num", v: unary(n.op, a.v), pos: n.pos } : { ...n, a };
  } else if (n.k === "bin") {
    const a = fold(n.a, sc), b = fold(n.b, sc);
    if ((n.op === "/" || n.op === "%") && b.k === "num" && b.v === 0) throw sc.error("division by zero", n.pos);
    r = a.k === "num" && b.k === "num" ? { k: "num", v: binary(n.op, a.v, b.v), pos: n.pos } : { ...n, a, b };
  } else if (n.k === "call") {
    const args = n.args.map((x) => fold(x, sc));
    const fn = FUNCTIONS[n.f].fn;
    r = fn && args.every((x) => x.k === "num") ? { k: "num", v: fn(...args.map((x) => (x as { v: number }).v)), pos: n.pos } : { ...n, args };
  }
  if (r.k === "num" && !Number.isFinite(r.v)) throw sc.error(`${n.k === "call" ? n.f + "()" : "expression"} is not a finite number here`, n.pos);
  return r;
}

function compile(n: Node, ctx: EvalContext): Expr {
  switch (n.k) {
    case "num": {
      const v = n.v;
      return () => v;
    }
    case "par": {
      const i = n.i;
      return (p, o) => p[o + i];
    }
    case "un": {
      const a = compile(n.a, ctx);
      if (n.op === "-") return (p, o) => -a(p, o);
      if (n.op === "!") return (p, o) => (a(p, o) === 0 ? 1 : 0);
      return a;
    }
    case "call": {
      const args = n.args.map((x) => compile(x, ctx));
      if (n.f === "rand") {
        const [lo, hi] = args;
        return (p, o) => {
          const a = lo(p, o);
          return a + (hi(p, o) - a) * ctx.rng!.next();
        };
      }
      if (n.f === "gauss") {
        const [mean, sd] = args;
        return (p, o) => mean(p, o) + sd(p, o) * ctx.rng!.gaussian();
      }
      const fn = FUNCTIONS[n.f].fn!;
      if (args.length === 1) {
        const [a] = args;
        return (p, o) => fn(a(p, o));
      }
      if (args.length === 2) {
        const [a, b] = args;
        return (p, o) => fn(a(p, o), b(p, o));
      }
      const [a, b, c] = args;
      return (p, o) => fn(a(p, o), b(p, o), c(p, o));
    }
    case "bin": {
      const a = compile(n.a, ctx), b = compile(n.b, ctx);
      // Specialise a constant right operand (the common `l*R1`, `n-1`).
      if (n.b.k === "num") {
        const k = n.b.v;
        switch (n.op) {
          case "+": return (p, o) => a(p, o) + k;
          case "-": return (p, o) => a(p, o) - k;
          case "*": return (p, o) => a(p, o) * k;
          case "/": return (p, o) => a(p, o) / k;
          case "<": return (p, o) => (a(p, o) < k ? 1 : 0);
          case ">": return (p, o) => (a(p, o) > k ? 1 : 0);
          case "<=": return (p, o) => (a(p, o) <= k ? 1 : 0);
          case ">=": return (p, o) => (a(p, o) >= k ? 1 : 0);
        }
      }
      switch (n.op) {
        case "+": return (p, o) => a(p, o) + b(p, o);
        case "-": return (p, o) => a(p, o) - b(p, o);
        case "*": return (p, o) => a(p, o) * b(p, o);
        case "/": return (p, o) => a(p, o) / b(p, o);
        case "&&": return (p, o) => (a(p, o) !== 0 && b(p, o) !== 0 ? 1 : 0);
        case "||": return (p, o) => (a(p, o) !== 0 || b(p, o) !== 0 ? 1 : 0);
        default: {
          const op = n.op;
          return (p, o) => binary(op, a(p, o), b(p, o));
        }
      }
    }
  }
}
