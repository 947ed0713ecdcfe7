/**
 * Method and views: the focused view's method, and 2 to 4 methods side by side (one button per
 * view, the focused one highlighted: the method row, parameters, branch and commands are its;
 * "Add a view", "Remove view N").
 */
import type { SandboxPanelApi } from "../../sandbox/api";
import { MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";

export function methodSection(sb: SandboxPanelApi, scope: Scope): PanelSection {
  scope.section("Method");
  scope.choice("method", () => sb.methods().map((p) => ({ value: p.id, label: p.label })), () => sb.focusedMethod().id, (id) => sb.setFocusedMethod(id));
  const views = scope.group("compare-views");
  const build = () => {
    const ids = sb.views().map((v) => v.id), focus = sb.focusedView();
    views.rebuild(`${ids.join(",")}#${focus}`, (g) => {
      if (ids.length > 1) {
        g.text(`Side by side: ${ids.length} views (click one to edit it)`, 12, MUTED, 22);
        const label = (id: string) => sb.methods().find((m) => m.id === id)?.label ?? id;
        g.choice("compare.view", () => ids.map((id, k) => ({ value: String(k), label: `View ${k + 1}: ${label(id)}` })), () => String(sb.focusedView()), (k) => sb.focusView(Number(k)));
      }
      if (ids.length < sb.maxViews) g.button("compare.add", ids.length === 1 ? "Compare: add a view side by side" : "Add a view", () => sb.addView());
      if (ids.length > 1) g.button("compare.remove", `Remove view ${focus + 1}`, () => sb.removeView(sb.focusedView()));
    });
  };
  build();
  return {
    on: ["views", "focus"],
    refresh() {
      build();
      scope.refresh();
    },
  };
}
