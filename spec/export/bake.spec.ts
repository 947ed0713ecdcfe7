/**
 * The motion as bones (app/export/bake.ts): the bones posed from a deformed skeleton skin the
 * tree's own rest vertices onto the deformed skeleton; local poses compose back to the world
 * poses; the clip samples the source on the fixed-step grid; a looping clip's last frame is its
 * first, with no jump at the seam; bad options and an oversized clip are refused by name.
 */
import { blendPoses, bakeClip, boneRig, checkBudget, clipFrames, composeWorld, estimateBytes, exportSettings, POSE_STRIDE, Poser, skinVertex, type MotionSource } from "../../app/export/bake";
import { buildTreeGeometry } from "../../app/tree/geometry";
import type { TreeSkeleton } from "../../app/tree/skeleton";
import { handTree } from "../tree/fixtures";

/** Bends the tree over toward +x: each node turned about z (through the base) by an angle growing with its height. */
function bent(s: TreeSkeleton, perMetre: number): Float64Array {
  const out = new Float64Array(3 * s.nodeCount);
  for (let k = 0; k < s.nodeCount; k++) {
    const x = s.nodePosition[3 * k], y = s.nodePosition[3 * k + 1], z = s.nodePosition[3 * k + 2];
    const a = -perMetre * y;
    out[3 * k] = x * Math.cos(a) - y * Math.sin(a);
    out[3 * k + 1] = x * Math.sin(a) + y * Math.cos(a);
    out[3 * k + 2] = z;
  }
  return out;
}

function dist(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  return Math.hypot(a[ao] - b[bo], a[ao + 1] - b[bo + 1], a[ao + 2] - b[bo + 2]);
}

describe("bones from a deformed skeleton", () => {
  const { skeleton: s } = handTree();
  const rig = boneRig(s);
  const poser = new Poser(rig);

  test("one bone per node, parented along the branch hierarchy", () => {
    expect(rig.count).toBe(s.nodeCount);
    expect(rig.parent[0]).toBe(-1);
    for (let k = 1; k < s.nodeCount; k++) expect(rig.parent[k]).toBe(s.nodeParent[k]);
  });

  test("skinning a node's rest position with its bone gives the deformed node; a segment's middle follows the deformed segment", () => {
    const nodes = bent(s, 0.12);
    const world = poser.pose(nodes);
    const out = new Float64Array(3);
    let worst = 0, moved = 0;
    for (let k = 0; k < s.nodeCount; k++) {
      skinVertex(rig, world, [rig.rest[3 * k], rig.rest[3 * k + 1], rig.rest[3 * k + 2]], [k], [1], out);
      expect(dist(out, 0, nodes, 3 * k)).toBeLessThan(1e-9);
      moved = Math.max(moved, dist(nodes, 3 * k, rig.rest, 3 * k));
      if (rig.to[k] !== k + 1) continue;
      // The middle of segment k..k+1, skinned half to each end, lands at the deformed middle.
      const mid = [0, 1, 2].map((c) => (rig.rest[3 * k + c] + rig.rest[3 * k + 3 + c]) / 2);
      skinVertex(rig, world, mid, [k, k + 1], [0.5, 0.5], out);
      const target = [0, 1, 2].map((c) => (nodes[3 * k + c] + nodes[3 * k + 3 + c]) / 2);
      const seg = dist(rig.rest, 3 * k, rig.rest, 3 * k + 3);
      worst = Math.max(worst, dist(out, 0, target, 0) / seg);
    }
    expect(moved).toBeGreaterThan(0.3); // the bend is not trivial
    // Linear blend skinning cuts the corner of a bent segment: about half the turn across it
    // (0.12 rad per metre here) times its length, never more.
    expect(worst).toBeLessThan(0.08);
  });

  test("the tree's own bark vertices, skinned with their binding, stay on the deformed skeleton's tubes", () => {
    const g = buildTreeGeometry(s);
    const nodes = bent(s, 0.12);
    const world = poser.pose(nodes);
    const bark = g.bark, out = new Float64Array(3);
    let worst = 0;
    for (let v = 0; v < bark.positions.length / 3; v++) {
      const bones = bark.skinNodes.subarray(4 * v, 4 * v + 4), weights = bark.skinWeights.subarray(4 * v, 4 * v + 4);
      skinVertex(rig, world, bark.positions.subarray(3 * v, 3 * v + 3), bones, weights, out);
      // Its distance to the deformed centre line point it is bound to equals its rest distance to the rest one.
      let cx = 0, cy = 0, cz = 0, rx = 0, ry = 0, rz = 0, sw = 0;
      for (let j = 0; j < 4; j++) {
        const w = weights[j], k = bones[j];
        if (!(w > 0)) continue;
        cx += w * nodes[3 * k]; cy += w * nodes[3 * k + 1]; cz += w * nodes[3 * k + 2];
        rx += w * rig.rest[3 * k]; ry += w * rig.rest[3 * k + 1]; rz += w * rig.rest[3 * k + 2];
        sw += w;
      }
      const restR = Math.hypot(bark.positions[3 * v] - rx / sw, bark.positions[3 * v + 1] - ry / sw, bark.positions[3 * v + 2] - rz / sw);
      const nowR = Math.hypot(out[0] - cx / sw, out[1] - cy / sw, out[2] - cz / sw);
      worst = Math.max(worst, Math.abs(nowR - restR));
    }
    // Within a few millimetres on a 4 m tree bent by half a radian at the top.
    expect(worst).toBeLessThan(0.01);
  });

  test("local poses (what glTF stores) compose back into the world poses", () => {
    const nodes = bent(s, 0.2);
    const world = Float64Array.from(poser.pose(nodes));
    const local = new Float64Array(world.length);
    poser.local(world, local);
    const back = new Float64Array(world.length);
    composeWorld(rig, local, 0, back);
    let worst = 0;
    for (let i = 0; i < world.length; i++) worst = Math.max(worst, Math.abs(back[i] - world[i]));
    expect(worst).toBeLessThan(1e-9);
    // At rest every local rotation is the identity and every translation the rest segment.
    poser.local(poser.pose(rig.rest), local);
    for (let k = 1; k < rig.count; k++) {
      const o = POSE_STRIDE * k, p = rig.parent[k];
      expect(local[o + 6]).toBeCloseTo(1, 9);
      expect(local[o]).toBeCloseTo(rig.rest[3 * k] - rig.rest[3 * p], 6);
    }
  });

  test("blending halfway between two rotations is the rotation halfway", () => {
    const a = [0, 0, 0, 0, 0, 0, 1], b = [2, 0, 0, 0, 0, Math.sin(0.5), Math.cos(0.5)]; // 1 rad about z
    const out = new Float64Array(POSE_STRIDE);
    blendPoses(1, a, 0, b, 0, 0.5, out, 0);
    expect(out[0]).toBeCloseTo(1, 9);
    expect(out[5]).toBeCloseTo(Math.sin(0.25), 9);
    expect(out[6]).toBeCloseTo(Math.cos(0.25), 9);
  });
});

/** A source whose every node sways as sin(ω t) along x, t counted in fixed steps. */
function swaying(s: TreeSkeleton, dt: number, omega: number): MotionSource & { steps: number } {
  const src = {
    dt, steps: 0,
    advance(n: number) { src.steps += n; },
    nodes(out: Float64Array) {
      const t = src.steps * dt;
      for (let k = 0; k < s.nodeCount; k++) {
        out[3 * k] = s.nodePosition[3 * k] + 0.1 * s.nodePosition[3 * k + 1] * Math.sin(omega * t);
        out[3 * k + 1] = s.nodePosition[3 * k + 1];
        out[3 * k + 2] = s.nodePosition[3 * k + 2];
      }
    },
  };
  return src;
}

describe("the clip", () => {
  const { skeleton: s } = handTree();
  const rig = boneRig(s);
  const top = s.nodeCount - 1;
  // The topmost trunk node: the last node of branch 0.
  const trunkTip = s.branchFirstNode[0] + s.branchNodeCount[0] - 1;

  test("frame i is the source i / fps seconds on, on the fixed steps' grid", async () => {
    const src = swaying(s, 1 / 60, 2);
    const clip = await bakeClip(rig, src, { seconds: 2, fps: 15, loop: false });
    expect(clip.frames).toBe(31);
    expect(clipFrames({ seconds: 2, fps: 15 })).toBe(31);
    expect(src.steps).toBe(120);
    expect(clip.times[30]).toBeCloseTo(2, 6);
    const world = new Float64Array(POSE_STRIDE * rig.count);
    for (const i of [0, 7, 30]) {
      composeWorld(rig, clip.local, i * rig.count * POSE_STRIDE, world);
      const t = Math.round(i / 15 * 60) / 60;
      const expected = s.nodePosition[3 * trunkTip] + 0.1 * s.nodePosition[3 * trunkTip + 1] * Math.sin(2 * t);
      expect(world[POSE_STRIDE * trunkTip]).toBeCloseTo(expected, 5);
    }
    expect(top).toBeGreaterThan(0);
  });

  test("a looping clip ends on its first frame, with no jump at the seam", async () => {
    const src = swaying(s, 1 / 60, 2.3);
    const clip = await bakeClip(rig, src, { seconds: 3, fps: 30, loop: true });
    const stride = rig.count * POSE_STRIDE, n = clip.frames - 1;
    for (let j = 0; j < stride; j++) expect(clip.local[n * stride + j]).toBeCloseTo(clip.local[j], 5);
    const w = new Float64Array(stride), w2 = new Float64Array(stride);
    const step = (i: number) => {
      composeWorld(rig, clip.local, i * stride, w);
      composeWorld(rig, clip.local, ((i + 1) % n) * stride, w2);
      return Math.abs(w[POSE_STRIDE * trunkTip] - w2[POSE_STRIDE * trunkTip]);
    };
    let typical = 0;
    for (let i = 0; i < n; i++) typical = Math.max(typical, step(i));
    // The steps into and across the seam are no larger than the clip's other steps.
    expect(step(n - 1)).toBeLessThanOrEqual(typical + 1e-9);
    expect(typical).toBeGreaterThan(0);
    // Without the fade the source would jump there: the motion is not periodic in 3 s.
    const plain = await bakeClip(rig, swaying(s, 1 / 60, 2.3), { seconds: 3, fps: 30, loop: false });
    composeWorld(rig, plain.local, 0, w);
    composeWorld(rig, plain.local, n * stride, w2);
    expect(Math.abs(w[POSE_STRIDE * trunkTip] - w2[POSE_STRIDE * trunkTip])).toBeGreaterThan(3 * typical);
  });
});

describe("options and the size budget", () => {
  test("defaults, and a RangeError naming the range", () => {
    expect(exportSettings({ seconds: 10 })).toEqual({ seconds: 10, fps: 30, format: "glb", loop: false, download: false });
    expect(() => exportSettings({ seconds: 0 })).toThrow(/seconds must be a number from 0.5 to 600/);
    expect(() => exportSettings({ seconds: 2, fps: 61 })).toThrow(RangeError);
    expect(() => exportSettings({ seconds: 2, fps: 2.5 })).toThrow(/fps must be a whole number from 1 to 60/);
    expect(() => exportSettings({ seconds: 2, format: "fbx" as "glb" })).toThrow(/format must be "glb"/);
    expect(() => exportSettings({ seconds: 2, speed: 3 } as never)).toThrow(/no option "speed"/);
  });

  test("a clip over 200 MB is refused with the budget named", () => {
    const bytes = estimateBytes(8000, 600 * 60 + 1, 100000, 300000);
    expect(() => checkBudget(bytes)).toThrow(/would be \d+ MB, over the 200 MB budget: shorten the clip or lower the fps/);
    expect(() => checkBudget(estimateBytes(8000, 301, 100000, 300000))).not.toThrow();
  });
});
