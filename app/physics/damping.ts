/**
 * The damping slider, the same in every method: its value d (0 to 1) is the damping ratio ζ of the
 * tree's first mode, on a log scale, ζ = 0.01 · 100^d: 0 → 0.01 (rings for long), 0.3 → 0.04,
 * 0.5 → 0.1, 1 → 1 (critical). Each method turns that ζ into its own damping terms so that the
 * logarithmic decrement of its free motion, δ = 2π ζ / √(1 − ζ²), measures it. Plain TypeScript.
 */
const { min, max } = Math;

/** ζ of the first mode for a damping slider value d in [0, 1] (clamped): 0.01 · 100^d. */
export function dampingRatio(damping: number): number {
  return 0.01 * 100 ** min(1, max(0, damping));
}

/** The slider value that gives damping ratio ζ (the inverse of dampingRatio, clamped to [0, 1]). */
export function dampingSliderFor(zeta: number): number {
  return min(1, max(0, Math.log10(zeta / 0.01) / 2));
}
