// Types of check.cjs for the TypeScript that imports it (spec/scripts/bench-check.spec.ts).
export interface Target {
  target: number | null;
  direction: "max" | "min";
  unit: string;
  source: "jest" | "frame" | "compare" | "record";
  why: string;
}
export type Targets = Record<string, Target>;
export interface Line {
  bench: string;
  value: number;
  unit?: string;
  [key: string]: unknown;
}
export interface Miss {
  bench: string;
  value: number;
  unit?: string;
  target: number;
  direction: "max" | "min";
}
export interface CheckResult {
  misses: Miss[];
  missing: string[];
  unknown: string[];
  met: string[];
  untargeted: string[];
  ok: boolean;
}
export const TARGETS_FILE: string;
export function loadTargets(file?: string): Targets;
export function meets(value: unknown, t: Pick<Target, "target" | "direction">): boolean;
export function expectedFigures(targets: Targets, parts?: { jest?: boolean; methods?: "all" | string[] | null; compare?: boolean; record?: boolean; exportMotion?: boolean; forest?: boolean }): string[];
export function checkFigures(lines: Line[], targets: Targets, expected?: string[]): CheckResult;
export function annotate(line: Line, targets: Targets): Line & { target?: number; direction?: "max" | "min"; met?: boolean };
export function formatCheck(r: CheckResult): string[];
