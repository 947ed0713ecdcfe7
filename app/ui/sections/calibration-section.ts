/**
 * Calibration: every method beside the reference for the tree on show (sandbox.calibration()),
 * started with a button, with a progress bar; a table in a few lines (per method: its static
 * deflection as a share of the reference's at 5, 10 and 20 m/s, its trunk frequency and measured
 * damping beside the reference's first mode and the slider's ζ) and, on request, the plots.
 */
import type { CalibrationResult, SandboxPanelApi } from "../../sandbox/api";
import { CalibrationPlots } from "../calibration-plots";
import { ACCENT, MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";

export function calibrationSection(sb: SandboxPanelApi, scope: Scope): PanelSection {
  scope.section("Calibration");
  scope.note("Each method in steady wind and after it stops, beside the reference solver (a minute or two).", 11, MUTED);
  scope.button("calibration.run", "Calibrate every method", () => sb.calibration());
  const progress = scope.progressBar("calibration.progress");
  const table = scope.note("", 11, ACCENT);
  scope.named.set("calibration.table", table);
  const plots = typeof document !== "undefined" ? CalibrationPlots.create() : null;
  let plotsOn = true;
  const toggle = scope.toggle("calibration.plots", "Calibration plots", () => plotsOn, (on) => {
    plotsOn = on;
    show();
  });
  const show = () => {
    const r = sb.latestCalibration();
    const text = r ? calibrationText(r) : "";
    if (table.text !== text) table.text = text;
    table.isVisible = text !== "";
    plots?.show(r && plotsOn ? r : null);
    toggle.refresh();
  };
  show();
  return {
    on: ["calibration", "tree", "physics"],
    refresh: show,
    frame: () => progress.set(sb.calibrationProgress()),
    dispose: () => plots?.dispose(),
  };
}

/** Per method: static deflection as a share of the reference's (mean over levels) at each speed up to 20 m/s, frequency, ζ. */
export function calibrationText(r: CalibrationResult): string {
  const speeds = r.speeds.filter((v) => v <= 20);
  const lines = [`static ×reference at ${speeds.join(", ")} m/s; trunk Hz (reference ${r.reference.firstHz.toFixed(2)}); ζ measured / set`];
  for (const m of r.methods) {
    const shares = m.static.filter((s) => s.speed <= 20).map((s) => {
      const ok = s.ratio.filter((q) => Number.isFinite(q));
      return `×${(ok.reduce((a, q) => a + q, 0) / Math.max(1, ok.length)).toFixed(2)}`;
    });
    const zeta = m.zeta === null ? "–" : m.zeta.toFixed(3);
    lines.push(`${m.id}: ${shares.join(" ")}; ${m.hz.toFixed(2)} Hz${m.from === "sway" ? " (sway)" : ""}; ζ ${zeta} / ${m.zetaSet === null ? "–" : m.zetaSet.toFixed(3)}`);
  }
  lines.push(`(${(r.ms / 1000).toFixed(0)} s)`);
  return lines.join("\n");
}
