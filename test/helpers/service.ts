import type { StoreDb } from '../../src/store/db.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { createApiService, type ServiceContext } from '../../src/api/service.ts';

/** The contract's service over an open store, as the app and the browser host make it, without a job runner thread. */
export function serviceFor(db: StoreDb, storePath: string, overrides: Partial<ServiceContext> = {}) {
  return createApiService({
    db,
    storePath,
    schema: '4.2',
    clock: SYSTEM_CLOCK,
    upgrade: null,
    recovered: [],
    jobs: { startCatalogueLoad: () => {}, startLookup: () => 0 },
    credentials: { encrypted: false, get: () => null, set: () => {} },
    files: null,
    emit: () => {},
    ...overrides,
  });
}
