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

/** Column titles each field goes by: BrickStore's (XML names and screen titles), Rebrickable's, plain ones. */
const COLUMNS = {
  type: ['item type', 'itemtypeid', 'itemtype', 'type'],
  no: ['number', 'no', 'part', 'part #', 'part no', 'part number', 'item id', 'itemid', 'item no', 'item number'],
  name: ['name', 'item name', 'itemname', 'description'],
  colourId: ['color id', 'colorid', 'colour id'],
  colour: ['colour', 'color', 'color name', 'colorname', 'colour name'],
  quantity: ['quantity', 'qty', 'qty.', 'count'],
  price: ['price', 'unit price'],
  condition: ['condition', 'cond.', 'cond'],
  remarks: ['remarks', 'remark', 'comments', 'comment'],
  currency: ['currency'],
} as const;

/**
 * CSV part lists (SPEC §8) with a header row: BrickStore's columns, Rebrickable part lists
 * (`Part,Color,Quantity`), or a plain `number,name,colour,quantity,price`; comma, semicolon or tab.
 * Rebrickable's colour ids are not BrickLink's: they are kept in the remarks, not used to place.
 */
export function readCsvDocument(table: CsvTable, fileName: string): ParsedDocument {
  const header = table.header.map((h) => h.toLowerCase().trim());
  const col = (names: readonly string[]) => header.findIndex((h) => names.includes(h));
  const at = Object.fromEntries(Object.entries(COLUMNS).map(([k, names]) => [k, col(names)])) as Record<
    keyof typeof COLUMNS,
    number
  >;
  if (at.no < 0 && at.name < 0) {
    throw new BrickWorkError(
      'parse-error',
      `${fileName} is not a part list brick-work knows: its first row ("${quote(table.header.slice(0, 6).join(', '))}") names no number or name column.`,
    );
  }
  const rebrickable = header[0] === 'part' && at.name < 0 && header.includes('color') && header.includes('quantity');
  const decimalComma = table.delimiter === ';';
  const cell = (cells: readonly string[], i: number) => (i < 0 ? null : textOrNull(cells[i]));

  let currency: { code: string; line: number } | null = null;
  const lines: ParsedLine[] = table.rows.map(({ line, cells }, i) => {
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
    const remarks = limited(cell(cells, at.remarks), 'remarks', fileName, line);
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
      remarks:
        rebrickable && colourText !== null
          ? [`Rebrickable colour ${colourText}`, remarks].filter(Boolean).join('; ')
          : remarks,
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
