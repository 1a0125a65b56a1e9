/**
 * The store's data version (SPEC §1, ADR 0027 §6): a number that moves when another connection commits —
 * SQLite's `PRAGMA data_version`, a server store's version row — and the watch that tells of it.
 */
import type { StoreDb } from './db.ts';
import { PostgresDatabase } from './postgres/database.ts';
import { listenForWrites } from './postgres/listener.ts';

/** The version now: equal to an earlier reading when no other connection has committed since. */
export function dataVersion(db: StoreDb): number {
  return Number(db.pragma('data_version', { simple: true }));
}

/**
 * Notices writes by other connections and processes (the runner thread, the CLI, other desks) and says
 * so. A SQLite store is looked at every `everyMs`; a server store when the server tells of a commit
 * (`LISTEN`/`NOTIFY`, SPEC §14). `sync`: the change so far is told already (the app's own writer thread
 * said so): don't tell it twice.
 */
export function watchDataVersion(
  db: StoreDb,
  onChange: () => void,
  options: { readonly everyMs?: number; readonly log?: (line: string) => void } = {},
): (() => void) & { sync(): void } {
  let last = dataVersion(db);
  const sync = () => void (last = dataVersion(db));
  const look = () => {
    if (!db.open) return;
    let now: number;
    try {
      now = dataVersion(db);
    } catch {
      return; // a server out of reach: the listener says so, and looks again when it is back
    }
    if (now !== last) {
      last = now;
      onChange();
    }
  };
  if (db instanceof PostgresDatabase) {
    const listening = listenForWrites(db.address, look, { log: options.log });
    return Object.assign(() => listening.stop(), { sync });
  }
  const timer = setInterval(look, options.everyMs ?? 700);
  timer.unref();
  return Object.assign(() => clearInterval(timer), { sync });
}
