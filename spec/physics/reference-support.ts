/** Test trees and helpers for the reference solver's specs (not a spec itself). */
import { materialOf, type PhysicalMaterial } from "../../app/physics/material";
import { SkeletonBuilder, type TreeSkeleton } from "../../app/tree/skeleton";

/** Oak with no leaf drag. */
export function testMaterial(): PhysicalMaterial {
  return { ...materialOf("oak"), leafDragArea: 0 };
}

/** One straight branch along +y from the origin, `nodes` nodes, radius linear from r1 to r2. */
export function cantilever(length: number, r1: number, r2: number, nodes: number): TreeSkeleton {
  const sb = new SkeletonBuilder();
  const b = sb.addBranch(-1, 0);
  for (let i = 0; i < nodes; i++) {
    const x = i / (nodes - 1);
    sb.addNode(b, 0, length * x, 0, r1 + (r2 - r1) * x);
  }
  return sb.build();
}

/** Solves the dense system A x = b (n x n, row-major) by Gaussian elimination with partial pivoting. */
export function denseSolve(A: Float64Array, b: Float64Array, n: number): Float64Array {
  const a = Float64Array.from(A), x = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r * n + c]) > Math.abs(a[p * n + c])) p = r;
    if (p !== c) {
      for (let k = 0; k < n; k++) { const t = a[c * n + k]; a[c * n + k] = a[p * n + k]; a[p * n + k] = t; }
      const t = x[c]; x[c] = x[p]; x[p] = t;
    }
    for (let r = c + 1; r < n; r++) {
      const m = a[r * n + c] / a[c * n + c];
      if (m === 0) continue;
      for (let k = c; k < n; k++) a[r * n + k] -= m * a[c * n + k];
      x[r] -= m * x[c];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = x[r];
    for (let k = r + 1; k < n; k++) s -= a[r * n + k] * x[k];
    x[r] = s / a[r * n + r];
  }
  return x;
}
