/**
 * Errors in a grammar or its derivation, located in the grammar's text where a place is known:
 * the message reads `oak.lsys:12:7: expected ')' after parameter list`.
 */
export class LSystemError extends Error {
  override readonly name = "LSystemError";

  /**
   * @param reason what went wrong, without the location prefix
   * @param line 1-based line, 0 when the error has no place in the text
   * @param column 1-based column, 0 when the error has no place in the text
   */
  constructor(
    readonly reason: string,
    readonly fileName: string,
    readonly line = 0,
    readonly column = 0,
  ) {
    super(line > 0 ? `${fileName}:${line}:${column}: ${reason}` : `${fileName}: ${reason}`);
  }
}

/** Maps character offsets of a text to 1-based line and column. */
export class SourceMap {
  private readonly lineStarts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  locate(pos: number): { line: number; column: number } {
    let lo = 0, hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: pos - this.lineStarts[lo] + 1 };
  }
}
