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

/** The recordings of all trees together stay under this (a Habel-scale tree's 10 s is about 55 MB). */
export const RECORDINGS_BUDGET_MB = 400;

function bytesOf(r: Recording): number {
  return r.positions.byteLength + r.velocities.byteLength + r.forces.byteLength + r.rest.byteLength;
}

/**
 * Adds a recording to a tree's list, first dropping the oldest recordings (of every tree, this
 * one's last) until all fit in RECORDINGS_BUDGET_MB with it. Returns the labels' "#n" of the
 * dropped ones of this tree.
 */
export function keepRecording(tree: TreeRecordings, rec: Recording): string[] {
  const budget = RECORDINGS_BUDGET_MB * 1024 * 1024;
  let total = bytesOf(rec);
  for (const t of store.values()) for (const r of t.list) total += bytesOf(r);
  const dropped: string[] = [];
  const lists = [...[...store.values()].filter((t) => t !== tree), tree];
  for (const t of lists) {
    while (total > budget && t.list.length > 0) {
      const r = t.list.shift()!;
      total -= bytesOf(r);
      if (t === tree) dropped.push(r.label.split(":")[0]);
    }
  }
  tree.list.push(rec);
  return dropped;
}
