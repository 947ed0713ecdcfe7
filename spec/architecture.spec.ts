/**
 * The layout ARCHITECTURE.md and docs/architecture.md describe, checked on the code's own imports:
 * no import cycles in app/, the host's parts never import the host or the API module, the panel
 * and the other GUI files import only types from the sandbox, the physics and math import nothing
 * from Babylon, and no file grows past the size a newcomer can read.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(__dirname, "..");
const APP = join(ROOT, "app");

interface Import {
  target: string;
  typeOnly: boolean;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The app's own modules a file imports (relative paths resolved to files), and whether only types. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const out: Import[] = [];
  const re = /^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+"(\.[^"]+)";/gms;
  for (const m of text.matchAll(re)) {
    const base = resolve(dirname(file), m[4]);
    const target = [`${base}.ts`, join(base, "index.ts")].find((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    });
    if (!target) continue;
    // `import { type A, type B }` is as type-only as `import type { A, B }`.
    const names = m[3].replace(/^\{|\}$/g, "").split(",").map((s) => s.trim()).filter(Boolean);
    const typeOnly = m[2] !== undefined || (m[3].startsWith("{") && names.length > 0 && names.every((n) => n.startsWith("type ")));
    out.push({ target, typeOnly });
  }
  return out;
}

const all = files(APP);
const graph = new Map(all.map((f) => [f, importsOf(f)]));
const rel = (f: string) => relative(ROOT, f);

describe("the app's structure", () => {
  it("has no import cycles (type-only imports included)", () => {
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === "done") return;
      if (state.get(f) === "open") {
        cycles.push([...path.slice(path.indexOf(f)), f].map(rel).join(" -> "));
        return;
      }
      state.set(f, "open");
      for (const i of graph.get(f) ?? []) visit(i.target, [...path, f]);
      state.set(f, "done");
    };
    for (const f of all) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it("keeps the host's parts from importing the host or the API module", () => {
    const host = join(APP, "sandbox", "sandbox.ts"), api = join(APP, "sandbox", "api.ts"), builder = join(APP, "sandbox", "sandbox-api.ts");
    const offenders = [...graph]
      .filter(([f]) => f.startsWith(join(APP, "sandbox")) && ![host, api, builder].includes(f))
      .flatMap(([f, imports]) => imports.filter((i) => i.target === host || i.target === api || i.target === builder).map((i) => `${rel(f)} imports ${rel(i.target)}`));
    expect(offenders).toEqual([]);
  });

  it("lets the GUI import only types from the sandbox", () => {
    const offenders = [...graph]
      .filter(([f]) => f.startsWith(join(APP, "ui")))
      .flatMap(([f, imports]) => imports.filter((i) => i.target.startsWith(join(APP, "sandbox")) && !i.typeOnly).map((i) => `${rel(f)} imports ${rel(i.target)}`));
    expect(offenders).toEqual([]);
  });

  it("keeps the physics and math free of Babylon", () => {
    const pure = ["math", "lsystem", "wind", "forest"].map((d) => join(APP, d));
    const offenders = all.filter((f) => pure.some((d) => f.startsWith(d)) && /from "@babylonjs\//.test(readFileSync(f, "utf8"))).map(rel);
    expect(offenders).toEqual([]);
  });

  it("keeps every file readable: none over 600 lines, the host at most 400, the panel at most 300", () => {
    const lines = (f: string) => readFileSync(f, "utf8").split("\n").length;
    expect(all.filter((f) => lines(f) > 600).map((f) => `${rel(f)}: ${lines(f)}`)).toEqual([]);
    expect(lines(join(APP, "sandbox", "sandbox.ts"))).toBeLessThanOrEqual(400);
    expect(lines(join(APP, "ui", "panel.ts"))).toBeLessThanOrEqual(300);
  });
});
