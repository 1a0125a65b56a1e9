import { quote } from '../vocabulary/errors.ts';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { StoreDb } from './db.ts';
import { isServerAddress } from '../vocabulary/store-location.ts';
import { EmptyServerDatabase, openServerStore, type OpenedServerStore } from './postgres/open.ts';
import { nativeOptions } from './native.ts';
import { readablePlace, steadyCopy, strayJournal, strayJournalRefusal, whyUnwritable } from './access.ts';
import { checkOnCopy, hasWalBeside, quickCheck } from './soundness.ts';
import { inspectFile, needsUpgradeError, refusalFor, statusOf } from './inspect.ts';
import { createSchema, prepareStore, type Progress, type UpgradeReport } from './upgrade-runner.ts';
import { standInForMissingTables } from './upgrades/fixups.ts';

export interface Store {
  readonly db: StoreDb;
  /** The file, or null for the empty in-memory store a read-only open gives when there is no file yet. */
  readonly path: string | null;
  readonly readOnly: boolean;
  /**
   * Why the store can't be written, in plain words ("its folder (…) is read-only"), when a read-write
   * open found it so and opened it for reading instead (SPEC §11); null otherwise. Writers refuse
   * with `read-only-store` before they try.
   */
  readonly unwritable: string | null;
  /**
   * Set when the read-write open's check found the file damaged (SPEC §11): it was opened for reading
   * instead, and writes are refused with `store-damaged`; `unwritable` says what the check found.
   */
  readonly damaged: boolean;
  /** Set when the file is read from a private snapshot copy, as SQLite could not read it in place. */
  readonly snapshot: boolean;
  /** Set when this open made a new store file. */
  readonly created: boolean;
  /** Set when this open upgraded the file, with where the backup is. */
  readonly upgrade: UpgradeReport | null;
  close(): void;
}

export interface OpenOptions {
  readonly readOnly?: boolean;
  /**
   * A read-write open runs SQLite's `quick_check` first (about 0.45 s on an 83 MB, 500,000-line store) and
   * opens a damaged file for reading only. False for the app's own threads: the app's main open checked.
   */
  readonly quickCheck?: boolean;
  /** Told what the upgrade is doing, when there is one. */
  readonly onProgress?: Progress;
  /** The platform whose disks the store is written to (`process.platform`; tests inject another). */
  readonly platform?: NodeJS.Platform;
  /**
   * A reader that reads once and closes (a CLI command): with a `-wal` or `-shm` beside the file it
   * reads a private copy. SQLite's first reader in place rebuilds the `-shm`, and a read-only open can't
   * know whether the store is damaged, whose files must stay byte for byte (SPEC §11, issue 45). Never
   * for the app's own threads: they must see the other processes' writes.
   */
  readonly oneShot?: boolean;
}

/**
 * What makes a commit reach the disk, on `platform` (SPEC §2: every row survives a power cut). SQLite's
 * `synchronous=FULL` syncs at every commit; on macOS a plain fsync only hands the data to the drive, which
 * may hold it in its cache: there SQLite uses F_FULLFSYNC only when told (`fullfsync`, and
 * `checkpoint_fullfsync` for the WAL's checkpoints).
 */
export function durabilityPragmas(platform: NodeJS.Platform = process.platform): string[] {
  return ['synchronous = FULL', ...(platform === 'darwin' ? ['fullfsync = ON', 'checkpoint_fullfsync = ON'] : [])];
}

/** How long a connection waits for another process's write lock before it gives up. */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * Opens the store at `storePath` (SPEC §2).
 *
 * Read-write: a missing or empty file becomes a new store; an older one is upgraded (backup first);
 * connections use WAL, foreign keys, a busy timeout and `synchronous=FULL` (with F_FULLFSYNC on macOS).
 * Read-only: never changes the file; an older file is refused with `needs-upgrade` (`inspectStore`
 * still reports it); a missing one opens as an empty in-memory store, so readers see "nothing yet".
 * Either way a file of another application, a newer or a too-old store is refused before anything
 * touches it, and so is a folder or a damaged file (`store-damaged`).
 * A read-write open of a store that can't be written (the file, its folder or the disk is read-only)
 * gives a read-only store instead, with `unwritable` saying why (SPEC §11). One with a stray rollback
 * journal beside it is refused for writing, and read from a private copy (`strayJournal`).
 */
export async function openStore(storePath: string, options: OpenOptions = {}): Promise<Store> {
  if (isServerAddress(storePath)) return openOnServer(storePath, options);
  if (options.readOnly)
    return openReadOnly(
      storePath,
      null,
      false,
      options.oneShot === true && hasWalBeside(storePath) ? 'if-steady' : false,
    );
  const unwritable = whyUnwritable(storePath);
  if (unwritable !== null) return openReadOnly(storePath, unwritable);

  const file = inspectFile(storePath);
  const refusal = refusalFor(storePath, file);
  if (refusal) throw refusal;
  // Never handed to SQLite to write while a stray journal lies beside it: it would apply the journal.
  const journal = file.kind === 'store' ? strayJournal(storePath) : null;
  if (journal !== null) throw strayJournalRefusal(storePath, journal);

  // A store known damaged is never written (SPEC §11) — not even by the checkpoint a closing connection
  // does: with a WAL beside it, it is checked on a copy before any read-write connection opens it.
  const check = options.quickCheck !== false;
  const checkedFirst = check && file.kind === 'store' && hasWalBeside(storePath) ? checkOnCopy(storePath) : null;
  if (checkedFirst !== null && checkedFirst !== 'ok') return openDamaged(storePath, checkedFirst);

  let db: Database.Database;
  try {
    fs.mkdirSync(path.dirname(storePath), { recursive: true });
    db = new Database(storePath, { ...nativeOptions(), timeout: BUSY_TIMEOUT_MS });
  } catch (e) {
    // The permission check can't see everything (ACLs, a share's own rules): SQLite's refusal says the same.
    if (isReadOnlyTrouble(e) || (e as { code?: unknown }).code === 'SQLITE_CANTOPEN')
      return openReadOnly(storePath, UNWRITABLE);
    throw e;
  }
  try {
    db.pragma('journal_mode = WAL');
    for (const pragma of durabilityPragmas(options.platform)) db.pragma(pragma);
    db.pragma('cache_size = -32000'); // 32 MB: catalogue loads touch many index pages
    db.pragma('foreign_keys = ON');
    if (check && checkedFirst === null) {
      // No WAL beside it (or no copy could be made): checked here, before anything writes. Closing this
      // connection on damage writes nothing: its WAL is empty.
      const found = quickCheck(db);
      if (found !== 'ok') {
        db.close();
        return openDamaged(storePath, found);
      }
    }
    const prepared = await prepareStore(db, storePath, options.onProgress ?? (() => {}));
    return wrap(db, storePath, false, prepared.created, prepared.upgrade);
  } catch (e) {
    db.close();
    if (isReadOnlyTrouble(e)) return openReadOnly(storePath, UNWRITABLE);
    throw e;
  }
}

const UNWRITABLE = 'the file or its folder is read-only';

/**
 * A store SQLite's check found damaged: opened for reading only, so staff can still look and export.
 * With a WAL beside it, read from a private copy, so that not even the `-shm` is rebuilt in place.
 */
function openDamaged(storePath: string, found: string): Store {
  const why = `SQLite's check of it found: ${quote(found.replace(/\s+/g, ' '))}`;
  return openReadOnly(storePath, why, true, hasWalBeside(storePath));
}

/** SQLite or the file system refusing a write for want of permission. */
function isReadOnlyTrouble(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('SQLITE_READONLY') || code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
  );
}

/**
 * The read-only open: asked for (`unwritable` null), or because the store can't be written. Never
 * changes the file. Reads in place where SQLite can, else from a private snapshot copy (a WAL store in
 * a folder it can't write: `access.ts`), removed again at close.
 */
function openReadOnly(
  storePath: string,
  unwritable: string | null,
  damaged = false,
  fromCopy: boolean | 'if-steady' = false,
): Store {
  // A stray journal beside it: SQLite would not read it in place (it would want to apply the journal).
  const place =
    strayJournal(storePath) !== null
      ? steadyCopy(storePath, false)
      : fromCopy === false
        ? readablePlace(storePath)
        : steadyCopy(storePath, fromCopy === 'if-steady');
  try {
    const file = inspectFile(place.path);
    const refusal = refusalFor(storePath, file);
    if (refusal) throw refusal;
    if (file.kind === 'missing' || file.kind === 'empty') {
      place.dispose();
      return memoryStore(unwritable);
    }
    if (file.kind === 'store' && statusOf(file.version) === 'needs-upgrade') throw needsUpgradeError(file.version);
    const db = new Database(place.path, {
      ...nativeOptions(),
      readonly: true,
      fileMustExist: true,
      timeout: BUSY_TIMEOUT_MS,
    });
    try {
      db.pragma('foreign_keys = ON');
      standInForMissingTables(db);
    } catch (e) {
      db.close();
      throw e;
    }
    return wrap(db, storePath, true, false, null, {
      unwritable,
      damaged,
      snapshot: place.snapshot,
      onClose: place.dispose,
    });
  } catch (e) {
    place.dispose();
    throw e;
  }
}

function memoryStore(unwritable: string | null = null): Store {
  const db = new Database(':memory:', nativeOptions());
  db.pragma('foreign_keys = ON');
  db.transaction(() => createSchema(db))();
  // Read-only as the store it stands in for: SQLite refuses a write to it (issue 66 §2).
  db.pragma('query_only = 1');
  return wrap(db, null, true, false, null, { unwritable, damaged: false, snapshot: false, onClose: () => {} });
}

function wrap(
  db: Database.Database,
  storePath: string | null,
  readOnly: boolean,
  created: boolean,
  upgrade: UpgradeReport | null,
  extra: { unwritable: string | null; damaged: boolean; snapshot: boolean; onClose: () => void } = {
    unwritable: null,
    damaged: false,
    snapshot: false,
    onClose: () => {},
  },
): Store {
  return {
    db,
    path: storePath,
    readOnly,
    unwritable: extra.unwritable,
    damaged: extra.damaged,
    snapshot: extra.snapshot,
    created,
    upgrade,
    close: () => {
      try {
        db.close();
      } finally {
        extra.onClose();
      }
    },
  };
}

/**
 * A store on a PostgreSQL server (SPEC §14): made at 4.2 in an empty database, upgraded along its own
 * chain, refused untouched when it is another application's or newer; opened for reading, with
 * `unwritable` saying why, when this desk can't write it (a standby, a read-only database or login). The
 * server keeps its own data safe, so there is no quick check, backup file or snapshot.
 */
function openOnServer(url: string, options: OpenOptions): Store {
  let opened: OpenedServerStore;
  try {
    opened = openServerStore(url, { readOnly: options.readOnly === true });
  } catch (e) {
    // An empty database read: an empty store, as a SQLite path with no file yet (nothing made on the server).
    if (e instanceof EmptyServerDatabase) return { ...memoryStore(), path: url };
    throw e;
  }
  // No backup file: the steps ran in one transaction, and the server's own backups keep the rest.
  for (const step of opened.upgraded) options.onProgress?.(`upgraded the store on the server: ${step}`);
  return {
    db: opened.db,
    path: url,
    readOnly: options.readOnly === true || opened.unwritable !== null,
    unwritable: opened.unwritable,
    damaged: false,
    snapshot: false,
    created: opened.created,
    upgrade: null,
    close: () => opened.db.close(),
  };
}
