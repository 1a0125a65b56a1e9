/**
 * The shop's stock, stored and imported (issue 65 §1, SPEC §16): a store's inventory read by the readers
 * every import uses, each lot's location (its Remarks, or a column chosen) and BrickLink lot id kept; a
 * newer import replaces the stock in one undo step; the stock is no order.
 */
import { expect, it } from 'vitest';
import { serviceFor, ok, refused } from '../helpers/service.ts';
import { bsx, csv, file, inventoryXml } from '../helpers/documents.ts';
import { insertColour, storeWithCatalogue } from '../helpers/store-builder.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { stockLotsOfOrder } from '../../src/stock/lots.ts';
import { stockLotsForOrder, stockLotsOf } from '../../src/store/stock.ts';

type Service = ReturnType<typeof serviceFor>;

/** BrickLink's store inventory download: INVENTORY of ITEMs with LOTID and the bin in REMARKS. */
function storeInventory(
  lots: { lot: string; no: string; colour?: number; qty: number; bin?: string; condition?: string }[],
) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<INVENTORY>\n${lots
    .map(
      (l) =>
        `<ITEM><LOTID>${l.lot}</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>${l.no}</ITEMID>` +
        `${l.colour === undefined ? '' : `<COLOR>${l.colour}</COLOR>`}<QTY>${l.qty}</QTY><PRICE>0.1000</PRICE>` +
        `<CONDITION>${l.condition ?? 'N'}</CONDITION>${l.bin === undefined ? '' : `<REMARKS>${l.bin}</REMARKS>`}` +
        `<DESCRIPTION>sorted</DESCRIPTION><SALE>0</SALE><STOCKROOM>N</STOCKROOM></ITEM>`,
    )
    .join('\n')}\n</INVENTORY>\n`;
}

async function shop() {
  const { db, dbPath } = await storeWithCatalogue();
  insertColour(db, { id: 11, name: 'Black' });
  return { db, service: serviceFor(db, dbPath, { desk: 'counter' }) };
}

const FIRST = file(
  'inventory.xml',
  storeInventory([
    { lot: '101', no: '3001', colour: 5, qty: 40, bin: 'A10' },
    { lot: '102', no: '3001', colour: 5, qty: 7, bin: ' A2 ', condition: 'U' },
    { lot: '103', no: '3003', colour: 11, qty: 12, bin: 'B-1-9' },
    { lot: '104', no: 'x999', colour: 5, qty: 3, bin: 'C1' },
    { lot: '105', no: '3003', colour: 5, qty: 1 },
  ]),
);
const SECOND = file(
  'inventory.xml',
  storeInventory([
    { lot: '201', no: '3001', colour: 5, qty: 30, bin: 'D1' },
    { lot: '202', no: '3003', colour: 11, qty: 2, bin: 'D2' },
  ]),
);

const stockInfo = (service: Service) => ok(service.call('stock.info', {}));

it('a BrickLink inventory download is the stock: each lot placed, its bin from REMARKS as given (trimmed), its LOTID kept; unplaced lots listed with their reasons', async () => {
  const { db, service } = await shop();
  expect(await stockInfo(service)).toBeNull();
  const preview = await ok(service.call('stock.preview', { file: FIRST }));
  expect(preview.refusal).toBeNull();
  // The screens name it by the file the worker chose; its key is its content's, for the store.
  expect(preview.fileName).toBe('inventory.xml');
  expect(preview.documents[0]?.key).toMatch(/^stock:[0-9a-f]{16}$/);
  expect(preview.stock).toMatchObject({
    locationFrom: 'remarks',
    locations: 4,
    lotsWithoutLocation: 1,
    lotsWithLotId: 5,
    replaces: null,
  });
  expect(preview.documents[0]?.columns.read).toEqual(
    expect.arrayContaining([
      { title: 'LOTID', as: 'BrickLink lot id' },
      { title: 'REMARKS', as: 'remarks; location' },
    ]),
  );
  const done = await ok(service.call('stock.import', { file: FIRST }));
  expect(done.imported.order.reference).toBe('Stock');
  expect(done.imported.document.key).toMatch(/^stock:[0-9a-f]{16}$/);
  expect(done.replaced).toEqual([]);
  expect(done.stock).toMatchObject({
    orderId: done.imported.order.id,
    documentId: done.imported.document.id,
    fileName: 'inventory.xml',
    desk: 'counter',
    lots: 5,
    pieces: 63,
    unplaced: 1,
    locations: 4,
    lotsWithoutLocation: 1,
    lotsWithLotId: 5,
  });
  expect((await ok(service.call('history.state', {}))).undo?.label).toBe('Import of the stock from inventory.xml');

  const lots = stockLotsOf(db, { itemType: 'P', itemNo: '3001', colourId: 5 });
  expect(lots.map((l) => [l.location, l.lotId, l.quantity, l.condition])).toEqual([
    ['A10', '101', 40, 'N'],
    ['A2', '102', 7, 'U'],
  ]);
  expect(stockLotsOf(db, { itemType: 'P', itemNo: '3003' }).map((l) => [l.colourId, l.location])).toEqual([
    [11, 'B-1-9'],
    [5, null],
  ]);
  expect(stockLotsOf(db, { itemType: 'P', itemNo: '3003', colourId: 11 }).map((l) => l.lotId)).toEqual(['103']);

  // The unplaced lot is a line like any other: listed with its reason, fixed by hand.
  const unplaced = await ok(service.call('lines.list', { orderId: done.stock.orderId, unplacedOnly: true }));
  expect(unplaced.map((l) => [l.given.no, l.reason?.code])).toEqual([['x999', expect.any(String)]]);
  expect(unplaced[0]?.reason?.text).toMatch(/not in the catalogue/);
});

it('a BrickStore file of the store: the bins from Remarks, BrickStore’s LotID kept (0: none)', async () => {
  const { db, service } = await shop();
  const text = bsx([
    { no: '3001', colour: 5, qty: 4, remarks: 'Drawer 7' },
    { no: '3003', colour: 11, qty: 9, remarks: 'Drawer 12' },
  ])
    .replace('<Remarks>Drawer 7</Remarks>', '<Remarks>Drawer 7</Remarks><LotID>555</LotID>')
    .replace('<Remarks>Drawer 12</Remarks>', '<Remarks>Drawer 12</Remarks><LotID>0</LotID>');
  const done = await ok(service.call('stock.import', { file: file('store.bsx', text) }));
  expect(done.stock).toMatchObject({ lots: 2, pieces: 13, unplaced: 0, locations: 2, lotsWithLotId: 1 });
  expect(stockLotsOf(db, { itemType: 'P', itemNo: '3001', colourId: 5 }).map((l) => [l.location, l.lotId])).toEqual([
    ['Drawer 7', '555'],
  ]);
  expect(stockLotsOf(db, { itemType: 'P', itemNo: '3003', colourId: 11 }).map((l) => [l.location, l.lotId])).toEqual([
    ['Drawer 12', null],
  ]);
});

it('--location-from a CSV column: the locations are that column’s; a column the file lacks is refused naming those it has', async () => {
  const { db, service } = await shop();
  const list = file(
    'stock.csv',
    csv(
      ['Part', 'Color ID', 'Qty', 'Remarks', 'Bin', 'Lot ID'],
      [
        ['3001', 5, 10, 'old note', 'R-2', '9001'],
        ['3003', 11, 20, 'x', 'R-10', ''],
      ],
    ),
  );
  const missing = await ok(service.call('stock.preview', { file: list, locationFrom: 'Shelf' }));
  expect(missing.refusal).toEqual({
    code: 'invalid-argument',
    message:
      'stock.csv has no column "Shelf" to read the location from; its columns are Part, Color ID, Qty, Remarks, Bin, Lot ID.',
  });
  expect((await refused(service.call('stock.import', { file: list, locationFrom: 'Shelf' }))).code).toBe(
    'invalid-argument',
  );
  expect(await stockInfo(service)).toBeNull();

  const preview = await ok(service.call('stock.preview', { file: list, locationFrom: 'bin' }));
  expect(preview.documents[0]?.columns.read).toEqual(
    expect.arrayContaining([
      { title: 'Bin', as: 'location' },
      { title: 'Lot ID', as: 'BrickLink lot id' },
    ]),
  );
  await ok(service.call('stock.import', { file: list, locationFrom: 'bin' }));
  expect(stockLotsOf(db, { itemType: 'P', itemNo: '3001', colourId: 5 }).map((l) => [l.location, l.lotId])).toEqual([
    ['R-2', '9001'],
  ]);
  expect(stockLotsOf(db, { itemType: 'P', itemNo: '3003', colourId: 11 }).map((l) => [l.location, l.lotId])).toEqual([
    ['R-10', null],
  ]);
});

it('the stock is no order: left out of orders.list and the summary, still reached by stock.info and its order', async () => {
  const { service } = await shop();
  await ok(
    service.call('import.confirm', { file: file('order.xml', inventoryXml([{ no: '3001', colour: 5, qty: 2 }])) }),
  );
  const done = await ok(service.call('stock.import', { file: FIRST }));
  const orders = await ok(service.call('orders.list', {}));
  expect(orders.map((o) => o.reference)).toEqual(['order.xml']);
  const summary = await ok(service.call('export.summary', {}));
  expect(summary.content.split('\r\n').filter((l) => l !== '')).toHaveLength(2);
  expect(summary.content).not.toMatch(/Stock/);
  const order = await ok(service.call('orders.get', { orderId: done.stock.orderId }));
  expect(order.order).toMatchObject({ reference: 'Stock', lines: 5 });
});

it('stockLotsForOrder: every stock lot of an item and colour a placed line of the order has, whatever its condition', async () => {
  const { db, service } = await shop();
  await ok(service.call('stock.import', { file: FIRST }));
  const [order] = await ok(
    service.call('import.confirm', {
      file: file(
        'order.xml',
        inventoryXml([
          { no: '3001', colour: 5, qty: 2 },
          { no: '3003', colour: 11, qty: 1 },
          { no: '3003', colour: 99, qty: 1 },
          { no: 'nope', colour: 5, qty: 1 },
        ]),
      ),
    }),
  );
  // As the pick and put-away plans take them.
  expect(stockLotsOfOrder(db, order?.order.id ?? 0)[0]).toEqual({
    lot: expect.any(Number),
    lotId: '101',
    item: { type: 'P', no: '3001', colour: 5 },
    condition: 'N',
    quantity: 40,
    location: 'A10',
  });
  const lots = stockLotsForOrder(db, order?.order.id ?? 0);
  expect(lots.map((l) => [l.itemNo, l.colourId, l.location, l.lotId])).toEqual([
    ['3001', 5, 'A10', '101'],
    ['3001', 5, 'A2', '102'],
    ['3003', 11, 'B-1-9', '103'],
  ]);
});

describeEachStore('a newer stock import replaces the stock, with Undo', () => {
  it('replaces as one undo step; Undo brings the first back exactly, Redo the second; the same file again is refused as the stock', async () => {
    const { db, service } = await shop();
    const first = await ok(service.call('stock.import', { file: FIRST }));
    const preview = await ok(service.call('stock.preview', { file: SECOND }));
    expect(preview.stock.replaces).toMatchObject({ documentId: first.stock.documentId, fileName: 'inventory.xml' });
    const second = await ok(service.call('stock.import', { file: SECOND }));
    expect(second.stock.orderId).toBe(first.stock.orderId);
    expect(second.replaced.map((r) => r.documentId)).toEqual([first.stock.documentId]);
    expect(second.stock).toMatchObject({ lots: 2, pieces: 32, locations: 2 });
    expect(stockLotsOf(db, { itemType: 'P', itemNo: '3001', colourId: 5 }).map((l) => l.location)).toEqual(['D1']);
    const docs = await ok(service.call('documents.list', { orderId: first.stock.orderId }));
    expect(docs.map((d) => d.state)).toEqual(['undone', 'imported']);

    // The same file as the current stock: refused in the stock's words, nothing written.
    const again = await refused(service.call('stock.import', { file: SECOND }));
    expect(again.code).toBe('duplicate-document');
    expect(again.message).toMatch(/^This is already the stock, imported on .* from inventory\.xml/);
    expect((await ok(service.call('stock.preview', { file: SECOND }))).refusal?.message).toBe(again.message);

    const state = await ok(service.call('history.state', {}));
    expect(state.undo?.label).toBe('Import of the stock from inventory.xml');
    await ok(service.call('history.undo', { expectedStep: state.undo?.id ?? 0 }));
    expect(await stockInfo(service)).toMatchObject({ documentId: first.stock.documentId, lots: 5, locations: 4 });
    expect(stockLotsOf(db, { itemType: 'P', itemNo: '3001', colourId: 5 }).map((l) => l.location)).toEqual([
      'A10',
      'A2',
    ]);

    const back = await ok(service.call('history.state', {}));
    await ok(service.call('history.redo', { expectedStep: back.redo?.id ?? 0 }));
    expect(await stockInfo(service)).toMatchObject({ documentId: second.stock.documentId, lots: 2 });
    expect(stockLotsOf(db, { itemType: 'P', itemNo: '3001', colourId: 5 }).map((l) => l.location)).toEqual(['D1']);
    // The first file is not the stock now: it can be the stock again, as a new revision.
    const third = await ok(service.call('stock.import', { file: FIRST }));
    expect(third.stock).toMatchObject({ lots: 5, locations: 4 });
    expect(third.stock.documentId).not.toBe(first.stock.documentId);
  });
});

it('an order document is not imported into the stock order: the stock is replaced whole, by a stock import', async () => {
  const { service } = await shop();
  const done = await ok(service.call('stock.import', { file: FIRST }));
  const into = await refused(
    service.call('import.confirm', {
      file: file('order.xml', inventoryXml([{ no: '3001', colour: 5, qty: 2 }])),
      orderId: done.stock.orderId,
    }),
  );
  expect(into).toEqual({
    code: 'invalid-argument',
    message: `Order Stock (#${done.stock.orderId}) is the shop's stock: a file goes into it only as the whole stock, which replaces the one before (Import the stock, or brick-work stock import FILE).`,
  });
  expect(await stockInfo(service)).toMatchObject({ documentId: done.stock.documentId, lots: 5 });
});

it('the import’s rules hold for the stock: a list’s warnings refuse it until acknowledged, and nothing is written meanwhile', async () => {
  const { db, service } = await shop();
  // No quantity column, and colour numbers whose numbering the list does not say.
  const list = file('bins.csv', csv(['Part', 'Color', 'Bin'], [['3001', 5, 'K-3']]));
  const preview = await ok(service.call('stock.preview', { file: list, locationFrom: 'Bin' }));
  expect(preview.documents[0]?.warnings.map((w) => w.code).sort()).toEqual([
    'colour-numbering-guessed',
    'no-quantity-column',
  ]);
  expect(preview.refusal?.code).toBe('needs-acknowledgement');
  expect((await refused(service.call('stock.import', { file: list, locationFrom: 'Bin' }))).code).toBe(
    'needs-acknowledgement',
  );
  expect(await stockInfo(service)).toBeNull();
  const done = await ok(
    service.call('stock.import', {
      file: list,
      locationFrom: 'Bin',
      acknowledge: ['no-quantity-column', 'colour-numbering-guessed'],
    }),
  );
  expect(done.stock).toMatchObject({ lots: 1, pieces: 1, unplaced: 0, locations: 1 });
  expect(stockLotsOf(db, { itemType: 'P', itemNo: '3001', colourId: 5 }).map((l) => l.location)).toEqual(['K-3']);
});
