/**
 * The selected branch (Habel 2009 Fig. 11: "every single parameter can be set or overridden in
 * real time on a per-branch basis"): a click (not a drag) on the tree selects the branch under the
 * mouse, for methods that have per-branch controls; its properties and its own controls show here.
 */
import type { Observer } from "@babylonjs/core/Misc/observable";
import type { PointerInfo } from "@babylonjs/core/Events/pointerEvents";
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents";
import type { TextBlock } from "@babylonjs/gui/2D/controls/textBlock";
import type { SandboxPanelApi } from "../../sandbox/api";
import { numberParam } from "../../math/params";
import { ACCENT, MUTED, TEXT, type Scope } from "../widgets";
import type { PanelSection } from "./section";

/** `panelCovers(x)`: whether page x is on the panel (a click there is the panel's). */
export function branchSection(sb: SandboxPanelApi, scope: Scope, panelCovers: (x: number) => boolean): PanelSection {
  const group = scope.group("branch-section");
  let info: TextBlock | null = null;
  const showInfo = () => {
    const b = sb.selectedBranch();
    if (!info || b < 0) return;
    const text = Object.entries(sb.branch() ?? {})
      .filter(([k]) => k !== "branch")
      .map(([k, v]) => `${k}: ${typeof v === "number" ? v.toLocaleString("en", { maximumFractionDigits: 3 }) : String(v)}`)
      .join("   ");
    if (info.text !== text) info.text = text;
  };
  const build = () => {
    const controls = sb.branchControls(), b = sb.selectedBranch();
    const rebuilt = group.rebuild(`${sb.focusedMethod().id}#${sb.focusedView()}#${b}#${controls !== null}`, (g) => {
      info = null;
      if (!controls) return;
      if (b < 0) {
        g.text("Click a branch to select it.", 12, MUTED, 22);
        return;
      }
      g.text(`SELECTED BRANCH ${b}`, 13, ACCENT, 26).fontWeight = "bold";
      info = g.note("", 12, TEXT);
      for (const [key, c] of Object.entries(controls)) {
        g.control(`branch.${key}`, numberParam(c.label, c.min, c.max, c.step, c.read(b), c.unit, ""), () => c.read(b), (v: number) => sb.branch(b, { [key]: v }));
      }
      const reset = Object.fromEntries(Object.keys(controls).map((k) => [k, k === "stiffness" ? 1 : null]));
      g.choice("branch.actions", () => [{ value: "reset", label: "Reset this branch" }, { value: "clear", label: "Clear selection" }], () => "", (v) => (v === "reset" ? sb.branch(b, reset) : sb.branch(-1)));
    });
    if (!rebuilt) group.refresh();
    showInfo();
  };
  build();
  const tap: Observer<PointerInfo> | null = sb.scene.onPointerObservable.add((pi) => {
    if (pi.type !== PointerEventTypes.POINTERTAP || !sb.branchControls()) return;
    const x = sb.scene.pointerX, y = sb.scene.pointerY;
    if (panelCovers(x)) return;
    const b = sb.branchAt(x, y);
    if (b < 0) return;
    try {
      sb.branch(b);
    } catch {
      // Shown in the panel by the API.
    }
  });
  return {
    on: ["views", "focus", "selection", "tree", "params", "wind"],
    refresh: build,
    dispose: () => tap?.remove(),
  };
}
