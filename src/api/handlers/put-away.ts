/** The put-away list of an order coming in, and its files for BrickLink (SPEC §16). */
import { leftOutNote, planOrderExport, sharedNote, unpricedNote } from '../../exports/plan.ts';
import { STOCK_UNCHANGED_NOTE } from '../../stock/put-away-plan.ts';
import { orderPutAway, type OrderPutAway } from '../../stock/put-away-list.ts';
import { putAwayXml } from '../../stock/put-away-xml.ts';
import { counted } from '../../vocabulary/words.ts';
import type { PutAwayEntryView, PutAwayListView } from '../contract.ts';
import { fileNamePart } from '../views.ts';
import { stockItemViews } from './stock-items.ts';
import { reads, type PartialCallTable, type ReadDeps } from './define.ts';

/** Staff's typed locations, by line id, as the plan takes them. */
function typedOf(locations: Readonly<Record<string, string>> | undefined): Map<number, string> {
  return new Map(Object.entries(locations ?? {}).map(([line, at]) => [Number(line), at]));
}

/** The put-away list as the contract shows it. */
export function putAwayListView(d: ReadDeps, put: OrderPutAway): PutAwayListView {
  const item = stockItemViews(d, put.lines);
  const entries = put.plan.entries.map((e): PutAwayEntryView => ({
    kind: e.kind,
    line: e.line,
    position: e.position,
    where: e.where,
    item: item(e.line),
    condition: e.condition,
    quantity: e.quantity,
    location: e.location,
    lot: e.kind === 'existing' ? e.lot : null,
    lotId: e.kind === 'existing' ? e.lotId : null,
    before: e.kind === 'existing' ? e.before : null,
    after: e.kind === 'existing' ? e.after : null,
    from: e.kind === 'new' ? e.from : null,
  }));
  return {
    order: put.order,
    stock: { ...put.stock },
    entries,
    nothingReceived: put.plan.nothingReceived.map((l) => ({ ...l })),
    unplaced: put.plan.unplaced.map((l) => ({ ...l })),
    note: STOCK_UNCHANGED_NOTE,
  };
}

export const PUT_AWAY_CALLS = {
  'putAway.list': reads(
    (d) =>
      ({ orderId, locations }) =>
        putAwayListView(d, orderPutAway(d.db, orderId, typedOf(locations))),
  ),
  // Writes nothing to the store: the files go to staff (the save dialog, the page's download), never to BrickLink.
  'putAway.export': reads((d) => async ({ orderId, locations, accept }) => {
    const put = orderPutAway(d.db, orderId, typedOf(locations));
    const numbers = planOrderExport(d.db, orderId, 'bricklink');
    const files = putAwayXml(put.plan, numbers, { accept: accept ?? [] });
    const prices = new Map(numbers.rows.map((r) => [r.line, r.unitPriceE4]));
    const name = `put-away ${fileNamePart(put.order.reference)}`;
    const update =
      files.update === null
        ? null
        : {
            ...(await d.exported(`${name} mass update.xml`, files.update.content)),
            rows: files.update.lots,
            note:
              `BrickLink Mass Update: adds ${counted(files.update.lines.length, 'line')} to ` +
              `${counted(files.update.lots, 'lot')} the store has, by their lot ids.`,
          };
    const upload =
      files.upload === null
        ? null
        : {
            ...(await d.exported(`${name} mass upload.xml`, files.upload.content)),
            rows: files.upload.lines.length,
            note: [
              `BrickLink Mass Upload: ${counted(files.upload.lines.length, 'new lot')}, each location in its remarks` +
                (files.upload.withoutLocation.length === 0
                  ? '.'
                  : `; ${counted(files.upload.withoutLocation.length, 'lot')} without a location (none suggested or typed).`),
              sharedNote(files.shared, 'bricklink'),
              unpricedNote(
                files.upload.lines.map((l) => prices.get(l) ?? null),
                'bricklink',
              ),
            ]
              .filter((n) => n !== null)
              .join(' '),
            ...(files.shared.length === 0 ? {} : { shared: files.shared }),
          };
    const left = leftOutNote(files.leftOut);
    return {
      update,
      upload,
      leftOut: files.leftOut,
      note: [
        ...(update === null && upload === null
          ? ['Nothing to put away: no line goes into a lot or makes a new one.']
          : []),
        ...(left === null ? [] : [left]),
        'Nothing is sent to BrickLink: give it the files (its Mass Inventory Update and Mass Inventory Upload).',
        STOCK_UNCHANGED_NOTE,
      ].join(' '),
    };
  }),
} satisfies PartialCallTable;
