/**
 * Where each of 1 to 4 compare views goes on the canvas: a grid of equal cells
 * to the right of the panel, chosen so the tree in each cell is as large as it can be. No Babylon
 * imports: the sandbox turns the cells into camera viewports.
 */

/** A cell in canvas pixels, y down from the top. */
export interface ViewCell {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A tree framed by Environment.frame fills a cell about this wide for its height. */
const TREE_ASPECT = 0.8;
export const MAX_VIEWS = 4;

/**
 * Cells for `n` views in a `width` x `height` canvas whose left `inset` pixels are covered (the
 * panel). The grid (columns x rows) is the one where a tree of TREE_ASPECT fits largest; ties go
 * to fewer rows. Cells fill row by row, left to right.
 */
export function compareCells(n: number, width: number, height: number, inset = 0): ViewCell[] {
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_VIEWS)) throw new RangeError(`a comparison shows 1 to ${MAX_VIEWS} views; got ${n}`);
  const left = Math.min(Math.max(0, inset), width * 0.5);
  const w = Math.max(1, width - left), h = Math.max(1, height);
  let best = { cols: n, rows: 1, size: -1 };
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    // The height of the largest tree the cell holds: limited by its height and by its width.
    const size = Math.min(h / rows, w / cols / TREE_ASPECT);
    if (size > best.size * 1.0001) best = { cols, rows, size };
  }
  const cw = w / best.cols, ch = h / best.rows;
  const cells: ViewCell[] = [];
  for (let i = 0; i < n; i++) {
    const c = i % best.cols, r = Math.floor(i / best.cols);
    cells.push({ x: left + c * cw, y: r * ch, width: cw, height: ch });
  }
  return cells;
}

/** The index of the cell holding canvas point (x, y), or -1. */
export function cellAt(cells: readonly ViewCell[], x: number, y: number): number {
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (x >= c.x && x < c.x + c.width && y >= c.y && y < c.y + c.height) return i;
  }
  return -1;
}
