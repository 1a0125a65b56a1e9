/**
 * The wait for another connection's write lock (SPEC §10 `store-busy`): SQLite's busy timeout, a server
 * store's writer-lock wait. Set per connection; a caller that must not wait (the thread that answers
 * the screens), or may wait only what is left of a call's time, sets it around its work.
 */
import { isBrickWorkError } from '../vocabulary/errors.ts';
import { storeTrouble } from './errors.ts';
import { BUSY_TIMEOUT_MS } from './open.ts';
import type { StoreDb } from './db.ts';
import { PostgresDatabase } from './postgres/database.ts';

/** How long this connection waits for another's write lock now, in ms. */
export function busyTimeoutOf(db: StoreDb): number {
  const ms = Number(db.pragma('busy_timeout', { simple: true }));
  return Number.isFinite(ms) ? ms : BUSY_TIMEOUT_MS;
}

/** Runs `fn` with this connection's wait for another's write lock set to `ms` (0: none), then as it was. */
export function withBusyTimeout<T>(db: StoreDb, ms: number, fn: () => T): T {
  const before = busyTimeoutOf(db);
  db.pragma(`busy_timeout = ${Math.max(0, Math.round(ms))}`);
  try {
    return fn();
  } finally {
    db.pragma(`busy_timeout = ${before}`);
  }
}

/**
 * Whether this connection can have the store's write lock within `ms`: taken (`BEGIN IMMEDIATE`) and
 * let go at once. Only another writer's lock answers false; any other trouble (a store that can't be
 * written, damage) true — the write that follows meets it and says it in its own words.
 */
export function writeLockWithin(db: StoreDb, ms: number): boolean {
  if (db.inTransaction) return true;
  try {
    // A server answers "free now?" in one round trip, where a transaction taken and let go costs two.
    if (ms <= 0 && db instanceof PostgresDatabase) return db.writerLockFree();
    withBusyTimeout(db, ms, () => db.exec('BEGIN IMMEDIATE'));
  } catch (e) {
    const busy = isBrickWorkError(e) ? e.code === 'store-busy' : storeTrouble(e)?.code === 'store-busy';
    return !busy;
  }
  db.exec('ROLLBACK');
  return true;
}
