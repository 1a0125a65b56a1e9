/**
 * The pick list as files (SPEC §16): on paper (the one printable shape the HTML and PDF writers take) and
 * as CSV — each made from the list as the contract shows it, so paper, CSV and screen say the same.
 */
import { csvCell } from '../exports/csv-cell.ts';
import type { PrintableList } from '../stock/print/printable.ts';
import type { PickEntryView, PickListView, StockItemView } from './contract.ts';

/** An item as a list names it: its type and number as the shop reads it ("P 3001"). */
export const itemShown = (i: StockItemView): string => `${i.type} ${i.shown}`;

const conditionWord = (c: 'N' | 'U' | null): string | null => (c === 'N' ? 'new' : c === 'U' ? 'used' : null);

/** The date part of an ISO time ("2026-12-07"). */
const dayOf = (iso: string): string => iso.slice(0, 10);

/** The stock a list was made from, in words: `inventory.xml, imported 2026-12-07`. */
export function stockWords(list: PickListView): string {
  return `${list.stock.fileName}, imported ${dayOf(list.stock.importedAt)}`;
}

/** A line apart from the walk, as a list names it: `order.xml #3: P 3001 Brick 2 x 4 (Red) × 5`. */
const apartLine = (l: { where: string; what: string; quantity: number }): string =>
  `${l.where}: ${l.what} × ${l.quantity.toLocaleString('en-US')}`;

/** The lines apart from the walk, each kind under its heading (the printed list's and the CLI's words). */
export function pickApart(list: PickListView): { heading: string; lines: string[] }[] {
  return [
    {
      heading: 'Missing: nothing in stock to take',
      lines: list.missing.map((m) => `${apartLine(m)}: ${m.short.text}`),
    },
    {
      heading: 'Unplaced: not matched with the stock (fix the line first)',
      lines: list.unplaced.map((u) => `${apartLine(u)}: ${u.text}`),
    },
    { heading: 'Nothing to take: lines of 0 pieces', lines: list.nothingAsked.map(apartLine) },
  ].filter((a) => a.lines.length > 0);
}

/** What a row's note says: its shortfall, and the lot's condition where the line named none. */
function noteOf(e: PickEntryView): string | null {
  const words = [e.short?.text ?? null, e.condition === 'U' ? 'used' : null].filter((w) => w !== null);
  return words.length === 0 ? null : words.join('; ');
}

/** The pick list on paper: its walk with a box to tick, the lines apart in words. */
export function pickPrintable(list: PickListView, picture: (entry: PickEntryView) => Uint8Array | null): PrintableList {
  const lots = list.entries.length;
  const pieces = list.progress.pieces;
  return {
    title: `Pick list: order ${list.order.reference}`,
    subtitle:
      `${lots.toLocaleString('en-US')} ${lots === 1 ? 'lot' : 'lots'}, ${pieces.toLocaleString('en-US')} ${pieces === 1 ? 'piece' : 'pieces'}` +
      ` (picked: ${list.progress.text}) · stock ${stockWords(list)}`,
    quantityHeading: 'Take',
    rows: list.entries.map((e) => ({
      location: e.location === null || e.location.trim() === '' ? null : e.location,
      item: itemShown(e.item),
      name: e.item.name,
      colour: e.item.colour?.name ?? null,
      quantity: e.take,
      note: noteOf(e),
      picture: picture(e),
    })),
    apart: pickApart(list),
  };
}

/** The CSV's columns (one row a stop of the walk, in walking order). */
export const PICK_CSV_COLUMNS = [
  'location',
  'item',
  'name',
  'colour',
  'condition',
  'take',
  'ordered',
  'in lot',
  'short',
  'picked',
] as const;

/** The list as CSV: a row a stop of the walk, in walking order, then the missing and the unplaced lines. */
export function pickCsv(list: PickListView): string {
  const rows = list.entries.map((e) =>
    [
      e.location,
      itemShown(e.item),
      e.item.name,
      e.item.colour?.name ?? null,
      conditionWord(e.condition),
      e.take,
      e.ordered,
      e.inLot,
      e.short?.text ?? null,
      e.picked,
    ]
      .map(csvCell)
      .join(','),
  );
  // Every line of the order accounted for: what has nowhere to be taken from, and the unplaced lines,
  // after the walk with no location and nothing to take.
  const missing = list.missing.map((m) =>
    [null, itemShown(m.item), m.item.name, m.item.colour?.name ?? null, null, 0, m.quantity, 0, m.short.text, 0]
      .map(csvCell)
      .join(','),
  );
  const unplaced = list.unplaced.map((u) =>
    [null, null, u.what, null, null, 0, u.quantity, 0, `unplaced: ${u.text}`, 0].map(csvCell).join(','),
  );
  return `${[PICK_CSV_COLUMNS.join(','), ...rows, ...missing, ...unplaced].join('\r\n')}\r\n`;
}
