/**
 * `brick-work stock import` and `stock info` as a child process (issue 65 §1, SPEC §10, §16): the words and
 * the JSON, a dry run that writes nothing, a refusal in words, the stock kept out of `orders`, and Undo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cli, cliJson } from '../helpers/cli.ts';
import { inventoryXml } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';

const INVENTORY = `<?xml version="1.0" encoding="UTF-8"?>
<INVENTORY>
<ITEM><LOTID>7001</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><QTY>40</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>A10</REMARKS></ITEM>
<ITEM><LOTID>7002</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3003</ITEMID><COLOR>5</COLOR><QTY>3</QTY><PRICE>0.1</PRICE><CONDITION>U</CONDITION><REMARKS>A2</REMARKS></ITEM>
<ITEM><LOTID>7003</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3003</ITEMID><COLOR>5</COLOR><QTY>1</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION></ITEM>
</INVENTORY>
`;

it('stock import and stock info, as a script and a person use them', async () => {
  const dir = tempDir();
  const store = path.join(dir, 'brick-work.sqlite');
  const inventory = path.join(dir, 'inventory.xml');
  fs.writeFileSync(inventory, INVENTORY);
  const order = path.join(dir, 'order.xml');
  fs.writeFileSync(order, inventoryXml([{ no: '3001', colour: 5, qty: 2 }]));

  expect((await cli(['--db', store, 'stock', 'info'])).stdout).toBe(
    'No stock yet: brick-work stock import FILE imports the shop’s inventory.\n',
  );
  const dry = await cliJson(['--db', store, 'stock', 'import', inventory, '--dry-run']);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.json.stock).toEqual({
    locationFrom: 'remarks',
    locations: 2,
    lotsWithoutLocation: 1,
    lotsWithLotId: 3,
    replaces: null,
  });
  expect(dry.json.documents[0].lines).toHaveLength(3);
  expect((await cliJson(['--db', store, 'stock', 'info'])).json).toEqual({ stock: null });

  const missing = await cli(['--db', store, 'stock', 'import', inventory, '--location-from', 'Bin']);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain(
    'inventory.xml has no field "Bin" to read the location from; its items have LOTID, ITEMTYPE, ITEMID, COLOR, QTY, PRICE, CONDITION, REMARKS.',
  );

  const done = await cli(['--db', store, 'stock', 'import', inventory]);
  expect(done.code, done.stderr).toBe(0);
  expect(done.stdout).toBe(
    'Imported the stock from inventory.xml (order #1, document 1): 3 lots, 44 pieces, 3 unplaced; 2 locations, ' +
      '1 lot without one; 3 lots with a BrickLink lot id.\n' +
      'The unplaced lots are fixed as lines are: brick-work lines 1 --unplaced.\n',
  );
  const again = await cli(['--db', store, 'stock', 'import', inventory]);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/This is already the stock, imported on .* from inventory\.xml/);

  const info = await cliJson(['--db', store, 'stock', 'info']);
  expect(info.json.stock).toMatchObject({
    orderId: 1,
    documentId: 1,
    fileName: 'inventory.xml',
    lots: 3,
    locations: 2,
  });
  expect((await cli(['--db', store, 'stock', 'info', '--desk', 'back room'])).stdout).toMatch(
    /^The stock: inventory\.xml, imported on .+ \(order #1, document 1\)\.\n3 lots, 44 pieces, 3 unplaced; 2 locations, 1 lot without one; 3 lots with a BrickLink lot id\.\n$/,
  );

  // The stock is no order: `orders` lists the shop's orders only.
  expect((await cli(['--db', store, 'import', order])).code).toBe(0);
  expect((await cliJson(['--db', store, 'orders'])).json.orders.map((o: { reference: string }) => o.reference)).toEqual(
    ['order.xml'],
  );
  // Its unplaced lots are lines like any other, with their reasons.
  const lines = await cliJson(['--db', store, 'lines', '1', '--unplaced']);
  expect(lines.json.lines).toHaveLength(3);

  // Undo takes the stock's import back (the order import first).
  expect((await cli(['--db', store, 'undo'])).code).toBe(0);
  expect((await cli(['--db', store, 'undo'])).stdout).toMatch(/Import of the stock from inventory\.xml/);
  expect((await cliJson(['--db', store, 'stock', 'info'])).json).toEqual({ stock: null });
}, 60_000);
