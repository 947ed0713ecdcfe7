/**
 * The page address keeps the state a person set up (url-state.ts has the format): read once at
 * start, every field checked on its own (a bad field keeps its default and one message names every
 * bad field, its text and the value used instead; the others still apply), and written back shortly after each change it keeps. The query is dropped: a ?model=
 * would load that model again on reload; the hash says what is on show.
 */
import type { Params } from "../math/params";
import type { WindSettings } from "../wind/wind-field";
import { formatTimeline, parseTimeline, validateTimeline, type WindTimeline } from "../wind/conditions";
import { parsePrimitives, type WindPrimitiveSpec } from "../wind/primitives";
import { ADDRESS_CHANGES, messageOf, type SandboxChange } from "./events";
import { RENDER_MODES, type RenderMode } from "./tree-view";
import { DEFAULT_DISPLAY, DISPLAY_KEYS, formatHash, parseHash, type DisplaySettings } from "./url-state";
import { DEFAULT_TREE, isTreePreset, prepareAddressTree, treeNames } from "./tree-source";
import { validatePatch } from "../math/params";
import { PHYSICS_PARAMS } from "../physics/material";
import { DEPTH_RANGE } from "../lsystem/depth";
import { TAPER_RANGE } from "../tree/taper";

/** Milliseconds after the last change before the address is written. */
const WRITE_DELAY_MS = 100;

/** What the address holds, as the parts report it. */
export interface AddressState {
  tree: string;
  model?: string;
  depth: number;
  taper: number;
  methods: string[];
  mode: RenderMode;
  wind: WindSettings;
  timeline: WindTimeline | null;
  /** The wind primitives placed, as primitives.ts's text ("" for none). */
  primitives: string;
  /** The forest's text ("" for none) and its levels' (app/forest). */
  forest: string;
  forestLod: string;
  display: DisplaySettings;
  /** The parameters of the methods on show. */
  params: Record<string, Params>;
  /** The physical tree's material. */
  physics: Params;
}

/** How the address's fields are applied at start; each may throw a message naming what is wrong. */
export interface AddressTarget {
  setWind(patch: Record<string, string>): void;
  restoreParams(id: string, patch: Record<string, string>): void;
  setMethods(ids: string[]): void;
  setRenderMode(mode: RenderMode): void;
  setTimeline(tl: WindTimeline): void;
  setPrimitives(list: WindPrimitiveSpec[]): void;
  /** A forest to build once the tree is (validated here), and its levels' bands. */
  setForest(text: string): void;
  setForestLod(text: string): void;
  setDisplay(d: DisplaySettings): void;
  setPhysics(patch: Record<string, string>): void;
}

/** The model or sample the address names, loaded once the panel is up. */
export interface AddressModel {
  url?: string;
  preset?: string;
}

/** The fields of the tree the address names (its own validation happens when it is built). */
export interface AddressTree {
  tree?: string;
  depth?: number;
  taper?: number;
  model: AddressModel | null;
}

/** A field of the address that could not be used: its key, its text, why, and where its value in use is read. */
interface Problem {
  field: string;
  value: string;
  reason: string;
  /** The value in use once the address is applied (read from the state then), or null when the state does not hold it. */
  using: (s: AddressState) => unknown;
}

export class UrlSync {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private restoring = false;
  /** What the address asked for that could not be done: one message names them all once restoring is over. */
  private problems: Problem[] = [];
  private readonly observer: { remove(): void };

  /** `state()`: what is on show now, or null before there is a tree; `warn()`: shows a message. */
  constructor(changes: { add(f: (what: SandboxChange) => void): { remove(): void } | null }, private readonly state: () => AddressState | null, private readonly warn: (message: string) => void) {
    const o = changes.add((what) => {
      if (ADDRESS_CHANGES.has(what)) this.writeSoon();
    });
    this.observer = o ?? { remove: () => undefined };
  }

  /**
   * Applies the address's settings (everything but the tree) and returns the tree it names, each
   * field on its own: a field that cannot be used keeps its default and is named in the one message
   * restored() shows. The grammar tree is built here (tree-source.ts's prepareAddressTree), so that a
   * depth past the module cap or the vertex budget falls back to the grammar's own depth alone.
   * `isSample` tells a sample model's id from a grammar's name.
   */
  restore(hash: string, search: string, target: AddressTarget, isSample: (name: string) => boolean): AddressTree {
    this.restoring = true;
    this.problems = [];
    const s = parseHash(hash);
    const bad = (field: string, value: string, e: unknown, using: Problem["using"]) => this.problems.push({ field, value, reason: reasonOf(field, e), using });
    /** Applies one field; a refusal names it. */
    const attempt = (field: string, value: string, using: Problem["using"], f: () => void) => {
      try {
        f();
      } catch (e) {
        bad(field, value, e, using);
      }
    };
    // The tree: a sample model's id, a shipped grammar, or the default; its depth and taper each on their own.
    const modelUrl = new URLSearchParams(search).get("model") ?? s.model;
    let tree = s.tree;
    if (tree !== undefined && !isTreePreset(tree) && !isSample(tree)) {
      bad("tree", tree, new RangeError(`not a tree; the trees are: ${treeNames().join(", ")}`), (st) => st.tree);
      tree = undefined;
    }
    const sampleId = tree !== undefined && isSample(tree) ? tree : undefined;
    const grammar = sampleId || tree === undefined ? DEFAULT_TREE : tree;
    let { depth, taper } = s;
    if (taper !== undefined && !(taper >= TAPER_RANGE.min && taper <= TAPER_RANGE.max)) {
      bad("taper", String(taper), new RangeError(`must be a number from ${TAPER_RANGE.min} to ${TAPER_RANGE.max}`), (st) => st.taper);
      taper = undefined;
    }
    if (depth !== undefined && !(Number.isInteger(depth) && depth >= DEPTH_RANGE.min && depth <= DEPTH_RANGE.max)) {
      bad("depth", String(depth), new RangeError(`must be a whole number from ${DEPTH_RANGE.min} to ${DEPTH_RANGE.max}`), (st) => st.depth);
      depth = undefined;
    }
    if (depth !== undefined) {
      const d = depth;
      attempt("depth", String(d), (st) => st.depth, () => prepareAddressTree(grammar, d, taper ?? TAPER_RANGE.default));
      if (this.problems.some((p) => p.field === "depth")) depth = undefined;
    }
    for (const [key, text] of Object.entries(s.unreadable)) {
      const display = (Object.entries(DISPLAY_KEYS) as [keyof DisplaySettings, string][]).find(([, k]) => k === key)?.[0];
      bad(key, text, new RangeError(display ? "must be on or off" : key === "depth" ? "must be a whole number" : "must be a number"), (st) => (display ? (st.display[display] ? "on" : "off") : (st as unknown as Record<string, unknown>)[key]));
    }
    // The wind, one key at a time (each validated as the API validates it).
    for (const [k, v] of Object.entries(s.wind) as [keyof WindSettings, string][]) attempt(k, v, (st) => st.wind[k], () => target.setWind({ [k]: v }));
    // The material: the keys that pass, applied together (a species and values by hand combine).
    const physics: Record<string, string> = {};
    for (const [k, v] of Object.entries(s.physics)) {
      attempt(`physics.${k}`, v, (st) => st.physics[k], () => {
        validatePatch("physics", PHYSICS_PARAMS, { [k]: v });
        physics[k] = v;
      });
    }
    if (Object.keys(physics).length) attempt("physics", Object.entries(physics).map(([k, v]) => `${k}=${v}`).join("&"), (st) => JSON.stringify(st.physics), () => target.setPhysics(physics));
    for (const [id, patch] of Object.entries(s.params)) {
      for (const [k, v] of Object.entries(patch)) attempt(`${id}.${k}`, v, (st) => st.params[id]?.[k] ?? "its default", () => target.restoreParams(id, { [k]: v }));
    }
    if (s.method !== undefined) attempt("method", s.method, (st) => st.methods.join(","), () => target.setMethods(s.method!.split(",")));
    if (s.mode !== undefined) {
      attempt("mode", s.mode, (st) => st.mode, () => {
        if (!(RENDER_MODES as readonly string[]).includes(s.mode!)) throw new RangeError(`must be one of ${RENDER_MODES.join(", ")}`);
        target.setRenderMode(s.mode as RenderMode);
      });
    }
    if (s.timeline !== undefined) {
      attempt("timeline", s.timeline, (st) => (st.timeline ? formatTimeline(st.timeline) : "none"), () => {
        const tl = parseTimeline(s.timeline!);
        validateTimeline(tl);
        target.setTimeline(tl);
      });
    }
    if (s.primitives !== undefined) attempt("primitives", s.primitives, (st) => st.primitives || "none", () => target.setPrimitives(parsePrimitives(s.primitives!)));
    if (s.forest !== undefined) attempt("forest", s.forest, (st) => st.forest || "none", () => target.setForest(s.forest!));
    if (s.forestLod !== undefined) attempt("forestLod", s.forestLod, (st) => st.forestLod, () => target.setForestLod(s.forestLod!));
    target.setDisplay({ ...DEFAULT_DISPLAY, ...s.display });

    return { tree: sampleId ? undefined : tree, depth, taper, model: modelUrl ? { url: modelUrl } : sampleId ? { preset: sampleId } : null };
  }

  /** A message that the address asked for something that cannot be done (while restoring: named with the rest). */
  pageAsked(e: unknown): void {
    if (this.restoring) this.problems.push({ field: "", value: "", reason: messageOf(e), using: () => null });
    else this.warn(`Address: ${messageOf(e)}`);
  }

  /** Restoring is over: the fields that could not be used are named in one message, and changes are written again (and the state now is). */
  restored(): void {
    this.restoring = false;
    const st = this.state();
    if (this.problems.length) {
      const parts = this.problems.map((p) => {
        const using = st ? p.using(st) : null;
        return (p.field ? `${p.field} '${p.value}': ${p.reason}` : p.reason) + (using !== null && using !== undefined ? ` (using ${String(using)})` : "");
      });
      this.problems = [];
      this.warn(`Address: ${parts.join("; ")}`);
    }
    this.writeSoon();
  }

  /** The hash for the state now ("" before there is a tree). */
  hash(): string {
    const s = this.state();
    if (!s) return "";
    return formatHash({
      tree: s.tree, model: s.model, depth: s.depth, taper: s.taper, method: s.methods.join(","), mode: s.mode, wind: s.wind,
      timeline: s.timeline ? formatTimeline(s.timeline) : undefined, primitives: s.primitives || undefined, forest: s.forest || undefined, forestLod: s.forestLod, display: s.display, params: s.params, physics: s.physics,
    });
  }

  private writeSoon(): void {
    if (this.restoring || typeof window === "undefined" || !this.state()) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      window.history.replaceState(null, "", window.location.pathname + this.hash());
    }, WRITE_DELAY_MS);
  }

  dispose(): void {
    this.observer.remove();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Why a field's value was refused, without the field's name or value the message repeats ("wind.speed must be ...; got 900"). */
function reasonOf(field: string, e: unknown): string {
  let m = messageOf(e).replace(/;? got [^;]*$/, "");
  const unknown = /^Unknown method "[^"]*"; (the methods are: .*)$/.exec(m);
  if (unknown) return `not a method; ${unknown[1]}`;
  const key = field.split(".").pop()!;
  // "wind.speed must be ..." → "must be ..." (a message that goes on otherwise keeps its words: "timeline key 2: ...").
  for (const prefix of [`wind.${field} `, `${field} `, `${key} `]) if (m.startsWith(prefix + "must ")) m = m.slice(prefix.length);
  return m;
}
