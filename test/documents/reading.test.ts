import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { identityOf } from '../../src/identity/owner.ts';
import { confirmImport, planImport, type ImportRequest } from '../../src/documents/import.ts';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import { orderLines } from '../../src/store/lines.ts';
import { openStore } from '../../src/store/open.ts';
import { XML_DEPTH_LIMIT } from '../../src/text/xml.ts';
import { bytes, files } from '../helpers/catalogue-files.ts';
import { cli, cliJson } from '../helpers/cli.ts';
import { bsx, csv, file, inventoryXml, orderXml } from '../helpers/documents.ts';
import { refusalOf } from '../helpers/refusal.ts';
import { serviceFor } from '../helpers/service.ts';
import { dumpRows, insertColour, insertItem } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/**
 * Issue 23: read what a file says, and say what was guessed (SPEC §8). Every shape here is one real
 * documents published by others have; each is made by the test.
 */

async function shopStore(options: { colours?: boolean } = {}) {
  const storePath = newStoreLocation();
  const store = await openStore(storePath);
  onTestFinished(() => store.close());
  const db = store.db;
  for (const [no, name] of [
    ['2420', 'Plate 2 x 2 Corner'],
    ['2524', 'Minifig, Backpack Non-Opening'],
    ['3001', 'Brick 2 x 4'],
    ['3003', 'Brick 2 x 2'],
    ['3023', 'Plate 1 x 2'],
    ['4349', 'Minifig, Utensil Loudhailer / Megaphone'],
    ['3069b', 'Tile 1 x 2 with Groove'],
  ] as const)
    insertItem(db, { no, name });
  if (options.colours !== false) {
    for (const [id, name] of [
      [1, 'White'],
      [5, 'Red'],
      [7, 'Blue'],
      [11, 'Black'],
      [86, 'Light Bluish Gray'],
    ] as const)
      insertColour(db, { id, name });
  }
  return { db, storePath };
}

function plan(db: Parameters<typeof planImport>[0], request: ImportRequest) {
  const p = planImport(db, request);
  const doc = p.documents[0];
  if (doc === undefined) throw new Error(`no document: ${JSON.stringify(p.refusal)}`);
  return { plan: p, doc };
}

const REBRICKABLE_NUM = csv(
  ['Part', 'Color', 'Num'],
  [
    ['2524', 70, 2],
    ['4349', 0, 1],
    ['2420', 1, 4],
  ],
);

describeEachStore('1. no silent quantity of 1', () => {
  it("Rebrickable's older Part,Color,Num list: Num is the quantity", () => {
    const [doc] = readDocumentFile(file('moc.csv', REBRICKABLE_NUM));
    expect(doc?.lines.map((l) => [l.given.no, l.quantity])).toEqual([
      ['2524', 2],
      ['4349', 1],
      ['2420', 4],
    ]);
    expect(doc?.reading.warnings).toEqual([]);
    expect(doc?.reading.read).toEqual([
      { title: 'Part', as: 'number' },
      { title: 'Color', as: 'colour number' },
      { title: 'Num', as: 'quantity' },
    ]);
  });

  it('the titles small tools use for a count are read as the quantity', () => {
    for (const title of ['Amount', 'Pieces', 'Pcs', 'Qty Ordered', 'Min Qty', 'Number of pieces']) {
      const [doc] = readDocumentFile(file('count.csv', csv(['Part No', 'Name', title], [['3001', 'Brick 2 x 4', 7]])));
      expect(doc?.lines[0]?.quantity, title).toBe(7);
      expect(doc?.reading.warnings, title).toEqual([]);
    }
  });

  it('a list without a quantity column is previewed with a warning and imported only when acknowledged', async () => {
    const { db } = await shopStore();
    const text = csv(
      ['Part No', 'Name'],
      [
        ['3001', 'Brick 2 x 4'],
        ['3003', 'Brick 2 x 2'],
      ],
    );
    const { plan: p, doc } = plan(db, { file: file('names.csv', text) });
    expect(doc.warnings).toEqual([
      {
        code: 'no-quantity-column',
        message: 'This list has no quantity column: every line will count 1.',
        acknowledged: false,
      },
    ]);
    expect(doc.refusal).toBeNull();
    expect(p.refusal).toEqual({
      code: 'needs-acknowledgement',
      message:
        'Check what the reader assumed before importing: This list has no quantity column: every line will count 1. (no-quantity-column) ' +
        'Acknowledge it to import (on the command line: --accept no-quantity-column).',
    });

    const before = dumpRows(db);
    const refusal = refusalOf(() => confirmImport(writeSession(db), { file: file('names.csv', text) }, SYSTEM_CLOCK));
    expect(refusal.code).toBe('needs-acknowledgement');
    expect(refusal.message).toMatch(/no-quantity-column/);
    expect(dumpRows(db)).toEqual(before);

    const [result] = confirmImport(
      writeSession(db),
      { file: file('names.csv', text), acknowledge: ['no-quantity-column'] },
      SYSTEM_CLOCK,
    );
    expect(orderLines(db, result?.order.id ?? 0).map((l) => [l.placed?.no, l.quantity])).toEqual([
      ['3001', 1],
      ['3003', 1],
    ]);
  });

  it("BrickLink XML without MINQTY keeps BrickLink's own rule (one) and carries no warning", async () => {
    const { db } = await shopStore();
    const wanted = inventoryXml([{ no: '3001', colour: 5 }], true).replace(/<MINQTY>[^<]*<\/MINQTY>/g, '');
    const { plan: p, doc } = plan(db, { file: file('wanted.xml', wanted) });
    expect(doc.lines[0]?.quantity).toBe(1);
    expect(doc.warnings).toEqual([]);
    expect(p.refusal).toBeNull();
  });
});

describeEachStore('2. the colour numbering a file speaks is read, shown, never guessed silently', () => {
  it("Rebrickable's list shapes are recognised: their colours are Rebrickable's, kept by that name", async () => {
    const { db } = await shopStore();
    const { plan: p, doc } = plan(db, { file: file('moc.csv', REBRICKABLE_NUM) });
    expect(p.refusal).toBeNull();
    expect(doc.colourNumbering).toEqual({ numbering: 'rebrickable', how: 'shape' });
    // Rebrickable 1 is Blue; BrickLink 1 is White: never taken as BrickLink's.
    expect(doc.lines.map((l) => [l.given.no, l.given.colourId, l.given.colourName, l.remarks])).toEqual([
      ['2524', null, 'Rebrickable colour 70', null],
      ['4349', null, 'Rebrickable colour 0', null],
      ['2420', null, 'Rebrickable colour 1', null],
    ]);
    const [result] = confirmImport(writeSession(db), { file: file('moc.csv', REBRICKABLE_NUM) }, SYSTEM_CLOCK);
    const saved = orderLines(db, result?.order.id ?? 0);
    expect(saved.map((l) => [l.given.colourId, l.placed?.colour ?? null, l.quantity])).toEqual([
      [null, null, 2],
      [null, null, 1],
      [null, null, 4],
    ]);
  });

  it('Is Spare is read: a spare line stays, and says so in its remarks', () => {
    for (const quantity of ['Quantity', 'Num']) {
      const text = csv(
        ['Part', 'Color', quantity, 'Is Spare'],
        [
          ['3001', 4, 10, 'False'],
          ['3001', 4, 1, 'True'],
        ],
      );
      const [doc] = readDocumentFile(file('spares.csv', text));
      expect(doc?.reading.colourNumbering).toEqual({ numbering: 'rebrickable', how: 'shape' });
      expect(doc?.lines.map((l) => [l.quantity, l.given.colourName, l.remarks])).toEqual([
        [10, 'Rebrickable colour 4', null],
        [1, 'Rebrickable colour 4', 'Spare'],
      ]);
    }
  });

  it('a bare colour column of numbers in a list of no known shape is a warning; staff may choose the numbering', async () => {
    const { db } = await shopStore();
    const text = csv(
      ['Part No', 'Color', 'Qty'],
      [
        ['3001', 1, 2],
        ['3003', 5, 3],
      ],
    );
    const guessed = plan(db, { file: file('tool.csv', text) });
    expect(guessed.doc.colourNumbering).toEqual({ numbering: 'bricklink', how: 'guessed' });
    expect(guessed.doc.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'colour-numbering-guessed',
        'The "Color" column gives colour numbers without saying whose: they are read as BrickLink\'s. ' +
          'Rebrickable and LDraw number colours differently; choose their numbering if the list came from there.',
      ],
    ]);
    expect(guessed.plan.refusal?.code).toBe('needs-acknowledgement');

    // Chosen as Rebrickable's: no guess left, and the numbers wait in the remarks.
    const chosen = plan(db, { file: file('tool.csv', text), colourNumbering: 'rebrickable' });
    expect(chosen.plan.refusal).toBeNull();
    expect(chosen.doc.colourNumbering).toEqual({ numbering: 'rebrickable', how: 'chosen' });
    expect(chosen.doc.lines.map((l) => [l.given.colourId, l.given.colourName])).toEqual([
      [null, 'Rebrickable colour 1'],
      [null, 'Rebrickable colour 5'],
    ]);

    // Acknowledged as BrickLink's.
    const [result] = confirmImport(
      writeSession(db),
      { file: file('tool.csv', text), acknowledge: ['colour-numbering-guessed'] },
      SYSTEM_CLOCK,
    );
    expect(orderLines(db, result?.order.id ?? 0).map((l) => l.placed?.colour)).toEqual([1, 5]);
  });

  it("a Color Code column whose colour names agree with BrickLink's table is no guess", async () => {
    const { db } = await shopStore();
    const text = csv(
      ['BrickLink ID', 'Part Name', 'Color Code', 'Color Name', 'Quantity'],
      [
        ['3001', 'Brick 2 x 4', 5, 'Red', 3],
        ['3003', 'Brick 2 x 2', 11, 'Black', 2],
      ],
    );
    const { plan: p, doc } = plan(db, { file: file('moc.csv', text) });
    expect(doc.colourNumbering).toEqual({ numbering: 'bricklink', how: 'names' });
    expect(doc.warnings).toEqual([]);
    expect(p.refusal).toBeNull();
    // Before any colours are loaded there is nothing to bear the numbers out: the guess is said.
    const bare = await shopStore({ colours: false });
    expect(plan(bare.db, { file: file('moc.csv', text) }).doc.warnings.map((w) => w.code)).toEqual([
      'colour-numbering-guessed',
    ]);
  });

  it("a Color Code column whose names agree with LDraw's numbers is read as LDraw's (issue 43, point 6)", async () => {
    const { db, storePath } = await shopStore();
    // BrickLink's 57 and 126 are other colours than LDraw's: guessed as BrickLink's, they would be those.
    for (const [id, name] of [
      [57, 'Chrome Antique Brass'],
      [126, 'Mx Charcoal Gray'],
      [98, 'Trans-Orange'],
      [51, 'Trans-Purple'],
      [63, 'Dark Blue'],
      [18, 'Trans-Neon Orange'],
      [34, 'Lime'],
    ] as const)
      insertColour(db, { id, name });
    await loadCatalogue(
      db,
      storePath,
      [
        {
          name: 'colors.json',
          content: bytes(
            files.rebrickableColourTable([
              {
                id: 182,
                name: 'Trans-Orange',
                bricklink: { id: 98, name: 'Trans-Orange' },
                ldraw: { id: 57, name: 'Trans_Orange' },
              },
              {
                id: 57,
                name: 'Trans-Neon Orange',
                bricklink: { id: 18, name: 'Trans-Neon Orange' },
                ldraw: { id: 38, name: 'Trans_Neon_Orange' },
              },
              {
                id: 52,
                name: 'Trans-Purple',
                bricklink: { id: 51, name: 'Trans-Purple' },
                ldraw: { id: 126, name: 'Trans_Purple' },
              },
              {
                id: 272,
                name: 'Dark Blue',
                bricklink: { id: 63, name: 'Dark Blue' },
                ldraw: { id: 272, name: 'Dark_Blue' },
              },
            ]),
          ),
        },
      ],
      { type: null, me: identityOf(), clock: SYSTEM_CLOCK },
    );
    const text = csv(
      ['Part', 'Color Code', 'Color', 'Quantity'],
      [
        ['3001', 57, 'Trans Orange', 3],
        ['3003', 126, 'TRANS PURPLE', 2],
        ['3023', 272, 'Dark-Blue', 1],
      ],
    );
    const { plan: p, doc } = plan(db, { file: file('ldraw-list.csv', text) });
    expect(doc.colourNumbering).toEqual({ numbering: 'ldraw', how: 'names' });
    expect(doc.warnings).toEqual([]);
    expect(p.refusal).toBeNull();
    expect(doc.lines.map((l) => l.placement.colourId)).toEqual([98, 51, 63]);
    // Half the lines whose number and name are in a table (Lime is a colour too) is no clear numbering:
    // still a guess, and said (issue 60 §3); read as BrickLink's, both names disagree with their numbers.
    const odd = csv(
      ['Part', 'Color Code', 'Color', 'Quantity'],
      [
        ['3001', 57, 'Trans Orange', 3],
        ['3003', 126, 'Lime', 1],
      ],
    );
    expect(plan(db, { file: file('odd.csv', odd) }).doc.warnings.map((w) => w.code)).toEqual([
      'colour-numbering-guessed',
      'colour-number-and-name-disagree',
    ]);
  });

  it('a column titled LDraw is read in LDraw numbering, and the preview says so', () => {
    const text = csv(['Part', 'Description', 'LDraw Color', 'Qty'], [['3001', 'Brick 2 x 4', 4, 2]]);
    const [doc] = readDocumentFile(file('ldraw.csv', text));
    expect(doc?.reading.colourNumbering).toEqual({ numbering: 'ldraw', how: 'title' });
    expect(doc?.reading.warnings).toEqual([]);
    expect(doc?.lines[0]).toMatchObject({ given: { colourId: null, colourName: 'LDraw colour 4' }, remarks: null });
  });

  it('a colour number and a colour name that disagree in BrickLink’s table: a warning, and the name decides', async () => {
    const { db } = await shopStore();
    const text = csv(
      ['Item No', 'Color ID', 'Color Name', 'Qty'],
      [
        ['3001', 5, 'Red', 1],
        ['3003', 1, 'Blue', 4],
      ],
    );
    const { plan: p, doc } = plan(db, { file: file('mixed.csv', text) });
    expect(doc.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'colour-number-and-name-disagree',
        'One line gives a colour number and a colour name that are different colours in BrickLink\'s table (lot 2: 1 is White, the name says "Blue"); it is placed by the name.',
      ],
    ]);
    expect(p.refusal?.code).toBe('needs-acknowledgement');
    expect(doc.lines[1]?.placement).toMatchObject({ item: { no: '3003' }, colourId: 7 });
    expect(doc.lines[1]?.remarks).toBe('colour number 1 (White) disagrees with the name Blue: placed by the name');

    const [result] = confirmImport(
      writeSession(db),
      { file: file('mixed.csv', text), acknowledge: ['colour-number-and-name-disagree'] },
      SYSTEM_CLOCK,
    );
    expect(orderLines(db, result?.order.id ?? 0).map((l) => [l.placed?.colour, l.given.colourName])).toEqual([
      [5, 'Red'],
      [7, 'Blue'],
    ]);
  });

  it('in a BrickStore file the number decides, still warned of: the name may be one BrickLink has since given another colour', async () => {
    const { db } = await shopStore();
    // BrickLink renamed 13 "Trans-Black" to "Trans-Brown" and gave the old name to a new colour (251).
    insertColour(db, { id: 13, name: 'Trans-Brown' });
    insertColour(db, { id: 251, name: 'Trans-Black' });
    const text = bsx([
      { no: '3001', colour: 5, colourName: 'Red', qty: 2 },
      { no: '3003', colour: 13, colourName: 'Trans-Black', qty: 1 },
    ]);
    const { plan: p, doc } = plan(db, { file: file('Tie Fighter.bsx', text) });
    expect(doc.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        'colour-number-and-name-disagree',
        'One line gives a colour number and a colour name that are different colours in BrickLink\'s table (lot 2: 13 is Trans-Brown, the name says "Trans-Black"); ' +
          "the file keeps BrickLink's numbers, so it is placed by the number (the name may be one the colour had before BrickLink renamed it).",
      ],
    ]);
    expect(p.refusal?.code).toBe('needs-acknowledgement');
    expect(doc.lines[1]?.placement).toMatchObject({ item: { no: '3003' }, colourId: 13 });
    expect(doc.lines[1]?.remarks).toBe(
      'colour number 13 (Trans-Brown) disagrees with the name Trans-Black: placed by the number',
    );
  });

  it('every document says its numbering: BrickLink’s for BrickLink XML and BrickStore, by format', async () => {
    const { db } = await shopStore();
    const xml = orderXml([{ id: '9', seller: 's', lines: [{ no: '3001', colour: 5 }] }]);
    const { doc } = plan(db, { file: file('order.xml', xml) });
    expect(doc.colourNumbering).toEqual({ numbering: 'bricklink', how: 'format' });
    const service = serviceFor(db, 'brick-work.sqlite');
    const preview = await service.call('import.preview', { file: file('order.xml', xml) });
    expect(preview).toMatchObject({
      ok: true,
      value: { documents: [{ colourNumbering: { numbering: 'bricklink', how: 'format', choosable: false } }] },
    });
  });
});

describeEachStore('3. columns that name the number in other words, and columns not read', () => {
  it('BrickLink ID, BL Part, Design ID and their spellings are the number; the preview lists what it does not read', async () => {
    const { db } = await shopStore();
    for (const title of ['BrickLink ID', 'BL ID', 'BrickLink Item No', 'BL Part', 'Design ID', 'design_id', 'BL_ID']) {
      const text = csv(
        [title, 'Part Name', 'Color Name', 'Quantity', 'Weight', 'Element ID'],
        [['3069b', 'Tile with Groove (renamed)', 'Black', 6, '0.24', '306926']],
      );
      const { doc } = plan(db, { file: file('moc.csv', text) });
      expect(doc.lines[0]?.placement, title).toMatchObject({ item: { no: '3069b' }, by: 'number', colourId: 11 });
      expect(doc.lines[0]?.remarks, title).toBe('Element 306926');
      expect(doc.parsed.reading.notRead, title).toEqual(['Weight']);
      expect(doc.parsed.reading.read.map((r) => r.as)).toEqual([
        'number',
        'name',
        'colour',
        'quantity',
        'LEGO element id (in the remarks; it places a line its number does not)',
      ]);
    }
  });

  it('an untitled column is named by its place when it holds something; a second colour column is listed', () => {
    const text = 'Part No,Qty,,LDrawColorId,BLColorId\n3001,2,x,4,5\n';
    const [doc] = readDocumentFile(file('odd.csv', text));
    expect(doc?.reading.notRead).toEqual(['(untitled column 3)', 'LDrawColorId']);
    expect(doc?.reading.colourNumbering).toEqual({ numbering: 'bricklink', how: 'title' });
    expect(doc?.lines[0]?.given.colourId).toBe(5);
  });

  it('a Pick a Brick list (element ids only) reads its element ids as its numbers, and says so', () => {
    const [doc] = readDocumentFile(file('pab.csv', 'elementId,quantity\n300126,4\n'));
    // The remarks say it is an element id: the placement rule reads that back (its reason, SPEC §6).
    expect(doc?.lines[0]).toMatchObject({ given: { no: '300126' }, quantity: 4, remarks: 'Element 300126' });
    expect(doc?.reading.read).toEqual([
      { title: 'elementId', as: 'LEGO element id' },
      { title: 'quantity', as: 'quantity' },
    ]);
  });
});

/** BrickLink's order history downloaded as CSV: a summary row per order, then its item rows. */
const ORDERS_HEADER = [
  'Order ID',
  'Order Date',
  'Seller',
  'Base Currency',
  'Order Total',
  'Condition',
  'Item Description',
  'Qty',
  'Each',
  'Total',
  'Item Type',
  'Item Number',
  'Weight',
  'Inv ID',
  'Sub-Condition',
];
const ORDERS_CSV = csv(ORDERS_HEADER, [
  ['21114437', '7/22/2012', 'brickshop', 'USD', '3.30', '', '', '', '', '', '', '', '', '', ''],
  ['', '', '', '', '', 'New', 'Black Brick 2 x 4', '10', '0.2500', '2.50', 'Part', '3001', '2.3', '1', ''],
  [
    '',
    '',
    '',
    '',
    '',
    'Used',
    'Light Bluish Gray Plate 1 x 2',
    '"1,752"',
    '0.0005',
    '0.80',
    'Part',
    '3023',
    '0.4',
    '2',
    'C',
  ],
  ['21114500', '8/01/2012', 'otherShop', 'EUR', '1.00', '', '', '', '', '', '', '', '', '', ''],
  ['', '', '', '', '', 'New', 'Red Brick 2 x 2', '4', '0.25', '1.00', 'Part', '3003', '1.1', '3', ''],
]);

describeEachStore("4. BrickLink's order history as CSV", () => {
  it('each summary row opens an order, its item rows are its lines: several documents, as ORDERS XML', async () => {
    const { db } = await shopStore();
    const p = planImport(db, { file: file('orders.csv', ORDERS_CSV) });
    expect(p.refusal).toBeNull();
    expect(
      p.documents.map((d) => [d.parsed.key, d.parsed.format, d.parsed.header, d.counts, d.parsed.reading.notRead]),
    ).toEqual([
      [
        'bricklink-order:21114437',
        'bricklink-order-csv',
        {
          reference: '21114437',
          counterparty: 'brickshop',
          counterpartyRole: 'seller',
          currency: 'USD',
          orderDate: '2012-07-22',
        },
        { total: 2, placed: 2, unplaced: 0 },
        ['Order Total', 'Total', 'Weight', 'Inv ID', 'Sub-Condition'],
      ],
      [
        'bricklink-order:21114500',
        'bricklink-order-csv',
        {
          reference: '21114500',
          counterparty: 'otherShop',
          counterpartyRole: 'seller',
          currency: 'EUR',
          orderDate: '2012-08-01',
        },
        { total: 1, placed: 1, unplaced: 0 },
        ['Order Total', 'Total', 'Weight', 'Inv ID', 'Sub-Condition'],
      ],
    ]);
    // The colour leads the description: read against the catalogue's colours, the rest is the name.
    const first = p.documents[0]?.lines ?? [];
    expect(
      first.map((l) => [
        l.given.type,
        l.given.no,
        l.given.name,
        l.given.colourId,
        l.quantity,
        l.unitPriceE4,
        l.condition,
      ]),
    ).toEqual([
      ['P', '3001', 'Brick 2 x 4', 11, 10, 2500, 'N'],
      ['P', '3023', 'Plate 1 x 2', 86, 1752, 5, 'U'],
    ]);
    const results = confirmImport(writeSession(db), { file: file('orders.csv', ORDERS_CSV) }, SYSTEM_CLOCK);
    expect(results.map((r) => [r.document.key, r.order.reference, r.order.currency])).toEqual([
      ['bricklink-order:21114437', '21114437', 'USD'],
      ['bricklink-order:21114500', '21114500', 'EUR'],
    ]);
    // The same order as XML is the same document: a duplicate, whichever way it came.
    const xml = orderXml([{ id: '21114437', seller: 'brickshop', lines: [{ no: '3001', colour: 11, qty: 10 }] }]);
    expect(planImport(db, { file: file('order.xml', xml) }).refusal?.code).toBe('duplicate-document');
  });

  it('item rows that repeat their order id, a Buyer column and ISO dates read the same way', () => {
    const text = csv(
      [
        'Order ID',
        'Order Date',
        'Buyer',
        'Base Currency',
        'Condition',
        'Item Description',
        'Qty',
        'Each',
        'Item Type',
        'Item Number',
      ],
      [
        ['501', '2026-03-04', 'customer1', 'EUR', '', '', '', '', '', ''],
        ['501', '', '', '', 'N', 'Brick 2 x 4', '3', '€0.20', 'Part', '3001'],
        ['502', '2026-03-05', 'customer2', 'EUR', 'U', 'Minifig Pack', '1', '1.50', 'Set', '850423-1'],
      ],
    );
    const docs = readDocumentFile(file('sales.csv', text));
    expect(docs.map((d) => [d.key, d.header.counterparty, d.header.counterpartyRole, d.header.orderDate])).toEqual([
      ['bricklink-order:501', 'customer1', 'buyer', '2026-03-04'],
      ['bricklink-order:502', 'customer2', 'buyer', '2026-03-05'],
    ]);
    expect(docs.map((d) => d.lines.map((l) => [l.given.type, l.given.no, l.quantity, l.unitPriceE4]))).toEqual([
      [['P', '3001', 3, 2000]],
      [['S', '850423-1', 1, 15000]],
    ]);
  });

  it("an order XML's DESCRIPTION is read into the line's remarks, after its REMARKS (issue 43, point 7)", () => {
    const xml = `<ORDERS><ORDER><ORDERID>9001</ORDERID><SELLER>ann</SELLER><ORDERDATE>7/22/2012</ORDERDATE>
<BASECURRENCYCODE>USD</BASECURRENCYCODE>
<ITEM><ITEMTYPE>M</ITEMTYPE><ITEMID>sw0001a</ITEMID><QTY>1</QTY><PRICE>2.00</PRICE><CONDITION>U</CONDITION>
<DESCRIPTION>No weapon, light play wear</DESCRIPTION><REMARKS>bin A7</REMARKS></ITEM>
<ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><QTY>2</QTY><PRICE>0.10</PRICE><CONDITION>N</CONDITION>
<DESCRIPTION>Like new</DESCRIPTION></ITEM>
</ORDER></ORDERS>`;
    const [doc] = readDocumentFile(file('orders.xml', xml));
    expect(doc?.lines.map((l) => l.remarks)).toEqual([
      'bin A7; Description: No weapon, light play wear',
      'Description: Like new',
    ]);
  });

  it("names written with HTML's character references are read as BrickLink shows them (issue 43, point 7)", () => {
    const text = csv(ORDERS_HEADER, [
      ['77', '7/22/2012', 'Bricks &amp; More', 'USD', '1.00', '', '', '', '', '', '', '', '', '', ''],
      [
        '',
        '',
        '',
        '',
        '',
        'New',
        'White Minifig Torso &#40;Phase 1&#41; &quot;Town&quot;',
        '1',
        '1.00',
        '1.00',
        'Part',
        '973pb001',
        '1',
        '1',
        '',
      ],
    ]);
    const [doc] = readDocumentFile(file('orders.csv', text));
    expect(doc?.header.counterparty).toBe('Bricks & More');
    expect(doc?.lines[0]?.given.name).toBe('White Minifig Torso (Phase 1) "Town"');
  });

  it('an order without item rows is refused in words', () => {
    const text = csv(ORDERS_HEADER, [['1', '7/22/2012', 's', 'USD', '0', '', '', '', '', '', '', '', '', '', '']]);
    const e = refusalOf(() => readDocumentFile(file('summary.csv', text)));
    expect(e.message).toBe('summary.csv: line 2: the order 1 has no item rows (download the orders with their items)');
  });
});

/** A one-entry ZIP archive (local header only, as readers see first), its entry named `entry`. */
function zipWith(entry: string): Uint8Array {
  const data = deflateRawSync(Buffer.from('0 model\n'));
  const name = Buffer.from(entry);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(8, 8);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt16LE(name.length, 26);
  return new Uint8Array(Buffer.concat([header, name, data]));
}

describeEachStore('5. a file that is not a list says what it is', () => {
  const WHAT =
    'brick-work imports BrickLink orders (XML or CSV), BrickLink XML, BrickStore and BrickStock files (.bsx), CSV part lists, and LDraw (.ldr, .mpd) and BrickLink Studio (.io) models.';
  it('a Studio model, by its name or its entries, is read as one: a damaged one is refused as that', () => {
    for (const [name, content] of [
      ['Castle.io', zipWith('whatever.bin')],
      ['Castle.zip', zipWith('model.ldr')],
    ] as const) {
      expect(refusalOf(() => readDocumentFile(file(name, content))).message).toBe(
        `${name}: it is not a Studio model that can be read: its ZIP archive is damaged`,
      );
    }
    // Any other archive is still told to be unpacked, or saved as CSV.
    expect(refusalOf(() => readDocumentFile(file('sheet.xlsx', zipWith('[Content_Types].xml')))).message).toMatch(
      /^This is a ZIP archive \(an Excel or LibreOffice sheet is one\), not an order document/,
    );
  });

  it('a JSON file, a script named .bsx, a text named .xml', () => {
    const inventory = JSON.stringify({ set: '6964-1', parts: [{ part: '3001', color: 4, quantity: 2 }] });
    expect(readRefusalMessage('inventory.txt', inventory)).toBe(
      `This is a JSON file, not an order document (inventory.txt): export the list as CSV or as BrickLink XML. ${WHAT}`,
    );
    expect(readRefusalMessage('order.bsx', '#!/bin/sh\necho "not a document"\n')).toBe(
      `order.bsx is named .bsx but is not XML (it begins "#!/bin/sh"): a BrickStore file begins with "<". Is it the right file? ${WHAT}`,
    );
    expect(readRefusalMessage('wanted.XML', 'ITEMID,QTY\n3001,2\n')).toMatch(
      /^wanted\.XML is named \.xml but is not XML \(it begins "ITEMID,QTY"\)/,
    );
  });

  it('a damaged XML file says so in a worker’s words first, with the parser’s detail after it', () => {
    const cut = orderXml([{ id: '5', seller: 's', lines: [{ no: '3001' }, { no: '3003' }] }]);
    const short = cut.slice(0, cut.indexOf('<ITEMID>3003') + 5);
    const line = short.split('\n').length;
    expect(readRefusalMessage('cut.xml', short)).toMatch(
      new RegExp(`^cut\\.xml: the file is cut short or damaged near line ${line} \\(line ${line}, column \\d+: `),
    );
  });
});

function readRefusalMessage(name: string, text: string | Uint8Array): string {
  return refusalOf(() => readDocumentFile(file(name, text))).message;
}

describeEachStore('6. depth and size of XML', () => {
  it('elements nested past the cap are refused at the first one too deep, with its line and column, the store unchanged', async () => {
    const { db } = await shopStore();
    const before = dumpRows(db);
    // 2.5 million nested elements (17.5 MB): refused where the nesting passes the cap, never held whole.
    const depth = 2_500_000;
    const deep = `<INVENTORY>\n${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}\n</INVENTORY>`;
    const started = process.memoryUsage().heapUsed;
    const e = refusalOf(() => confirmImport(writeSession(db), { file: file('deep.xml', deep) }, SYSTEM_CLOCK));
    expect(e.code).toBe('parse-error');
    expect(e.message).toMatch(
      new RegExp(
        `^deep\\.xml, line 2, column ${(XML_DEPTH_LIMIT - 1) * 3 + 1}: <a> is nested ${XML_DEPTH_LIMIT + 1} elements deep .*brick-work reads at most ${XML_DEPTH_LIMIT} levels`,
      ),
    );
    // Nothing grew with the file: far less than the tree of 2.5 million elements it once built.
    expect(process.memoryUsage().heapUsed - started).toBeLessThan(200 * 1024 * 1024);
    expect(dumpRows(db)).toEqual(before);
  });

  it('50,000 ITEMIDs nested inside an ITEM are refused, not imported as a line', () => {
    const nested = `<INVENTORY><ITEM>${'<ITEMID>'.repeat(50_000)}3001${'</ITEMID>'.repeat(50_000)}<QTY>1</QTY></ITEM></INVENTORY>`;
    expect(readRefusalMessage('nested.xml', nested)).toMatch(/^nested\.xml, line 1, column \d+: <ITEMID> is nested/);
  });

  it('a field given twice alike loses nothing, and reads; given twice unlike, it is refused (issue 62 §5)', () => {
    const twice = (second: string) =>
      `<INVENTORY><ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><ITEMID>${second}</ITEMID><QTY>1</QTY></ITEM></INVENTORY>`;
    expect(readDocumentFile(file('alike.xml', twice(' 3001 ')))[0]?.lines.map((l) => l.given.no)).toEqual(['3001']);
    expect(readRefusalMessage('unlike.xml', twice('3003'))).toMatch(
      /^unlike\.xml: line 1: <ITEMID> is given twice in one item \("3001" and "3003"\)/,
    );
    // A field brick-work does not read is listed as not read, whatever it holds.
    const unread = `<INVENTORY><ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><NOTIFY>Y</NOTIFY><NOTIFY>N</NOTIFY></ITEM></INVENTORY>`;
    expect(readDocumentFile(file('unread.xml', unread))[0]?.reading.notRead).toEqual(['NOTIFY']);
  });

  it('real documents nest four levels: a BrickStore file with its GuiState still reads', () => {
    const bsx = `<!DOCTYPE BrickStoreXML>\n<BrickStoreXML><Inventory><Item><ItemID>3001</ItemID><ColorID>5</ColorID><Qty>1</Qty></Item></Inventory>
<GuiState Application="BrickStore" Version="2"><ItemList><ColumnLayout><Column><Width>40</Width></Column></ColumnLayout></ItemList></GuiState></BrickStoreXML>`;
    expect(readDocumentFile(file('gui.bsx', bsx))[0]?.lines).toHaveLength(1);
  });
});

describeEachStore('warnings through the contract and the CLI', () => {
  const NO_QTY = csv(
    ['Part No', 'Name', 'Color'],
    [
      ['3001', 'Brick 2 x 4', 5],
      ['3003', 'Brick 2 x 2', 1],
    ],
  );

  it('the contract: the preview carries warnings, columns and numbering; confirm needs acknowledge; bad codes are refused', async () => {
    const { db, storePath } = await shopStore({ colours: false });
    const service = serviceFor(db, storePath);
    const preview = await service.call('import.preview', { file: file('list.csv', NO_QTY) });
    expect(preview).toMatchObject({
      ok: true,
      value: {
        refusal: { code: 'needs-acknowledgement' },
        documents: [
          {
            refusal: null,
            colourNumbering: { numbering: 'bricklink', how: 'guessed', choosable: true },
            columns: {
              read: [
                { title: 'Part No', as: 'number' },
                { title: 'Name', as: 'name' },
                { title: 'Color', as: 'colour number' },
              ],
              notRead: [],
            },
            warnings: [
              { code: 'no-quantity-column', acknowledged: false },
              { code: 'colour-numbering-guessed', acknowledged: false },
            ],
          },
        ],
      },
    });
    const half = await service.call('import.confirm', {
      file: file('list.csv', NO_QTY),
      acknowledge: ['no-quantity-column'],
    });
    expect(half).toMatchObject({ ok: false, error: { code: 'needs-acknowledgement' } });
    if (!half.ok) {
      expect(half.error.message).toMatch(/colour-numbering-guessed/);
      expect(half.error.message).not.toMatch(/\(no-quantity-column\)/);
    }
    const bad = await service.call('import.confirm', {
      file: file('list.csv', NO_QTY),
      acknowledge: ['everything'],
    } as never);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    const chosen = await service.call('import.preview', {
      file: file('list.csv', NO_QTY),
      colourNumbering: 'ldraw',
      acknowledge: ['no-quantity-column'],
    });
    expect(chosen).toMatchObject({
      ok: true,
      value: {
        refusal: null,
        documents: [
          {
            colourNumbering: { numbering: 'ldraw', how: 'chosen' },
            lines: [{ given: { colourName: 'LDraw colour 5' } }, { given: { colourName: 'LDraw colour 1' } }],
          },
        ],
      },
    });
    const done = await service.call('import.confirm', {
      file: file('list.csv', NO_QTY),
      acknowledge: ['no-quantity-column', 'colour-numbering-guessed'],
    });
    expect(done).toMatchObject({ ok: true, value: [{ lines: { total: 2 } }] });
  });

  it('the CLI: --dry-run says what it read and refuses; --accept imports; --colours chooses', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'brick-work.sqlite');
    const list = path.join(dir, 'list.csv');
    fs.writeFileSync(list, NO_QTY);

    const dry = await cli(['--db', db, 'import', list, '--dry-run']);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(/Colour numbers read as BrickLink's \(guessed: --colours chooses\)/);
    expect(dry.stderr).toMatch(
      /Warning \(no-quantity-column\): This list has no quantity column: every line will count 1\./,
    );
    expect(dry.stderr).toMatch(/--accept no-quantity-column,colour-numbering-guessed/);
    // The preview itself is said (issue 43, point 7), and each warning once, however it is refused.
    expect(dry.stderr).toMatch(
      /Would import list\.csv into a new order list\.csv: 2 lines, \d+ placed, \d+ unplaced\./,
    );
    expect(dry.stderr.match(/This list has no quantity column/g)).toHaveLength(1);
    expect(dry.stderr.match(/colour-numbering-guessed\)/g)).toHaveLength(1);

    const refused = await cliJson(['--db', db, 'import', list]);
    expect(refused.code).toBe(1);
    expect(refused.json.error.code).toBe('needs-acknowledgement');

    const typo = await cli(['--db', db, 'import', list, '--accept', 'no-quantity']);
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toMatch(/--accept\[0\] must be one of no-quantity-column, colour-numbering-guessed/);

    const rebrickable = await cliJson([
      '--db',
      db,
      'import',
      list,
      '--dry-run',
      '--colours',
      'rebrickable',
      '--accept',
      'no-quantity-column',
    ]);
    expect(rebrickable.code).toBe(0);
    expect(
      rebrickable.json.documents[0].lines.map((l: { given: { colourName: string } }) => l.given.colourName),
    ).toEqual(['Rebrickable colour 5', 'Rebrickable colour 1']);

    const accepted = await cliJson([
      '--db',
      db,
      'import',
      list,
      '--accept',
      'no-quantity-column,colour-numbering-guessed',
    ]);
    expect(accepted.code).toBe(0);
    expect(accepted.json.imports[0].lines.total).toBe(2);
  });
});
