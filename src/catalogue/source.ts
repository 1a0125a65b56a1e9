import type { StoreDb } from '../store/db.ts';
import type { Clock } from '../platform/clock.ts';
import type { ItemAnswer, ItemFetcher } from './bricklink/api.ts';
import { reserveCall, type BudgetStatus } from './budget.ts';
import type { ItemType } from '../vocabulary/item-types.ts';

/**
 * The BrickLink source under the daily budget (SPEC §5). `reserve()` counts a call, committed, before
 * it is sent; `fetch()` sends it. Callers always reserve first.
 */
export class Source {
  constructor(
    private readonly db: StoreDb,
    private readonly clock: Clock,
    private readonly fetcher: ItemFetcher,
  ) {}

  /** Counts one call for today; refused with `budget-exhausted` at the day's limit. */
  reserve(): BudgetStatus {
    return reserveCall(this.db, this.clock);
  }

  fetch(type: ItemType, no: string): Promise<ItemAnswer> {
    return this.fetcher.fetchItem(type, no);
  }

  fetchColours(): Promise<{ id: number; name: string; rgb: string | null }[]> {
    return this.fetcher.fetchColours();
  }
}
