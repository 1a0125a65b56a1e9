/**
 * Issue 62 §1, "Not on the writer": a file's preview is reading, not writing. The core is started as the
 * app and the browser host start it (`startCore`, real worker threads): previews run on the reader
 * thread, so nothing a file costs holds up a write — while a large model is previewed, `settings.set`
 * and `lines.place` are answered within 100 ms — and the hostile models of the issue are refused in
 * words there, the writer going on as before.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ApiEvents, EventName, Result } from '../../src/api/contract.ts';
import { startCore } from '../../src/app/core.ts';
import { file } from '../helpers/documents.ts';
import { manyEntriesIo, slashNamesIo, studioFile, submodelMpd } from '../helpers/hostile-models.ts';
import { insertDocument, insertLine, insertOrder, storeWithCatalogue } from '../helpers/store-builder.ts';

type Event = { [E in EventName]: { name: E; payload: ApiEvents[E] } }[EventName];

/** The app's core on a store with the small catalogue and one unplaced line, ready to be asked. */
async function startApp() {
  const { db, dbPath } = await storeWithCatalogue();
  const orderId = insertOrder(db, { reference: 'Falcon' });
  const documentId = insertDocument(db, { orderId, key: 'Falcon.bsx' });
  const lineId = insertLine(db, { documentId, position: 1, given: { name: 'Brick 2 x 4' } });
  const listeners = new Set<(e: Event) => boolean>();
  const core = await startCore({
    storePath: dbPath,
    workerUrl: new URL('../../src/app/runner-thread.ts', import.meta.url),
    credentials: { encrypted: false, get: () => null, set: () => {} },
    files: null,
    emit: (name, payload) => {
      for (const l of [...listeners]) if (l({ name, payload } as Event)) listeners.delete(l);
    },
    log: () => {},
  });
  onTestFinished(() => core.close());
  await core.threads?.whenReady();
  // The suggestion index built first: its build is no part of what is timed.
  await new Promise<void>((resolve) => {
    if (core.threads?.suggestionsReady) return resolve();
    listeners.add((e) => (e.name === 'suggestions.status' && e.payload.ready ? (resolve(), true) : false));
  });
  return {
    lineId,
    call: (name: string, args: unknown) => core.service.call(name, args) as Promise<Result<any>>,
    /** Resolves at the first event `matches` accepts. */
    when: (matches: (e: Event) => boolean) =>
      new Promise<void>((resolve) => listeners.add((e) => matches(e) && (resolve(), true))),
  };
}

/** `n` LDraw colours, none of them the user's 16 or the edge colour 24. */
const colours = (n: number) => Array.from({ length: n }, (_, i) => 100 + i);

describe('a preview is reading: it never holds up a write (issue 62 §1)', () => {
  it('while a model of 100,000 lines is previewed, settings.set and lines.place are each answered within 100 ms', async () => {
    const app = await startApp();
    // The writer's first calls, as a desk's day has them before: their first statements are no part of what is timed.
    await app.call('settings.set', { key: 'currency', value: 'USD' });
    await app.call('lines.place', { lineId: app.lineId, type: 'P', no: '3003', colourId: null });
    // 10,000 parts used in 10 colours: 100,000 lines to place, from a file of 400 kB.
    const model = file('big.mpd', submodelMpd(10_000, colours(10)));
    const placing = app.when((e) => e.name === 'import.progress' && e.payload.phase === 'placing');
    let previewed = false;
    const preview = app.call('import.preview', { file: model }).finally(() => (previewed = true));
    await placing;

    for (const [name, args] of [
      ['settings.set', { key: 'currency', value: 'EUR' }],
      ['lines.place', { lineId: app.lineId, type: 'P', no: '3001', colourId: null }],
      ['settings.set', { key: 'currency', value: 'USD' }],
    ] as const) {
      const t = performance.now();
      const answer = await app.call(name, args);
      const ms = performance.now() - t;
      expect(answer, name).toMatchObject({ ok: true });
      expect(ms, name).toBeLessThan(100);
    }
    expect(previewed, 'the writes were answered while the preview was still under way').toBe(false);
    expect(await preview).toMatchObject({ ok: true, value: { documents: [{ counts: { total: 100_000 } }] } });
  }, 60_000);

  it('the issue’s hostile models previewed in the app: refused in words at once, and the writer goes on', async () => {
    const app = await startApp();
    for (const [name, content] of [
      ['slashes.io', slashNamesIo()],
      ['crowd.io', manyEntriesIo(65_001)],
      ['reused.io', studioFile(submodelMpd(10_000, [16], 100_000))],
      ['colours.io', studioFile(submodelMpd(20_000, colours(1_000)))],
    ] as const) {
      const t = performance.now();
      const answer = await app.call('import.preview', { file: file(name, content) });
      expect(answer, name).toMatchObject({ ok: true, value: { refusal: { code: 'too-big' } } });
      expect(performance.now() - t, name).toBeLessThan(5_000);
      expect(await app.call('settings.set', { key: 'currency', value: 'EUR' }), name).toMatchObject({ ok: true });
    }
  }, 60_000);
});
