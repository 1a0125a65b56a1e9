import { countLineEnds, parseErrorAt } from './position.ts';

export type CsvDelimiter = ',' | ';' | '\t';

export interface CsvTable {
  readonly delimiter: CsvDelimiter;
  readonly header: readonly string[];
  /** The data rows, each with the line it starts on (for messages). */
  readonly rows: readonly { readonly line: number; readonly cells: readonly string[] }[];
}

/** The delimiter of a header line: whichever of comma, semicolon and tab it holds most, outside quotes. */
export function detectDelimiter(headerLine: string): CsvDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch] += 1;
  }
  if (counts['\t'] >= counts[','] && counts['\t'] >= counts[';'] && counts['\t'] > 0) return '\t';
  return counts[';'] > counts[','] ? ';' : ',';
}

export interface CsvOptions {
  readonly delimiter?: CsvDelimiter;
  /**
   * At most this many data rows: past it the parser stops at once and throws what `refuse` makes of the
   * row count and the text line that row starts on, so a huge file is never held whole.
   */
  readonly rowLimit?: { readonly max: number; readonly refuse: (rows: number, line: number) => Error };
  /** Told of each data row as it is read (the count, and how far into the text): a long read's progress; it may throw to stop. */
  readonly onRow?: (rows: number, offset: number) => void;
  /**
   * The header, when the text is a later part of a file whose first row it is: every row of the text is
   * then data, and `firstLine` is the file's line the text starts on (for messages).
   */
  readonly continues?: { readonly header: readonly string[]; readonly firstLine: number };
}

/**
 * Parses delimited text with a header row (RFC 4180 quoting: `"a ""b"", c"`; CRLF, LF or CR; a leading
 * BOM is dropped). Blank lines are skipped. An unclosed quote is a parse error with its line and column.
 */
export function parseCsv(text: string, fileName: string, options: CsvOptions = {}): CsvTable {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLineEnd = src.search(/[\r\n]/);
  const delim = options.delimiter ?? detectDelimiter(firstLineEnd === -1 ? src : src.slice(0, firstLineEnd));
  const d = delim.charCodeAt(0);
  const rows: { line: number; cells: string[] }[] = [];
  // Rows before the data: the header, unless the text continues a file whose header is given.
  const before = options.continues === undefined ? 1 : 0;
  let cells: string[] = [];
  let line = options.continues?.firstLine ?? 1;
  let lineStart = 0;
  let rowLine = line;
  let i = 0;
  const n = src.length;
  const limit = options.rowLimit;
  const endRow = () => {
    if (!(cells.length === 1 && cells[0] === '')) {
      rows.push({ line: rowLine, cells });
      // The first row is the header (unless given), so data rows are one fewer.
      if (limit !== undefined && rows.length - before > limit.max) throw limit.refuse(rows.length - before, rowLine);
      if (rows.length > before) options.onRow?.(rows.length - before, i);
    }
    cells = [];
  };
  // Where the next quote, CR and LF are, found once and moved on only when passed (no rescans): a row
  // with no quote and no lone CR, the common case, is split whole; other rows field by field, each
  // found with indexOf rather than read character by character.
  let nextQuote = src.indexOf('"');
  let nextCr = src.indexOf('\r');
  let nextLf = src.indexOf('\n');
  /** Where the line holding `from` ends (its CR or LF), or the text's end. */
  const lineEndFrom = (from: number): number => {
    if (nextCr !== -1 && nextCr < from) nextCr = src.indexOf('\r', from);
    if (nextLf !== -1 && nextLf < from) nextLf = src.indexOf('\n', from);
    const cr = nextCr === -1 ? n : nextCr;
    const lf = nextLf === -1 ? n : nextLf;
    return cr < lf ? cr : lf;
  };
  /** The end of an unquoted stretch from `from`: the next delimiter or line end. */
  const fieldEnd = (from: number): number => {
    const lineEnd = lineEndFrom(from);
    const at = src.indexOf(delim, from);
    return at === -1 || at > lineEnd ? lineEnd : at;
  };
  while (i <= n) {
    if (i === n) {
      if (cells.length > 0) endRow();
      break;
    }
    if (cells.length === 0) {
      if (nextQuote !== -1 && nextQuote < i) nextQuote = src.indexOf('"', i);
      lineEndFrom(i); // moves nextCr and nextLf on to this line
      const lf = nextLf;
      const end = lf === -1 ? n : lf;
      // A CR just before the LF is a CRLF line end; any other CR ends a line of its own (the slow path).
      const crlf = lf !== -1 && nextCr === lf - 1 && nextCr >= i;
      if ((nextQuote === -1 || nextQuote > end) && (nextCr === -1 || nextCr > end || crlf)) {
        cells = src.slice(i, crlf ? end - 1 : end).split(delim);
        i = end === n ? n : end + 1;
        endRow();
        if (end !== n) {
          line += 1;
          lineStart = i;
          rowLine = line;
        }
        continue;
      }
    }
    if (src.charCodeAt(i) === 34 /* " */) {
      const startLine = line;
      const startCol = i - lineStart + 1;
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = src.indexOf('"', j);
        if (q === -1) throw parseErrorAt(fileName, startLine, startCol, 'a quoted field is never closed');
        // Line ends inside the quotes are counted only when there are some (most quoted fields have none).
        if (lineEndFrom(j) < q) {
          const ends = countLineEnds(src, j, q);
          line += ends.count;
          lineStart = ends.lineStart;
        }
        value += src.slice(j, q);
        if (src.charCodeAt(q + 1) === 34) {
          value += '"';
          j = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      // Anything between the closing quote and the delimiter is kept, as spreadsheets do.
      const end = fieldEnd(i);
      cells.push(end === i ? value : value + src.slice(i, end));
      i = end;
    } else {
      const end = fieldEnd(i);
      cells.push(src.slice(i, end));
      i = end;
    }
    const c = src.charCodeAt(i);
    if (c === d) {
      i += 1;
      if (i === n) cells.push('');
    } else if (c === 13 || c === 10) {
      i += c === 13 && src.charCodeAt(i + 1) === 10 ? 2 : 1;
      endRow();
      line += 1;
      lineStart = i;
      rowLine = line;
    }
  }
  if (options.continues !== undefined) return { delimiter: delim, header: options.continues.header, rows };
  const [header, ...data] = rows;
  return { delimiter: delim, header: (header?.cells ?? []).map((h) => h.trim()), rows: data };
}
