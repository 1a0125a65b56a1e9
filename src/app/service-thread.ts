/**
 * A service thread of the app and the browser host (SPEC §11): the contract's service over a store
 * connection of its own, off the thread that answers the screens.
 * - The writer (`role: 'writer'`) runs every writing call, one at a time: a wait for the write lock
 *   (another process's, up to the busy timeout) and a long import happen here.
 * - The reader (`role: 'reader'`, a read-only connection) reads the files staff give, one at a time: an
 *   import's preview and a compare, kept here for their pages. Nothing a file costs holds up a write.
 * - The suggestion thread (`role: 'suggest'`, a read-only connection) holds the suggestion index, built
 *   when the main thread asks (at the start, and after the catalogue changes), and answers suggestions.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Clock } from '../platform/clock.ts';
import { storeBusy, type ErrorValue } from '../vocabulary/errors.ts';
import { toErrorValue } from '../store/errors.ts';
import { DamageMark } from '../store/damage.ts';
import { STORE_DAMAGED } from '../api/contract.ts';
import { credentialsAsRead, type CredentialsRead } from '../api/credentials.ts';
import { useNativeBinding } from '../store/native.ts';
import { BUSY_TIMEOUT_MS, openStore, type Store } from '../store/open.ts';
import type { StoreDb } from '../store/db.ts';
import { writeLockWithin } from '../store/busy.ts';
import { WRITING_CALLS } from '../api/handlers/index.ts';
import type { CallName } from '../api/contract.ts';
import { storeHolder } from './store-holder.ts';
import { buildCatalogueIndex } from '../suggest/catalogue-index.ts';
import type { SuggestIndex } from '../suggest/index.ts';
import { createApiService } from '../api/service.ts';
import { serviceContext } from './context.ts';
import { lookupStarter } from './work.ts';
import type { FromServiceThread, ServiceThreadData, StampedServiceMessage } from './service-thread-messages.ts';

if (parentPort === null) throw new Error('service-thread runs as a worker thread');
const port: MessagePort = parentPort;
const data = workerData as ServiceThreadData;
const post = (m: FromServiceThread) => port.postMessage(m);

// The core's clock, as the main thread last read it, carried on by the monotonic time since (a clock
// can't cross threads; tests inject one): rows are stamped, and days counted, by the core's clock.
let reading = { clockMs: data.clockMs, at: performance.now() };
const clock: Clock = { now: () => new Date(reading.clockMs + (performance.now() - reading.at)) };

let credentials: CredentialsRead = data.credentials;
/** The cancel flag of the call running now (an import), set by the main thread. */
let cancelFlag: Int32Array | null = null;
let index: SuggestIndex | null = null;
/** Why the last index build failed, while there is no index. */
let indexProblem: ErrorValue | null = null;
const damage = new DamageMark(data.damage);

useNativeBinding(data.nativeBinding);
let store: Store | null = null;
try {
  // The reader and the suggestion thread only read; the writer's read-write open waits for the write lock here, if it must.
  store = await openStore(data.storePath, { readOnly: data.role !== 'writer', quickCheck: false });
} catch (e) {
  // Nothing keeps the thread alive after this: it ends, and the main thread answers its calls with this.
  post({ type: 'failed', error: toErrorValue(e, data.storePath) });
}

if (store !== null) serve(store);

/** Whether this thread's call `name` writes (a writer's call, not a read). */
function writes(name: CallName): boolean {
  return data.role === 'writer' && WRITING_CALLS.has(name) && damage.found() === null;
}

/**
 * A write's turn at the store's write lock (issue 61 §3), before its handler runs. Free: it goes on (and
 * the handler takes the lock at once). Held by another: the main thread is told it waits, and it waits
 * what is left of its 10 s from when it was asked — so writes queued behind one lock are each answered
 * when it frees, or refused together at their 10 s, never one 10 s after another. Refused: naming who
 * holds the store, where it can know.
 */
function waitForTurn(db: StoreDb, m: Extract<StampedServiceMessage, { type: 'call' }>): ErrorValue | null {
  if (writeLockWithin(db, 0)) return null;
  post({ type: 'waiting', id: m.id });
  const left = m.sentAt + BUSY_TIMEOUT_MS - (performance.timeOrigin + performance.now());
  if (left > 0 && writeLockWithin(db, left)) return null;
  return storeBusy(data.storePath, storeHolder(db, data.storePath)).toValue();
}

function serve(store: Store): void {
  const { db } = store;
  const service = createApiService(
    serviceContext(store, data.storePath, {
      clock,
      desk: data.desk,
      jobs: {
        startCatalogueLoad: () => {
          throw new Error('catalogue.load is handed to the runner thread by the main thread');
        },
        // The run is queued here (a write); the main thread hands it to the job runner thread.
        startLookup: lookupStarter(db, clock, (jobId, c, apiUrl) =>
          post({ type: 'lookup', jobId, credentials: c, apiUrl }),
        ),
      },
      credentials: {
        encrypted: data.credentialsEncrypted,
        get: credentialsAsRead(() => credentials),
        set: () => {
          throw new Error('the credentials are kept by the main thread');
        },
      },
      files: null,
      emit: (name, payload) => post({ type: 'event', name, payload }),
      suggestions:
        data.role === 'suggest'
          ? { ready: () => index !== null, index: () => index, why: () => indexProblem }
          : undefined,
      damage,
      imports: { cancel: () => false, cancelled: () => cancelFlag !== null && Atomics.load(cancelFlag, 0) !== 0 },
    }),
  );

  async function handle(m: StampedServiceMessage): Promise<void> {
    if (m.type === 'call') {
      // A write first waits its turn at the write lock, within its own 10 s from when it was asked.
      const refused = writes(m.name) ? waitForTurn(db, m) : null;
      if (refused !== null) return post({ type: 'answer', id: m.id, result: { ok: false, error: refused } });
      cancelFlag = m.cancel === null ? null : new Int32Array(m.cancel);
      try {
        post({ type: 'answer', id: m.id, result: await service.call(m.name, m.args) });
      } finally {
        cancelFlag = null;
      }
    } else if (m.type === 'credentials') {
      credentials = m.credentials;
    } else if (m.type === 'desk') {
      service.renameDesk(m.desk);
    } else if (m.type === 'build-index') {
      try {
        const built = buildCatalogueIndex(db);
        index = built.index;
        indexProblem = null;
        post({ type: 'index-built', generation: built.generation });
      } catch (e) {
        // A damaged store stops this process's writes; the index already built goes on answering.
        damage.note(e);
        const error = toErrorValue(e, data.storePath);
        if (index === null) indexProblem = error;
        post({ type: 'index-failed', error });
      }
    } else if (m.type === 'stop') {
      store.close();
      process.exit(0);
    }
  }

  // One message at a time, in order: calls run in turn, as they would on one connection.
  let queue = Promise.resolve();
  port.on('message', (m: StampedServiceMessage) => {
    reading = { clockMs: m.clockMs, at: performance.now() };
    queue = queue
      .then(() => handle(m))
      .catch((e: unknown) => post({ type: 'log', line: `${data.role} thread: ${String(e)}` }))
      // A damage met here (an index build): the screens learn the store is read-only now (told once per process).
      .then(() => {
        if (damage.firstToTell()) post({ type: 'event', name: 'store.changed', payload: { reason: STORE_DAMAGED } });
      });
  });
  post({ type: 'ready' });
}
