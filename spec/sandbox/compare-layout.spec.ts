import { cellAt, compareCells, MAX_VIEWS } from "../../app/sandbox/compare-layout";

describe("compare views' layout", () => {
  it("one view fills the area right of the inset", () => {
    expect(compareCells(1, 1280, 720, 300)).toEqual([{ x: 300, y: 0, width: 980, height: 720 }]);
  });

  it("puts views side by side on a wide canvas and in a 2 x 2 grid on a squarer one", () => {
    const wide = compareCells(2, 1920, 600, 0);
    expect(wide.map((c) => [c.x, c.y])).toEqual([[0, 0], [960, 0]]);
    const three = compareCells(3, 1280, 640, 300);
    expect(three.map((c) => c.y)).toEqual([0, 0, 0]); // 327 px wide cells hold a 409 px tree, 2 x 2 only 320
    const four = compareCells(4, 1280, 720, 300);
    expect(four.map((c) => [Math.round(c.x), c.y])).toEqual([[300, 0], [790, 0], [300, 360], [790, 360]]);
    const tall = compareCells(2, 600, 1200, 0);
    expect(tall.map((c) => [c.x, c.y])).toEqual([[0, 0], [0, 600]]);
  });

  it("tiles the area without overlap or gaps: no two cells share area, and every point of the area is in one cell or in the unused end of the last row", () => {
    for (let n = 1; n <= MAX_VIEWS; n++) {
      for (const [w, h, inset] of [[1280, 720, 300], [1024, 540, 300], [800, 1000, 0], [3000, 500, 300], [500, 900, 400]]) {
        const cells = compareCells(n, w, h, inset);
        const where = `${n} views on ${w} x ${h}, inset ${inset}`;
        expect(cells).toHaveLength(n);
        const left = Math.min(inset, w / 2);
        // Overlap: the intersection of every pair has no area.
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < n; j++) {
            const a = cells[i], b = cells[j];
            const ox = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
            const oy = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
            expect({ where, i, j, overlap: ox > 1e-9 && oy > 1e-9 ? ox * oy : 0 }).toEqual({ where, i, j, overlap: 0 });
          }
        }
        // Gaps: a fine grid of points over the area right of the inset. Each is in exactly one cell,
        // except in the last row to the right of the last view (the grid's unused slots).
        const last = cells[n - 1];
        let uncovered = 0;
        const bad: string[] = [];
        for (let gx = 0.5; gx < 200; gx++) {
          for (let gy = 0.5; gy < 120; gy++) {
            const x = left + ((w - left) * gx) / 200, y = (h * gy) / 120;
            let holders = 0;
            for (const c of cells) if (x >= c.x && x < c.x + c.width && y >= c.y && y < c.y + c.height) holders++;
            if (holders > 1) bad.push(`(${x}, ${y}) is in ${holders} cells`);
            if (holders === 0) {
              uncovered++;
              if (!(y >= last.y && x >= last.x + last.width)) bad.push(`(${x}, ${y}) is in no cell`);
            }
          }
        }
        expect({ where, bad: bad.slice(0, 3) }).toEqual({ where, bad: [] });
        // The area adds up: the views plus the unused slots (each a view's size) are the whole.
        const cols = new Set(cells.map((c) => c.x)).size, rows = new Set(cells.map((c) => c.y)).size;
        const unused = cols * rows - n;
        expect(unused).toBeLessThan(cols);
        const areas = cells.reduce((sum, c) => sum + c.width * c.height, 0) + unused * last.width * last.height;
        expect(areas).toBeCloseTo((w - left) * h, 3);
        if (unused === 0) expect(uncovered).toBe(0);
        expect(cellAt(cells, left - 1, 10)).toBe(-1);
      }
    }
  });

  it("refuses 0 or 5 views with a message", () => {
    expect(() => compareCells(0, 100, 100)).toThrow(/1 to 4 views; got 0/);
    expect(() => compareCells(5, 100, 100)).toThrow(/1 to 4 views; got 5/);
  });
});
