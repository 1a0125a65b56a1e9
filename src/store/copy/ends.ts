/**
 * The two ends of `store copy` (SPEC §14, ADR 0027 §8): the source, read without ever being changed,
 * and the destination, which must be empty. Each refusal comes before anything is written anywhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BrickWorkError, damagedStore, readOnlyStore } from '../../vocabulary/errors.ts';
import { isServerAddress, storeName } from '../../vocabulary/store-location.ts';
import { backupStore } from '../backup.ts';
import type { StoreDb } from '../db.ts';
import { inspectFile, refusalFor } from '../inspect.ts';
import { openStore, type Store } from '../open.ts';
import { serverDatabaseIsEmpty } from '../postgres/open.ts';
import { TABLES } from '../schema/tables-4.2.ts';
import { countRows, hasTable } from './rows.ts';

export type Progress = (message: string) => void;

export interface Source {
  readonly db: StoreDb;
  /** The schema the source was at, when it was older than this build's (its private copy was upgraded). */
  readonly upgradedFrom: string | null;
  close(): void;
}

/**
 * Opens the store to copy from. A server's is opened read-only. A SQLite file is copied first with
 * SQLite's online backup API (a consistent copy, even while a desk writes) into a private temporary
 * folder, and the copy opened read-write: a 4.1 store is upgraded there, not in place, and the source
 * file is only ever read. A source this build can't open is refused with `openStore`'s own refusal.
 */
export async function openSource(from: string, progress: Progress): Promise<Source> {
  if (isServerAddress(from)) {
    if (serverDatabaseIsEmpty(from)) throw nothingToCopy(`the database ${storeName(from)} is empty`);
    const store = await openStore(from, { readOnly: true });
    return { db: store.db, upgradedFrom: null, close: () => store.close() };
  }
  const file = inspectFile(from);
  const refusal = refusalFor(from, file);
  if (refusal !== null) throw refusal;
  if (file.kind === 'missing') throw nothingToCopy(`there is no file ${from}`);
  if (file.kind === 'empty') throw nothingToCopy(`${from} is empty`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brick-work-copy-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  let store: Store | undefined;
  try {
    const copy = path.join(dir, 'brick-work.sqlite');
    progress(`reading ${from} from a private copy, so that it is never changed`);
    await backupStore(from, copy);
    store = await openStore(copy, { onProgress: (m) => progress(`the private copy: ${m}`) });
    if (store.unwritable !== null) {
      throw store.damaged ? damagedStore(from, store.unwritable) : readOnlyStore(copy, store.unwritable);
    }
    const opened = store;
    return {
      db: opened.db,
      upgradedFrom: opened.upgrade?.from ?? null,
      close: () => {
        try {
          opened.close();
        } finally {
          remove();
        }
      },
    };
  } catch (e) {
    store?.close();
    remove();
    throw e;
  }
}

function nothingToCopy(why: string): BrickWorkError {
  return new BrickWorkError('not-found', `There is no brick-work store to copy: ${why}. Nothing was changed.`);
}

/** What the destination was before the copy: nothing, an empty file, or a store with no rows. */
export type Emptiness = 'nothing' | 'empty-file' | 'empty-store';

/**
 * Refuses, before anything is read or written, a destination that is not empty: `invalid-argument`,
 * as it is the place named that is wrong, not the store in it (a database or file of another
 * application is refused `not-a-store` by `openStore`'s own words). Empty is a server database with
 * nothing in it, a path with no file or an empty one, or a brick-work store with no rows — what a
 * copy that failed or was killed leaves, so that the next one may begin again.
 */
export async function refuseUnlessEmpty(to: string): Promise<Emptiness> {
  if (isServerAddress(to)) {
    if (serverDatabaseIsEmpty(to)) return 'nothing';
  } else {
    const file = inspectFile(to);
    const refusal = refusalFor(to, file);
    if (refusal !== null) throw refusal;
    if (file.kind === 'missing') return 'nothing';
    if (file.kind === 'empty') return 'empty-file';
  }
  let store: Store;
  try {
    store = await openStore(to, { readOnly: true });
  } catch (e) {
    // An older store: a read-write open would upgrade it, so it is not looked into.
    if (e instanceof BrickWorkError && e.code === 'needs-upgrade') throw notEmpty(to, 'a brick-work store');
    throw e;
  }
  try {
    const rows = rowsIn(store.db);
    if (rows.total > 0) throw notEmpty(to, `a brick-work store with ${rows.total} rows (${rows.tables.join(', ')})`);
  } finally {
    store.close();
  }
  return 'empty-store';
}

/** The rows a store holds, its own fix-up marks aside (every new SQLite store has them). */
export function rowsIn(db: StoreDb): { total: number; tables: string[] } {
  let total = 0;
  const tables: string[] = [];
  for (const table of TABLES) {
    if (!hasTable(db, table)) continue;
    const n = countRows(db, table, table === 'setting' ? "key NOT LIKE 'fixup.%'" : '');
    if (n > 0) tables.push(table);
    total += n;
  }
  return { total, tables };
}

export function notEmpty(to: string, holds: string): BrickWorkError {
  return new BrickWorkError(
    'invalid-argument',
    `brick-work copies into an empty store only, and ${storeName(to)} holds ${holds}. Nothing was changed: ` +
      (isServerAddress(to) ? 'give it an empty database.' : 'give it a new file name.'),
  );
}

export interface Destination {
  readonly db: StoreDb;
  close(): void;
  /** After a copy that failed: closes it and puts back a file it made as it was (none, or empty). */
  discard(): void;
}

/** Opens the (empty) destination read-write, so that a new store is born at the current schema as any is. */
export async function openDestination(to: string, was: Emptiness, progress: Progress): Promise<Destination> {
  if (was !== 'empty-store') progress(`making a new store at ${storeName(to)}`);
  const store = await openStore(to);
  if (store.unwritable !== null) {
    store.close();
    throw store.damaged ? damagedStore(to, store.unwritable) : readOnlyStore(to, store.unwritable);
  }
  return {
    db: store.db,
    close: () => store.close(),
    discard: () => {
      store.close();
      // A server's database keeps the empty store it now holds: a new copy goes into it as into nothing.
      if (isServerAddress(to) || was === 'empty-store') return;
      for (const side of ['-wal', '-shm', '-journal']) fs.rmSync(`${to}${side}`, { force: true });
      if (was === 'nothing') fs.rmSync(to, { force: true });
      else fs.truncateSync(to, 0);
    },
  };
}
