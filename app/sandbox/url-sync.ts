/**
 * The page address keeps the state a person set up (url-state.ts has the format): read once at
 * start, every field checked on its own (a bad field gets a message naming it, the others still
 * apply), and written back shortly after each change it keeps. The query is dropped: a ?model=
 * would load that model again on reload; the hash says what is on show.
 */
import type { Params } from "../math/params";
import type { WindSettings } from "../wind/wind-field";
import { formatTimeline, parseTimeline, validateTimeline, type WindTimeline } from "../wind/conditions";
import { ADDRESS_CHANGES, messageOf, type SandboxChange } from "./events";
import { RENDER_MODES, type RenderMode } from "./tree-view";
import { DEFAULT_DISPLAY, formatHash, parseHash, type DisplaySettings } from "./url-state";

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

export class UrlSync {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private restoring = false;
  private readonly observer: { remove(): void };

  /** `state()`: what is on show now, or null before there is a tree; `warn()`: shows a message. */
  constructor(changes: { add(f: (what: SandboxChange) => void): { remove(): void } | null }, private readonly state: () => AddressState | null, private readonly warn: (message: string) => void) {
    const o = changes.add((what) => {
      if (ADDRESS_CHANGES.has(what)) this.writeSoon();
    });
    this.observer = o ?? { remove: () => undefined };
  }

  /**
   * Applies the address's settings (everything but the tree) and returns the tree it names. `isSample`
   * tells a sample model's id from a grammar's name.
   */
  restore(hash: string, search: string, target: AddressTarget, isSample: (name: string) => boolean): AddressTree {
    this.restoring = true;
    const s = parseHash(hash);
    const modelUrl = new URLSearchParams(search).get("model") ?? s.model;
    const sampleId = s.tree !== undefined && isSample(s.tree) ? s.tree : undefined;
    const attempt = (f: () => void) => {
      try {
        f();
      } catch (e) {
        this.pageAsked(e);
      }
    };
    if (Object.keys(s.wind).length) attempt(() => target.setWind(s.wind as Record<string, string>));
    if (Object.keys(s.physics).length) attempt(() => target.setPhysics(s.physics));
    for (const [id, patch] of Object.entries(s.params)) attempt(() => target.restoreParams(id, patch));
    if (s.method) attempt(() => target.setMethods(s.method!.split(",")));
    if (s.mode && (RENDER_MODES as readonly string[]).includes(s.mode)) target.setRenderMode(s.mode as RenderMode);
    if (s.timeline !== undefined) {
      attempt(() => {
        const tl = parseTimeline(s.timeline!);
        validateTimeline(tl);
        target.setTimeline(tl);
      });
    }
    target.setDisplay({ ...DEFAULT_DISPLAY, ...s.display });
    return { tree: sampleId ? undefined : s.tree, depth: s.depth, taper: s.taper, model: modelUrl ? { url: modelUrl } : sampleId ? { preset: sampleId } : null };
  }

  /** A message that the address asked for something that cannot be done. */
  pageAsked(e: unknown): void {
    this.warn(`The page address asked for something the sandbox cannot do: ${messageOf(e)}`);
  }

  /** Restoring is over: changes are written again (and the state now is). */
  restored(): void {
    this.restoring = false;
    this.writeSoon();
  }

  /** The hash for the state now ("" before there is a tree). */
  hash(): string {
    const s = this.state();
    if (!s) return "";
    return formatHash({
      tree: s.tree, model: s.model, depth: s.depth, taper: s.taper, method: s.methods.join(","), mode: s.mode, wind: s.wind,
      timeline: s.timeline ? formatTimeline(s.timeline) : undefined, display: s.display, params: s.params, physics: s.physics,
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
