import path from 'node:path';
import type { ReadableDb, StoreDb } from '../store/db.ts';
import { isoNow, type Clock } from '../platform/clock.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import { sameOwner, SYSTEM_PROC, type OwnerIdentity } from '../identity/owner.ts';
import { actingOwner, isSession, ownerAlive } from '../store/owners.ts';
import {
  catalogueJobPlace,
  catalogueJobReadPlace,
  type CatalogueJobPlace,
  type StoredJobRecord,
} from '../store/catalogue-job-place.ts';
import { readCatalogueJobFile } from '../store/catalogue-job-file.ts';
import type { ProcView } from '../identity/proc.ts';
import { placeUnplacedLines, placeWaitingLinesNow } from '../placement/place-lines.ts';
import { waitingLines } from '../store/line-placements.ts';
import { thisComputer } from '../identity/desk.ts';
import type { JobProgress } from '../jobs/types.ts';

/**
 * The one catalogue job of a store (SPEC §4, §14), its record kept where the store keeps it
 * (`store/catalogue-job-place.ts`: catalogue-job.json beside a file, a row on a server). Its
 * check-and-claim runs under the store's write lock, so two processes can't both start one; a record
 * that can't be read is reported and treated as no job, never as Busy for good.
 */

export const CATALOGUE_JOB_STATES = ['running', 'done', 'failed', 'cancelled'] as const;
export type CatalogueJobState = (typeof CATALOGUE_JOB_STATES)[number];

export interface CatalogueJobRecord {
  readonly state: CatalogueJobState;
  readonly kind: string;
  readonly owner: OwnerIdentity;
  /** The desk that started it (SPEC §14: words name desks, never a server's session number); absent before desks. */
  readonly desk?: string | null;
  readonly progress: JobProgress;
  readonly error: string | null;
  /** Staff asked it to stop; the owner stops at its next step. */
  readonly cancelRequested: boolean;
  /** What it works on (file names), for the screen. */
  readonly detail: unknown;
  /** Set when its owner died and a later start (or `jobs recover`) ended it. */
  readonly recovered?: boolean;
  readonly startedAt: string;
  readonly updatedAt: string;
}

export type CatalogueJobFile =
  | { readonly status: 'none' }
  | { readonly status: 'ok'; readonly record: CatalogueJobRecord }
  | { readonly status: 'corrupt'; readonly problem: string };

function isOwner(v: unknown): v is OwnerIdentity {
  const o = v as Record<string, unknown> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    Number.isSafeInteger(o['pid']) &&
    (o['bootId'] === null || typeof o['bootId'] === 'string') &&
    (o['startTicks'] === null || Number.isSafeInteger(o['startTicks']))
  );
}

function validate(v: unknown): CatalogueJobRecord | string {
  const r = v as Record<string, unknown> | null;
  if (typeof r !== 'object' || r === null) return 'it is not a JSON object';
  if (!CATALOGUE_JOB_STATES.includes(r['state'] as CatalogueJobState))
    return 'its state is not one of running, done, failed, cancelled';
  if (typeof r['kind'] !== 'string') return 'it names no kind';
  if (!isOwner(r['owner'])) return 'its owner is not a (pid, bootId, startTicks) identity';
  const p = r['progress'] as Record<string, unknown> | null;
  if (typeof p !== 'object' || p === null || !Number.isSafeInteger(p['done'])) return 'its progress is not readable';
  return {
    state: r['state'] as CatalogueJobState,
    kind: r['kind'],
    owner: r['owner'],
    desk: typeof r['desk'] === 'string' ? r['desk'] : null,
    progress: { done: p['done'] as number, total: Number.isSafeInteger(p['total']) ? (p['total'] as number) : null },
    error: typeof r['error'] === 'string' ? r['error'] : null,
    cancelRequested: r['cancelRequested'] === true,
    detail: r['detail'] ?? null,
    recovered: r['recovered'] === true,
    startedAt: typeof r['startedAt'] === 'string' ? r['startedAt'] : '',
    updatedAt: typeof r['updatedAt'] === 'string' ? r['updatedAt'] : '',
  };
}

/** catalogue-job.json as the catalogue job reads it (the record beside a store file at `file`). */
export function readCatalogueJob(file: string): CatalogueJobFile {
  return parseRecord(readCatalogueJobFile(file));
}

function parseRecord(stored: StoredJobRecord): CatalogueJobFile {
  if (stored.status === 'none') return { status: 'none' };
  if (stored.status === 'unreadable') return { status: 'corrupt', problem: stored.problem };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored.text);
  } catch (e) {
    return { status: 'corrupt', problem: `it is not valid JSON (${(e as Error).message})` };
  }
  const record = validate(parsed);
  return typeof record === 'string' ? { status: 'corrupt', problem: record } : { status: 'ok', record };
}

export interface CatalogueJobOptions {
  readonly me: OwnerIdentity;
  /** The desk loading, as the job's words name it; absent: this computer's name. */
  readonly desk?: string;
  readonly clock: Clock;
  readonly proc?: ProcView;
}

/** What the jobs list shows of the catalogue job. */
export interface CatalogueJobStatus {
  readonly file: string;
  readonly record: CatalogueJobRecord | null;
  readonly alive: boolean | null;
  /** Why the file could not be read, when it could not. */
  readonly problem: string | null;
}

export function catalogueJobStatus(
  db: ReadableDb,
  storePath: string,
  proc: ProcView = SYSTEM_PROC,
): CatalogueJobStatus {
  const place = readPlaceOf(db, storePath);
  const read = place.read();
  const file = place.name;
  if (read.status === 'ok')
    return { file, record: read.record, alive: ownerAlive(db, read.record.owner, proc), problem: null };
  return { file, record: null, alive: null, problem: read.status === 'corrupt' ? read.problem : null };
}

/**
 * Who loads (or loaded) a catalogue, in staff's words: on a server the desk by its name (its session's
 * number means nothing to them), on a file the desk and its brick-work process by its pid.
 */
export function loaderWords(record: Pick<CatalogueJobRecord, 'owner' | 'desk'>): string {
  if (isSession(record.owner)) return record.desk ? `the desk "${record.desk}"` : 'another desk';
  if (record.desk) return `the desk "${record.desk}" (its brick-work, pid ${record.owner.pid})`;
  return `another brick-work process (pid ${record.owner.pid})`;
}

/**
 * A load whose loader went away mid-load, in true words — the same while it is only seen gone and once a
 * start (or `jobs recover`) has ended it (`recovered`): who, that nothing takes a load up again, what is
 * kept, and what to do. Loading the files again is always right: a load merges, it never doubles.
 */
export function stoppedLoadWords(who: string, recovered = false): string {
  return (
    `It stopped: ${who}, which was loading it, is gone (its brick-work stopped, or its connection to the shop’s server was cut), ` +
    'and a catalogue load is never taken up again by itself.' +
    (recovered ? ' The files it had merged are kept, and every unplaced line was placed again.' : '') +
    ' Load the files again.'
  );
}

/** The store's catalogue job record, wherever the store keeps it (file or row). */
export function catalogueJobRecord(db: StoreDb, storePath: string): CatalogueJobFile {
  return placeOf(db, storePath).read();
}

/** The store's place for the record, its content read as the job's record. */
type RecordPlace = Omit<CatalogueJobPlace, 'read'> & { read(): CatalogueJobFile };

/** The place as a reader sees it: its name and the record in it. */
function readPlaceOf(db: ReadableDb, storePath: string): Pick<RecordPlace, 'name' | 'read'> {
  const place = catalogueJobReadPlace(db, storePath);
  return { name: place.name, read: () => parseRecord(place.read()) };
}

function placeOf(db: StoreDb, storePath: string): RecordPlace {
  const place = catalogueJobPlace(db, storePath);
  return { ...place, read: () => parseRecord(place.read()) };
}

/** Serialises a read-modify-write of the file through the store's write lock. */
function underWriteLock<T>(db: StoreDb, fn: () => T): T {
  return db.transaction(fn).immediate();
}

/** How often a running job's progress is written to catalogue-job.json, at most (ms). */
const PROGRESS_WRITE_MS = 200;

/** The catalogue job this process owns. */
export class CatalogueJob {
  private lastWrite = -Infinity;
  private constructor(
    private readonly db: StoreDb,
    private readonly place: RecordPlace,
    private record: CatalogueJobRecord,
    private readonly clock: Clock,
  ) {}

  /**
   * Starts the store's catalogue job for `me`. Refused as `busy` while another live owner runs one;
   * a stale `running` (dead owner) or an unreadable file does not block (the latter is reported in
   * `warning`).
   */
  static start(
    db: StoreDb,
    storePath: string,
    kind: string,
    detail: unknown,
    options: CatalogueJobOptions,
  ): { job: CatalogueJob; warning: string | null } {
    const place = placeOf(db, storePath);
    const proc = options.proc ?? SYSTEM_PROC;
    const refuseWhileRunning = (current: CatalogueJobFile) => {
      if (current.status !== 'ok' || current.record.state !== 'running') return;
      if (!ownerAlive(db, current.record.owner, proc)) return;
      const p = current.record.progress;
      const done = p.total ? ` (${Math.floor((100 * p.done) / p.total)}% done)` : '';
      throw new BrickWorkError(
        'busy',
        `Busy: ${loaderWords(current.record)} is loading a catalogue into this store${done}. ` +
          'Wait until it has finished, then try again.',
      );
    };
    // A live load is said at once, before the write lock: that load holds the lock for its merges, and a
    // wait for it would end as "the store is busy" rather than naming the load.
    if (!db.inTransaction) refuseWhileRunning(place.read());
    return underWriteLock(db, () => {
      const current = place.read();
      let warning: string | null = null;
      if (current.status === 'corrupt') {
        warning = `${path.basename(place.name)} could not be read (${current.problem}); it was treated as no catalogue job.`;
      }
      refuseWhileRunning(current);
      place.tidy();
      const now = isoNow(options.clock);
      const record: CatalogueJobRecord = {
        state: 'running',
        kind,
        // On a server the session starting it now, even when `me` was named before a cut (owners.ts).
        owner: actingOwner(db, options.me),
        desk: options.desk ?? thisComputer(),
        progress: { done: 0, total: null },
        error: null,
        cancelRequested: false,
        detail,
        startedAt: now,
        updatedAt: now,
      };
      place.write(record);
      return { job: new CatalogueJob(db, place, record, options.clock), warning };
    });
  }

  get state(): CatalogueJobRecord {
    return this.record;
  }

  /**
   * Records progress. False when staff asked it to stop, or the file is no longer this job's: stop then.
   * Throws when this desk's connection to the server was cut since it started (`cutFromServer`).
   */
  progress(progress: JobProgress): boolean {
    const inside = this.db.inTransaction; // before the write lock's own transaction below
    return underWriteLock(this.db, () => {
      const current = this.ownRecord();
      if (current === null && this.cutSinceStart()) throw cutFromServer();
      if (current === null || current.cancelRequested) return false;
      // Written (two fsyncs) at most every PROGRESS_WRITE_MS, and when it reaches its total: a short load
      // is not slowed by a file nobody could read that often; a cancel is still seen at every call.
      const at = performance.now();
      const complete = progress.total !== null && progress.done >= progress.total;
      if (!complete && at - this.lastWrite < PROGRESS_WRITE_MS) return true;
      this.lastWrite = at;
      this.record = { ...current, progress, updatedAt: isoNow(this.clock) };
      this.place.writeProgress(this.record, inside);
      return true;
    });
  }

  /**
   * Ends the job: done, failed (with the reason), or cancelled. False when the file is no longer this
   * job's. A load whose connection was cut still says it failed, as the session that started it.
   */
  finish(state: Exclude<CatalogueJobState, 'running'>, error: string | null = null): boolean {
    return underWriteLock(this.db, () => {
      const current = this.ownRecord() ?? (state === 'failed' ? this.recordOfCutSession() : null);
      if (current === null) return false;
      this.record = { ...current, state, error, updatedAt: isoNow(this.clock) };
      this.place.write(this.record);
      return true;
    });
  }

  private ownRecord(): CatalogueJobRecord | null {
    const read = this.place.read();
    if (read.status !== 'ok' || read.record.state !== 'running') return null;
    return sameOwner(read.record.owner, actingOwner(this.db, this.record.owner)) ? read.record : null;
  }

  /** On a server: this desk's connection was made again since the load started, as a new session. */
  private cutSinceStart(): boolean {
    return !sameOwner(actingOwner(this.db, this.record.owner), this.record.owner);
  }

  /** The record, still running as the session this load started as, which was cut since. */
  private recordOfCutSession(): CatalogueJobRecord | null {
    if (!this.cutSinceStart()) return null;
    const read = this.place.read();
    if (read.status !== 'ok' || read.record.state !== 'running') return null;
    return sameOwner(read.record.owner, this.record.owner) ? read.record : null;
  }
}

/**
 * A load whose connection to the shop's server was cut: its session ended with it, and what ran as that
 * session is no longer this desk's to go on with (SPEC §14) — a failed load, never a cancelled one.
 */
function cutFromServer(): BrickWorkError {
  return new BrickWorkError(
    'store-unreachable',
    `The connection to the shop’s server was cut while this desk loaded the catalogue, so the load stopped: ` +
      'the file it was merging was rolled back, and the files merged before it are kept. Load the files again.',
  );
}

/** Asks the running catalogue job to stop at its next step. False when none is running. */
export function requestCatalogueJobCancel(
  db: StoreDb,
  storePath: string,
  clock: Clock,
  proc: ProcView = SYSTEM_PROC,
): boolean {
  const place = placeOf(db, storePath);
  return underWriteLock(db, () => {
    const read = place.read();
    if (read.status !== 'ok' || read.record.state !== 'running') return false;
    if (!ownerAlive(db, read.record.owner, proc)) {
      // Nobody is left to stop: mark it cancelled now.
      place.write({ ...read.record, state: 'cancelled', updatedAt: isoNow(clock) });
      return true;
    }
    place.write({ ...read.record, cancelRequested: true, updatedAt: isoNow(clock) });
    return true;
  });
}

/** What recovering a dead owner's catalogue job did. */
export interface RecoveredCatalogueJob {
  readonly kind: string;
  readonly deadOwner: OwnerIdentity;
  /** Who was loading it, in staff's words (`loaderWords`). */
  readonly who: string;
  /** Unplaced lines the catalogue now answers, placed again while recovering. */
  readonly placed: number;
}

/**
 * A catalogue job left `running` by a process that died (SPEC §4) is ended as failed, saying so, at the
 * app's start and by `jobs recover`. Its files can't be resumed (they were never stored), but what it
 * merged is kept, and in the same write transaction every unplaced line is placed again, with the lines
 * it left waiting between its batches (issue 45): a load that died after its merge leaves no false reason.
 */
export function recoverCatalogueJob(
  db: StoreDb,
  storePath: string,
  options: { readonly clock: Clock; readonly proc?: ProcView },
): RecoveredCatalogueJob | null {
  const place = placeOf(db, storePath);
  const proc = options.proc ?? SYSTEM_PROC;
  return underWriteLock(db, () => {
    const read = place.read();
    if (read.status !== 'ok' || read.record.state !== 'running' || ownerAlive(db, read.record.owner, proc)) return null;
    const placed = placeUnplacedLines(db).placed;
    const owner = read.record.owner;
    place.write({
      ...read.record,
      state: 'failed',
      error: stoppedLoadWords(loaderWords(read.record), true),
      recovered: true,
      updatedAt: isoNow(options.clock),
    });
    return { kind: read.record.kind, deadOwner: owner, who: loaderWords(read.record), placed };
  });
}

/**
 * Lines a load asked to place again and left waiting (issue 45: it failed between its batches, a store
 * busy past its timeout, say) are placed at the app's start and by `jobs recover`, unless a live load is
 * at them now: the number placed, or null when none waited.
 */
export function placeLinesLeftWaiting(db: StoreDb, storePath: string, proc: ProcView = SYSTEM_PROC): number | null {
  if (waitingLines(db) === null) return null;
  const place = placeOf(db, storePath);
  return underWriteLock(db, () => {
    const read = place.read();
    if (read.status === 'ok' && read.record.state === 'running' && ownerAlive(db, read.record.owner, proc)) return null;
    if (waitingLines(db) === null) return null;
    return placeWaitingLinesNow(db).placed;
  });
}

/**
 * The catalogue job `me` left `running` when its thread stopped (SPEC §11: the job runner thread started
 * again in the same process): ended as failed, saying why — its process lives, so it would look busy for
 * good otherwise. What it merged is kept and unplaced lines are placed again, as `recoverCatalogueJob` does.
 */
export function failOwnCatalogueJob(
  db: StoreDb,
  storePath: string,
  me: OwnerIdentity,
  options: { readonly clock: Clock },
): boolean {
  const place = placeOf(db, storePath);
  return underWriteLock(db, () => {
    const read = place.read();
    if (read.status !== 'ok' || read.record.state !== 'running') return false;
    const o = read.record.owner;
    if (o.pid !== me.pid || o.bootId !== me.bootId || o.startTicks !== me.startTicks) return false;
    placeUnplacedLines(db);
    place.write({
      ...read.record,
      state: 'failed',
      error:
        'brick-work’s job runner stopped while it loaded these files and has been started again. ' +
        'The files it had merged are kept; load the others again.',
      recovered: true,
      updatedAt: isoNow(options.clock),
    });
    return true;
  });
}
