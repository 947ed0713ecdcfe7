/**
 * Van Haevre 2006 §4.3: "For each tree skeleton, a few of these recordings can be made". Every
 * tree's recordings, kept for the page's life outside the animator, so switching methods, moving
 * the taper (which changes radii and masses, not the joints) or switching back finds them again.
 * A tree is known by its joints: mass count and rest positions.
 */
import type { Recording } from "./capture";

export interface TreeRecordings {
  readonly list: Recording[];
  /** Id of the recording in use. */
  selected: number;
  /** Id the next recording gets. */
  next: number;
}

const store = new Map<string, TreeRecordings>();

/** A key for a tree's joints: the count and a hash of the rest positions (rounded to 0.1 mm). */
export function jointsKey(sys: { count: number; rest: ArrayLike<number> }): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < sys.rest.length; i++) {
    h ^= Math.round(sys.rest[i] * 1e4);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${sys.count}:${h.toString(16)}`;
}

/** The recordings of the tree with these joints (an empty list the first time). */
export function recordingsOf(sys: { count: number; rest: ArrayLike<number> }): TreeRecordings {
  const key = jointsKey(sys);
  let r = store.get(key);
  if (!r) {
    r = { list: [], selected: -1, next: 1 };
    store.set(key, r);
  }
  return r;
}
