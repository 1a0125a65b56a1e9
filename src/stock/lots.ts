/**
 * The current stock's lots as the pick and put-away plans take them (`types.ts`), read from the store
 * (`store/stock.ts`): what a `pick.list` or `putAway.list` hands its plan.
 */
import type { ReadableDb } from '../store/db.ts';
import { stockLotsForOrder, type StockLotRow } from '../store/stock.ts';
import type { StockLot } from './types.ts';

/** A stock lot's row as a plan's lot. */
export function planLot(row: StockLotRow): StockLot {
  return {
    lot: row.lineId,
    lotId: row.lotId,
    item: { type: row.itemType, no: row.itemNo, colour: row.colourId },
    condition: row.condition,
    quantity: row.quantity,
    location: row.location,
  };
}

/** Every lot of the current stock of an item and colour a placed saved line of order `orderId` has. */
export function stockLotsOfOrder(db: ReadableDb, orderId: number): StockLot[] {
  return stockLotsForOrder(db, orderId).map(planLot);
}
