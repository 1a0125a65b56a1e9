import { BrickWorkError } from '../vocabulary/errors.ts';

/**
 * Line ends, counted the same everywhere (SPEC §11): CR, LF and CRLF are each one line end, so a file
 * saved with old Mac line ends (CR only) gets right line numbers too.
 */
const LINE_END = /\r\n?|\n/g;

/**
 * The line ends in `text` between `from` and `to`, and where the line after the last of them starts
 * (`from` when there is none). A CR just before `to` counts, even when its LF is at `to`.
 */
export function countLineEnds(text: string, from: number, to: number): { count: number; lineStart: number } {
  // Only the span is searched: the CSV parser counts span after span, which must stay linear.
  const span = from === 0 && to >= text.length ? text : text.slice(from, to);
  let count = 0;
  let lineStart = from;
  LINE_END.lastIndex = 0;
  for (let m = LINE_END.exec(span); m !== null; m = LINE_END.exec(span)) {
    count += 1;
    lineStart = from + m.index + m[0].length;
  }
  return { count, lineStart };
}

/** Line and column (both from 1) of a character offset in `text`. Computed only when an error needs it. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const { count, lineStart } = countLineEnds(text, 0, offset);
  return { line: count + 1, column: offset - lineStart + 1 };
}

/** A `parse-error` that names the file, the line and the column, and says what is wrong in plain words. */
export function parseErrorAt(fileName: string, line: number, column: number, problem: string): BrickWorkError {
  return new BrickWorkError('parse-error', `${fileName}, line ${line}, column ${column}: ${problem}`);
}

export function parseError(fileName: string, problem: string): BrickWorkError {
  return new BrickWorkError('parse-error', `${fileName}: ${problem}`);
}

/** Line numbers of offsets in one text, each found by binary search over where its lines start. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  LINE_END.lastIndex = 0;
  for (let m = LINE_END.exec(text); m !== null; m = LINE_END.exec(text)) starts.push(m.index + m[0].length);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
