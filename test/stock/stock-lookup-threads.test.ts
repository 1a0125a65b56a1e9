/**
 * `stock.lookup` in the app (issue 65 §1; SPEC §11): the core started as the app and the browser host start
 * it (`startCore`, real threads). The job runner thread counts the call (committed before it is sent) and
 * asks BrickLink, off the writer thread: while BrickLink is slow to answer, this desk's writes are answered.
 */
import { expect, it, onTestFinished } from 'vitest';
import type { Result } from '../../src/api/contract.ts';
import { startCore } from '../../src/app/core.ts';
import { startStandIn, TEST_CREDENTIALS } from '../helpers/bricklink-stand-in.ts';
import { insertColour, storeWithCatalogue } from '../helpers/store-builder.ts';

const LOTS = [
  {
    inventory_id: 9001,
    item: { no: '3001', type: 'PART' },
    color_id: 5,
    quantity: 40,
    new_or_used: 'N',
    remarks: 'A10',
  },
  { inventory_id: 9002, item: { no: '3001', type: 'PART' }, color_id: 11, quantity: 2, new_or_used: 'N' },
];

async function startApp(credentials = TEST_CREDENTIALS) {
  const { db, dbPath } = await storeWithCatalogue();
  insertColour(db, { id: 11, name: 'Black' });
  const standIn = await startStandIn({}, { inventory: LOTS });
  const core = await startCore({
    storePath: dbPath,
    workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
    credentials: { encrypted: false, get: () => credentials, set: () => {} },
    files: null,
    emit: () => {},
    log: () => {},
  });
  onTestFinished(() => core.close());
  await core.threads?.whenReady();
  const call = (name: string, args: unknown) => core.service.call(name, args) as Promise<Result<any>>;
  const ok = async (name: string, args: unknown) => {
    const r = await call(name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
    return r.value;
  };
  await ok('settings.set', { key: 'api-url', value: standIn.url });
  const used = async () => (await ok('catalogue.status', {})).budget.used as number;
  return { call, ok, standIn, used };
}

it('while BrickLink holds its answer, the call is counted already and this desk’s writes are answered; then it is previewed and imported as a file', async () => {
  const app = await startApp();
  app.standIn.hold();
  const asked = app.standIn.nextRequest();
  let answered = false;
  const lookup = app.call('stock.lookup', {}).finally(() => (answered = true));
  expect(await asked).toBe('inventories');
  // Counted, and committed, before the request was sent: read here, from the main thread's connection.
  expect(await app.used()).toBe(1);

  // Writes on the writer thread, answered while BrickLink has not answered.
  for (const value of ['EUR', 'USD']) {
    const t = performance.now();
    expect(await app.call('settings.set', { key: 'currency', value })).toMatchObject({ ok: true });
    expect(performance.now() - t).toBeLessThan(1_000);
  }
  expect(answered, 'the writes were answered while the look-up waited for BrickLink').toBe(false);

  app.standIn.release();
  const got = (await lookup) as Result<any>;
  if (!got.ok) throw new Error(got.error.message);
  expect(got.value).toMatchObject({ fetched: 2, budget: { used: 1 } });
  expect(await app.ok('stock.info', {})).toBeNull();
  const request = { file: got.value.file, locationFrom: null, acknowledge: [], colourNumbering: null };
  const preview = await app.ok('stock.preview', request);
  expect(preview).toMatchObject({
    fileName: got.value.file.name,
    refusal: null,
    stock: { locations: 1, lotsWithLotId: 2 },
  });
  const done = await app.ok('stock.import', request);
  expect(done.stock).toMatchObject({ fileName: got.value.file.name, lots: 2, pieces: 42 });
  expect(app.standIn.requests).toEqual(['inventories']);
  expect(await app.used()).toBe(1);
}, 60_000);

it('refused by BrickLink through the runner thread: said in its words, the call counted, nothing else written', async () => {
  const app = await startApp({ ...TEST_CREDENTIALS, tokenSecret: 'wrong' });
  const no = await app.call('stock.lookup', {});
  expect(no).toMatchObject({ ok: false, error: { code: 'source-error' } });
  expect(no.ok ? '' : no.error.message).toContain('BAD_OAUTH_REQUEST');
  expect(await app.used()).toBe(1);
  expect(await app.ok('stock.info', {})).toBeNull();
  expect((await app.ok('history.state', {})).undo).toBeNull();

  await app.ok('settings.set', { key: 'daily-call-limit', value: '1' });
  const spent = await app.call('stock.lookup', {});
  expect(spent).toMatchObject({ ok: false, error: { code: 'budget-exhausted' } });
  expect(app.standIn.requests).toEqual(['inventories']);
}, 60_000);
