import { BrickWorkError } from '../errors.ts';

/** Line and column (both from 1) of a character offset in `text`. Computed only when an error needs it. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
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
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
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
