/**
 * Another desk or process that dies while it runs a job writes nothing as it goes (SPEC §14: its jobs
 * show as abandoned on every desk within 5 s). Nothing moves `data_version` then, so while a job or the
 * catalogue job runs, this looks every two seconds at whether their owners live, and tells the screens
 * (`store.changed`) when that changed: the Catalogue card says the load was abandoned, Load is on again.
 */
import type { StoreDb } from '../store/db.ts';
import { catalogueJobStatus } from '../catalogue/catalogue-job.ts';
import { runningJobs } from '../jobs/queue.ts';

export const OWNER_WATCH_MS = 2_000;

export function watchOwners(
  db: StoreDb,
  storePath: string,
  onChange: () => void,
  everyMs: number = OWNER_WATCH_MS,
): () => void {
  /** Who runs what, and whether they live: the running jobs' and the catalogue job's. */
  const look = (): string | null => {
    if (!db.open) return null;
    try {
      // Only the running ones: every done job keeps its owner, and each liveness is a look at /proc or the server.
      const jobs = runningJobs(db).map((j) => `${j.id}:${j.alive === true}`);
      const catalogue = catalogueJobStatus(db, storePath);
      return `${jobs.join(',')}|${catalogue.record?.state ?? '-'}:${catalogue.alive === true}`;
    } catch {
      return null; // a store out of reach or closing: looked at again next time
    }
  };
  let last = look();
  const timer = setInterval(() => {
    const now = look();
    if (now === null || now === last) return;
    last = now;
    onChange();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
