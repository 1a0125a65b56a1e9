import { inspect } from 'node:util';
import type { Worker } from 'node:worker_threads';
import type { StoreDb } from '../store/db.ts';
import type { Clock } from '../platform/clock.ts';
import type { ApiEvents, EventName } from '../api/contract.ts';
import type { JobControl } from '../api/ports.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import { handedOver } from './hand-over.ts';
import { lookupStarter } from './work.ts';
import { LOOKUP_JOB_KIND } from '../catalogue/lookup-job.ts';
import type { DamageMark } from '../store/damage.ts';
import type { HostMessage, StampedHostMessage, ThreadMessage } from './thread-messages.ts';
import { startWorker } from '../platform/worker-start.ts';
import { BrickWorkError, type ErrorValue } from '../vocabulary/errors.ts';
import type { FetchedStock } from '../stock/lookup.ts';

export { startWorker };

export interface JobHostOptions {
  readonly db: StoreDb;
  readonly storePath: string;
  /** This desk's name: the runner's claims and catalogue loads record it (SPEC §14). */
  readonly desk: string;
  readonly clock: Clock;
  /** The runner thread's script: `runner-thread.ts` under tsx, the bundled `runner-thread.js` in the app. */
  readonly workerUrl: URL;
  readonly nativeBinding?: string | null;
  readonly emit: <E extends EventName>(name: E, payload: ApiEvents[E]) => void;
  readonly log: (line: string) => void;
  /** How often the runner thread looks for claimable jobs (a deferred look-up job resumes on its day). */
  readonly wakeEveryMs?: number;
  /** The process's mark of a store found damaged (SPEC §11): the runner thread shares its cell. */
  readonly damage?: DamageMark;
}

/** The longest wait before the job runner thread is started again after it stopped. */
const MAX_RESTART_WAIT_MS = 60_000;

/**
 * The main thread's side of the runner thread: starts it, hands it work, and relays what it reports. A
 * runner thread that stops is started again, after a wait that doubles each time (1 s up to a minute),
 * saying why in the log; work handed over meanwhile waits for it (SPEC §11: a started job runs).
 */
export class JobHost implements JobControl {
  private worker: Worker | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly waiting: { m: HostMessage; transfer: ArrayBuffer[] }[] = [];
  /** Whether the thread has its store open: until it says so, work handed over waits (it may fail to open it). */
  private ready = false;
  private restarts = 0;
  private stopping = false;
  /** The thread that has a catalogue load and has not finished it: if it stops, the load is told as failed. */
  private loadingOn: Worker | null = null;
  /** The credentials last given: a thread started again gets them too. */
  private credentials: HostMessage | null = null;
  /** The desk's name since Settings changed it: a thread started again starts as it. */
  private desk: string | null = null;
  /** A wake asked for while the thread was not ready: sent once it is. */
  private wakeWhenReady = false;
  /** `stock.lookup`s handed to the thread and not answered, each with the thread it was sent to (null: not yet). */
  private readonly fetches = new Map<
    number,
    { worker: Worker | null; answer: (fetched: FetchedStock | null, error: ErrorValue | null) => void }
  >();
  private nextFetch = 1;
  /** The work handed to the thread and not finished yet, by kind, with its last progress. */
  private readonly unfinished = new Map<string, { done: number; total: number | null }>();

  constructor(private readonly options: JobHostOptions) {
    this.start(false);
    this.timer = setInterval(() => this.send({ type: 'wake' }), options.wakeEveryMs ?? 60_000);
    this.timer.unref();
  }

  private start(again: boolean): void {
    const { options } = this;
    const workerData = {
      storePath: options.storePath,
      desk: this.desk ?? options.desk,
      nativeBinding: options.nativeBinding ?? null,
      clockMs: options.clock.now().getTime(),
      // Started again: the jobs the stopped thread had are ended or queued again first.
      restarted: again,
      damage: options.damage?.shared,
    };
    const worker = startWorker(options.workerUrl, workerData);
    worker.on('message', (m: ThreadMessage) => this.onMessage(m));
    worker.on('error', (e: unknown) => options.log(`the job runner stopped: ${describeFailure(e)}`));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      // A store inventory it was fetching: never left unanswered (the call may have been counted).
      for (const f of this.fetches.values())
        if (f.worker === worker)
          f.answer(null, {
            code: this.stopping ? 'cancelled' : 'interrupted',
            message: this.stopping
              ? 'brick-work closed before BrickLink answered.'
              : 'brick-work’s job runner stopped while it asked BrickLink for the store’s inventory, and starts again by itself: try again.',
          });
      if (this.stopping) return;
      if (this.loadingOn === worker) {
        // The load it had can't go on (its files were the thread's): said in words, never left "started".
        this.loadingOn = null;
        options.emit('job.progress', {
          kind: 'catalogue-load',
          done: 0,
          total: null,
          state:
            'failed: brick-work’s job runner stopped while it loaded the catalogue files and starts again by itself; load them again',
        });
        options.emit('store.changed', { reason: 'catalogue-load failed' });
      }
      const wait = Math.min(MAX_RESTART_WAIT_MS, 1000 * 2 ** this.restarts);
      this.restarts += 1;
      options.log(`the job runner stopped (exit code ${code}); it starts again in ${wait / 1000} s`);
      setTimeout(() => {
        if (!this.stopping) this.start(true);
      }, wait).unref();
    });
    this.worker = worker;
    this.ready = false;
  }

  /** Each message carries this core's clock reading: the thread keeps to the core's clock (see StampedHostMessage). */
  private send(m: HostMessage, transfer: ArrayBuffer[] = []): void {
    if (this.worker === null || !this.ready) {
      // Between a stop and the start again, or while the thread opens the store: it waits (a wake needs no keeping).
      if (m.type !== 'wake') this.waiting.push({ m, transfer });
      return;
    }
    if (m.type === 'catalogue-load') this.loadingOn = this.worker;
    if (m.type === 'stock-fetch') {
      const f = this.fetches.get(m.id);
      if (f) f.worker = this.worker;
    }
    this.worker.postMessage(
      { ...m, clockMs: this.options.clock.now().getTime() } satisfies StampedHostMessage,
      transfer,
    );
  }

  private onMessage(m: ThreadMessage): void {
    const { emit } = this.options;
    // It works: the next stop waits a second again.
    if (m.type === 'finished') this.restarts = 0;
    if (m.type === 'finished' && m.kind === 'catalogue-load') this.loadingOn = null;
    if (m.type === 'finished') this.unfinished.delete(m.kind);
    if (m.type === 'progress') this.unfinished.set(m.kind, { done: m.done, total: m.total });
    if (m.type === 'ready') {
      this.ready = true;
      if (this.credentials) this.send(this.credentials);
      for (const w of this.waiting.splice(0)) this.send(w.m, w.transfer);
      if (this.wakeWhenReady) this.send({ type: 'wake' });
      this.wakeWhenReady = false;
    }
    if (m.type === 'progress') emit('job.progress', { kind: m.kind, done: m.done, total: m.total, state: m.state });
    else if (m.type === 'finished') {
      // A deferred job waits in the queue (the budget's next day, or another run): not done, not failed.
      const waiting = m.summary === 'deferred';
      const state = waiting
        ? `waiting${m.error ? `: ${m.error.message}` : ''}`
        : m.error
          ? `failed: ${m.error.message}`
          : 'done';
      emit('job.progress', {
        kind: m.kind,
        done: 0,
        total: null,
        state,
        ...(m.summary && !waiting ? { summary: m.summary } : {}),
        ...(m.orders && m.orders.length > 0 ? { orders: m.orders } : {}),
      });
      emit('store.changed', { reason: `${m.kind} ${waiting ? 'waits' : m.error ? 'failed' : 'finished'}` });
      if (m.error) this.options.log(`${m.kind}: ${m.error.message}`);
    } else if (m.type === 'changed') emit('store.changed', { reason: m.reason });
    else if (m.type === 'stock-fetched') this.fetches.get(m.id)?.answer(m.fetched, m.error);
    else if (m.type === 'log') this.options.log(m.line);
    else if (m.type === 'failed') this.options.log(`the job runner could not open the store: ${m.error.message}`);
  }

  startCatalogueLoad(files: readonly { name: string; content: Uint8Array }[], type: string | null): void {
    // Files their caller handed over go without a copy (tens of MB on the screens' thread).
    const owned = handedOver(files);
    this.unfinished.set('catalogue-load', { done: 0, total: null });
    this.send(
      {
        type: 'catalogue-load',
        files: files.map((f) => ({ name: f.name, content: f.content })),
        itemType: type,
      },
      owned,
    );
  }

  /** Starts another run of the look-up job: its limit (or none) is kept with the job, its count starts again. */
  startLookup(limit: number | null, credentials: Credentials, apiUrl: string): number {
    return lookupStarter(this.options.db, this.options.clock, (id, c, url) => this.runLookup(id, c, url))(
      limit,
      credentials,
      apiUrl,
    );
  }

  /** Runs a look-up job already queued (by the writer thread, which queued its run). */
  runLookup(jobId: number, credentials: Credentials, apiUrl: string): void {
    this.unfinished.set(LOOKUP_JOB_KIND, { done: 0, total: null });
    this.send({ type: 'lookup', jobId, credentials, apiUrl });
  }

  /**
   * The shop's store inventory from BrickLink (`stock.lookup`), asked on the runner thread: its connection
   * counts the call, then sends it, while the writer thread goes on writing.
   */
  fetchStoreInventory(credentials: Credentials, apiUrl: string): Promise<FetchedStock> {
    const id = this.nextFetch++;
    return new Promise<FetchedStock>((resolve, reject) => {
      this.fetches.set(id, {
        worker: null,
        answer: (fetched, error) => {
          this.fetches.delete(id);
          if (fetched !== null) resolve(fetched);
          else reject(new BrickWorkError(error?.code ?? 'internal', error?.message ?? 'BrickLink gave no answer.'));
        },
      });
      this.send({ type: 'stock-fetch', id, credentials, apiUrl });
    });
  }

  /** The work this app's runner thread has and has not finished (a quit asks first while there is some). */
  get underWay(): readonly { kind: string; done: number; total: number | null }[] {
    return [...this.unfinished].map(([kind, p]) => ({ kind, ...p }));
  }

  /**
   * Asks the runner thread to look for claimable jobs now, not at its next tick: a desk that ran one was
   * seen gone (SPEC §14), or the start's recovery queued some. One asked before the thread is ready is
   * made when it is.
   */
  wake(): void {
    if (this.worker === null || !this.ready) this.wakeWhenReady = true;
    else this.send({ type: 'wake' });
  }

  /** This desk was renamed: the runner claims and loads as the new name, and starts as it again. */
  tellDesk(desk: string): void {
    this.desk = desk;
    this.send({ type: 'desk', desk });
  }

  provideCredentials(credentials: Credentials, apiUrl: string): void {
    this.credentials = { type: 'credentials', credentials, apiUrl };
    // A thread not ready yet gets them when it is (with every start).
    if (this.ready) this.send(this.credentials);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopping = true;
    const worker = this.worker;
    if (worker === null) return;
    worker.postMessage({ type: 'stop', clockMs: this.options.clock.now().getTime() } satisfies StampedHostMessage);
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => void worker.terminate().then(() => resolve()), 2_000);
      worker.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}

/** What a thread that failed threw, in words: an error from another thread may come as a plain object. */
export function describeFailure(e: unknown): string {
  if (e instanceof Error) return e.message;
  const o = e as { code?: unknown; message?: unknown; stack?: unknown } | null;
  if (typeof o?.message === 'string') return `${typeof o.code === 'string' ? `${o.code}: ` : ''}${o.message}`;
  return inspect(e, { depth: 2, breakLength: Infinity });
}
