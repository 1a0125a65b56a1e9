import type { StoreDb } from '../../src/store/db.ts';
import { expect, it, onTestFinished } from 'vitest';
import type { CallName } from '../../src/api/contract.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import type { Clock } from '../../src/platform/clock.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { openStore } from '../../src/store/open.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { bsx, csv, file, orderXml } from '../helpers/documents.ts';
import { serviceFor } from '../helpers/service.ts';
import { insertItem } from '../helpers/store-builder.ts';
import { talliedDocuments, tallyMismatches } from '../helpers/tally.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/** A clock one minute later at each reading, so that every write has its own time. */
function ticking(): Clock {
  let t = 0;
  return { now: () => new Date(Date.UTC(2026, 3, 1, 9, t++)) };
}

/** The order list's counts as the lines themselves give them (the query the list ran before the tallies). */
function countedFromLines(db: StoreDb): unknown[] {
  return db
    .prepare(
      `SELECT o.id, count(DISTINCT d.id) AS documents, count(l.id) AS lines, count(l.item_no) AS placed,
              coalesce(sum(l.quantity), 0) AS totalQuantity, coalesce(sum(l.quantity * coalesce(l.unit_price_e4, 0)), 0) AS value
         FROM shop_order o LEFT JOIN document d ON d.order_id = o.id AND d.state = 'imported'
         LEFT JOIN order_line l ON l.document_id = d.id GROUP BY o.id ORDER BY o.id`,
    )
    .all();
}

describeEachStore("each document's tally (the order list's counts)", () => {
  it('is kept by every writer: import, hand placement, forgetting, undo, redo, take-back, revival, a catalogue load', async () => {
    const dbPath = newStoreLocation();
    const store = await openStore(dbPath);
    onTestFinished(() => store.close());
    const db = store.db;
    for (const [no, name] of [
      ['3001', 'Brick 2 x 4'],
      ['3003', 'Brick 2 x 2'],
      ['3020', 'Plate 2 x 4'],
    ] as const)
      insertItem(db, { no, name });
    const service = serviceFor(db, dbPath, { clock: ticking() });
    const call = async <T>(name: CallName, args: object): Promise<T> => {
      const r = (await service.call(name, args)) as { ok: true; value: T } | { ok: false; error: unknown };
      if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
      return r.value;
    };
    const steps: string[] = [];
    // After every write: each tally equals its lines counted afresh, and the list shows those counts.
    const check = async (what: string) => {
      steps.push(what);
      expect(tallyMismatches(db), what).toEqual([]);
      const listed = await call<
        { id: number; documents: number; lines: number; placed: number; totalQuantity: number }[]
      >('orders.list', {});
      expect(
        listed.map((o) => [o.id, o.documents, o.lines, o.placed, o.totalQuantity]),
        what,
      ).toEqual(
        (
          countedFromLines(db) as {
            id: number;
            documents: number;
            lines: number;
            placed: number;
            totalQuantity: number;
          }[]
        ).map((o) => [o.id, o.documents, o.lines, o.placed, o.totalQuantity]),
      );
    };
    const undo = async () => {
      const { undo: step } = await call<{ undo: { id: number } | null }>('history.state', {});
      await call('history.undo', { expectedStep: step?.id ?? 0 });
    };
    const redo = async () => {
      const { redo: step } = await call<{ redo: { id: number } | null }>('history.state', {});
      await call('history.redo', { expectedStep: step?.id ?? 0 });
    };

    const market = (qty: number) =>
      file(
        'Market Street.bsx',
        bsx([
          { no: '3001', qty, price: '0.25' },
          { no: '9001', name: 'Odd Brick', qty: 1, price: '1.5' },
          { no: '9001', name: 'Odd Brick', qty: 4 },
        ]),
      );
    const [marketImport] = await call<{ document: { id: number }; order: { id: number } }[]>('import.confirm', {
      file: market(2),
    });
    await check('import');
    const [order42] = await call<{ document: { id: number } }[]>('import.confirm', {
      file: file(
        'orders.xml',
        orderXml([
          { id: '42', seller: 'ann', lines: [{ no: '3001', qty: 3 }] },
          {
            id: '43',
            seller: 'bob',
            lines: [
              { no: '3003', qty: 5 },
              { no: '3020', qty: 1 },
            ],
          },
        ]),
      ),
    });
    await check('import of a file with two orders');
    await call('import.confirm', {
      file: file(
        'list.csv',
        csv(['number', 'name', 'colour', 'quantity', 'price'], [['7777', 'Brick 2 x 2', '', 6, '0.2']]),
      ),
    });
    await check('import of a line placed by its name');

    const lines = await call<{ id: number; placed: unknown }[]>('lines.list', {
      orderId: marketImport?.order.id ?? 0,
      unplacedOnly: true,
    });
    expect(lines).toHaveLength(2);
    await call('lines.place', { lineId: lines[0]?.id ?? 0, type: 'P', no: '3020', colourId: null });
    await check('a hand placement, its memory placing the other line too');
    await undo();
    await check('undo of the hand placement');
    await redo();
    await check('redo of the hand placement');
    await call('lines.place', {
      lineId: lines[0]?.id ?? 0,
      type: 'P',
      no: '3003',
      colourId: null,
      confirm: ['moves-lines'],
    });
    await check('a line placed again elsewhere, the memory moving the other line');
    const memories = await call<{ items: { id: number }[] }>('placements.list', {});
    await call('placements.forget', { kind: 'item', id: memories.items[0]?.id ?? 0 });
    await check('forgetting the memory');
    await undo();
    await check('undo of the forgetting');

    await call('documents.takeBack', { documentId: order42?.document.id ?? 0, wholeFile: true });
    await check('take-back of a whole file');
    await undo();
    await check('undo of the take-back');

    await call('documents.takeBack', { documentId: marketImport?.document.id ?? 0 });
    await check('take-back of Market Street');
    await call('import.confirm', { file: market(9) });
    await check('revival of Market Street with a new quantity');
    await undo();
    await check('undo of the revival');
    await redo();
    await check('redo of the revival');

    await loadCatalogue(
      db,
      dbPath,
      [{ name: 'parts.csv', content: bytes(files.rebrickableParts([{ no: '9001', name: 'Odd Brick' }])) }],
      { type: 'P', me: identityOf(), clock: ticking() },
    );
    await check('a catalogue load placing the unplaced lines');

    expect(talliedDocuments(db)).toBe(4);
    expect(steps).toHaveLength(16);
  });

  it('a deleted line and a deleted document leave no count behind', async () => {
    const dbPath = newStoreLocation();
    const store = await openStore(dbPath);
    onTestFinished(() => store.close());
    const db = store.db;
    insertItem(db, { no: '3001', name: 'Brick 2 x 4' });
    const service = serviceFor(db, dbPath, { clock: ticking() });
    await service.call('import.confirm', {
      file: file(
        'a.bsx',
        bsx([
          { no: '3001', qty: 2 },
          { no: '3002', qty: 5 },
        ]),
      ),
    });
    const tally = () => db.prepare('SELECT lines, placed, quantity FROM document_tally').all();
    expect(tally()).toEqual([{ lines: 2, placed: 1, quantity: 7 }]);
    db.prepare("DELETE FROM order_line WHERE given_no = '3001'").run();
    expect(tally()).toEqual([{ lines: 1, placed: 0, quantity: 5 }]);
    expect(tallyMismatches(db)).toEqual([]);
    db.pragma('foreign_keys = OFF');
    db.prepare('DELETE FROM order_line').run();
    db.prepare('DELETE FROM document').run();
    expect(tally()).toEqual([]);
  });
});
