/**
 * Where a method has put the skeleton's nodes now, for every method: what the bones of an
 * exported clip follow. In the tree's own space (the meshes' local space), after the last update.
 *
 * - A method that deforms in the vertex shader (spectral-beam, procedural-wind, modal) keeps a
 *   TypeScript twin of its per-vertex math (its DeformShader): each node goes through the twin as
 *   a vertex sitting on it, with the binding a bark vertex there carries (its branch, its w-vector,
 *   skinned to that node alone). This is how the tree's own bark moves at that node.
 * - mass-spring: the mass each node rides on (the bark is skinned to the masses).
 * - lsystem-particles: the particle of each node (Barron's particles are the skeleton's nodes).
 * - rest: the nodes where the tree was built.
 * Anything else is refused by name.
 */
import type { Animator, TreeInstance } from "../animators/animator";
import type { DeformShader } from "../animators/deform-shader";
import type { Params } from "../math/params";
import { BINDING_ATTRIBUTES, nodeWVector } from "../tree/geometry";
import type { TreeSkeleton } from "../tree/skeleton";

/** Writes the deformed node positions (3 per node) into out. */
export type NodeReader = (out: Float64Array) => void;

interface CpuMasses { system: { position: Float64Array; massOfNode: Int32Array } }
interface CpuParticles { particles: { particleOfNode: Int32Array }; simulation: { shownPositions: Float64Array } }

/** The attribute values a vertex sitting on node k carries, per attribute of `shader`, for every node. */
function nodeAttributes(s: TreeSkeleton, shader: DeformShader): Float32Array[][] {
  const w = [0, 0, 0, 0];
  return shader.attributes.map((a) => {
    const values: Float32Array[] = [];
    for (let k = 0; k < s.nodeCount; k++) {
      const v = new Float32Array(a.size);
      switch (a.name) {
        case BINDING_ATTRIBUTES.branchIndex: v[0] = s.nodeBranch[k]; break;
        case BINDING_ATTRIBUTES.wVector: nodeWVector(s, k, w); v.set(w); break;
        case BINDING_ATTRIBUTES.skinNodes: v[0] = k; break;
        case BINDING_ATTRIBUTES.skinWeights: v[0] = 1; break;
        case BINDING_ATTRIBUTES.leafFrame: case BINDING_ATTRIBUTES.leafCoord: break; // bark: zero
        default: throw new Error(`exporting the motion: the method's shader reads "${a.name}", which a skeleton node does not carry`);
      }
      values.push(v);
    }
    return values;
  });
}

export function nodeReader(methodId: string, animator: Animator<Params> | null, tree: TreeInstance): NodeReader {
  const s = tree.skeleton, n = s.nodeCount;
  if (methodId === "rest" || !animator) return (out) => out.set(s.nodePosition);
  const a = animator as unknown as Partial<CpuMasses & CpuParticles & { deformShader: DeformShader }>;
  if (a.deformShader) {
    const shader = a.deformShader;
    const attrs = nodeAttributes(s, shader);
    const p = new Float32Array(3), normal = new Float32Array([1, 0, 0]), res = new Float64Array(6);
    const perNode: Float32Array[] = new Array(attrs.length);
    return (out) => {
      for (let k = 0; k < n; k++) {
        p[0] = s.nodePosition[3 * k]; p[1] = s.nodePosition[3 * k + 1]; p[2] = s.nodePosition[3 * k + 2];
        for (let j = 0; j < attrs.length; j++) perNode[j] = attrs[j][k];
        shader.twin(p, normal, perNode, res);
        out[3 * k] = res[0]; out[3 * k + 1] = res[1]; out[3 * k + 2] = res[2];
      }
    };
  }
  if (a.system?.massOfNode && a.system.position) {
    const sys = a.system;
    return (out) => {
      for (let k = 0; k < n; k++) {
        const m = 3 * sys.massOfNode[k];
        out[3 * k] = sys.position[m]; out[3 * k + 1] = sys.position[m + 1]; out[3 * k + 2] = sys.position[m + 2];
      }
    };
  }
  if (a.particles?.particleOfNode && a.simulation) {
    // Read through the animator each time: a parameter change may rebuild its particles.
    const live = a as CpuParticles;
    return (out) => {
      const P = live.particles.particleOfNode, C = live.simulation.shownPositions;
      for (let k = 0; k < n; k++) {
        const q = 3 * P[k];
        out[3 * k] = C[q]; out[3 * k + 1] = C[q + 1]; out[3 * k + 2] = C[q + 2];
      }
    };
  }
  throw new Error(`exporting the motion of "${methodId}" is not supported: it exposes no skeleton to follow`);
}
