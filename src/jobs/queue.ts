import type { ReadableDb, StoreDb } from '../store/db.ts';
import { isoNow, utcDay, type Clock } from '../platform/clock.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import { SYSTEM_PROC, type OwnerIdentity } from '../identity/owner.ts';
import { actingOwner, isSession, ownerAlive } from '../store/owners.ts';
import type { WriteSession } from '../store/session.ts';
import type { ProcView } from '../identity/proc.ts';
import { insertJob, jobRow, jobRows, jobState, markJobCancelled, runningJobRows, type JobRow } from '../store/jobs.ts';
import {
  addJobEvent,
  claimCandidate,
  claimCandidatePages,
  deferOwnedJob,
  endOwnedJob,
  jobOwnerDesk,
  markJobRunning,
  ownsRunningJob,
  requeueIfOwnerIs,
  requeueRunningJob,
  runningJobOwners,
  runningJobsOwnedBy,
  setJobOwnerDesk,
  takeJobOwner,
  writeJobProgress,
  type ClaimCandidate,
} from '../store/jobs-claims.ts';
import type { ClaimedJob, JobProgress, JobState, JobView } from './types.ts';

/**
 * The job table and its owners (SPEC §4). Every state change is a compare-and-set on the state the
 * caller expects; changes by a running job also check that the caller still owns it. Claims are one
 * guarded upsert of the owner row: its row count says who won.
 */

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

function toView(db: ReadableDb, row: JobRow, proc: ProcView): JobView {
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
  return insertJob(db, kind, JSON.stringify(payload ?? {}), isoNow(clock));
}

export function listJobs(db: ReadableDb, proc: ProcView = SYSTEM_PROC): JobView[] {
  return jobRows(db).map((r) => toView(db, r, proc));
}

/** The running jobs only, with their owners' liveness: what a watch of dead owners looks at, often. */
export function runningJobs(db: StoreDb, proc: ProcView = SYSTEM_PROC): JobView[] {
  return runningJobRows(db).map((r) => toView(db, r, proc));
}

export function getJob(db: StoreDb, id: number, proc: ProcView = SYSTEM_PROC): JobView | null {
  const row = jobRow(db, id);
  return row === undefined ? null : toView(db, row, proc);
}

function notFound(id: number): BrickWorkError {
  return new BrickWorkError('not-found', `There is no job ${id}.`);
}

/**
 * Tries to take one candidate: the owner row is written only if it still holds the owner we saw
 * (none, or the dead one), and the job's state only if it is still the state we saw. Both or nothing.
 */
function tryClaim(session: WriteSession, c: ClaimCandidate, me: OwnerIdentity, clock: Clock): ClaimedJob | null {
  const { db, desk } = session;
  const seen = ownerOf(c);
  const now = isoNow(clock);
  return db
    .transaction((): ClaimedJob | null => {
      if (!takeJobOwner(db, c.id, me, c, now)) return null;
      const takenFromDesk = c.state === 'running' ? jobOwnerDesk(db, c.id) : null;
      // Words name the claiming desk, also once its session (the owner's identity) is gone.
      setJobOwnerDesk(db, c.id, desk);
      if (!markJobRunning(db, c.id, c.state, now)) throw new LostRace();
      const takenFrom = c.state === 'running' ? seen : null;
      if (c.state === 'running') addJobEvent(db, c.id, 'taken-over', { deadOwner: seen }, now);
      return {
        id: c.id,
        kind: c.kind,
        payload: parsePayload(c.payload),
        progress: { done: c.progress_done, total: c.progress_total },
        owner: me,
        takenFrom,
        takenFromDesk,
      };
    })
    .immediate();
}

class LostRace extends Error {}

function claimable(db: StoreDb, c: ClaimCandidate, proc: ProcView): boolean {
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
export function claimNext(session: WriteSession, me: OwnerIdentity, options: ClaimOptions): ClaimedJob | null {
  const { db } = session;
  const proc = options.proc ?? SYSTEM_PROC;
  const page = claimCandidatePages(db, options.kinds);
  // The owner the claim records: on a server the session claiming now — a runner named once, whose
  // connection was cut and made again since, claims as its new session, never a dead one's name.
  const claimant = actingOwner(db, me);
  let after = 0;
  for (;;) {
    const candidates = page(utcDay(options.clock), after);
    if (candidates.length === 0) return null;
    for (const c of candidates) {
      after = c.id;
      if (!claimable(db, c, proc)) continue;
      if (options.ready && !options.ready({ kind: c.kind, payload: parsePayload(c.payload) })) continue;
      try {
        const won = tryClaim(session, c, claimant, options.clock);
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
export function claimJob(session: WriteSession, id: number, me: OwnerIdentity, options: QueueOptions): ClaimedJob {
  const { db } = session;
  const proc = options.proc ?? SYSTEM_PROC;
  const c = claimCandidate(db, id);
  if (c === undefined) throw notFound(id);
  if (c.state !== 'queued' && c.state !== 'running') {
    throw new BrickWorkError('not-found', `Job ${id} is ${c.state}; there is nothing left to run.`);
  }
  const candidate = c as ClaimCandidate;
  const owner = ownerOf(c);
  const who = owner === null ? 'another desk' : ownerWords(owner, c.owner_desk);
  const busy = () => new BrickWorkError('busy', `Job ${id} (${c.kind}) is being run by ${who}.`);
  if (!claimable(db, candidate, proc)) throw busy();
  try {
    const won = tryClaim(session, candidate, actingOwner(db, me), options.clock);
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
  return writeJobProgress(db, id, actingOwner(db, me), progress, isoNow(clock));
}

/** Ends a running job as its owner: `done` or `failed`. False (and nothing written) when it is no longer ours. */
export function finishJob(
  db: StoreDb,
  id: number,
  me: OwnerIdentity,
  outcome: { state: 'done' | 'failed'; error?: string | null },
  { clock }: QueueOptions,
): boolean {
  return endOwnedJob(db, id, actingOwner(db, me), outcome.state, outcome.error ?? null, isoNow(clock));
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
  return deferOwnedJob(db, id, actingOwner(db, me), day, reason, isoNow(clock));
}

/** Cancels a queued or running job (SPEC §4); a running one stops at its next step. */
export function cancelJob(db: StoreDb, id: number, { clock }: QueueOptions): { id: number; was: JobState } {
  const now = isoNow(clock);
  return db
    .transaction(() => {
      const state = jobState(db, id);
      if (state === undefined) throw notFound(id);
      if (state !== 'queued' && state !== 'running') {
        throw new BrickWorkError(
          'not-found',
          `Job ${id} is already ${state}; only queued or running jobs can be cancelled.`,
        );
      }
      if (!markJobCancelled(db, id, state, now))
        throw new BrickWorkError('busy', `Job ${id} changed while it was being cancelled; try again.`);
      return { id, was: state };
    })
    .immediate();
}

export interface RecoveredJob {
  readonly id: number;
  readonly kind: string;
  readonly deadOwner: OwnerIdentity | null;
  /** The desk that had claimed it, when it was recorded. */
  readonly deadDesk?: string | null;
}

/**
 * A job's owner in staff's words (SPEC §14): on a server the desk that claimed it (its session's number
 * means nothing to them, and is no process); on a file the desk and its brick-work's pid.
 */
export function ownerWords(owner: OwnerIdentity, desk: string | null | undefined): string {
  if (isSession(owner)) return desk ? `the desk "${desk}"` : 'another desk';
  return desk
    ? `the desk "${desk}" (its brick-work, pid ${owner.pid})`
    : `another brick-work process (pid ${owner.pid})`;
}

/**
 * Puts every `running` job whose owner is dead back to `queued` (SPEC §4), each with a `recovered`
 * event. A job whose owner changed meanwhile is left alone (compare-and-set on the owner seen).
 */
export function recoverJobs(db: StoreDb, options: QueueOptions): RecoveredJob[] {
  const proc = options.proc ?? SYSTEM_PROC;
  const running = runningJobOwners(db);
  const recovered: RecoveredJob[] = [];
  const now = isoNow(options.clock);
  for (const r of running) {
    const owner = ownerOf(r);
    if (owner !== null && ownerAlive(db, owner, proc)) continue;
    const done = db
      .transaction(() => {
        if (!requeueIfOwnerIs(db, r.id, owner, now)) return false;
        addJobEvent(db, r.id, 'recovered', { deadOwner: owner }, now);
        return true;
      })
      .immediate();
    if (done) recovered.push({ id: r.id, kind: r.kind, deadOwner: owner, deadDesk: jobOwnerDesk(db, r.id) });
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
      const rows = runningJobsOwnedBy(db, actingOwner(db, me));
      for (const r of rows) {
        requeueRunningJob(db, r.id, now);
        addJobEvent(db, r.id, 'recovered', { deadOwner: me, why: 'the job runner thread stopped' }, now);
      }
      return rows.map((r) => ({ id: r.id, kind: r.kind, deadOwner: me }));
    })
    .immediate();
}

/** Runs `work` in one write transaction only while `me` owns job `id` and it is running; false otherwise (nothing written). */
export function whileOwner(db: StoreDb, id: number, me: OwnerIdentity, work: () => void): boolean {
  return db
    .transaction(() => {
      if (!ownsRunningJob(db, id, actingOwner(db, me))) return false;
      work();
      return true;
    })
    .immediate();
}
