import fs from 'node:fs';
import Database from 'better-sqlite3';
import { nativeOptions } from './native.ts';
import {
  folderWritable,
  readablePlace,
  steadyCopy,
  strayJournal,
  strayJournalReason,
  whyUnwritable,
  type ReadablePlace,
} from './access.ts';
import { APP_VERSION } from '../platform/version.ts';
import { inspectFile, readHeader, refusalFor, statusOf, type StoreStatus } from './inspect.ts';
import { compareVersions, formatVersion } from './schema-version.ts';
import { CURRENT_SCHEMA } from './upgrades/index.ts';
import type { StoreDb } from './db.ts';
import { APPLICATION_ID } from './application-id.ts';
import { isServerAddress, storeName } from '../vocabulary/store-location.ts';
import { foreignDatabase, lookAtServer, SERVER_BORN_AT } from './postgres/open.ts';

/** Row counts reported by `store info`, by the name staff read, for the tables a store of any version has. */
const COUNTED_TABLES = {
  items: 'catalogue_item',
  colours: 'colour',
  categories: 'category',
  orders: 'shop_order',
  documents: 'document',
  lines: 'order_line',
  jobs: 'job',
  undoSteps: 'undo_step',
  handPlacements: 'hand_placement',
} as const;

/** The schema a store on a server is made at, as "4.2": none older is upgraded there. */
export const SERVER_FIRST_SCHEMA = formatVersion(SERVER_BORN_AT);

export interface StoreInfo {
  readonly path: string;
  readonly exists: boolean;
  /** The file's schema, "4.2"; null when there is no store file yet. */
  readonly schema: string | null;
  readonly applicationId: number | null;
  readonly status: StoreStatus | 'none';
  /** The schema this build reads and writes, and its version. */
  readonly appSchema: string;
  readonly appVersion: string;
  readonly counts: Record<string, number>;
  /** Why the store can't be written, when it can't (it is still read: SPEC §11); null when it can. */
  readonly readOnly: string | null;
  /** Set when it was read from a private snapshot copy, as SQLite could not read it in place. */
  readonly snapshot: boolean;
  /** A store on a PostgreSQL server (SPEC §14), which begins at 4.2 and has its own upgrades. */
  readonly onServer: boolean;
}

/**
 * What `store info` reports: works read-only on a store of any version (it never changes the file),
 * and refuses only a file that is not a brick-work store at all.
 */
export function inspectStore(storePath: string): StoreInfo {
  if (isServerAddress(storePath)) return inspectServer(storePath);
  const journal = strayJournal(storePath);
  const place = placeToRead(storePath, journal !== null);
  try {
    const readOnly = journal !== null ? strayJournalReason(journal) : whyUnwritable(storePath);
    // Said only when SQLite could not have read it in place: a copy taken not to change the files is no news.
    return inspectAt(storePath, place.path, { readOnly, snapshot: place.snapshot && !folderWritable(storePath) });
  } finally {
    place.dispose();
  }
}

/**
 * Where `store info` reads the file, changing nothing beside it (issue 62): a private copy while a `-wal`
 * or `-shm` lies beside it (SQLite's first reader in place would rebuild the `-shm`, of a store perhaps
 * damaged: its files stay byte for byte), or a stray journal (SQLite would not read it), or when it is a
 * store this build refuses (left untouched: no `-wal`/`-shm` made beside it). A copy that another
 * process's writes keep moving is given up for the file in place, as the CLI's reads do.
 */
function placeToRead(storePath: string, strayJournalBeside: boolean): ReadablePlace {
  if (strayJournalBeside) return steadyCopy(storePath, false);
  if (fs.existsSync(`${storePath}-wal`) || fs.existsSync(`${storePath}-shm`)) return steadyCopy(storePath, true);
  const file = inspectFile(storePath);
  if (file.kind === 'store' && refusalFor(storePath, file) !== null) return steadyCopy(storePath, true);
  return readablePlace(storePath);
}

function inspectAt(
  storePath: string,
  readFrom: string,
  how: { readonly readOnly: string | null; readonly snapshot: boolean },
): StoreInfo {
  const file = inspectFile(readFrom);
  const base = {
    path: storePath,
    appSchema: formatVersion(CURRENT_SCHEMA),
    appVersion: APP_VERSION,
    ...how,
    onServer: false,
  };
  if (file.kind === 'missing' || file.kind === 'empty') {
    return { ...base, exists: file.kind === 'empty', schema: null, applicationId: null, status: 'none', counts: {} };
  }
  if (file.kind !== 'store') throw refusalFor(storePath, file) ?? new Error('unreachable');
  const db = new Database(readFrom, { ...nativeOptions(), readonly: true, fileMustExist: true });
  try {
    const header = readHeader(db);
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    const counts = countRows(db, tables);
    return {
      ...base,
      exists: true,
      schema: formatVersion(file.version),
      applicationId: header.applicationId,
      status: statusOf(file.version),
      counts,
    };
  } finally {
    db.close();
  }
}

function countRows(db: StoreDb, tables: ReadonlySet<string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [label, table] of Object.entries(COUNTED_TABLES)) {
    if (tables.has(table)) counts[label] = db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
  }
  if (tables.has('order_line')) {
    counts['unplacedLines'] = db
      .prepare('SELECT count(*) FROM order_line WHERE item_no IS NULL')
      .pluck()
      .get() as number;
  }
  return counts;
}

/** `store info` of a store on a server: read without changing anything, whatever its version. */
function inspectServer(url: string): StoreInfo {
  const found = lookAtServer(url);
  const base = {
    path: storeName(url),
    appSchema: formatVersion(CURRENT_SCHEMA),
    appVersion: APP_VERSION,
    readOnly: null,
    snapshot: false,
    onServer: true,
  };
  try {
    if (found.kind === 'empty') {
      return { ...base, exists: false, schema: null, applicationId: null, status: 'none', counts: {} };
    }
    if (found.kind === 'foreign') throw foreignDatabase(url, found.applicationId);
    return {
      ...base,
      exists: true,
      schema: formatVersion(found.version),
      applicationId: APPLICATION_ID,
      // Older than a server store's first schema, no upgrade takes it (`openServerStore` refuses it).
      status: compareVersions(found.version, SERVER_BORN_AT) < 0 ? 'too-old' : statusOf(found.version),
      counts: countRows(found.db, new Set(Object.values(COUNTED_TABLES))),
    };
  } finally {
    found.db.close();
  }
}
