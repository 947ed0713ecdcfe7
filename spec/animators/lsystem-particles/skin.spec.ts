/**
 * Barron §4.2: Catmull-Rom curves through the particles (Figure 4.3), rings whose first vector is
 * carried from ring to ring so the polygons never twist (Figure 4.5), the opposite half of each
 * ring by negation (eq. 7.1), and leaves riding on their particles.
 */
import { readFileSync } from "node:fs";
import { grammarToSkeleton } from "../../../app/lsystem/lsystem";
import { buildParticleTree, ParticleDynamics, rotateQuat } from "../../../app/animators/lsystem-particles/particles";
import { buildSkinLayout, catmullRomWeights, updateSkin } from "../../../app/animators/lsystem-particles/skin";
import { bindLeaves, updateLeaves } from "../../../app/animators/lsystem-particles/leaves";
import { buildTreeGeometry } from "../../../app/tree/geometry";
import { Rng } from "../../../app/math/rng";

const DEMO = readFileSync("assets/trees/demo.lsys", "utf8");

function bentTree(seed = 4, angle = 0.35) {
  const s = grammarToSkeleton(DEMO, { seed: 1 });
  const tree = buildParticleTree(s, 0.003);
  const d = new ParticleDynamics(tree, { damping: 0.2, stiffness: 1, gravity: 0 });
  const rng = new Rng(seed);
  for (let i = 1; i < tree.count; i++) rotateQuat(d.rotation, 4 * i, rng.range(-angle, angle), rng.range(-angle, angle), rng.range(-angle, angle));
  d.propagate();
  return { s, tree, d };
}

describe("Catmull-Rom splines (§4.2.1)", () => {
  it("weights pass through P1 at u = 0 and P2 at u = 1, sum to 1, and differentiate to (P2 - P0) / 2", () => {
    const w = new Float64Array(8);
    catmullRomWeights(0, w);
    expect(Array.from(w.slice(0, 4))).toEqual([0, 1, 0, 0]);
    expect(Array.from(w.slice(4))).toEqual([-0.5, 0, 0.5, 0]);
    catmullRomWeights(1, w);
    expect(Array.from(w.slice(0, 4)).map((x) => x + 0)).toEqual([0, 0, 1, 0]);
    for (const u of [0.1, 0.37, 0.5, 0.9]) {
      catmullRomWeights(u, w);
      expect(w[0] + w[1] + w[2] + w[3]).toBeCloseTo(1, 12);
      expect(w[4] + w[5] + w[6] + w[7]).toBeCloseTo(0, 12);
    }
  });

  it("every branch's curve passes through its particles, in any pose", () => {
    const { s, tree, d } = bentTree();
    const L = buildSkinLayout(s, tree, { sides: 6, resolution: 4 });
    const pos = new Float32Array(3 * L.vertexCount), nrm = new Float32Array(3 * L.vertexCount), centres = new Float32Array(3 * L.ringCount);
    updateSkin(L, d.current, d.rotation, pos, nrm, centres);
    let checked = 0;
    for (let r = 0; r < L.ringCount; r++) {
      const u = L.ringU[r];
      if (u !== 0 && u !== L.resolution) continue;
      const p = L.ringControl[4 * r + (u === 0 ? 1 : 2)];
      for (let c = 0; c < 3; c++) expect(centres[3 * r + c]).toBeCloseTo(d.current[3 * p + c], 5);
      checked++;
    }
    expect(checked).toBeGreaterThan(tree.count);
  });

  it("draws curves, not the straight lines between particles (Figure 4.2)", () => {
    const { s, tree, d } = bentTree();
    const L = buildSkinLayout(s, tree, { sides: 4, resolution: 4 });
    const centres = new Float32Array(3 * L.ringCount);
    updateSkin(L, d.current, d.rotation, new Float32Array(3 * L.vertexCount), new Float32Array(3 * L.vertexCount), centres);
    let off = 0;
    for (let r = 0; r < L.ringCount; r++) {
      if (L.ringU[r] !== 2) continue; // mid-segment
      const a = L.ringControl[4 * r + 1], b = L.ringControl[4 * r + 2];
      let dev = 0;
      for (let c = 0; c < 3; c++) dev += (centres[3 * r + c] - 0.5 * (d.current[3 * a + c] + d.current[3 * b + c])) ** 2;
      off = Math.max(off, Math.sqrt(dev));
    }
    expect(off).toBeGreaterThan(1e-3);
  });
});

describe("skins (§4.2.2)", () => {
  it("rings are unit normals across the tangent, the second half the negatives of the first (eq. 7.1)", () => {
    const { s, tree, d } = bentTree();
    const N = 8;
    const L = buildSkinLayout(s, tree, { sides: N, resolution: 3 });
    const pos = new Float32Array(3 * L.vertexCount), nrm = new Float32Array(3 * L.vertexCount), centres = new Float32Array(3 * L.ringCount);
    updateSkin(L, d.current, d.rotation, pos, nrm, centres);
    for (let r = 0; r < L.ringCount; r += 7) {
      for (let q = 0; q < N / 2; q++) {
        const a = 3 * (r * (N + 1) + q), b = 3 * (r * (N + 1) + q + N / 2);
        expect(Math.hypot(nrm[a], nrm[a + 1], nrm[a + 2])).toBeCloseTo(1, 5);
        for (let c = 0; c < 3; c++) {
          expect(nrm[b + c]).toBeCloseTo(-nrm[a + c], 6);
          // The vertex sits at radius along its normal from the curve point.
          expect(pos[a + c]).toBeCloseTo(centres[3 * r + c] + L.ringRadius[r] * nrm[a + c], 5);
        }
      }
      // Consecutive vectors are 2π/N apart.
      const a = 3 * r * (N + 1), b = a + 3;
      const dot = nrm[a] * nrm[b] + nrm[a + 1] * nrm[b + 1] + nrm[a + 2] * nrm[b + 2];
      expect(dot).toBeCloseTo(Math.cos((2 * Math.PI) / N), 5);
    }
  });

  it("ring frames vary continuously along a branch: the first vectors never twist (Figure 4.5)", () => {
    const { s, tree, d } = bentTree(9, 0.5);
    const N = 8;
    const L = buildSkinLayout(s, tree, { sides: N, resolution: 4 });
    const pos = new Float32Array(3 * L.vertexCount), nrm = new Float32Array(3 * L.vertexCount);
    updateSkin(L, d.current, d.rotation, pos, nrm);
    // Per ring: first vector V (vertex 0's normal), W a quarter turn on (vertex N/4), tangent T = V × W.
    const frame = (r: number) => {
      const a = 3 * r * (N + 1), b = a + 3 * (N / 4);
      const V = [nrm[a], nrm[a + 1], nrm[a + 2]], W = [nrm[b], nrm[b + 1], nrm[b + 2]];
      return { V, W, T: cross(V, W) };
    };
    let pairs = 0, worstTwist = 0, worstTurn = 0;
    for (let r = 1; r < L.ringCount; r++) {
      if (L.ringStartsBranch[r]) continue;
      const f0 = frame(r - 1), f1 = frame(r);
      const turn = Math.acos(clamp(dot(f0.T, f1.T)));
      const change = Math.acos(clamp(dot(f0.V, f1.V)));
      // Rotation of V about the old tangent: what a twisting frame would show.
      const twist = Math.abs(Math.atan2(dot(f1.V, f0.W), dot(f1.V, f0.V)));
      expect(change).toBeLessThanOrEqual(turn + 1e-4); // V changes no more than the curve turns
      // and does not spin about it: carrying V over a turn φ (projection, Fig. 4.5) moves it toward
      // the old W by at most atan(½ tan² φ), second order in φ.
      expect(twist).toBeLessThanOrEqual(Math.atan(0.5 * Math.tan(turn) ** 2) + 1e-4);
      worstTwist = Math.max(worstTwist, twist);
      worstTurn = Math.max(worstTurn, turn);
      pairs++;
    }
    expect(pairs).toBeGreaterThan(100);
    expect(worstTurn).toBeGreaterThan(0.1); // the pose does bend the curves
    expect(worstTwist).toBeLessThan(worstTurn);
  });

  it("texture coordinates stay on the wood: a small bend moves every vertex little", () => {
    const s = grammarToSkeleton(DEMO, { seed: 1 });
    const tree = buildParticleTree(s, 0.003);
    const d = new ParticleDynamics(tree, { damping: 0.2, stiffness: 1, gravity: 0 });
    const L = buildSkinLayout(s, tree, { sides: 8, resolution: 3 });
    const rest = new Float32Array(3 * L.vertexCount), n = new Float32Array(3 * L.vertexCount);
    updateSkin(L, d.current, d.rotation, rest, n);
    const rng = new Rng(2);
    for (let i = 1; i < tree.count; i++) rotateQuat(d.rotation, 4 * i, rng.range(-0.01, 0.01), rng.range(-0.01, 0.01), rng.range(-0.01, 0.01));
    d.propagate();
    let moved = 0, tips = 0;
    for (let i = 0; i < d.current.length; i++) tips = Math.max(tips, Math.abs(d.current[i] - tree.rest[i]));
    const bent = new Float32Array(3 * L.vertexCount);
    updateSkin(L, d.current, d.rotation, bent, n);
    for (let i = 0; i < bent.length; i++) moved = Math.max(moved, Math.abs(bent[i] - rest[i]));
    // Vertices move about as far as the particles do, never by a twist of the ring around its branch.
    expect(moved).toBeLessThan(tips + 0.05 * 0.13);
  });
});

describe("leaves ride on their particles", () => {
  it("keep their shape and follow their particle", () => {
    const { s, tree, d } = bentTree(7, 0.3);
    const g = buildTreeGeometry(s);
    const leaves = g.leaves!;
    const ride = bindLeaves(s, tree, leaves.positions, leaves.normals);
    const pos = new Float32Array(leaves.positions.length), nrm = new Float32Array(leaves.normals.length);
    updateLeaves(ride, d.current, d.rotation, pos, nrm);
    for (let l = 0; l < s.leafCount; l += 5) {
      const v = 4 * l;
      // Edge lengths of the card are kept (a rigid motion).
      const edge = (a: Float32Array, i: number, j: number) => Math.hypot(a[3 * i] - a[3 * j], a[3 * i + 1] - a[3 * j + 1], a[3 * i + 2] - a[3 * j + 2]);
      expect(edge(pos, v, v + 1)).toBeCloseTo(edge(leaves.positions, v, v + 1), 5);
      expect(edge(pos, v, v + 2)).toBeCloseTo(edge(leaves.positions, v, v + 2), 5);
      // Its offset from its particle is the rest offset turned by the particle's rotation: same length.
      const p = ride.particle[v];
      const o = Math.hypot(pos[3 * v] - d.current[3 * p], pos[3 * v + 1] - d.current[3 * p + 1], pos[3 * v + 2] - d.current[3 * p + 2]);
      expect(o).toBeCloseTo(Math.hypot(ride.offset[3 * v], ride.offset[3 * v + 1], ride.offset[3 * v + 2]), 5);
    }
  });
});

function dot(a: number[], b: number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function clamp(x: number): number {
  return Math.min(1, Math.max(-1, x));
}
