/**
 * The forest (Zioma 2007 at scale): on or off, how many trees over how large a square, which tree
 * variants (the tree on show and the shipped grammars), the seed, and the levels of detail's
 * distance bands; a line says how many trees are drawn at each level and what moves them.
 */
import type { ForestSpec, SandboxPanelApi } from "../../sandbox/api";
import { numberParam } from "../../math/params";
import { TREE_PRESETS } from "../../lsystem/presets";
import { MUTED, type Scope } from "../widgets";
import type { PanelSection } from "./section";

const TREES = numberParam("Trees", 10, 10000, 10, 400, "", "Trees around the tree on show (10 000 at most)");
const AREA = numberParam("Area", 20, 400, 5, 120, "m", "Side of the square the trees stand in, centred on the tree on show");
const SEED = numberParam("Forest seed", 0, 999, 1, 1, "", "Seed of where the trees stand and of each tree's phase, stiffness and size");
const NEAR = numberParam("Full detail to", 5, 300, 1, 35, "m", "Trees closer than this: every branch moves and is drawn");
const FAR = numberParam("Trunk and first level to", 10, 400, 1, 90, "m", "Trees farther: the trunk alone moves, the thin branches are not drawn");
const BAND = numberParam("Blend over", 0, 50, 1, 12, "m", "Width of the blend before each boundary, so nothing pops");

export function forestSection(sb: SandboxPanelApi, scope: Scope): PanelSection {
  const next: ForestSpec = { trees: TREES.default, area: AREA.default, variants: ["current"], seed: SEED.default };
  const on = () => sb.forest() !== null;
  /** A change applies at once to the forest on show (whatever made it: the panel, the address, a script), and is remembered for the next one. */
  const change = (patch: Partial<ForestSpec>) => {
    const f = sb.forest();
    if (f) Object.assign(next, { trees: f.trees, area: f.area, variants: [...f.variants], seed: f.seed });
    Object.assign(next, patch);
    if (f) sb.forest({ ...next });
  };
  scope.section("Forest");
  scope.toggle("forest.on", "Forest around the tree", on, (v) => sb.forest(v ? { ...next } : null));
  scope.slider("forest.trees", TREES, () => sb.forest()?.trees ?? next.trees, (v) => change({ trees: v }));
  scope.slider("forest.area", AREA, () => sb.forest()?.area ?? next.area, (v) => change({ area: v }));
  scope.slider("forest.seed", SEED, () => sb.forest()?.seed ?? next.seed, (v) => change({ seed: v }));
  for (const name of ["current", ...TREE_PRESETS.map((p) => p.name)]) {
    const label = name === "current" ? "Variant: the tree on show" : `Variant: ${name}`;
    scope.toggle(`forest.variant.${name}`, label, () => (sb.forest()?.variants ?? next.variants).includes(name), (v) => {
      const now = sb.forest()?.variants ?? next.variants;
      const variants = v ? [...now, name] : now.filter((n) => n !== name);
      if (variants.length === 0) throw new RangeError("forest.variants: keep at least one variant");
      change({ variants });
    });
  }
  scope.slider("forest.near", NEAR, () => sb.forestLod().near, (v) => sb.forestLod({ near: v }));
  scope.slider("forest.far", FAR, () => sb.forestLod().far, (v) => sb.forestLod({ far: v }));
  scope.slider("forest.band", BAND, () => sb.forestLod().band, (v) => sb.forestLod({ band: v }));
  const status = scope.note("", 11, MUTED);
  scope.named.set("forest.status", status);
  const describe = () => {
    const f = sb.forest();
    if (!f) return "One tree. Turn the forest on to scatter trees around it, each moved by the wind where it stands.";
    const [n0, n1, n2] = f.levels;
    const v = f.vertices.map((l, i) => `${f.variants[i]} ${l.map((x) => (x >= 1000 ? `${(x / 1000).toFixed(1)}k` : String(x))).join("/")}`).join(", ");
    const d = f.drawn, m = (x: number) => `${(x / 1e6).toFixed(1)} million`;
    const budget = d.vertices > d.budget
      ? ` Past this renderer's ${m(d.budget)} vertices even with every tree at its coarsest: fewer trees, or a smaller tree, draw faster.`
      : d.lodScale < 1 ? ` The bands are at ${Math.round(d.lodScale * 100)} % to keep within this renderer's ${m(d.budget)} vertices.` : "";
    return `${f.trees} trees: ${n0} in full, ${n1} trunk and first level, ${n2} trunk only, ${f.chunks[0]} of ${f.chunks[1]} chunks on screen, ${m(d.vertices)} vertices a frame (per tree by level: ${v}).${budget} ${f.note}`;
  };
  let frames = 0;
  return {
    on: ["forest", "tree", "views"],
    refresh: () => {
      scope.refresh();
      status.text = describe();
    },
    // The levels follow the camera: the line is read again twice a second (no work in between).
    frame: () => {
      if (++frames % 30 !== 0) return;
      const text = describe();
      if (status.text !== text) status.text = text;
    },
  };
}
