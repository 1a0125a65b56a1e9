/**
 * SPEC §11: long work and every write run off the thread that answers the screens. The core is started
 * as the app and the browser host start it (`startCore`, real worker threads); the test's own event loop
 * is the app's main thread. Behaviour only: `npm run bench` holds the 100 ms bar.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { writeSession } from '../../src/store/session.ts';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ApiEvents, EventName, Result } from '../../src/api/contract.ts';
import { startCore, type Core } from '../../src/app/core.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { csv, file } from '../helpers/documents.ts';
import {
  dumpRows,
  insertDocument,
  insertItem,
  insertLine,
  insertOrder,
  storeWithCatalogue,
} from '../helpers/store-builder.ts';
import { lines, spawnWorker } from '../helpers/workers.ts';

type Event = { [E in EventName]: { name: E; payload: ApiEvents[E] } }[EventName];

interface App {
  readonly core: Core;
  /** Every event the core emitted, in order. */
  readonly events: Event[];
  /** Calls `listener` on each event from now on, until it returns true. */
  on(listener: (e: Event) => boolean): void;
  call(name: string, args: unknown): Promise<Result<any>>;
}

/** The app's core on `storePath`, with every event it emits. */
async function startApp(storePath: string): Promise<App> {
  const events: Event[] = [];
  const listeners = new Set<(e: Event) => boolean>();
  const core = await startCore({
    storePath,
    workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
    credentials: { encrypted: false, get: () => null, set: () => {} },
    files: null,
    emit: (name, payload) => {
      const e = { name, payload } as Event;
      events.push(e);
      for (const l of [...listeners]) if (l(e)) listeners.delete(l);
    },
    log: () => {},
  });
  onTestFinished(() => core.close());
  return {
    core,
    events,
    on: (listener) => void listeners.add(listener),
    call: (name, args) => core.service.call(name, args) as Promise<Result<any>>,
  };
}

/** A store with the small catalogue and one order with an unplaced line that names "Brick 2 x 4". */
async function storeWithOrder() {
  const { db, dbPath } = await storeWithCatalogue();
  const orderId = insertOrder(db, { reference: 'Falcon' });
  const documentId = insertDocument(db, { orderId, key: 'Falcon.bsx' });
  const lineId = insertLine(db, { documentId, position: 1, given: { name: 'Brick 2 x 4' } });
  return { db, dbPath, orderId, lineId };
}

/** A CSV part list of `n` lines (numbers the small catalogue has, and some it lacks): big enough to take a moment. */
function partList(n: number, name = 'big.csv') {
  return file(
    name,
    csv(
      ['number', 'name', 'color id', 'quantity'],
      Array.from({ length: n }, (_, i) =>
        i % 3 === 0 ? [`x${i}`, 'Mystery part', 5, 1] : ['3001', 'Brick 2 x 4', 5, 1 + (i % 9)],
      ),
    ),
  );
}

/** Watches the main thread: the longest gap between ticks of a 10 ms timer. */
function loopWatch() {
  let last = performance.now();
  const watch = { ticks: 0, longestGapMs: 0 };
  const timer = setInterval(() => {
    const now = performance.now();
    watch.longestGapMs = Math.max(watch.longestGapMs, now - last);
    last = now;
    watch.ticks++;
  }, 10);
  onTestFinished(() => clearInterval(timer));
  return { watch, stop: () => clearInterval(timer) };
}

describe('the thread that answers the screens never waits for a write', () => {
  it('answers reads while another process holds the write lock, and a write waits for it off the main thread, then completes', async () => {
    const { dbPath, orderId, lineId } = await storeWithOrder();
    const app = await startApp(dbPath);
    await app.core.threads?.whenReady();

    const holder = spawnWorker('write-lock-holder', [dbPath], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = lines(holder);
    await out.waitFor(/^locked$/);

    // Reads answer (WAL readers don't wait for the writer).
    for (const [name, args] of [
      ['orders.list', {}],
      ['orders.get', { orderId }],
      ['lines.list', { orderId }],
      ['history.state', {}],
      ['catalogue.status', {}],
      ['settings.get', {}],
      // A compare is a read (SPEC §13), a file side included: it works while another process writes.
      ['compare.run', { left: { kind: 'order', orderId }, right: { kind: 'file', file: partList(50) } }],
    ] as const) {
      expect(await app.call(name, args), name).toMatchObject({ ok: true });
    }

    // A write waits for the lock — on its own thread: the main thread's timer keeps firing meanwhile.
    const { watch, stop } = loopWatch();
    let answered: Result<any> | null = null;
    const write = app.call('settings.set', { key: 'currency', value: 'EUR' }).then((r) => (answered = r));
    await sleep(800);
    stop();
    expect(answered, 'the write waits while the other process holds the lock').toBeNull();
    expect(watch.ticks).toBeGreaterThan(30);
    expect(watch.longestGapMs).toBeLessThan(400);
    // Reads still answer while the write waits, and see the store as it was.
    expect(await app.call('settings.get', {})).toMatchObject({ ok: true, value: { currency: 'USD' } });
    expect(await app.call('lines.suggest', { lineId })).toMatchObject({ ok: true });

    // Once the other process lets go, the write goes through.
    holder.stdin?.write('release\n');
    await out.waitFor(/^released$/);
    expect(await write).toMatchObject({ ok: true, value: { currency: 'EUR' } });
    expect(await app.call('settings.get', {})).toMatchObject({ ok: true, value: { currency: 'EUR' } });
  }, 30_000);

  it('a preview tells its progress by phase; Cancel stops a preview or an import before it writes, and the store is as it was', async () => {
    const { db, dbPath } = await storeWithOrder();
    const app = await startApp(dbPath);
    await app.core.threads?.whenReady();
    const big = partList(60_000);
    const progress = () => app.events.flatMap((e) => (e.name === 'import.progress' ? [e.payload] : []));
    // Staff press Cancel as soon as the screen shows `phase`.
    const cancelOn = (phase: 'reading' | 'placing' | 'writing') =>
      app.on((e) => {
        if (e.name !== 'import.progress' || e.payload.phase !== phase) return false;
        void app
          .call('import.cancel', {})
          .then((r) => expect(r).toMatchObject({ ok: true, value: { cancelled: true } }));
        return true;
      });

    // A whole preview: reading, then placing, each to its end; nothing written.
    const before = dumpRows(db);
    const preview = await app.call('import.preview', { file: big });
    expect(preview).toMatchObject({ ok: true, value: { documents: [{ counts: { total: 60_000, placed: 40_000 } }] } });
    const told = progress();
    expect(told.every((p) => p.step === 'preview' && p.fileName === 'big.csv')).toBe(true);
    expect([...new Set(told.map((p) => p.phase))]).toEqual(['reading', 'placing']);
    const placing = told.filter((p) => p.phase === 'placing');
    expect(placing.at(-1)).toMatchObject({ done: 60_000, total: 60_000 });
    expect(placing.length).toBeGreaterThan(2);
    expect(placing.map((p) => p.done)).toEqual([...placing.map((p) => p.done)].sort((a, b) => a - b));
    const reading = told.filter((p) => p.phase === 'reading');
    expect(reading.at(-1)?.done).toBe(reading.at(-1)?.total);

    // Cancelled while reading: the preview answers `cancelled`.
    app.events.length = 0;
    cancelOn('reading');
    expect(await app.call('import.preview', { file: big })).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(progress().some((p) => p.phase === 'placing')).toBe(false);

    // An import cancelled while it places its lines: refused, nothing written.
    app.events.length = 0;
    cancelOn('placing');
    const cancelled = await app.call('import.confirm', { file: big });
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(cancelled.ok ? '' : cancelled.error.message).toMatch(/nothing was written/);
    expect(progress().some((p) => p.phase === 'writing')).toBe(false);
    expect(dumpRows(db)).toEqual(before);
    expect(await app.call('import.cancel', {})).toMatchObject({ ok: true, value: { cancelled: false } });

    // Once it writes, Cancel comes too late: the import finishes, whole.
    app.events.length = 0;
    cancelOn('writing');
    const imported = await app.call('import.confirm', { file: big });
    expect(imported).toMatchObject({ ok: true, value: [{ lines: { total: 60_000 } }] });
    expect([...new Set(progress().map((p) => p.phase))]).toEqual(['reading', 'placing', 'writing']);
    expect(progress().at(-1)).toMatchObject({ phase: 'writing', done: 60_000, total: 60_000 });
    expect(db.prepare('SELECT count(*) FROM order_line').pluck().get()).toBe(60_001);
  }, 60_000);

  it("a big document's preview brings its first 200 lines; the others come page by page from the thread that keeps it (issue 25)", async () => {
    const { dbPath } = await storeWithOrder();
    const app = await startApp(dbPath);
    const preview = await app.call('import.preview', {
      file: partList(3_000, 'pages.csv'),
      acknowledge: ['colour-numbering-guessed'],
    });
    if (!preview.ok) throw new Error(preview.error.message);
    const doc = preview.value.documents[0];
    expect(doc.counts.total).toBe(3_000);
    expect(doc.lines).toHaveLength(200);
    const page = await app.call('import.previewLines', {
      previewId: preview.value.previewId,
      document: 0,
      from: 200,
      count: 1_000,
    });
    if (!page.ok) throw new Error(page.error.message);
    expect(page.value.map((l: { position: number }) => l.position)).toEqual(
      Array.from({ length: 1_000 }, (_, i) => 201 + i),
    );
    expect(await app.call('import.previewLines', { previewId: 'gone', document: 0, from: 0, count: 10 })).toMatchObject(
      {
        ok: false,
        error: { code: 'not-found' },
      },
    );
    expect(
      await app.call('import.previewLines', { previewId: preview.value.previewId, document: 0, from: 0, count: 6_000 }),
    ).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
  });

  it('says "preparing" for suggestions until the index is built, then suggests; and builds it again when the catalogue changes', async () => {
    const { db, dbPath, lineId } = await storeWithOrder();
    const app = await startApp(dbPath);

    // At once, before the suggestion thread has built its index: answered, not ready.
    expect(await app.call('lines.suggest', { lineId })).toEqual({ ok: true, value: { ready: false, suggestions: [] } });
    expect(await app.call('catalogue.search', { query: 'brick' })).toEqual({
      ok: true,
      value: { ready: false, suggestions: [] },
    });
    expect(await app.call('catalogue.status', {})).toMatchObject({ ok: true, value: { suggestionsReady: false } });

    await until(
      () => app.events.some((e) => e.name === 'suggestions.status' && e.payload.ready),
      'the index to be ready',
    );
    expect(await app.call('catalogue.status', {})).toMatchObject({ ok: true, value: { suggestionsReady: true } });
    const ready = await app.call('lines.suggest', { lineId });
    expect(ready).toMatchObject({ ok: true, value: { ready: true } });
    expect(ready.ok && ready.value.suggestions[0]).toMatchObject({ no: '3001', name: 'Brick 2 x 4' });

    // Another process adds to the catalogue: the index is built again, and suggests it.
    insertItem(db, { no: '3009', name: 'Brick 1 x 6' });
    await until(async () => {
      const r = await app.call('catalogue.search', { query: 'brick 1 x 6' });
      return r.ok && r.value.ready && r.value.suggestions.some((s: { no: string }) => s.no === '3009');
    }, 'the new item to be suggested');
  }, 30_000);
});

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`);
    await sleep(25);
  }
}

describe('an import holds the write lock only while it writes', () => {
  it('places its lines again under the lock when another connection wrote after they were placed', async () => {
    const { db, dbPath } = await storeWithCatalogue();
    const other = new Database(dbPath);
    onTestFinished(() => void other.close());
    const doc = file(
      'late.csv',
      csv(
        ['number', 'name', 'color id', 'quantity'],
        [
          ['3001', 'Brick 2 x 4', 5, 1],
          ['3070b', 'Tile 1 x 1', 5, 2],
        ],
      ),
    );
    const phases: string[] = [];
    const [result] = confirmImport(writeSession(db), { file: doc }, SYSTEM_CLOCK, {
      onProgress: (phase, done, total) => {
        phases.push(phase);
        // Placed, not yet written, and the lock not taken: another process adds 3070b to the catalogue.
        if (phase === 'placing' && done === total && phases.filter((p) => p === 'placing').length === 2)
          insertItem(other, { no: '3070b', name: 'Tile 1 x 1' });
      },
    });
    expect(result?.lines).toEqual({ total: 2, placed: 2, unplaced: 0 });
    expect(db.prepare("SELECT item_no, unplaced_reason FROM order_line WHERE given_no = '3070b'").get()).toEqual({
      item_no: '3070b',
      unplaced_reason: null,
    });
  });
});
