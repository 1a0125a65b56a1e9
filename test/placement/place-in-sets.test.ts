import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { takeBack } from '../../src/documents/take-back.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { askToPlaceAgain, placeNextBatch, placingAgain } from '../../src/placement/place-lines.ts';
import type { StoreDb } from '../../src/store/db.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { csv, file } from '../helpers/documents.ts';
import { insertColour } from '../helpers/store-builder.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/** The store, counting each statement it runs (a round trip each on a server). */
function counting(db: StoreDb): { db: StoreDb; runs: () => string[] } {
  const runs: string[] = [];
  const wrap = (statement: object, sql: string): object =>
    new Proxy(statement, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (['run', 'get', 'all', 'iterate'].includes(String(name)))
          return (...args: unknown[]) => {
            runs.push(sql);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        if (['pluck', 'raw', 'expand'].includes(String(name)))
          return (...args: unknown[]) => wrap((value as (...a: unknown[]) => object).apply(target, args), sql);
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
  const counted = new Proxy(db, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name === 'prepare') return (sql: string) => wrap((value as (s: string) => object).call(target, sql), sql);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as StoreDb;
  return { db: counted, runs: () => runs };
}

/**
 * Issue 45, point 4: the lines a catalogue load places again are placed in sets — read and written a
 * batch a statement, not a line a statement (on a server, a round trip each) — skipping undone
 * documents' lines, and saying how far it has come.
 */
describeEachStore('lines placed again in sets', (stores) => {
  it('6,000 lines in a few dozen statements, not thousands; an undone document’s lines left as they were; progress said', async () => {
    const location = newStoreLocation();
    const store = await openStore(location);
    onTestFinished(() => store.close());
    const { db } = store;
    await loadCatalogue(
      db,
      location,
      [{ name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '3001', name: 'Brick 2 x 4' }])) }],
      { type: 'P', me: identityOf(), clock: SYSTEM_CLOCK },
    );
    const rows = (n: number, colour: number) => Array.from({ length: n }, () => ['3001', 'Brick 2 x 4', colour, 1]);
    const header = ['number', 'name', 'colour', 'quantity'];
    confirmImport(
      writeSession(db),
      { file: file('kept.csv', csv(header, rows(6000, 5))), colourNumbering: 'bricklink' },
      SYSTEM_CLOCK,
    );
    const [undone] = confirmImport(
      writeSession(db),
      { file: file('undone.csv', csv(header, rows(10, 999))), colourNumbering: 'bricklink' },
      SYSTEM_CLOCK,
    );
    takeBack(writeSession(db), undone?.document.id ?? 0, {}, SYSTEM_CLOCK);
    const undoneLines = () =>
      db
        .prepare(
          'SELECT item_no, colour_id, placed_by, unplaced_reason FROM order_line WHERE document_id = ? ORDER BY id',
        )
        .raw()
        .all(undone?.document.id ?? 0);
    const before = undoneLines();
    expect(before.length).toBe(10);

    // BrickLink's colours arrive: Red is 5; 999 is no colour of theirs.
    insertColour(db, { id: 5, name: 'Red' });
    const { db: counted, runs } = counting(db);
    db.transaction(() => askToPlaceAgain(counted, ['coloured']))();
    const run = placingAgain();
    let batches = 0;
    // A batch a transaction, as a load places them (issue 45): each commits with how far it got.
    while (db.transaction(() => placeNextBatch(counted, run))()) batches += 1;
    expect(batches).toBe(2);
    expect(run.tally.lines).toBe(6000);
    expect(run.tally.placed).toBe(6000);
    // The lines: read and written a batch a statement (the old way: a read and a write a line, 12,000).
    expect(runs().filter((sql) => /order_line/.test(sql)).length).toBeLessThanOrEqual(5);
    // On a server the catalogue's answers are read ahead too, and the second batch's lines being the
    // first's again, nothing is read twice; beside them each batch reads and moves how far it got and
    // the store's data version: 16 statements in all for two batches, however many lines. A SQLite store,
    // in-process, asks its catalogue line by line: no round trips to save.
    if (stores.kind === 'postgres') expect(runs().length).toBeLessThanOrEqual(16);
    expect(undoneLines()).toEqual(before); // a revival places them afresh
    expect(
      db
        .prepare('SELECT count(*) FROM order_line WHERE colour_id = 5 AND placed_by IS NOT NULL AND document_id <> ?')
        .pluck()
        .get(undone?.document.id ?? 0),
    ).toBe(6000);
  });
});
