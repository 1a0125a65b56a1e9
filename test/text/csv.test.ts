import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/text/csv.ts';

/**
 * The rules of `parseCsv`, read one character at a time (as the parser did before it split plain rows
 * whole): quoted fields with "" for a quote and line ends inside, text after a closing quote kept,
 * CRLF, LF or CR line ends, blank lines skipped, a trailing delimiter at the end giving an empty cell.
 */
function reference(text: string, delim: string) {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let rowLine = 1;
  let quoted = false;
  let inField = false; // the row has begun (a cell, a delimiter or a quote)
  let atFieldStart = true;
  const endRow = () => {
    if (inField || cells.length > 0) cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '') && cells.length > 0) rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
    inField = false;
    atFieldStart = true;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line += 1;
        cell += c;
      }
    } else if (c === '"' && atFieldStart) {
      quoted = true;
      inField = true;
      atFieldStart = false;
    } else if (c === delim) {
      cells.push(cell);
      cell = '';
      inField = true;
      atFieldStart = true;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      endRow();
      line += 1;
      rowLine = line;
    } else {
      cell += c;
      inField = true;
      atFieldStart = false;
    }
  }
  if (inField || cells.length > 0 || cell !== '') endRow();
  return rows;
}

describe('parseCsv', () => {
  it('reads every mix of plain and quoted rows, CRLF, LF and CR line ends as the rules say', () => {
    const field = fc.oneof(
      fc.stringMatching(/^[a-z0-9 ]{0,4}$/),
      fc.stringMatching(/^[a-z,;\r\n" ]{0,5}$/).map((s) => `"${s.replace(/"/g, '""')}"`),
      // Text after a closing quote, and a quote inside an unquoted field: both kept as they stand.
      fc
        .tuple(fc.stringMatching(/^[a-z,\n ]{0,3}$/), fc.stringMatching(/^[a-z ]{1,3}$/))
        .map(([q, after]) => `"${q}"${after}`),
      fc.stringMatching(/^[a-z]{1,2}"[a-z ]{0,2}$/),
    );
    const row = fc.array(field, { minLength: 1, maxLength: 4 });
    const end = fc.constantFrom('\n', '\r\n', '\r');
    const doc = fc.tuple(fc.array(fc.tuple(row, end), { minLength: 1, maxLength: 8 }), fc.boolean());
    fc.assert(
      fc.property(doc, ([rows, trailing]) => {
        const text =
          'h1,h2\n' +
          rows.map(([cells, e], i) => cells.join(',') + (i < rows.length - 1 || trailing ? e : '')).join('');
        const parsed = parseCsv(text, 'x.csv', { delimiter: ',' });
        const expected = reference(text, ',');
        expect(parsed.rows).toEqual(expected.slice(1));
      }),
      { numRuns: 2000 },
    );
  });

  it('splits a plain file fast and still numbers its lines, whatever its line ends', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = ['a,b', '1,x', '', '2,"y', 'z"', '3,w'].join(eol) + eol;
      expect(parseCsv(text, 'x.csv').rows).toEqual([
        { line: 2, cells: ['1', 'x'] },
        { line: 4, cells: ['2', `y${eol}z`] },
        { line: 6, cells: ['3', 'w'] },
      ]);
    }
  });
});
