/** Compare (SPEC §13): two sides by what their lines are; a read that writes nothing. */
import { randomUUID } from 'node:crypto';
import { COMPARE_GROUPS, type CompareGroup } from '../../vocabulary/compare-kinds.ts';
import { comparePages, type CompareRow } from '../../compare/compare.ts';
import { exportDifference } from '../../compare/exports.ts';
import { rowNamer } from '../../compare/names.ts';
import { lineNumbers, type NumberedLine } from '../../catalogue/item-numbers.ts';
import { colourIdsFromBrickLink } from '../../store/item-numbers.ts';
import { readSide } from '../../compare/sides.ts';
import { formatMoneyE4 } from '../../documents/values.ts';
import { BrickWorkError } from '../../vocabulary/errors.ts';
import type { CompareRowView } from '../contract.ts';
import { fileNamePart } from '../views.ts';
import { type ReadDeps, fileOnReader, onReader, type KeptCompare, type PartialCallTable } from './define.ts';

/** How many compares are kept for their pages and exports: a screen shows one; a second tab, maybe one more. */
const COMPARES_KEPT = 2;

/** A placed row as its number is asked (`numberedLot`), without a copy of the row. */
const lotOf = (r: CompareRow): NumberedLine | null =>
  r.item === null ? null : { type: r.item.type, no: r.item.no, said: r.said };

/**
 * How `rows` are shown: their names and numbers read for all of them at once — a compare's page of every
 * group asks the catalogue once, not once a group.
 */
function rowShower(d: ReadDeps, rows: readonly CompareRow[]): (rows: readonly CompareRow[]) => CompareRowView[] {
  const names = rowNamer(d.db, rows, d.catalogueNames());
  // Each lot's number by the rule its lines' is read by, as the compare's exports write it (issue 60 §4).
  const shownNo = d.numberShower(rows.map(lotOf).filter((l) => l !== null));
  // Each view one object literal, no spread of the row: spreading made a page's views ten times slower.
  return (page) =>
    page.map((r): CompareRowView => {
      const leftUnitPrice = r.leftUnitPriceE4 === null ? null : formatMoneyE4(r.leftUnitPriceE4);
      const rightUnitPrice = r.rightUnitPriceE4 === null ? null : formatMoneyE4(r.rightUnitPriceE4);
      const { condition, left, right, difference } = r;
      if (r.item === null)
        return { condition, left, right, difference, leftUnitPrice, rightUnitPrice, item: null, given: r.given };
      const n = names(r);
      const { type, no, colour } = r.item;
      const number = shownNo({ type, no, said: r.said });
      const { shown, sharedWith } = number;
      const item =
        sharedWith.length === 0
          ? { type, no, colour, shown, name: n.name, colourName: n.colourName, colourRgb: n.colourRgb }
          : { type, no, colour, shown, sharedWith, name: n.name, colourName: n.colourName, colourRgb: n.colourRgb };
      return {
        condition,
        left,
        right,
        difference,
        leftUnitPrice,
        rightUnitPrice,
        item,
        given: null,
      };
    });
}

function kept(d: ReadDeps, compareId: string): KeptCompare {
  const k = d.compares.get(compareId);
  if (k === undefined)
    throw new BrickWorkError('not-found', 'That compare is no longer kept: compare the two sides again.');
  return k;
}

/** The part of a label a file name is made of: the order, document or file it names ("order Falcon" gives "Falcon"). */
const labelPart = (label: string) => fileNamePart(label.replace(/^(order|document|file) /, ''));

export const COMPARE_CALLS = {
  // On the reader thread, as an import's preview: a file side is read and placed, which takes time, and
  // the result is kept there for its pages and exports.
  'compare.run': onReader((d) => ({ left, right, prices, first, sameFirst }) => {
    const a = readSide(d.db, left, d.compareHooks('left'));
    const b = readSide(d.db, right, d.compareHooks('right'));
    const withoutCondition = !a.givesConditions() || !b.givesConditions();
    const r = comparePages(a.pages(), b.pages(), { prices: prices === true, withoutCondition });
    const compareId = randomUUID();
    d.compares.set(compareId, { result: r, left: a.label, right: b.label });
    for (const old of d.compares.keys()) if (d.compares.size > COMPARES_KEPT) d.compares.delete(old);
    // Only the rows shown are named: the counts come at once, however many rows agree.
    const shownOf = (g: CompareGroup) => (g === 'same' ? (sameFirst ?? first) : first);
    const page = (g: CompareGroup): readonly CompareRow[] => r.rowsOf(g, 0, shownOf(g) ?? r.sizes[g]);
    const pages = Object.fromEntries(COMPARE_GROUPS.map((g) => [g, page(g)])) as Record<
      CompareGroup,
      readonly CompareRow[]
    >;
    const views = rowShower(
      d,
      COMPARE_GROUPS.flatMap((g) => pages[g]),
    );
    const shown = (g: CompareGroup) => views(pages[g]);
    const counts = r.sizes;
    return {
      compareId,
      counts,
      left: { label: a.label, currency: a.currency },
      right: { label: b.label, currency: b.currency },
      onlyLeft: shown('onlyLeft'),
      onlyRight: shown('onlyRight'),
      quantityDiffers: shown('quantityDiffers'),
      same: shown('same'),
      priceDiffers: shown('priceDiffers'),
      unplaced: shown('unplaced'),
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
  'compare.rows': onReader((d) => ({ compareId, group, from, count }) => {
    const rows = kept(d, compareId).result.rowsOf(group, from, count);
    return rowShower(d, rows)(rows);
  }),
  'compare.export': fileOnReader((d) => async ({ compareId, as, accept }) => {
    const k = kept(d, compareId);
    const file = exportDifference(
      k.result,
      as,
      {
        names: (rows) => rowNamer(d.db, rows),
        numbers: (numbering, lots) => lineNumbers(d.db, numbering, lots),
        rebrickableColours: (ids) => colourIdsFromBrickLink(d.db, 'rebrickable', ids),
      },
      accept ?? [],
    );
    const what = {
      csv: 'difference.csv',
      wanted: 'wanted list.xml',
      upload: 'extra (upload).xml',
      rebrickable: 'missing (Rebrickable).csv',
    }[as];
    const name = `${labelPart(k.left)} vs ${labelPart(k.right)} – ${what}`;
    // On the reader thread there is no save dialog: the screens' thread offers the file (`savesFile`).
    const saved = await d.exported(name, file.content);
    const counted = { ...saved, rows: file.rows, leftOut: file.leftOut, shared: file.shared };
    return file.note === null ? counted : { ...counted, note: file.note };
  }),
} satisfies PartialCallTable;
