/**
 * How the tree is drawn: render mode (shaded, skeleton, ...) and what is drawn besides it (bark
 * texture, background, shadows, the skeleton overlay by hierarchy level; Barron §5.3, §6.3).
 */
import type { DisplaySettings, RenderMode, SandboxPanelApi } from "../../sandbox/api";
import type { QualityLevel } from "../../sandbox/render-quality";
import { MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";

const DISPLAY_TOGGLES: readonly { key: keyof DisplaySettings; label: string }[] = [
  { key: "barkTexture", label: "Bark texture" },
  { key: "background", label: "Background" },
  { key: "shadows", label: "Shadows" },
  { key: "hierarchy", label: "Skeleton overlay (by level)" },
];

/**
 * `setQuality`: opens the page again at another render quality (antialiasing is fixed when the
 * page opens); the quality row is shown when given.
 */
export function viewSection(sb: SandboxPanelApi, scope: Scope, setQuality?: (level: QualityLevel | "auto") => void): PanelSection {
  scope.section("View");
  scope.choice("mode", () => sb.renderModes().map((m) => ({ value: m.id, label: m.label })), () => sb.renderMode(), (m) => sb.renderMode(m as RenderMode));
  for (const t of DISPLAY_TOGGLES) scope.toggle(`display.${t.key}`, t.label, () => sb.display()[t.key], (on) => sb.display({ [t.key]: on }));
  if (setQuality) {
    const q = sb.renderQuality();
    const auto = q.software ? "light" : "full";
    scope.choice("display.quality", () => [
      { value: "auto", label: `Auto (${auto})` },
      { value: "full", label: "Full" },
      { value: "light", label: "Light" },
    ], () => (q.chosenBy === "auto" ? "auto" : q.level), (level) => setQuality(level as QualityLevel | "auto"), true);
    const why = q.chosenBy === "auto" ? (q.software ? `chosen for a software renderer${q.rendererName ? ` (${q.rendererName})` : ""}` : "chosen for a GPU") : "as the address asks";
    scope.note(`Quality ${q.level} (${q.antialias ? "antialiased" : "no antialiasing"}, ${q.shadowMapSize}² shadows), ${why}. A change opens the page again, the tree and wind kept.`, 11, MUTED);
  }
  return { on: ["display"], refresh: () => scope.refresh() };
}
