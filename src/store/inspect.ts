import fs from 'node:fs';
import { join as pathJoin } from 'node:path';
import Database from 'better-sqlite3';
import { headerFromBytes, page1HoldsSchema, type HeaderBytes } from './header-bytes.ts';
import { strayJournal } from './access.ts';
import { nativeOptions } from './native.ts';
import type { StoreDb } from './db.ts';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import { APP_VERSION } from '../platform/version.ts';
import { APPLICATION_ID, formatApplicationId } from './application-id.ts';
import { compareVersions, formatVersion, fromUserVersion, type SchemaVersion } from './schema-version.ts';
import { BASELINE_SCHEMA, CURRENT_SCHEMA } from './upgrades/index.ts';

/** What a file is, as far as brick-work is concerned, read without changing it. */
export type FileKind =
  | { readonly kind: 'missing' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'not-sqlite'; readonly detail: string }
  | { readonly kind: 'foreign'; readonly applicationId: number }
  | { readonly kind: 'store'; readonly version: SchemaVersion }
  /** A folder, a SQLite file cut short or that SQLite can't read, or a file brick-work may not read. */
  | {
      readonly kind: 'damaged';
      readonly why: 'folder' | 'cut-short' | 'malformed' | 'unreadable';
      readonly detail: string;
    };

export type StoreStatus = 'current' | 'needs-upgrade' | 'too-new' | 'too-old';

/** The header values of an open connection. */
export interface Header {
  readonly applicationId: number;
  readonly userVersion: number;
  readonly objects: number;
}

export function readHeader(db: StoreDb): Header {
  return {
    applicationId: db.pragma('application_id', { simple: true }) as number,
    userVersion: db.pragma('user_version', { simple: true }) as number,
    objects: db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() as number,
  };
}

export function classifyHeader(h: Header): FileKind {
  // A SQLite file with nothing in it is as good as an empty file: it becomes a new store.
  if (h.applicationId === 0 && h.userVersion === 0 && h.objects === 0) return { kind: 'empty' };
  if (h.applicationId !== APPLICATION_ID) return { kind: 'foreign', applicationId: h.applicationId };
  return { kind: 'store', version: fromUserVersion(h.userVersion) };
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * What a file's first 100 bytes say, read without SQLite: whether it starts like SQLite, and if so
 * whether it was cut short — told from the size its header gives, so that SQLite never opens such a
 * file (and makes no `-wal` or `-shm` beside it). `cutShort` says how, in words.
 */
type HeaderCheck = { readonly sqlite: false } | { readonly sqlite: true; readonly cutShort: string | null };

function checkHeader(file: string, size: number): HeaderCheck {
  const header = Buffer.alloc(100);
  const fd = fs.openSync(file, 'r');
  let n: number;
  try {
    n = fs.readSync(fd, header, 0, 100, 0);
  } finally {
    fs.closeSync(fd);
  }
  const short = (how: string): HeaderCheck => ({ sqlite: true, cutShort: how });
  // The first bytes of SQLite's own header, and nothing more: a store cut off at its very start.
  if (n < 16) {
    return header.toString('latin1', 0, n) === SQLITE_MAGIC.slice(0, n)
      ? short(`only ${size} bytes, less than its 100-byte header`)
      : { sqlite: false };
  }
  if (header.toString('latin1', 0, 16) !== SQLITE_MAGIC) return { sqlite: false };
  const whole: HeaderCheck = { sqlite: true, cutShort: null };
  if (n < 100) return short(`only ${size} bytes, less than its 100-byte header`);
  // A -wal or hot -journal with content may finish (or undo) a write that was cut off: SQLite's to judge.
  for (const side of ['-wal', '-journal']) {
    if ((fs.statSync(`${file}${side}`, { throwIfNoEntry: false })?.size ?? 0) > 0) return whole;
  }
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return whole;
  if (size % pageSize !== 0) return short(`${size} bytes, not a whole number of its ${pageSize}-byte pages`);
  // The page count in the header is valid when the change counter matches "version-valid-for".
  const pages = header.readUInt32BE(28);
  if (pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92) && size < pages * pageSize) {
    return short(`only ${size} of its ${pages * pageSize} bytes are there`);
  }
  return whole;
}

/**
 * Removes the `-wal` and `-shm` files an open of `file` made beside it (they did not exist before it)
 * when the `-wal` holds nothing, so the index indexes nothing: what a failed read of a damaged file leaves.
 */
function removeEmptyLeftovers(file: string, existedBefore: { wal: boolean; shm: boolean }): void {
  const wal = `${file}-wal`;
  const walSize = fs.statSync(wal, { throwIfNoEntry: false })?.size;
  if (walSize !== undefined && walSize > 0) return;
  if (!existedBefore.wal && walSize === 0) fs.rmSync(wal, { force: true });
  if (!existedBefore.shm) fs.rmSync(`${file}-shm`, { force: true });
}

/** Opens `path` read-only (never creating or changing it) and says what it is. */
export function inspectFile(path: string): FileKind {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'EACCES' || code === 'EPERM') return { kind: 'damaged', why: 'unreadable', detail: code };
    throw e;
  }
  if (stat.isDirectory()) return { kind: 'damaged', why: 'folder', detail: 'a folder' };
  const size = stat.size;
  if (size === 0) return { kind: 'empty' };
  let header: HeaderCheck;
  try {
    header = checkHeader(path, size);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return { kind: 'damaged', why: 'unreadable', detail: code };
    throw e;
  }
  if (header.sqlite && header.cutShort !== null) return { kind: 'damaged', why: 'cut-short', detail: header.cutShort };
  // Not SQLite, and not empty: never handed to SQLite, which would take a file of a few bytes for an
  // empty database — and the open would then make a new store of it (SPEC §11: a file brick-work did
  // not make is never replaced).
  if (!header.sqlite) return { kind: 'not-sqlite', detail: 'it does not start like a SQLite file' };
  const existedBefore = { wal: fs.existsSync(`${path}-wal`), shm: fs.existsSync(`${path}-shm`) };
  const bytes = headerFromBytes(path);
  // A file to refuse is told by its bytes: SQLite's read-only connection would leave an empty -wal and
  // a -shm beside another application's file, or a store this build can't open (issue 62).
  const refused = bytes === null ? null : refusedByBytes(path, bytes);
  if (refused !== null) return refused;
  // With a WAL, its index or a stray journal beside it, a brick-work store is told by its bytes too: a
  // SQLite connection would rebuild the -shm, or refuse the journal (the read-write open then checks the
  // store on a copy, damage included).
  if (existedBefore.wal || existedBefore.shm || strayJournal(path) !== null) {
    if (bytes !== null && bytes.applicationId === APPLICATION_ID)
      return { kind: 'store', version: fromUserVersion(bytes.userVersion) };
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { ...nativeOptions(), readonly: true, fileMustExist: true });
    return classifyHeader(readHeader(db));
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
      db?.close();
      db = undefined;
      removeEmptyLeftovers(path, existedBefore);
      if (!header.sqlite) return { kind: 'not-sqlite', detail: (e as Error).message };
      return { kind: 'damaged', why: 'malformed', detail: (e as Error).message };
    }
    throw e;
  } finally {
    db?.close();
  }
}

/**
 * What a file's bytes alone say of one brick-work refuses, whatever the rest holds: another application's
 * (an application id not ours; with none, a user version or tables all the same), or a store of a version
 * this build can't open. Null when SQLite must look: an empty SQLite file, or a store this build opens.
 */
function refusedByBytes(file: string, bytes: HeaderBytes): FileKind | null {
  if (bytes.applicationId === APPLICATION_ID) {
    const version = fromUserVersion(bytes.userVersion);
    const status = statusOf(version);
    return status === 'too-new' || status === 'too-old' ? { kind: 'store', version } : null;
  }
  if (bytes.applicationId !== 0 || bytes.userVersion !== 0 || page1HoldsSchema(file) === true)
    return { kind: 'foreign', applicationId: bytes.applicationId };
  return null;
}

export function statusOf(version: SchemaVersion): StoreStatus {
  const vsCurrent = compareVersions(version, CURRENT_SCHEMA);
  if (vsCurrent === 0) return 'current';
  if (vsCurrent > 0) return 'too-new';
  return compareVersions(version, BASELINE_SCHEMA) < 0 ? 'too-old' : 'needs-upgrade';
}

/** The refusal for a file this build can't open at all (any mode), or null. */
export function refusalFor(path: string, file: FileKind): BrickWorkError | null {
  const current = formatVersion(CURRENT_SCHEMA);
  switch (file.kind) {
    case 'missing':
    case 'empty':
      return null;
    case 'not-sqlite':
      return new BrickWorkError(
        'not-a-store',
        `${path} is not a brick-work store: it is not a SQLite database. It was left untouched.`,
      );
    case 'damaged':
      return damagedError(path, file);
    case 'foreign':
      return new BrickWorkError(
        'not-a-store',
        `${path} is not a brick-work store: it is a SQLite database of another application ` +
          `(application id ${formatApplicationId(file.applicationId)}, not ` +
          `${formatApplicationId(APPLICATION_ID)} "BRKW"). It was left untouched.`,
      );
    case 'store': {
      const found = formatVersion(file.version);
      const status = statusOf(file.version);
      if (status === 'too-new') {
        return new BrickWorkError(
          'store-too-new',
          `This store is schema ${found}, newer than brick-work ${APP_VERSION} can read (schema ${current}). ` +
            `Open it with the newer brick-work that wrote it. The file was left untouched.`,
        );
      }
      if (status === 'too-old') {
        return new BrickWorkError(
          'store-too-old',
          `This store is schema ${found}, older than brick-work ${APP_VERSION} can upgrade ` +
            `(it upgrades schema ${formatVersion(BASELINE_SCHEMA)} to ${current}). Open it once with ` +
            `brick-work 0.8.x, which upgrades it to ${formatVersion(BASELINE_SCHEMA)}, then with this one. ` +
            `The file was left untouched.`,
        );
      }
      return null;
    }
  }
}

function damagedError(path: string, file: Extract<FileKind, { kind: 'damaged' }>): BrickWorkError {
  switch (file.why) {
    case 'folder':
      return new BrickWorkError(
        'store-damaged',
        `${path} is a folder, not a brick-work store file. Nothing was changed; give the store file itself ` +
          `(for example ${pathJoin(path, 'brick-work.sqlite')}).`,
      );
    case 'cut-short':
      return new BrickWorkError(
        'store-damaged',
        `${path} is damaged: it is a SQLite file that has been cut short (${file.detail}). It was left untouched; ` +
          'put back a copy from a backup, then try again.',
      );
    case 'malformed':
      return new BrickWorkError(
        'store-damaged',
        `${path} is damaged: it starts like a SQLite file, but SQLite can't read it (${quote(file.detail)}). ` +
          'It was left untouched; put back a copy from a backup, or ask for help before changing it.',
      );
    case 'unreadable':
      return new BrickWorkError(
        'store-damaged',
        `${path} can't be read: brick-work has no permission to read it. It was left untouched; ` +
          'ask whoever manages this computer to let you read it, then try again.',
      );
  }
}

export function needsUpgradeError(version: SchemaVersion): BrickWorkError {
  return new BrickWorkError(
    'needs-upgrade',
    `this store is schema ${formatVersion(version)}; open it read-write once to upgrade it to ${formatVersion(CURRENT_SCHEMA)}`,
  );
}
