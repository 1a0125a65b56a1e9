/** Compare (SPEC §13): two sides by what their lines are; a read that writes nothing. */
import type { Database } from 'better-sqlite3';
import { compareSides, type CompareRow } from '../../compare/compare.ts';
import { readSide } from '../../compare/sides.ts';
import { formatMoneyE4 } from '../../documents/values.ts';
import { catalogueItemName } from '../../store/catalogue.ts';
import { colourInfo } from '../../store/colours.ts';
import type { CompareRowView } from '../contract.ts';
import { onWriter, type PartialCallTable } from './define.ts';

function rowView(db: Database, r: CompareRow): CompareRowView {
  const colour = r.item?.colour == null ? null : colourInfo(db, r.item.colour);
  return {
    item:
      r.item === null
        ? null
        : {
            type: r.item.type,
            no: r.item.no,
            name: catalogueItemName(db, r.item.type, r.item.no),
            colour: r.item.colour,
            colourName: colour?.name ?? null,
            colourRgb: colour?.rgb ?? null,
          },
    given: r.given,
    condition: r.condition,
    left: r.left,
    right: r.right,
    difference: r.difference,
    leftUnitPrice: r.leftUnitPriceE4 === null ? null : formatMoneyE4(r.leftUnitPriceE4),
    rightUnitPrice: r.rightUnitPriceE4 === null ? null : formatMoneyE4(r.rightUnitPriceE4),
  };
}

export const COMPARE_CALLS = {
  // On the writer thread, as an import's preview: a file side is read and placed, which takes time.
  'compare.run': onWriter((d) => ({ left, right, prices }) => {
    const a = readSide(d.db, left);
    const b = readSide(d.db, right);
    const r = compareSides(a.lines, b.lines, { prices: prices === true });
    const rows = (xs: readonly CompareRow[]) => xs.map((x) => rowView(d.db, x));
    return {
      left: { label: a.label, currency: a.currency },
      right: { label: b.label, currency: b.currency },
      onlyLeft: rows(r.onlyLeft),
      onlyRight: rows(r.onlyRight),
      quantityDiffers: rows(r.quantityDiffers),
      same: rows(r.same),
      priceDiffers: rows(r.priceDiffers),
      unplaced: rows(r.unplaced),
      totals: {
        left: r.totals.left,
        right: r.totals.right,
        missing: r.totals.missing,
        extra: r.totals.extra,
        missingValue: formatMoneyE4(r.totals.missingValueE4),
        extraValue: formatMoneyE4(r.totals.extraValueE4),
      },
    };
  }),
} satisfies PartialCallTable;
