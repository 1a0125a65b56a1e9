import type { StoreDb } from '../store/db.ts';
import { isoNow, utcDay, type Clock } from '../clock.ts';
import { BrickWorkError } from '../errors.ts';
import { SYSTEM_PROC, type OwnerIdentity } from '../identity/owner.ts';
import { actingOwner, isSession, ownerAlive } from '../store/owners.ts';
import { deskOf } from '../undo/desk.ts';
import type { ProcView } from '../identity/proc.ts';
import type { ClaimedJob, JobProgress, JobState, JobView } from './types.ts';

/**
 * The job table and its owners (SPEC §4). Every state change is a compare-and-set on the state the
 * caller expects; changes by a running job also check that the caller still owns it. Claims are one
 * guarded upsert of the owner row: its row count says who won.
 */

interface JobRow {
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
  pid: number | null;
  boot_id: string | null;
  start_ticks: number | null;
  claimed_at: string | null;
  owner_desk: string | null;
  recoveries: number;
}

const SELECT_JOB = `
  SELECT j.*, o.pid, o.boot_id, o.start_ticks, o.claimed_at,
         (SELECT k.desk FROM job_owner_desk k WHERE k.job_id = j.id) AS owner_desk,
         (SELECT count(*) FROM job_event e WHERE e.job_id = j.id) AS recoveries
    FROM job j LEFT JOIN job_owner o ON o.job_id = j.id`;

/** The owner guard for statements on `job`: this job's owner row holds exactly these three values. */
const OWNED_BY = `EXISTS (SELECT 1 FROM job_owner o
   WHERE o.job_id = job.id AND o.pid = ? AND o.boot_id IS NOT DISTINCT FROM ? AND o.start_ticks IS NOT DISTINCT FROM ?)`;

function ownerParams(o: OwnerIdentity): [number, string | null, number | null] {
  return [o.pid, o.bootId, o.startTicks];
}

function ownerOf(row: Pick<JobRow, 'pid' | 'boot_id' | 'start_ticks'>): OwnerIdentity | null {
  return row.pid === null ? null : { pid: row.pid, bootId: row.boot_id, startTicks: row.start_ticks };
}

/**
 * A job's data as its text could not be read (not JSON): the job's runner fails it in words, never
 * runs it on data it made up.
 */
export class UnreadablePayload {
  constructor(
    readonly text: string,
    readonly problem: string,
  ) {}
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return new UnreadablePayload(text.slice(0, 80), (e as Error).message);
  }
}

function toView(db: StoreDb, row: JobRow, proc: ProcView): JobView {
  const owner = ownerOf(row);
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    payload: parsePayload(row.payload),
    progress: { done: row.progress_done, total: row.progress_total },
    error: row.error,
    notBeforeDay: row.not_before_day,
    owner,
    ownerDesk: row.owner_desk,
    claimedAt: row.claimed_at,
    alive: owner === null ? null : ownerAlive(db, owner, proc),
    recoveries: row.recoveries,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

export interface QueueOptions {
  readonly clock: Clock;
  readonly proc?: ProcView;
}

export function enqueueJob(db: StoreDb, kind: string, payload: unknown, { clock }: QueueOptions): number {
  const now = isoNow(clock);
  return Number(
    db
      .prepare('INSERT INTO job (kind, state, payload, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(kind, 'queued', JSON.stringify(payload ?? {}), now, now).lastInsertRowid,
  );
}

export function listJobs(db: StoreDb, proc: ProcView = SYSTEM_PROC): JobView[] {
  return (db.prepare(`${SELECT_JOB} ORDER BY j.id`).all() as JobRow[]).map((r) => toView(db, r, proc));
}

/** The running jobs only, with their owners' liveness: what a watch of dead owners looks at, often. */
export function runningJobs(db: StoreDb, proc: ProcView = SYSTEM_PROC): JobView[] {
  return (db.prepare(`${SELECT_JOB} WHERE j.state = 'running' ORDER BY j.id`).all() as JobRow[]).map((r) =>
    toView(db, r, proc),
  );
}

export function getJob(db: StoreDb, id: number, proc: ProcView = SYSTEM_PROC): JobView | null {
  const row = db.prepare(`${SELECT_JOB} WHERE j.id = ?`).get(id) as JobRow | undefined;
  return row === undefined ? null : toView(db, row, proc);
}

function notFound(id: number): BrickWorkError {
  return new BrickWorkError('not-found', `There is no job ${id}.`);
}

interface Candidate {
  id: number;
  kind: string;
  state: 'queued' | 'running';
  payload: string;
  progress_done: number;
  progress_total: number | null;
  pid: number | null;
  boot_id: string | null;
  start_ticks: number | null;
}

/**
 * Tries to take one candidate: the owner row is written only if it still holds the owner we saw
 * (none, or the dead one), and the job's state only if it is still the state we saw. Both or nothing.
 */
function tryClaim(db: StoreDb, c: Candidate, me: OwnerIdentity, clock: Clock): ClaimedJob | null {
  const seen = ownerOf(c);
  const now = isoNow(clock);
  return db
    .transaction((): ClaimedJob | null => {
      const upsert = db
        .prepare(
          `INSERT INTO job_owner (job_id, pid, boot_id, start_ticks, claimed_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (job_id) DO UPDATE
              SET pid = excluded.pid, boot_id = excluded.boot_id, start_ticks = excluded.start_ticks,
                  claimed_at = excluded.claimed_at
            WHERE job_owner.pid IS NOT DISTINCT FROM ? AND job_owner.boot_id IS NOT DISTINCT FROM ?
              AND job_owner.start_ticks IS NOT DISTINCT FROM ?`,
        )
        .run(c.id, ...ownerParams(me), now, c.pid, c.boot_id, c.start_ticks);
      if (upsert.changes !== 1) return null;
      // Words name the claiming desk, also once its session (the owner's identity) is gone.
      db.prepare(
        'INSERT INTO job_owner_desk (job_id, desk) VALUES (?, ?) ON CONFLICT (job_id) DO UPDATE SET desk = excluded.desk',
      ).run(c.id, deskOf(db));
      const moved = db
        .prepare("UPDATE job SET state = 'running', updated_at = ? WHERE id = ? AND state = ?")
        .run(now, c.id, c.state);
      if (moved.changes !== 1) throw new LostRace();
      const takenFrom = c.state === 'running' ? seen : null;
      if (c.state === 'running') {
        db.prepare("INSERT INTO job_event (job_id, event, detail, at) VALUES (?, 'taken-over', ?, ?)").run(
          c.id,
          JSON.stringify({ deadOwner: seen }),
          now,
        );
      }
      return {
        id: c.id,
        kind: c.kind,
        payload: parsePayload(c.payload),
        progress: { done: c.progress_done, total: c.progress_total },
        owner: me,
        takenFrom,
      };
    })
    .immediate();
}

class LostRace extends Error {}

function claimable(db: StoreDb, c: Candidate, proc: ProcView): boolean {
  if (c.state === 'queued') return true;
  const owner = ownerOf(c);
  return owner === null || !ownerAlive(db, owner, proc);
}

export interface ClaimOptions extends QueueOptions {
  /** Only jobs of these kinds (those this process can run). */
  readonly kinds?: readonly string[];
  /**
   * Whether a job has anything for its handler to do now (e.g. a look-up run that has used its limit
   * has not); jobs without are left as they are, unclaimed. All jobs have, when not given.
   */
  readonly ready?: (job: { readonly kind: string; readonly payload: unknown }) => boolean;
}

/**
 * Claims the oldest job that is `queued`, or `running` with a dead owner (and not waiting for a later
 * day), for `me`. Returns null when there is none to take.
 */
export function claimNext(db: StoreDb, me: OwnerIdentity, options: ClaimOptions): ClaimedJob | null {
  const proc = options.proc ?? SYSTEM_PROC;
  const kinds = options.kinds;
  const kindFilter = kinds ? `AND j.kind IN (${kinds.map(() => '?').join(', ')})` : '';
  const page = db.prepare(
    `SELECT j.id, j.kind, j.state, j.payload, j.progress_done, j.progress_total, o.pid, o.boot_id, o.start_ticks
       FROM job j LEFT JOIN job_owner o ON o.job_id = j.id
      WHERE j.state IN ('queued', 'running') AND (j.not_before_day IS NULL OR j.not_before_day <= ?)
        AND j.id > ? ${kindFilter}
      ORDER BY j.id LIMIT 64`,
  );
  // The owner the claim records: on a server the session claiming now — a runner named once, whose
  // connection was cut and made again since, claims as its new session, never a dead one's name.
  const claimant = actingOwner(db, me);
  let after = 0;
  for (;;) {
    const candidates = page.all(utcDay(options.clock), after, ...(kinds ?? [])) as Candidate[];
    if (candidates.length === 0) return null;
    for (const c of candidates) {
      after = c.id;
      if (!claimable(db, c, proc)) continue;
      if (options.ready && !options.ready({ kind: c.kind, payload: parsePayload(c.payload) })) continue;
      try {
        const won = tryClaim(db, c, claimant, options.clock);
        if (won) return won;
      } catch (e) {
        if (!(e instanceof LostRace)) throw e;
      }
    }
  }
}

/**
 * Claims one particular job. Refused as `busy` while a live owner runs it (or another process won the
 * race for it), as `not-found` when it is finished or missing.
 */
export function claimJob(db: StoreDb, id: number, me: OwnerIdentity, options: QueueOptions): ClaimedJob {
  const proc = options.proc ?? SYSTEM_PROC;
  const c = db
    .prepare(
      `SELECT j.id, j.kind, j.state, j.payload, j.progress_done, j.progress_total, o.pid, o.boot_id, o.start_ticks,
              (SELECT k.desk FROM job_owner_desk k WHERE k.job_id = j.id) AS owner_desk
         FROM job j LEFT JOIN job_owner o ON o.job_id = j.id WHERE j.id = ?`,
    )
    .get(id) as (Omit<Candidate, 'state'> & { state: JobState; owner_desk: string | null }) | undefined;
  if (c === undefined) throw notFound(id);
  if (c.state !== 'queued' && c.state !== 'running') {
    throw new BrickWorkError('not-found', `Job ${id} is ${c.state}; there is nothing left to run.`);
  }
  const candidate = c as Candidate;
  // On a server the owner is a session, no process: the desk that claimed it says who (SPEC §14).
  const owner = ownerOf(c);
  const who =
    owner !== null && isSession(owner)
      ? c.owner_desk !== null
        ? `the desk "${c.owner_desk}"`
        : 'another desk'
      : `another brick-work process (pid ${c.pid ?? '?'})`;
  const busy = () => new BrickWorkError('busy', `Job ${id} (${c.kind}) is being run by ${who}.`);
  if (!claimable(db, candidate, proc)) throw busy();
  try {
    const won = tryClaim(db, candidate, actingOwner(db, me), options.clock);
    if (won) return won;
  } catch (e) {
    if (!(e instanceof LostRace)) throw e;
  }
  throw busy();
}

/** Progress of a running job, by its owner. False when the job is no longer this owner's to run (cancelled, taken). */
export function reportProgress(
  db: StoreDb,
  id: number,
  me: OwnerIdentity,
  progress: JobProgress,
  { clock }: QueueOptions,
): boolean {
  return (
    db
      .prepare(
        `UPDATE job SET progress_done = ?, progress_total = ?, updated_at = ?
          WHERE id = ? AND state = 'running' AND ${OWNED_BY}`,
      )
      .run(progress.done, progress.total, isoNow(clock), id, ...ownerParams(actingOwner(db, me))).changes === 1
  );
}

/** Ends a running job as its owner: `done` or `failed`. False (and nothing written) when it is no longer ours. */
export function finishJob(
  db: StoreDb,
  id: number,
  me: OwnerIdentity,
  outcome: { state: 'done' | 'failed'; error?: string | null },
  { clock }: QueueOptions,
): boolean {
  const now = isoNow(clock);
  return (
    db
      .prepare(
        `UPDATE job SET state = ?, error = ?, finished_at = ?, updated_at = ?
          WHERE id = ? AND state = 'running' AND ${OWNED_BY}`,
      )
      .run(outcome.state, outcome.error ?? null, now, now, id, ...ownerParams(actingOwner(db, me))).changes === 1
  );
}

/**
 * Puts a running job back to `queued` with the reason it waits, not to be claimed before `day` (the
 * budget is used up; null: no day to wait for). As owner only.
 */
export function deferJob(
  db: StoreDb,
  id: number,
  me: OwnerIdentity,
  day: string | null,
  reason: string,
  { clock }: QueueOptions,
): boolean {
  return (
    db
      .prepare(
        `UPDATE job SET state = 'queued', not_before_day = ?, error = ?, updated_at = ?
          WHERE id = ? AND state = 'running' AND ${OWNED_BY}`,
      )
      .run(day, reason, isoNow(clock), id, ...ownerParams(actingOwner(db, me))).changes === 1
  );
}

/** Cancels a queued or running job (SPEC §4); a running one stops at its next step. */
export function cancelJob(db: StoreDb, id: number, { clock }: QueueOptions): { id: number; was: JobState } {
  const now = isoNow(clock);
  return db
    .transaction(() => {
      const state = db.prepare('SELECT state FROM job WHERE id = ?').pluck().get(id) as JobState | undefined;
      if (state === undefined) throw notFound(id);
      if (state !== 'queued' && state !== 'running') {
        throw new BrickWorkError(
          'not-found',
          `Job ${id} is already ${state}; only queued or running jobs can be cancelled.`,
        );
      }
      const changed = db
        .prepare("UPDATE job SET state = 'cancelled', finished_at = ?, updated_at = ? WHERE id = ? AND state = ?")
        .run(now, now, id, state).changes;
      if (changed !== 1) throw new BrickWorkError('busy', `Job ${id} changed while it was being cancelled; try again.`);
      return { id, was: state };
    })
    .immediate();
}

export interface RecoveredJob {
  readonly id: number;
  readonly kind: string;
  readonly deadOwner: OwnerIdentity | null;
}

/**
 * Puts every `running` job whose owner is dead back to `queued` (SPEC §4), each with a `recovered`
 * event. A job whose owner changed meanwhile is left alone (compare-and-set on the owner seen).
 */
export function recoverJobs(db: StoreDb, options: QueueOptions): RecoveredJob[] {
  const proc = options.proc ?? SYSTEM_PROC;
  const running = db
    .prepare(
      `SELECT j.id, j.kind, o.pid, o.boot_id, o.start_ticks
         FROM job j LEFT JOIN job_owner o ON o.job_id = j.id WHERE j.state = 'running' ORDER BY j.id`,
    )
    .all() as { id: number; kind: string; pid: number | null; boot_id: string | null; start_ticks: number | null }[];
  const recovered: RecoveredJob[] = [];
  const now = isoNow(options.clock);
  for (const r of running) {
    const owner = ownerOf(r);
    if (owner !== null && ownerAlive(db, owner, proc)) continue;
    const done = db
      .transaction(() => {
        const sameOwner = owner === null ? 'NOT EXISTS (SELECT 1 FROM job_owner o WHERE o.job_id = job.id)' : OWNED_BY;
        const changed = db
          .prepare(
            `UPDATE job SET state = 'queued', updated_at = ? WHERE id = ? AND state = 'running' AND ${sameOwner}`,
          )
          .run(now, r.id, ...(owner === null ? [] : ownerParams(owner))).changes;
        if (changed !== 1) return false;
        db.prepare("INSERT INTO job_event (job_id, event, detail, at) VALUES (?, 'recovered', ?, ?)").run(
          r.id,
          JSON.stringify({ deadOwner: owner }),
          now,
        );
        return true;
      })
      .immediate();
    if (done) recovered.push({ id: r.id, kind: r.kind, deadOwner: owner });
  }
  return recovered;
}

/**
 * Puts the `running` jobs `me` owns back to `queued`, each with a `recovered` event: for a job runner
 * thread started again in the same process (SPEC §11), whose process is alive though the thread that ran
 * them is gone — so `recoverJobs`, which asks whether the owner lives, would never take them.
 */
export function releaseOwnJobs(db: StoreDb, me: OwnerIdentity, options: QueueOptions): RecoveredJob[] {
  const now = isoNow(options.clock);
  return db
    .transaction(() => {
      const rows = db
        .prepare(`SELECT id, kind FROM job WHERE state = 'running' AND ${OWNED_BY} ORDER BY id`)
        .all(...ownerParams(actingOwner(db, me))) as { id: number; kind: string }[];
      for (const r of rows) {
        db.prepare("UPDATE job SET state = 'queued', updated_at = ? WHERE id = ? AND state = 'running'").run(now, r.id);
        db.prepare("INSERT INTO job_event (job_id, event, detail, at) VALUES (?, 'recovered', ?, ?)").run(
          r.id,
          JSON.stringify({ deadOwner: me, why: 'the job runner thread stopped' }),
          now,
        );
      }
      return rows.map((r) => ({ id: r.id, kind: r.kind, deadOwner: me }));
    })
    .immediate();
}

/** Runs `work` in one write transaction only while `me` owns job `id` and it is running; false otherwise (nothing written). */
export function whileOwner(db: StoreDb, id: number, me: OwnerIdentity, work: () => void): boolean {
  return db
    .transaction(() => {
      const owned = db
        .prepare(`SELECT 1 FROM job WHERE id = ? AND state = 'running' AND ${OWNED_BY}`)
        .get(id, ...ownerParams(actingOwner(db, me)));
      if (owned === undefined) return false;
      work();
      return true;
    })
    .immediate();
}
