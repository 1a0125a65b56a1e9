import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { orderLines } from '../../src/store/lines.ts';
import { listOrders } from '../../src/store/orders.ts';
import { colourMemories, itemMemories } from '../../src/store/memories.ts';
import { openStore } from '../../src/store/open.ts';
import { catalogueGeneration } from '../../src/store/settings.ts';
import { cliJson } from '../helpers/cli.ts';
import { buildEarly090Store } from '../helpers/early-store.ts';
import { redoNext } from '../helpers/history.ts';
import {
  dumpRows,
  insertColour,
  insertDocument,
  insertHandPlacement,
  insertItem,
  insertLine,
  insertOrder,
  normalisedSchema,
  type Db,
} from '../helpers/store-builder.ts';
import { talliedDocuments, tallyMismatches } from '../helpers/tally.ts';
import { tempDir } from '../helpers/temp.ts';

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const NOW = '2026-01-01T00:00:00.000Z';

/**
 * What an early 0.9.0 build left: a memory 4073 → 6141 that kept White and forced it on the Tan and
 * Black lots; a hand placement that chose Red for colour 999, which the catalogue does not know; and an
 * import, since undone, whose line was forced White too (its redo is still in the history).
 */
function earlyStoreWithForcedColours(file: string): { lines: Record<string, number> } {
  const db = buildEarly090Store(file);
  for (const [no, name] of [
    ['3001', 'Brick 2 x 4'],
    ['6141', 'Plate Round 1 x 1'],
  ] as const)
    insertItem(db, { no, name });
  for (const [id, name] of [
    [1, 'White'],
    [2, 'Tan'],
    [5, 'Red'],
    [11, 'Black'],
  ] as const)
    insertColour(db, { id, name });
  insertHandPlacement(db, { givenNo: '4073', item: { type: 'P', no: '6141' }, colourId: 1 });
  const orderA = insertOrder(db, { reference: 'Market Street' });
  const docA = insertDocument(db, { orderId: orderA, key: 'market.bsx' });
  const lines = {
    white: insertLine(db, {
      documentId: docA,
      position: 1,
      given: { no: '4073', colourId: 1 },
      placed: { type: 'P', no: '6141', colourId: 1, by: 'hand' },
    }),
    tan: insertLine(db, {
      documentId: docA,
      position: 2,
      given: { no: '4073', colourId: 2 },
      placed: { type: 'P', no: '6141', colourId: 1, by: 'remembered' },
    }),
    black: insertLine(db, {
      documentId: docA,
      position: 3,
      given: { no: '4073', colourId: 11 },
      placed: { type: 'P', no: '6141', colourId: 1, by: 'remembered' },
    }),
    chosen: insertLine(db, {
      documentId: docA,
      position: 4,
      given: { no: '3001', colourId: 999 },
      placed: { type: 'P', no: '3001', colourId: 5, by: 'hand' },
    }),
    waiting: insertLine(db, { documentId: docA, position: 5, given: { no: '3001', colourId: 999 } }),
  };
  db.prepare("UPDATE order_line SET unplaced_reason = 'The colour is not in the catalogue' WHERE id = ?").run(
    lines.waiting,
  );
  const orderB = insertOrder(db, { reference: 'later' });
  const docB = insertDocument(db, { orderId: orderB, key: 'later.bsx', state: 'undone' });
  const undoneLine = insertLine(db, {
    documentId: docB,
    position: 1,
    given: { no: '4073', colourId: 2 },
    placed: { type: 'P', no: '6141', colourId: 1, by: 'remembered' },
  });
  // The history: the import of later.bsx, undone (so Redo would put it back).
  const step = Number(
    db
      .prepare(
        "INSERT INTO undo_step (kind, label, state, created_at) VALUES ('import', 'Import of later.bsx', 'undone', ?)",
      )
      .run(NOW).lastInsertRowid,
  );
  db.prepare('INSERT INTO undo_change (step_id, table_name, row_id, before, after) VALUES (?, ?, ?, ?, ?)').run(
    step,
    'document',
    docB,
    JSON.stringify({ state: 'undone', undone_at: { $now: true } }),
    JSON.stringify({ state: 'imported', undone_at: null }),
  );
  db.prepare('INSERT INTO undo_step_catalogue (step_id, generation) VALUES (?, ?)').run(step, catalogueGeneration(db));
  db.close();
  return { lines: { ...lines, undone: undoneLine } };
}

function placement(db: Db, id: number) {
  return db.prepare('SELECT item_no, colour_id, placed_by, unplaced_reason FROM order_line WHERE id = ?').get(id);
}

describe('the 0.9.0 fix-up of stores that early builds wrote (issue 9)', () => {
  it('a read-only open reads such a store as it is, the new tables empty, and changes nothing', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    earlyStoreWithForcedColours(file);
    const before = sha(file);
    const store = await openStore(file, { readOnly: true });
    expect(colourMemories(store.db)).toEqual([]);
    expect(orderLines(store.db, 1).map((l) => l.placed?.colour)).toEqual([1, 1, 1, 5, undefined]);
    // Without its tally table, the order list still counts every saved line (from the lines themselves).
    expect(listOrders(store.db).map((o) => [o.reference, o.lines, o.placed, o.state])).toEqual([
      ['Market Street', 5, 4, 'open'],
      ['later', 0, 0, 'undone'],
    ]);
    store.close();
    const listed = await cliJson(['--db', file, 'placements']);
    expect(listed.json).toMatchObject({ items: [{ given: { no: '4073' } }], colours: [] });
    expect(sha(file)).toBe(before);
  });

  it('the first read-write open repairs it once, in one transaction: own colours, colour placements, the new tables', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'brick-work.sqlite');
    const { lines } = earlyStoreWithForcedColours(file);
    const store = await openStore(file);
    const db = store.db;

    // The same schema as a store this build makes.
    const fresh = await openStore(path.join(dir, 'fresh.sqlite'));
    expect(normalisedSchema(db)).toEqual(normalisedSchema(fresh.db));
    fresh.close();

    expect(placement(db, lines['white'] ?? 0)).toEqual({
      item_no: '6141',
      colour_id: 1,
      placed_by: 'hand',
      unplaced_reason: null,
    });
    expect(placement(db, lines['tan'] ?? 0)).toEqual({
      item_no: '6141',
      colour_id: 2,
      placed_by: 'remembered',
      unplaced_reason: null,
    });
    expect(placement(db, lines['black'] ?? 0)).toEqual({
      item_no: '6141',
      colour_id: 11,
      placed_by: 'remembered',
      unplaced_reason: null,
    });
    expect(placement(db, lines['chosen'] ?? 0)).toEqual({
      item_no: '3001',
      colour_id: 5,
      placed_by: 'hand',
      unplaced_reason: null,
    });
    // The colour staff chose for 999 became a colour placement, and the line waiting for it is placed.
    expect(colourMemories(db)).toMatchObject([
      { given: { numbering: 'bricklink-id', colourId: 999 }, colour: { id: 5, name: 'Red' } },
    ]);
    expect(placement(db, lines['waiting'] ?? 0)).toEqual({
      item_no: '3001',
      colour_id: 5,
      placed_by: 'number',
      unplaced_reason: null,
    });
    // The old memory colour is gone; the memory keeps its item.
    expect(db.prepare('SELECT colour_id FROM hand_placement').pluck().all()).toEqual([null]);
    expect(itemMemories(db)).toMatchObject([{ given: { no: '4073' }, item: { no: '6141' } }]);
    // Each document's tally is made and kept while the fix-up placed lines again.
    expect(talliedDocuments(db)).toBe(2);
    expect(tallyMismatches(db)).toEqual([]);
    expect(listOrders(db).map((o) => [o.reference, o.lines, o.placed])).toEqual([
      ['Market Street', 5, 5],
      ['later', 0, 0],
    ]);
    // Not an undo step.
    expect(db.prepare('SELECT count(*) FROM undo_step').pluck().get()).toBe(1);
    expect(db.prepare("SELECT value FROM setting WHERE key = 'fixup.colour-memory-0.9.0'").pluck().get()).toBe('done');

    // Redoing the old import can't bring the forced colour back: its line is placed under the new rule.
    expect(placement(db, lines['undone'] ?? 0)).toMatchObject({ colour_id: 1 });
    redoNext(db, SYSTEM_CLOCK);
    expect(placement(db, lines['undone'] ?? 0)).toEqual({
      item_no: '6141',
      colour_id: 2,
      placed_by: 'remembered',
      unplaced_reason: null,
    });
    expect(listOrders(db).map((o) => [o.reference, o.lines, o.placed])).toEqual([
      ['Market Street', 5, 5],
      ['later', 1, 1],
    ]);
    store.close();

    // Once only: the next open changes nothing.
    const again = await openStore(file);
    const dump = dumpRows(again.db);
    again.close();
    const third = await openStore(file);
    expect(dumpRows(third.db)).toEqual(dump);
    third.close();
  });

  it('a store this build makes, or upgrades from 4.1, is marked repaired at once and never touched by the fix-up', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    const store = await openStore(file);
    expect(store.db.prepare("SELECT value FROM setting WHERE key = 'fixup.colour-memory-0.9.0'").pluck().get()).toBe(
      'done',
    );
    store.close();
  });

  it('a fix-up that fails leaves the file exactly as it was', async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    earlyStoreWithForcedColours(file);
    // A trigger that makes the fix-up fail half-way, after it has created tables and written rows.
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(file);
    raw.exec(
      "CREATE TRIGGER fail_fixup BEFORE UPDATE ON order_line WHEN NEW.placed_by = 'remembered' BEGIN SELECT RAISE(ABORT, 'disk trouble'); END",
    );
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const before = sha(file);
    const beforeRows = (() => {
      const r = new Database(file, { readonly: true });
      const d = dumpRows(r);
      r.close();
      return d;
    })();
    await expect(openStore(file)).rejects.toThrow(/disk trouble/);
    const r = new Database(file, { readonly: true });
    expect(dumpRows(r)).toEqual(beforeRows);
    expect(r.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'colour_placement'").pluck().get()).toBe(0);
    r.close();
    expect(sha(file)).toBe(before);
  });

  it("a store of a 0.9.0 build before the documents' tallies: read-only it counts from the lines, read-write it gets them", async () => {
    const file = path.join(tempDir(), 'brick-work.sqlite');
    const made = await openStore(file);
    const db = made.db;
    insertItem(db, { no: '3001', name: 'Brick 2 x 4' });
    const order = insertOrder(db, { reference: 'Harbour Road' });
    const doc = insertDocument(db, { orderId: order, key: 'harbour.bsx' });
    insertLine(db, {
      documentId: doc,
      position: 1,
      given: { no: '3001' },
      quantity: 3,
      priceE4: 1500,
      placed: { type: 'P', no: '3001', by: 'number' },
    });
    insertLine(db, { documentId: doc, position: 2, given: { no: '9999' }, quantity: 2, priceE4: 100 });
    // What that build wrote: the same store, without the tally and its triggers.
    db.exec(
      'DROP TRIGGER document_tally_line_insert; DROP TRIGGER document_tally_line_delete; DROP TRIGGER document_tally_line_update; DROP TRIGGER document_tally_document_delete; DROP TABLE document_tally',
    );
    made.close();
    const counts = (d: Db) =>
      listOrders(d).map((o) => [o.lines, o.placed, o.unplaced, o.totalQuantity, o.totalValueE4]);

    const before = sha(file);
    const reading = await openStore(file, { readOnly: true });
    expect(counts(reading.db)).toEqual([[2, 1, 1, 5, 4700]]);
    reading.close();
    expect(sha(file)).toBe(before);

    const writing = await openStore(file);
    expect(counts(writing.db)).toEqual([[2, 1, 1, 5, 4700]]);
    const fresh = await openStore(path.join(tempDir(), 'fresh.sqlite'));
    expect(normalisedSchema(writing.db)).toEqual(normalisedSchema(fresh.db));
    fresh.close();
    // …and keeps them from then on.
    insertLine(writing.db, {
      documentId: doc,
      position: 3,
      given: { no: '3001' },
      quantity: 1,
      placed: { type: 'P', no: '3001', by: 'number' },
    });
    expect(counts(writing.db)).toEqual([[3, 2, 1, 6, 4700]]);
    expect(tallyMismatches(writing.db)).toEqual([]);
    writing.close();
  });
});
