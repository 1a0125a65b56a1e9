/**
 * The stock straight from BrickLink's API (issue 65 §1, SPEC §16): the shop's store inventory in one call,
 * counted against the day's budget before it is sent, written as BrickLink's inventory download and
 * imported as the stock through the stock's own import (locations from the lots' remarks).
 */
import type { Clock } from '../clock.ts';
import { reserveCall, type BudgetStatus } from '../catalogue/budget.ts';
import { BrickLinkApi } from '../catalogue/bricklink/api.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import type { ImportHooks } from '../documents/import.ts';
import type { WriteSession } from '../store/session.ts';
import { confirmStockImport, REMARKS, type StockImportResult } from './import.ts';
import { storeInventoryFileName, storeInventoryLots, storeInventoryXml } from './store-inventory.ts';

export interface StockLookup extends StockImportResult {
  /** The name the stock's document goes under, as a download's would. */
  readonly fileName: string;
  /** Lots BrickLink's answer held. */
  readonly fetched: number;
  /** The day's budget after the call. */
  readonly budget: BudgetStatus;
}

/**
 * Asks BrickLink for the store's inventory and imports it as the stock. Refused before anything is sent
 * when the day's budget is used up (`budget-exhausted`); refused in BrickLink's words (`source-error`)
 * when it refuses or gives an answer that is not a whole inventory — the call stays counted (it was
 * made), and nothing else is written. Refused as any stock import otherwise (the stock already).
 */
export async function lookUpStock(
  session: WriteSession,
  clock: Clock,
  api: { readonly credentials: Credentials; readonly url: string },
  hooks: (fileName: string) => ImportHooks = () => ({}),
): Promise<StockLookup> {
  const budget = reserveCall(session.db, clock);
  const answer = await new BrickLinkApi(api.url, api.credentials).fetchStoreInventory();
  const lots = storeInventoryLots(answer);
  const fileName = storeInventoryFileName(clock.now());
  const file = { name: fileName, content: new TextEncoder().encode(storeInventoryXml(lots)) };
  // BrickLink's own numbers, colour ids and quantities, no names: nothing the reader would assume, so no
  // warning to acknowledge (the call takes no `acknowledge`).
  const imported = confirmStockImport(session, { file, locationFrom: REMARKS }, clock, hooks(fileName));
  return { ...imported, fileName, fetched: lots.length, budget };
}
