import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport, planImport } from '../../src/documents/import.ts';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { UNPLACED_REASONS } from '../../src/vocabulary/reasons.ts';
import { orderLines } from '../../src/store/lines.ts';
import { openStore } from '../../src/store/open.ts';
import { bsx, csv, file, inventoryXml, orderXml } from '../helpers/documents.ts';
import { SHARED_DATA, sharedFile } from '../helpers/shared-data.ts';
import { insertColour, insertItem } from '../helpers/store-builder.ts';
import { needs } from '../helpers/needs.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

async function shopStore() {
  const store = await openStore(newStoreLocation());
  onTestFinished(() => store.close());
  const db = store.db;
  insertItem(db, { no: '3001', name: 'Brick 2 x 4' });
  insertItem(db, { no: '3003', name: 'Brick 2 x 2' });
  insertItem(db, { no: '3020', name: 'Plate 2 x 4' });
  insertItem(db, { no: '3023', name: 'Plate 1 x 2' });
  insertItem(db, { type: 'M', no: 'sw0001a', name: 'Luke Skywalker (Tatooine)' });
  insertColour(db, { id: 5, name: 'Red' });
  insertColour(db, { id: 11, name: 'Black' });
  insertColour(db, { id: 86, name: 'Light Bluish Gray' });
  return db;
}

describeEachStore('importing each format (SPEC §8)', () => {
  it('BrickLink order XML, with BrickLink’s own defects: a comma in QTY, a bare &, no declaration, remarks escaped twice', async () => {
    const db = await shopStore();
    const text = orderXml(
      [
        {
          id: '8123456',
          seller: 'Bricks & Pieces',
          date: '3/7/2026',
          currency: 'EUR',
          lines: [
            { no: '3001', colour: 5, qty: '1,752', price: '0.0825', remarks: 'bin &amp;lt;A7&amp;gt;' },
            { type: 'M', no: 'sw0001a', qty: 1, price: '12.5', condition: 'U' },
            { no: '99999', colour: 11, qty: 3 },
          ],
        },
      ],
      { declaration: false },
    ).replace('Bricks &amp; Pieces', 'Bricks & Pieces');
    const [result] = confirmImport(writeSession(db), { file: file('order.xml', text) }, SYSTEM_CLOCK);
    expect(result).toMatchObject({
      document: { key: 'bricklink-order:8123456', state: 'imported' },
      order: { reference: '8123456', currency: 'EUR' },
      lines: { total: 3, placed: 2, unplaced: 1 },
      revived: false,
    });
    expect(
      db.prepare('SELECT reference, counterparty, counterparty_role, currency, order_date FROM shop_order').get(),
    ).toEqual({
      reference: '8123456',
      counterparty: 'Bricks & Pieces',
      counterparty_role: 'seller',
      currency: 'EUR',
      order_date: '2026-03-07',
    });
    const lines = orderLines(db, result?.order.id ?? 0);
    expect(
      lines.map((l) => [
        l.quantity,
        l.unitPriceE4,
        l.condition,
        l.remarks,
        l.placed?.no ?? null,
        l.reason?.text ?? null,
      ]),
    ).toEqual([
      [1752, 825, 'N', 'bin <A7>', '3001', null],
      [1, 125000, 'U', null, 'sw0001a', null],
      [3, 1000, 'N', null, null, UNPLACED_REASONS.numberNotInCatalogue],
    ]);
  });

  it('a BrickLink file with several ORDERs: several documents, imported together', async () => {
    const db = await shopStore();
    const text = orderXml([
      { id: '1', buyer: 'ann', lines: [{ no: '3001' }] },
      { id: '2', buyer: 'bob', currency: 'GBP', lines: [{ no: '3003' }, { no: '3020' }] },
    ]);
    const results = confirmImport(writeSession(db), { file: file('orders.xml', text) }, SYSTEM_CLOCK);
    expect(results.map((r) => [r.document.key, r.order.reference, r.order.currency, r.lines.total])).toEqual([
      ['bricklink-order:1', '1', 'USD', 1],
      ['bricklink-order:2', '2', 'GBP', 2],
    ]);
    expect(db.prepare('SELECT count(*) FROM undo_step').pluck().get()).toBe(1);
  });

  it('BrickLink XML: a mass upload and a wanted list (MINQTY, MAXPRICE -1 meaning none)', async () => {
    const db = await shopStore();
    const [upload] = confirmImport(
      writeSession(db),
      { file: file('upload.xml', inventoryXml([{ no: '3001', colour: 86, qty: 40, price: '0.125' }])) },
      SYSTEM_CLOCK,
    );
    expect(upload).toMatchObject({
      document: { key: 'upload.xml' },
      order: { reference: 'upload.xml', currency: 'USD' },
      lines: { placed: 1 },
    });
    const wanted = readDocumentFile(
      file(
        'wanted.xml',
        inventoryXml(
          [
            { no: '3003', qty: 5 },
            { no: '3020', qty: 2, price: '0.3' },
          ],
          true,
        ),
      ),
    )[0];
    expect(wanted?.lines.map((l) => [l.quantity, l.unitPriceE4])).toEqual([
      [5, null],
      [2, 3000],
    ]);
  });

  it('BrickStore .bsx with its DOCTYPE, names, colour names, lots at 0, and no ItemName on some lines', async () => {
    const db = await shopStore();
    const text = bsx([
      { no: '3001', name: 'Brick 2 x 4', colour: 5, colourName: 'Red', qty: 0, price: '0.383' },
      { no: '3001old', name: 'Brick 2 x 2', colour: 11, qty: 4 },
      { no: '4444', colour: 86, qty: 2, remarks: 'PAB 4211050' },
    ]);
    const [result] = confirmImport(writeSession(db), { file: file('Market Street.bsx', text) }, SYSTEM_CLOCK);
    expect(result).toMatchObject({
      document: { key: 'Market Street.bsx' },
      lines: { total: 3, placed: 2, unplaced: 1 },
    });
    const lines = orderLines(db, result?.order.id ?? 0);
    expect(lines.map((l) => [l.quantity, l.unitPriceE4, l.placed?.no ?? null, l.placed?.by ?? null])).toEqual([
      [0, 3830, '3001', 'number'],
      [4, 0, '3003', 'name'],
      [2, 0, null, null],
    ]);
    expect(lines[2]?.remarks).toBe('PAB 4211050');
  });

  it('CSV: BrickStore columns, Rebrickable part lists, plain lists; comma, semicolon or tab; with or without BOM', async () => {
    const db = await shopStore();
    const brickstore = csv(
      ['ItemID', 'ItemTypeID', 'ColorID', 'ItemName', 'Qty', 'Price', 'Condition', 'Remarks'],
      [['3001', 'P', 5, 'Brick 2 x 4', 3, '0.25', 'N', 'top shelf']],
    );
    const rebrickable = csv(
      ['Part', 'Color', 'Quantity'],
      [
        ['3001', 4, 10],
        ['3020', 0, 2],
      ],
    );
    const plain = `\uFEFF${csv(
      ['number', 'name', 'colour', 'quantity', 'price'],
      [
        ['3023', 'Plate 1 x 2', 'Black', 7, '0,0450'],
        ['', 'brick 2 x 2', 11, 1, '1'],
      ],
      ';',
    )}`;
    const tabbed = csv(['Part #', 'Description', 'Color', 'Qty.'], [['3003', 'Brick 2 x 2', 'Red', 2]], '\t');

    const a = readDocumentFile(file('bs.csv', brickstore))[0];
    expect(a?.lines[0]).toMatchObject({
      given: { type: 'P', no: '3001', name: 'Brick 2 x 4', colourId: 5 },
      quantity: 3,
      unitPriceE4: 2500,
      remarks: 'top shelf',
    });
    const b = readDocumentFile(file('rb.csv', rebrickable))[0];
    expect(b?.lines.map((l) => [l.given.no, l.given.colourId, l.given.colourName, l.quantity])).toEqual([
      ['3001', null, 'Rebrickable colour 4', 10],
      ['3020', null, 'Rebrickable colour 0', 2],
    ]);
    const c = readDocumentFile(file('plain.csv', plain))[0];
    expect(
      c?.lines.map((l) => [l.given.no, l.given.name, l.given.colourId, l.given.colourName, l.quantity, l.unitPriceE4]),
    ).toEqual([
      ['3023', 'Plate 1 x 2', null, 'Black', 7, 450],
      [null, 'brick 2 x 2', 11, null, 1, 10000],
    ]);
    const d = readDocumentFile(file('tab.txt', tabbed))[0];
    expect(d?.lines[0]?.given).toMatchObject({ no: '3003', name: 'Brick 2 x 2', colourName: 'Red' });

    // Its bare colour column holds a number with no name beside it: read as BrickLink's once acknowledged.
    const [r] = confirmImport(
      writeSession(db),
      { file: file('plain.csv', plain), acknowledge: ['colour-numbering-guessed'] },
      SYSTEM_CLOCK,
    );
    expect(orderLines(db, r?.order.id ?? 0).map((l) => [l.placed?.no ?? null, l.placed?.colour ?? null])).toEqual([
      ['3023', 11],
      ['3003', 11],
    ]);
  });

  it('an XML document that declares ISO-8859-1 is decoded and imported', async () => {
    const db = await shopStore();
    const latin1 = Buffer.from(
      `<?xml version="1.0" encoding="ISO-8859-1"?>\n${bsx([{ no: '3001', name: 'Brick 2 x 4', colour: 5, remarks: 'Caf\u00e9 \u00bd' }]).replace(/^<\?xml[^>]*>\n/, '')}`,
      'latin1',
    );
    const [r] = confirmImport(writeSession(db), { file: file('latin.bsx', latin1) }, SYSTEM_CLOCK);
    expect(orderLines(db, r?.order.id ?? 0)[0]?.remarks).toBe('Café ½');
  });

  it('an XML document that declares Windows-1252 keeps its dash, euro, trademark and quotes (issue 45)', async () => {
    const db = await shopStore();
    const name = 'Stein \u2013 2 \u00d7 4 \u20ac \u2122 \u201cquoted\u201d';
    const body = bsx([{ no: '3001', name, colour: 5, remarks: '\u2018Caf\u00e9\u2019 \u2026' }]).replace(
      /^<\?xml[^>]*>\n/,
      '',
    );
    // Written as Windows would write it: one byte each, the dash 0x96, the euro 0x80, ™ 0x99, the quotes 0x93/0x94.
    const cp1252 = new Map(
      [...'\u2013\u20ac\u2122\u201c\u201d\u2018\u2019\u2026'].map((c, i) => [
        c,
        [0x96, 0x80, 0x99, 0x93, 0x94, 0x91, 0x92, 0x85][i] ?? 0,
      ]),
    );
    const bytes = Buffer.from(
      [...`<?xml version="1.0" encoding="windows-1252"?>\n${body}`].map((c) => cp1252.get(c) ?? c.charCodeAt(0)),
    );
    expect(bytes.includes(0x80)).toBe(true);
    const [r] = confirmImport(writeSession(db), { file: file('windows.bsx', bytes) }, SYSTEM_CLOCK);
    const [line] = orderLines(db, r?.order.id ?? 0);
    expect(line?.given.name).toBe(name);
    expect(line?.remarks).toBe('\u2018Caf\u00e9\u2019 \u2026');
  });

  const bsxDir = sharedFile('brickstore-bsx');
  const partsFile = sharedFile('rebrickable', 'parts.csv.gz');
  it.runIf(
    needs(
      bsxDir !== null && partsFile !== null,
      'the BrickStore documents and Rebrickable parts in ../shared/data',
      'real BrickStore documents on the real catalogue',
    ),
  )('every real BrickStore document in ../shared/data imports onto the real Rebrickable catalogue', async () => {
    const dbPath = newStoreLocation();
    const store = await openStore(dbPath);
    onTestFinished(() => store.close());
    await loadCatalogue(store.db, dbPath, [{ name: 'parts.csv.gz', content: fs.readFileSync(partsFile ?? '') }], {
      type: 'P',
      me: identityOf(),
      clock: SYSTEM_CLOCK,
    });
    const dir = path.join(SHARED_DATA, 'brickstore-bsx');
    let lines = 0;
    for (const name of fs.readdirSync(dir)) {
      const plan = planImport(store.db, { file: { name, content: fs.readFileSync(path.join(dir, name)) } });
      expect(plan.refusal, name).toBeNull();
      const [r] = confirmImport(
        writeSession(store.db),
        { file: { name, content: fs.readFileSync(path.join(dir, name)) } },
        SYSTEM_CLOCK,
      );
      expect(r?.lines.total).toBe(plan.documents[0]?.counts.total);
      expect(r?.lines.placed).toBeGreaterThan(0);
      lines += r?.lines.total ?? 0;
    }
    expect(lines).toBe(1934);
    const bad = store.db
      .prepare('SELECT count(*) FROM order_line WHERE (item_no IS NULL) <> (unplaced_reason IS NOT NULL)')
      .pluck()
      .get();
    expect(bad).toBe(0);
  });
});
