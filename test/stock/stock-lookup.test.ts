/**
 * The stock straight from BrickLink's API (issue 65 §1, SPEC §16): `stock.lookup` asks the shop's store
 * inventory in one signed call, counted against the day's budget before it is sent (Catalogue & jobs shows
 * it), and gives it back as BrickLink's inventory download — previewed and imported as the stock as that
 * file would be; each refusal writes no stock. (Off the writer thread in the app: stock-lookup-threads.test.ts.)
 */
import { expect, it } from 'vitest';
import type { Credentials } from '../../src/catalogue/bricklink/oauth.ts';
import { stockLotsOfOrder } from '../../src/stock/lots.ts';
import { startStandIn, TEST_CREDENTIALS } from '../helpers/bricklink-stand-in.ts';
import { serviceFor, ok, refused } from '../helpers/service.ts';
import { insertColour, storeWithCatalogue } from '../helpers/store-builder.ts';
import { describeEachStore } from '../helpers/stores.ts';

/** The shop's store as BrickLink's API gives it (`GET /inventories`). */
const LOTS = [
  {
    inventory_id: 9001,
    item: { no: '3001', name: 'Brick 2 x 4', type: 'PART' },
    color_id: 5,
    quantity: 40,
    new_or_used: 'N',
    unit_price: '0.1200',
    remarks: 'A10',
  },
  {
    inventory_id: 9002,
    item: { no: '3003', name: 'Brick 2 x 2', type: 'PART' },
    color_id: 11,
    quantity: 3,
    new_or_used: 'U',
    unit_price: '0.5',
    remarks: 'B-1-9',
  },
  { inventory_id: 9003, item: { no: '3001', type: 'PART' }, color_id: 11, quantity: 1, new_or_used: 'N' },
];

async function shop(credentials: Credentials | null = TEST_CREDENTIALS) {
  const { db, dbPath } = await storeWithCatalogue();
  insertColour(db, { id: 11, name: 'Black' });
  const standIn = await startStandIn({}, { inventory: LOTS });
  const service = serviceFor(db, dbPath, {
    desk: 'counter',
    credentials: { encrypted: false, get: () => credentials, set: () => {} },
  });
  await ok(service.call('settings.set', { key: 'api-url', value: standIn.url }));
  const used = async () => (await ok(service.call('catalogue.status', {}))).budget.used;
  return { db, service, standIn, used };
}

describeEachStore("the stock from BrickLink's API (issue 65 §1)", () => {
  it("gives the store's inventory as BrickLink's download, the call counted; previewed, then imported as the stock: its lots, lot ids and bins (from the remarks)", async () => {
    const { db, service, standIn, used } = await shop();
    expect(await used()).toBe(0);
    const got = await ok(service.call('stock.lookup', {}));
    expect(standIn.requests).toEqual(['inventories']);
    expect(got.fetched).toBe(3);
    expect(got.file.name).toMatch(/^BrickLink store inventory \d{4}-\d{2}-\d{2}\.xml$/);
    expect(new TextDecoder().decode(got.file.content)).toMatch(/^<INVENTORY>\n {2}<ITEM>\n {4}<LOTID>9001<\/LOTID>/);
    expect(got.budget).toMatchObject({ used: 1 });
    // Catalogue & jobs shows the look-up's budget: this call is in it. Nothing else is written yet.
    expect(await used()).toBe(1);
    expect(await ok(service.call('stock.info', {}))).toBeNull();
    expect((await ok(service.call('history.state', {}))).undo).toBeNull();

    // The worker sees it first, as any stock file: its lots, their locations, the stock it would replace.
    const request = { file: got.file, locationFrom: null, acknowledge: [], colourNumbering: null };
    const preview = await ok(service.call('stock.preview', request));
    expect(preview.refusal).toBeNull();
    expect(preview.fileName).toBe(got.file.name);
    expect(preview.documents[0]?.counts).toMatchObject({ total: 3, unplaced: 0 });
    expect(preview.stock).toMatchObject({ locationFrom: 'remarks', locations: 2, lotsWithLotId: 3, replaces: null });
    expect(await ok(service.call('stock.info', {}))).toBeNull();

    const done = await ok(service.call('stock.import', request));
    expect(done.stock).toMatchObject({
      fileName: got.file.name,
      lots: 3,
      pieces: 44,
      unplaced: 0,
      locations: 2,
      lotsWithoutLocation: 1,
      lotsWithLotId: 3,
    });
    expect(done.replaced).toEqual([]);
    expect(await ok(service.call('stock.info', {}))).toEqual(done.stock);
    const lots = stockLotsOfOrder(db, done.stock.orderId).map((l) => [
      l.lotId,
      l.item.no,
      l.item.colour,
      l.quantity,
      l.condition,
      l.location,
    ]);
    expect(lots).toEqual([
      ['9001', '3001', 5, 40, 'N', 'A10'],
      ['9002', '3003', 11, 3, 'U', 'B-1-9'],
      ['9003', '3001', 11, 1, 'N', null],
    ]);
    // One undo step, as an import of the stock: Undo takes it back.
    const state = await ok(service.call('history.state', {}));
    expect(state.undo?.label).toBe(`Import of the stock from ${got.file.name}`);
    // The budget counted once: the preview and the import asked BrickLink nothing.
    expect(standIn.requests).toEqual(['inventories']);
    expect(await used()).toBe(1);

    // The same inventory again: the call was made, so it counts; its preview says it is the stock already.
    const again = await ok(service.call('stock.lookup', {}));
    expect(await used()).toBe(2);
    const twice = await ok(service.call('stock.preview', { ...request, file: again.file }));
    expect(twice.refusal?.code).toBe('duplicate-document');
    expect(twice.refusal?.message).toContain('stock');
    expect(standIn.requests).toEqual(['inventories', 'inventories']);
  });

  it("is refused in BrickLink's words when the signature is wrong: the call counted, nothing else written", async () => {
    const { service, standIn, used } = await shop({ ...TEST_CREDENTIALS, tokenSecret: 'wrong' });
    const no = await refused(service.call('stock.lookup', {}));
    expect(no.code).toBe('source-error');
    expect(no.message).toContain('BAD_OAUTH_REQUEST');
    expect(standIn.requests).toEqual(['inventories']);
    expect(await used()).toBe(1);
    expect(await ok(service.call('stock.info', {}))).toBeNull();
    expect((await ok(service.call('history.state', {}))).undo).toBeNull();
  });

  it('is refused before anything is sent when the day’s budget is used up, or there are no credentials', async () => {
    const { service, standIn, used } = await shop();
    await ok(service.call('settings.set', { key: 'daily-call-limit', value: '0' }));
    const spent = await refused(service.call('stock.lookup', {}));
    expect(spent.code).toBe('budget-exhausted');
    expect(spent.message).toContain('budget is used up');
    expect(standIn.requests).toEqual([]);
    expect(await used()).toBe(0);
    expect(await ok(service.call('stock.info', {}))).toBeNull();

    const none = await shop(null);
    const missing = await refused(none.service.call('stock.lookup', {}));
    expect(missing.code).toBe('no-credentials');
    expect(missing.message).toContain('credentials');
    expect(none.standIn.requests).toEqual([]);
    expect(await none.used()).toBe(0);
    expect(await ok(none.service.call('stock.info', {}))).toBeNull();
  });

  it('counts the call before it is sent: Catalogue & jobs shows it while BrickLink has not answered', async () => {
    const { service, standIn, used } = await shop();
    standIn.hold();
    const asked = standIn.nextRequest();
    const lookup = service.call('stock.lookup', {});
    expect(await asked).toBe('inventories');
    expect(await used()).toBe(1);
    standIn.release();
    expect((await ok(lookup)).fetched).toBe(3);
    expect(await used()).toBe(1);
  });
});
