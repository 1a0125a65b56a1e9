import { describe, expect, it } from 'vitest';
import { BrickLinkApi } from '../../src/catalogue/bricklink/api.ts';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import { storeInventoryFileName, storeInventoryLots, storeInventoryXml } from '../../src/stock/store-inventory.ts';
import { startStandIn, TEST_CREDENTIALS } from '../helpers/bricklink-stand-in.ts';

/** Lots as BrickLink's API writes them (`GET /inventories`): what a shop's store answers. */
const API_LOTS = [
  {
    inventory_id: 501,
    item: { no: '3001', name: 'Brick 2 x 4', type: 'PART', category_id: 5 },
    color_id: 11,
    color_name: 'Black',
    quantity: 40,
    new_or_used: 'N',
    unit_price: '0.1200',
    description: '',
    remarks: 'A10',
  },
  {
    inventory_id: 502,
    item: { no: '970c00', name: 'Legs', type: 'PART', category_id: 7 },
    color_id: 156,
    quantity: 3,
    new_or_used: 'U',
    unit_price: '0.5',
    description: 'a little worn',
    remarks: 'B-1-9 & spare <shelf>',
  },
  {
    inventory_id: 503,
    item: { no: 'sw0001a', type: 'MINIFIG' },
    color_id: 0,
    quantity: 1,
    new_or_used: 'N',
    unit_price: '12.5000',
  },
];

describe("the shop's store inventory from BrickLink's API (SPEC §16)", () => {
  it('is fetched in one signed call and written as the inventory download, which the reader reads back', async () => {
    const standIn = await startStandIn({}, { inventory: API_LOTS });
    const api = new BrickLinkApi(standIn.url, TEST_CREDENTIALS);
    const lots = storeInventoryLots(await api.fetchStoreInventory());
    expect(standIn.requests).toEqual(['inventories']);
    expect(lots.map((l) => [l.lotId, l.type, l.no, l.colourId, l.quantity, l.condition, l.remarks])).toEqual([
      [501, 'P', '3001', 11, 40, 'N', 'A10'],
      [502, 'P', '970c00', 156, 3, 'U', 'B-1-9 & spare <shelf>'],
      [503, 'M', 'sw0001a', 0, 1, 'N', null],
    ]);

    const xml = storeInventoryXml(lots);
    expect(xml).toContain('<LOTID>502</LOTID>');
    expect(xml).toContain('<REMARKS>B-1-9 &amp; spare &lt;shelf&gt;</REMARKS>');
    const [doc] = readDocumentFile({
      name: storeInventoryFileName(new Date(Date.UTC(2026, 11, 7))),
      content: Buffer.from(xml),
    });
    expect(doc?.fileName).toBe('BrickLink store inventory 2026-12-07.xml');
    expect(
      doc?.lines.map((l) => [
        l.given.type,
        l.given.no,
        l.given.colourId,
        l.quantity,
        l.unitPriceE4,
        l.condition,
        l.remarks,
      ]),
    ).toEqual([
      ['P', '3001', 11, 40, 1200, 'N', 'A10'],
      ['P', '970c00', 156, 3, 5000, 'U', expect.stringContaining('B-1-9 & spare <shelf>')],
      ['M', 'sw0001a', 0, 1, 125000, 'N', null],
    ]);
  });

  it('refuses an answer with a lot it does not describe whole, naming it, rather than a stock missing lots', () => {
    const broken = [API_LOTS[0], { ...API_LOTS[1], new_or_used: 'X' }];
    expect(() => storeInventoryLots(broken)).toThrow(/lot 2 of 2, id 502/);
    expect(() => storeInventoryLots({ nope: true })).toThrow(/no inventory list/);
  });

  it("is refused in BrickLink's words when the signature is wrong", async () => {
    const standIn = await startStandIn({}, { inventory: API_LOTS });
    const api = new BrickLinkApi(standIn.url, { ...TEST_CREDENTIALS, tokenSecret: 'wrong' });
    await expect(api.fetchStoreInventory()).rejects.toThrow(/401: BAD_OAUTH_REQUEST/);
  });
});
