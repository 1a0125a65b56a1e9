/**
 * The exports of a compare's difference (SPEC §13), each made from the rows whose quantities differ:
 * - `csv`: one row per key with pieces missing on the right or extra on it, `Quantity` the size of the
 *   difference, and both sides' counts and prices beside it (formula-safe cells, as the summary's); the
 *   item by its BrickLink number (the header says so) and by the catalogue's where that differs. Read
 *   back by the CSV reader, it gives exactly the difference: each key once, with that quantity.
 * - `wanted`: the shortfall as a BrickLink wanted list (`MINQTY`, `CONDITION` N/U/X), for buying what did not come.
 * - `upload`: the extra as a BrickLink mass upload (`QTY`, the right side's price), for the shop's store.
 * - `rebrickable`: the shortfall as a Rebrickable part list (`Part,Color,Quantity`).
 * The item exports speak their target's numbering (SPEC §5 "An item's numbers"): a lot whose item it does
 * not number is never written under another's number, but refused until acknowledged, then left out; lots
 * of unplaced lines are left out. Each left out is named (`leftOut`).
 */
import type { CompareExport } from '../vocabulary/compare-kinds.ts';
import {
  catalogueName,
  type ItemNumbers,
  type LineNumber,
  type NumberedLine,
  type Numbering,
} from '../catalogue/item-numbers.ts';
import { formatMoneyE4 } from '../documents/values.ts';
import type { ExportTarget, LeftOutLine, LeftOutReason, SharedNumberLine } from '../vocabulary/export-kinds.ts';
import { bricklinkColour, inventoryXml, priceTag, type XmlItem } from '../exports/bricklink-xml.ts';
import { csvCell } from '../exports/csv-cell.ts';
import {
  bricklinkPriceE4,
  leftOutNote,
  leftOutText,
  rebrickableColour,
  refuseUnacknowledged,
  sharedNote,
  unpricedNote,
  sharedRemark,
} from '../exports/plan.ts';
import { rebrickableCsvOf } from '../exports/rebrickable-csv.ts';
import type { CompareResult, CompareRow } from './compare.ts';
import type { RowNames } from './names.ts';

export const DIFFERENCE_COLUMNS = [
  'Where',
  'Item Type',
  'BrickLink Item No',
  'Catalogue Item No',
  'Item Name',
  'BrickLink Color ID',
  'Color Name',
  'Condition',
  'Quantity',
  'Left',
  'Right',
  'Difference',
  'Left Price',
  'Right Price',
] as const;

export interface ExportedDifference {
  readonly content: string;
  /** Rows written. */
  readonly rows: number;
  /** What was left out, in words; null when nothing was. */
  readonly note: string | null;
  readonly leftOut: readonly LeftOutLine[];
  /** Lots written under a number that names more than one catalogue item, each with the item it is. */
  readonly shared: readonly SharedNumberLine[];
}

/**
 * What a difference's export reads of the store: the lots' numbers in a numbering (`lineNumbers`, the rule
 * the screens show them by), and the colour table for Rebrickable's ids.
 */
export interface DifferenceLookups {
  readonly names: (rows: readonly CompareRow[]) => (row: CompareRow) => RowNames;
  readonly numbers: (
    numbering: Numbering,
    lots: readonly NumberedLine[],
  ) => { get(lot: NumberedLine): LineNumber; numbers: { get(type: string, no: string): ItemNumbers } };
  readonly rebrickableColours: (bricklinkIds: readonly number[]) => ReadonlyMap<number, readonly number[]>;
}

/** A placed lot as its number is asked: its item, and what its lines' documents called it. */
export const numberedLot = (r: CompareRow & { item: NonNullable<CompareRow['item']> }): NumberedLine => ({
  type: r.item.type,
  no: r.item.no,
  said: r.said,
});

/** Every row whose quantities differ, in the order the screen shows the groups. */
function differing(result: CompareResult): CompareRow[] {
  return [...result.onlyLeft, ...result.onlyRight, ...result.quantityDiffers, ...result.unplaced].filter(
    (r) => r.difference !== 0,
  );
}

const price = (e4: number | null) => (e4 === null ? null : formatMoneyE4(e4));
const where = (r: CompareRow) => (r.difference < 0 ? 'missing on the right' : 'extra on the right');

export function exportDifference(
  result: CompareResult,
  as: CompareExport,
  lookups: DifferenceLookups,
  accept: readonly string[] = [],
): ExportedDifference {
  const rows = differing(result);
  const names = lookups.names(rows);
  const lots = rows.flatMap((r) => (r.item === null ? [] : [numberedLot({ ...r, item: r.item })]));
  if (as === 'csv') {
    const numbers = lookups.numbers('bricklink', lots);
    const lines = rows.map((r) => {
      const n = names(r);
      // A placed row by its catalogue item, a row of unplaced lines by what they give.
      let what: (string | number | null)[];
      if (r.item === null) {
        what = [r.given.type, r.given.no, null, r.given.name, r.given.colourId, r.given.colourName];
      } else {
        const bricklink = numbers.get(numberedLot({ ...r, item: r.item })).no;
        const other = bricklink !== null && bricklink.toLowerCase() === r.item.no.toLowerCase() ? null : r.item.no;
        what = [r.item.type, bricklink, other, n.name, r.item.colour, n.colourName];
      }
      return [
        where(r),
        ...what,
        r.condition,
        Math.abs(r.difference),
        r.left,
        r.right,
        r.difference,
        price(r.leftUnitPriceE4),
        price(r.rightUnitPriceE4),
      ]
        .map((v) => csvCell(v ?? null))
        .join(',');
    });
    return {
      content: `${[DIFFERENCE_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`,
      rows: rows.length,
      note: null,
      leftOut: [],
      shared: [],
    };
  }
  const shortfall = as === 'wanted' || as === 'rebrickable';
  const target: ExportTarget = as === 'rebrickable' ? 'rebrickable' : 'bricklink';
  const numbers = lookups.numbers(target, lots);
  const chosen = rows.filter((r) => (shortfall ? r.difference < 0 : r.difference > 0));
  const colours =
    target === 'rebrickable'
      ? lookups.rebrickableColours(chosen.flatMap((r) => (r.item?.colour == null ? [] : [r.item.colour])))
      : null;
  const leftOut: LeftOutLine[] = [];
  const leave = (r: CompareRow, reason: LeftOutReason) => {
    const n = names(r);
    const it = r.item ?? { type: r.given.type ?? 'P', no: r.given.no ?? '' };
    const colour = n.colourName ?? r.given?.colourName;
    leftOut.push({
      line: null,
      where: where(r),
      what: [`${it.type} ${it.no}`.trim(), n.name ?? r.given?.name ?? '', colour ? `(${colour})` : '']
        .filter((x) => x !== '')
        .join(' '),
      quantity: Math.abs(r.difference),
      reason,
      text: leftOutText(reason, target),
    });
  };
  const written: { row: CompareRow; no: string; colour: number | null; remarks: string | null }[] = [];
  const shared: SharedNumberLine[] = [];
  for (const r of chosen) {
    if (r.item === null) leave(r, 'unplaced');
    else if (target === 'rebrickable' && r.item.type !== 'P') leave(r, 'not-a-part');
    else {
      const { no, sharedWith } = numbers.get(numberedLot({ ...r, item: r.item }));
      const colour = colours === null ? r.item.colour : rebrickableColour(colours, r.item.colour);
      if (no === null) leave(r, 'no-number');
      else if (colour === null) leave(r, 'no-colour-number');
      else if (sharedWith.length === 0) written.push({ row: r, no, colour, remarks: null });
      else {
        // A lot under a number two catalogue items share says which it is (issue 60 §4).
        const item = catalogueName({ no: r.item.no, catalogue: numbers.numbers.get(r.item.type, r.item.no).catalogue });
        shared.push({ line: null, where: where(r), no, quantity: Math.abs(r.difference), item, others: sharedWith });
        written.push({ row: r, no, colour, remarks: sharedRemark(null, item, sharedWith) });
      }
    }
  }
  refuseUnacknowledged({ target, leftOut }, accept, 'lot');
  const note = differenceNote(target, leftOut, shared, as === 'upload' ? written.map((w) => w.row) : []);
  if (target === 'rebrickable') {
    return {
      content: rebrickableCsvOf(written.map((w) => ({ no: w.no, colour: w.colour, quantity: -w.row.difference }))),
      rows: written.length,
      note,
      leftOut,
      shared,
    };
  }
  const items = written.map(({ row: r, no, colour, remarks }): XmlItem => {
    const item = r.item as NonNullable<CompareRow['item']>;
    const head: XmlItem = [
      ['ITEMTYPE', item.type],
      ['ITEMID', no],
      ['COLOR', bricklinkColour(colour)],
    ];
    // A wanted list's CONDITION X wants either; a mass upload's lot keeps the right side's (new when none says).
    return as === 'wanted'
      ? [...head, ['MINQTY', String(-r.difference)], ['CONDITION', r.condition ?? 'X'], ['REMARKS', remarks]]
      : [
          ...head,
          ['QTY', String(r.difference)],
          ['PRICE', priceTag(bricklinkPriceE4(r.rightUnitPriceE4 ?? r.leftUnitPriceE4))],
          ['CONDITION', r.condition ?? 'N'],
          ['REMARKS', remarks],
        ];
  });
  return { content: inventoryXml(items), rows: items.length, note, leftOut, shared };
}

/** What an export of the difference says beside its file: the lots it left out, those under shared numbers, an upload's lots without a price. */
function differenceNote(
  target: ExportTarget,
  leftOut: readonly LeftOutLine[],
  shared: readonly SharedNumberLine[],
  uploaded: readonly CompareRow[],
): string | null {
  const prices = uploaded.map((r) => bricklinkPriceE4(r.rightUnitPriceE4 ?? r.leftUnitPriceE4));
  const notes = [leftOutNote(leftOut, 'lot'), sharedNote(shared, target, 'lot'), unpricedNote(prices, target)];
  const said = notes.filter((n) => n !== null);
  return said.length === 0 ? null : said.join(' ');
}
