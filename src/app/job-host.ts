import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock.ts';
import type { ApiEvents, EventName } from '../api/contract.ts';
import type { JobControl } from '../api/service.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import { enqueueLookup } from '../catalogue/lookup-job.ts';
import { handedOver } from './hand-over.ts';
import type { HostMessage, StampedHostMessage, ThreadMessage } from './thread-messages.ts';

export interface JobHostOptions {
  readonly db: Database;
  readonly storePath: string;
  readonly clock: Clock;
  /** The runner thread's script: `runner-thread.ts` under tsx, the bundled `runner-thread.js` in the app. */
  readonly workerUrl: URL;
  readonly nativeBinding?: string | null;
  readonly emit: <E extends EventName>(name: E, payload: ApiEvents[E]) => void;
  readonly log: (line: string) => void;
  /** How often the runner thread looks for claimable jobs (a deferred look-up job resumes on its day). */
  readonly wakeEveryMs?: number;
}

/** The main thread's side of the runner thread: starts it, hands it work, and relays what it reports. */
export class JobHost implements JobControl {
  private readonly worker: Worker;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: JobHostOptions) {
    const workerData = {
      storePath: options.storePath,
      nativeBinding: options.nativeBinding ?? null,
      clockMs: options.clock.now().getTime(),
    };
    this.worker = startWorker(options.workerUrl, workerData);
    this.worker.on('message', (m: ThreadMessage) => this.onMessage(m));
    this.worker.on('error', (e) => options.log(`the job runner stopped: ${e.message}`));
    this.timer = setInterval(() => this.send({ type: 'wake' }), options.wakeEveryMs ?? 60_000);
    this.timer.unref();
  }

  /** Each message carries this core's clock reading: the thread keeps to the core's clock (see StampedHostMessage). */
  private send(m: HostMessage, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(
      { ...m, clockMs: this.options.clock.now().getTime() } satisfies StampedHostMessage,
      transfer,
    );
  }

  private onMessage(m: ThreadMessage): void {
    const { emit } = this.options;
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
    else if (m.type === 'log') this.options.log(m.line);
  }

  startCatalogueLoad(files: readonly { name: string; content: Uint8Array }[], type: string): void {
    // Files their caller handed over go without a copy (tens of MB on the screens' thread).
    const owned = handedOver(files);
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
    const { id } = enqueueLookup(this.options.db, this.options.clock, { limit });
    this.runLookup(id, credentials, apiUrl);
    return id;
  }

  /** Runs a look-up job already queued (by the writer thread, which queued its run). */
  runLookup(jobId: number, credentials: Credentials, apiUrl: string): void {
    this.send({ type: 'lookup', jobId, credentials, apiUrl });
  }

  /** Lets the runner thread resume queued look-up jobs by itself. */
  provideCredentials(credentials: Credentials, apiUrl: string): void {
    this.send({ type: 'credentials', credentials, apiUrl });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.send({ type: 'stop' });
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => void this.worker.terminate().then(() => resolve()), 2_000);
      this.worker.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }
}

/**
 * Notices writes by other connections and processes (the runner thread, the CLI) through
 * `PRAGMA data_version`, and says so with `store.changed` (SPEC §1).
 */
export function watchDataVersion(db: Database, onChange: () => void, everyMs = 700): (() => void) & { sync(): void } {
  let last = db.pragma('data_version', { simple: true }) as number;
  const timer = setInterval(() => {
    const now = db.pragma('data_version', { simple: true }) as number;
    if (now !== last) {
      last = now;
      onChange();
    }
  }, everyMs);
  timer.unref();
  // `sync`: the change so far is told already (the app's own writer thread said so): don't tell it twice.
  return Object.assign(() => clearInterval(timer), {
    sync: () => void (last = db.pragma('data_version', { simple: true }) as number),
  });
}

/** Starts a worker thread: from a checkout its script is TypeScript and starts by registering tsx's loader, as bin/ does. */
export function startWorker(url: URL, workerData: unknown): Worker {
  return url.pathname.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`,
        { eval: true, workerData },
      )
    : new Worker(url, { workerData });
}
