/**
 * The store's engine errors in the project's terms (SPEC §10): SQLite's result codes and the file
 * system's errno, read here by their code strings (so this module needs neither), become the refusals
 * of src/vocabulary/errors.ts. Outside the store nobody reads an engine's codes: a caller shows anything thrown with
 * `toErrorValue`, or asks `storeTrouble` what it was. (A server's SQLSTATEs are read in the store too,
 * by its connection in `postgres/` and by the few statements that expect one, and leave it as refusals.)
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  BrickWorkError,
  damagedStore,
  diskFull,
  isBrickWorkError,
  quote,
  readOnlyStore,
  storeBusy,
  thisStore,
  type ErrorValue,
} from '../vocabulary/errors.ts';
import { isServerAddress } from '../vocabulary/store-location.ts';

/** The disk a store lives on is (nearly) full: what an I/O error there most likely was. */
const FULL_BELOW_BYTES = 1024 * 1024;
function diskIsFull(storePath: string): boolean {
  try {
    const s = fs.statfsSync(path.dirname(storePath));
    return s.bavail * s.bsize < FULL_BELOW_BYTES;
  } catch {
    return false;
  }
}

/**
 * The store's own troubles as refusals in plain words (SPEC §10); null for anything else. SQLite reports
 * a disk that fills up under its shared-memory index or a checkpoint as an I/O error
 * (SQLITE_IOERR_SHMSIZE, …), not SQLITE_FULL; such an error on a disk with next to no space left is
 * taken as the full disk it is.
 */
export function storeTrouble(e: unknown, storePath: string | null = null): BrickWorkError | null {
  const code = typeof (e as { code?: unknown } | null)?.code === 'string' ? (e as { code: string }).code : '';
  const sqlite = code.startsWith('SQLITE_');
  const where = thisStore(storePath);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return storeBusy(storePath);
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    // A file system error names the file it was writing when it can (an export, a backup); SQLite's is the store's.
    const file = sqlite ? null : (e as { path?: unknown }).path;
    return diskFull(typeof file === 'string' ? file : where);
  }
  if (code.startsWith('SQLITE_IOERR') && storePath !== null && !isServerAddress(storePath) && diskIsFull(storePath))
    return diskFull(where);
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return readOnlyStore(storePath);
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return damagedStore(storePath, `SQLite can't read part of it: ${code}`);
  }
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN')) {
    return new BrickWorkError(
      'store-damaged',
      `brick-work could not read ${where}: the disk reported an error (${code}). Nothing was changed; ` +
        'check the disk or network drive it is on, then try again.',
    );
  }
  return null;
}

/** How better-sqlite3 (its `bindings` package) says it has no binary: npm never built it. */
const NO_SQLITE_BINARY = 'Could not locate the bindings file.';
const NOT_BUILT =
  'brick-work’s SQLite library (better-sqlite3) is not built for this Node.js (npm install --ignore-scripts ' +
  'skips building it). In the checkout, run  npm rebuild better-sqlite3  (or npm install without --ignore-scripts).';

/**
 * Anything thrown, as a value fit to show: our refusals as they are, the store's own troubles (busy,
 * read-only, damaged, disk full) in plain words, and only the truly unexpected as `internal`.
 */
export function toErrorValue(e: unknown, storePath: string | null = null): ErrorValue {
  if (isBrickWorkError(e)) return e.toValue();
  const trouble = storeTrouble(e, storePath);
  if (trouble !== null) return trouble.toValue();
  if (e instanceof Error && e.message.startsWith(NO_SQLITE_BINARY)) return { code: 'internal', message: NOT_BUILT };
  const detail = e instanceof Error ? e.message : String(e);
  return { code: 'internal', message: `Something went wrong inside brick-work: ${quote(detail)}` };
}
