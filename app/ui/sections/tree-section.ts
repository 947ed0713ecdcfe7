/**
 * The tree: the shipped grammars and sample models, the grammar on show, a button that loads a
 * file (grammar or model) and the load's progress bar; for a model, what was found (branches,
 * levels, leaves, scale, up) and the corrections a person can make (up axis, each material's role,
 * which tree of a scene); derivation depth (derived again live while dragging) and taper, which
 * shape trees grown from grammars and are greyed out for a model.
 */
import type { Control } from "@babylonjs/gui/2D/controls/control";
import type { ModelInfo, SandboxPanelApi } from "../../sandbox/api";
import { DEPTH_PARAM } from "../../lsystem/depth";
import { TREE_PRESETS } from "../../lsystem/presets";
import { MODEL_SAMPLES } from "../../import/samples";
import { PART_ROLES, type PartRole } from "../../import/model";
import { TAPER_PARAM } from "../../tree/taper";
import { UP_AXES, type UpAxis } from "../../tree/normalise";
import { ACCENT, MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";

export function treeSection(sb: SandboxPanelApi, scope: Scope, openFile?: () => void): PanelSection {
  scope.section("Tree");
  scope.choice("tree", () => [...TREE_PRESETS.map((p) => ({ value: p.name, label: p.label })), ...MODEL_SAMPLES.map((m) => ({ value: m.id, label: m.label }))], () => sb.tree().name, (name) => sb.loadTree({ preset: name }));
  const grammar = scope.text("", 12, MUTED, 20);
  scope.named.set("tree.grammar", grammar);
  if (openFile) {
    scope.button("tree.loadFile", "Load a file (grammar or model)…", () => openFile());
    scope.text("or drop a .lsys grammar, or a .glb / .gltf / .obj\nwith its .bin, .mtl and textures, on the view", 11, MUTED, 30);
  }
  const loadBar = scope.progressBar("tree.progress");
  const model = scope.group("model-section");
  // Depth re-derives live while dragging (once per frame at most); a depth past the module cap
  // shows the cap's message and the tree stays.
  const depth = scope.control("depth", DEPTH_PARAM, () => sb.tree().depth, (v: number) => sb.loadTree({ depth: v }), { apply: "live" });
  const taper = scope.control("taper", TAPER_PARAM, () => sb.tree().taper, (v: number) => sb.loadTree({ taper: v }), { apply: "release" });
  const grammarOnly: Control[] = [depth.control, taper.control];

  const buildModel = () => {
    const m = sb.model(), t = sb.tree();
    model.rebuild(m ? JSON.stringify(m) + t.name : "", (g) => {
      if (m) modelRows(sb, g, m, t.isModel && !m.error ? t.summary : null);
    });
    for (const c of grammarOnly) {
      c.isEnabled = !t.isModel;
      c.alpha = c.isEnabled ? 1 : 0.4;
    }
  };
  const refresh = () => {
    const t = sb.tree(), custom = !t.shipped;
    grammar.text = `Grammar: ${t.fileName}${custom ? "" : " (shipped)"}`;
    grammar.color = custom ? ACCENT : MUTED;
    buildModel();
    scope.refresh();
  };
  refresh();
  return {
    on: ["tree", "progress"],
    refresh,
    frame: () => loadBar.set(progressText(sb.loadProgress())),
  };
}

function progressText(p: { text: string; fraction: number } | null): { text: string; fraction: number } | null {
  return p ? { text: `Loading model: ${p.text}`, fraction: p.fraction } : null;
}

/** What was found in the model, and the corrections: up axis, each material's role, the tree of a scene. */
function modelRows(sb: SandboxPanelApi, g: Scope, m: ModelInfo, t: { branches: number; levels: number; vertices: number } | null): void {
  const lines = [
    m.error ? `${m.file}: not shown (correct it below)` : `${m.file}${m.trees.length > 1 ? ` (${m.tree})` : ""}`,
    t ? `${t.branches} branches in ${t.levels} levels, ${m.leafPieces} leaves` : "",
    t ? `${t.vertices.toLocaleString("en")} vertices, ${m.height.toFixed(1)} m tall, ${m.welded ? "welded wood" : `${m.pieces} pieces of wood`}` : "",
    t ? `scale ${m.scale === 1 ? "1 (metres)" : `×${m.scale.toPrecision(3)}`}, up ${m.up} (${m.upDetected ? "detected" : "set"})` : "",
    ...m.notes.map((n) => `· ${n}`),
  ].filter((l) => l !== "");
  const summary = g.note(lines.join("\n"), 12, m.error ? "#ff8a78" : ACCENT);
  summary.resizeToFit = true;
  g.named.set("model.summary", summary);
  g.text("Up axis", 12, MUTED, 20);
  g.choice("model.up", () => [{ value: "auto", label: "auto" }, ...UP_AXES.map((a) => ({ value: a, label: a }))], () => (m.upDetected ? "auto" : m.up ?? "auto"), (v) => sb.loadTree({ up: v as UpAxis | "auto" }), true);
  g.text("Wood and leaves (click to correct)", 12, MUTED, 20);
  m.roles.forEach((r, k) => {
    g.text(`${r.material || "(no material)"}: ${r.reason}${r.corrected ? " (corrected)" : ""}`, 11, MUTED, 16);
    g.choice(`model.role.${k}`, () => PART_ROLES.map((role) => ({ value: role, label: role })), () => r.role, (v) => sb.loadTree({ roles: { [r.material]: v as PartRole } }), true);
  });
  if (m.trees.length > 1) {
    g.text(`The file holds ${m.trees.length} trees: pick one`, 12, MUTED, 20);
    g.choice("model.tree", () => m.trees.map((n) => ({ value: n, label: n })), () => m.tree, (v) => sb.loadTree({ object: v }));
  }
}
