/** Limits both extraction methods (separate parts, one welded mesh) share: one name per meaning. */

/** Centre-line nodes per branch at most: a part's slices along its axis, or a welded branch's level-set slices grouped to this many. */
export const MAX_NODES = 40;
/** A branch's radius at least (metres), for a node whose vertices say less (or nothing: a fork point). */
export const MIN_RADIUS = 1e-4;
