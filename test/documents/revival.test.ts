import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import type { Clock } from '../../src/platform/clock.ts';
import type { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { confirmImport, planImport } from '../../src/documents/import.ts';
import { placeByHand } from '../../src/hand/placement.ts';
import { orderLines } from '../../src/store/lines.ts';
import { listOrders } from '../../src/store/orders.ts';
import { openStore } from '../../src/store/open.ts';
import { undoNewest } from '../helpers/history.ts';
import { bsx, file, orderXml } from '../helpers/documents.ts';
import { dumpRows, insertItem } from '../helpers/store-builder.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

let t = 0;
const clock: Clock = { now: () => new Date(Date.UTC(2026, 3, 1, 9, 0, t++)) };
const BOOKKEEPING = ['undo_step', 'undo_change', 'undo_step_catalogue', 'undo_step_desk'];

async function setUp() {
  const store = await openStore(newStoreLocation());
  onTestFinished(() => store.close());
  const db = store.db;
  for (const [no, name] of [
    ['3001', 'Brick 2 x 4'],
    ['3003', 'Brick 2 x 2'],
    ['3020', 'Plate 2 x 4'],
    ['3023', 'Plate 1 x 2'],
  ])
    insertItem(db, { no: no ?? '', name: name ?? '' });
  const v1 = bsx([
    { no: '3001', name: 'Brick 2 x 4', qty: 2 },
    { no: '9001', name: 'Odd Brick', qty: 1 },
    { no: '9002', name: 'Other Brick', qty: 5, price: '0.5' },
  ]);
  const [imported] = confirmImport(writeSession(db), { file: file('Falcon.bsx', v1) }, clock);
  const lines = orderLines(db, imported?.order.id ?? 0);
  placeByHand(writeSession(db), lines[1]?.id ?? 0, { type: 'P', no: '3003', colourId: null }, clock); // fix 9001 by hand
  placeByHand(writeSession(db), lines[2]?.id ?? 0, { type: 'P', no: '3020', colourId: null }, clock); // fix 9002 by hand
  return { db, imported, lines };
}

describeEachStore('revival (SPEC §8)', () => {
  it('importing an undone document revives it in its order, updating its lines in place and keeping hand placements where nothing changed', async () => {
    const { db, imported, lines } = await setUp();
    undoNewest(db, clock); // the second hand placement
    undoNewest(db, clock); // the first
    undoNewest(db, clock); // the import
    expect(listOrders(db, { savedOnly: true })).toEqual([]);
    const v2 = bsx([
      { no: '3001', name: 'Brick 2 x 4', qty: 4 }, // quantity changed
      { no: '9001', name: 'Odd Brick', qty: 1 }, // unchanged
      { no: '3023', name: 'Plate 1 x 2', qty: 5, price: '0.5' }, // number and name changed
    ]);
    const plan = planImport(db, { file: file('Falcon.bsx', v2) });
    expect(plan.documents[0]?.revival?.pairs.map((p) => [p.position, p.lineId, p.changed])).toEqual([
      [1, lines[0]?.id, ['quantity']],
      [2, lines[1]?.id, []],
      [3, lines[2]?.id, ['number', 'name']],
    ]);
    const [revived] = confirmImport(writeSession(db), { file: file('Falcon.bsx', v2) }, clock);
    expect(revived).toMatchObject({
      revived: true,
      order: { id: imported?.order.id },
      document: { id: imported?.document.id, state: 'imported' },
    });
    const after = orderLines(db, imported?.order.id ?? 0);
    expect(after.map((l) => l.id)).toEqual(lines.map((l) => l.id)); // same rows
    expect(after.map((l) => [l.quantity, l.placed?.no ?? null, l.placed?.by ?? null])).toEqual([
      [4, '3001', 'number'],
      [1, null, null], // the hand placement was undone with its step
      [5, '3023', 'number'],
    ]);
  });

  it('keeps a hand placement on a line whose given number and name are unchanged, and re-places one whose number changed', async () => {
    const { db, imported, lines } = await setUp();
    undoNewest(db, clock);
    undoNewest(db, clock);
    undoNewest(db, clock); // the document is undone, its hand placements taken back
    // Staff fix a line of the undone document by hand (its lines stay, so they can).
    placeByHand(writeSession(db), lines[1]?.id ?? 0, { type: 'P', no: '3003', colourId: null }, clock);
    placeByHand(writeSession(db), lines[2]?.id ?? 0, { type: 'P', no: '3020', colourId: null }, clock);
    const v2 = bsx([
      { no: '3001', name: 'Brick 2 x 4', qty: 2 },
      { no: '9001', name: 'Odd Brick', qty: 3 }, // quantity changed, number and name not: the hand placement stays
      { no: '9009', name: 'Other Brick', qty: 5, price: '0.5' }, // number changed: placed again
    ]);
    confirmImport(writeSession(db), { file: file('Falcon.bsx', v2) }, clock);
    const after = orderLines(db, imported?.order.id ?? 0);
    expect(after.map((l) => l.id)).toEqual(lines.map((l) => l.id));
    expect(after.map((l) => [l.quantity, l.placed?.no ?? null, l.placed?.by ?? null, l.reason?.text ?? null])).toEqual([
      [2, '3001', 'number', null],
      [3, '3003', 'hand', null],
      [5, null, null, 'The BrickLink number is not in the catalogue'],
    ]);
  });

  it('refuses a file whose line count differs, naming the positions that do not pair; --as-new imports it beside the undone one', async () => {
    const { db, imported } = await setUp();
    undoNewest(db, clock);
    undoNewest(db, clock);
    undoNewest(db, clock);
    const longer = bsx([{ no: '3001' }, { no: '9001' }, { no: '9002' }, { no: '3003' }, { no: '3020' }]);
    const before = dumpRows(db);
    let refusal: unknown;
    try {
      confirmImport(writeSession(db), { file: file('Falcon.bsx', longer) }, clock);
    } catch (e) {
      refusal = e;
    }
    expect((refusal as BrickWorkError).code).toBe('lines-do-not-pair');
    expect((refusal as BrickWorkError).message).toBe(
      'Falcon.bsx was undone with 3 lines and this file has 5: lines pair by position, so positions 4–5 have no partner. Import the file as a new document instead (--as-new); the undone one stays undone.',
    );
    expect(dumpRows(db)).toEqual(before);
    const [asNew] = confirmImport(writeSession(db), { file: file('Falcon.bsx', longer), asNew: true }, clock);
    expect(asNew).toMatchObject({ revived: false, lines: { total: 5 } });
    expect(asNew?.document.id).not.toBe(imported?.document.id);
    expect(db.prepare('SELECT state FROM document WHERE id = ?').pluck().get(imported?.document.id)).toBe('undone');
  });

  it('Undo of a revival puts every row back exactly as it was', async () => {
    const { db, imported } = await setUp();
    undoNewest(db, clock);
    undoNewest(db, clock);
    undoNewest(db, clock);
    const before = dumpRows(db, BOOKKEEPING);
    confirmImport(
      writeSession(db),
      {
        file: file(
          'Falcon.bsx',
          bsx([
            { no: '3001', qty: 9 },
            { no: '3003', qty: 8 },
            { no: '3020', qty: 7, remarks: 'new' },
          ]),
        ),
      },
      clock,
    );
    expect(dumpRows(db, BOOKKEEPING)).not.toEqual(before);
    expect(undoNewest(db, clock).label).toBe('Revival of Falcon.bsx');
    expect(dumpRows(db, BOOKKEEPING)).toEqual(before);
    expect(db.prepare('SELECT state FROM document WHERE id = ?').pluck().get(imported?.document.id)).toBe('undone');
  });

  it('revives into its order through the header and currency checks of a chosen order', async () => {
    const { db } = await setUp();
    const [r] = confirmImport(
      writeSession(db),
      { file: file('o.xml', orderXml([{ id: '77', seller: 'ann', currency: 'EUR', lines: [{ no: '3001' }] }])) },
      clock,
    );
    undoNewest(db, clock);
    let refusal: unknown;
    try {
      confirmImport(
        writeSession(db),
        { file: file('o.xml', orderXml([{ id: '77', seller: 'ann', currency: 'USD', lines: [{ no: '3001' }] }])) },
        clock,
      );
    } catch (e) {
      refusal = e;
    }
    expect((refusal as BrickWorkError).code).toBe('currency-mismatch');
    expect((refusal as BrickWorkError).message).toBe(`The file is in USD, but order 77 (#${r?.order.id}) is in EUR.`);
  });
});
