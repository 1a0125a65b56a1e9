import { BrickWorkError, quote } from '../../errors.ts';
import type { CsvTable } from '../../text/csv.ts';
import { parseError } from '../../text/position.ts';
import { NO_HEADER, type ParsedDocument, type ParsedLine } from '../model.ts';
import {
  limited,
  parseCondition,
  parseCurrency,
  parseMoneyE4,
  parseOptionalId,
  parseQuantity,
  textOrNull,
} from '../values.ts';
import { columnKey, columnsOf, UNDERSTOOD_COLUMNS } from './csv-columns.ts';
import { withoutStudioTotals } from './studio-totals.ts';

/**
 * CSV part lists (SPEC §8) with a header row: BrickStore's columns, Rebrickable part lists
 * (`Part,Color,Quantity`), BrickLink Studio's exported parts lists, or a plain
 * `number,name,colour,quantity,price`; comma, semicolon or tab. Column titles: `csv-columns.ts`.
 * Rebrickable's colour ids are not BrickLink's: they are kept in the remarks, not used to place.
 */
export function readCsvDocument(table: CsvTable, fileName: string): ParsedDocument {
  const header = table.header.map(columnKey);
  const at = columnsOf(table.header);
  const rows = withoutStudioTotals(table.rows);
  if (rows.length === 0) throw parseError(fileName, 'the file has a header row but no lines');
  if (at.no < 0 && at.name < 0) {
    throw new BrickWorkError(
      'parse-error',
      `${fileName} is not a part list brick-work knows: its first row ("${quote(table.header.slice(0, 6).join(', '))}") names no number or name column. ${UNDERSTOOD_COLUMNS}`,
    );
  }
  const rebrickable = header[0] === 'part' && at.name < 0 && header.includes('color') && header.includes('quantity');
  const decimalComma = table.delimiter === ';';
  const cell = (cells: readonly string[], i: number) => (i < 0 ? null : textOrNull(cells[i]));

  let currency: { code: string; line: number } | null = null;
  const lines: ParsedLine[] = rows.map(({ line, cells }, i) => {
    const rowCurrency = parseCurrency(cell(cells, at.currency), fileName, line);
    if (rowCurrency !== null) {
      if (currency !== null && currency.code !== rowCurrency) {
        throw parseError(
          fileName,
          `line ${line}: mixed currencies in one document: ${currency.code} (line ${currency.line}) and ${rowCurrency}`,
        );
      }
      currency ??= { code: rowCurrency, line };
    }
    const colourText = limited(cell(cells, at.colour), 'colourName', fileName, line);
    const colourIdText =
      cell(cells, at.colourId) ?? (colourText !== null && /^\d+$/.test(colourText) && !rebrickable ? colourText : null);
    // Numbers brick-work doesn't place by, kept where staff see them (within the remarks' cap).
    const ids = [labelled('LDraw', cell(cells, at.ldrawId)), labelled('Element', cell(cells, at.elementId))];
    const remarks = limited(
      [
        rebrickable ? labelled('Rebrickable colour', colourText) : null,
        ids.filter(Boolean).join(' · '),
        cell(cells, at.remarks),
      ]
        .filter(Boolean)
        .join('; ') || null,
      'remarks',
      fileName,
      line,
    );
    return {
      position: i + 1,
      given: {
        type: limited(cell(cells, at.type), 'type', fileName, line),
        no: limited(cell(cells, at.no), 'no', fileName, line),
        name: limited(cell(cells, at.name), 'name', fileName, line),
        colourId: parseOptionalId(colourIdText, 'colour id', fileName, line),
        colourName: rebrickable || colourText === null || /^\d+$/.test(colourText) ? null : colourText,
      },
      quantity: parseQuantity(cell(cells, at.quantity), fileName, line, at.quantity < 0 ? 1 : null),
      unitPriceE4: parseMoneyE4(cell(cells, at.price), fileName, line, decimalComma),
      condition: parseCondition(cell(cells, at.condition), fileName, line),
      remarks,
      sourceLine: line,
    };
  });
  return {
    key: fileName,
    fileName,
    format: 'csv',
    header: { ...NO_HEADER, currency: currency === null ? null : (currency as { code: string }).code },
    lines,
  };
}

/** "LDraw 3003", or null when there is no value. */
function labelled(label: string, value: string | null): string | null {
  return value === null ? null : `${label} ${value}`;
}
