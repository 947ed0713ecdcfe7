/**
 * What a person tunes in the methods: each method's parameter values (validated against its
 * declaration, kept across switches and in the page address), the focused method's commands (Van
 * Haevre's "record") and its per-branch controls (Habel 2009 Fig. 11: a selected branch's own
 * stiffness and damping).
 */
import type { AnimatorRegistry, BranchControl, BranchEditor } from "../animators/animator";
import { defaultsOf, validatePatch, type Params } from "../math/params";
import type { SandboxChange } from "./events";
import type { ViewSet } from "./view-set";

/** What `actions()` reports of a command. */
export interface ActionInfo {
  id: string;
  label: string;
  help: string;
  enabled: boolean;
  active: boolean;
}

export class MethodControls {
  private readonly values = new Map<string, Params>();

  constructor(private readonly registry: AnimatorRegistry, private readonly views: ViewSet, private readonly changed: (what: SandboxChange) => void) {
    for (const p of registry.list()) this.values.set(p.id, defaultsOf(p.params));
  }

  /** A method's parameter values (a copy); throws on an unknown id, naming the methods. */
  get(id: string): Params {
    this.registry.get(id);
    return { ...this.values.get(id)! };
  }

  /**
   * Validates a patch against the method's declaration and applies it to every view showing the
   * method. A value the method refuses is not kept (in the URL, for the next start).
   */
  set(id: string, patch: Record<string, unknown>): void {
    const p = this.registry.get(id);
    const valid = validatePatch(id, p.params, patch);
    for (const v of this.views.list) {
      if (!v.animator || v.provider.id !== id) continue;
      try {
        v.animator.setParams(valid);
      } catch (e) {
        if (e instanceof Error) e.message = `${p.label} refused ${JSON.stringify(valid)}: ${e.message}`;
        throw e;
      }
    }
    this.values.set(id, { ...this.values.get(id)!, ...valid });
    this.changed("params");
  }

  /** Values from the page address: validated, kept for when the method is shown. */
  restore(id: string, patch: Record<string, unknown>): void {
    const p = this.registry.get(id);
    this.values.set(id, { ...this.values.get(id)!, ...validatePatch(id, p.params, patch) });
  }

  // ---------------------------------------------------------------- commands

  /** The focused method's commands (Van Haevre's "record", the recordings to play). */
  actions(): ActionInfo[] {
    return (this.views.animator?.actions?.list() ?? []).map((a) => ({ id: a.id, label: a.label, help: a.help, enabled: a.enabled, active: a.active ?? false }));
  }

  /** Runs one of the focused method's commands; throws on an unknown or disabled one, saying why. */
  run(id: string): void {
    const actions = this.views.animator?.actions;
    if (!actions) throw new RangeError(`${this.views.provider.label} has no commands (mass-spring has: record, use a recording)`);
    actions.run(id);
    this.changed("actions");
  }

  /** Long work the focused method has under way (a recording), for a progress bar; null when none. */
  progress(): { text: string; fraction: number } | null {
    return this.views.animator?.actions?.progress() ?? null;
  }

  // ---------------------------------------------------------------- selected branch (Habel 2009 Fig. 11)

  private editor(): BranchEditor {
    const e = this.views.animator?.branches;
    if (!e) throw new Error(`${this.views.provider.label} has no per-branch controls; pick a method that has them (spectral-beam)`);
    return e;
  }

  /** The focused method's per-branch controls, or null when it has none. */
  branchControls(): Readonly<Record<string, BranchControl>> | null {
    return this.views.animator?.branches?.controls ?? null;
  }

  /** The selected branch, -1 for none (or when the method has no selection). */
  get selected(): number {
    return this.views.animator?.branches?.selected() ?? -1;
  }

  /** Selects (highlights) a branch; -1 clears. Throws when the method has no per-branch controls. */
  select(branch: number): void {
    const count = this.views.firstTree?.skeleton.branchCount ?? 0;
    if (!(Number.isInteger(branch) && branch >= -1 && branch < count)) throw new RangeError(`branch must be an integer from 0 to ${count - 1}, or -1 for none; got ${branch}`);
    this.editor().select(branch);
    this.changed("selection");
  }

  /** Overrides a branch's parameters (the method's branch controls; null resets one). */
  edit(branch: number, patch: Record<string, number | null>): void {
    const editor = this.editor();
    for (const key of Object.keys(patch)) {
      if (!(key in editor.controls)) throw new RangeError(`unknown branch parameter "${key}"; the parameters are: ${Object.keys(editor.controls).join(", ")}`);
    }
    editor.edit(branch, patch);
    this.changed("selection");
  }

  info(branch: number): Record<string, number | boolean | string> {
    return this.editor().info(branch);
  }
}
