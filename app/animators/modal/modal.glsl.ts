/**
 * GLSL of the modal method's per-vertex step, as template strings: a vertex moves by the blend of
 * its skin nodes' displacements, read from the RGBA32F node texture the CPU fills every frame
 * (twin.ts). Mirrors ModalTwin.deformVertex line by line.
 */
import { NODES_PER_ROW } from "./twin";

/** Sampler name of the node displacement texture. */
export const NODE_SAMPLER = "mdNodeData";

/** Functions shared by the material plugin and the GPU check. Needs the sampler declared. The
 *  binding's node indices are the tree's own (0 .. nodeCount - 1); an unused slot has weight 0. */
export const MODAL_FUNCTIONS = /* glsl */ `
vec3 mdNode(float nodeF, float w) {
  int n = int(floor(nodeF + 0.5));
  if (w == 0.0 || n < 0) return vec3(0.0);
  int row = n / ${NODES_PER_ROW};
  return w * texelFetch(${NODE_SAMPLER}, ivec2(n - row * ${NODES_PER_ROW}, row), 0).xyz;
}

// p' = p + sum_i w_i d(node_i): translation only, the normal left as it is.
void mdDeform(inout vec3 p, inout vec3 n, vec4 nodes, vec4 weights) {
  p += mdNode(nodes.x, weights.x);
  p += mdNode(nodes.y, weights.y);
  p += mdNode(nodes.z, weights.z);
  p += mdNode(nodes.w, weights.w);
}
`;

/** Vertex-shader definitions injected by the plugin (CUSTOM_VERTEX_DEFINITIONS). */
export const MODAL_VERTEX_DEFINITIONS = /* glsl */ `
precision highp sampler2D;
uniform highp sampler2D ${NODE_SAMPLER};
attribute vec4 skinNodes;
attribute vec4 skinWeights;
vec3 mdNormal;
${MODAL_FUNCTIONS}
`;

/** At CUSTOM_VERTEX_UPDATE_POSITION. */
export const MODAL_UPDATE_POSITION = /* glsl */ `
#ifdef NORMAL
mdNormal = normalUpdated;
#else
mdNormal = vec3(0.0, 1.0, 0.0);
#endif
mdDeform(positionUpdated, mdNormal, skinNodes, skinWeights);
`;
