/**
 * How deep a grammar is derived: the number of times its productions are applied (Prusinkiewicz
 * and Lindenmayer's derivation length). The module cap in derive.ts stops explosions inside the
 * range a script may ask for; the panel's slider stops where a person still gets an answer at once.
 */
import { numberParam } from "../math/params";

/** The derivation depth a person or script may ask for. */
export const DEPTH_RANGE = { min: 0, max: 40 } as const;
/** The slider's range: deeper than this is for scripts that know what they ask for. */
export const DEPTH_SLIDER_MAX = 12;

export const DEPTH_PARAM = numberParam("Derivation depth", DEPTH_RANGE.min, DEPTH_SLIDER_MAX, 1, 5, "",
  "How many times the grammar's rules are applied: each step grows the tree one more generation of branches. The tree is derived again live while the slider moves; past the module cap a message says how deep it can go");
