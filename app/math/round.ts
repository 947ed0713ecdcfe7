/** Rounds to 3 decimals: figures the API reports (metres, milliseconds) without float noise. */
export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
