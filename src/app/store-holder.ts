/**
 * Who holds the store's writes, in staff's words (issue 61 §3): what a write waits for, said on the
 * screen after a moment and in a `store-busy` refusal. Named only where the store can know it: a live
 * catalogue load (whose merges hold the write lock), on a server the session that holds the lock — its
 * desk's job, or the computer it runs on. Null where nothing says (another program writing to the file).
 */
import type { StoreDb } from '../store/db.ts';
import { sameOwner } from '../identity/owner.ts';
import { writeLockHolder } from '../store/owners.ts';
import { catalogueJobStatus } from '../catalogue/catalogue-job.ts';
import { LOOKUP_JOB_KIND } from '../catalogue/lookup-job.ts';
import { runningJobs } from '../jobs/queue.ts';

export function storeHolder(db: StoreDb, storePath: string): string | null {
  try {
    const lock = writeLockHolder(db);
    const load = catalogueJobStatus(db, storePath);
    const loading = load.record?.state === 'running' && load.alive === true ? load.record : null;
    // A server says who holds the lock; a file can't, and a live load is then what holds it, if anything.
    if (loading !== null && (lock === null || sameOwner(lock.owner, loading.owner)))
      return `${deskWords(loading.desk)}'s catalogue load`;
    if (lock === null) return null;
    const job = runningJobs(db).find((j) => j.owner !== null && sameOwner(j.owner, lock.owner));
    if (job !== undefined) return `${deskWords(job.ownerDesk)}'s ${kindWords(job.kind)}`;
    return lock.computer !== null ? `a desk on the computer "${lock.computer}"` : 'another desk';
  } catch {
    return null; // a store closing, or out of reach: the words say less, the write waits all the same
  }
}

function deskWords(desk: string | null | undefined): string {
  return desk ? `desk "${desk}"` : 'another desk';
}

function kindWords(kind: string): string {
  if (kind === LOOKUP_JOB_KIND) return 'BrickLink look-up';
  return `${kind} job`;
}

/** The screen's line while a write waits for `who` (`storeHolder`). */
export function waitingWords(who: string | null): string {
  return `Waiting for ${who ?? 'another brick-work writing to this store'}…`;
}
