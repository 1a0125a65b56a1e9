/**
 * Whether a store file is sound, found without changing it or its `-wal` and `-shm` (SPEC §11, issue 45).
 *
 * A read-write connection that finds damage has already done harm when it closes: the last connection
 * checkpoints the WAL into the main file and empties it — writing to the damaged file, and losing the
 * frames a repair could have used. A read-only connection never checkpoints, but rebuilds the `-shm`
 * (and leaves `-wal`/`-shm` files where there were none). So while a `-wal` or `-shm` is there, SQLite's
 * check runs on a private copy of the file and its WAL (`snapshotOf`). With neither there, the read-write
 * open checks in place: closing it then writes nothing (an empty WAL has nothing to checkpoint) and
 * removes the `-wal`/`-shm` it made, leaving the folder as it was.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { snapshotOf } from './access.ts';
import { nativeOptions } from './native.ts';

/** What SQLite's quick check says of a connection's database: `ok`, or the first problem. */
export function quickCheck(db: Database.Database): string {
  return String(db.pragma('quick_check(1)', { simple: true }));
}

/** Whether a WAL or its index lies beside the file (another process works on it, or one ended without closing). */
export function hasWalBeside(storePath: string): boolean {
  return fs.existsSync(`${storePath}-wal`) || fs.existsSync(`${storePath}-shm`);
}

/**
 * The quick check of the store file and its WAL on a private copy: `ok`, or the first problem; null when
 * no copy could be made (the temporary folder full) or none of one moment (another process kept writing
 * while it was copied: a mixed copy could look damaged when the store is not), and the caller checks
 * otherwise — a process at work is alive, so the caller's connection will not be the last to close.
 */
export function checkOnCopy(storePath: string): string | null {
  let place: ReturnType<typeof snapshotOf>;
  try {
    place = snapshotOf(storePath);
  } catch {
    return null;
  }
  try {
    if (!place.steady) return null;
    const db = new Database(place.path, { ...nativeOptions(), readonly: true, fileMustExist: true });
    try {
      return quickCheck(db);
    } finally {
      db.close();
    }
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return (e as Error).message;
    throw e;
  } finally {
    place.dispose();
  }
}
