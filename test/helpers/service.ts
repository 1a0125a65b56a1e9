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

/** What a call of the contract answers, as the tests read it. */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** A call's value, or its refusal thrown in its words. */
export async function ok<T>(answer: Promise<Answer<T>>): Promise<T> {
  const a = await answer;
  if (!a.ok) throw new Error(`${a.error.code}: ${a.error.message}`);
  return a.value;
}

/** A call's refusal; a call that was not refused fails the test. */
export async function refused<T>(answer: Promise<Answer<T>>): Promise<{ code: string; message: string }> {
  const a = await answer;
  if (a.ok) throw new Error('it was not refused');
  return a.error;
}
