/**
 * Branch hierarchy from a tree model's wood (Habel 2009 §8: "just the geometric description"
 * turned into a hierarchy), and the binding of the model's own vertices to it. The one entry
 * point of tree extraction: `extractHierarchy` reads wood in separate parts (parts.ts: one tube
 * per branch) or welded into one mesh (welded.ts: the Reeb graph of the geodesic distance from
 * the base), whichever the wood is. Plain TypeScript over typed arrays: no Babylon.
 *
 * Inside: mesh.ts (the mesh's parts and edge graph), geodesic.ts (Dijkstra on that graph, the
 * one both methods measure with), centre-line.ts and polyline.ts (a part's centre line and
 * measures on it), end-grid.ts (parts' ends near a placed branch), levels.ts (levels capped as
 * the turtle caps them), reeb.ts and reeb-branches.ts (the welded method), bind.ts (the
 * binding), up.ts (the up axis from the trunk).
 */
import { meshGraph, meshParts, type PartsHierarchy, type WoodMesh } from "./mesh";
import { extractFromParts } from "./parts";
import { mainPart, noWood, weldedHierarchy } from "./welded";

export { bindVertices, type VertexBinding } from "./bind";
export { meshParts, type PartsHierarchy, type WoodMesh } from "./mesh";
export { nearestOnLine } from "./polyline";
export { SegmentGrid, type NearestOnSkeleton } from "./segment-grid";
export { upFromWood } from "./up";

/**
 * The wood is welded when its largest part holds more than this share of the used vertices
 * (upFromWood, which weighs parts by surface, has its own: WELDED_SURFACE_SHARE)...
 */
const WELDED_VERTEX_SHARE = 0.5;
/** ...or is itself a branching tree: its Reeb graph has this many tips (a lone tube lying down has two, its ends). */
const WELDED_TIPS = 3;

/**
 * The hierarchy of any wood: extractFromWelded's where one part holds most of the wood (more than
 * half the used vertices) or is itself a branching tree (three tips or more: trunk and limbs
 * welded, the twigs maybe separate); extractFromParts's where the wood is separate tubes.
 * `welded` says which was used.
 */
export function extractHierarchy(mesh: WoodMesh): PartsHierarchy & { welded: boolean } {
  const parts = meshParts(mesh);
  if (parts.count === 0) throw noWood(mesh);
  const graph = meshGraph(mesh, parts.canon);
  const { main, share, reeb } = mainPart(mesh, parts, graph);
  if (share > WELDED_VERTEX_SHARE || reeb.tips >= WELDED_TIPS) return { ...weldedHierarchy(mesh, parts, graph, main, reeb), welded: true };
  return { ...extractFromParts(mesh, { parts, graph }), welded: false };
}
