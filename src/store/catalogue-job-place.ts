/**
 * Where a store keeps its catalogue job's record (SPEC §4, §14): catalogue-job.json beside a SQLite
 * file (`catalogue-job-file.ts`), the `catalogue_job_state` row on a server (`catalogue-job-row.ts`).
 * Both keep the record as JSON behind one interface, so the catalogue job (src/catalogue/catalogue-job.ts)
 * reads, claims and writes it without asking which one a store has; the record's meaning is the job's.
 */
import type { ReadableDb, StoreDb } from './db.ts';
import { onServer } from './dialect.ts';
import { catalogueJobFile } from './catalogue-job-file.ts';
import { catalogueJobRowPlace, catalogueJobRowReadPlace } from './catalogue-job-row.ts';

/** What the place holds: no record yet, the record's JSON text, or why it could not be read. */
export type StoredJobRecord =
  | { readonly status: 'none' }
  | { readonly status: 'text'; readonly text: string }
  | { readonly status: 'unreadable'; readonly problem: string };

export interface CatalogueJobPlace {
  /** The place as the jobs list and warnings name it: the file's path, or the row. */
  readonly name: string;
  read(): StoredJobRecord;
  /** Writes the record (a JSON value), whole. */
  write(record: object): void;
  /**
   * Writes progress where every desk sees it at once. `inside`: the caller's own transaction is open (a
   * file's merge), whose writes no other desk sees before it ends: on a server the row is then written on
   * a connection of its own, as the file beside a SQLite store is seen at once. False when it could not be.
   */
  writeProgress(record: object, inside: boolean): boolean;
  /** Leaves nothing of writers that were killed mid-write (under the write lock). */
  tidy(): void;
}

/** The place as a reader sees it: its name and what it holds. */
export type CatalogueJobReadPlace = Pick<CatalogueJobPlace, 'name' | 'read'>;

/**
 * The store's place, written under its write lock by the caller, in the same transaction as the lock (a
 * row) or serialised by it (a file), so the catalogue job's check-and-claim is one step.
 */
export function catalogueJobPlace(db: StoreDb, storePath: string): CatalogueJobPlace {
  return onServer(db) ? catalogueJobRowPlace(db) : catalogueJobFile(storePath);
}

export function catalogueJobReadPlace(db: ReadableDb, storePath: string): CatalogueJobReadPlace {
  return onServer(db) ? catalogueJobRowReadPlace(db) : catalogueJobFile(storePath);
}
