/**
 * An order's pick list as the store holds it (issue 65 §2, SPEC §16): its saved lines (placed and
 * unplaced, in the order's order: earlier lines take stock first) against the current stock's lots of
 * the same items and colours, planned by `planPick`.
 */
import { BrickWorkError } from '../vocabulary/errors.ts';
import type { ReadableDb } from '../store/db.ts';
import { shownTime } from '../platform/clock.ts';
import { orderLines, type LineView } from '../store/lines.ts';
import { orderSummary } from '../store/orders.ts';
import { stockOrderId, stockSummary, type StockSummary } from '../store/stock.ts';
import { stockLotsOfOrder } from './lots.ts';
import { planPick } from './pick-plan.ts';
import { noStockYet, savedOrderLine } from './put-away-list.ts';
import type { Condition, PickPlan, Shortfall } from './types.ts';

/** An order's pick list, with what it was made from. */
export interface OrderPick {
  readonly order: { readonly id: number; readonly reference: string };
  readonly stock: StockSummary;
  /** The order's saved lines, by id: their names, colours and numbers as the views show them. */
  readonly lines: ReadonlyMap<number, LineView>;
  readonly plan: PickPlan;
}

/**
 * The pick list of order `orderId` against the current stock. Refused `not-found` for no such order,
 * `no-stock` when there is no stock, in words for the stock's own order (its lots are the stock), and
 * `already-undone` for an order taken back (as the put-away list and every export are).
 */
export function orderPick(db: ReadableDb, orderId: number): OrderPick {
  const order = orderSummary(db, orderId);
  if (stockOrderId(db) === orderId)
    throw new BrickWorkError(
      'invalid-argument',
      `Order ${order.reference} is the stock itself: its lots are where orders are picked from. Pick an order that goes out.`,
    );
  if (order.state === 'undone')
    throw new BrickWorkError(
      'already-undone',
      `Order ${order.reference} (#${order.id}) was taken back on ${shownTime(order.undoneAt)}: none of its documents is imported, so there is nothing to pick. Import the file again to revive it.`,
    );
  const stock = stockSummary(db);
  if (stock === null) throw noStockYet();
  const saved = orderLines(db, orderId);
  const plan = planPick(saved.map(savedOrderLine), stockLotsOfOrder(db, orderId));
  return {
    order: { id: order.id, reference: order.reference },
    stock,
    lines: new Map(saved.map((l) => [l.id, l])),
    plan,
  };
}

const conditionWord = (c: Condition): string => (c === 'N' ? 'new' : 'used');

/**
 * A shortfall in staff's words: "2 short (the bins hold 3 of 5)", "none in stock", "only used in stock:
 * 4 in B-2"; where the other condition holds some, a short line says so too.
 */
export function shortfallText(s: Shortfall, ordered: number): string {
  const other =
    s.other === null
      ? null
      : `${s.other.quantity} ${conditionWord(s.other.condition)}` +
        (s.other.locations.length === 0 ? '' : ` in ${s.other.locations.join(', ')}`);
  switch (s.kind) {
    case 'none':
      return 'none in stock';
    case 'other-condition':
      return s.other === null || s.other.quantity === 0
        ? `only ${s.other === null ? 'in another condition' : conditionWord(s.other.condition)} in stock, none left`
        : `only ${conditionWord(s.other.condition)} in stock: ${s.other.quantity}` +
            (s.other.locations.length === 0 ? '' : ` in ${s.other.locations.join(', ')}`);
    case 'short': {
      const held = Math.max(0, ordered - s.missing);
      const words = `${s.missing} short (the bins hold ${held} of ${ordered})`;
      return other === null ? words : `${words}; ${other} in stock`;
    }
  }
}
