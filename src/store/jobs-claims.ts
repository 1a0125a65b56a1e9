/**
 * Who runs a job (SPEC §4): a claim is one guarded upsert of the owner row, whose row count says who
 * won; every change a running job makes checks that its caller still owns it (the owner row holds
 * exactly the caller's three values) and that the job is in the state the caller expects.
 */
import type { OwnerIdentity } from '../identity/owner.ts';
import type { StoreDb } from './db.ts';
import type { JobOwnerColumns, JobState } from './jobs.ts';

/** A job that may be claimed, with the owner it had when read. */
export interface ClaimCandidate extends JobOwnerColumns {
  id: number;
  kind: string;
  state: 'queued' | 'running';
  payload: string;
  progress_done: number;
  progress_total: number | null;
}

/** The owner guard for statements on `job`: this job's owner row holds exactly these three values. */
const OWNED_BY = `EXISTS (SELECT 1 FROM job_owner o
   WHERE o.job_id = job.id AND o.pid = ? AND o.boot_id IS NOT DISTINCT FROM ? AND o.start_ticks IS NOT DISTINCT FROM ?)`;

function ownerParams(o: OwnerIdentity): [number, string | null, number | null] {
  return [o.pid, o.bootId, o.startTicks];
}

const CANDIDATE_COLUMNS =
  'j.id, j.kind, j.state, j.payload, j.progress_done, j.progress_total, o.pid, o.boot_id, o.start_ticks';

/**
 * The jobs that may be claimed on `day` (queued or running, not waiting for a later day), of `kinds`
 * when given, oldest first, 64 after job `after` a page: read once, asked page by page.
 */
export function claimCandidatePages(
  db: StoreDb,
  kinds: readonly string[] | undefined,
): (day: string, after: number) => ClaimCandidate[] {
  const kindFilter = kinds ? `AND j.kind IN (${kinds.map(() => '?').join(', ')})` : '';
  const page = db.prepare(
    `SELECT ${CANDIDATE_COLUMNS}
       FROM job j LEFT JOIN job_owner o ON o.job_id = j.id
      WHERE j.state IN ('queued', 'running') AND (j.not_before_day IS NULL OR j.not_before_day <= ?)
        AND j.id > ? ${kindFilter}
      ORDER BY j.id LIMIT 64`,
  );
  return (day, after) => page.all(day, after, ...(kinds ?? [])) as ClaimCandidate[];
}

/** Job `id` as a claim reads it, in whatever state, with the desk that claimed it last. */
export function claimCandidate(
  db: StoreDb,
  id: number,
): (Omit<ClaimCandidate, 'state'> & { state: JobState; owner_desk: string | null }) | undefined {
  return db
    .prepare(
      `SELECT ${CANDIDATE_COLUMNS}, (SELECT k.desk FROM job_owner_desk k WHERE k.job_id = j.id) AS owner_desk
         FROM job j LEFT JOIN job_owner o ON o.job_id = j.id WHERE j.id = ?`,
    )
    .get(id) as (Omit<ClaimCandidate, 'state'> & { state: JobState; owner_desk: string | null }) | undefined;
}

/**
 * Makes `me` the owner of job `id`, only if its owner row still holds the owner `seen` (all null: none).
 * False when another owner is there now (nothing written).
 */
export function takeJobOwner(db: StoreDb, id: number, me: OwnerIdentity, seen: JobOwnerColumns, now: string): boolean {
  return (
    db
      .prepare(
        `INSERT INTO job_owner (job_id, pid, boot_id, start_ticks, claimed_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (job_id) DO UPDATE
              SET pid = excluded.pid, boot_id = excluded.boot_id, start_ticks = excluded.start_ticks,
                  claimed_at = excluded.claimed_at
            WHERE job_owner.pid IS NOT DISTINCT FROM ? AND job_owner.boot_id IS NOT DISTINCT FROM ?
              AND job_owner.start_ticks IS NOT DISTINCT FROM ?`,
      )
      .run(id, ...ownerParams(me), now, seen.pid, seen.boot_id, seen.start_ticks).changes === 1
  );
}

/** Records the desk that claimed job `id`: words name it also once its session is gone. */
export function setJobOwnerDesk(db: StoreDb, id: number, desk: string): void {
  db.prepare(
    'INSERT INTO job_owner_desk (job_id, desk) VALUES (?, ?) ON CONFLICT (job_id) DO UPDATE SET desk = excluded.desk',
  ).run(id, desk);
}

/** The desk that claimed job `id` last, if one was recorded. */
export function jobOwnerDesk(db: StoreDb, id: number): string | null {
  const desk = db.prepare('SELECT desk FROM job_owner_desk WHERE job_id = ?').pluck().get(id) as string | undefined;
  return desk ?? null;
}

/** Job `id` to `running`, only if it is still in state `was`; false when it no longer was. */
export function markJobRunning(db: StoreDb, id: number, was: JobState, now: string): boolean {
  return (
    db.prepare("UPDATE job SET state = 'running', updated_at = ? WHERE id = ? AND state = ?").run(now, id, was)
      .changes === 1
  );
}

/** A `taken-over` or `recovered` event of job `id` (what the jobs list counts as its recoveries). */
export function addJobEvent(
  db: StoreDb,
  id: number,
  event: 'taken-over' | 'recovered',
  detail: unknown,
  now: string,
): void {
  db.prepare('INSERT INTO job_event (job_id, event, detail, at) VALUES (?, ?, ?, ?)').run(
    id,
    event,
    JSON.stringify(detail),
    now,
  );
}

/** The progress of running job `id`, written only while `owner` owns it; false otherwise. */
export function writeJobProgress(
  db: StoreDb,
  id: number,
  owner: OwnerIdentity,
  progress: { readonly done: number; readonly total: number | null },
  now: string,
): boolean {
  return (
    db
      .prepare(
        `UPDATE job SET progress_done = ?, progress_total = ?, updated_at = ?
          WHERE id = ? AND state = 'running' AND ${OWNED_BY}`,
      )
      .run(progress.done, progress.total, now, id, ...ownerParams(owner)).changes === 1
  );
}

/** Ends running job `id` as `state`, only while `owner` owns it; false otherwise (nothing written). */
export function endOwnedJob(
  db: StoreDb,
  id: number,
  owner: OwnerIdentity,
  state: 'done' | 'failed',
  error: string | null,
  now: string,
): boolean {
  return (
    db
      .prepare(
        `UPDATE job SET state = ?, error = ?, finished_at = ?, updated_at = ?
          WHERE id = ? AND state = 'running' AND ${OWNED_BY}`,
      )
      .run(state, error, now, now, id, ...ownerParams(owner)).changes === 1
  );
}

/** Running job `id` back to `queued` until `day` with `reason`, only while `owner` owns it. */
export function deferOwnedJob(
  db: StoreDb,
  id: number,
  owner: OwnerIdentity,
  day: string | null,
  reason: string,
  now: string,
): boolean {
  return (
    db
      .prepare(
        `UPDATE job SET state = 'queued', not_before_day = ?, error = ?, updated_at = ?
          WHERE id = ? AND state = 'running' AND ${OWNED_BY}`,
      )
      .run(day, reason, now, id, ...ownerParams(owner)).changes === 1
  );
}

/** The running jobs with their owners, oldest first. */
export function runningJobOwners(db: StoreDb): ({ id: number; kind: string } & JobOwnerColumns)[] {
  return db
    .prepare(
      `SELECT j.id, j.kind, o.pid, o.boot_id, o.start_ticks
         FROM job j LEFT JOIN job_owner o ON o.job_id = j.id WHERE j.state = 'running' ORDER BY j.id`,
    )
    .all() as ({ id: number; kind: string } & JobOwnerColumns)[];
}

/**
 * Running job `id` back to `queued`, only if its owner is still `owner` (null: it still has none): a
 * job whose owner changed meanwhile is left alone. False when it was.
 */
export function requeueIfOwnerIs(db: StoreDb, id: number, owner: OwnerIdentity | null, now: string): boolean {
  const sameOwner = owner === null ? 'NOT EXISTS (SELECT 1 FROM job_owner o WHERE o.job_id = job.id)' : OWNED_BY;
  return (
    db
      .prepare(`UPDATE job SET state = 'queued', updated_at = ? WHERE id = ? AND state = 'running' AND ${sameOwner}`)
      .run(now, id, ...(owner === null ? [] : ownerParams(owner))).changes === 1
  );
}

/** The running jobs `owner` owns, oldest first. */
export function runningJobsOwnedBy(db: StoreDb, owner: OwnerIdentity): { id: number; kind: string }[] {
  return db
    .prepare(`SELECT id, kind FROM job WHERE state = 'running' AND ${OWNED_BY} ORDER BY id`)
    .all(...ownerParams(owner)) as { id: number; kind: string }[];
}

/** Running job `id` back to `queued` (its owner is known to be the caller). */
export function requeueRunningJob(db: StoreDb, id: number, now: string): void {
  db.prepare("UPDATE job SET state = 'queued', updated_at = ? WHERE id = ? AND state = 'running'").run(now, id);
}

/** Whether job `id` is running and `owner` owns it. */
export function ownsRunningJob(db: StoreDb, id: number, owner: OwnerIdentity): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM job WHERE id = ? AND state = 'running' AND ${OWNED_BY}`)
      .get(id, ...ownerParams(owner)) !== undefined
  );
}
