/**
 * The pick list through the contract (issue 65 §2, SPEC §16): an order's saved lines against the stock —
 * the walk in natural order, a line from several bins, shortfalls of each kind, the unplaced lines apart —
 * and its marks: absolute, one undo step each, one row an entry whichever desk marks it.
 */
import { expect, it } from 'vitest';
import { serviceFor, ok, refused } from '../helpers/service.ts';
import { file, inventoryXml } from '../helpers/documents.ts';
import { insertColour, insertItem, storeWithCatalogue } from '../helpers/store-builder.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { openStore } from '../../src/store/open.ts';
import { pickMarksOfOrder } from '../../src/store/pick-marks.ts';
import { onTestFinished } from 'vitest';

type Service = ReturnType<typeof serviceFor>;

/** BrickLink's store inventory download: LOTID, and the bin in REMARKS. */
function storeInventory(
  lots: { lot: string; no: string; colour: number; qty: number; bin?: string; condition?: string }[],
) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<INVENTORY>\n${lots
    .map(
      (l) =>
        `<ITEM><LOTID>${l.lot}</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>${l.no}</ITEMID><COLOR>${l.colour}</COLOR>` +
        `<QTY>${l.qty}</QTY><PRICE>0.1000</PRICE><CONDITION>${l.condition ?? 'N'}</CONDITION>` +
        `${l.bin === undefined ? '' : `<REMARKS>${l.bin}</REMARKS>`}</ITEM>`,
    )
    .join('\n')}\n</INVENTORY>\n`;
}

const STOCK = file(
  'inventory.xml',
  storeInventory([
    // One item in three bins: the walk takes A2, then A10, then B-1-10 (natural order, not the file's).
    { lot: '11', no: '3001', colour: 5, qty: 4, bin: 'A10' },
    { lot: '12', no: '3001', colour: 5, qty: 50, bin: 'B-1-10' },
    { lot: '13', no: '3001', colour: 5, qty: 3, bin: 'A2' },
    // Below the order.
    { lot: '21', no: '3003', colour: 11, qty: 2, bin: 'B-1-9' },
    // Only in the other condition.
    { lot: '31', no: '3020', colour: 5, qty: 4, bin: 'C1', condition: 'U' },
  ]),
);

/** An order going out: each kind of line once. */
const ORDER = file(
  'order.xml',
  inventoryXml([
    { no: '3001', colour: 5, qty: 10 },
    { no: '3003', colour: 11, qty: 5 },
    { no: '3020', colour: 5, qty: 2 },
    { no: '3004', colour: 5, qty: 1 },
    { no: 'nope-9', colour: 5, qty: 6 },
  ]),
);

async function shop(desk = 'counter') {
  const { db, dbPath } = await storeWithCatalogue();
  insertColour(db, { id: 11, name: 'Black' });
  insertItem(db, { no: '3020', name: 'Plate 2 x 4' });
  insertItem(db, { no: '3004', name: 'Brick 1 x 2' });
  const events: string[] = [];
  const service = serviceFor(db, dbPath, { desk, emit: (name) => events.push(name) });
  return { db, dbPath, service, events };
}

async function withOrder(service: Service) {
  await ok(service.call('stock.import', { file: STOCK }));
  const [order] = await ok(service.call('import.confirm', { file: ORDER }));
  if (order === undefined) throw new Error('no order');
  return order.order.id;
}

const list = (service: Service, orderId: number) => ok(service.call('pick.list', { orderId }));

/** Each stop as `location: take (line's item)`. */
const walkOf = (l: Awaited<ReturnType<typeof list>>) => l.entries.map((e) => `${e.location}: ${e.take} × ${e.item.no}`);

it('walks the bins in natural order, a line from several bins first in walking order first, each shortfall in words, the unplaced apart', async () => {
  const { service } = await shop();
  const orderId = await withOrder(service);
  const l = await list(service, orderId);
  expect(l.order).toEqual({ id: orderId, reference: 'order.xml' });
  expect(l.stock).toMatchObject({ fileName: 'inventory.xml', lots: 5 });
  expect(walkOf(l)).toEqual(['A2: 3 × 3001', 'A10: 4 × 3001', 'B-1-9: 2 × 3003', 'B-1-10: 3 × 3001']);
  expect(l.entries[0]).toEqual({
    key: expect.stringMatching(/^\d+:L13$/),
    line: expect.any(Number),
    position: 1,
    where: 'order.xml #1',
    item: { type: 'P', no: '3001', shown: '3001', name: 'Brick 2 x 4', colour: { id: 5, name: 'Red' } },
    condition: 'N',
    location: 'A2',
    lot: expect.any(Number),
    lotId: '13',
    inLot: 3,
    ordered: 10,
    take: 3,
    short: null,
    picked: 0,
    pickedBy: null,
  });
  // Below the order: on the line's (only) stop, in staff's words.
  expect(l.entries[2]?.short).toEqual({ kind: 'short', missing: 3, text: '3 short (the bins hold 2 of 5)' });
  // Nothing to walk to: apart, with what the stock holds in the other condition, or none.
  expect(l.missing.map((m) => [m.where, m.item.no, m.item.colour?.name, m.short])).toEqual([
    ['order.xml #3', '3020', 'Red', { kind: 'other-condition', missing: 2, text: 'only used in stock: 4 in C1' }],
    ['order.xml #4', '3004', 'Red', { kind: 'none', missing: 1, text: 'none in stock' }],
  ]);
  expect(l.unplaced).toEqual([
    expect.objectContaining({
      where: 'order.xml #5',
      quantity: 6,
      reason: expect.any(String),
      text: expect.any(String),
    }),
  ]);
  expect(l.nothingAsked).toEqual([]);
  expect(l.progress).toEqual({ lots: 4, lotsDone: 0, pieces: 12, piecesDone: 0, text: '0 of 4 lots, 0 of 12 pieces' });
});

it('a line of 0 pieces has nothing to take: listed apart, never a stop', async () => {
  const { service } = await shop();
  await ok(service.call('stock.import', { file: STOCK }));
  const [order] = await ok(
    service.call('import.confirm', {
      file: file(
        'zero.xml',
        inventoryXml([
          { no: '3003', colour: 11, qty: 0 },
          { no: '3001', colour: 5, qty: 1 },
        ]),
      ),
    }),
  );
  const l = await list(service, order?.order.id ?? 0);
  expect(walkOf(l)).toEqual(['A2: 1 × 3001']);
  expect(l.nothingAsked).toEqual([
    { line: expect.any(Number), position: 1, where: 'zero.xml #1', what: 'P 3003 Brick 2 x 2 (Black)', quantity: 0 },
  ]);
});

it('is refused without a stock, for an order that is not there, and for the stock’s own order', async () => {
  const { service } = await shop();
  const [order] = await ok(service.call('import.confirm', { file: ORDER }));
  const orderId = order?.order.id ?? 0;
  const none = await refused(service.call('pick.list', { orderId }));
  expect(none).toEqual({
    code: 'no-stock',
    message:
      "There is no stock yet: import the shop's inventory first (Catalogue & jobs → Stock, or `brick-work stock import FILE`).",
  });
  expect((await refused(service.call('pick.mark', { orderId, key: '1:2', picked: 1 }))).code).toBe('no-stock');
  const stock = await ok(service.call('stock.import', { file: STOCK }));
  expect((await refused(service.call('pick.list', { orderId: 999 }))).code).toBe('not-found');
  const own = await refused(service.call('pick.list', { orderId: stock.stock.orderId }));
  expect(own.code).toBe('invalid-argument');
  expect(own.message).toMatch(/^Order Stock is the stock itself/);
  // An order taken back: nothing to pick, said so (as its put-away list and exports say).
  const docs = await ok(service.call('documents.list', { orderId }));
  await ok(service.call('documents.takeBack', { documentId: docs[0]?.id ?? 0 }));
  const undone = await refused(service.call('pick.list', { orderId }));
  expect(undone.code).toBe('already-undone');
  expect(undone.message).toMatch(
    /^Order order\.xml \(#\d+\) was taken back on .*: none of its documents is imported, so there is nothing to pick/,
  );
});

it('on paper: the walk in order with the location, item, colour and take, a short note, the lines apart in words', async () => {
  const { service } = await shop();
  const orderId = await withOrder(service);
  const printable = await ok(
    service.call('pick.printable', { orderId, paper: 'letter', orientation: 'landscape', pictures: false }),
  );
  expect(printable.name).toBe('pick list order.html');
  // No printing of the app's here (the browser host, the CLI): the page prints the HTML given back.
  expect(printable.printed).toBeNull();
  const html = printable.html;
  expect(html).toContain('<title>Pick list: order order.xml</title>');
  // Nothing but itself loads in it: no script, no address; pictures only as data.
  expect(html).toContain(
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
  );
  expect(html).toContain('size: letter landscape');
  expect(html).toMatch(
    /4 lots, 12 pieces \(picked: 0 of 4 lots, 0 of 12 pieces\) · stock inventory\.xml, imported \d{4}-\d\d-\d\d/,
  );
  const wheres = [...html.matchAll(/<td class="where">([^<]*)<\/td>/g)].map((m) => m[1]);
  expect(wheres).toEqual(['A2', 'A10', 'B-1-9', 'B-1-10']);
  expect(html).toContain('<td class="what">P 3003 Brick 2 x 2</td><td class="colour">Black</td><td class="qty">2</td>');
  expect(html).toContain('3 short (the bins hold 2 of 5)');
  expect(html).toContain('<h2>Missing: nothing in stock to take</h2>');
  expect(html).toContain('order.xml #3: P 3020 Plate 2 x 4 (Red) × 2: only used in stock: 4 in C1');
  expect(html).toContain('<h2>Unplaced: not matched with the stock (fix the line first)</h2>');
  expect(html).toContain('order.xml #5: ');
  expect(html).not.toContain('<img');

  const csv = await ok(service.call('pick.file', { orderId, as: 'csv' }));
  expect(csv).toMatchObject({ name: 'pick list order.csv', base64: false });
  expect(csv.content.split('\r\n')).toEqual([
    'location,item,name,colour,condition,take,ordered,in lot,short,picked',
    'A2,P 3001,Brick 2 x 4,Red,new,3,10,3,,0',
    'A10,P 3001,Brick 2 x 4,Red,new,4,10,4,,0',
    'B-1-9,P 3003,Brick 2 x 2,Black,new,2,5,2,3 short (the bins hold 2 of 5),0',
    'B-1-10,P 3001,Brick 2 x 4,Red,new,3,10,50,,0',
    ',P 3020,Plate 2 x 4,Red,,0,2,0,only used in stock: 4 in C1,0',
    ',P 3004,Brick 1 x 2,Red,,0,1,0,none in stock,0',
    expect.stringMatching(/^,,.*nope-9.*,,,0,6,0,unplaced: .+,0$/),
    '',
  ]);
  const pdf = await ok(service.call('pick.file', { orderId, as: 'pdf', pictures: false }));
  expect(pdf).toMatchObject({ name: 'pick list order.pdf', base64: true });
  expect(Buffer.from(pdf.content, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

it('prints the pictures the cache keeps, and asks for none to be fetched', async () => {
  const { db, dbPath } = await shop();
  const asked: string[] = [];
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  const service = serviceFor(db, dbPath, {
    pictures: {
      bases: () => ({ bricklink: 'https://img.example', rebrickable: 'https://cdn.example' }),
      network: () => true,
      answers: () => {
        throw new Error('a printable list fetches nothing');
      },
      kept: (urls) => {
        asked.push(...urls);
        return urls.map((u) => (u.includes('/5/3001.png') ? { bytes: png, type: 'image/png' } : null));
      },
      counts: () => ({ fetched: 0, failed: 0, refused: 0, lastRefused: null, waiting: 0 }),
      cached: () => ({ pictures: 1, missing: 0, bytes: 7 }),
      inMemory: () => null,
      clear: () => {},
    },
  });
  const orderId = await withOrder(service);
  const { html } = await ok(
    service.call('pick.printable', { orderId, paper: 'a4', orientation: 'portrait', pictures: true }),
  );
  expect(asked).toContain('https://img.example/ItemImage/PN/5/3001.png');
  const cells = [...html.matchAll(/<td class="picture">(.*?)<\/td>/g)].map((m) => m[1]);
  const img = `<img alt="" src="data:image/png;base64,${Buffer.from(png).toString('base64')}">`;
  expect(cells).toEqual([img, img, '', img]);
});

it('in the app, the list goes to its own printing with the paper chosen, and no page comes back to print', async () => {
  const { db, dbPath } = await shop();
  const printed: { html: string; layout: unknown }[] = [];
  let outcome: 'printed' | 'cancelled' = 'printed';
  const service = serviceFor(db, dbPath, {
    printer: {
      print: async (html, layout) => {
        printed.push({ html, layout });
        return outcome;
      },
    },
  });
  const orderId = await withOrder(service);
  const args = { orderId, paper: 'letter', orientation: 'landscape', pictures: false } as const;
  expect(await ok(service.call('pick.printable', args))).toEqual({
    name: 'pick list order.html',
    html: '',
    printed: 'printed',
  });
  expect(printed).toHaveLength(1);
  expect(printed[0]?.layout).toEqual({ paper: 'letter', orientation: 'landscape' });
  expect(printed[0]?.html).toContain('size: letter landscape');
  expect(printed[0]?.html).toContain('<td class="where">A2</td>');
  outcome = 'cancelled';
  expect(await ok(service.call('pick.printable', { ...args, paper: 'a4', orientation: 'portrait' }))).toMatchObject({
    printed: 'cancelled',
  });
  expect(printed[1]?.layout).toEqual({ paper: 'a4', orientation: 'portrait' });
});

describeEachStore('pick marks', () => {
  it('a mark is absolute, one undo step, refused out of its range or for an entry the walk has not; Undo takes it back', async () => {
    const { service, events } = await shop();
    const orderId = await withOrder(service);
    const a10 = (await list(service, orderId)).entries[1];
    if (a10 === undefined) throw new Error('no A10');
    events.length = 0;
    const marked = await ok(service.call('pick.mark', { orderId, key: a10.key, picked: 4 }));
    expect(marked.step).toMatchObject({ kind: 'pick-mark', label: 'Pick 4 × 3001 from A10', desk: 'counter' });
    expect(marked.entry).toMatchObject({ key: a10.key, picked: 4, pickedBy: 'counter', take: 4 });
    expect(marked.progress.text).toBe('1 of 4 lots, 4 of 12 pieces');
    expect(events).toContain('store.changed');
    // Set, never added: 2 picked of 4 is 2, not 6.
    const part = await ok(service.call('pick.mark', { orderId, key: a10.key, picked: 2 }));
    expect(part.progress).toMatchObject({ lotsDone: 0, piecesDone: 2, text: '0 of 4 lots, 2 of 12 pieces' });

    const over = await refused(service.call('pick.mark', { orderId, key: a10.key, picked: 5 }));
    expect(over).toEqual({
      code: 'invalid-argument',
      message: '4 pieces are taken from this lot: mark 1 to 4 picked (not 5), or take the mark back.',
    });
    expect((await refused(service.call('pick.mark', { orderId, key: a10.key, picked: 0 }))).code).toBe(
      'invalid-argument',
    );
    const gone = await refused(service.call('pick.mark', { orderId, key: '999999:1', picked: 1 }));
    expect(gone.code).toBe('not-found');
    expect(gone.message).toMatch(/^The pick list of order order\.xml has no entry "?999999:1"? now/);

    // Undo: back to 4, then to no mark at all.
    for (const expected of [4, 0]) {
      const undo = (await ok(service.call('history.state', {}))).undo;
      expect(undo?.kind).toBe('pick-mark');
      await ok(service.call('history.undo', { expectedStep: undo?.id ?? 0 }));
      const now = await list(service, orderId);
      expect(now.entries[1]?.picked).toBe(expected);
    }
    expect((await list(service, orderId)).progress.piecesDone).toBe(0);
    const redo = (await ok(service.call('history.state', {}))).redo;
    await ok(service.call('history.redo', { expectedStep: redo?.id ?? 0 }));
    expect((await list(service, orderId)).entries[1]).toMatchObject({ picked: 4, pickedBy: 'counter' });
  });

  it('unmark takes a mark back as a step of its own (Undo puts it back); an unmarked entry has nothing to take back', async () => {
    const { service } = await shop();
    const orderId = await withOrder(service);
    const b19 = (await list(service, orderId)).entries[2];
    if (b19 === undefined) throw new Error('no B-1-9');
    const nothing = await refused(service.call('pick.unmark', { orderId, key: b19.key }));
    expect(nothing).toEqual({
      code: 'invalid-argument',
      message: '3003 from B-1-9 is not marked picked: there is no mark to take back.',
    });
    await ok(service.call('pick.mark', { orderId, key: b19.key, picked: 2 }));
    const unmarked = await ok(service.call('pick.unmark', { orderId, key: b19.key }));
    expect(unmarked.step).toMatchObject({ kind: 'pick-mark', label: 'Take back the pick of 3003 from B-1-9' });
    expect(unmarked.entry).toMatchObject({ picked: 0, pickedBy: null });
    expect(unmarked.progress.piecesDone).toBe(0);
    expect((await refused(service.call('pick.unmark', { orderId, key: b19.key }))).code).toBe('invalid-argument');
    const undo = (await ok(service.call('history.state', {}))).undo;
    await ok(service.call('history.undo', { expectedStep: undo?.id ?? 0 }));
    expect((await list(service, orderId)).entries[2]).toMatchObject({ picked: 2, pickedBy: 'counter' });
  });

  it('a mark of an entry the walk no longer has (a newer stock) counts nothing, and that entry can no longer be marked', async () => {
    const { service } = await shop();
    const orderId = await withOrder(service);
    const a2 = (await list(service, orderId)).entries[0];
    if (a2 === undefined) throw new Error('no A2');
    await ok(service.call('pick.mark', { orderId, key: a2.key, picked: 3 }));
    // The stock imported again: its lots are new lines, so the walk's entries are new ones.
    await ok(
      service.call('stock.import', {
        file: file('inventory.xml', storeInventory([{ lot: '91', no: '3001', colour: 5, qty: 20, bin: 'Z9' }])),
      }),
    );
    const now = await list(service, orderId);
    expect(walkOf(now)).toEqual(['Z9: 10 × 3001']);
    expect(now.entries[0]).toMatchObject({ picked: 0, pickedBy: null });
    expect(now.progress).toMatchObject({ lotsDone: 0, piecesDone: 0 });
    expect((await refused(service.call('pick.mark', { orderId, key: a2.key, picked: 1 }))).code).toBe('not-found');
  });

  it('a newer import of the same stock (a fresh download, mid-walk) keeps the marks on its lots, by lot id or by bin', async () => {
    const { service } = await shop();
    const orderId = await withOrder(service);
    const a2 = (await list(service, orderId)).entries[0];
    if (a2 === undefined) throw new Error('no A2');
    await ok(service.call('pick.mark', { orderId, key: a2.key, picked: 3 }));
    // The same lots, downloaded again after a sale elsewhere: B-1-10 holds fewer.
    const fresh = storeInventory([
      { lot: '11', no: '3001', colour: 5, qty: 4, bin: 'A10' },
      { lot: '12', no: '3001', colour: 5, qty: 40, bin: 'B-1-10' },
      { lot: '13', no: '3001', colour: 5, qty: 3, bin: 'A2' },
    ]);
    await ok(service.call('stock.import', { file: file('inventory.xml', fresh) }));
    const now = await list(service, orderId);
    expect(walkOf(now)).toEqual(['A2: 3 × 3001', 'A10: 4 × 3001', 'B-1-10: 3 × 3001']);
    expect(now.entries[0]).toMatchObject({ key: a2.key, picked: 3, pickedBy: 'counter' });
    // A stock without lot ids (a CSV of bins): its lots are known by bin, item, colour and condition.
    const csv = (qty: number) =>
      file('stock.csv', `Part,Color,Quantity,Condition,Location\n3001,5,${qty},N,A2\n3001,5,30,N,A10\n`);
    await ok(service.call('stock.import', { file: csv(3), locationFrom: 'Location', colourNumbering: 'bricklink' }));
    const byBin = (await list(service, orderId)).entries[0];
    if (byBin === undefined) throw new Error('no A2');
    await ok(service.call('pick.mark', { orderId, key: byBin.key, picked: 2 }));
    await ok(service.call('stock.import', { file: csv(5), locationFrom: 'Location', colourNumbering: 'bricklink' }));
    expect((await list(service, orderId)).entries[0]).toMatchObject({ location: 'A2', key: byBin.key, picked: 2 });
  });

  it('two desks marking the same entry: one row, the later mark’s count, never added up; each sees the other’s', async () => {
    const { db, dbPath, service } = await shop('front');
    const orderId = await withOrder(service);
    const other = await openStore(dbPath);
    onTestFinished(() => other.close());
    const events: string[] = [];
    const back = serviceFor(other.db, dbPath, { desk: 'back', emit: (name) => events.push(name) });
    const [a2, a10] = (await list(service, orderId)).entries;
    if (a2 === undefined || a10 === undefined) throw new Error('no walk');

    await ok(service.call('pick.mark', { orderId, key: a2.key, picked: 3 }));
    const seen = await list(back, orderId);
    expect(seen.entries[0]).toMatchObject({ picked: 3, pickedBy: 'front' });
    const again = await ok(back.call('pick.mark', { orderId, key: a2.key, picked: 3 }));
    expect(events).toContain('store.changed');
    expect(again.entry).toMatchObject({ picked: 3, pickedBy: 'back' });
    expect(again.progress).toMatchObject({ lotsDone: 1, piecesDone: 3 });
    await ok(back.call('pick.mark', { orderId, key: a10.key, picked: 1 }));
    await ok(service.call('pick.mark', { orderId, key: a10.key, picked: 2 }));
    expect(pickMarksOfOrder(db, orderId).map((m) => [m.key, m.picked, m.desk])).toEqual([
      [a2.key, 3, 'back'],
      [a10.key, 2, 'front'],
    ]);
    for (const s of [service, back]) expect((await list(s, orderId)).progress.text).toBe('1 of 4 lots, 5 of 12 pieces');
    // The back desk's Undo would take back a mark the front desk has set since: refused, naming that step.
    const backUndo = (await ok(back.call('history.state', {}))).undo;
    expect(backUndo?.label).toBe('Pick 1 × 3001 from A10');
    expect((await refused(back.call('history.undo', { expectedStep: backUndo?.id ?? 0 }))).code).toBe('step-conflict');
    // The front desk takes its own back: the back desk's mark of A10 as it was, 1.
    const frontUndo = (await ok(service.call('history.state', {}))).undo;
    await ok(service.call('history.undo', { expectedStep: frontUndo?.id ?? 0 }));
    expect((await list(back, orderId)).entries[1]).toMatchObject({ picked: 1, pickedBy: 'back' });
  });
});
