/**
 * The catalogue job's record on a server store (SPEC §14): one row of `catalogue_job_state`, where a
 * SQLite store keeps catalogue-job.json. Read and written under the store's write lock by
 * `src/catalogue/catalogue-job.ts`, in the same transaction, so its check-and-claim is one step.
 */
import type { ReadableDb, StoreDb } from './db.ts';
import { PostgresDatabase } from './postgres/database.ts';

/** The record's JSON text, or null when there has been no catalogue job. */
export function readCatalogueJobRow(db: ReadableDb): string | null {
  const text = db.prepare('SELECT state FROM catalogue_job_state WHERE one = 1').pluck().get() as string | undefined;
  return text ?? null;
}

export function writeCatalogueJobRow(db: StoreDb, json: string): void {
  db.prepare(
    'INSERT INTO catalogue_job_state (one, state) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET state = excluded.state',
  ).run(json);
}

/**
 * The row written at once, seen by every desk even while this connection's transaction is open (a load's
 * progress during its merge, SPEC §14); false when it could not be (it is best effort: the next write
 * tries again). Only on a server, and only while this connection's own transaction is open.
 */
export function writeCatalogueJobRowAside(db: StoreDb, json: string): boolean {
  if (!(db instanceof PostgresDatabase)) throw new Error('only a server store writes its catalogue job row aside');
  return db.writeAside('UPDATE catalogue_job_state SET state = ? WHERE one = 1', [json]);
}

/** The `catalogue_job_state` row as the catalogue job reads and writes it (JSON text). */
export interface CatalogueJobRow {
  read(): string | null;
  write(json: string): void;
  /** `writeCatalogueJobRowAside`: seen by every desk while this connection's transaction is open. */
  writeAside(json: string): boolean;
}

/**
 * Where this store keeps its catalogue job's record: the row, on a server; null for a store file,
 * which keeps it in catalogue-job.json beside it (`src/catalogue/catalogue-job.ts`).
 */
export function catalogueJobRow(db: StoreDb): CatalogueJobRow | null {
  if (!(db instanceof PostgresDatabase)) return null;
  return {
    read: () => readCatalogueJobRow(db),
    write: (json) => writeCatalogueJobRow(db, json),
    writeAside: (json) => writeCatalogueJobRowAside(db, json),
  };
}

/** The same place, for a reader: the row's read on a server; null for a store file. */
export function catalogueJobRowReader(db: ReadableDb): (() => string | null) | null {
  return db instanceof PostgresDatabase ? () => readCatalogueJobRow(db) : null;
}
