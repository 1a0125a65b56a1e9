/**
 * `brick-work put-away` and `stock lookup` as a child process (issue 65 §1, §3; SPEC §10, §16): the list in
 * words and as JSON, the two files written into a folder and checked as BrickLink takes them, bad usage
 * (exit 2), refusals in words (exit 1), and the stock taken from BrickLink's API (a stand-in).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { parseXmlTree } from '../../src/text/xml.ts';
import { CREDENTIALS_ENV, startStandIn } from '../helpers/bricklink-stand-in.ts';
import { files } from '../helpers/catalogue-files.ts';
import { cli, cliJson } from '../helpers/cli.ts';
import { orderXml } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';
import { bricklinkMassUpdateProblems, bricklinkXmlProblems } from '../helpers/xml-check.ts';

const INVENTORY = `<?xml version="1.0" encoding="UTF-8"?>
<INVENTORY>
<ITEM><LOTID>7001</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><COLOR>5</COLOR><QTY>40</QTY><PRICE>0.1</PRICE><CONDITION>N</CONDITION><REMARKS>A10</REMARKS></ITEM>
<ITEM><LOTID>7002</LOTID><ITEMTYPE>P</ITEMTYPE><ITEMID>3003</ITEMID><COLOR>5</COLOR><QTY>3</QTY><PRICE>0.1</PRICE><CONDITION>U</CONDITION><REMARKS>B-1-9</REMARKS></ITEM>
</INVENTORY>
`;

const itemsOf = (xml: string) =>
  parseXmlTree(xml, 'x.xml').children.map((item) => Object.fromEntries(item.children.map((c) => [c.name, c.text])));

async function shop() {
  const dir = tempDir();
  const store = path.join(dir, 'brick-work.sqlite');
  const write = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const parts = write(
    'Parts.txt',
    files.bricklinkItemsTab([
      { no: '3001', name: 'Brick 2 x 4', category: 5 },
      { no: '3003', name: 'Brick 2 x 2', category: 5 },
      { no: '3010', name: 'Brick 1 x 4', category: 5 },
      { no: '3005', name: 'Brick 1 x 1', category: 9 },
    ]),
  );
  const colours = write(
    'colors.txt',
    files.bricklinkColoursTab([
      { id: 5, name: 'Red' },
      { id: 11, name: 'Black' },
    ]),
  );
  const loaded = await cli(['--db', store, 'catalogue', 'import', parts, colours]);
  expect(loaded.code, loaded.stderr).toBe(0);
  const order = write(
    'received.xml',
    orderXml([
      {
        id: '8123',
        seller: 'parts-shop',
        lines: [
          { no: '3001', colour: 5, qty: 12 }, // into lot 7001 at A10: 40 → 52
          { no: '3001', colour: 11, qty: 5 }, // new, where 3001's other lots are: A10
          { no: '3010', colour: 5, qty: 6 }, // new, where its category's lots are: A10 or B-1-9 → A10
          { no: '3005', colour: 11, qty: 2 }, // new, nothing to suggest: "type one"
          { no: 'zz-9', colour: 5, qty: 1 }, // unplaced
        ],
      },
    ]),
  );
  return { dir, store, write, order };
}

it('put-away: the list in words and as JSON, the files written into a folder and read back, bad usage and refusals', async () => {
  const { dir, store, write, order } = await shop();
  expect((await cli(['--db', store, 'import', order])).code).toBe(0);
  // Without a stock there is nothing to put away into: said, exit 1.
  const none = await cli(['--db', store, 'put-away', '1']);
  expect(none.code).toBe(1);
  expect(none.stderr).toContain('There is no stock yet');
  expect((await cli(['--db', store, 'stock', 'import', write('inventory.xml', INVENTORY)])).code).toBe(0);

  const list = await cli(['--db', store, 'put-away', '1']);
  expect(list.code, list.stderr).toBe(0);
  const lines = (await cliJson(['--db', store, 'lines', '1'])).json.lines as { id: number; position: number }[];
  const line = (p: number) => lines.find((l) => l.position === p)?.id ?? 0;
  expect(list.stdout).toContain('Put-away list of order 8123 (#1) against the stock inventory.xml');
  expect(list.stdout).toContain(
    `  A10  P 3001 Brick 2 x 4 (Red), new: 12 into lot 7001: 40 → 52  [line ${line(1)}, bricklink-order:8123 #1]`,
  );
  expect(list.stdout).toContain(
    "P 3001 Brick 2 x 4 (Black), new: 5, a new lot at A10 (where the item's other lots are)",
  );
  expect(list.stdout).toContain("P 3010 Brick 1 x 4 (Red), new: 6, a new lot at A10 (where its category's lots are)");
  expect(list.stdout).toContain(
    `  (type one)  P 3005 Brick 1 x 1 (Black), new: 2, a new lot, nowhere to suggest: type one with --location ${line(4)}=BIN`,
  );
  expect(list.stdout).toContain('Unplaced, not put away (1):');
  expect(list.stdout).toContain('The stock stays as it was imported');

  const json = await cliJson(['--db', store, 'put-away', '1', '--location', `${line(4)}=K-1`]);
  expect(json.code, json.stderr).toBe(0);
  expect(json.json.entries.find((e: { line: number }) => e.line === line(4))).toMatchObject({
    kind: 'new',
    location: 'K-1',
    from: 'typed',
  });

  // Bad usage, exit 2, before the store is read.
  for (const [argv, said] of [
    [['--export', 'csv', '--out', dir], '--export takes bricklink'],
    [['--export', 'bricklink'], 'give --out DIR'],
    [['--export', 'bricklink', '--out', order], 'is not a folder'],
    [['--location', 'A1'], '--location takes LINE_ID=BIN'],
    [['--out', dir], '--out and --accept go with --export bricklink'],
  ] as const) {
    const bad = await cli(['--db', store, 'put-away', '1', ...argv]);
    expect(bad.code, argv.join(' ')).toBe(2);
    expect(bad.stderr).toContain(said);
  }

  const out = path.join(dir, 'to-bricklink');
  fs.mkdirSync(out);
  const written = await cli([
    '--db',
    store,
    'put-away',
    '1',
    '--location',
    `${line(4)}=K-1`,
    '--export',
    'bricklink',
    '--out',
    out,
  ]);
  expect(written.code, written.stderr).toBe(0);
  const update = path.join(out, 'put-away 8123 mass update.xml');
  const upload = path.join(out, 'put-away 8123 mass upload.xml');
  expect(written.stdout).toContain(`Wrote ${update}: BrickLink Mass Update: adds 1 line to 1 lot the store has`);
  expect(written.stdout).toContain(`Wrote ${upload}: BrickLink Mass Upload: 3 new lots, each location in its remarks.`);
  expect(written.stdout).toMatch(/ {2}left out: P zz-9, 1 × \(bricklink-order:8123 #5\): /);
  expect(written.stdout).toContain('Nothing is sent to BrickLink');
  expect(fs.readdirSync(out).sort()).toEqual(['put-away 8123 mass update.xml', 'put-away 8123 mass upload.xml']);
  const updateXml = fs.readFileSync(update, 'utf8');
  const uploadXml = fs.readFileSync(upload, 'utf8');
  expect(bricklinkMassUpdateProblems(updateXml)).toEqual([]);
  expect(bricklinkXmlProblems(uploadXml, 'upload')).toEqual([]);
  expect(itemsOf(updateXml)).toEqual([{ LOTID: '7001', QTY: '+12' }]);
  expect(itemsOf(uploadXml).map((i) => [i['ITEMID'], i['COLOR'], i['QTY'], i['REMARKS']])).toEqual([
    ['3001', '11', '5', 'A10'],
    ['3010', '5', '6', 'A10'],
    ['3005', '11', '2', 'K-1'],
  ]);
  // With --json: the list, and what the export wrote.
  const both = await cliJson(['--db', store, 'put-away', '1', '--export', 'bricklink', '--out', out]);
  expect(both.json.export.update).toMatchObject({ savedTo: update, rows: 1 });
  expect(both.json.export.leftOut.map((l: { reason: string }) => l.reason)).toEqual(['unplaced']);
  expect(both.json.entries).toHaveLength(4);
});

it('stock lookup: the store inventory from BrickLink (a stand-in) previewed (--dry-run), or imported as the stock, the call counted each time; refused in words without credentials', async () => {
  const { store } = await shop();
  const standIn = await startStandIn(
    {},
    {
      inventory: [
        {
          inventory_id: 55,
          item: { no: '3001', type: 'PART' },
          color_id: 5,
          quantity: 9,
          new_or_used: 'N',
          unit_price: '0.1',
          remarks: 'A10',
        },
      ],
    },
  );
  const missing = await cli(['--db', store, 'stock', 'lookup']);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('BRICKLINK_CONSUMER_KEY');
  expect(standIn.requests).toEqual([]);

  const env = { ...CREDENTIALS_ENV, BRICKLINK_API_URL: standIn.url };
  const asked = String.raw`Asked BrickLink for the store's inventory: 1 lot, as BrickLink store inventory \d{4}-\d{2}-\d{2}\.xml\. Today's budget: 1 of 5000 calls used, 4999 left\.`;
  // --dry-run: what BrickLink gave, as the stock's preview; the call counted, the stock not written.
  const dry = await cli(['--db', store, 'stock', 'lookup', '--dry-run'], env);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toMatch(new RegExp(`^${asked}\nWould import the stock:`));
  expect(dry.stdout).toContain('Locations from their remarks: 1 location; 1 lot with a BrickLink lot id.');
  expect(dry.stdout).toContain('It would be the first stock.');
  expect((await cliJson(['--db', store, 'stock', 'info'])).json.stock).toBeNull();

  const done = await cli(['--db', store, 'stock', 'lookup'], env);
  expect(done.code, done.stderr).toBe(0);
  expect(done.stdout).toMatch(
    new RegExp(
      `^${asked.replace('1 of 5000 calls used, 4999', '2 of 5000 calls used, 4998')}\n` +
        String.raw`Imported the stock from BrickLink store inventory \d{4}-\d{2}-\d{2}\.xml \(order #1, document 1\): 1 lot, 9 pieces, 0 unplaced; 1 location; 1 lot with a BrickLink lot id\.\n$`,
    ),
  );
  expect(standIn.requests).toEqual(['inventories', 'inventories']);
  const info = await cliJson(['--db', store, 'stock', 'info']);
  expect(info.json.stock).toMatchObject({ lots: 1, lotsWithLotId: 1, locations: 1 });

  // The same inventory again is the stock already: refused, the call counted all the same.
  const again = await cliJson(['--db', store, 'stock', 'lookup'], env);
  expect(again.code).toBe(1);
  expect(again.json.error.code).toBe('duplicate-document');
  expect(standIn.requests).toEqual(['inventories', 'inventories', 'inventories']);
  expect((await cliJson(['--db', store, 'stock', 'info'])).json.stock).toMatchObject({ documentId: 1 });
});
