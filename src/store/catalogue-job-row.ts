/**
 * The catalogue job's record on a server store (SPEC §14): one row of `catalogue_job_state`, where a
 * SQLite store keeps catalogue-job.json (`catalogue-job-place.ts` gives one or the other). Read and written
 * under the store's write lock by `src/catalogue/catalogue-job.ts`, in the same transaction, so its
 * check-and-claim is one step.
 */
import type { ReadableDb, StoreDb } from './db.ts';
import { PostgresDatabase } from './postgres/database.ts';
import type { CatalogueJobPlace, CatalogueJobReadPlace, StoredJobRecord } from './catalogue-job-place.ts';

/** How the jobs list and warnings name the row. */
const ROW_NAME = 'the store’s catalogue_job_state row';

/** The record's JSON text, or null when there has been no catalogue job. */
function readCatalogueJobRow(db: ReadableDb): string | null {
  const text = db.prepare('SELECT state FROM catalogue_job_state WHERE one = 1').pluck().get() as string | undefined;
  return text ?? null;
}

function writeCatalogueJobRow(db: StoreDb, json: string): void {
  db.prepare(
    'INSERT INTO catalogue_job_state (one, state) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET state = excluded.state',
  ).run(json);
}

/**
 * The row written at once, seen by every desk even while this connection's transaction is open (a load's
 * progress during its merge, SPEC §14); false when it could not be (it is best effort: the next write
 * tries again). Only on a server, and only while this connection's own transaction is open.
 */
function writeCatalogueJobRowAside(db: StoreDb, json: string): boolean {
  if (!(db instanceof PostgresDatabase)) throw new Error('only a server store writes its catalogue job row aside');
  return db.writeAside('UPDATE catalogue_job_state SET state = ? WHERE one = 1', [json]);
}

/** What the row holds: its JSON text, or no record yet. */
function readRow(db: ReadableDb): StoredJobRecord {
  const text = readCatalogueJobRow(db);
  return text === null ? { status: 'none' } : { status: 'text', text };
}

/** The row as the catalogue job's place (`catalogue-job-place.ts`). */
export function catalogueJobRowPlace(db: StoreDb): CatalogueJobPlace {
  return {
    name: ROW_NAME,
    read: () => readRow(db),
    write: (record) => writeCatalogueJobRow(db, JSON.stringify(record)),
    writeProgress: (record, inside) => {
      const json = JSON.stringify(record);
      if (inside) return writeCatalogueJobRowAside(db, json);
      writeCatalogueJobRow(db, json);
      return true;
    },
    tidy: () => {},
  };
}

/** The same place, for a reader. */
export function catalogueJobRowReadPlace(db: ReadableDb): CatalogueJobReadPlace {
  return { name: ROW_NAME, read: () => readRow(db) };
}
