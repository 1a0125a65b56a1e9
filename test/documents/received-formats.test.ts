import { expect, it, onTestFinished } from 'vitest';
import { writeSession } from '../../src/store/session.ts';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport, planImport } from '../../src/documents/import.ts';
import { FORMAT_NAMES } from '../../src/documents/model.ts';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import { FIELD_LIMITS } from '../../src/documents/values.ts';
import { UNPLACED_REASONS } from '../../src/vocabulary/reasons.ts';
import { orderLines } from '../../src/store/lines.ts';
import { openStore } from '../../src/store/open.ts';
import { suggestFor } from '../../src/suggest/catalogue-index.ts';
import { csv, file } from '../helpers/documents.ts';
import { refusalOf } from '../helpers/refusal.ts';
import { insertColour, insertItem } from '../helpers/store-builder.ts';
import { serviceFor } from '../helpers/service.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

/** Documents as shops receive them (issue 15): BrickStock files, BrickLink Studio parts lists, small tools' CSV. */

async function shopStore() {
  const store = await openStore(newStoreLocation());
  onTestFinished(() => store.close());
  const db = store.db;
  insertItem(db, { no: '3001', name: 'Brick 2 x 4' });
  insertItem(db, { no: '3003', name: 'Brick 2 x 2' });
  insertItem(db, { no: '3023', name: 'Plate 1 x 2' });
  insertItem(db, { no: '99009', name: 'Turntable 4 x 4 Base' });
  insertColour(db, { id: 5, name: 'Red' });
  insertColour(db, { id: 11, name: 'Black' });
  insertColour(db, { id: 86, name: 'Light Bluish Gray' });
  return db;
}

/** BrickStock's `.bsx`: BrickStore's body under its own root, as BrickStock wrote it (OrigPrice, Status and all). */
const BRICKSTOCK = `<!DOCTYPE BrickStockXML>
<BrickStockXML><Inventory><Item><ItemID>99009</ItemID><ItemTypeID>P</ItemTypeID><ColorID>86</ColorID><Status>I</Status><Qty>3</Qty><Price>0.055</Price><Condition>U</Condition><OrigPrice>0.097</OrigPrice></Item>
<Item><ItemID>3001</ItemID><ItemTypeID>P</ItemTypeID><ColorID>5</ColorID><ItemName>Brick 2 x 4</ItemName><ColorName>Red</ColorName><Status>I</Status><Qty>12</Qty><Price>0.12</Price><Condition>N</Condition><Remarks>bin 4</Remarks></Item>
</Inventory></BrickStockXML>
`;

const STUDIO_HEADER = [
  'BLItemNo',
  'ElementId',
  'LdrawId',
  'PartName',
  'BLColorId',
  'LDrawColorId',
  'ColorName',
  'ColorCategory',
  'Qty',
  'Weight',
];

/** A BrickLink Studio "Export parts list": the parts, then the blank row and the totals Studio appends. */
function studioExport(rows: (string | number)[][]): string {
  const totalQty = rows.reduce((sum, r) => sum + Number(r[8]), 0);
  return csv(STUDIO_HEADER, [
    ...rows,
    ['', '', '', '', '', '', '', '', '', ''],
    ['Total qty', 'Total Weight', '', '', '', '', '', '', '', ''],
    [totalQty, '3.62', '', '', '', '', '', '', '', ''],
  ]);
}

describeEachStore('BrickStock files (BrickStore’s predecessor)', () => {
  it('a BrickStockXML root with its DOCTYPE is read as BrickStore, and the preview names it a BrickStock file', async () => {
    const db = await shopStore();
    const plan = planImport(db, { file: file('Old stock.bsx', BRICKSTOCK) });
    expect(plan.refusal).toBeNull();
    const doc = plan.documents[0];
    expect(doc?.parsed.format).toBe('brickstock');
    expect(FORMAT_NAMES[doc?.parsed.format ?? 'csv']).toBe('BrickStock file');
    expect(doc?.counts).toEqual({ total: 2, placed: 2, unplaced: 0 });

    const [result] = confirmImport(writeSession(db), { file: file('Old stock.bsx', BRICKSTOCK) }, SYSTEM_CLOCK);
    expect(result).toMatchObject({ document: { key: 'Old stock.bsx' }, order: { reference: 'Old stock.bsx' } });
    expect(db.prepare('SELECT format FROM document').pluck().all()).toEqual(['brickstock']);
    // What the screens are given: the preview and the order's documents say "BrickStock file".
    const service = serviceFor(db, 'brick-work.sqlite');
    const preview = await service.call('import.preview', { file: file('Old stock.bsx', BRICKSTOCK), asNew: true });
    expect(preview).toMatchObject({ ok: true, value: { documents: [{ formatName: 'BrickStock file' }] } });
    const listed = await service.call('documents.list', {});
    expect(listed).toMatchObject({ ok: true, value: [{ format: 'brickstock', formatName: 'BrickStock file' }] });
    const lines = orderLines(db, result?.order.id ?? 0);
    expect(
      lines.map((l) => [l.placed?.no, l.placed?.colour, l.quantity, l.unitPriceE4, l.condition, l.remarks]),
    ).toEqual([
      ['99009', 86, 3, 550, 'U', null],
      ['3001', 5, 12, 1200, 'N', 'bin 4'],
    ]);
  });

  it('a BrickStock file without an Inventory is refused naming it as such', () => {
    const e = refusalOf(() =>
      readDocumentFile(file('empty.bsx', '<!DOCTYPE BrickStockXML>\n<BrickStockXML></BrickStockXML>\n')),
    );
    expect(e.code).toBe('parse-error');
    expect(e.message).toBe('empty.bsx: the BrickStock file has no Inventory');
  });
});

describeEachStore('BrickLink Studio parts lists', () => {
  it('reads BLItemNo, PartName, BLColorId, ColorName and Qty, skips the blank row and totals, and keeps LDraw and element ids in the remarks', async () => {
    const db = await shopStore();
    const text = studioExport([
      ['3003', '300321', '3003', 'Brick 2 x 2', 5, 4, 'Red', 'Solid Colors', 1, 1.35],
      ['3001', '', '3001', 'Brick 2 x 4', 11, 0, 'Black', 'Solid Colors', 4, 2.27],
      ['3023', '302326', '', '"Plate 1 x 2, Studio"', 86, 71, 'Light Bluish Gray', 'Solid Colors', 2, 0.37],
    ]);
    const parsed = readDocumentFile(file('Castle.csv', text))[0];
    expect(
      parsed?.lines.map((l) => [l.given.no, l.given.name, l.given.colourId, l.given.colourName, l.quantity, l.remarks]),
    ).toEqual([
      ['3003', 'Brick 2 x 2', 5, 'Red', 1, 'LDraw 3003 · Element 300321'],
      ['3001', 'Brick 2 x 4', 11, 'Black', 4, 'LDraw 3001'],
      ['3023', 'Plate 1 x 2, Studio', 86, 'Light Bluish Gray', 2, 'Element 302326'],
    ]);

    const [result] = confirmImport(writeSession(db), { file: file('Castle.csv', text) }, SYSTEM_CLOCK);
    expect(result?.lines).toEqual({ total: 3, placed: 3, unplaced: 0 });
    expect(
      orderLines(db, result?.order.id ?? 0).map((l) => [l.placed?.no, l.placed?.colour, l.quantity, l.remarks]),
    ).toEqual([
      ['3003', 5, 1, 'LDraw 3003 · Element 300321'],
      ['3001', 11, 4, 'LDraw 3001'],
      ['3023', 86, 2, 'Element 302326'],
    ]);
  });

  it('a line with an empty BLItemNo is unplaced with its name, so name suggestions find the part', async () => {
    const db = await shopStore();
    const text = studioExport([
      ['3003', '300321', '3003', 'Brick 2 x 2', 5, 4, 'Red', 'Solid Colors', 1, 1.35],
      ['', '', '3003pz1', 'Brick 2 x 2 with Zebra Pattern', 11, 0, 'Black', 'Solid Colors', 2, 1.35],
    ]);
    const [result] = confirmImport(writeSession(db), { file: file('Zoo.csv', text) }, SYSTEM_CLOCK);
    expect(result?.lines).toEqual({ total: 2, placed: 1, unplaced: 1 });
    const unplaced = orderLines(db, result?.order.id ?? 0)[1];
    expect(unplaced).toMatchObject({
      given: { no: null, name: 'Brick 2 x 2 with Zebra Pattern', colourId: 11, colourName: 'Black' },
      quantity: 2,
      remarks: 'LDraw 3003pz1',
      placed: null,
      reason: { text: UNPLACED_REASONS.nameNotInCatalogue },
    });
    expect(suggestFor(db, unplaced?.given ?? { name: null, no: null }).map((s) => s.no)[0]).toBe('3003');
  });

  it('only the trailing blank row and totals are skipped: a blank row among the parts is still refused where it is', () => {
    const text = studioExport([
      ['3003', '300321', '3003', 'Brick 2 x 2', 5, 4, 'Red', 'Solid Colors', 1, 1.35],
      ['', '', '', '', '', '', '', '', '', ''],
      ['3001', '', '3001', 'Brick 2 x 4', 11, 0, 'Black', 'Solid Colors', 4, 2.27],
    ]);
    expect(refusalOf(() => readDocumentFile(file('gap.csv', text))).message).toBe(
      'gap.csv: line 3: the quantity is missing',
    );
    // The totals without the blank row before them are not Studio's ending: read, and refused, as lines.
    const noGap = csv(STUDIO_HEADER, [
      ['3003', '300321', '3003', 'Brick 2 x 2', 5, 4, 'Red', 'Solid Colors', 1, 1.35],
      ['Total qty', 'Total Weight', '', '', '', '', '', '', '', ''],
      [1, '1.35', '', '', '', '', '', '', '', ''],
    ]);
    expect(refusalOf(() => readDocumentFile(file('totals.csv', noGap))).message).toBe(
      'totals.csv: line 3: the quantity is missing',
    );
  });

  it('the remarks made of the LDraw and element ids stay within the remarks cap', () => {
    const { max } = FIELD_LIMITS.remarks;
    const row = (ldraw: string) => [['3003', '300321', ldraw, 'Brick 2 x 2', 5, 4, 'Red', 'Solid Colors', 1, 1.35]];
    const fits = 'x'.repeat(max - 'LDraw  · Element 300321'.length);
    expect(readDocumentFile(file('fits.csv', studioExport(row(fits))))[0]?.lines[0]?.remarks).toHaveLength(max);
    expect(refusalOf(() => readDocumentFile(file('long.csv', studioExport(row(`${fits}x`))))).message).toMatch(
      /^long\.csv: line 2: the remarks field holds 2,001 characters; brick-work takes at most 2,000 there \("LDraw xxx/,
    );
  });

  it('a Studio export holding nothing but its totals has no lines', () => {
    const e = refusalOf(() => readDocumentFile(file('nothing.csv', studioExport([]))));
    expect(e.message).toBe('nothing.csv: the file has a header row but no lines');
  });
});

describeEachStore('the column titles small BrickLink tools write', () => {
  const CASES: { name: string; header: string[]; delimiter?: string }[] = [
    { name: 'underscores', header: ['part_number', 'color_id', 'color_description', 'part_description', 'quantity'] },
    { name: 'upper case', header: ['PART_NO', 'COLOR_NUMBER', 'Color_Description', 'Part_Description', 'QTY'] },
    { name: 'spaces', header: ['Item No', 'Color Number', 'color description', 'part description', 'Qty'] },
    {
      name: 'semicolons, no spaces',
      header: ['ItemNo', 'ColorID', 'ColorDescription', 'PartDescription', 'Quantity'],
      delimiter: ';',
    },
    { name: 'item_no', header: ['item_no', 'color_id', 'color_description', 'part_description', 'qty'] },
  ];
  for (const c of CASES) {
    it(`${c.name}: ${c.header.join(', ')}`, async () => {
      const db = await shopStore();
      const text = csv(
        c.header,
        [
          ['3001', 5, 'Red', 'Brick 2 x 4', 6],
          ['3023', 86, 'Light Bluish Gray', 'Plate 1 x 2', 25],
          ['', 11, 'Black', 'Brick 2 x 2', 3],
        ],
        c.delimiter,
      );
      const [result] = confirmImport(writeSession(db), { file: file('tool.csv', text) }, SYSTEM_CLOCK);
      expect(result?.lines).toEqual({ total: 3, placed: 3, unplaced: 0 });
      expect(
        orderLines(db, result?.order.id ?? 0).map((l) => [
          l.given.no,
          l.given.name,
          l.given.colourName,
          l.placed?.no,
          l.placed?.colour,
          l.quantity,
        ]),
      ).toEqual([
        ['3001', 'Brick 2 x 4', 'Red', '3001', 5, 6],
        ['3023', 'Plate 1 x 2', 'Light Bluish Gray', '3023', 86, 25],
        [null, 'Brick 2 x 2', 'Black', '3003', 11, 3],
      ]);
    });
  }

  it('a header brick-work can’t read is refused with the columns it understands, in plain words', () => {
    const e = refusalOf(() =>
      readDocumentFile(
        file(
          'stock.csv',
          csv(
            ['SKU', 'Colour', 'Amount'],
            [
              ['3001', 'Red', 2],
              ['3003', 'Black', 1],
            ],
          ),
        ),
      ),
    );
    expect(e.code).toBe('parse-error');
    expect(e.message).toBe(
      'stock.csv is not a part list brick-work knows: its first row ("SKU, Colour, Amount") names no number or name column. ' +
        'brick-work reads a part number column (such as Number, Part No, Item ID or BrickLink ID) or a name column (Name or Description), ' +
        'and optionally colour (Color ID or Color), quantity (Qty), price, condition and remarks.',
    );
    expect(e.message.length).toBeLessThan(400);
  });
});
