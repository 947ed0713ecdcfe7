/**
 * The sandbox's state in the URL hash, so reloading restores tree, method, wind and parameters
 * (issue 3, item 8). Plain key=value pairs a person can read and edit:
 *   #tree=demo&depth=5&taper=0.6&method=procedural-wind&speed=6&direction=0&turbulence=0.35
 *    &gust=0.3&seed=1&mode=shaded&procedural-wind.damping=0.7
 */
import type { Params } from "../math/params";
import type { WindSettings } from "../wind/wind-field";

export interface UrlState {
  tree?: string;
  depth?: number;
  taper?: number;
  method?: string;
  mode?: string;
  wind: Partial<Record<keyof WindSettings, string>>;
  /** Per method id, its parameter values as strings (validated by the method's declaration). */
  params: Record<string, Record<string, string>>;
}

const WIND_KEYS: (keyof WindSettings)[] = ["speed", "direction", "turbulence", "gust", "seed"];

export function parseHash(hash: string): UrlState {
  const q = new URLSearchParams(hash.replace(/^#/, ""));
  const out: UrlState = { wind: {}, params: {} };
  const num = (k: string): number | undefined => {
    const v = q.get(k);
    return v !== null && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : undefined;
  };
  out.tree = q.get("tree") ?? undefined;
  out.depth = num("depth");
  out.taper = num("taper");
  out.method = q.get("method") ?? undefined;
  out.mode = q.get("mode") ?? undefined;
  for (const k of WIND_KEYS) {
    const v = q.get(k);
    if (v !== null) out.wind[k] = v;
  }
  for (const [key, value] of q) {
    const dot = key.indexOf(".");
    if (dot <= 0) continue;
    const id = key.slice(0, dot);
    (out.params[id] ??= {})[key.slice(dot + 1)] = value;
  }
  return out;
}

export function formatHash(s: { tree: string; depth: number; taper: number; method: string; mode: string; wind: WindSettings; params: Record<string, Params> }): string {
  const q = new URLSearchParams();
  q.set("tree", s.tree);
  q.set("depth", String(s.depth));
  q.set("taper", String(round(s.taper)));
  q.set("method", s.method);
  q.set("mode", s.mode);
  for (const k of WIND_KEYS) q.set(k, String(round(s.wind[k])));
  for (const id of Object.keys(s.params)) {
    for (const [k, v] of Object.entries(s.params[id])) q.set(`${id}.${k}`, typeof v === "number" ? String(round(v)) : String(v));
  }
  return "#" + q.toString();
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
