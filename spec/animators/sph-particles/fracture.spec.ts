/**
 * Akagi and Kitajima §3 (Figs. 3-4, eq. 11): a broken branch's ends. The three layers from the
 * centre, fibres at each layer's density, a Delaunay triangulation that covers the section, eq. 11's
 * side curve (its depth proportional to the brittleness α, its shape s²), both ends fitting
 * together, and the same mesh for the same seed.
 */
import { BARK, CORE, DEFAULT_LAYERS, LAYER_COLOUR, WOOD, buildFracture, layerBounds, sideCurveDrop, startAngleFor, type FractureSpec } from "../../../app/animators/sph-particles/fracture";
import { Rng } from "../../../app/math/rng";

const R = 0.05, L = 0.25;

function spec(patch: Partial<FractureSpec> = {}): FractureSpec {
  return { radius: R, axisLength: L, brittleness: 0.4, startAngle: 0, layers: DEFAULT_LAYERS, origin: [0, 0, 0], axis: [0, 0, 1], reference: [1, 0, 0], ...patch };
}

describe("fracture (§3)", () => {
  it("(a) puts the layers in order from the centre: core, wood, bark", () => {
    const b = layerBounds(DEFAULT_LAYERS);
    expect(b[0]).toBeCloseTo(0.1, 12);
    expect(b[1]).toBeCloseTo(0.85, 12);
    expect(b[2]).toBe(1);
    const f = buildFracture(spec(), new Rng(1));
    // Every triangle's centre lies in its layer's annulus, and all three layers are there.
    const bounds = [0, ...b].map((x) => x * R);
    const seen = new Set<number>();
    for (let k = 0; k < f.triangleLayer.length; k++) {
      const l = f.triangleLayer[k];
      seen.add(l);
      let cx = 0, cy = 0;
      for (let j = 0; j < 3; j++) {
        cx += f.points[2 * f.triangles[3 * k + j]] / 3;
        cy += f.points[2 * f.triangles[3 * k + j] + 1] / 3;
      }
      const rho = Math.hypot(cx, cy);
      expect(rho).toBeGreaterThanOrEqual(bounds[l] - 1e-12);
      expect(rho).toBeLessThan(bounds[l + 1] + 1e-12);
    }
    expect([...seen].sort()).toEqual([CORE, WOOD, BARK]);
    // Bark, then wood, then core by distance from the axis: the mean radius of each layer's fibres rises outward.
    const mean = [0, 0, 0], n = [0, 0, 0];
    for (let i = 0; i < f.scattered; i++) {
      mean[f.pointLayer[i]] += Math.hypot(f.points[2 * i], f.points[2 * i + 1]);
      n[f.pointLayer[i]]++;
    }
    expect(mean[CORE] / n[CORE]).toBeLessThan(mean[WOOD] / n[WOOD]);
    expect(mean[WOOD] / n[WOOD]).toBeLessThan(mean[BARK] / n[BARK]);
  });

  it("(b) scatters fibres in each layer at its density, and leaves a cavity where the density is 0", () => {
    const layers = { core: 0.3, wood: 0.5, bark: 0.2, coreDensity: 30, woodDensity: 60, barkDensity: 150 };
    const f = buildFracture(spec({ layers }), new Rng(7));
    const b = layerBounds(layers), density = [30, 60, 150];
    let inner = 0;
    for (const l of [CORE, WOOD, BARK]) {
      // Points per unit area of the radius-1 section, counted where they landed.
      let count = 0;
      for (let i = 0; i < f.scattered; i++) {
        const rho = Math.hypot(f.points[2 * i], f.points[2 * i + 1]) / R;
        if (rho >= inner && rho < b[l]) count++;
        if (f.pointLayer[i] === l) expect(rho >= inner - 1e-12 && rho <= b[l] + 1e-12).toBe(true);
      }
      const area = Math.PI * (b[l] ** 2 - inner ** 2);
      expect(Math.abs(count / area - density[l]) * area).toBeLessThanOrEqual(0.5 + 1e-9);
      inner = b[l];
    }
    // A hollow core (the paper's bamboo): no fibres, no triangles, a hole of the core's area.
    const hollow = buildFracture(spec({ layers: { ...layers, coreDensity: 0 } }), new Rng(7));
    expect(hollow.triangleLayer.includes(CORE)).toBe(false);
    for (let i = 0; i < hollow.scattered; i++) expect(hollow.pointLayer[i]).not.toBe(CORE);
    const hole = Math.PI * (0.3 * R) ** 2;
    expect(Math.abs(f.area - hollow.area - hole) / hole).toBeLessThan(0.1);
  });

  it("(c) triangulates the whole section: the triangles cover π r² within 1 %", () => {
    for (const seed of [1, 2, 3]) {
      const f = buildFracture(spec(), new Rng(seed));
      expect(Math.abs(f.area / (Math.PI * R * R) - 1)).toBeLessThan(0.01);
      // Every triangle counter-clockwise and none degenerate to nothing.
      for (let k = 0; k < f.triangles.length / 3; k++) {
        const [a, b, c] = [f.triangles[3 * k], f.triangles[3 * k + 1], f.triangles[3 * k + 2]];
        const cross = (f.points[2 * b] - f.points[2 * a]) * (f.points[2 * c + 1] - f.points[2 * a + 1]) - (f.points[2 * c] - f.points[2 * a]) * (f.points[2 * b + 1] - f.points[2 * a + 1]);
        expect(cross).toBeGreaterThan(0);
      }
    }
  });

  it("eq. 11: the side curve drops as s² from the break's start to L α on the far side", () => {
    const x0 = R, y0 = 0; // the break starts at +x
    const F = (x: number, y: number, alpha = 0.4) => sideCurveDrop(x, y, x0, y0, R, L, alpha);
    expect(F(x0, y0)).toBe(0);
    expect(F(-R, 0)).toBeCloseTo(L * 0.4, 12); // the far side: the bottom
    expect(F(0, 0)).toBeCloseTo(L * 0.4 * 0.25, 12); // the axis: s = 1/2
    // Along the break's run, s = (1 - x / r) / 2, F = L α s²: flat at the start, steepest at the far side.
    let prev = -1, prevSlope = -1;
    for (let i = 0; i <= 20; i++) {
      const x = R - (2 * R * i) / 20, s = (1 - x / R) / 2;
      expect(F(x, 0)).toBeCloseTo(L * 0.4 * s * s, 12);
      expect(F(x, 0)).toBeGreaterThan(prev);
      if (i > 0) {
        const slope = F(x, 0) - prev;
        expect(slope).toBeGreaterThan(prevSlope);
        prevSlope = slope;
      }
      prev = F(x, 0);
    }
    // Across the run it is level: the same s, the same drop (a chord normal to C - x₀).
    expect(F(0, 0.6 * R)).toBeCloseTo(F(0, -0.6 * R), 12);
    expect(F(0, 0.6 * R)).toBeCloseTo(F(0, 0), 12);
    // Brittleness scales the depth, not the shape: a brittle α drops further, α = 0 is a flat cut.
    expect(F(-R, 0, 0.8)).toBeCloseTo(2 * F(-R, 0, 0.4), 12);
    expect(F(-R, 0, 0)).toBe(0);
  });

  it("(d) raises the triangles into poles on eq. 11's curve: their tops fall across the section by L α", () => {
    const depth = (alpha: number) => {
      const f = buildFracture(spec({ brittleness: alpha }), new Rng(3));
      // Least squares of the pole tops against s² at their centres: the slope is -L α (the fibres' own lengths average out).
      let sx = 0, sy = 0, sxx = 0, sxy = 0;
      const n = f.poleTop.length;
      for (let k = 0; k < n; k++) {
        let cx = 0;
        for (let j = 0; j < 3; j++) cx += f.points[2 * f.triangles[3 * k + j]] / 3;
        const s2 = ((1 - cx / R) / 2) ** 2;
        sx += s2; sy += f.poleTop[k]; sxx += s2 * s2; sxy += s2 * f.poleTop[k];
      }
      return -(n * sxy - sx * sy) / (n * sxx - sx * sx);
    };
    expect(Math.abs(depth(0.4) - L * 0.4)).toBeLessThan(0.05 * L * 0.4);
    expect(Math.abs(depth(0.8) - L * 0.8)).toBeLessThan(0.05 * L * 0.8);
    expect(Math.abs(depth(0))).toBeLessThan(0.2 * R); // a flat cut: the fibres' lengths alone
  });

  it("makes both ends from the one surface: the stump faces the piece, the piece the stump, and they fit", () => {
    const f = buildFracture(spec(), new Rng(5));
    const caps = f.triangles.length; // the first triangles.length vertices of each end are the caps
    for (let v = 0; v < caps; v++) {
      expect(f.stump.normals[3 * v + 2]).toBe(1);
      expect(f.piece.normals[3 * v + 2]).toBe(-1);
      for (let c = 0; c < 3; c++) expect(f.piece.positions[3 * v + c]).toBe(f.stump.positions[3 * v + c]);
    }
    for (const end of [f.stump, f.piece]) {
      // Triangles counter-clockwise about their vertices' normal, normals unit, every index in range.
      const P = end.positions, N = end.normals, nv = P.length / 3;
      for (let i = 0; i < end.indices.length; i += 3) {
        const [a, b, c] = [end.indices[i], end.indices[i + 1], end.indices[i + 2]];
        expect(Math.max(a, b, c)).toBeLessThan(nv);
        const ux = P[3 * b] - P[3 * a], uy = P[3 * b + 1] - P[3 * a + 1], uz = P[3 * b + 2] - P[3 * a + 2];
        const wx = P[3 * c] - P[3 * a], wy = P[3 * c + 1] - P[3 * a + 1], wz = P[3 * c + 2] - P[3 * a + 2];
        const cx = uy * wz - uz * wy, cy = uz * wx - ux * wz, cz = ux * wy - uy * wx;
        expect(cx * N[3 * a] + cy * N[3 * a + 1] + cz * N[3 * a + 2]).toBeGreaterThanOrEqual(0);
        expect(Math.hypot(N[3 * a], N[3 * a + 1], N[3 * a + 2])).toBeCloseTo(1, 5);
      }
      // Bark and wood coloured as such: each vertex's colour is its layer's (within the fibres' variation).
      for (let v = 0; v < nv; v++) {
        const col = LAYER_COLOUR[end.layer[v]];
        for (let c = 0; c < 3; c++) expect(Math.abs(end.colors[4 * v + c] - col[c])).toBeLessThanOrEqual(0.09 * col[c] + 1e-6);
      }
      // The outline's walls are bark.
      expect(end.layer.includes(BARK) && end.layer.includes(WOOD)).toBe(true);
    }
    // The stump reaches down at least half the axis link, the piece up as far (the walls close the bark's gap).
    const zs = (P: Float32Array) => Array.from({ length: P.length / 3 }, (_, v) => P[3 * v + 2]);
    expect(Math.min(...zs(f.stump.positions))).toBeLessThanOrEqual(-L / 2 + 1e-6);
    expect(Math.max(...zs(f.piece.positions))).toBeGreaterThanOrEqual(L / 2 - 1e-6);
  });

  it("places the section in the break's frame", () => {
    const local = buildFracture(spec(), new Rng(9));
    const s = Math.SQRT1_2;
    const moved = buildFracture(spec({ origin: [1, 2, 3], axis: [0, 2, 0], reference: [s, 0, s] }), new Rng(9));
    // e₁ = (s, 0, s), e₃ = (0, 1, 0), e₂ = e₃ × e₁ = (s, 0, -s).
    for (let v = 0; v < local.stump.positions.length / 3; v += 17) {
      const [x, y, z] = [local.stump.positions[3 * v], local.stump.positions[3 * v + 1], local.stump.positions[3 * v + 2]];
      expect(moved.stump.positions[3 * v]).toBeCloseTo(1 + s * x + s * y, 5);
      expect(moved.stump.positions[3 * v + 1]).toBeCloseTo(2 + z, 5);
      expect(moved.stump.positions[3 * v + 2]).toBeCloseTo(3 + s * x - s * y, 5);
    }
  });

  it("is the same for the same seed and differs for another", () => {
    const a = buildFracture(spec(), new Rng(11)), b = buildFracture(spec(), new Rng(11)), c = buildFracture(spec(), new Rng(12));
    expect(b.stump.positions).toEqual(a.stump.positions);
    expect(b.piece.indices).toEqual(a.piece.indices);
    expect(b.stump.colors).toEqual(a.stump.colors);
    expect(c.stump.positions).not.toEqual(a.stump.positions);
  });

  it("starts the break on the tension side, opposite the bend", () => {
    expect(Math.cos(startAngleFor(1, 0, 0.3))).toBeCloseTo(-1, 12);
    expect(startAngleFor(0, 1, 0.3)).toBeCloseTo(-Math.PI / 2, 12);
    expect(startAngleFor(0, 0, 0.3)).toBe(0.3);
  });

  it("refuses a section without a radius or a layer thickness", () => {
    expect(() => buildFracture(spec({ radius: 0 }), new Rng(1))).toThrow(RangeError);
    expect(() => buildFracture(spec({ brittleness: -1 }), new Rng(1))).toThrow(RangeError);
    expect(() => buildFracture(spec({ layers: { ...DEFAULT_LAYERS, core: 0, wood: 0, bark: 0 } }), new Rng(1))).toThrow(RangeError);
  });
});
