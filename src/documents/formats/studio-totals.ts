import type { CsvTable } from '../../text/csv.ts';

type Row = CsvTable['rows'][number];

const trimmed = (row: Row) => row.cells.map((c) => c.trim());

/**
 * The data rows without the totals BrickLink Studio appends to an exported parts list: a row of empty
 * cells, a row of titles starting "Total qty", then the totals (`1,1.35,,,…`). Only that exact ending is
 * dropped: a blank or odd row anywhere else still reaches the reader, which reads or refuses it as it is.
 */
export function withoutStudioTotals(rows: readonly Row[]): readonly Row[] {
  const [gap, titles, totals] = rows.slice(-3);
  if (gap === undefined || titles === undefined || totals === undefined) return rows;
  const [firstTitle = '', ...otherTitles] = trimmed(titles);
  const [total = '', ...otherTotals] = trimmed(totals);
  const studio =
    trimmed(gap).every((c) => c === '') &&
    /^total qty$/i.test(firstTitle) &&
    otherTitles.every((c) => c === '' || /^total\b/i.test(c)) &&
    /^\d+$/.test(total) &&
    otherTotals.every((c) => c === '' || /^\d+([.,]\d+)?$/.test(c));
  return studio ? rows.slice(0, -3) : rows;
}
