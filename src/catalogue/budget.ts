import type { ReadableDb, StoreDb } from '../store/db.ts';
import { utcDay, type Clock } from '../platform/clock.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import { getSetting } from '../store/settings.ts';
import { callsMadeOn, countCallOn } from '../store/budget.ts';

export interface BudgetStatus {
  /** The budget's day: the UTC date. */
  readonly day: string;
  readonly used: number;
  readonly limit: number;
  readonly left: number;
}

export function budgetStatus(db: ReadableDb, clock: Clock): BudgetStatus {
  const day = utcDay(clock);
  const limit = Number(getSetting(db, 'daily-call-limit'));
  const used = callsMadeOn(db, day);
  return { day, used, limit, left: Math.max(0, limit - used) };
}

export function budgetExhausted(status: BudgetStatus): BrickWorkError {
  return new BrickWorkError(
    'budget-exhausted',
    `the day's BrickLink budget is used up (${status.used} of ${status.limit} calls on ${status.day}, UTC); it starts again tomorrow`,
  );
}

/**
 * Counts one BrickLink call for today, committed, before it is sent (SPEC §5): a process killed while
 * the request is in flight has still counted it. Refused with `budget-exhausted` at the day's limit.
 */
export function reserveCall(db: StoreDb, clock: Clock): BudgetStatus {
  return db
    .transaction(() => {
      const status = budgetStatus(db, clock);
      if (status.used >= status.limit) throw budgetExhausted(status);
      countCallOn(db, status.day);
      return { ...status, used: status.used + 1, left: status.left - 1 };
    })
    .immediate();
}
