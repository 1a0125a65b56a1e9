/**
 * The job table (SPEC §4): a job's row read with its owner, a new job, a cancel. The claims and the
 * writes only a job's owner may make are in `jobs-claims.ts`.
 */
import type { ReadableDb, StoreDb } from './db.ts';

export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** A job's owner as its `job_owner` row holds it (all null: no owner). */
export interface JobOwnerColumns {
  pid: number | null;
  boot_id: string | null;
  start_ticks: number | null;
}

/** A job's row with its owner, the desk that claimed it and how often it was recovered. */
export interface JobRow extends JobOwnerColumns {
  id: number;
  kind: string;
  state: JobState;
  payload: string;
  progress_done: number;
  progress_total: number | null;
  error: string | null;
  not_before_day: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  claimed_at: string | null;
  owner_desk: string | null;
  recoveries: number;
}

const SELECT_JOB = `
  SELECT j.*, o.pid, o.boot_id, o.start_ticks, o.claimed_at,
         (SELECT k.desk FROM job_owner_desk k WHERE k.job_id = j.id) AS owner_desk,
         (SELECT count(*) FROM job_event e WHERE e.job_id = j.id) AS recoveries
    FROM job j LEFT JOIN job_owner o ON o.job_id = j.id`;

/** A new `queued` job; gives its id. */
export function insertJob(db: StoreDb, kind: string, payload: string, now: string): number {
  return Number(
    db
      .prepare('INSERT INTO job (kind, state, payload, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(kind, 'queued', payload, now, now).lastInsertRowid,
  );
}

/** Every job, oldest first. */
export function jobRows(db: ReadableDb): JobRow[] {
  return db.prepare(`${SELECT_JOB} ORDER BY j.id`).all() as JobRow[];
}

/** The running jobs only, oldest first. */
export function runningJobRows(db: StoreDb): JobRow[] {
  return db.prepare(`${SELECT_JOB} WHERE j.state = 'running' ORDER BY j.id`).all() as JobRow[];
}

export function jobRow(db: StoreDb, id: number): JobRow | undefined {
  return db.prepare(`${SELECT_JOB} WHERE j.id = ?`).get(id) as JobRow | undefined;
}

export function jobState(db: StoreDb, id: number): JobState | undefined {
  return db.prepare('SELECT state FROM job WHERE id = ?').pluck().get(id) as JobState | undefined;
}

/** Cancels job `id` if it is still in state `was`; false when it no longer was. */
export function markJobCancelled(db: StoreDb, id: number, was: JobState, now: string): boolean {
  return (
    db
      .prepare("UPDATE job SET state = 'cancelled', finished_at = ?, updated_at = ? WHERE id = ? AND state = ?")
      .run(now, now, id, was).changes === 1
  );
}

/** A job's payload as its JSON text; undefined when there is no such job. */
export function jobPayloadText(db: StoreDb, jobId: number): string | undefined {
  return db.prepare('SELECT payload FROM job WHERE id = ?').pluck().get(jobId) as string | undefined;
}

export function setJobPayloadText(db: StoreDb, jobId: number, text: string): void {
  db.prepare('UPDATE job SET payload = ? WHERE id = ?').run(text, jobId);
}

/** The first queued or running job of this kind, if any. */
export function activeJobOfKind(db: StoreDb, kind: string): number | undefined {
  return db
    .prepare("SELECT id FROM job WHERE kind = ? AND state IN ('queued', 'running') ORDER BY id LIMIT 1")
    .pluck()
    .get(kind) as number | undefined;
}

/**
 * A job started again by staff: updated now, its last stop message gone — unless it waits for a day
 * after `today` (the next budget day), whose message says why it waits.
 */
export function restartJobRun(db: StoreDb, jobId: number, now: string, today: string): void {
  db.prepare(
    'UPDATE job SET updated_at = ?, error = CASE WHEN not_before_day > ? THEN error ELSE NULL END WHERE id = ?',
  ).run(now, today, jobId);
}
