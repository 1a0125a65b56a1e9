import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import type { StoreDb } from '../store/db.ts';
import type { Clock } from '../platform/clock.ts';
import { type ErrorValue } from '../vocabulary/errors.ts';
import { toErrorValue } from '../store/errors.ts';
import type { DamageMark } from '../store/damage.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import { describeFailure, startWorker } from './job-host.ts';
import { suggestionGeneration } from '../store/memories.ts';
import { STORE_DAMAGED, type ApiEvents, type CallName, type EventName, type Result } from '../api/contract.ts';
import { readCredentials, type CredentialsRead } from '../api/credentials.ts';
import { readsCredentials, threadOf } from '../api/handlers/index.ts';
import type { CallDispatcher } from '../api/ports.ts';
import { handedOver } from './hand-over.ts';
import { storeHolder, waitingWords } from './store-holder.ts';
import type {
  FromServiceThread,
  ServiceThreadData,
  ServiceThreadRole,
  ToServiceThread,
} from './service-thread-messages.ts';

export interface ServiceThreadsOptions {
  /** The main thread's connection: it reads the catalogue generation, to know when the index is stale. */
  readonly db: StoreDb;
  readonly storePath: string;
  /** This desk's name: the writer records it with every step. */
  readonly desk: string;
  /** The service thread's script: `service-thread.ts` under tsx, the bundled `service-thread.js` in the app. */
  readonly workerUrl: URL;
  readonly nativeBinding: string | null;
  readonly clock: Clock;
  readonly credentials: { readonly encrypted: boolean; get(): Credentials | null };
  readonly emit: <E extends EventName>(name: E, payload: ApiEvents[E]) => void;
  readonly log: (line: string) => void;
  /** Hands a queued run of the look-up job to the job runner thread. */
  readonly runLookup: (jobId: number, credentials: Credentials, apiUrl: string) => void;
  /** Tells the job runner thread this desk's new name. */
  readonly renameRunner?: (desk: string) => void;
  /** The process's mark of a store found damaged (SPEC §11): the threads share its cell. */
  readonly damage: DamageMark;
}

/**
 * After a build, the next waits at least this long: a look-up job adds items one by one, and the index
 * would be built without rest. Meanwhile suggestions come from the index as it was, and the screens
 * ask again when the new one is ready (`suggestions.status`).
 */
const REBUILD_GAP_MS = 2_000;

/** A write that has waited this long for another's write lock is said to wait, on the screens (issue 61 §3). */
export const WAITING_SAID_MS = 300;

/**
 * The main thread's side of the service threads (SPEC §11: no write, no wait for the write lock and no
 * long import on the thread that answers the screens; no file's preview on the writer, issue 62).
 * `dispatch` sends each call that `threadOf` puts elsewhere to its thread and relays its answer; what the
 * threads emit is relayed as the core's events.
 * It keeps the suggestion index fresh: built at the start, and again after the catalogue changes;
 * meanwhile suggestions answer at once, not ready.
 */
export class ServiceThreads implements CallDispatcher {
  private readonly writer: Lane;
  private readonly reader: Lane;
  private readonly suggest: Lane;
  /** The cancel flags of the import previews and confirms under way. */
  private readonly imports = new Set<Int32Array>();
  private readonly index = {
    built: null as string | null,
    building: false,
    lastEnd: -Infinity,
    later: null as NodeJS.Timeout | null,
    /** Why the last build failed, until one succeeds: the screens say it instead of "Preparing…". */
    failed: null as ErrorValue | null,
  };
  private stopped = false;

  constructor(private readonly options: ServiceThreadsOptions) {
    const onMessage = (m: FromServiceThread) => this.onMessage(m);
    this.writer = new Lane('writer', options, onMessage);
    this.reader = new Lane('reader', options, onMessage);
    this.suggest = new Lane('suggest', options, onMessage);
    this.refreshIndex();
  }

  dispatch(name: CallName, args: unknown): Promise<Result<unknown>> | null {
    const thread = threadOf(name);
    if (thread === 'main') return null;
    // Not ready: the main thread's own handler answers at once, `ready: false`.
    if (thread === 'suggest') return this.suggestionsReady ? this.suggest.call(name, args, null) : null;
    // The keychain is read again for it, and the writer told before the call (one port, in order).
    if (readsCredentials(name)) this.tellCredentials(readCredentials(this.options.credentials));
    const lane = thread === 'reader' ? this.reader : this.writer;
    if (name !== 'import.preview' && name !== 'import.confirm') return lane.call(name, args, null);
    const flag = new Int32Array(new SharedArrayBuffer(4));
    this.imports.add(flag);
    return lane.call(name, args, flag.buffer as SharedArrayBuffer).finally(() => this.imports.delete(flag));
  }

  /** Stops the import previews and confirms under way before they write; whether there was one. */
  cancelImports(): boolean {
    for (const flag of this.imports) Atomics.store(flag, 0, 1);
    return this.imports.size > 0;
  }

  /** Imports under way: previews on the reader thread, confirms on the writer. */
  get importsUnderWay(): number {
    return this.imports.size;
  }

  get suggestionsReady(): boolean {
    return this.index.built !== null && !this.index.building;
  }

  /** Why suggestions are not ready, when it is not just that the index is being built (SPEC §11). */
  get suggestionsProblem(): ErrorValue | null {
    return this.suggestionsReady ? null : this.index.failed;
  }

  /** The threads have opened the store (or failed to): for tests and the bench. */
  async whenReady(): Promise<void> {
    await Promise.all([this.writer.whenReady(), this.reader.whenReady(), this.suggest.whenReady()]);
  }

  provideCredentials(credentials: Credentials): void {
    this.tellCredentials({ credentials, refused: null });
  }

  /** This desk was renamed: the threads write and read as the new name, and start as it again. */
  tellDesk(desk: string): void {
    for (const lane of [this.writer, this.reader, this.suggest]) lane.renamed(desk);
    this.options.renameRunner?.(desk);
  }

  /** The credentials as the main thread read them now: the writer's settings view and look-up see the same. */
  tellCredentials(read: CredentialsRead): void {
    this.writer.send({ type: 'credentials', credentials: read });
  }

  /** Builds the suggestion index again if the catalogue has changed since it was built (not sooner than 2 s after the last build). */
  refreshIndex(): void {
    const ix = this.index;
    if (this.stopped || ix.building || ix.later !== null) return;
    // A store found damaged is not read for an index again: what was built goes on answering.
    if (ix.failed !== null && this.options.damage.found() !== null) return;
    let generation: string;
    try {
      generation = suggestionGeneration(this.options.db);
    } catch (e) {
      if (!this.options.db.open) return; // the store is closing
      this.options.damage.note(e);
      if (this.options.damage.firstToTell()) this.options.emit('store.changed', { reason: STORE_DAMAGED });
      this.indexFailed(toErrorValue(e, this.options.storePath));
      return;
    }
    if (generation === ix.built) return;
    const wait = ix.lastEnd + REBUILD_GAP_MS - performance.now();
    if (wait > 0) {
      ix.later = setTimeout(() => {
        ix.later = null;
        this.refreshIndex();
      }, wait);
      ix.later.unref();
      return;
    }
    ix.building = true;
    this.options.emit('suggestions.status', { ready: false });
    this.suggest.send({ type: 'build-index' });
  }

  private onMessage(m: FromServiceThread): void {
    const { emit } = this.options;
    if (m.type === 'event') emit(m.name, m.payload as ApiEvents[typeof m.name]);
    else if (m.type === 'waiting')
      emit('store.waiting', { message: waitingWords(storeHolder(this.options.db, this.options.storePath)) });
    else if (m.type === 'lookup') this.options.runLookup(m.jobId, m.credentials, m.apiUrl);
    else if (m.type === 'log') this.options.log(m.line);
    else if (m.type === 'index-built' || m.type === 'index-failed') {
      this.index.building = false;
      this.index.lastEnd = performance.now();
      if (m.type === 'index-built') {
        this.index.built = m.generation;
        this.index.failed = null;
        emit('suggestions.status', { ready: true });
      } else this.indexFailed(m.error);
      this.refreshIndex();
    }
  }

  /** The index could not be built: said in the log and to the screens, which show why. */
  private indexFailed(error: ErrorValue): void {
    const again = this.index.failed?.message === error.message;
    this.index.failed = error;
    if (again) return;
    this.options.log(`the suggestion index could not be built: ${error.message}`);
    // What was built before goes on answering; only a first build that failed leaves suggestions without.
    if (this.index.built === null) this.options.emit('suggestions.status', { ready: false, why: error });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.index.later) clearTimeout(this.index.later);
    await Promise.all([this.writer.stop(), this.reader.stop(), this.suggest.stop()]);
  }
}

/** Each thread as a message names it. */
const THREAD_WORDS: Readonly<Record<ServiceThreadRole, string>> = {
  writer: 'writing',
  reader: 'reading',
  suggest: 'suggestion',
};

/** One service thread, started again when it has stopped (its store could not be opened, or it failed). */
class Lane {
  private worker: Worker | null = null;
  private nextId = 1;
  /** Calls not answered yet, each with the thread it was sent to. */
  private readonly pending = new Map<
    number,
    { readonly worker: Worker; readonly answer: (r: Result<unknown>) => void; readonly sentAt: number }
  >();
  private ready: Promise<void> = Promise.resolve();
  /** Whether the thread has its store open (it answers a `stop` then; before, it is simply ended). */
  private serving = false;
  private stopping = false;
  /** The desk's name since Settings changed it: a thread started again starts as it. */
  private desk: string | null = null;

  renamed(desk: string): void {
    this.desk = desk;
    if (this.worker !== null) this.send({ type: 'desk', desk });
  }

  constructor(
    private readonly role: ServiceThreadRole,
    private readonly options: ServiceThreadsOptions,
    private readonly onMessage: (m: FromServiceThread) => void,
  ) {
    this.start();
  }

  private start(): Worker {
    const o = this.options;
    const data: ServiceThreadData = {
      role: this.role,
      storePath: o.storePath,
      desk: this.desk ?? o.desk,
      nativeBinding: o.nativeBinding,
      clockMs: o.clock.now().getTime(),
      credentials: this.role === 'writer' ? readCredentials(o.credentials) : { credentials: null, refused: null },
      credentialsEncrypted: o.credentials.encrypted,
      damage: o.damage.shared,
    };
    const worker = startWorker(o.workerUrl, data);
    /** Why it could not open the store, if that is why it ends. */
    let failure: ErrorValue | null = null;
    let opened: () => void = () => {};
    this.ready = new Promise((resolve) => (opened = resolve));
    this.serving = false;
    worker.on('message', (m: FromServiceThread) => {
      if (m.type === 'ready') {
        this.serving = true;
        opened();
      } else if (m.type === 'failed') {
        opened();
        o.log(`the ${this.role} thread could not open the store: ${m.error.message}`);
        // It ends now: the calls it has get why, in words (a store held busy by another process, …), and
        // the next call starts a thread again, which tries again.
        failure = m.error;
        if (this.worker === worker) this.worker = null;
        this.answerAll(worker, m.error);
      } else if (m.type === 'answer') {
        const pending = this.pending.get(m.id);
        this.pending.delete(m.id);
        pending?.answer(m.result);
      } else if (m.type === 'waiting') this.waiting(m.id);
      else this.onMessage(m);
    });
    worker.on('error', (e: unknown) => o.log(`the ${this.role} thread stopped: ${describeFailure(e)}`));
    worker.on('exit', () => {
      opened();
      if (this.worker === worker) this.worker = null;
      if (this.stopping)
        return this.answerAll(worker, { code: 'cancelled', message: 'brick-work closed before this was done.' });
      // Calls it had not answered get an answer all the same — why it could not open the store, or that
      // it stopped (SPEC §11: never `internal` because a thread ended); the next call starts a new
      // thread, and an index it was building is asked for again.
      const error: ErrorValue = failure ?? {
        code: 'interrupted',
        message: `brick-work's ${THREAD_WORDS[this.role]} thread stopped while it worked on this and has been started again: look whether it was done, then try again.`,
      };
      this.answerAll(worker, error);
      if (this.role === 'suggest') this.onMessage({ type: 'index-failed', error });
    });
    this.worker = worker;
    return worker;
  }

  /** Answers every call `worker` was sent and has not answered. */
  private answerAll(worker: Worker, error: ErrorValue): void {
    for (const [id, pending] of [...this.pending]) {
      if (pending.worker !== worker) continue;
      this.pending.delete(id);
      pending.answer({ ok: false, error });
    }
  }

  send(m: ToServiceThread): Worker | null {
    if (this.stopping) return null;
    const worker = this.worker ?? this.start();
    // A call's files that its caller handed over (an upload of tens of MB) go without a copy: a copy on
    // this thread would hold up the screens' answers (SPEC §11).
    const files = m.type === 'call' ? handedOver(m.args) : [];
    worker.postMessage({ ...m, clockMs: this.options.clock.now().getTime() }, files);
    return worker;
  }

  call(name: CallName, args: unknown, cancel: SharedArrayBuffer | null): Promise<Result<unknown>> {
    if (this.stopping)
      return Promise.resolve({ ok: false, error: { code: 'cancelled', message: 'brick-work is closing.' } });
    const id = this.nextId++;
    const sentAt = performance.timeOrigin + performance.now();
    return new Promise<Result<unknown>>((resolve) => {
      const worker = this.send({ type: 'call', id, name, args, cancel, sentAt });
      if (worker !== null) this.pending.set(id, { worker, answer: resolve, sentAt });
    });
  }

  /**
   * Call `id` waits for another's write lock: said on the screens once it has waited WAITING_SAID_MS
   * from when it was asked and is still unanswered (a short wait is said nowhere).
   */
  private waiting(id: number): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    const after = pending.sentAt + WAITING_SAID_MS - (performance.timeOrigin + performance.now());
    setTimeout(
      () => {
        if (this.pending.get(id) === pending) this.onMessage({ type: 'waiting', id });
      },
      Math.max(0, after),
    ).unref();
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    if (worker) worker.postMessage({ type: 'stop', clockMs: this.options.clock.now().getTime() });
    this.stopping = true;
    if (!worker) return;
    // The writer may be in the middle of a write: it finishes (or, cut short, rolls back). A thread still
    // starting has nothing to finish.
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => void worker.terminate().then(() => resolve()), this.serving ? 5_000 : 0);
      worker.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}
