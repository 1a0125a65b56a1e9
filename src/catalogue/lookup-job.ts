import type { StoreDb } from '../store/db.ts';
import { isoNow, nextUtcDay, utcDay, type Clock } from '../platform/clock.ts';
import { BrickWorkError, isBrickWorkError, quote } from '../vocabulary/errors.ts';
import { toErrorValue } from '../store/errors.ts';
import { enqueueJob } from '../jobs/queue.ts';
import type { JobHandler } from '../jobs/runner.ts';
import { foldName } from '../placement/fold.ts';
import { placeLinesAgain } from '../placement/place-lines.ts';
import { catalogueWriters } from '../store/catalogue.ts';
import { bumpCatalogueGeneration } from '../store/settings.ts';
import { numbersStillToAsk, recordLookupAnswer, unplacedLinesGiving } from '../store/lookup-job.ts';
import { activeJobOfKind, jobPayloadText, restartJobRun, setJobPayloadText } from '../store/jobs.ts';
import type { ItemAnswer } from './bricklink/api.ts';
import type { BudgetStatus } from './budget.ts';
import { isItemType, type ItemType } from '../vocabulary/item-types.ts';
import type { Source } from './source.ts';

export const LOOKUP_JOB_KIND = 'catalogue-lookup';

export interface PendingNumber {
  readonly type: ItemType;
  readonly no: string;
}

/**
 * The distinct BrickLink numbers that unplaced saved lines name, that the catalogue lacks, and that
 * BrickLink has not answered for yet (found or not): what the look-up job still has to ask.
 */
export function pendingLookups(db: StoreDb): PendingNumber[] {
  const rows = numbersStillToAsk(db);
  const seen = new Set<string>();
  const out: PendingNumber[] = [];
  for (const r of rows) {
    const key = `${r.type} ${r.no.toLowerCase()}`;
    if (!isItemType(r.type) || seen.has(key)) continue;
    seen.add(key);
    out.push({ type: r.type, no: r.no });
  }
  return out;
}

/** Keeps BrickLink's answer (found or not, so it is never asked twice), adds a found item, places its lines again. */
function recordAnswer(db: StoreDb, asked: PendingNumber, answer: ItemAnswer, clock: Clock): void {
  recordLookupAnswer(db, asked.type, asked.no, answer.found, isoNow(clock));
  if (!answer.found) return;
  catalogueWriters(db).item(
    {
      type: asked.type,
      no: answer.no,
      name: answer.name,
      nameKey: foldName(answer.name),
      categoryId: answer.categoryId,
    },
    'bricklink-api',
  );
  bumpCatalogueGeneration(db);
  placeLinesAgain(db, unplacedLinesGiving(db, asked.type, asked.no));
}

/**
 * One run of the look-up job, kept in the job's payload so that every process and thread that claims
 * the job keeps to it: the calls staff allowed this run (null: no cap) and the calls made under it.
 */
export interface LookupRun {
  readonly limit: number | null;
  readonly calls: number;
}

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

/** The run a job's payload holds; a payload without one (an older job) is a run with no cap. */
export function lookupRunOf(payload: unknown): LookupRun {
  const p = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  return { limit: count(p['limit']), calls: count(p['calls']) ?? 0 };
}

/**
 * A look-up job's data as its runner reads it at the claim: an object, with a limit (a whole number or
 * null) and the calls made under it, when it has them. Anything else was not written by brick-work.
 */
export function readLookupRun(payload: unknown): LookupRun {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new Error('it is not an object with the run’s limit and calls');
  const p = payload as Record<string, unknown>;
  for (const field of ['limit', 'calls'])
    if (p[field] !== undefined && p[field] !== null && count(p[field]) === null)
      throw new Error(`its ${field} is ${quote(JSON.stringify(p[field]))}, not a whole number`);
  return lookupRunOf(p);
}

function runUsedUp(run: LookupRun): boolean {
  return run.limit !== null && run.calls >= run.limit;
}

/**
 * Whether a queued look-up job has anything to do before staff start another run: not when its run
 * has used its limit. The runner's claims skip it then, without writing to it.
 */
export function lookupHasWork(payload: unknown): boolean {
  return !runUsedUp(lookupRunOf(payload));
}

/** The payload as an object, or `{}` when it is not a JSON object: what a run's numbers are set into. */
function payloadObject(db: StoreDb, jobId: number): Record<string, unknown> {
  const text = jobPayloadText(db, jobId);
  try {
    const value: unknown = text === undefined ? {} : JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * Sets some of a run's numbers in the job's payload, keeping the rest. Read and written in the caller's
 * write transaction (the store's one writer), so nothing comes between (SQLite's `json_set` did it in one
 * statement; both stores do it so now).
 */
function setInPayload(db: StoreDb, jobId: number, values: Record<string, unknown>): void {
  setJobPayloadText(db, jobId, JSON.stringify({ ...payloadObject(db, jobId), ...values }));
}

function readRun(db: StoreDb, jobId: number): LookupRun {
  const text = jobPayloadText(db, jobId);
  try {
    return lookupRunOf(text === undefined ? {} : JSON.parse(text));
  } catch {
    return lookupRunOf({});
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Starts a run of the look-up job (the app's button, `catalogue lookup`): makes the job, unless one is
 * already queued or running (at most one per store) — then that one. Either way the run's limit is set
 * (null: none) and its count of calls starts again from 0; a run that had stopped at its limit goes on.
 */
export function enqueueLookup(
  db: StoreDb,
  clock: Clock,
  run: { limit: number | null } = { limit: null },
): { id: number; created: boolean } {
  return db
    .transaction(() => {
      const now = isoNow(clock);
      const existing = activeJobOfKind(db, LOOKUP_JOB_KIND);
      if (existing !== undefined) {
        // The old run's stop message goes; a wait for the next budget day stays (and says why).
        setInPayload(db, existing, { limit: run.limit, calls: 0 });
        restartJobRun(db, existing, now, utcDay(clock));
        return { id: existing, created: false };
      }
      const payload: LookupRun = { limit: run.limit, calls: 0 };
      return { id: enqueueJob(db, LOOKUP_JOB_KIND, payload, { clock }), created: true };
    })
    .immediate();
}

export interface LookupStats {
  calls: number;
  found: number;
  notFound: number;
  left: number;
}

/** A call that was counted and sent but got no answer: failed, and said to have been counted. */
function countedFailure(e: unknown, asked: PendingNumber, budget: BudgetStatus): BrickWorkError {
  const { code, message } = toErrorValue(e);
  return new BrickWorkError(
    code === 'internal' ? 'source-error' : code,
    `${message.replace(/\.?$/, '.')} The call for ${asked.type} ${asked.no} was counted against today's BrickLink budget ` +
      `(${budget.used} of ${budget.limit} calls on ${budget.day}, UTC) and against this run's limit, as every call is counted before it is sent.`,
  );
}

/**
 * The look-up job (SPEC §5): asks BrickLink once for each pending number, counting each call — in the
 * day's budget and in the run's count in the job's payload, in one transaction — before sending it;
 * keeps every answer; places the affected lines again. At the day's budget it goes back to the queue
 * until the next UTC day, and goes on then within what is left of the run's limit. At the run's limit
 * it stays queued but is not claimed again (`lookupHasWork`) until staff start another run.
 */
export function lookupHandler(source: Source, options: { clock: Clock; stats?: LookupStats }): JobHandler {
  return Object.assign(lookupRun(source, options), { readPayload: readLookupRun });
}

function lookupRun(source: Source, options: { clock: Clock; stats?: LookupStats }): JobHandler {
  return async (job, ctx) => {
    const stats = options.stats ?? { calls: 0, found: 0, notFound: 0, left: 0 };
    const todo = pendingLookups(ctx.db);
    const total = todo.length;
    stats.left = total;
    if (!ctx.step(null, { done: 0, total })) return;
    for (const [i, asked] of todo.entries()) {
      const turn = { stoppedAt: null as LookupRun | null, budget: null as BudgetStatus | null };
      try {
        const ours = ctx.step(() => {
          const run = readRun(ctx.db, job.id);
          if (runUsedUp(run)) {
            turn.stoppedAt = run;
            return;
          }
          turn.budget = source.reserve();
          setInPayload(ctx.db, job.id, { calls: run.calls + 1 });
        });
        if (!ours) return;
      } catch (e) {
        if (isBrickWorkError(e) && e.code === 'budget-exhausted') {
          ctx.defer(nextUtcDay(options.clock), `${e.message}; ${plural(total - i, 'number', 'numbers')} still to ask`);
        }
        throw e;
      }
      if (turn.stoppedAt !== null || turn.budget === null) {
        const calls = plural(turn.stoppedAt?.calls ?? 0, 'call', 'calls');
        ctx.defer(
          null,
          `stopped after ${calls}, the limit of this run; ${plural(total - i, 'number', 'numbers')} still to ask — start another run to go on`,
        );
        return;
      }
      stats.calls += 1;
      let answer: ItemAnswer;
      try {
        answer = await source.fetch(asked.type, asked.no);
      } catch (e) {
        throw countedFailure(e, asked, turn.budget);
      }
      if (!ctx.step(() => recordAnswer(ctx.db, asked, answer, options.clock), { done: i + 1, total })) return;
      if (answer.found) stats.found += 1;
      else stats.notFound += 1;
      stats.left -= 1;
    }
    ctx.complete();
  };
}
