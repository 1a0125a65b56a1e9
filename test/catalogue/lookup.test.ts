import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import type { Clock } from '../../src/platform/clock.ts';
import { BrickLinkApi } from '../../src/catalogue/bricklink/api.ts';
import { budgetStatus } from '../../src/catalogue/budget.ts';
import {
  enqueueLookup,
  LOOKUP_JOB_KIND,
  lookupHandler,
  lookupHasWork,
  pendingLookups,
  type LookupStats,
} from '../../src/catalogue/lookup-job.ts';
import { Source } from '../../src/catalogue/source.ts';
import { getJob } from '../../src/jobs/queue.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { UNPLACED_REASONS } from '../../src/vocabulary/reasons.ts';
import { placeUnplacedLines } from '../../src/placement/place-lines.ts';
import { openStore } from '../../src/store/open.ts';
import { setSetting } from '../../src/store/settings.ts';
import { CREDENTIALS_ENV, startStandIn, TEST_CREDENTIALS } from '../helpers/bricklink-stand-in.ts';
import { cliJson, finished, spawnCli } from '../helpers/cli.ts';
import { insertDocument, insertItem, insertLine, insertOrder, type Db } from '../helpers/store-builder.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

const BRICKLINK = {
  'P 3001': { name: 'Brick 2 x 4', categoryId: 5 },
  'P 3002': { name: 'Brick 2 x 3' },
  'P 3003': { name: 'Brick 2 x 2' },
  'M sw0001a': { name: 'Luke Skywalker (Tatooine)' },
};

/** A store with an order whose lines name numbers the catalogue lacks (one twice), and one it has. */
async function storeWithUnknownNumbers(): Promise<{ file: string; db: Db }> {
  const file = newStoreLocation();
  const store = await openStore(file);
  onTestFinished(() => store.close());
  const db = store.db;
  insertItem(db, { no: '3020', name: 'Plate 2 x 4' });
  const orderId = insertOrder(db, { reference: '1001' });
  const documentId = insertDocument(db, { orderId, key: 'bricklink-order:1001' });
  const lines: [string | null, string][] = [
    ['P', '3001'],
    [null, '3001'],
    ['P', '3002'],
    ['P', '3003'],
    ['M', 'sw0001a'],
    ['P', '99999'],
    ['P', '3020'],
  ];
  lines.forEach(([type, no], i) => insertLine(db, { documentId, position: i + 1, given: { type, no } }));
  db.transaction(() => placeUnplacedLines(db))();
  return { file, db };
}

function dayClock(day: string): Clock {
  return { now: () => new Date(`${day}T12:00:00Z`) };
}

/** A runner for look-up jobs as the app's runner thread makes it (claims skip a run that has used its limit). */
function runLookup(db: Db, url: string, clock: Clock) {
  const source = new Source(db, clock, new BrickLinkApi(url, TEST_CREDENTIALS));
  const stats: LookupStats = { calls: 0, found: 0, notFound: 0, left: 0 };
  const runner = new JobRunner({
    session: writeSession(db),
    clock,
    handlers: { [LOOKUP_JOB_KIND]: lookupHandler(source, { clock, stats }) },
    ready: { [LOOKUP_JOB_KIND]: lookupHasWork },
  });
  return { runner, stats };
}

describeEachStore('the look-up job against a BrickLink stand-in', () => {
  it('asks once per distinct missing number, keeps found and not-found answers, and places the lines again', async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { db } = await storeWithUnknownNumbers();
    expect(pendingLookups(db)).toEqual([
      { type: 'M', no: 'sw0001a' },
      { type: 'P', no: '3001' },
      { type: 'P', no: '3002' },
      { type: 'P', no: '3003' },
      { type: 'P', no: '99999' },
    ]);
    const clock = dayClock('2026-05-01');
    const { id } = enqueueLookup(db, clock);
    expect(enqueueLookup(db, clock)).toEqual({ id, created: false }); // at most one per store
    const { runner, stats } = runLookup(db, standIn.url, clock);
    expect(await runner.runJob(id)).toMatchObject({ outcome: 'done' });
    expect(stats).toEqual({ calls: 5, found: 4, notFound: 1, left: 0 });
    expect(standIn.requests.sort()).toEqual(['MINIFIG/sw0001a', 'PART/3001', 'PART/3002', 'PART/3003', 'PART/99999']);

    expect(db.prepare("SELECT name, source FROM catalogue_item WHERE item_no = '3001'").get()).toEqual({
      name: 'Brick 2 x 4',
      source: 'bricklink-api',
    });
    expect(db.prepare('SELECT item_type, item_no, found FROM lookup_answer ORDER BY 1, 2').all()).toEqual([
      { item_type: 'M', item_no: 'sw0001a', found: 1 },
      { item_type: 'P', item_no: '3001', found: 1 },
      { item_type: 'P', item_no: '3002', found: 1 },
      { item_type: 'P', item_no: '3003', found: 1 },
      { item_type: 'P', item_no: '99999', found: 0 },
    ]);
    const unplaced = db.prepare('SELECT given_no, unplaced_reason FROM order_line WHERE item_no IS NULL').all();
    expect(unplaced).toEqual([{ given_no: '99999', unplaced_reason: UNPLACED_REASONS.numberNotInCatalogue }]);
    expect(budgetStatus(db, clock)).toMatchObject({ used: 5, left: 4995, limit: 5000 });

    // A second run has nothing to ask: both kinds of answer are kept.
    const again = enqueueLookup(db, clock);
    expect(again.created).toBe(true);
    await runLookup(db, standIn.url, clock).runner.runJob(again.id);
    expect(standIn.requests).toHaveLength(5);
  });

  it('stops with budget-exhausted at the day’s limit, waits for the next UTC day, and then goes on without asking any number twice', async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { db } = await storeWithUnknownNumbers();
    setSetting(db, 'daily-call-limit', '3');
    const day1 = dayClock('2026-05-01');
    const { id } = enqueueLookup(db, day1);

    const first = await runLookup(db, standIn.url, day1).runner.runJob(id);
    expect(first).toMatchObject({ outcome: 'deferred', error: { code: 'budget-exhausted' } });
    expect(first.error?.message).toContain("the day's BrickLink budget is used up");
    expect(standIn.requests).toHaveLength(3);
    expect(getJob(db, id)).toMatchObject({ state: 'queued', notBeforeDay: '2026-05-02' });
    expect(budgetStatus(db, day1)).toMatchObject({ used: 3, left: 0 });

    // The same day: nothing to claim.
    expect(await runLookup(db, standIn.url, day1).runner.runNext()).toBeNull();

    const day2 = dayClock('2026-05-02');
    const second = await runLookup(db, standIn.url, day2).runner.runNext();
    expect(second).toMatchObject({ outcome: 'done', job: { id } });
    expect(standIn.requests).toHaveLength(5);
    expect(new Set(standIn.requests).size).toBe(5);
    expect(budgetStatus(db, day2)).toMatchObject({ used: 2, left: 1 });
  });

  it('caps the calls of one run with a limit kept in the job: claims leave it queued until staff start another run', async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { db } = await storeWithUnknownNumbers();
    const clock = dayClock('2026-05-01');
    const { id } = enqueueLookup(db, clock, { limit: 2 });
    const run = runLookup(db, standIn.url, clock);
    expect(await run.runner.runJob(id)).toMatchObject({ outcome: 'deferred', error: null });
    expect(run.stats).toMatchObject({ calls: 2, left: 3 });
    expect(getJob(db, id)).toMatchObject({
      state: 'queued',
      notBeforeDay: null,
      payload: { limit: 2, calls: 2 },
      error: 'stopped after 2 calls, the limit of this run; 3 numbers still to ask — start another run to go on',
    });

    // Any runner's claim (the app's runner thread wakes every minute) passes it by, and writes nothing to it.
    const before = getJob(db, id);
    expect(await runLookup(db, standIn.url, clock).runner.runNext()).toBeNull();
    expect(await runLookup(db, standIn.url, dayClock('2026-05-02')).runner.runNext()).toBeNull();
    expect(getJob(db, id)).toEqual(before);
    // Claimed by id without a new run (as an older caller might), it stops again without asking.
    expect(await runLookup(db, standIn.url, clock).runner.runJob(id)).toMatchObject({ outcome: 'deferred' });
    expect(standIn.requests).toHaveLength(2);

    // Another run sets its own limit and starts counting again; then one with none finishes.
    expect(enqueueLookup(db, clock, { limit: 1 })).toEqual({ id, created: false });
    expect(getJob(db, id)).toMatchObject({ payload: { limit: 1, calls: 0 }, error: null });
    expect(await runLookup(db, standIn.url, clock).runner.runNext()).toMatchObject({
      outcome: 'deferred',
      job: { id },
    });
    expect(getJob(db, id)?.error).toBe(
      'stopped after 1 call, the limit of this run; 2 numbers still to ask — start another run to go on',
    );
    expect(standIn.requests).toHaveLength(3);
    enqueueLookup(db, clock);
    expect(await runLookup(db, standIn.url, clock).runner.runNext()).toMatchObject({ outcome: 'done', job: { id } });
    expect(standIn.requests).toHaveLength(5);
    expect(new Set(standIn.requests).size).toBe(5);
  });

  it('goes on after a budget-exhausted day within what is left of its run’s limit', async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { db } = await storeWithUnknownNumbers();
    setSetting(db, 'daily-call-limit', '2');
    const { id } = enqueueLookup(db, dayClock('2026-05-01'), { limit: 3 });
    expect(await runLookup(db, standIn.url, dayClock('2026-05-01')).runner.runJob(id)).toMatchObject({
      outcome: 'deferred',
      error: { code: 'budget-exhausted' },
    });
    expect(getJob(db, id)).toMatchObject({
      state: 'queued',
      notBeforeDay: '2026-05-02',
      payload: { limit: 3, calls: 2 },
    });
    expect(getJob(db, id)?.error).toMatch(/^the day's BrickLink budget is used up .*; 3 numbers still to ask$/);

    // The next day the budget would allow two more, the run's limit one.
    const day2 = runLookup(db, standIn.url, dayClock('2026-05-02'));
    expect(await day2.runner.runNext()).toMatchObject({ outcome: 'deferred', error: null, job: { id } });
    expect(day2.stats.calls).toBe(1);
    expect(standIn.requests).toHaveLength(3);
    expect(budgetStatus(db, dayClock('2026-05-02'))).toMatchObject({ used: 1 });
    expect(getJob(db, id)).toMatchObject({
      state: 'queued',
      notBeforeDay: null,
      error: expect.stringMatching(/^stopped after 3 calls, the limit of this run; 2 numbers/),
    });
    expect(await runLookup(db, standIn.url, dayClock('2026-05-03')).runner.runNext()).toBeNull();
    expect(standIn.requests).toHaveLength(3);
  });

  it.each([
    ['the connection is closed', 'close' as const, /could not be reached/],
    ['BrickLink answers 500', 500 as const, /with an error \(500: INTERNAL_SERVER_ERROR: Something broke\)/],
  ])('fails when a call gets no answer (%s), and says the call was counted', async (_what, how, cause) => {
    const standIn = await startStandIn(BRICKLINK);
    const { db } = await storeWithUnknownNumbers();
    const clock = dayClock('2026-05-01');
    const { id } = enqueueLookup(db, clock, { limit: 4 });
    const run = runLookup(db, standIn.url, clock);
    standIn.fail(how);
    const result = await run.runner.runJob(id);
    expect(result).toMatchObject({ outcome: 'failed', error: { code: 'source-error' } });
    expect(result.error?.message).toMatch(cause);
    expect(result.error?.message).toContain(
      "The call for M sw0001a was counted against today's BrickLink budget (1 of 5000 calls on 2026-05-01, UTC) and against this run's limit",
    );
    // The jobs list shows it failed, with the same words; the call is in the day's count and the run's.
    expect(getJob(db, id)).toMatchObject({
      state: 'failed',
      error: result.error?.message,
      payload: { limit: 4, calls: 1 },
    });
    expect(budgetStatus(db, clock)).toMatchObject({ used: 1 });
    expect(standIn.requests).toEqual(['MINIFIG/sw0001a']);
  });

  it('fails plainly when BrickLink refuses the credentials, keeping what it had', async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { db } = await storeWithUnknownNumbers();
    const clock = dayClock('2026-05-01');
    const { id } = enqueueLookup(db, clock);
    const source = new Source(db, clock, new BrickLinkApi(standIn.url, { ...TEST_CREDENTIALS, tokenSecret: 'wrong' }));
    const runner = new JobRunner({
      session: writeSession(db),
      clock,
      handlers: { [LOOKUP_JOB_KIND]: lookupHandler(source, { clock }) },
    });
    const result = await runner.runJob(id);
    expect(result).toMatchObject({ outcome: 'failed', error: { code: 'source-error' } });
    expect(result.error?.message).toContain('Invalid signature');
    expect(result.error?.message).not.toContain('wrong');
  });

  it('has counted a call that a process killed with SIGKILL was still waiting for', async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { file, db } = await storeWithUnknownNumbers();
    standIn.hold();
    const env = { ...CREDENTIALS_ENV, BRICKLINK_API_URL: standIn.url };
    const child = spawnCli(['--db', file, 'catalogue', 'lookup'], env);
    const done = finished(child);
    await standIn.nextRequest();
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');

    const check = (await openStore(file, { readOnly: true })).db;
    const today = new Date().toISOString().slice(0, 10);
    expect(check.prepare('SELECT calls FROM call_budget WHERE day = ?').pluck().get(today)).toBe(1);
    expect(check.prepare('SELECT count(*) FROM lookup_answer').pluck().get()).toBe(0);
    check.close();

    // The next run asks that number again (the call is counted twice, by design) and finishes the job.
    standIn.release();
    const r = await cliJson(['--db', file, 'catalogue', 'lookup'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ outcome: 'done', calls: 5, found: 4, notFound: 1, left: 0, budget: { used: 6 } });
    for (const secret of [TEST_CREDENTIALS.consumerSecret, TEST_CREDENTIALS.tokenSecret]) {
      expect(r.stdout + r.stderr).not.toContain(secret);
    }
    expect(db.prepare('SELECT count(*) FROM order_line WHERE item_no IS NULL').pluck().get()).toBe(1);
  });

  it('is refused plainly without credentials, and with budget-exhausted from the CLI at the limit', async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { file, db } = await storeWithUnknownNumbers();
    const none = await cliJson(['--db', file, 'catalogue', 'lookup']);
    expect(none.code).toBe(1);
    expect(none.json.error.code).toBe('no-credentials');
    expect(none.json.error.message).toContain('BRICKLINK_CONSUMER_KEY');

    setSetting(db, 'daily-call-limit', '2');
    const env = { ...CREDENTIALS_ENV, BRICKLINK_API_URL: standIn.url };
    const r = await cliJson(['--db', file, 'catalogue', 'lookup'], env);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('budget-exhausted');
    expect(standIn.requests).toHaveLength(2);
    const jobs = await cliJson(['--db', file, 'jobs']);
    expect(jobs.json.jobs[0]).toMatchObject({ kind: 'catalogue-lookup', state: 'queued' });
    expect(jobs.json.jobs[0].notBeforeDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("loads the colours from the API's colour list with one counted call, and checks line colours from then on", async () => {
    const standIn = await startStandIn(BRICKLINK);
    const { file, db } = await storeWithUnknownNumbers();
    const orderId = insertOrder(db, { reference: '1002' });
    const documentId = insertDocument(db, { orderId, key: 'colours.csv' });
    insertLine(db, { documentId, position: 1, given: { no: '3020', colourId: 86 } });
    insertLine(db, { documentId, position: 2, given: { no: '3020', colourId: 999 } });
    const r = await cliJson(['--db', file, 'catalogue', 'colours'], {
      ...CREDENTIALS_ENV,
      BRICKLINK_API_URL: standIn.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ colours: 3, placed: 1, unplacedByOrder: [] });
    expect(standIn.requests).toEqual(['colors']);
    expect(db.prepare('SELECT id, name, source FROM colour ORDER BY id').all()).toEqual([
      { id: 1, name: 'White', source: 'bricklink-api' },
      { id: 11, name: 'Black', source: 'bricklink-api' },
      { id: 86, name: 'Light Bluish Gray', source: 'bricklink-api' },
    ]);
    expect(
      db
        .prepare('SELECT position, item_no, unplaced_reason FROM order_line WHERE document_id = ? ORDER BY position')
        .all(documentId),
    ).toEqual([
      { position: 1, item_no: '3020', unplaced_reason: null },
      { position: 2, item_no: null, unplaced_reason: UNPLACED_REASONS.colourNotInCatalogue },
    ]);
    expect(budgetStatus(db, { now: () => new Date() }).used).toBe(1);
  });
});
