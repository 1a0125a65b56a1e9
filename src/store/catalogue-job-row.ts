/**
 * The catalogue job's record on a server store (SPEC §14): one row of `catalogue_job_state`, where a
 * SQLite store keeps catalogue-job.json. Read and written under the store's write lock by
 * `src/catalogue/catalogue-job.ts`, in the same transaction, so its check-and-claim is one step.
 */
import type { StoreDb } from './db.ts';

/** The record's JSON text, or null when there has been no catalogue job. */
export function readCatalogueJobRow(db: StoreDb): string | null {
  const text = db.prepare('SELECT state FROM catalogue_job_state WHERE one = 1').pluck().get() as string | undefined;
  return text ?? null;
}

export function writeCatalogueJobRow(db: StoreDb, json: string): void {
  db.prepare(
    'INSERT INTO catalogue_job_state (one, state) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET state = excluded.state',
  ).run(json);
}
