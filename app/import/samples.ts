/**
 * The sample models shipped in assets/models/, as the panel lists them and
 * `loadTree({ preset })` loads them. Credits and licences: assets/models/SOURCES.md.
 */
export interface ModelSample {
  /** Stable id: `loadTree({ preset: id })`, the tree list, the page address. */
  readonly id: string;
  readonly label: string;
  /** The model file, relative to the page. */
  readonly url: string;
  /** Files it needs that it does not name (an MTL without map_Kd), relative to it. */
  readonly extra?: readonly string[];
  /** Files it names that are not shipped (textures too large to copy; SOURCES.md): not fetched. */
  readonly absent?: readonly string[];
  /** Who made it, under which licence. */
  readonly credit: string;
}

export const MODEL_SAMPLES: readonly ModelSample[] = [
  { id: "own-habel-glb", label: "Model: Habel tree (our GLB)", url: "assets/models/own_habel_glb/habel.glb", credit: "Tree Wind Sandbox's own generator" },
  { id: "own-welded-obj", label: "Model: welded wood (our OBJ)", url: "assets/models/own_welded_obj/welded.obj", credit: "Tree Wind Sandbox's own generator" },
  { id: "common-tree", label: "Model: Common tree (glTF)", url: "assets/models/megakit_commontree_1/CommonTree_1.gltf", absent: ["Bark_NormalTree_Normal.png"], credit: "Quaternius, Stylized Nature MegaKit, CC0" },
  { id: "pine", label: "Model: Pine (glTF)", url: "assets/models/megakit_pine_1/Pine_1.gltf", absent: ["Bark_NormalTree_Normal.png"], credit: "Quaternius, Stylized Nature MegaKit, CC0" },
  { id: "dead-tree", label: "Model: Dead tree (glTF)", url: "assets/models/megakit_deadtree_1/DeadTree_1.gltf", absent: ["Bark_DeadTree.png", "Bark_DeadTree_Normal.png"], credit: "Quaternius, Stylized Nature MegaKit, CC0" },
  { id: "twisted-tree", label: "Model: Twisted tree (OBJ)", url: "assets/models/megakit_twistedtree_1_obj/TwistedTree_1.obj", absent: ["Bark_TwistedTree.png", "Bark_TwistedTree_Normal.png"], credit: "Quaternius, Stylized Nature MegaKit, CC0" },
  {
    id: "lowpoly-tree", label: "Model: Low-poly tree (OBJ)", url: "assets/models/quaternius_tree_3_obj/Tree_3.obj",
    extra: ["Textures/Tree_Bark.jpg", "Textures/Tree_Leaves.png"], credit: "Quaternius, LowPoly trees, CC0",
  },
  {
    id: "landscape", label: "Model: Landscape with trees (glTF scene)", url: "assets/models/sketchfab_lowpoly_landscape_scene/scene.gltf",
    credit: "\"Low poly landscape with river and trees\" by seccanj, CC-BY-4.0 (sketchfab.com/3d-models/low-poly-landscape-with-river-and-trees-535244c4be114f678a4afb1240fae3b6)",
  },
];

export function modelSample(id: string): ModelSample | undefined {
  return MODEL_SAMPLES.find((s) => s.id === id);
}
