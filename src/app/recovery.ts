/**
 * Recovery of dead owners' work (SPEC §4), the one way: what the app and the browser host do at their
 * start, and what `brick-work jobs recover` does when told. Each recovered job is said in a sentence.
 */
import type { StoreDb } from '../store/db.ts';
import type { Clock } from '../platform/clock.ts';
import { toErrorValue } from '../store/errors.ts';
import { withBusyTimeout } from '../store/busy.ts';
import { placeLinesLeftWaiting, recoverCatalogueJob, type RecoveredCatalogueJob } from '../catalogue/catalogue-job.ts';
import { ownerWords, recoverJobs, type RecoveredJob } from '../jobs/queue.ts';

export interface Recovery {
  readonly jobs: readonly RecoveredJob[];
  readonly catalogueJob: RecoveredCatalogueJob | null;
  /** One sentence per thing recovered, for the log. */
  readonly lines: readonly string[];
}

/** Puts dead owners' running jobs back in the queue, and ends a dead owner's catalogue job as failed. */
export function recoverDeadOwners(db: StoreDb, storePath: string | null, clock: Clock): Recovery {
  const found: Found = { jobs: [], catalogueJob: null, leftWaiting: null };
  for (const part of parts(db, storePath, clock)) part(found);
  return said(found);
}

/**
 * Recovery waiting at most `waitMs` for another process's write lock (the thread that answers the
 * screens never waits for it, SPEC §11): what it could do, and whether it is all done. Each part is done
 * whole or not at all, and finds only what is still to do, so the rest is asked again later.
 */
export function recoverDeadOwnersNow(
  db: StoreDb,
  storePath: string | null,
  clock: Clock,
  waitMs = 0,
): { recovery: Recovery; done: boolean } {
  const found: Found = { jobs: [], catalogueJob: null, leftWaiting: null };
  try {
    withBusyTimeout(db, waitMs, () => {
      for (const part of parts(db, storePath, clock)) part(found);
    });
    return { recovery: said(found), done: true };
  } catch (e) {
    if (toErrorValue(e).code !== 'store-busy') throw e;
    return { recovery: said(found), done: false };
  }
}

interface Found {
  jobs: RecoveredJob[];
  catalogueJob: RecoveredCatalogueJob | null;
  leftWaiting: number | null;
}

function parts(db: StoreDb, storePath: string | null, clock: Clock): ((found: Found) => void)[] {
  return [
    (f) => void f.jobs.push(...recoverJobs(db, { clock })),
    (f) => void (f.catalogueJob = storePath === null ? null : recoverCatalogueJob(db, storePath, { clock })),
    // A load that ended by itself between its batches (failed in words) left lines waiting: placed now.
    (f) => void (f.leftWaiting = storePath === null ? null : placeLinesLeftWaiting(db, storePath)),
  ];
}

function said({ jobs, catalogueJob, leftWaiting }: Found): Recovery {
  return {
    jobs,
    catalogueJob,
    lines: [
      ...jobs.map(
        (r) =>
          `recovered job ${r.id} (${r.kind}): ${r.deadOwner === null ? 'it had no owner' : `${ownerWords(r.deadOwner, r.deadDesk)}, which ran it, is gone`}; it is queued again`,
      ),
      ...(catalogueJob
        ? [
            `recovered the catalogue job (${catalogueJob.kind}): ${catalogueJob.who}, which was loading it, is gone; ` +
              `it is marked failed, and ${catalogueJob.placed} unplaced lines were placed again`,
          ]
        : []),
      ...(leftWaiting === null
        ? []
        : [
            `placed again the lines the last catalogue load left waiting: ${leftWaiting} unplaced lines are placed now`,
          ]),
    ],
  };
}
