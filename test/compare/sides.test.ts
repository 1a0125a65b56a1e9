import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import { expect, it } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { compareSides } from '../../src/compare/compare.ts';
import { readSide } from '../../src/compare/sides.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { csv, file } from '../helpers/documents.ts';
import {
  dumpRows,
  insertColour,
  insertDocument,
  insertItem,
  insertLine,
  insertOrder,
  storeWithCatalogue,
} from '../helpers/store-builder.ts';
import { linePagesToCompare } from '../../src/store/lines.ts';
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
    const [imported] = confirmImport(writeSession(db), { file: ordered }, SYSTEM_CLOCK);
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

// Issue 61 §6: a saved side is read a page at a time (a range of one document's positions); every line
// comes once, in the documents' order and each document's order, whatever gaps its positions have.
describeEachStore('a saved side, read in pages', () => {
  it('every line of the order once, in order, no page longer than asked; an undone document left out', async () => {
    const { db } = await storeWithCatalogue();
    const orderId = insertOrder(db, { reference: 'paged' });
    const first = insertDocument(db, { orderId, key: 'first' });
    const undone = insertDocument(db, { orderId, key: 'undone', state: 'undone' });
    const second = insertDocument(db, { orderId, key: 'second' });
    const positions = { [first]: [1, 2, 3, 4, 7, 8, 100, 101], [undone]: [1, 2], [second]: [6, 5, 4, 3, 2, 1] };
    for (const [doc, at] of Object.entries(positions))
      for (const position of at)
        insertLine(db, { documentId: Number(doc), position, given: { no: `${doc}-${position}` }, quantity: 1 });
    const given = (pages: Iterable<readonly (readonly unknown[])[]>) => [...pages].map((p) => p.map((l) => l[1]));

    const pages = given(linePagesToCompare(db, { orderId }, 3));
    expect(pages.every((p) => p.length > 0 && p.length <= 3)).toBe(true);
    const inOrder = [
      ...[1, 2, 3, 4, 7, 8, 100, 101].map((at) => `${first}-${at}`),
      ...[1, 2, 3, 4, 5, 6].map((at) => `${second}-${at}`),
    ];
    expect(pages.flat()).toEqual(inOrder);
    // One page is one document's: a page never runs from one document into the next.
    expect(pages.every((p) => p.every((no) => String(no).split('-')[0] === String(p[0]).split('-')[0]))).toBe(true);
    expect(given(linePagesToCompare(db, { documentId: undone }, 1)).flat()).toEqual([`${undone}-1`, `${undone}-2`]);
    // The side as the compare reads it: the same lines, in pages of the store's own size.
    const side = readSide(db, { kind: 'order', orderId });
    expect([...side.lines()].map((l) => l[1])).toEqual(inOrder);
    expect([...side.pages()].flat().map((l) => l[1])).toEqual(inOrder);
  });
});
