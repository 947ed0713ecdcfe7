/**
 * The sandbox's state in the URL hash, so reloading restores tree, method, wind, parameters and
 * display. Plain key=value pairs a person can read and edit:
 *   #tree=demo&depth=5&taper=0.6&method=procedural-wind&speed=6&direction=0&turbulence=0.35
 *    &gust=0.3&seed=1&vertical=0&mode=shaded&bark=on&background=on&shadows=on&procedural-wind.damping=0.7
 *    &timeline=loop|0,6,0,0.3;10,20,90,0.5   (a wind timeline, when one plays: conditions.ts's text)
 *    &primitives=blast,8,0,20,8,inf,3.5;fan,-10,0,12,2,30,0,0   (wind primitives placed: primitives.ts's text)
 *    &forest=400,120,current+demo,1&forestLod=35,90,12   (a forest: app/forest's texts)
 * Keys an older address lacks (vertical, bark, background, shadows) keep their defaults. A field
 * whose text cannot be read (depth=abc, bark=maybe) is left out and kept in `unreadable`, so that
 * url-sync.ts can name it.
 */
import type { Params } from "../math/params";
import type { WindSettings } from "../wind/wind-field";

/** What is drawn besides the tree (Barron §5.3, §6.3). */
export interface DisplaySettings {
  /** The bark's texture (off: plain bark colour). */
  barkTexture: boolean;
  /** Sky dome and ground (off: a plain neutral colour, no ground). */
  background: boolean;
  /** The sun's shadows, on the ground and on the tree. */
  shadows: boolean;
  /** The skeleton drawn over the tree, coloured by hierarchy level. */
  hierarchy: boolean;
}

export const DEFAULT_DISPLAY: Readonly<DisplaySettings> = { barkTexture: true, background: true, shadows: true, hierarchy: false };

/** The hash key of each display setting. */
export const DISPLAY_KEYS: Readonly<Record<keyof DisplaySettings, string>> = { barkTexture: "bark", background: "background", shadows: "shadows", hierarchy: "hierarchy" };

export interface UrlState {
  tree?: string;
  /** A model's URL (`?model=<url>` or `#model=<url>`): loaded in place of `tree`. */
  model?: string;
  depth?: number;
  taper?: number;
  method?: string;
  mode?: string;
  /** The wind timeline's text (parsed by conditions.ts's parseTimeline, which says what is wrong). */
  timeline?: string;
  /** The wind primitives' text (parsed by primitives.ts's parsePrimitives, which says what is wrong). */
  primitives?: string;
  /** The forest's and its levels' texts (app/forest/scatter.ts, forest-lod.ts). */
  forest?: string;
  forestLod?: string;
  wind: Partial<Record<keyof WindSettings, string>>;
  /** Display settings the address names (on/off, true/false, 1/0); others are left out. */
  display: Partial<DisplaySettings>;
  /** Per method id, its parameter values as strings (validated by the method's declaration). */
  params: Record<string, Record<string, string>>;
  /** The physical tree's material as strings (`physics.species=pine&physics.woodDensity=687`), validated by its declaration. */
  physics: Record<string, string>;
  /** Fields present but unreadable (not a number, not on/off), by their key in the address, with their text. */
  unreadable: Record<string, string>;
}

/** The prefix of the material's keys (not a method's parameters). */
const PHYSICS_KEY = "physics";

const WIND_KEYS: (keyof WindSettings)[] = ["speed", "direction", "turbulence", "gust", "seed", "vertical"];

export function parseHash(hash: string): UrlState {
  const q = new URLSearchParams(hash.replace(/^#/, ""));
  const out: UrlState = { wind: {}, display: {}, params: {}, physics: {}, unreadable: {} };
  const num = (k: string): number | undefined => {
    const v = q.get(k);
    if (v === null) return undefined;
    if (v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
    out.unreadable[k] = v;
    return undefined;
  };
  out.tree = q.get("tree") ?? undefined;
  out.model = q.get("model") ?? undefined;
  out.depth = num("depth");
  out.taper = num("taper");
  out.method = q.get("method") ?? undefined;
  out.mode = q.get("mode") ?? undefined;
  out.timeline = q.get("timeline") ?? undefined;
  out.primitives = q.get("primitives") ?? undefined;
  out.forest = q.get("forest") ?? undefined;
  out.forestLod = q.get("forestLod") ?? undefined;
  for (const k of WIND_KEYS) {
    const v = q.get(k);
    if (v !== null) out.wind[k] = v;
  }
  for (const [k, key] of Object.entries(DISPLAY_KEYS) as [keyof DisplaySettings, string][]) {
    const text = q.get(key);
    const v = text?.trim().toLowerCase();
    if (v === "on" || v === "true" || v === "1") out.display[k] = true;
    else if (v === "off" || v === "false" || v === "0") out.display[k] = false;
    else if (text !== null) out.unreadable[key] = text;
  }
  for (const [key, value] of q) {
    const dot = key.indexOf(".");
    if (dot <= 0) continue;
    const id = key.slice(0, dot);
    if (id === PHYSICS_KEY) out.physics[key.slice(dot + 1)] = value;
    else (out.params[id] ??= {})[key.slice(dot + 1)] = value;
  }
  return out;
}

export function formatHash(s: { tree: string; model?: string; depth: number; taper: number; method: string; mode: string; wind: WindSettings; timeline?: string; primitives?: string; forest?: string; forestLod?: string; display?: DisplaySettings; params: Record<string, Params>; physics?: Params }): string {
  const q = new URLSearchParams();
  q.set("tree", s.tree);
  if (s.model) q.set("model", s.model);
  q.set("depth", String(s.depth));
  q.set("taper", String(round(s.taper)));
  q.set("method", s.method);
  q.set("mode", s.mode);
  for (const k of WIND_KEYS) if (s.wind[k] !== undefined) q.set(k, String(round(s.wind[k])));
  if (s.timeline) q.set("timeline", s.timeline);
  if (s.primitives) q.set("primitives", s.primitives);
  if (s.forest) q.set("forest", s.forest);
  if (s.forest && s.forestLod) q.set("forestLod", s.forestLod);
  if (s.display) for (const [k, key] of Object.entries(DISPLAY_KEYS) as [keyof DisplaySettings, string][]) q.set(key, s.display[k] ? "on" : "off");
  if (s.physics) for (const [k, v] of Object.entries(s.physics)) q.set(`${PHYSICS_KEY}.${k}`, typeof v === "number" ? String(round(v)) : String(v));
  for (const id of Object.keys(s.params)) {
    for (const [k, v] of Object.entries(s.params[id])) q.set(`${id}.${k}`, typeof v === "number" ? String(round(v)) : String(v));
  }
  return "#" + q.toString();
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
