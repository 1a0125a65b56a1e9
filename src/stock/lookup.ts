/**
 * The stock straight from BrickLink's API (issue 65 §1, SPEC §16): the shop's store inventory in one call,
 * counted against the day's budget (committed) before it is sent, and written as BrickLink's inventory
 * download — a file the worker previews and imports as the stock as any stock file (locations from the
 * lots' remarks). The call is made off the writer thread (the job runner's, in the app and the browser
 * host), so that no write waits while BrickLink answers.
 */
import type { Clock } from '../platform/clock.ts';
import { reserveCall, type BudgetStatus } from '../catalogue/budget.ts';
import { BrickLinkApi } from '../catalogue/bricklink/api.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import type { StoreDb } from '../store/db.ts';
import { storeInventoryFileName, storeInventoryLots, storeInventoryXml } from './store-inventory.ts';

/** BrickLink's answer as its inventory download, with what it held and the day's budget after the call. */
export interface FetchedStock {
  /** `BrickLink store inventory DAY.xml`, as a download's would be named. */
  readonly name: string;
  /** BrickLink's inventory download (XML), UTF-8. */
  readonly content: Uint8Array;
  /** Lots BrickLink's answer held. */
  readonly fetched: number;
  readonly budget: BudgetStatus;
}

/**
 * Asks BrickLink for the store's inventory. Refused before anything is sent when the day's budget is used
 * up (`budget-exhausted`); refused in BrickLink's words (`source-error`) when it refuses or gives an
 * answer that is not a whole inventory — the call stays counted (it was made). `counted` is told once
 * the call is counted, before it is sent. Nothing else is written.
 */
export async function fetchStoreInventory(
  db: StoreDb,
  clock: Clock,
  api: { readonly credentials: Credentials; readonly url: string },
  counted: () => void = () => {},
): Promise<FetchedStock> {
  const budget = reserveCall(db, clock);
  counted();
  const answer = await new BrickLinkApi(api.url, api.credentials).fetchStoreInventory();
  const lots = storeInventoryLots(answer);
  return {
    name: storeInventoryFileName(clock.now()),
    content: new TextEncoder().encode(storeInventoryXml(lots)),
    fetched: lots.length,
    budget,
  };
}
