/**
 * L-systems to trees (ARCHITECTURE.md, "Data flow"): parse a `.lsys` grammar, derive its string,
 * interpret it with a 3D turtle into a TreeSkeleton. Format: docs/lsys-format.md.
 */
import type { TreeSkeleton } from "../tree/skeleton";
import { derive } from "./derive";
import { parseGrammar } from "./grammar";
import { interpret } from "./turtle";

export { LSystemError } from "./errors";
export { parseGrammar, TURTLE_ARITY, type Grammar, type ModuleString, type ParseOptions, type ProductionGroup, type Successor, type Tropism } from "./grammar";
export { derive, moduleStringToText, DEFAULT_MODULE_CAP, type DerivedString, type DeriveOptions } from "./derive";
export { interpret, type InterpretOptions } from "./turtle";

export interface GrammarToSkeletonOptions {
  /** Derivation steps; the grammar's `#depth` when omitted. */
  depth?: number;
  seed: number;
  /** Shown in error messages, e.g. "oak.lsys". */
  fileName?: string;
  /** Overrides of `#define` constants by name. */
  constants?: Readonly<Record<string, number>>;
  moduleCap?: number;
}

/** Grammar text to skeleton in one call: parse, derive, interpret. Throws LSystemError on a bad grammar. */
export function grammarToSkeleton(text: string, options: GrammarToSkeletonOptions): TreeSkeleton {
  const grammar = parseGrammar(text, options.fileName, { constants: options.constants });
  const derived = derive(grammar, { depth: options.depth, seed: options.seed, moduleCap: options.moduleCap });
  return interpret(derived, grammar, { seed: options.seed });
}
