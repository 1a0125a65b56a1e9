import { SYSTEM_CLOCK, type Clock } from '../clock.ts';
import { JobHost, watchDataVersion } from '../jobs/job-host.ts';
import { recoverJobs } from '../jobs/queue.ts';
import { openStore } from '../store/open.ts';
import { formatVersion } from '../store/schema-version.ts';
import { getSetting } from '../store/settings.ts';
import { CURRENT_SCHEMA } from '../store/upgrades/index.ts';
import type { ApiEvents, EventName } from './contract.ts';
import { createApiService, type ApiService, type CredentialStore, type FileDialogs } from './service.ts';

export interface CoreOptions {
  readonly storePath: string;
  readonly workerUrl: URL;
  readonly credentials: CredentialStore;
  readonly files: FileDialogs | null;
  readonly emit: <E extends EventName>(name: E, payload: ApiEvents[E]) => void;
  readonly log: (line: string) => void;
  readonly clock?: Clock;
  readonly nativeBinding?: string | null;
}

export interface Core {
  readonly service: ApiService;
  readonly jobs: JobHost;
  close(): Promise<void>;
}

/**
 * What the app and the browser host do at their start, the same way: open the store read-write
 * (upgrading it, with its backup), put dead owners' running jobs back in the queue and report each,
 * start the job runner thread, and watch for other processes' writes.
 */
export async function startCore(options: CoreOptions): Promise<Core> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const store = await openStore(options.storePath, { onProgress: (m) => options.log(m) });
  if (store.upgrade) {
    options.log(`upgraded the store from schema ${store.upgrade.from} to ${store.upgrade.to}; the old file is backed up at ${store.upgrade.backup}`);
  }
  const recovered = recoverJobs(store.db, { clock });
  for (const r of recovered) {
    options.log(`recovered job ${r.id} (${r.kind}): its owner (pid ${r.deadOwner?.pid ?? '-'}) is gone; it is queued again`);
  }
  const jobs = new JobHost({
    db: store.db,
    storePath: options.storePath,
    clock,
    workerUrl: options.workerUrl,
    nativeBinding: options.nativeBinding ?? null,
    emit: options.emit,
    log: options.log,
  });
  const stored = options.credentials.get();
  const service = createApiService({
    db: store.db,
    storePath: options.storePath,
    schema: formatVersion(CURRENT_SCHEMA),
    clock,
    upgrade: store.upgrade,
    recovered,
    jobs,
    credentials: {
      encrypted: options.credentials.encrypted,
      get: () => options.credentials.get(),
      set: (c) => {
        options.credentials.set(c);
        jobs.provideCredentials(c, getSetting(store.db, 'api-url'));
      },
    },
    files: options.files,
    emit: options.emit,
  });
  if (stored) jobs.provideCredentials(stored, getSetting(store.db, 'api-url'));
  const stopWatching = watchDataVersion(store.db, () => options.emit('store.changed', { reason: 'another process wrote' }));
  return {
    service,
    jobs,
    async close() {
      stopWatching();
      await jobs.stop();
      store.close();
    },
  };
}
