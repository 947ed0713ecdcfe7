// The benchmark targets (spec/bench/targets.json) against the figures a run printed: what
// `npm run bench` reports at its end and what `npm run bench -- --check` fails on. CommonJS so
// that both scripts/bench.mjs (node, ESM) and the unit test (jest) load it as it is.
"use strict";
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

const TARGETS_FILE = join(__dirname, "targets.json");

/** The figures of `file` (spec/bench/targets.json): { name: { target, direction, unit, source, why } }. */
function loadTargets(file = TARGETS_FILE) {
  const figures = JSON.parse(readFileSync(file, "utf8")).figures;
  for (const [name, t] of Object.entries(figures)) {
    if (t.direction !== "max" && t.direction !== "min") throw new Error(`${file}: ${name}: direction must be "max" or "min", not ${JSON.stringify(t.direction)}`);
    if (t.target !== null && !Number.isFinite(t.target)) throw new Error(`${file}: ${name}: target must be a number or null`);
    if (!["jest", "frame", "compare", "record", "export", "forest"].includes(t.source)) throw new Error(`${file}: ${name}: unknown source ${JSON.stringify(t.source)}`);
    if (!t.why) throw new Error(`${file}: ${name}: says no why`);
  }
  return figures;
}

/** Whether `value` meets target `t` ({ target, direction }); a figure without a target always does. */
function meets(value, t) {
  if (t.target === null || t.target === undefined) return true;
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  return t.direction === "max" ? value <= t.target : value >= t.target;
}

/**
 * The names of the figures a run with these parts should print: the jest part's when `jest`; the
 * frame ratios of `methods` ("all": every method's; an array of ids; empty or null: none); the
 * compare and record figures when those ran.
 */
function expectedFigures(targets, { jest = true, methods = "all", compare = true, record = true, exportMotion = true, forest = true } = {}) {
  const names = [];
  for (const [name, t] of Object.entries(targets)) {
    if (t.source === "jest" ? jest
      : t.source === "compare" ? compare
        : t.source === "record" ? record
          : t.source === "export" ? exportMotion
            : t.source === "forest" ? forest
            : methods === "all" || (Array.isArray(methods) && methods.some((id) => name.startsWith(`${id}.frame.`)))) names.push(name);
  }
  return names;
}

/**
 * Compares the printed `lines` ({ bench, value, unit, ... }) with `targets`. `expected`: the names
 * that should have been printed (expectedFigures). Returns
 *  - misses: [{ bench, value, unit, target, direction }] figures that miss their target;
 *  - missing: names expected but not printed;
 *  - unknown: names printed but not in the targets file;
 *  - met: names with a target that was met; untargeted: names printed that have no target;
 *  - ok: no misses, nothing missing, nothing unknown.
 */
function checkFigures(lines, targets, expected = Object.keys(targets)) {
  const printed = new Map();
  for (const line of lines) printed.set(line.bench, line);
  const misses = [], missing = [], unknown = [], met = [], untargeted = [];
  for (const name of expected) if (!printed.has(name)) missing.push(name);
  for (const [name, line] of printed) {
    const t = targets[name];
    if (!t) unknown.push(name);
    else if (t.target === null) untargeted.push(name);
    else if (meets(line.value, t)) met.push(name);
    else misses.push({ bench: name, value: line.value, unit: line.unit ?? t.unit, target: t.target, direction: t.direction });
  }
  return { misses, missing, unknown, met, untargeted, ok: misses.length === 0 && missing.length === 0 && unknown.length === 0 };
}

/** A printed line with its target from the file added (target, direction), when it has one. */
function annotate(line, targets) {
  const t = targets[line.bench];
  const rest = { ...line };
  delete rest.target;
  if (!t || t.target === null) return rest;
  return { ...rest, target: t.target, direction: t.direction, met: meets(line.value, t) };
}

/** The report of checkFigures as lines of text (for stderr). */
function formatCheck(r) {
  const out = [`targets: ${r.met.length + r.misses.length} figures with a target, ${r.met.length} met, ${r.misses.length} missed; ${r.untargeted.length} without a target`];
  for (const m of r.misses) out.push(`  MISSED  ${m.bench} = ${m.value} ${m.unit ?? ""}: target ${m.direction === "max" ? "at most" : "at least"} ${m.target}`);
  for (const name of r.missing) out.push(`  MISSING ${name}: named in spec/bench/targets.json, not printed by this run`);
  for (const name of r.unknown) out.push(`  UNKNOWN ${name}: printed, but spec/bench/targets.json does not name it`);
  return out;
}

module.exports = { TARGETS_FILE, loadTargets, meets, expectedFigures, checkFigures, annotate, formatCheck };
