/**
 * Derivation (ABOP §1.1, §1.10): every module of the string is rewritten in parallel by the
 * first production group whose predecessor symbol and number of parameters match and whose
 * condition holds; in a stochastic group the successor is drawn with its probability (ABOP §1.7)
 * from a seeded Rng. Modules with no matching production stay as they are.
 *
 * Strings are kept as typed arrays (symbol codes, parameter offsets, parameters) in two buffers
 * swapped between steps: no object per module.
 */
import { Rng } from "../math/rng";
import { LSystemError } from "./errors";
import type { Grammar, ModuleString } from "./grammar";

export interface DerivedString extends ModuleString {
  /** Derivation steps applied (fewer than asked when the string stopped changing). */
  readonly steps: number;
}

export interface DeriveOptions {
  /** Derivation steps; the grammar's `#depth` when omitted. */
  depth?: number;
  seed: number;
  /** Largest string allowed, in modules. */
  moduleCap?: number;
}

export const DEFAULT_MODULE_CAP = 2_000_000;

export function derive(grammar: Grammar, options: DeriveOptions): DerivedString {
  const depth = options.depth ?? grammar.depth;
  const cap = options.moduleCap ?? DEFAULT_MODULE_CAP;
  if (!(Number.isInteger(depth) && depth >= 0)) throw new LSystemError(`depth must be a whole number >= 0, got ${depth}`, grammar.fileName);
  const rng = new Rng(options.seed);
  grammar.ctx.rng = rng;
  const table = grammar.productions;
  const ax = grammar.axiom;

  let inSym: Uint8Array = ax.symbols.slice();
  let inStart: Uint32Array = ax.paramStart.slice();
  let inPar: Float64Array = ax.params.slice();
  let inLen = ax.length;
  if (inLen > cap) throw new LSystemError(`the axiom has ${inLen} modules, more than the cap of ${cap}`, grammar.fileName);
  let outSym: Uint8Array = new Uint8Array(Math.max(64, inLen * 4));
  let outStart: Uint32Array = new Uint32Array(outSym.length + 1);
  let outPar: Float64Array = new Float64Array(Math.max(64, inPar.length * 4));
  let steps = 0;

  for (let step = 1; step <= depth; step++) {
    let on = 0, op = 0;
    let rewritten = false;
    let counting = false; // past the cap: only count the modules this step would produce
    let count = 0;
    outStart[0] = 0;
    for (let i = 0; i < inLen; i++) {
      const s = inSym[i];
      const off = inStart[i], arity = inStart[i + 1] - off;
      const groups = table[s];
      let applied = false;
      if (groups !== null) {
        for (let g = 0; g < groups.length; g++) {
          const group = groups[g];
          if (group.arity !== arity || (group.condition !== null && !(group.condition(inPar, off) !== 0))) continue;
          let k = 0;
          const cum = group.cumulative;
          if (cum !== null) {
            const r = rng.next();
            while (k < cum.length - 1 && cum[k] <= r) k++;
          }
          const succ = group.successors[k];
          const ss = succ.symbols, as = succ.argStart, args = succ.args;
          applied = true;
          rewritten = true;
          if (counting || on + ss.length > cap) {
            if (!counting) {
              counting = true;
              count = on;
            }
            count += ss.length;
            break;
          }
          if (on + ss.length >= outSym.length) {
            const grown = Math.min(cap + 1, Math.max(outSym.length * 2, on + ss.length + 1));
            outSym = grow8(outSym, grown);
            outStart = grow32(outStart, grown + 1);
          }
          if (op + args.length > outPar.length) outPar = grow64(outPar, Math.max(outPar.length * 2, op + args.length));
          for (let j = 0; j < ss.length; j++) {
            outSym[on] = ss[j];
            for (let a = as[j], end = as[j + 1]; a < end; a++) {
              const v = args[a](inPar, off);
              if (!Number.isFinite(v)) throw nonFinite(grammar, succ.argPos[a], v);
              outPar[op++] = v;
            }
            outStart[++on] = op;
          }
          break;
        }
      }
      if (applied) continue;
      // No production: the module stays as it is.
      if (counting || on + 1 > cap) {
        if (!counting) {
          counting = true;
          count = on;
        }
        count++;
        continue;
      }
      if (on + 1 >= outSym.length) {
        const grown = Math.min(cap + 1, outSym.length * 2);
        outSym = grow8(outSym, grown);
        outStart = grow32(outStart, grown + 1);
      }
      if (op + arity > outPar.length) outPar = grow64(outPar, Math.max(outPar.length * 2, op + arity));
      outSym[on] = s;
      for (let a = 0; a < arity; a++) outPar[op++] = inPar[off + a];
      outStart[++on] = op;
    }
    if (counting) throw overCap(grammar, depth, step, count, inLen, cap);
    if (!rewritten) break; // a fixed point: further steps change nothing
    steps = step;
    [inSym, outSym] = [outSym, inSym];
    [inStart, outStart] = [outStart, inStart];
    [inPar, outPar] = [outPar, inPar];
    inLen = on;
  }
  grammar.ctx.rng = null;
  return {
    length: inLen, steps,
    symbols: inSym.subarray(0, inLen),
    paramStart: inStart.subarray(0, inLen + 1),
    params: inPar.subarray(0, inStart[inLen]),
  };
}

function nonFinite(grammar: Grammar, pos: number, v: number): LSystemError {
  const { line, column } = grammar.locate(pos);
  const what = Number.isNaN(v) ? "not a number" : "infinite";
  return new LSystemError(`this parameter became ${what} during the derivation (division by zero, or sqrt/log of a negative?)`, grammar.fileName, line, column);
}

/** The cap message: how many modules the asked depth would produce (extrapolating the growth of the step that passed the cap) and the depth to lower to. */
function overCap(grammar: Grammar, depth: number, step: number, count: number, before: number, cap: number): LSystemError {
  const growth = before > 0 ? count / before : 1;
  const estimate = count * Math.pow(Math.max(1, growth), depth - step);
  return new LSystemError(
    `depth ${depth} would produce ${formatCount(estimate)} modules (cap ${cap.toLocaleString("en-US")}); lower the depth to ${step - 1} or less`,
    grammar.fileName,
  );
}

function formatCount(n: number): string {
  if (n >= 1e12) return "more than a trillion";
  // Everything else is an estimate: say so.
  if (n >= 1e9) return `about ${(n / 1e9).toFixed(1)} billion`;
  if (n >= 1e6) return `about ${(n / 1e6).toFixed(1)} million`;
  return `about ${Math.round(n).toLocaleString("en-US")}`;
}

function grow8(a: Uint8Array, n: number): Uint8Array {
  const b = new Uint8Array(n);
  b.set(a.subarray(0, Math.min(a.length, n)));
  return b;
}
function grow32(a: Uint32Array, n: number): Uint32Array {
  const b = new Uint32Array(n);
  b.set(a.subarray(0, Math.min(a.length, n)));
  return b;
}
function grow64(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}

/** The derived string as text, ABOP style: `F(1,0.5)[+A(2)]`. Numbers are rounded to `digits` decimals. */
export function moduleStringToText(s: ModuleString, digits = 4): string {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    out.push(String.fromCharCode(s.symbols[i]));
    const a = s.paramStart[i], b = s.paramStart[i + 1];
    if (b > a) {
      const ps: string[] = [];
      for (let k = a; k < b; k++) ps.push(String(+s.params[k].toFixed(digits)));
      out.push(`(${ps.join(",")})`);
    }
  }
  return out.join("");
}
