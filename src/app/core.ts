import { SYSTEM_CLOCK, type Clock } from '../platform/clock.ts';
import { damagedStore, readOnlyStore } from '../vocabulary/errors.ts';
import { JobHost } from './job-host.ts';
import { watchDataVersion } from '../store/data-version.ts';
import { DamageMark } from '../store/damage.ts';
import { useNativeBinding } from '../store/native.ts';
import { openStore, type Store } from '../store/open.ts';
import type { RecoveredJob } from '../jobs/queue.ts';
import type { ApiEvents, EventName } from '../api/contract.ts';
import { credentialsAsRead, readCredentials } from '../api/credentials.ts';
import type { CredentialStore, DeskNamePort, FileDialogs, PrintPort, ShopServerPort } from '../api/ports.ts';
import { createApiService, type ApiService } from '../api/service.ts';
import { readOnlyOf, serviceContext, upgradeNotice } from './context.ts';
import { recoverAtStart } from './start-recovery.ts';
import { watchOwners } from './owner-watch.ts';
import { thisComputer } from '../identity/desk.ts';
import { ServiceThreads } from './service-threads.ts';
import { apiUrlOf } from './work.ts';
import { LOOKUP_JOB_KIND } from '../catalogue/lookup-job.ts';
import { startPictures } from '../pictures/service.ts';

export interface CoreOptions {
  readonly storePath: string;
  readonly workerUrl: URL;
  /**
   * The service threads' script (writes, previews and compares, suggestions: `src/app/service-thread.ts`).
   * Default: beside the runner thread's — `service-thread.ts` beside a checkout's
   * `src/app/runner-thread.ts`, `service-thread.js` beside a built `runner-thread.js`.
   */
  readonly serviceWorkerUrl?: URL;
  readonly credentials: CredentialStore;
  /** The desk's "Shop server" choice (Settings); absent where the store is given by `--db`. */
  readonly shopServer?: ShopServerPort | null;
  readonly files: FileDialogs | null;
  /** The app's own printing (Electron's); absent: the page prints. */
  readonly printer?: PrintPort | null;
  readonly emit: <E extends EventName>(name: E, payload: ApiEvents[E]) => void;
  readonly log: (line: string) => void;
  readonly clock?: Clock;
  /**
   * The better-sqlite3 binary for this runtime (Electron's: `src/store/native.ts`), used by every
   * connection of this process and its threads; null for the one npm installed; absent, as it was set.
   */
  readonly nativeBinding?: string | null;
  /** How often the job runner thread looks for claimable jobs (JobHost's default: a minute). */
  readonly wakeEveryMs?: number;
  /** This desk's name (SPEC §8; `--desk`); absent: the one Settings keeps (`deskName`), else the computer's. */
  readonly desk?: string;
  /** Where the app keeps the desk's name (Settings → This desk); absent where `--desk` gives it. */
  readonly deskName?: DeskNamePort | null;
}

export interface Core {
  readonly service: ApiService;
  /** The job runner thread's host; null on a store that can't be written (SPEC §11). */
  readonly jobs: JobHost | null;
  /** The service threads (writer, reader, suggestions); null on a store that can't be written, where every call runs on the main thread. */
  readonly threads: ServiceThreads | null;
  /** Set when the store can't be written and was opened for reading: why, and whether from a snapshot copy. */
  readonly readOnly: { readonly reason: string; readonly snapshot: boolean; readonly damaged: boolean } | null;
  /** What this app is doing that quitting would stop, in staff's words (a quit asks first while there is some). */
  workUnderWay(): string[];
  close(): Promise<void>;
}

/**
 * What the app and the browser host do at their start, the same way: open the store read-write
 * (upgrading it, with its backup), put dead owners' running jobs back in the queue and report each,
 * start the job runner thread, and watch for other processes' writes. A store that can't be written
 * opens for reading only: no recovery and no job runner thread, and the service refuses writes.
 */
export async function startCore(options: CoreOptions): Promise<Core> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  // `--desk`, else the name Settings keeps, else the computer's (SPEC §8).
  const desk = options.desk ?? options.deskName?.get() ?? thisComputer();
  // Every connection of this process opens with this runtime's binary (Electron's); its threads are told it.
  if (options.nativeBinding !== undefined) useNativeBinding(options.nativeBinding);
  const { store, readOnly } = await openForCore(options);
  // One mark for every thread of this process: a damage any of them meets stops the writes of all (SPEC §11).
  const damage = new DamageMark();
  // A change of the store may be a change of the catalogue: the suggestion index is then built again.
  let threads: ServiceThreads | null = null;
  let jobsHost: JobHost | null = null;
  // Never keeps the start from going on: under another process's write lock it is done once that frees.
  const recovery = readOnly
    ? null
    : recoverAtStart({
        db: store.db,
        storePath: options.storePath,
        clock,
        log: options.log,
        onLater: () => {
          emit('store.changed', { reason: 'recovered work left by stopped desks' });
          jobsHost?.wake();
        },
      });
  const emit = <E extends EventName>(name: E, payload: ApiEvents[E]) => {
    options.emit(name, payload);
    if (name === 'store.changed') threads?.refreshIndex();
  };
  let watcher: ReturnType<typeof watchDataVersion> | null = null;
  const started = readOnly
    ? null
    : startThreads({ options, store, desk, clock, damage, emit, onWrite: () => watcher?.sync() });
  const jobs = started?.jobs ?? null;
  jobsHost = jobs;
  threads = started?.threads ?? null;
  const offMain = threads; // as a const, for the closures below
  // Pictures of items (SPEC §15): fetched on a thread of their own, never waited for by a call.
  const pictures = startPictures({
    db: store.db,
    storePath: options.storePath,
    onReady: () => options.emit('pictures.ready', {}),
    thread: { nativeBinding: options.nativeBinding ?? null },
  });
  const service = coreService({
    options,
    store,
    desk,
    clock,
    damage,
    emit,
    jobs,
    threads: offMain,
    pictures,
    recovered: recovery?.jobs ?? [],
    refusedWrite: () =>
      readOnly?.damaged
        ? damagedStore(options.storePath, readOnly.reason)
        : readOnlyStore(options.storePath, readOnly?.reason),
  });
  watcher = watchDataVersion(store.db, () => emit('store.changed', { reason: 'another process wrote' }), {
    log: options.log,
  });
  const stopWatching = watcher;
  // A desk or process that dies mid-job writes nothing: its jobs are seen as abandoned all the same.
  // Its jobs are then taken up at once by this desk's runner, where it can run them (a look-up: with
  // BrickLink's credentials), not at the runner's next tick.
  const stopWatchingOwners = watchOwners(store.db, options.storePath, () => {
    emit('store.changed', { reason: 'a desk or process running a job stopped' });
    jobs?.wake();
  });
  if ((recovery?.jobs.length ?? 0) > 0) jobs?.wake();
  return {
    service,
    jobs,
    threads: offMain,
    readOnly,
    workUnderWay: () => [
      ...(jobs?.underWay ?? []).map(jobWords),
      ...((offMain?.importsUnderWay ?? 0) > 0 ? ['a document is being imported'] : []),
    ],
    async close() {
      recovery?.stop();
      stopWatching();
      stopWatchingOwners();
      await Promise.all([jobs?.stop(), offMain?.stop()]);
      pictures.close();
      store.close();
    },
  };
}

/** The store opened read-write (upgraded, said on the log), or for reading only when it can't be written, and why. */
async function openForCore(options: CoreOptions): Promise<{ store: Store; readOnly: Core['readOnly'] }> {
  const store = await openStore(options.storePath, { onProgress: (m) => options.log(m) });
  const upgraded = upgradeNotice(store);
  if (upgraded !== null) options.log(upgraded);
  const readOnly = readOnlyOf(store);
  if (readOnly) {
    options.log(
      `${options.storePath} can't be written (${readOnly.reason}): it is open for reading only` +
        `${readOnly.snapshot ? ', from a private copy' : ''}; job recovery and the job runner are off`,
    );
  }
  return { store, readOnly };
}

/** What the core's parts share: its options, its store, this desk, the clock, the damage mark and its events. */
interface CoreParts {
  readonly options: CoreOptions;
  readonly store: Store;
  readonly desk: string;
  readonly clock: Clock;
  readonly damage: DamageMark;
  readonly emit: <E extends EventName>(name: E, payload: ApiEvents[E]) => void;
}

/**
 * The job runner thread and, off the main thread, every write (and its wait for the write lock), a file's
 * preview and a compare (on a reader thread, never the writer's), and suggestions (SPEC §11). `onWrite` is told when the writer thread says it changed the store.
 */
function startThreads(parts: CoreParts & { readonly onWrite: () => void }): { jobs: JobHost; threads: ServiceThreads } {
  const { options, store, desk, clock, damage, emit } = parts;
  const jobs = new JobHost({
    db: store.db,
    desk,
    storePath: options.storePath,
    clock,
    workerUrl: options.workerUrl,
    nativeBinding: options.nativeBinding ?? null,
    emit,
    log: options.log,
    wakeEveryMs: options.wakeEveryMs,
    damage,
  });
  const threads = new ServiceThreads({
    db: store.db,
    storePath: options.storePath,
    desk,
    workerUrl: options.serviceWorkerUrl ?? serviceThreadUrl(options.workerUrl),
    nativeBinding: options.nativeBinding ?? null,
    clock,
    credentials: options.credentials,
    emit: (name, payload) => {
      // The writer thread says what it changed; the data_version watcher need not say it again.
      if (name === 'store.changed') parts.onWrite();
      emit(name, payload);
    },
    log: options.log,
    runLookup: (jobId, credentials, apiUrl) => jobs.runLookup(jobId, credentials, apiUrl),
    renameRunner: (name) => jobs.tellDesk(name),
    damage,
  });
  return { jobs, threads };
}

/**
 * The contract's service on the main thread, with the app's ports: the job runner thread (refusing on a
 * store that can't be written), the credentials that every thread is told of, and the service threads.
 */
function coreService(
  parts: CoreParts & {
    readonly jobs: JobHost | null;
    readonly threads: ServiceThreads | null;
    readonly pictures: ReturnType<typeof startPictures>;
    readonly recovered: readonly RecoveredJob[];
    readonly refusedWrite: () => Error;
  },
): ApiService {
  const { options, store, jobs, threads: offMain, refusedWrite } = parts;
  // A keychain that refuses now is said where the credentials are needed (Settings, the look-up): not here.
  const stored = readCredentials(options.credentials).credentials;
  const service = createApiService(
    serviceContext(store, options.storePath, {
      clock: parts.clock,
      desk: parts.desk,
      recovered: parts.recovered,
      jobs: jobs ?? {
        startCatalogueLoad: () => {
          throw refusedWrite();
        },
        startLookup: () => {
          throw refusedWrite();
        },
        fetchStoreInventory: () => Promise.reject(refusedWrite()),
      },
      credentials: {
        encrypted: options.credentials.encrypted,
        get: () => {
          const read = readCredentials(options.credentials);
          offMain?.tellCredentials(read); // what Settings shows, the writer's views show too
          return credentialsAsRead(() => read)();
        },
        set: (c) => {
          options.credentials.set(c);
          jobs?.provideCredentials(c, apiUrlOf(store.db));
          offMain?.provideCredentials(c);
        },
      },
      files: options.files,
      printer: options.printer ?? null,
      shopServer: options.shopServer ?? null,
      deskName: options.desk === undefined ? (options.deskName ?? null) : null,
      emit: parts.emit,
      threads: offMain,
      suggestions: offMain
        ? { ready: () => offMain.suggestionsReady, index: () => null, why: () => offMain.suggestionsProblem }
        : undefined,
      imports: offMain ? { cancel: () => offMain.cancelImports(), cancelled: () => false } : undefined,
      damage: parts.damage,
      pictures: parts.pictures,
    }),
  );
  if (stored) jobs?.provideCredentials(stored, apiUrlOf(store.db));
  return service;
}

/** The service thread's script beside the runner thread's (see `CoreOptions.serviceWorkerUrl`). */
function serviceThreadUrl(runnerUrl: URL): URL {
  return new URL(runnerUrl.pathname.endsWith('.ts') ? './service-thread.ts' : './service-thread.js', runnerUrl);
}

/** A job of this app's runner thread, as a quit's question names it. */
function jobWords(job: { kind: string; done: number; total: number | null }): string {
  if (job.kind === 'catalogue-load') {
    const part = job.total !== null && job.total > 0 ? ` (${Math.floor((100 * job.done) / job.total)} % done)` : '';
    return `a catalogue is being loaded${part}`;
  }
  if (job.kind === LOOKUP_JOB_KIND) return 'the look-up is asking BrickLink for missing numbers';
  return `a ${job.kind} job is running`;
}
