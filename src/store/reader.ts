/**
 * The connection a call that only reads reads through (issue 66 §2): one the engine itself keeps from
 * writing, so that a write reached by mistake is refused by SQLite or the server, not only by the types.
 * - SQLite: a second connection to the file with `query_only` set. WAL lets it read the latest commit while
 *   the writer writes, and it never takes the write lock. A connection that is read-only already (a
 *   read-only open, a snapshot copy) is its own reader.
 * - PostgreSQL: a session of its own with `default_transaction_read_only`; a read-only session is its own.
 * Opened when first asked — a service that is only given writes (the writer thread's) opens none —, one
 * for each connection, and closed with it, so that it lives exactly as long as the store it reads.
 */
import Database from 'better-sqlite3';
import type { ReadableDb, StoreDb } from './db.ts';
import { nativeOptions } from './native.ts';
import { BUSY_TIMEOUT_MS } from './open.ts';
import { PostgresDatabase } from './postgres/database.ts';
import { openServerStore } from './postgres/open.ts';

/** Each connection's reader: one per connection, whichever services read beside it. */
const readers = new WeakMap<StoreDb, ReadableDb>();

/** The reader beside `db`, opened at the first call of the function this gives. */
export function readerBeside(db: StoreDb): () => ReadableDb {
  return () => readerOf(db);
}

/** The reader beside `db`, opened now if it is not yet (a test's recorder watches both connections). */
export function readerOf(db: StoreDb): ReadableDb {
  let reader = readers.get(db);
  if (reader === undefined) readers.set(db, (reader = open(db)));
  return reader;
}

function open(db: StoreDb): ReadableDb {
  if (db instanceof PostgresDatabase) {
    if (readOnlySession(db)) return db;
    const reader = openServerStore(db.address, { readOnly: true }).db;
    closedWith(db, () => reader.close());
    return reader;
  }
  const file = db as unknown as Database.Database;
  if (file.readonly) return db;
  // An in-memory database has no file a second connection could open: it reads through itself. The
  // one a read-only open gives for a missing file is set query_only where it is made (`open.ts`).
  if (file.memory) return db;
  const reader = new Database(file.name, { ...nativeOptions(), timeout: BUSY_TIMEOUT_MS, fileMustExist: true });
  try {
    reader.pragma('query_only = 1');
    reader.pragma('cache_size = -32000'); // as the writer's (`open.ts`): the reads it took over keep their cache
  } catch (e) {
    reader.close();
    throw e;
  }
  closedWith(db, () => reader.close());
  return reader;
}

function readOnlySession(db: PostgresDatabase): boolean {
  const row = db.prepare("SELECT current_setting('default_transaction_read_only') AS v").get() as
    { v: string } | undefined;
  return row?.v === 'on';
}

/** `also` runs when `db` is closed, before it closes (the reader never outlives what it reads beside). */
function closedWith(db: StoreDb, also: () => void): void {
  const close = db.close.bind(db);
  Object.defineProperty(db, 'close', {
    configurable: true,
    writable: true,
    value: () => {
      try {
        also();
      } finally {
        close();
      }
    },
  });
}
