/** Orders and their lines, and the hand placement of a line (SPEC §8, §9). */
import { newestStep } from '../../undo/history.ts';
import { placeByHand } from '../../hand/placement.ts';
import { catalogueLookup } from '../../placement/catalogue-lookup.ts';
import { lineFacts, oneLineFacts } from '../../placement/line-facts.ts';
import { documentsOfOrder } from '../../store/documents.ts';
import { getLine, orderLines } from '../../store/lines.ts';
import { listOrders, orderSummary } from '../../store/orders.ts';
import { lineView, orderView, stepView } from '../views.ts';
import { documentsShown } from './documents.ts';
import { reads, writes, type PartialCallTable } from './define.ts';

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
    const lookup = catalogueLookup(d.db);
    const lines = orderLines(d.db, orderId, { unplacedOnly: unplacedOnly === true });
    const shownNo = d.numberShower(lines.flatMap((l) => (l.placed === null ? [] : [l.placed])));
    return lineFacts(d.db, lines, lookup).map((f) => lineView(f, shownNo));
  }),
  'lines.get': reads((d) => ({ lineId }) => {
    const line = getLine(d.db, lineId);
    const shownNo = d.numberShower(line.placed === null ? [] : [line.placed]);
    return lineView(oneLineFacts(d.db, line, catalogueLookup(d.db)), shownNo);
  }),
  'lines.place': writes((d) => ({ lineId, type, no, colourId, confirm, seen }) => {
    const result = placeByHand(d.db, lineId, { type, no, colourId }, d.clock, confirm ?? [], seen);
    d.changed('hand placement');
    const shownNo = d.numberShower(result.line.placed === null ? [] : [result.line.placed]);
    return {
      ...result,
      step: stepView(result.step),
      line: lineView(oneLineFacts(d.db, result.line, catalogueLookup(d.db)), shownNo),
    };
  }),
} satisfies PartialCallTable;
