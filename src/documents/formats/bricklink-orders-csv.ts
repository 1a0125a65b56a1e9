import { decodeEntities } from '../../text/xml.ts';
import { quote } from '../../vocabulary/errors.ts';
import { itemTypeCode } from '../../vocabulary/item-types.ts';
import type { CsvTable } from '../../text/csv.ts';
import { parseError } from '../../text/position.ts';
import type { DocumentReading, ParsedDocument, ParsedLine } from '../model.ts';
import {
  limited,
  parseCondition,
  parseCurrency,
  parseMoneyE4,
  parseOptionalId,
  parseQuantity,
  parseUsDate,
  textOrNull,
} from '../values.ts';
import { columnKey, columnsReport } from './csv-columns.ts';

/** BrickLink's order download's columns that brick-work reads, by `columnKey`, with what each is read as. */
const COLUMNS = {
  orderid: 'order reference',
  orderdate: 'order date',
  seller: 'counterparty (seller)',
  buyer: 'counterparty (buyer)',
  basecurrency: 'currency',
  currency: 'currency',
  condition: 'condition',
  itemdescription: 'name',
  qty: 'quantity',
  quantity: 'quantity',
  each: 'price',
  itemtype: 'item type',
  itemnumber: 'number',
  colorid: 'BrickLink colour number',
  color: 'colour',
  colorname: 'colour',
  remarks: 'remarks',
} as const;

type Column = keyof typeof COLUMNS;

/** Whether a CSV's header is BrickLink's order download: an order id beside an item number. */
export function isBrickLinkOrdersCsv(header: readonly string[]): boolean {
  const keys = new Set(header.map(columnKey));
  return keys.has('orderid') && keys.has('itemnumber');
}

/** A price as the download writes it, perhaps after a currency sign or code ("US $0.05", "€0,10"). */
function priceText(text: string | null): string | null {
  return text === null ? null : text.replace(/^[A-Z]{0,3}\s?[$€£¥]?\s?/, '');
}

/** An order date: BrickLink's M/d/yyyy, or ISO's yyyy-mm-dd. */
function orderDate(text: string | null, fileName: string, line: number): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})\b/.exec(text ?? '');
  if (iso !== null) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  return parseUsDate(text, fileName, line);
}

/**
 * BrickLink's order history downloaded as CSV (SPEC §8): each order is a summary row (its id, date,
 * seller or buyer, currency; no item) followed by its item rows (Item Number, Item Type, Condition, Qty,
 * Each, Item Description as the name). Several orders are several documents, as `ORDERS` XML is, with
 * the same keys (`bricklink-order:<id>`), so the same order is a duplicate whichever way it came. The
 * download names no colour column: a line's colour leads its description ("Black Plate 1 x 2"), which
 * the import reads against the catalogue's colours (`colourInName`).
 */
export function readBrickLinkOrdersCsv(table: CsvTable, fileName: string): ParsedDocument[] {
  const keys = table.header.map(columnKey);
  const at = Object.fromEntries(Object.keys(COLUMNS).map((k) => [k, keys.indexOf(k)])) as Record<Column, number>;
  const cell = (cells: readonly string[], c: Column) => (at[c] < 0 ? null : textOrNull(cells[at[c]]));
  const hasColour = at.colorid >= 0 || at.color >= 0 || at.colorname >= 0;
  const used = new Map<number, string>();
  for (const [c, index] of Object.entries(at) as [Column, number][]) if (index >= 0) used.set(index, COLUMNS[c]);
  const columns = columnsReport(table.header, used, (i) => table.rows.some((r) => (r.cells[i] ?? '').trim() !== ''));
  const reading: DocumentReading = {
    ...columns,
    colourNumbering: at.colorid >= 0 ? { numbering: 'bricklink', how: 'title' } : null,
    warnings: [],
  };

  // BrickLink writes its texts HTML-escaped in this download (`Minifig &#40;Phase 1&#41;`): read as written.
  const html = (text: string | null): string | null => (text === null ? null : decodeEntities(text));

  interface Open {
    readonly id: string;
    readonly line: number;
    readonly header: ParsedDocument['header'];
    readonly lines: ParsedLine[];
  }
  const orders: Open[] = [];
  let current: Open | null = null;
  for (const { line, cells } of table.rows) {
    if (cells.every((c) => c.trim() === '')) continue;
    const id = limited(cell(cells, 'orderid'), 'reference', fileName, line);
    const no = limited(cell(cells, 'itemnumber'), 'no', fileName, line);
    const name = limited(html(cell(cells, 'itemdescription')), 'name', fileName, line);
    const isItem = no !== null || name !== null;
    if (!isItem || (id !== null && id !== (current as Open | null)?.id)) {
      if (id === null) throw parseError(fileName, `line ${line}: a row with neither an order id nor an item`);
      const seller = limited(html(cell(cells, 'seller')), 'counterparty', fileName, line);
      const buyer = limited(html(cell(cells, 'buyer')), 'counterparty', fileName, line);
      current = {
        id,
        line,
        header: {
          reference: id,
          counterparty: seller ?? buyer,
          counterpartyRole: seller !== null ? 'seller' : buyer !== null ? 'buyer' : null,
          currency: parseCurrency(cell(cells, 'basecurrency') ?? cell(cells, 'currency'), fileName, line),
          orderDate: orderDate(cell(cells, 'orderdate'), fileName, line),
        },
        lines: [],
      };
      orders.push(current);
      if (!isItem) continue;
    }
    if (current === null) throw parseError(fileName, `line ${line}: an item before any order's row`);
    const type = cell(cells, 'itemtype');
    const colourText = limited(html(cell(cells, 'colorname') ?? cell(cells, 'color')), 'colourName', fileName, line);
    current.lines.push({
      position: current.lines.length + 1,
      given: {
        type: limited(type === null ? null : itemTypeCode(type), 'type', fileName, line),
        no,
        name,
        colourId: parseOptionalId(cell(cells, 'colorid'), 'colour number', fileName, line),
        colourName: colourText,
      },
      quantity: parseQuantity(cell(cells, 'qty') ?? cell(cells, 'quantity'), fileName, line),
      unitPriceE4: parseMoneyE4(priceText(cell(cells, 'each')), fileName, line),
      condition: parseCondition(cell(cells, 'condition'), fileName, line),
      remarks: limited(html(cell(cells, 'remarks')), 'remarks', fileName, line),
      sourceLine: line,
      ...(hasColour ? {} : { colourInName: true }),
    });
  }
  if (orders.length === 0) throw parseError(fileName, 'the order download holds no order');
  const empty = orders.find((o) => o.lines.length === 0);
  if (empty !== undefined) {
    throw parseError(
      fileName,
      `line ${empty.line}: the order ${quote(empty.id)} has no item rows (download the orders with their items)`,
    );
  }
  return orders.map((o) => ({
    key: `bricklink-order:${o.id}`,
    fileName,
    format: 'bricklink-order-csv',
    header: o.header,
    lines: o.lines,
    reading,
  }));
}
