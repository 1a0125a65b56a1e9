/**
 * The app's and the browser host's start-up recovery (SPEC §4), which never keeps them from starting:
 * while another process holds the store's write lock (a long write elsewhere, issue 61 §3), the start
 * goes on — reads answer, writes wait for the lock — and the recovery is taken up as soon as it frees,
 * tried without waiting on the thread that answers the screens.
 */
import type { Clock } from '../platform/clock.ts';
import { toErrorValue } from '../store/errors.ts';
import type { StoreDb } from '../store/db.ts';
import type { RecoveredJob } from '../jobs/queue.ts';
import { recoverDeadOwnersNow } from './recovery.ts';

/** How long the start waits for the write lock before it goes on without its recovery. */
const FIRST_WAIT_MS = 1_000;
/** How often the recovery is tried again while the lock is held elsewhere. */
const AGAIN_EVERY_MS = 250;

export interface StartRecovery {
  /** The jobs recovered so far (the screens' first notice, `store.info`). */
  readonly jobs: readonly RecoveredJob[];
  /** Stops trying (the core closes). */
  stop(): void;
}

export function recoverAtStart(o: {
  readonly db: StoreDb;
  readonly storePath: string;
  readonly clock: Clock;
  readonly log: (line: string) => void;
  /** Told when a recovery taken up later is done: the screens look again. */
  readonly onLater: () => void;
}): StartRecovery {
  const jobs: RecoveredJob[] = [];
  const attempt = (waitMs: number): boolean => {
    const { recovery, done } = recoverDeadOwnersNow(o.db, o.storePath, o.clock, waitMs);
    jobs.push(...recovery.jobs);
    for (const line of recovery.lines) o.log(line);
    return done;
  };
  if (attempt(FIRST_WAIT_MS)) return { jobs, stop: () => {} };
  o.log(
    'another process holds this store’s write lock: brick-work starts all the same — it answers reads now, ' +
      'writes wait until the lock is free, and the recovery of work left by stopped desks is done then',
  );
  const timer = setInterval(() => {
    if (!o.db.open) return;
    let done: boolean;
    try {
      done = attempt(0);
    } catch (e) {
      o.log(`the start's recovery could not be done: ${toErrorValue(e, o.storePath).message}`);
      done = true;
    }
    if (!done) return;
    clearInterval(timer);
    o.log('the store’s write lock is free again: the start’s recovery is done');
    o.onLater();
  }, AGAIN_EVERY_MS);
  timer.unref();
  return { jobs, stop: () => clearInterval(timer) };
}
