/**
 * The put-away list of an order coming in, and its files for BrickLink (issue 65 §3, SPEC §16), through
 * the contract: `putAway.list` and `putAway.export` on a stock imported from BrickLink's inventory
 * download, on both stores (the stock's lots by item and by category are the store's queries).
 */
import { expect, it } from 'vitest';
import type { PutAwayExportView, PutAwayListView } from '../../src/api/contract.ts';
import { checkArguments } from '../../src/api/validate.ts';
import { busiestLocation, mostCommonLocation, STOCK_UNCHANGED_NOTE } from '../../src/stock/put-away-plan.ts';
import { parseXmlTree } from '../../src/text/xml.ts';
import { file, orderXml } from '../helpers/documents.ts';
import { serviceFor, ok, refused } from '../helpers/service.ts';
import { insertColour, insertItem, storeWithCatalogue } from '../helpers/store-builder.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { bricklinkMassUpdateProblems, bricklinkXmlProblems } from '../helpers/xml-check.ts';
import { explainable, postgresScans, recordStatements, sqliteScans } from '../helpers/plans.ts';

/** BrickLink's store inventory download: a lot's LOTID (where given) and its bin in REMARKS. */
function storeInventory(lots: { lot?: string; no: string; colour: number; qty: number; bin: string; cond?: string }[]) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<INVENTORY>\n${lots
    .map(
      (l) =>
        `<ITEM>${l.lot === undefined ? '' : `<LOTID>${l.lot}</LOTID>`}<ITEMTYPE>P</ITEMTYPE><ITEMID>${l.no}</ITEMID>` +
        `<COLOR>${l.colour}</COLOR><QTY>${l.qty}</QTY><PRICE>0.1000</PRICE><CONDITION>${l.cond ?? 'N'}</CONDITION>` +
        `<REMARKS>${l.bin}</REMARKS></ITEM>`,
    )
    .join('\n')}\n</INVENTORY>\n`;
}

const STOCK = file(
  'inventory.xml',
  storeInventory([
    { lot: '101', no: '3001', colour: 5, qty: 40, bin: 'A10' },
    { lot: '102', no: '3001', colour: 5, qty: 7, bin: 'A2', cond: 'U' },
    { lot: '103', no: '3003', colour: 11, qty: 12, bin: 'B-1-9' },
    // A lot without a lot id: nothing names it to BrickLink's Mass Update.
    { no: '3003', colour: 5, qty: 1, bin: 'B2' },
    { lot: '104', no: '3004', colour: 5, qty: 3, bin: 'C1' },
  ]),
);

/** A purchase received: lines into lots, new lots (suggested from the item, its category, or nowhere), and lines apart. */
const RECEIVED = file(
  'received.xml',
  orderXml([
    {
      id: '7001',
      seller: 'bricks-r-us',
      lines: [
        { no: '3001', colour: 5, qty: 12 }, // #1 into lot 101 (A10): 40 → 52
        { no: '3001', colour: 5, qty: 3 }, // #2 into lot 101 too: 52 → 55
        { no: '3001', colour: 11, qty: 5 }, // #3 new: the item's other lots (A10, A2) → A2
        { no: '3010', colour: 5, qty: 6 }, // #4 new: nothing of 3010, its category's lots (A10, A2, B-1-9, B2) → A2
        { no: '3005', colour: 1, qty: 2 }, // #5 new: its category holds nothing → "type one"
        { no: '3003', colour: 5, qty: 4 }, // #6 into the lot without a lot id (B2): 1 → 5
        { no: '3004', colour: 5, qty: 2, condition: 'U' }, // #7 the stock has 3004 new only: a new lot beside it (C1)
        { no: 'zz-unknown', colour: 5, qty: 9 }, // #8 unplaced
      ],
    },
  ]),
);

async function shop() {
  const { db, dbPath } = await storeWithCatalogue();
  // 3001 and 3003 (store-builder's) are in category 5 too; 3004 in 7; 3005 in 9, of which the stock holds nothing.
  db.prepare("UPDATE catalogue_item SET category_id = 5 WHERE item_no IN ('3001', '3003')").run();
  insertItem(db, { no: '3010', name: 'Brick 1 x 2', categoryId: 5 });
  insertItem(db, { no: '3004', name: 'Brick 1 x 2 plain', categoryId: 7 });
  insertItem(db, { no: '3005', name: 'Brick 1 x 1', categoryId: 9 });
  insertColour(db, { id: 11, name: 'Black' });
  insertColour(db, { id: 1, name: 'White' });
  const service = serviceFor(db, dbPath, { desk: 'counter' });
  const [imported] = await ok(service.call('import.confirm', { file: RECEIVED }));
  if (imported === undefined) throw new Error('nothing imported');
  return { db, service, orderId: imported.order.id };
}

const itemsOf = (xml: string) =>
  parseXmlTree(xml, 'x.xml').children.map((item) => Object.fromEntries(item.children.map((c) => [c.name, c.text])));

describeEachStore('the put-away list of an order coming in (issue 65 §3)', (stores) => {
  it('is refused without a stock, and for the stock itself', async () => {
    const { service, orderId } = await shop();
    const none = await refused(service.call('putAway.list', { orderId }));
    expect(none.code).toBe('no-stock');
    expect(none.message).toContain('import the shop');
    expect((await refused(service.call('putAway.export', { orderId }))).code).toBe('no-stock');
    const stock = await ok(service.call('stock.import', { file: STOCK }));
    const itself = await refused(service.call('putAway.list', { orderId: stock.stock.orderId }));
    expect(itself.message).toContain('is the stock itself');
    expect((await refused(service.call('putAway.list', { orderId: 999_999 }))).code).toBe('not-found');
    // An order taken back has nothing to put away, as its exports say.
    const [doc] = await ok(service.call('documents.list', { orderId }));
    await ok(service.call('documents.takeBack', { documentId: doc?.id ?? 0 }));
    const gone = await refused(service.call('putAway.list', { orderId }));
    expect(gone.code).toBe('already-undone');
    expect(gone.message).toContain('nothing to put away');
    expect((await refused(service.call('putAway.export', { orderId }))).code).toBe('already-undone');
  });

  it('puts each line into its lot (before → after), or a new lot with a location from the item, its category, or typed; every line accounted for', async () => {
    const { service, orderId } = await shop();
    await ok(service.call('stock.import', { file: STOCK }));
    const list: PutAwayListView = await ok(service.call('putAway.list', { orderId }));
    expect(list.order.id).toBe(orderId);
    expect(list.stock.lots).toBe(5);
    expect(list.note).toBe(STOCK_UNCHANGED_NOTE);
    const row = (p: number) => list.entries.find((e) => e.position === p);
    expect(row(1)).toMatchObject({
      kind: 'existing',
      location: 'A10',
      lotId: '101',
      before: 40,
      after: 52,
      from: null,
    });
    expect(row(2)).toMatchObject({ kind: 'existing', location: 'A10', lotId: '101', before: 52, after: 55 });
    expect(row(3)).toMatchObject({ kind: 'new', location: 'A2', from: 'item', lot: null, before: null, after: null });
    expect(row(4)).toMatchObject({ kind: 'new', location: 'A2', from: 'category' });
    expect(row(5)).toMatchObject({ kind: 'new', location: null, from: null });
    expect(row(6)).toMatchObject({ kind: 'existing', location: 'B2', lotId: null, before: 1, after: 5 });
    expect(row(7)).toMatchObject({ kind: 'new', location: 'C1', from: 'item', condition: 'U' });
    // The item as staff read it: its number in the shop numbering, the catalogue's name and colour.
    expect(row(3)?.item).toEqual({
      type: 'P',
      no: '3001',
      shown: '3001',
      name: 'Brick 2 x 4',
      colour: { id: 11, name: 'Black' },
    });
    expect(list.unplaced.map((u) => [u.position, u.quantity, u.reason])).toEqual([[8, 9, expect.any(String)]]);
    expect(list.unplaced[0]?.text).not.toBe('');
    expect(list.nothingReceived).toEqual([]);
    // Every line once: in the walk, or apart.
    const accounted = [...list.entries, ...list.unplaced, ...list.nothingReceived].map((l) => l.position);
    expect(accounted.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Walking order: by location, new lots without one last.
    expect(list.entries.map((e) => e.location)).toEqual(['A2', 'A2', 'A10', 'A10', 'B2', 'C1', null]);

    // A location typed for a new lot replaces the suggestion, and places it in the walk.
    const five = row(5)?.line ?? 0;
    const three = row(3)?.line ?? 0;
    const typed = await ok(
      service.call('putAway.list', { orderId, locations: { [String(five)]: ' K & 1 <top> ', [String(three)]: 'A1' } }),
    );
    expect(typed.entries.find((e) => e.line === five)).toMatchObject({ location: 'K & 1 <top>', from: 'typed' });
    expect(typed.entries.find((e) => e.line === three)).toMatchObject({ location: 'A1', from: 'typed' });
    expect(typed.entries[0]?.line).toBe(three);
    // A typed location for something other than a line id is bad usage, in words.
    const bad = await refused(service.call('putAway.list', { orderId, locations: { B2: 'x' } }));
    expect(bad.code).toBe('invalid-argument');
    expect(bad.message).toContain('not an order line id');
  });

  it('writes a Mass Update of the existing lots and a Mass Upload of the new ones, both as BrickLink takes them; every line in one or left out', async () => {
    const { service, orderId } = await shop();
    await ok(service.call('stock.import', { file: STOCK }));
    const list = await ok(service.call('putAway.list', { orderId }));
    const five = list.entries.find((e) => e.position === 5)?.line ?? 0;
    const done: PutAwayExportView = await ok(
      service.call('putAway.export', { orderId, locations: { [String(five)]: 'K & 1 <top>' } }),
    );
    const { update, upload } = done;
    if (update === null || upload === null) throw new Error('a file is missing');
    expect(update.name).toBe('put-away 7001 mass update.xml');
    expect(upload.name).toBe('put-away 7001 mass upload.xml');
    expect(bricklinkMassUpdateProblems(update.content)).toEqual([]);
    expect(bricklinkXmlProblems(upload.content, 'upload')).toEqual([]);
    // Read back: one change of +15 to lot 101; four new lots, each with its location as REMARKS.
    expect(itemsOf(update.content)).toEqual([{ LOTID: '101', QTY: '+15' }]);
    expect(update.rows).toBe(1);
    expect(update.note).toContain('adds 2 lines to 1 lot');
    expect(
      itemsOf(upload.content).map((i) => [i['ITEMID'], i['COLOR'], i['QTY'], i['CONDITION'], i['REMARKS']]),
    ).toEqual([
      ['3001', '11', '5', 'N', 'A2'],
      ['3010', '5', '6', 'N', 'A2'],
      ['3004', '5', '2', 'U', 'C1'],
      ['3005', '1', '2', 'N', 'K & 1 <top>'],
    ]);
    expect(upload.rows).toBe(4);
    // Left out, each with its reason: the line into the lot without a lot id, the unplaced line.
    expect(done.leftOut.map((l) => [l.where, l.reason])).toEqual([
      [expect.stringMatching(/#6$/), 'no-lot-id'],
      [expect.stringMatching(/#8$/), 'unplaced'],
    ]);
    expect(done.note).toContain('2 lines are left out');
    expect(done.note).toContain('Nothing is sent to BrickLink');
    expect(done.note).toContain(STOCK_UNCHANGED_NOTE);
    // Every line of the order: in the update, in the upload, or left out — once.
    const lines = await ok(service.call('lines.list', { orderId }));
    const inUpdate = list.entries.filter((e) => e.kind === 'existing' && e.lotId !== null).map((e) => e.line);
    const inUpload = list.entries.filter((e) => e.kind === 'new').map((e) => e.line);
    const leftOut = done.leftOut.map((l) => l.line);
    expect([...inUpdate, ...inUpload, ...leftOut].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      lines.map((l) => l.id).sort((a, b) => a - b),
    );
    // A new lot without a location is written all the same, and said.
    const untyped = await ok(service.call('putAway.export', { orderId }));
    expect(untyped.upload?.note).toContain('1 lot without a location');
  });

  it("reads the stock's lots by item and by category through indexes, never the catalogue or the stock whole", async () => {
    const { db, service, orderId } = await shop();
    await ok(service.call('stock.import', { file: STOCK }));
    const rec = recordStatements(db);
    rec.during('putAway.list');
    await ok(service.call('putAway.list', { orderId }));
    const server = stores.kind === 'postgres';
    // As the plan check of every call (test/store/plans.test.ts): whether an index can answer, whatever the size.
    if (server) db.exec('SET enable_seqscan = off; SET enable_hashjoin = off; SET enable_mergejoin = off');
    // (The documents are few here: the plan check on a grown store holds them to their indexes.)
    const tables = ['catalogue_item', 'order_line', 'stock_lot'];
    const statements = [...rec.prepared.values()].filter((p) => explainable(p.sql));
    const byCategory = statements.find((p) => p.sql.includes('c.category_id = ?'));
    if (byCategory === undefined) throw new Error('no lots were read by category');
    if (!server) {
      // The category's items first, each one's lots by the stock's index: not every lot of the stock, each
      // looked up for its category (a SEARCH by the document alone, which the scan check does not see).
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${byCategory.sql}`).all(...(byCategory.args ?? [])) as { detail: string }[]
      ).map((r) => r.detail);
      const items = plan.findIndex((d) => /^SEARCH c USING .*catalogue_item_by_category/.test(d));
      const lots = plan.findIndex((d) =>
        /^SEARCH l USING (COVERING )?INDEX order_line_by_document_item \(.*item_no=\?/.test(d),
      );
      expect({ plan, first: items >= 0 && lots > items }).toEqual({ plan, first: true });
    }
    const scans = statements.flatMap((p) =>
      (server ? postgresScans(db, p, tables) : sqliteScans(db, p, tables))
        .filter(() => p.sql.includes('stock_order') || p.sql.includes('catalogue_item c'))
        .map((scan) => `${scan.table}: ${scan.plan} in ${p.sql.replace(/\s+/g, ' ').slice(0, 120)}`),
    );
    if (server) db.exec('RESET enable_seqscan; RESET enable_hashjoin; RESET enable_mergejoin');
    expect(scans).toEqual([]);
  });

  it("is refused until a new lot's item without a BrickLink number is acknowledged, then leaves it out by name", async () => {
    const { db, service, orderId } = await shop();
    insertItem(db, { no: 'rb-only-1', name: 'A part BrickLink does not number', source: 'rebrickable:parts' });
    await ok(service.call('stock.import', { file: STOCK }));
    const lines = await ok(service.call('lines.list', { orderId }));
    const unknown = lines.find((l) => l.position === 8);
    if (unknown === undefined) throw new Error('no line 8');
    await ok(service.call('lines.place', { lineId: unknown.id, type: 'P', no: 'rb-only-1', colourId: null }));
    const no = await refused(service.call('putAway.export', { orderId }));
    expect(no.code).toBe('needs-acknowledgement');
    expect(no.message).toContain('--accept no-bricklink-number');
    const done = await ok(service.call('putAway.export', { orderId, accept: ['no-bricklink-number'] }));
    expect(done.leftOut.find((l) => l.line === unknown.id)?.reason).toBe('no-number');
    expect(done.upload?.content).not.toContain('rb-only-1');
  });
});

it("a category's bin is the one most of its lots are in, as the plan chooses among lots (a tie: the first in natural order)", () => {
  const counts = [
    { location: 'A10', lots: 2 },
    { location: 'B2', lots: 3 },
    { location: 'A2', lots: 3 },
  ];
  expect(busiestLocation(counts)).toBe('A2');
  expect(busiestLocation([{ location: 'B2', lots: 4 }, ...counts])).toBe('B2');
  expect(busiestLocation([])).toBeNull();
  // The same as the plan's own rule over the lots themselves.
  const lots = counts.flatMap(({ location, lots: n }) =>
    Array.from({ length: n }, (_, i) => ({
      lot: i,
      lotId: null,
      item: { type: 'P', no: '3001', colour: 5 },
      condition: null,
      quantity: 1,
      location,
    })),
  );
  expect(mostCommonLocation(lots)).toBe(busiestLocation(counts));
});

it("typed locations are checked as the contract's arguments: line ids written plainly, a location up to 100 characters", () => {
  const check = (locations: unknown) => checkArguments('putAway.list', { orderId: 1, locations });
  expect(check({ '12': 'B-3', '7': 'K & 1 <top>' })).toBeNull();
  expect(check({})).toBeNull();
  for (const key of ['0', '012', 'B2', '1.5', '-3', '99999999999999999'])
    expect(check({ [key]: 'A1' }), key).toMatch(/not an order line id/);
  // Own keys only, as JSON gives them from the renderer: `__proto__` is a key like any other, and refused.
  expect(check(JSON.parse('{"__proto__": "A1"}'))).toMatch(/not an order line id/);
  expect(check({ '1': 'x'.repeat(101) })).toMatch(/up to 100 characters/);
  expect(check({ '1': 3 })).toMatch(/must be text/);
  expect(check(['A1'])).toMatch(/must be an object/);
  expect(check(Object.fromEntries(Array.from({ length: 5_001 }, (_, i) => [String(i + 1), 'A1'])))).toMatch(
    /at most 5000 entries/,
  );
  expect(checkArguments('putAway.export', { orderId: 1, accept: ['no-bricklink-number'] })).toBeNull();
});
