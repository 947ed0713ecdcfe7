import { makeBarkTexture, makeLeafTexture, type TextureData } from "../../app/tree/textures";

const px = (t: TextureData, x: number, y: number) => Array.from(t.data.subarray(4 * (y * t.width + x), 4 * (y * t.width + x) + 4));
const diff = (a: number[], b: number[]) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);

describe("procedural textures", () => {
  const bark = makeBarkTexture(128, 3);
  const leaf = makeLeafTexture(128, 3);

  it("are RGBA of the asked size", () => {
    expect([bark.width, bark.height, bark.data.length]).toEqual([128, 128, 128 * 128 * 4]);
    expect([leaf.width, leaf.height, leaf.data.length]).toEqual([128, 128, 128 * 128 * 4]);
    const d = makeBarkTexture();
    expect([d.width, makeLeafTexture().width]).toEqual([256, 128]);
  });

  it("are deterministic from the seed", () => {
    expect(makeBarkTexture(128, 3).data).toEqual(bark.data);
    expect(makeLeafTexture(128, 3).data).toEqual(leaf.data);
    expect(makeBarkTexture(128, 4).data).not.toEqual(bark.data);
    expect(makeLeafTexture(128, 4).data).not.toEqual(leaf.data);
  });

  it("bark: opaque, grey-brown (r >= g >= b on average)", () => {
    let r = 0, g = 0, b = 0;
    for (let i = 0; i < bark.data.length; i += 4) {
      expect(bark.data[i + 3]).toBe(255);
      r += bark.data[i]; g += bark.data[i + 1]; b += bark.data[i + 2];
    }
    expect(r).toBeGreaterThanOrEqual(g);
    expect(g).toBeGreaterThanOrEqual(b);
  });

  it("bark tiles in u and v: the edge columns and rows are as continuous as neighbouring ones inside", () => {
    // Across the seam the texture should look like two neighbouring texels, not like two
    // unrelated ones (half the texture apart), which is what a seam would look like.
    for (const t of [bark, makeBarkTexture(256, 11)]) {
      const w = t.width, h = t.height;
      let colSeam = 0, colIn = 0, colFar = 0, rowSeam = 0, rowIn = 0, rowFar = 0;
      for (let y = 0; y < h; y++) {
        colSeam += diff(px(t, w - 1, y), px(t, 0, y));
        for (let x = 0; x < w - 1; x++) colIn += diff(px(t, x, y), px(t, x + 1, y)) / (w - 1);
        for (let x = 0; x < w; x++) colFar += diff(px(t, x, y), px(t, (x + w / 2) % w, y)) / w;
      }
      for (let x = 0; x < w; x++) {
        rowSeam += diff(px(t, x, h - 1), px(t, x, 0));
        for (let y = 0; y < h - 1; y++) rowIn += diff(px(t, x, y), px(t, x, y + 1)) / (h - 1);
        for (let y = 0; y < h; y++) rowFar += diff(px(t, x, y), px(t, x, (y + h / 2) % h)) / h;
      }
      expect(colSeam).toBeLessThan(2 * colIn);
      expect(colSeam).toBeLessThan(0.6 * colFar);
      expect(rowSeam).toBeLessThan(2 * rowIn);
      expect(rowSeam).toBeLessThan(0.3 * rowFar);
    }
  });

  it("leaf: transparent corners, opaque centre, petiole at the bottom centre (row 0 = v = 0), alpha 0 or 255", () => {
    const n = leaf.width;
    for (const [x, y] of [[0, 0], [n - 1, 0], [0, n - 1], [n - 1, n - 1]]) expect(px(leaf, x, y)[3]).toBe(0);
    expect(px(leaf, n / 2, n / 2)[3]).toBe(255);
    expect(px(leaf, n / 2 - 1, 1)[3] + px(leaf, n / 2, 1)[3]).toBeGreaterThan(0); // the stalk
    expect(px(leaf, n / 4, 2)[3]).toBe(0); // beside the stalk
    expect(px(leaf, n / 2, n - 1)[3]).toBe(0); // above the tip
    let opaque = 0;
    for (let i = 3; i < leaf.data.length; i += 4) {
      expect(leaf.data[i] === 0 || leaf.data[i] === 255).toBe(true);
      if (leaf.data[i] === 255) opaque++;
    }
    // An ovate blade fills a good part of the card but not all of it.
    expect(opaque / (n * n)).toBeGreaterThan(0.35);
    expect(opaque / (n * n)).toBeLessThan(0.75);
  });

  it("leaf: green inside", () => {
    let r = 0, g = 0, b = 0;
    for (let i = 0; i < leaf.data.length; i += 4) if (leaf.data[i + 3]) { r += leaf.data[i]; g += leaf.data[i + 1]; b += leaf.data[i + 2]; }
    expect(g).toBeGreaterThan(1.4 * r);
    expect(g).toBeGreaterThan(2 * b);
  });
});
