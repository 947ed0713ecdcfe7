/**
 * How the tree is drawn: render mode (shaded, skeleton, ...) and what is drawn besides it (bark
 * texture, background, shadows, the skeleton overlay by hierarchy level; Barron §5.3, §6.3).
 */
import type { DisplaySettings, RenderMode, SandboxPanelApi } from "../../sandbox/api";
import type { Scope } from "../widgets";
import type { PanelSection } from "./section";

const DISPLAY_TOGGLES: readonly { key: keyof DisplaySettings; label: string }[] = [
  { key: "barkTexture", label: "Bark texture" },
  { key: "background", label: "Background" },
  { key: "shadows", label: "Shadows" },
  { key: "hierarchy", label: "Skeleton overlay (by level)" },
];

export function viewSection(sb: SandboxPanelApi, scope: Scope): PanelSection {
  scope.section("View");
  scope.choice("mode", () => sb.renderModes().map((m) => ({ value: m.id, label: m.label })), () => sb.renderMode(), (m) => sb.renderMode(m as RenderMode));
  for (const t of DISPLAY_TOGGLES) scope.toggle(`display.${t.key}`, t.label, () => sb.display()[t.key], (on) => sb.display({ [t.key]: on }));
  return { on: ["display"], refresh: () => scope.refresh() };
}
