import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { nativeOptions } from './native.ts';
import { inspectFile, needsUpgradeError, refusalFor, statusOf } from './inspect.ts';
import { createSchema, prepareStore, type Progress, type UpgradeReport } from './upgrade-runner.ts';

export interface Store {
  readonly db: Database.Database;
  /** The file, or null for the empty in-memory store a read-only open gives when there is no file yet. */
  readonly path: string | null;
  readonly readOnly: boolean;
  /** Set when this open made a new store file. */
  readonly created: boolean;
  /** Set when this open upgraded the file, with where the backup is. */
  readonly upgrade: UpgradeReport | null;
  close(): void;
}

export interface OpenOptions {
  readonly readOnly?: boolean;
  /** Told what the upgrade is doing, when there is one. */
  readonly onProgress?: Progress;
}

/** How long a connection waits for another process's write lock before it gives up. */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * Opens the store at `storePath` (SPEC §2).
 *
 * Read-write: a missing or empty file becomes a new store; an older one is upgraded (backup first);
 * connections use WAL, foreign keys, a busy timeout and `synchronous=FULL`.
 * Read-only: never changes the file; an older file is refused with `needs-upgrade` (`inspectStore`
 * still reports it); a missing one opens as an empty in-memory store, so readers see "nothing yet".
 * Either way a file of another application, a newer or a too-old store is refused before anything
 * touches it.
 */
export async function openStore(storePath: string, options: OpenOptions = {}): Promise<Store> {
  const file = inspectFile(storePath);
  const refusal = refusalFor(storePath, file);
  if (refusal) throw refusal;

  if (options.readOnly) {
    if (file.kind === 'missing' || file.kind === 'empty') return memoryStore();
    if (file.kind === 'store' && statusOf(file.version) === 'needs-upgrade') throw needsUpgradeError(file.version);
    const db = new Database(storePath, { ...nativeOptions(), readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    db.pragma('foreign_keys = ON');
    return wrap(db, storePath, true, false, null);
  }

  fs.mkdirSync(path.dirname(storePath), { recursive: true });
  const db = new Database(storePath, { ...nativeOptions(), timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('cache_size = -32000'); // 32 MB: catalogue loads touch many index pages
    db.pragma('foreign_keys = ON');
    const prepared = await prepareStore(db, storePath, options.onProgress ?? (() => {}));
    return wrap(db, storePath, false, prepared.created, prepared.upgrade);
  } catch (e) {
    db.close();
    throw e;
  }
}

function memoryStore(): Store {
  const db = new Database(':memory:', nativeOptions());
  db.pragma('foreign_keys = ON');
  db.transaction(() => createSchema(db))();
  return wrap(db, null, true, false, null);
}

function wrap(
  db: Database.Database,
  storePath: string | null,
  readOnly: boolean,
  created: boolean,
  upgrade: UpgradeReport | null,
): Store {
  return {
    db,
    path: storePath,
    readOnly,
    created,
    upgrade,
    close: () => db.close(),
  };
}
