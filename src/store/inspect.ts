import fs from 'node:fs';
import Database from 'better-sqlite3';
import { nativeOptions } from './native.ts';
import { BrickWorkError } from '../errors.ts';
import { APP_VERSION } from '../version.ts';
import { APPLICATION_ID, formatApplicationId } from './application-id.ts';
import {
  compareVersions,
  formatVersion,
  fromUserVersion,
  type SchemaVersion,
} from './schema-version.ts';
import { BASELINE_SCHEMA, CURRENT_SCHEMA } from './upgrades/index.ts';

/** What a file is, as far as brick-work is concerned, read without changing it. */
export type FileKind =
  | { readonly kind: 'missing' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'not-sqlite'; readonly detail: string }
  | { readonly kind: 'foreign'; readonly applicationId: number }
  | { readonly kind: 'store'; readonly version: SchemaVersion };

export type StoreStatus = 'current' | 'needs-upgrade' | 'too-new' | 'too-old';

/** The header values of an open connection. */
export interface Header {
  readonly applicationId: number;
  readonly userVersion: number;
  readonly objects: number;
}

export function readHeader(db: Database.Database): Header {
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

/** Opens `path` read-only (never creating or changing it) and says what it is. */
export function inspectFile(path: string): FileKind {
  let size: number;
  try {
    size = fs.statSync(path).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw e;
  }
  if (size === 0) return { kind: 'empty' };
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { ...nativeOptions(), readonly: true, fileMustExist: true });
    return classifyHeader(readHeader(db));
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      return { kind: 'not-sqlite', detail: (e as Error).message };
    }
    throw e;
  } finally {
    db?.close();
  }
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

export function needsUpgradeError(version: SchemaVersion): BrickWorkError {
  return new BrickWorkError(
    'needs-upgrade',
    `this store is schema ${formatVersion(version)}; open it read-write once to upgrade it to ${formatVersion(CURRENT_SCHEMA)}`,
  );
}
