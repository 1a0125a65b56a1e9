/**
 * `brick-work pick` as a child process (issue 65 §2, SPEC §10, §16): the walk in words, its files (CSV,
 * printable HTML, PDF), the JSON, and marks set and taken back from the command line, with Undo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openStore } from '../../src/store/open.ts';
import { PictureCache, pictureCacheFile } from '../../src/store/picture-cache.ts';
import { getSetting } from '../../src/store/settings.ts';
import { png } from '../helpers/png.ts';
import { cli, cliJson } from '../helpers/cli.ts';
import { inventoryXml } from '../helpers/documents.ts';
import { insertColour, insertItem } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

const INVENTORY = `<?xml version="1.0" encoding="UTF-8"?>
<INVENTORY>
<ITEM><LOTID>7001</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><QTY>4</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>A10</REMARKS></ITEM>
<ITEM><LOTID>7002</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><QTY>9</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>A2</REMARKS></ITEM>
<ITEM><LOTID>7003</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3003</ITEMID><COLOR>5</COLOR><QTY>1</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>B1</REMARKS></ITEM>
</INVENTORY>
`;

it('pick ORDER_ID: the walk in words, as CSV, HTML and PDF, and marks with Undo', async () => {
  const dir = tempDir();
  const db = path.join(dir, 'brick-work.sqlite');
  const store = await openStore(db);
  insertItem(store.db, { no: '3001', name: 'Brick 2 x 4' });
  insertItem(store.db, { no: '3003', name: 'Brick 2 x 2' });
  insertItem(store.db, { no: '3004', name: 'Brick 1 x 2' });
  insertColour(store.db, { id: 5, name: 'Red' });
  store.close();
  const inventory = path.join(dir, 'inventory.xml');
  fs.writeFileSync(inventory, INVENTORY);
  const order = path.join(dir, 'order.xml');
  fs.writeFileSync(
    order,
    inventoryXml([
      { no: '3001', colour: 5, qty: 12 },
      { no: '3003', colour: 5, qty: 3 },
      { no: '3004', colour: 5, qty: 1 },
      { no: 'zz-9', colour: 5, qty: 2 },
    ]),
  );

  const before = await cliJson(['--db', db, 'pick', '1']);
  expect(before.code).toBe(1);
  expect(before.json.error.code).toBe('not-found');
  expect((await cli(['--db', db, 'import', order])).code).toBe(0);
  const noStock = await cli(['--db', db, 'pick', '1']);
  expect(noStock.code).toBe(1);
  expect(noStock.stderr).toContain('There is no stock yet: import the shop');
  expect((await cli(['--db', db, 'stock', 'import', inventory])).code).toBe(0);

  const words = await cli(['--db', db, 'pick', '1']);
  expect(words.code, words.stderr).toBe(0);
  const lines = words.stdout.split('\n');
  expect(lines[0]).toMatch(
    /^Pick list: order order\.xml \(#1\), from the stock inventory\.xml imported \d{4}-\d\d-\d\d$/,
  );
  expect(lines.slice(1, 4).map((l) => l.replace(/\s+\{[^}]*\}$/, '').replace(/\s+/g, ' '))).toEqual([
    ' A2 take 9 P 3001 Brick 2 x 4, Red',
    ' A10 take 3 P 3001 Brick 2 x 4, Red',
    ' B1 take 1 P 3003 Brick 2 x 2, Red — 2 short (the bins hold 1 of 3)',
  ]);
  expect(lines.slice(4)).toEqual([
    'Missing (nothing in stock to take):',
    '  order.xml #3: P 3004 Brick 1 x 2 (Red) × 1 — none in stock',
    'Unplaced (fix the line first):',
    expect.stringMatching(/^ {2}order\.xml #4: P zz-9.* × 2 — .+/),
    'Picked: 0 of 3 lots, 0 of 13 pieces',
    '',
  ]);

  const csvFile = path.join(dir, 'pick.csv');
  const htmlFile = path.join(dir, 'pick.html');
  const pdfFile = path.join(dir, 'pick.pdf');
  const files = await cli([
    '--db',
    db,
    'pick',
    '1',
    '--csv',
    csvFile,
    '--html',
    htmlFile,
    '--pdf',
    pdfFile,
    '--paper',
    'letter',
    '--landscape',
    '--no-pictures',
  ]);
  expect(files.code, files.stderr).toBe(0);
  expect(files.stdout).toBe(
    `Wrote ${csvFile}\nWrote ${htmlFile}\nWrote ${pdfFile}\nPick list: order order.xml, 0 of 3 lots, 0 of 13 pieces\n`,
  );
  expect(fs.readFileSync(csvFile, 'utf8').split('\r\n').slice(0, 4)).toEqual([
    'location,item,name,colour,condition,take,ordered,in lot,short,picked',
    'A2,P 3001,Brick 2 x 4,Red,new,9,12,9,,0',
    'A10,P 3001,Brick 2 x 4,Red,new,3,12,4,,0',
    'B1,P 3003,Brick 2 x 2,Red,new,1,3,1,2 short (the bins hold 1 of 3),0',
  ]);
  const html = fs.readFileSync(htmlFile, 'utf8');
  expect(html).toContain('<title>Pick list: order order.xml</title>');
  expect(html).toContain('size: letter landscape');
  expect(html).not.toContain('<img');
  expect(fs.readFileSync(pdfFile).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // Pictures: those the app's picture cache keeps beside the store, none fetched (3001 in Red is kept).
  const cache = PictureCache.open(pictureCacheFile(db), 50_000_000);
  const kept = await openStore(db);
  const base = getSetting(kept.db, 'picture-url');
  kept.close();
  cache.put(`${base}/ItemImage/PN/5/3001.png`, { bytes: png([200, 0, 0]), type: 'image/png' }, Date.now());
  cache.close();
  const pictured = await cli(['--db', db, 'pick', '1', '--html', htmlFile, '--pdf', pdfFile]);
  expect(pictured.code, pictured.stderr).toBe(0);
  expect(fs.readFileSync(htmlFile, 'utf8').match(/src="data:image\/png;base64,/g)).toHaveLength(2);
  expect(
    fs
      .readFileSync(pdfFile)
      .toString('latin1')
      .match(/\/Subtype \/Image/g)?.length,
  ).toBeGreaterThan(0);
  const bad = await cli(['--db', db, 'pick', '1', '--html', htmlFile, '--paper', 'a3']);
  expect(bad.code).toBe(2);

  const list = await cliJson(['--db', db, 'pick', '1']);
  expect(list.json.pick.progress.text).toBe('0 of 3 lots, 0 of 13 pieces');
  const [a2, a10] = list.json.pick.entries;
  expect(a2).toMatchObject({ location: 'A2', take: 9, picked: 0 });

  // A mark: the whole take by default, or --picked N of it; then taken back; Undo puts it back.
  const whole = await cli(['--db', db, '--desk', 'back', 'pick', '1', '--mark', a2.key]);
  expect(whole.code, whole.stderr).toBe(0);
  expect(whole.stdout).toBe('Pick 9 × 3001 from A2. Picked: 1 of 3 lots, 9 of 13 pieces\n');
  const part = await cliJson(['--db', db, '--desk', 'back', 'pick', '1', '--mark', a10.key, '--picked', '2']);
  expect(part.json.mark.entry).toMatchObject({ picked: 2, pickedBy: 'back' });
  const tooMany = await cli(['--db', db, 'pick', '1', '--mark', a10.key, '--picked', '4']);
  expect(tooMany.code).toBe(1);
  expect(tooMany.stderr).toContain('3 pieces are taken from this lot: mark 1 to 3 picked (not 4)');
  const unmarked = await cli(['--db', db, '--desk', 'back', 'pick', '1', '--unmark', a2.key]);
  expect(unmarked.stdout).toBe('Take back the pick of 3001 from A2. Picked: 0 of 3 lots, 2 of 13 pieces\n');
  expect((await cli(['--db', db, '--desk', 'back', 'undo'])).code).toBe(0);
  const after = await cli(['--db', db, 'pick', '1']);
  expect(after.stdout).toContain('[picked 9 by back]');
  expect(after.stdout).toContain('Picked: 1 of 3 lots, 11 of 13 pieces');
  expect((await cli(['--db', db, 'pick', '1', '--mark', a2.key, '--unmark', a2.key])).code).toBe(2);
});
