/** Orders and their lines, and the hand placement of a line (SPEC §8, §9). */
import { newestStep } from '../../undo/history.ts';
import { itemToPlace, numberedSavedLine } from '../../catalogue/item-numbers.ts';
import { placeByHand } from '../../hand/placement.ts';
import { catalogueLookup } from '../../placement/catalogue-lookup.ts';
import { lineFacts, oneLineFacts } from '../../placement/line-facts.ts';
import { documentsOfOrder } from '../../store/documents.ts';
import { getLine, orderLines } from '../../store/lines.ts';
import { listOrders, orderSummary } from '../../store/orders.ts';
import { lineView, orderView, stepView } from '../views.ts';
import { documentsShown } from './documents.ts';
import { reads, writes, type PartialCallTable, type ReadDeps } from './define.ts';

/** Lines as the contract shows them, each placed one's number as the shop reads it and its export writes it. */
function lineViews(d: ReadDeps, facts: ReturnType<typeof lineFacts>) {
  const numbered = facts.map((f) => numberedSavedLine(f.line));
  const shown = d.numberShower(numbered.filter((n) => n !== null));
  return facts.map((f, i) => {
    const n = numbered[i];
    return lineView(f, n === null || n === undefined ? null : shown(n));
  });
}

export const ORDERS_CALLS = {
  'orders.list': reads((d) => ({ query }) => {
    const q = query?.trim().toLowerCase() ?? '';
    return listOrders(d.db)
      .filter(
        (o) => q === '' || o.reference.toLowerCase().includes(q) || (o.counterparty ?? '').toLowerCase().includes(q),
      )
      .map(orderView);
  }),
  'orders.get': reads((d) => ({ orderId }) => {
    const historyAt = newestStep(d.db); // first: a step after it is not taken for seen
    const order = orderView(orderSummary(d.db, orderId));
    return { order, documents: documentsShown(d.db, documentsOfOrder(d.db, orderId), historyAt) };
  }),
  'lines.list': reads((d) => ({ orderId, unplacedOnly }) => {
    const lines = orderLines(d.db, orderId, { unplacedOnly: unplacedOnly === true });
    // One snapshot: each question asked once however many lines ask it, the catalogue's kept while it holds;
    // on a server, the lines' answers read ahead (a round trip a question would be one a line).
    const toPlace = lines.map((l) => ({ given: l.given, remarks: l.remarks }));
    const lookup = catalogueLookup(d.db, toPlace, undefined, d.catalogueAnswers());
    return lineViews(d, lineFacts(d.db, lines, lookup));
  }),
  'lines.get': reads((d) => ({ lineId }) => {
    const [line] = lineViews(d, [oneLineFacts(d.db, getLine(d.db, lineId), catalogueLookup(d.db))]);
    return line as NonNullable<typeof line>;
  }),
  'lines.place': writes((d) => ({ lineId, type, no, colourId, confirm, seen }) => {
    // The number a suggestion shows first, in the shop numbering, is taken where it names one item (issue 60 §4).
    const item = itemToPlace(d.db, d.shopNumbering(), type, no);
    const result = placeByHand(d.session, lineId, { ...item, colourId }, d.clock, confirm ?? [], seen);
    d.changed('hand placement');
    const [line] = lineViews(d, [oneLineFacts(d.db, result.line, catalogueLookup(d.db))]);
    return { ...result, step: stepView(result.step), line: line as NonNullable<typeof line> };
  }),
} satisfies PartialCallTable;
