/**
 * An imported model on Barron's particles (model-skin.ts): the model's own vertices,
 * skinned through their binding to the particles of their skin nodes, instead of skins
 * regenerated from the particles (§4.2). A generated tree's own geometry stands in for a model
 * here: its bark and leaves carry a valid binding (two consecutive nodes of their branch).
 */
import { readFileSync } from "node:fs";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine";
import { Scene } from "@babylonjs/core/scene";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { buildParticleTree, ParticleDynamics, rotateQuat, type ParticleTree } from "../../../app/animators/lsystem-particles/particles";
import { BarronSimulation } from "../../../app/animators/lsystem-particles/simulation";
import { bindModelSkin, updateModelSkin, type BoundMesh, type ModelSkin } from "../../../app/animators/lsystem-particles/model-skin";
import { lsystemParticlesProvider, type LsystemParticlesAnimator } from "../../../app/animators/lsystem-particles/provider";
import { lsystemParticlesParams } from "../../../app/animators/lsystem-particles/params";
import { buildTreeGeometry, type MeshArrays, type TreeGeometry } from "../../../app/tree/geometry";
import { SkeletonBuilder, tipNode, type TreeSkeleton } from "../../../app/tree/skeleton";
import { TreeView } from "../../../app/sandbox/tree-view";
import { FixedClock } from "../../../app/sandbox/clock";
import { WindField } from "../../../app/wind/wind-field";
import { Rng } from "../../../app/math/rng";
import { defaultsOf } from "../../../app/math/params";

const BARRON = readFileSync("assets/trees/barron.lsys", "utf8");

/** A generated tree taken for a model: its geometry (bark with rings between nodes, so vertices blend two nodes) marked fromModel. */
function modelTree() {
  const s = grammarToSkeleton(BARRON, { seed: 1, depth: 5 });
  const g: TreeGeometry = { ...buildTreeGeometry(s, { subdivisions: 2 }), fromModel: true };
  const tree = buildParticleTree(s, 0.003);
  return { s, g, tree };
}

/** The wind blowing on the tree for `frames` 60 Hz frames. */
function blown(tree: ParticleTree, frames = 60, speed = 14) {
  const sim = new BarronSimulation(tree, new WindField({ speed, direction: 0, turbulence: 0.3, gust: 0.2, seed: 2 }), { damping: 0.2, stiffness: 1, gravity: 1, timeStep: 1 / 60, spatial: 0.15, paperLiteral: true }, new Rng(3));
  for (let f = 0; f < frames; f++) sim.update(1 / 60);
  return sim;
}

function skinned(skin: ModelSkin, C: Float64Array, q: Float64Array) {
  const positions = new Float32Array(3 * skin.vertexCount), normals = new Float32Array(3 * skin.vertexCount);
  updateModelSkin(skin, C, q, positions, normals);
  return { positions, normals };
}

const dist = (a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number) => Math.hypot(a[3 * i] - b[3 * j], a[3 * i + 1] - b[3 * j + 1], a[3 * i + 2] - b[3 * j + 2]);

/** Largest relative change of an edge's length over every triangle edge. */
function worstStretch(indices: Uint32Array, rest: Float32Array, now: Float32Array): number {
  let worst = 0;
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e], b = indices[t + ((e + 1) % 3)];
      const l0 = dist(rest, a, rest, b);
      if (l0 < 1e-4) continue;
      worst = Math.max(worst, Math.abs(dist(now, a, now, b) / l0 - 1));
    }
  }
  return worst;
}

describe("a model's own vertices on the particles", () => {
  it("at rest puts every vertex and normal where the model has it", () => {
    const { s, g, tree } = modelTree();
    for (const mesh of [g.bark, g.leaves!]) {
      const skin = bindModelSkin(s, tree, mesh);
      const d = new ParticleDynamics(tree, { damping: 0.2, stiffness: 1, gravity: 1 });
      const { positions, normals } = skinned(skin, d.current, d.rotation);
      let worst = 0, worstN = 0;
      for (let i = 0; i < positions.length; i++) {
        worst = Math.max(worst, Math.abs(positions[i] - mesh.positions[i]));
        worstN = Math.max(worstN, Math.abs(normals[i] - mesh.normals[i]));
      }
      expect(worst).toBeLessThan(1e-5);
      expect(worstN).toBeLessThan(1e-5);
    }
  });

  it("moves the bark in the wind, finite, without tearing or pinching it", () => {
    const { s, g, tree } = modelTree();
    const skin = bindModelSkin(s, tree, g.bark);
    const sim = blown(tree);
    const { positions, normals } = skinned(skin, sim.shownPositions, sim.shownRotations);
    expect(positions.every(Number.isFinite) && normals.every(Number.isFinite)).toBe(true);
    let most = 0, particles = 0;
    for (let v = 0; v < skin.vertexCount; v++) most = Math.max(most, dist(positions, v, g.bark.positions, v));
    for (let p = 0; p < tree.count; p++) particles = Math.max(particles, dist(sim.shownPositions, p, tree.rest, p));
    expect(particles).toBeGreaterThan(0.05); // the wind does bend the tree
    // The bark moves as far as the particles do, give or take its radius (the rings turn about them).
    expect(most).toBeGreaterThan(0.5 * particles);
    expect(most).toBeLessThan(particles + 0.5);
    // Unit normals; neighbouring vertices stay neighbours: the tube bends, it does not tear or fold.
    for (let v = 0; v < skin.vertexCount; v += 11) expect(Math.hypot(normals[3 * v], normals[3 * v + 1], normals[3 * v + 2])).toBeCloseTo(1, 5);
    expect(worstStretch(g.bark.indices, g.bark.positions, positions)).toBeLessThan(0.25);
  });

  it("a vertex at a branch tip moves with the branch's tip particle", () => {
    const { s, g, tree } = modelTree();
    const skin = bindModelSkin(s, tree, g.bark);
    const sim = blown(tree);
    const C = sim.shownPositions;
    const { positions } = skinned(skin, C, sim.shownRotations);
    const SN = g.bark.skinNodes, SW = g.bark.skinWeights;
    let checked = 0, tipMoved = 0, blended = 0;
    for (let v = 0; v < skin.vertexCount; v++) {
      const b = g.bark.branchIndex[v], tip = tipNode(s, b), p = tree.particleOfNode[tip];
      // Skinned to the tip node: the last ring and the cap ride rigidly on the last rod.
      const onTip = SN[4 * v] === tip && SW[4 * v] === 1;
      // Between the last two nodes: a blend, still close to the tip particle's reach.
      const nearTip = SN[4 * v + 1] === tip && SW[4 * v + 1] > 0.5;
      if (!onTip && !nearTip) continue;
      const r0 = dist(g.bark.positions, v, tree.rest, p), r1 = dist(positions, v, C, p);
      if (onTip) {
        expect(Math.abs(r1 - r0)).toBeLessThan(1e-5 + 1e-4 * r0);
        checked++;
      } else {
        // Its share w_a of the node before turns with the half-way of the two rods there, θ / 2
        // from the last rod: the distance changes by no more than w_a (θ / 2) |v - I_a|.
        const a = SN[4 * v], pa = tree.particleOfNode[a], q = sim.shownRotations;
        let dq = 0;
        for (let c = 0; c < 4; c++) dq += q[4 * pa + c] * q[4 * p + c];
        const theta = 2 * Math.acos(Math.min(1, Math.abs(dq)));
        expect(Math.abs(r1 - r0)).toBeLessThan(SW[4 * v] * (theta / 2) * dist(g.bark.positions, v, tree.rest, pa) + 1e-4);
        blended++;
      }
      tipMoved = Math.max(tipMoved, dist(C, p, tree.rest, p));
    }
    expect(checked).toBeGreaterThan(s.branchCount);
    expect(blended).toBeGreaterThan(s.branchCount);
    expect(tipMoved).toBeGreaterThan(0.05); // the tips did move: the distances were kept in motion
  });

  it("a straight branch bent by its rods stays a smooth tube", () => {
    // One straight trunk of 6 rods, each turned a little more: an arc.
    const b = new SkeletonBuilder();
    const trunk = b.addBranch(-1, 0);
    for (let i = 0; i <= 6; i++) b.addNode(trunk, 0, i * 0.5, 0, 0.1);
    const s = b.build();
    const g = buildTreeGeometry(s, { subdivisions: 3, radialSegments: 12 });
    const tree = buildParticleTree(s, 0.003);
    const d = new ParticleDynamics(tree, { damping: 0.2, stiffness: 1, gravity: 0 });
    for (let i = 1; i < tree.count; i++) rotateQuat(d.rotation, 4 * i, 0, 0, -0.1 * i);
    d.propagate();
    const skin = bindModelSkin(s, tree, g.bark);
    const { positions } = skinned(skin, d.current, d.rotation);
    // Every ring stays a circle of the bark's radius about the curve, and across it.
    const seg = 12, stride = seg + 1, rings = 6 * 4 + 1;
    let prevAxis: number[] | null = null, worstKink = 0;
    for (let r = 0; r < rings; r++) {
      const c = [0, 0, 0];
      for (let j = 0; j < seg; j++) for (let k = 0; k < 3; k++) c[k] += positions[3 * (r * stride + j) + k] / seg;
      for (let j = 0; j < seg; j++) expect(Math.hypot(...[0, 1, 2].map((k) => positions[3 * (r * stride + j) + k] - c[k]))).toBeCloseTo(0.1, 2);
      // The ring's axis: the normal of its plane.
      const a = [0, 1, 2].map((k) => positions[3 * (r * stride) + k] - c[k]), q = [0, 1, 2].map((k) => positions[3 * (r * stride + seg / 4) + k] - c[k]);
      const n = [a[1] * q[2] - a[2] * q[1], a[2] * q[0] - a[0] * q[2], a[0] * q[1] - a[1] * q[0]];
      const l = Math.hypot(...n);
      const axis = n.map((x) => x / l);
      if (prevAxis) worstKink = Math.max(worstKink, Math.acos(Math.min(1, axis[0] * prevAxis[0] + axis[1] * prevAxis[1] + axis[2] * prevAxis[2])));
      prevAxis = axis;
      const k = r / 4; // the ring on node k: across the mean of the two rods meeting there (a mitre, no pinch)
      if (Number.isInteger(k) && k > 0 && k < 6) {
        const rod = (i: number) => [0, 1, 2].map((c) => d.current[3 * i + c] - d.current[3 * (i - 1) + c]);
        const pk = tree.particleOfNode[k], a = rod(pk), b2 = rod(pk + 1);
        const mean = [0, 1, 2].map((c) => a[c] / Math.hypot(...a) + b2[c] / Math.hypot(...b2));
        const ml = Math.hypot(...mean);
        expect(Math.abs(axis[0] * mean[0] + axis[1] * mean[1] + axis[2] * mean[2]) / ml).toBeGreaterThan(Math.cos(0.01));
      }
    }
    // The tip turned by 2.1 rad in all, over 24 ring steps: no step turns much more than its share.
    expect(worstKink).toBeLessThan(0.25);
    expect(worstKink).toBeGreaterThan(0.02);
  });

  it("unbound vertices stay where the model has them", () => {
    const { s, g, tree } = modelTree();
    const copy = (a: Float32Array) => Float32Array.from(a);
    const mesh: BoundMesh & { branchIndex: Float32Array } = {
      positions: g.bark.positions, normals: g.bark.normals, skinNodes: copy(g.bark.skinNodes), skinWeights: copy(g.bark.skinWeights), branchIndex: copy(g.bark.branchIndex),
    };
    const unbound: number[] = [];
    for (let v = 0; v < mesh.branchIndex.length; v += 7) {
      unbound.push(v);
      mesh.branchIndex[v] = -1;
      mesh.skinNodes.fill(0, 4 * v, 4 * v + 4);
      mesh.skinWeights.fill(0, 4 * v, 4 * v + 4);
    }
    const skin = bindModelSkin(s, tree, mesh);
    const sim = blown(tree);
    const { positions, normals } = skinned(skin, sim.shownPositions, sim.shownRotations);
    let boundMoved = 0;
    for (let v = 0; v < skin.vertexCount; v++) {
      if (v % 7 === 0) {
        for (let c = 0; c < 3; c++) {
          expect(positions[3 * v + c]).toBe(g.bark.positions[3 * v + c]);
          expect(normals[3 * v + c]).toBe(g.bark.normals[3 * v + c]);
        }
      } else boundMoved = Math.max(boundMoved, dist(positions, v, g.bark.positions, v));
    }
    expect(unbound.length).toBeGreaterThan(100);
    expect(boundMoved).toBeGreaterThan(0.05);
  });

  it("leaves of any shape ride on their branch, keeping their shape", () => {
    const { s, g, tree } = modelTree();
    const leaves = g.leaves!;
    const skin = bindModelSkin(s, tree, leaves);
    const sim = blown(tree);
    const { positions, normals } = skinned(skin, sim.shownPositions, sim.shownRotations);
    expect(positions.every(Number.isFinite) && normals.every(Number.isFinite)).toBe(true);
    let most = 0;
    for (let v = 0; v < skin.vertexCount; v++) most = Math.max(most, dist(positions, v, leaves.positions, v));
    expect(most).toBeGreaterThan(0.05);
    expect(worstStretch(leaves.indices, leaves.positions, positions)).toBeLessThan(0.1);
  });

  it("a branch whose base stands apart from its origin (as extraction leaves them) rides on its own base particle", () => {
    const b = new SkeletonBuilder();
    const trunk = b.addBranch(-1, 0);
    for (let i = 0; i <= 4; i++) b.addNode(trunk, 0, i, 0, 0.15 - 0.02 * i);
    const limb = b.addBranch(trunk, 0.5, null, { branch: trunk, node: 2 });
    for (let i = 0; i <= 3; i++) b.addNode(limb, 0.2 + 0.6 * i, 2.1 + 0.3 * i, 0, 0.05);
    const s: TreeSkeleton = b.build();
    const g = buildTreeGeometry(s);
    const tree = buildParticleTree(s, 0.003);
    const base = s.branchFirstNode[limb];
    expect(tree.particleOfNode[base]).not.toBe(tree.particleOfNode[s.branchOrigin[limb]]); // a particle of its own
    const skin = bindModelSkin(s, tree, g.bark);
    const d = new ParticleDynamics(tree, { damping: 0.2, stiffness: 1, gravity: 0 });
    expect(Array.from(skinned(skin, d.current, d.rotation).positions)).toEqual(Array.from(g.bark.positions));
    // Turn the gap's rod: the limb's base ring goes with the base particle, at its radius from it.
    const gap = tree.particleOfNode[base];
    rotateQuat(d.rotation, 4 * gap, 0, 0, 0.4);
    d.propagate();
    const { positions } = skinned(skin, d.current, d.rotation);
    let checked = 0;
    for (let v = 0; v < skin.vertexCount; v++) {
      if (g.bark.skinNodes[4 * v] !== base || g.bark.skinWeights[4 * v] !== 1) continue;
      expect(dist(positions, v, d.current, gap)).toBeCloseTo(dist(g.bark.positions, v, tree.rest, gap), 5);
      expect(dist(positions, v, g.bark.positions, v)).toBeGreaterThan(0.01);
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it("takes the weights as shares: scaled weights skin alike", () => {
    const { s, g, tree } = modelTree();
    const sim = blown(tree, 20);
    const a = skinned(bindModelSkin(s, tree, g.bark), sim.shownPositions, sim.shownRotations).positions;
    const b = skinned(bindModelSkin(s, tree, { ...g.bark, skinWeights: g.bark.skinWeights.map((w) => 2 * w) }), sim.shownPositions, sim.shownRotations).positions;
    for (let i = 0; i < a.length; i += 5) expect(b[i]).toBeCloseTo(a[i], 5);
  });

  it("rejects a binding that names a node the skeleton lacks", () => {
    const { s, g, tree } = modelTree();
    const skinNodes = Float32Array.from(g.bark.skinNodes);
    skinNodes[0] = s.nodeCount + 3;
    expect(() => bindModelSkin(s, tree, { ...g.bark, skinNodes })).toThrow(/node/);
  });
});

describe("the adapter with a model", () => {
  it("shows the model's own bark and leaves, skinned, and the skeleton's tubes; a generated tree keeps its skins", () => {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    try {
      const root = new TransformNode("root", scene);
      const { s, g } = modelTree();
      const clock = new FixedClock(1 / 60);
      const create = (geometry: TreeGeometry) => {
        const view = new TreeView(s, geometry, scene, root, null);
        const animator = lsystemParticlesProvider.create(
          { scene, tree: view, wind: new WindField({ speed: 12, direction: 0, turbulence: 0.3, gust: 0, seed: 1 }), rng: new Rng(1), root: view.bark.parent as TransformNode, clock },
          defaultsOf(lsystemParticlesParams),
        ) as LsystemParticlesAnimator;
        return { view, animator };
      };
      const shown = (mesh: MeshArrays, view: TreeView, role: "bark" | "leaves") => {
        scene.onBeforeRenderObservable.notifyObservers(scene);
        const m = view.displayed(role)!;
        expect(m.name).toBe(`lsystem-particles ${role}`);
        expect(m.getTotalVertices()).toBe(mesh.positions.length / 3);
        return Float32Array.from(m.getVerticesData(VertexBuffer.PositionKind)!);
      };
      const { view, animator } = create(g);
      const rest = { bark: shown(g.bark, view, "bark"), leaves: shown(g.leaves!, view, "leaves") };
      for (let i = 0; i < rest.bark.length; i++) expect(Math.abs(rest.bark[i] - g.bark.positions[i])).toBeLessThan(1e-5);
      expect(view.displayed("skeleton")!.name).toBe("lsystem-particles skeleton");
      expect(animator.stats().counts["skin vertices"]).toBe(g.bark.positions.length / 3);
      for (let f = 0; f < 60; f++) animator.update(1 / 60);
      for (const role of ["bark", "leaves"] as const) {
        const now = shown(g[role]!, view, role);
        let most = 0;
        for (let i = 0; i < now.length; i++) most = Math.max(most, Math.abs(now[i] - rest[role][i]));
        expect(now.every(Number.isFinite)).toBe(true);
        expect(most).toBeGreaterThan(0.005); // the physical tree bends by about 2 cm at 12 m/s
      }
      animator.dispose();
      // The same tree, generated: Barron's regenerated skins, not the geometry's vertices.
      const generated = create({ ...g, fromModel: false });
      expect(generated.view.displayed("bark")!.getTotalVertices()).not.toBe(g.bark.positions.length / 3);
      generated.animator.dispose();
    } finally {
      scene.dispose();
      engine.dispose();
    }
  });
});
