/**
 * The host's typed events: one Observable of changes, saying what changed, and one of errors a
 * person should see. Parts announce what they changed; listeners (the panel, the URL, the view
 * labels) refresh only what depends on it. Errors reach people at one boundary: the API wrapper
 * (sandbox-api.ts), the run loop (a method that fails) and the address restore (url-sync.ts)
 * call `error()`; parts only throw.
 */
import { Observable } from "@babylonjs/core/Misc/observable";

/**
 * What changed:
 * - tree: the tree on show (grammar, depth, taper, model);
 * - views: the methods on show (a switch restarts them from rest);
 * - focus: the view the panel edits;
 * - wind: the wind settings, set by a person or a script;
 * - windPlayed: the wind moved by a timeline playing (a few times a second);
 * - timeline: the wind timeline itself;
 * - params: a method's parameters;
 * - display: render mode, bark texture, background, shadows, skeleton overlay;
 * - progress: a model loading (its progress bar);
 * - selection: the selected branch or its overrides;
 * - actions: a method's command ran;
 * - paused: the clock paused or resumed;
 * - plot: the plotted tip;
 * - physics: the physical tree's material;
 * - reference: a reference computation finished (or its result no longer holds);
 * - primitives: the wind primitives placed in the scene (blast, vortex, fan).
 */
export type SandboxChange = "tree" | "views" | "focus" | "wind" | "windPlayed" | "timeline" | "params" | "display" | "progress" | "selection" | "actions" | "paused" | "plot" | "physics" | "reference" | "calibration" | "primitives" | "forest";

/** The changes the page address keeps. */
export const ADDRESS_CHANGES: ReadonlySet<SandboxChange> = new Set<SandboxChange>(["tree", "views", "wind", "timeline", "params", "display", "physics", "primitives", "forest"]);

/** How many errors `recent` keeps. */
const ERROR_LOG = 20;

export class SandboxEvents {
  readonly changes = new Observable<SandboxChange>();
  readonly errors = new Observable<string>();
  private readonly log: string[] = [];

  changed(what: SandboxChange): void {
    this.changes.notifyObservers(what);
  }

  /** Shows an error to people (the panel's error line) and keeps it in `recent` (`stats().errors`). */
  error(message: string): void {
    this.log.push(message);
    if (this.log.length > ERROR_LOG) this.log.shift();
    this.errors.notifyObservers(message);
  }

  /** The last errors shown, oldest first. */
  get recent(): string[] {
    return [...this.log];
  }

  dispose(): void {
    this.changes.clear();
    this.errors.clear();
  }
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
