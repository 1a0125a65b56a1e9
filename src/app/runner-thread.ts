/**
 * The job runner's thread (SPEC §1): off the app's main thread, with its own store connection. It loads
 * catalogues (the catalogue job) and runs look-up jobs when the main thread asks, and keeps claiming
 * queued look-up jobs while it has credentials (a job deferred to the next UTC day resumes then; a run
 * stopped at its limit waits for staff to start another run).
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import type { Clock } from '../platform/clock.ts';
import { damagedStore } from '../vocabulary/errors.ts';
import { toErrorValue } from '../store/errors.ts';
import { DamageMark } from '../store/damage.ts';
import { STORE_DAMAGED } from '../api/contract.ts';
import { identityOf } from '../identity/owner.ts';
import { connectionOwner } from '../store/owners.ts';
import type { Credentials } from '../catalogue/bricklink/oauth.ts';
import { isItemType } from '../vocabulary/item-types.ts';
import { LOOKUP_JOB_KIND } from '../catalogue/lookup-job.ts';
import { useNativeBinding } from '../store/native.ts';
import { writeSession } from '../store/session.ts';
import { openStore, type Store } from '../store/open.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { releaseOwnJobs } from '../jobs/queue.ts';
import { failOwnCatalogueJob } from '../catalogue/catalogue-job.ts';
import { ReaderThreadClient } from '../catalogue/reader-thread-client.ts';
import { startWorker, threadUrl } from '../platform/worker-start.ts';
import type { StampedHostMessage, ThreadMessage } from './thread-messages.ts';
import { lookupRunner, runCatalogueLoad } from './work.ts';
import { fetchStoreInventory } from '../stock/lookup.ts';

const port = parentPort;
if (port === null) throw new Error('runner-thread runs as a worker thread');
const {
  storePath,
  desk,
  nativeBinding,
  clockMs,
  restarted,
  damage: damageCell,
} = workerData as {
  storePath: string;
  /** This desk's name (SPEC §8, §14): what the jobs it claims and the loads it runs record. */
  desk: string;
  nativeBinding: string | null;
  clockMs: number;
  restarted?: boolean;
  /** The cell of the process's mark of a store found damaged (see `DamageMark`). */
  damage?: SharedArrayBuffer;
};
const damage = new DamageMark(damageCell);
const post = (m: ThreadMessage) => port.postMessage(m);

// The core's clock, as the main thread last read it (at the start, then with every message), carried
// on by the monotonic time since: the BrickLink budget's day and the rows' stamps are the core's.
let reading = { clockMs: typeof clockMs === 'number' ? clockMs : Date.now(), at: performance.now() };
const clock: Clock = { now: () => new Date(reading.clockMs + (performance.now() - reading.at)) };

useNativeBinding(nativeBinding);
// The thread before this one ran as this process (a SQLite store) or through its own session (a server's).
const thisProcess = identityOf();
const store = await begin().catch((e: unknown) => {
  // Another process held the write lock past the busy timeout, …: said in words; the main thread starts
  // the runner again a little later (SPEC §11), and the work handed to it meanwhile waits.
  post({ type: 'failed', error: toErrorValue(e, storePath) });
  process.exit(1);
});

/** Opens the store, and after a restart ends or queues again what the thread before this one had. */
async function begin(): Promise<Store> {
  const store = await openStore(storePath, { quickCheck: false }); // the app's main open checked it
  if (restarted !== true) return store;
  try {
    // The thread before this one stopped: what it was running is no one's now, though this process lives.
    for (const job of releaseOwnJobs(store.db, thisProcess, { clock }))
      post({
        type: 'log',
        line: `job ${job.id} (${job.kind}) was running when the job runner stopped: it is queued again`,
      });
    if (failOwnCatalogueJob(store.db, storePath, thisProcess, { clock }))
      post({
        type: 'log',
        line: 'the catalogue load under way when the job runner stopped has ended as failed; load its files again',
      });
    return store;
  } catch (e) {
    store.close();
    throw e;
  }
}
/** Who owns what this thread runs: this process, or on a server this thread's session (SPEC §3, §14). */
const me = connectionOwner(store.db);
/** This thread's connection, and the desk the jobs it claims and the loads it runs record. */
const session = writeSession(store.db, desk);
// The catalogue reader thread, started now so that the first load does not wait for it: from a checkout
// its script is beside the sources, in a bundle beside this one (worker-start.ts).
const reader = new ReaderThreadClient(
  () => startWorker(threadUrl('catalogue-reader-thread'), null),
  (line) => post({ type: 'log', line }),
);
reader.warm();
let credentials: { credentials: Credentials; apiUrl: string } | null = null;
let queue = Promise.resolve();

/** The look-up job's runner; its run's limit is kept in the job (set when staff start a run), not here. */
function runner(): JobRunner | null {
  if (credentials === null) return null;
  return lookupRunner({
    session,
    clock,
    me,
    credentials: credentials.credentials,
    apiUrl: credentials.apiUrl,
    log: (line) => post({ type: 'log', line }),
    damage,
    onAnswer: () => post({ type: 'changed', reason: 'look-up' }),
  });
}

async function handle(m: StampedHostMessage): Promise<void> {
  if (m.type === 'desk') {
    session.desk = m.desk;
    return;
  }
  if (m.type === 'credentials') {
    credentials = { credentials: m.credentials, apiUrl: m.apiUrl };
    return;
  }
  // A store found damaged is not written (SPEC §11): work handed over is refused in words, none is claimed.
  const found = damage.found();
  if (found !== null && m.type !== 'stop') {
    if (m.type === 'catalogue-load' || m.type === 'lookup') {
      const kind = m.type === 'lookup' ? LOOKUP_JOB_KIND : 'catalogue-load';
      post({ type: 'finished', kind, error: damagedStore(storePath, found).toValue(), summary: null });
    }
    return;
  }
  if (m.type === 'catalogue-load') {
    try {
      const done = await runCatalogueLoad(session, storePath, m.files, {
        type: m.itemType !== null && isItemType(m.itemType) ? m.itemType : null,
        me,
        clock,
        reader,
        onProgress: (p) => post({ type: 'progress', kind: 'catalogue-load', ...p, state: 'running' }),
      });
      post({ type: 'finished', kind: 'catalogue-load', error: null, summary: done.summary, orders: done.orders });
    } catch (e) {
      damage.note(e);
      post({ type: 'finished', kind: 'catalogue-load', error: toErrorValue(e, storePath), summary: null });
    }
    return;
  }
  if (m.type === 'lookup') {
    credentials = { credentials: m.credentials, apiUrl: m.apiUrl };
    const r = runner();
    try {
      const result = await r?.runJob(m.jobId);
      post({ type: 'finished', kind: LOOKUP_JOB_KIND, error: result?.error ?? null, summary: result?.outcome ?? null });
    } catch (e) {
      damage.note(e);
      post({ type: 'finished', kind: LOOKUP_JOB_KIND, error: toErrorValue(e, storePath), summary: null });
    }
    return;
  }
  if (m.type === 'wake') {
    const r = runner();
    if (r)
      for (const result of await r.runUntilIdle())
        post({ type: 'finished', kind: result.job.kind, error: result.error, summary: result.outcome });
    return;
  }
  if (m.type === 'stop') {
    store.close();
    process.exit(0);
  }
}

/**
 * `stock.lookup`: the store's inventory, the call counted on this thread's connection (the screens told,
 * so the budget shows it) before it is sent. Beside the queue, not in it: a catalogue load under way does
 * not hold it up, and it holds nothing up while BrickLink answers.
 */
async function fetchStock(m: Extract<StampedHostMessage, { type: 'stock-fetch' }>): Promise<void> {
  const found = damage.found();
  if (found !== null)
    return post({ type: 'stock-fetched', id: m.id, fetched: null, error: damagedStore(storePath, found).toValue() });
  let counted = false;
  try {
    const api = { credentials: m.credentials, url: m.apiUrl };
    const fetched = await fetchStoreInventory(store.db, clock, api, () => {
      counted = true;
      post({ type: 'changed', reason: 'stock look-up' });
    });
    post({ type: 'stock-fetched', id: m.id, fetched, error: null });
  } catch (e) {
    damage.note(e);
    post({ type: 'stock-fetched', id: m.id, fetched: null, error: toErrorValue(e, storePath) });
  } finally {
    // Counted and refused, or answered: the budget the screens show is read again.
    if (counted) post({ type: 'changed', reason: 'stock look-up' });
  }
}

port.on('message', (m: StampedHostMessage) => {
  reading = { clockMs: m.clockMs, at: performance.now() };
  if (m.type === 'stock-fetch') return void fetchStock(m);
  queue = queue
    .then(() => handle(m))
    .catch((e: unknown) => post({ type: 'log', line: `runner thread: ${String(e)}` }))
    // A damage met by a job here: the screens learn the store is read-only now (told once per process).
    .then(() => {
      if (damage.firstToTell()) post({ type: 'changed', reason: STORE_DAMAGED });
    });
});
post({ type: 'ready' });
