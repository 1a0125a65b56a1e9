/**
 * The look-up job in the app's job runner thread, started through `startCore` as the app and the browser
 * host start it: a real worker thread that wakes on a short timer, an injected clock that the test moves
 * by days, and the BrickLink stand-in on 127.0.0.1.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { JobRowView } from '../../src/api/contract.ts';
import { startCore, type Core } from '../../src/app/core.ts';
import type { Clock } from '../../src/platform/clock.ts';
import { openStore } from '../../src/store/open.ts';
import { setSetting } from '../../src/store/settings.ts';
import { startStandIn, TEST_CREDENTIALS } from '../helpers/bricklink-stand-in.ts';
import { insertDocument, insertLine, insertOrder, type Db } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

const WAKE_MS = 25;
/** Long enough for the runner thread to wake a dozen times. */
const SEVERAL_WAKES_MS = WAKE_MS * 16;

const NUMBERS = ['4001', '4002', '4003', '4004', '4005', '4006', '4007', '4008'];
const BRICKLINK = Object.fromEntries(NUMBERS.slice(0, 6).map((no) => [`P ${no}`, { name: `Part ${no}` }]));

/** A clock the test moves. */
function movableClock(iso: string): Clock & { set(iso: string): void } {
  let now = new Date(iso).getTime();
  return { now: () => new Date(now), set: (to) => (now = new Date(to).getTime()) };
}

/** A store whose unplaced lines name eight numbers the catalogue lacks; the API URL points at the stand-in. */
async function storeWithEightUnknownNumbers(apiUrl: string): Promise<{ file: string; db: Db }> {
  const file = path.join(tempDir(), 'brick-work.sqlite');
  const store = await openStore(file);
  onTestFinished(() => store.close());
  const orderId = insertOrder(store.db, { reference: '2001' });
  const documentId = insertDocument(store.db, { orderId, key: 'bricklink-order:2001' });
  NUMBERS.forEach((no, i) => insertLine(store.db, { documentId, position: i + 1, given: { type: 'P', no } }));
  setSetting(store.db, 'api-url', apiUrl);
  return { file, db: store.db };
}

async function startApp(file: string, clock: Clock): Promise<Core> {
  const core = await startCore({
    storePath: file,
    workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
    credentials: { encrypted: false, get: () => TEST_CREDENTIALS, set: () => {} },
    files: null,
    emit: () => {},
    log: () => {},
    clock,
    wakeEveryMs: WAKE_MS,
  });
  onTestFinished(() => core.close());
  return core;
}

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.service.call(name, args);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.value as T;
}

async function lookupJob(core: Core): Promise<JobRowView | undefined> {
  return (await call<JobRowView[]>(core, 'jobs.list', {})).find((j) => j.kind === 'catalogue-lookup');
}

/** Waits until the look-up job is as `check` wants it (the runner thread works on its own time). */
async function until(
  core: Core,
  check: (job: JobRowView | undefined) => boolean,
  what: string,
): Promise<JobRowView | undefined> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const job = await lookupJob(core);
    if (check(job)) return job;
    if (Date.now() > deadline) throw new Error(`the look-up job never became ${what}: ${JSON.stringify(job)}`);
    await sleep(20);
  }
}

describe('the look-up job in the runner thread', () => {
  it('asks exactly N numbers for a run of at most N calls, however often the thread wakes', async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { file } = await storeWithEightUnknownNumbers(standIn.url);
    const core = await startApp(file, movableClock('2031-03-04T12:00:00Z'));
    await call(core, 'lookup.start', { limit: 3 });
    await until(core, (j) => standIn.requests.length >= 3 && (j?.state === 'queued' || j?.state === 'done'), 'stopped');
    await sleep(SEVERAL_WAKES_MS);
    expect(standIn.requests).toHaveLength(3);
    expect(await lookupJob(core)).toMatchObject({
      state: 'queued',
      notBeforeDay: null,
      error: 'stopped after 3 calls, the limit of this run; 5 numbers still to ask — start another run to go on',
    });
  });

  it("keeps to a run's limit across the thread's wakes and budget days: exactly N numbers asked until staff start another run", async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { file, db } = await storeWithEightUnknownNumbers(standIn.url);
    setSetting(db, 'daily-call-limit', '2');
    const clock = movableClock('2031-03-04T12:00:00Z');
    const core = await startApp(file, clock);

    // A run of at most 3 calls; the day's budget stops it after 2, until the next UTC day.
    await call(core, 'lookup.start', { limit: 3 });
    await until(core, (j) => j?.state === 'queued' && j.notBeforeDay === '2031-03-05', 'waiting for 2031-03-05');
    await sleep(SEVERAL_WAKES_MS);
    expect(standIn.requests).toHaveLength(2);

    // On the next day a wake resumes it, for what is left of the run's limit: one call.
    clock.set('2031-03-05T00:00:05Z');
    const stopped = await until(core, (j) => j?.state === 'queued' && j.notBeforeDay === null, 'stopped at the limit');
    expect(stopped?.error).toBe(
      'stopped after 3 calls, the limit of this run; 5 numbers still to ask — start another run to go on',
    );
    expect(standIn.requests).toHaveLength(3);

    // Wakes, that day and the next, leave it alone: still exactly 3 numbers asked.
    await sleep(SEVERAL_WAKES_MS);
    clock.set('2031-03-06T09:00:00Z');
    await sleep(SEVERAL_WAKES_MS);
    expect(standIn.requests).toHaveLength(3);
    expect(await lookupJob(core)).toMatchObject({
      id: stopped?.id,
      state: 'queued',
      error: stopped?.error,
      updatedAt: stopped?.updatedAt,
    });

    // Staff start another run, with no limit (and a larger budget): it asks the rest, each number once.
    await call(core, 'settings.set', { key: 'daily-call-limit', value: '100' });
    await call(core, 'lookup.start', {});
    await until(core, (j) => j?.state === 'done', 'done');
    expect(standIn.requests).toHaveLength(8);
    expect(new Set(standIn.requests).size).toBe(8);
  });

  it("counts the calls on the injected clock's day, not the computer's", async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { file, db } = await storeWithEightUnknownNumbers(standIn.url);
    const clock = movableClock('2031-03-04T12:00:00Z');
    const core = await startApp(file, clock);
    await call(core, 'lookup.start', {});
    await until(core, (j) => j?.state === 'done', 'done');
    expect(db.prepare('SELECT day, calls FROM call_budget').all()).toEqual([{ day: '2031-03-04', calls: 8 }]);
    const stamps = db.prepare('SELECT DISTINCT substr(answered_at, 1, 10) FROM lookup_answer').pluck().all();
    expect(stamps).toEqual(['2031-03-04']);
    expect(await call(core, 'catalogue.status', {})).toMatchObject({ budget: { day: '2031-03-04', used: 8 } });
  });
});
