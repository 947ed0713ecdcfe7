/**
 * The focused method's parameters, made from its declarations (damping first: the control every
 * method declares), the paper it implements, the progress of long work it runs (a recording) and
 * its commands.
 */
import type { SandboxPanelApi } from "../../sandbox/api";
import { highlight, MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";

export function paramsSection(sb: SandboxPanelApi, scope: Scope): PanelSection {
  scope.section("Method parameters");
  const params = scope.group("method-params");
  const progress = scope.progressBar("progress");
  const actions = scope.group("method-actions");
  const build = () => {
    const p = sb.focusedMethod();
    const rebuilt = params.rebuild(p.id, (g) => {
      const keys = ["damping", ...Object.keys(p.params).filter((k) => k !== "damping")];
      for (const key of keys) {
        const name = key === "damping" ? "damping" : `${p.id}.${key}`;
        g.control(name, p.params[key], () => sb.params(p.id)[key], (v: number | string | boolean) => sb.params(p.id, { [key]: v }));
      }
      g.note(p.source, 11, MUTED);
    });
    if (!rebuilt) params.refresh();
  };
  /** The command buttons, rebuilt when the method's list changes (a recording made, one in use). */
  const buildActions = () => {
    const list = sb.actions();
    actions.rebuild(`${sb.focusedMethod().id}|${list.map((a) => `${a.id}:${a.label}:${a.enabled}:${a.active}`).join("|")}`, (g) => {
      for (const a of list) {
        const b = g.button(`action.${a.id}`, a.label, () => sb.action(a.id));
        b.isEnabled = a.enabled;
        b.alpha = a.enabled ? 1 : 0.5;
        if (a.active) highlight(b, true);
      }
    });
  };
  build();
  buildActions();
  return {
    on: ["views", "focus", "params"],
    refresh: build,
    // A method's commands change as its work goes on (a recording ends): checked every frame.
    frame() {
      buildActions();
      progress.set(sb.actionProgress());
    },
  };
}

