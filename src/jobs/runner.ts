import type { StoreDb } from '../store/db.ts';
import type { WriteSession } from '../store/session.ts';
import { SYSTEM_CLOCK, type Clock } from '../platform/clock.ts';
import { BrickWorkError, isBrickWorkError, type ErrorValue } from '../vocabulary/errors.ts';
import { toErrorValue } from '../store/errors.ts';
import { SYSTEM_PROC, type OwnerIdentity } from '../identity/owner.ts';
import { connectionOwner, isSession } from '../store/owners.ts';
import type { ProcView } from '../identity/proc.ts';
import {
  claimJob,
  claimNext,
  deferJob,
  finishJob,
  ownerWords,
  reportProgress,
  UnreadablePayload,
  whileOwner,
} from './queue.ts';
import type { ClaimedJob, JobProgress } from './types.ts';
import { isDamage, type DamageMark } from '../store/damage.ts';

/**
 * What a running job may do. Every write it makes goes through `step` or `complete`, which commit the
 * work together with the job's progress or end, and only while this process still owns the job — so a
 * job that was cancelled, or taken over, writes nothing more, and a job is done exactly once.
 */
export interface JobContext {
  readonly db: StoreDb;
  readonly clock: Clock;
  /** Commits `work` (may be null) and the progress in one transaction. False: stop now (cancelled or no longer ours). */
  step(work: (() => void) | null, progress?: JobProgress): boolean;
  /** Commits `work` and marks the job done, in one transaction. False: it was no longer ours; nothing was written. */
  complete(work?: () => void): boolean;
  /** Back to `queued` with the reason, not claimed before `day` (UTC `yyyy-mm-dd`, for the BrickLink budget; null: no day). */
  defer(day: string | null, reason: string): boolean;
}

/**
 * Runs a claimed job. `readPayload`, beside it, is how its kind reads the job's data: it throws, in words,
 * on data its kind could not have written, and the job fails with that before anything runs.
 */
export type JobHandler = ((job: ClaimedJob, ctx: JobContext) => Promise<void> | void) & {
  readonly readPayload?: (payload: unknown) => unknown;
};

export type JobOutcome = 'done' | 'failed' | 'deferred' | 'stopped';

export interface RunResult {
  readonly job: ClaimedJob;
  readonly outcome: JobOutcome;
  /** Why it failed, or why it was deferred (e.g. `budget-exhausted`). */
  readonly error: ErrorValue | null;
}

export interface JobRunnerOptions {
  /** The connection it writes through, and the desk its claims name. */
  readonly session: WriteSession;
  readonly handlers: Readonly<Record<string, JobHandler>>;
  readonly clock?: Clock;
  readonly proc?: ProcView;
  /** This process as an owner; computed from /proc when not given. */
  readonly me?: OwnerIdentity;
  readonly log?: (line: string) => void;
  /** Per kind: whether a queued job has anything to do now. `runNext` leaves those without alone; `runJob` still runs them. */
  readonly ready?: Readonly<Record<string, (payload: unknown) => boolean>>;
  /** The process's mark of a store found damaged: a job that meets the damage marks it and writes nothing more. */
  readonly damage?: DamageMark;
}

/** Runs jobs the same way in the app, the browser host and the CLI. */
export class JobRunner {
  readonly me: OwnerIdentity;
  private readonly session: WriteSession;
  private readonly db: StoreDb;
  private readonly handlers: Readonly<Record<string, JobHandler>>;
  private readonly clock: Clock;
  private readonly proc: ProcView;
  private readonly log: (line: string) => void;
  private readonly ready: Readonly<Record<string, (payload: unknown) => boolean>>;
  private readonly damage: DamageMark | null;

  constructor(options: JobRunnerOptions) {
    this.session = options.session;
    this.db = options.session.db;
    this.handlers = options.handlers;
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.proc = options.proc ?? SYSTEM_PROC;
    this.me = options.me ?? connectionOwner(this.db, this.proc);
    this.log = options.log ?? (() => {});
    this.ready = options.ready ?? {};
    this.damage = options.damage ?? null;
  }

  /** Claims and runs the oldest job this runner has a handler for. Null when there is none. */
  async runNext(): Promise<RunResult | null> {
    const job = claimNext(this.session, this.me, {
      clock: this.clock,
      proc: this.proc,
      kinds: Object.keys(this.handlers),
      ready: (j) => this.ready[j.kind]?.(j.payload) ?? true,
    });
    return job === null ? null : this.run(job);
  }

  /** Claims and runs one particular job (refused as `busy` while a live owner has it). */
  async runJob(id: number): Promise<RunResult> {
    return this.run(claimJob(this.session, id, this.me, { clock: this.clock, proc: this.proc }));
  }

  async runUntilIdle(): Promise<RunResult[]> {
    const results: RunResult[] = [];
    for (let r = await this.runNext(); r !== null; r = await this.runNext()) results.push(r);
    return results;
  }

  private async run(job: ClaimedJob): Promise<RunResult> {
    const handler = this.handlers[job.kind];
    if (job.takenFrom) {
      // A server's owner is a desk's session, no process of this computer: the desk says who.
      const gone = isSession(job.takenFrom) ? 'whose session ended' : 'which is gone';
      this.log(`took over job ${job.id} (${job.kind}) from ${ownerWords(job.takenFrom, job.takenFromDesk)}, ${gone}`);
    }
    let outcome: JobOutcome | null = null;
    const opts = { clock: this.clock };
    const ctx: JobContext = {
      db: this.db,
      clock: this.clock,
      step: (work, progress) => {
        if (outcome !== null) return false;
        const ok = whileOwner(this.db, job.id, this.me, () => {
          work?.();
          if (progress) reportProgress(this.db, job.id, this.me, progress, opts);
        });
        if (!ok) outcome = 'stopped';
        return ok;
      },
      complete: (work) => {
        if (outcome !== null) return false;
        const ok = whileOwner(this.db, job.id, this.me, () => {
          work?.();
          finishJob(this.db, job.id, this.me, { state: 'done' }, opts);
        });
        outcome = ok ? 'done' : 'stopped';
        return ok;
      },
      defer: (day, reason) => {
        if (outcome !== null) return false;
        const ok = deferJob(this.db, job.id, this.me, day, reason, opts);
        outcome = ok ? 'deferred' : 'stopped';
        return ok;
      },
    };

    let error: ErrorValue | null = null;
    try {
      if (!handler) throw new Error(`no handler for jobs of kind ${job.kind}`);
      await handler({ ...job, payload: readPayload(job, handler) }, ctx);
      if (outcome === null) ctx.complete();
    } catch (e) {
      error = toErrorValue(e);
      // A damaged store is not written again, not even the failure (SPEC §11): the job stays this
      // process's until it ends, and the next start finds it with a dead owner and queues it again.
      if (isDamage(e)) {
        this.damage?.note(e);
        return { job, outcome: 'stopped', error };
      }
      if (!isBrickWorkError(e))
        this.log(`job ${job.id} (${job.kind}) failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      if (outcome === null) {
        outcome = finishJob(this.db, job.id, this.me, { state: 'failed', error: error.message }, opts)
          ? 'failed'
          : 'stopped';
      }
    }
    return { job, outcome: outcome ?? 'stopped', error };
  }
}

/** The job's data as its kind reads it; a job whose data can't be read fails, saying so (never run on `{}`). */
function readPayload(job: ClaimedJob, handler: JobHandler): unknown {
  try {
    if (job.payload instanceof UnreadablePayload) throw new Error(`it is not JSON (${job.payload.problem})`);
    return handler.readPayload ? handler.readPayload(job.payload) : job.payload;
  } catch (e) {
    throw new BrickWorkError(
      'invalid-argument',
      `Job ${job.id} (${job.kind}) can't be run: its data can't be read — ${e instanceof Error ? e.message : String(e)}. ` +
        'brick-work did not write it so; start the work again as a new job.',
    );
  }
}
