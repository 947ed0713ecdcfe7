/**
 * `rest`: the tree unanimated. The baseline that comparisons and benchmarks measure against
 * (ARCHITECTURE.md, "The Animator contract").
 */
import type { Animator, AnimatorContext, AnimatorProvider, AnimatorStats } from "../animator";
import { numberParam, type ParamDecls, type ValuesOf } from "../../math/params";
import { tipNode } from "../../tree/skeleton";

export const restParams = {
  damping: numberParam("Damping", 0, 1, 0.01, 0.5, "", "Declared by every method; the tree at rest has nothing to damp"),
} satisfies ParamDecls;

export type RestParams = ValuesOf<typeof restParams>;

export const restProvider: AnimatorProvider<RestParams> = {
  id: "rest",
  label: "Rest (no animation)",
  source: "Baseline: the tree as built, no wind response",
  params: restParams,
  create(ctx: AnimatorContext): Animator<RestParams> {
    const s = ctx.tree.skeleton;
    const tips = new Float32Array(3 * s.branchCount);
    for (let b = 0; b < s.branchCount; b++) {
      const k = tipNode(s, b);
      tips[3 * b] = s.nodePosition[3 * k];
      tips[3 * b + 1] = s.nodePosition[3 * k + 1];
      tips[3 * b + 2] = s.nodePosition[3 * k + 2];
    }
    const stats: AnimatorStats = { updateMs: 0, counts: { branches: s.branchCount }, nonFinite: false };
    return {
      update() {},
      setParams() {},
      probe: () => tips,
      stats: () => stats,
      dispose() {},
    };
  },
};
