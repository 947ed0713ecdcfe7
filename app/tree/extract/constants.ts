/** Limits both extraction methods (separate parts, one welded mesh) share: one name per meaning. */

/** Centre-line nodes per branch at most: a part's slices along its axis, or a welded branch's level-set slices grouped to this many. */
export const MAX_NODES = 40;
/** A branch's radius at least (metres), for a node whose vertices say less (or nothing: a fork point). */
export const MIN_RADIUS = 1e-4;

/** A node's radius as the skeleton holds it: at least MIN_RADIUS, and MIN_RADIUS for one not measured (not finite). */
export function nodeRadius(r: number): number {
  return Number.isFinite(r) && r > MIN_RADIUS ? r : MIN_RADIUS;
}
