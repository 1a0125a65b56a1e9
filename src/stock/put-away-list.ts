/**
 * An order's put-away list as the store holds it (issue 65 §3, SPEC §16): its saved lines (placed and
 * unplaced, in the order's order) against the current stock's lots of the same items in any colour, and,
 * for items the stock holds nothing of, its lots of the same catalogue category — planned by `planPutAway`.
 */
import { shownTime } from '../platform/clock.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import type { ReadableDb } from '../store/db.ts';
import { orderLines, type LineView } from '../store/lines.ts';
import { orderSummary } from '../store/orders.ts';
import {
  categoriesOfOrderItems,
  stockLocationsOfCategory,
  stockLocationsOfItems,
  stockOrderId,
  stockSummary,
  type StockSummary,
} from '../store/stock.ts';
import { stockItemKey } from './items.ts';
import { stockLotsOfOrder } from './lots.ts';
import { busiestLocation, linesForNewLots, planPutAway, type LocationCount } from './put-away-plan.ts';
import type { OrderLine, PutAwayPlan, StockLot } from './types.ts';

/** Refused when there is no current stock: the lists need one. */
export function noStockYet(): BrickWorkError {
  return new BrickWorkError(
    'no-stock',
    "There is no stock yet: import the shop's inventory first (Catalogue & jobs → Stock, or `brick-work stock import FILE`).",
  );
}

/** What a saved line is, as staff read it: `P 3001 Brick 2 x 4 (Red)`, the catalogue's where placed. */
export function savedLineWhat(l: LineView): string {
  const head = [l.placed?.type ?? l.given.type, l.placed?.no ?? l.given.no, l.placed?.name ?? l.given.name]
    .filter((p) => p !== null && p !== '')
    .join(' ');
  const colour = l.placed === null ? l.given.colourName : (l.placed.colourName ?? l.given.colourName);
  return colour === null || colour === '' ? head : `${head} (${colour})`;
}

/** A saved line as the plans take it. */
export function savedOrderLine(l: LineView): OrderLine {
  const base = {
    line: l.id,
    position: l.position,
    where: `${l.documentKey} #${l.position}`,
    what: savedLineWhat(l),
    quantity: l.quantity,
    condition: l.condition,
  };
  return l.placed === null
    ? { ...base, item: null, unplaced: { reason: l.reason?.code ?? 'other', text: l.reason?.text ?? 'not placed' } }
    : { ...base, item: { type: l.placed.type, no: l.placed.no, colour: l.placed.colour }, unplaced: null };
}

export interface OrderPutAway {
  readonly order: { readonly id: number; readonly reference: string };
  readonly stock: StockSummary;
  /** The order's saved lines, by id: their names, colours and numbers as the views show them. */
  readonly lines: ReadonlyMap<number, LineView>;
  readonly plan: PutAwayPlan;
}

/**
 * The put-away list of order `orderId` against the current stock, with `typed` the locations staff typed
 * for new lots (by line id). Refused `not-found` for no such order, `no-stock` when there is no stock, and
 * in words for the stock's own order (its lots are the stock already); `already-undone` for an order taken back.
 */
export function orderPutAway(db: ReadableDb, orderId: number, typed?: ReadonlyMap<number, string>): OrderPutAway {
  const order = orderSummary(db, orderId);
  if (stockOrderId(db) === orderId)
    throw new BrickWorkError(
      'invalid-argument',
      `Order ${order.reference} is the stock itself: received lots are put away from an order that comes in.`,
    );
  if (order.state === 'undone')
    throw new BrickWorkError(
      'already-undone',
      `Order ${order.reference} (#${order.id}) was taken back on ${shownTime(order.undoneAt)}: none of its documents is imported, so there is nothing to put away. Import the file again to revive it.`,
    );
  const stock = stockSummary(db);
  if (stock === null) throw noStockYet();
  const saved = orderLines(db, orderId);
  const lines = saved.map(savedOrderLine);
  // The lots of the lines' items in their colours; for the lines going into a new lot, where the stock
  // keeps their items (counted by the store, however many colours an item has).
  const lots = stockLotsOfOrder(db, orderId);
  const asking = new Map(linesForNewLots(lines, lots).map((l) => [stockItemKey(l.item), l.item]));
  const itemLocations = new Map<string, LocationCount[]>();
  for (const r of stockLocationsOfItems(db, [...asking.values()])) {
    const key = stockItemKey({ type: r.itemType, no: r.itemNo });
    const counts = itemLocations.get(key);
    if (counts === undefined) itemLocations.set(key, [r]);
    else counts.push(r);
  }
  // Only an item the stock holds nothing of asks its category; each category is read once, as its bins
  // counted by the store. The plan takes the bin most of them are in as one lot standing for them: what it
  // would choose from them lot by lot (`mostCommonLocation`), without carrying thousands of lots here.
  const byCategory = new Map<number, readonly StockLot[]>();
  const categoryLots = new Map<string, readonly StockLot[]>();
  for (const c of categoriesOfOrderItems(db, orderId)) {
    const item = { type: c.itemType, no: c.itemNo, colour: null };
    const key = stockItemKey(item);
    if (!asking.has(key) || itemLocations.has(key)) continue;
    let ofCategory = byCategory.get(c.categoryId);
    if (ofCategory === undefined) {
      const at = busiestLocation(stockLocationsOfCategory(db, c.categoryId));
      ofCategory = at === null ? [] : [{ lot: 0, lotId: null, item, condition: null, quantity: 0, location: at }];
      byCategory.set(c.categoryId, ofCategory);
    }
    categoryLots.set(key, ofCategory);
  }
  const plan = planPutAway({ lines, lots, categoryLots, typed, itemLocations });
  return {
    order: { id: order.id, reference: order.reference },
    stock,
    lines: new Map(saved.map((l) => [l.id, l])),
    plan,
  };
}
