/** The shipped grammars (assets/trees/*.lsys), imported as text. */
import conifer from "../../assets/trees/conifer.lsys";
import demo from "../../assets/trees/demo.lsys";
import habel from "../../assets/trees/habel.lsys";
import sympodial from "../../assets/trees/sympodial.lsys";
import barron from "../../assets/trees/barron.lsys";

export interface TreePreset {
  /** Stable id, used by loadTree({ preset }) and in URLs. */
  readonly name: string;
  readonly label: string;
  /** The grammar's text. */
  readonly text: string;
  /** Derivation steps the grammar is designed for (its #depth). */
  readonly defaultDepth: number;
}

export const TREE_PRESETS: readonly TreePreset[] = [
  { name: "demo", label: "Demo tree (small)", text: demo, defaultDepth: depthOf(demo) },
  { name: "habel", label: "Broadleaf (Habel 2009 scale)", text: habel, defaultDepth: depthOf(habel) },
  { name: "conifer", label: "Conifer (monopodial)", text: conifer, defaultDepth: depthOf(conifer) },
  { name: "sympodial", label: "Sympodial tree (ABOP fig. 2.7)", text: sympodial, defaultDepth: depthOf(sympodial) },
  { name: "barron", label: "Binary tree, 255 branches (Barron §7.1)", text: barron, defaultDepth: depthOf(barron) },
];

/** The `#depth` directive of a grammar text (5 when absent, as parseGrammar). */
function depthOf(text: string): number {
  const m = /^#depth\s+(\d+)/m.exec(text);
  return m ? Number(m[1]) : 5;
}
