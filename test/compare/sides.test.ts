import fs from 'node:fs';
import { expect, it } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/clock.ts';
import { compareSides } from '../../src/compare/compare.ts';
import { readSide } from '../../src/compare/sides.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { csv, file } from '../helpers/documents.ts';
import { dumpRows, insertColour, insertItem, storeWithCatalogue } from '../helpers/store-builder.ts';
import { sha256 } from '../helpers/temp.ts';
import { describeEachStore } from '../helpers/stores.ts';

const HEADER = ['number', 'name', 'color id', 'quantity', 'price'];

// Issue 28 (SPEC §13): the sides are read and placed as an import's preview would be, and nothing is written.
describeEachStore('the sides of a compare', () => {
  it('an order, one of its documents, and a file not imported: groups as the lines are, the store unchanged', async () => {
    const { db, dbPath } = await storeWithCatalogue();
    insertItem(db, { no: '3020', name: 'Plate 2 x 4' });
    insertColour(db, { id: 11, name: 'Black' });
    const ordered = file(
      'ordered.csv',
      csv(HEADER, [
        ['3001', 'Brick 2 x 4', 5, 10, '0.10'],
        ['3003', 'Brick 2 x 2', 5, 4, '0.05'],
        ['3020', 'Plate 2 x 4', 11, 2, '0.20'],
        ['x77', 'Mystery part', 5, 1, '1.00'],
      ]),
    );
    const [imported] = confirmImport(db, { file: ordered }, SYSTEM_CLOCK);
    if (!imported) throw new Error('not imported');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const files = [dbPath, `${dbPath}-wal`].map((f) => (fs.existsSync(f) ? sha256(f) : null));
    const rows = dumpRows(db);

    // What arrived: one brick short, no plates, a part not ordered, and the mystery part by name only.
    const arrived = file(
      'arrived.csv',
      csv(HEADER, [
        ['3001', 'Brick 2 x 4', 5, 9, '0.10'],
        ['3003', 'Brick 2 x 2', 5, 4, '0.06'],
        ['3003', 'Brick 2 x 2', 11, 2, '0.05'],
        ['x77', 'Mystery part', 5, 1, '1.00'],
      ]),
    );
    const order = readSide(db, { kind: 'order', orderId: imported.order.id });
    const doc = readSide(db, { kind: 'document', documentId: imported.document.id });
    const fileSide = readSide(db, { kind: 'file', file: arrived });
    expect(order.label).toBe(`order ${imported.order.reference}`);
    expect(fileSide.label).toBe('file arrived.csv');
    expect([...doc.lines()]).toEqual([...order.lines()]);
    // Read anew on each call.
    expect([...order.lines()]).toEqual([...order.lines()]);
    expect([...order.lines()]).toHaveLength(4);

    const r = compareSides(order.lines(), fileSide.lines(), { prices: true });
    const show = (xs: readonly { item: { no: string; colour: number | null } | null; left: number; right: number }[]) =>
      xs.map((x) => `${x.item?.no}/${x.item?.colour}: ${x.left}→${x.right}`);
    expect(show(r.quantityDiffers)).toEqual(['3001/5: 10→9']);
    expect(show(r.onlyLeft)).toEqual(['3020/11: 2→0']);
    expect(show(r.onlyRight)).toEqual(['3003/11: 0→2']);
    expect(show(r.same)).toEqual(['3003/5: 4→4']);
    expect(r.priceDiffers.map((x) => [x.item?.no, x.leftUnitPriceE4, x.rightUnitPriceE4])).toEqual([
      ['3003', 500, 600],
    ]);
    expect(r.unplaced.map((x) => [x.given.no, x.left, x.right])).toEqual([['x77', 1, 1]]);
    expect(r.totals).toMatchObject({
      left: { lots: 4, pieces: 17 },
      right: { lots: 4, pieces: 16 },
      missing: 1 + 2,
      extra: 2,
      missingValueE4: 1 * 1000 + 2 * 2000,
      extraValueE4: 2 * 500,
    });

    // Nothing was written: not a row, not a byte.
    expect(dumpRows(db)).toEqual(rows);
    expect([dbPath, `${dbPath}-wal`].map((f) => (fs.existsSync(f) ? sha256(f) : null))).toEqual(files);
  });

  it('a file that is not an order document is refused as its import would be', async () => {
    const { db } = await storeWithCatalogue();
    expect(() => readSide(db, { kind: 'file', file: file('model.io', new Uint8Array([0x50, 0x4b, 3, 4])) })).toThrow(
      expect.objectContaining({ code: 'parse-error' }),
    );
  });
});
