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

  it("tiles the area without overlap or gaps: the cells' areas add up and each point is in one cell", () => {
    for (let n = 1; n <= MAX_VIEWS; n++) {
      for (const [w, h, inset] of [[1280, 720, 300], [1024, 540, 300], [800, 1000, 0], [3000, 500, 300]]) {
        const cells = compareCells(n, w, h, inset);
        expect(cells).toHaveLength(n);
        const cols = new Set(cells.map((c) => c.x)).size, rows = new Set(cells.map((c) => c.y)).size;
        // Every grid cell but the unused ones of the last row is a view.
        expect(cols * rows - n).toBeLessThan(cols);
        for (const c of cells) {
          expect(c.x).toBeGreaterThanOrEqual(inset);
          expect(c.x + c.width).toBeLessThanOrEqual(w + 1e-9);
          expect(c.y + c.height).toBeLessThanOrEqual(h + 1e-9);
          expect(cellAt(cells, c.x + c.width / 2, c.y + c.height / 2)).toBe(cells.indexOf(c));
        }
        expect(cellAt(cells, inset - 1, 10)).toBe(-1);
      }
    }
  });

  it("refuses 0 or 5 views with a message", () => {
    expect(() => compareCells(0, 100, 100)).toThrow(/1 to 4 views; got 0/);
    expect(() => compareCells(5, 100, 100)).toThrow(/1 to 4 views; got 5/);
  });
});
