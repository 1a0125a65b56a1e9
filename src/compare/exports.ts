/**
 * The exports of a compare's difference (SPEC §13), each made from the rows whose quantities differ:
 * - `csv`: one row per key with pieces missing on the right or extra on it, `Quantity` the size of the
 *   difference, and both sides' counts and prices beside it (formula-safe cells, as the summary's). Read
 *   back by the CSV reader, it gives exactly the difference: each key once, with that quantity.
 * - `wanted`: the shortfall as a BrickLink wanted list (`MINQTY`), for buying what did not come.
 * - `upload`: the extra as a BrickLink mass upload (`QTY`, the right side's price), for the shop's store.
 * BrickLink knows items only by its catalogue's numbers: the XML exports leave out lines that are not
 * placed, and say how many (place them first to include them).
 */
import type { CompareExport } from '../compare-kinds.ts';
import { formatMoneyE4 } from '../documents/values.ts';
import { inventoryXml, type XmlItem } from '../exports/bricklink-xml.ts';
import { csvCell } from '../exports/csv-cell.ts';
import type { CompareResult, CompareRow } from './compare.ts';
import type { RowNames } from './names.ts';

export const DIFFERENCE_COLUMNS = [
  'Where',
  'Item Type',
  'Item No',
  'Item Name',
  'Color ID',
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
  /** What was left out, in words (lines not placed, in an XML export); null when nothing was. */
  readonly note: string | null;
}

/** Every row whose quantities differ, in the order the screen shows the groups. */
function differing(result: CompareResult): CompareRow[] {
  return [...result.onlyLeft, ...result.onlyRight, ...result.quantityDiffers, ...result.unplaced].filter(
    (r) => r.difference !== 0,
  );
}

const price = (e4: number | null) => (e4 === null ? null : formatMoneyE4(e4));

export function exportDifference(
  result: CompareResult,
  as: CompareExport,
  namer: (rows: readonly CompareRow[]) => (row: CompareRow) => RowNames,
): ExportedDifference {
  const rows = differing(result);
  const names = namer(rows);
  if (as === 'csv') {
    const lines = rows.map((r) => {
      const n = names(r);
      // A placed row by its catalogue item, a row of unplaced lines by what they give.
      const what =
        r.item === null
          ? [r.given.type, r.given.no, r.given.name, r.given.colourId, r.given.colourName]
          : [r.item.type, r.item.no, n.name, r.item.colour, n.colourName];
      return [
        r.difference < 0 ? 'missing on the right' : 'extra on the right',
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
    };
  }
  const wanted = as === 'wanted';
  const chosen = rows.filter((r) => (wanted ? r.difference < 0 : r.difference > 0));
  const placed = chosen.filter((r) => r.item !== null);
  const items = placed.map((r): XmlItem => {
    const item = r.item as NonNullable<CompareRow['item']>;
    const head: XmlItem = [
      ['ITEMTYPE', item.type],
      ['ITEMID', item.no],
      ['COLOR', item.colour === null ? null : String(item.colour)],
    ];
    // A wanted list without CONDITION wants either; a mass upload's lot keeps the right side's.
    return wanted
      ? [...head, ['MINQTY', String(-r.difference)], ['CONDITION', r.condition]]
      : [
          ...head,
          ['QTY', String(r.difference)],
          ['PRICE', price(r.rightUnitPriceE4 ?? r.leftUnitPriceE4)],
          ['CONDITION', r.condition],
        ];
  });
  const left = chosen.length - placed.length;
  return {
    content: inventoryXml(items),
    rows: items.length,
    note:
      left === 0
        ? null
        : `${left} ${left === 1 ? 'lot is' : 'lots are'} left out: ${left === 1 ? 'its lines are' : 'their lines are'} not placed, and BrickLink knows items only by its catalogue's numbers. Place them and export again to include them.`,
  };
}
