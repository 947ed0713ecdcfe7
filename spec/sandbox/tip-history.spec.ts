import { TipHistory } from "../../app/sandbox/tip-history";

describe("TipHistory", () => {
  it("keeps the last `capacity` steps, oldest first, split along and across the wind", () => {
    const h = new TipHistory(4);
    const dir = [Math.cos(Math.PI / 2), Math.sin(Math.PI / 2)]; // wind toward +z
    for (let i = 1; i <= 6; i++) h.push(0.1 * i, i, dir[0], dir[1]);
    expect(h.length).toBe(4);
    const a = new Float64Array(4), c = new Float64Array(4);
    expect(h.read(a, c)).toBe(4);
    expect(Array.from(a)).toEqual([3, 4, 5, 6].map((i) => expect.closeTo(i, 6)));
    // across = -dx dirZ + dz dirX: the tip's x, negated, for a wind toward +z
    expect(Array.from(c)).toEqual([3, 4, 5, 6].map((i) => expect.closeTo(-0.1 * i, 6)));
    h.clear();
    expect(h.length).toBe(0);
  });
});
