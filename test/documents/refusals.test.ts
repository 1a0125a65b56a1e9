import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/clock.ts';
import { BrickWorkError } from '../../src/errors.ts';
import { confirmImport, planImport } from '../../src/documents/import.ts';
import { DOCUMENT_SIZE_LIMIT } from '../../src/documents/read-document.ts';
import { openStore } from '../../src/store/open.ts';
import { cliJson } from '../helpers/cli.ts';
import { bsx, csv, file, inventoryXml, orderXml } from '../helpers/documents.ts';
import { dumpRows, insertItem } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

const good = orderXml([{ id: '77', seller: 'shop', lines: [{ no: '3001', qty: 2 }] }]);

const BAD: { name: string; content: string | Uint8Array; reason: RegExp }[] = [
  { name: 'malformed.xml', content: '<ORDERS><ORDER><ORDERID>1</ORDERID><ITEM><ITEMID>3001</ITEMNAME></ITEM></ORDER></ORDERS>', reason: /line 1, column 54: expected <\/ITEMID> here, found <\/ITEMNAME>/ },
  { name: 'truncated.xml', content: good.slice(0, Math.floor(good.length * 0.6)), reason: /the file ends inside <\w+>: it is cut short/ },
  {
    name: 'bomb.xml',
    content: `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\n]>\n<INVENTORY><ITEM><ITEMID>&lol3;</ITEMID><QTY>1</QTY></ITEM></INVENTORY>`,
    reason: /line 3, column 2: the file declares XML entities/,
  },
  {
    name: 'external.xml',
    content: `<?xml version="1.0"?>\n<!DOCTYPE foo [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<INVENTORY><ITEM><ITEMID>&xxe;</ITEMID></ITEM></INVENTORY>`,
    reason: /declares XML entities.*never expands/,
  },
  { name: 'oversized.csv', content: new Uint8Array(DOCUMENT_SIZE_LIMIT + 1).fill(0x41), reason: /over the 20 MB limit for a document; it was not read/ },
  { name: 'latin1.csv', content: Buffer.from('number,name,quantity\n3001,Br\u00e9ck,1\n', 'latin1'), reason: /line 2, column 8: byte 0xE9 is not UTF-8 text/ },
  { name: 'negative.csv', content: csv(['number', 'quantity'], [['3001', 2], ['3003', -4]]), reason: /line 3: the quantity -4 is negative/ },
  { name: 'fraction.xml', content: inventoryXml([{ no: '3001', qty: '2.5' }]), reason: /the quantity 2\.5 is not a whole number/ },
  { name: 'fraction.bsx', content: bsx([{ no: '3001', qty: '1.25' }]), reason: /the quantity 1\.25 is not a whole number/ },
  {
    name: 'mixed.csv',
    content: csv(['number', 'quantity', 'price', 'currency'], [['3001', 1, '0.10', 'USD'], ['3003', 1, '0.20', 'EUR']]),
    reason: /line 3: mixed currencies in one document: USD \(line 2\) and EUR/,
  },
  { name: 'price.csv', content: csv(['number', 'quantity', 'price'], [['3001', 1, '0.12345']]), reason: /the price 0\.12345 has more than 4 decimal places/ },
  { name: 'twice.xml', content: orderXml([{ id: '9', lines: [{ no: '3001' }] }, { id: '9', currency: 'EUR', lines: [{ no: '3003' }] }]), reason: /bricklink-order:9 is in the file twice/ },
  { name: 'empty.csv', content: '', reason: /the file is empty/ },
  { name: 'stranger.xml', content: '<svg><rect/></svg>', reason: /not a document brick-work imports/ },
];

describe('bad files are refused with their reason, and the store stays exactly as it was', () => {
  for (const bad of BAD) {
    it(bad.name, async () => {
      const store = await openStore(path.join(tempDir(), 'brick-work.sqlite'));
      onTestFinished(() => store.close());
      insertItem(store.db, { no: '3001', name: 'Brick 2 x 4' });
      confirmImport(store.db, { file: file('before.xml', good) }, SYSTEM_CLOCK);
      const before = dumpRows(store.db);

      const plan = planImport(store.db, { file: file(bad.name, bad.content) });
      expect(plan.refusal?.message).toMatch(bad.reason);
      let refusal: unknown;
      try {
        confirmImport(store.db, { file: file(bad.name, bad.content) }, SYSTEM_CLOCK);
      } catch (e) {
        refusal = e;
      }
      expect(refusal).toBeInstanceOf(BrickWorkError);
      expect((refusal as BrickWorkError).message).toMatch(bad.reason);
      expect(['parse-error', 'duplicate-document']).toContain((refusal as BrickWorkError).code);
      expect(dumpRows(store.db)).toEqual(before);
    });
  }

  it('through the CLI: exit 1, the reason on stderr, and no stack trace', async () => {
    const dir = tempDir();
    const bomb = BAD[2];
    const f = path.join(dir, 'bomb.xml');
    await import('node:fs').then((fs) => fs.writeFileSync(f, bomb?.content ?? ''));
    const r = await cliJson(['--db', path.join(dir, 'brick-work.sqlite'), 'import', f]);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('parse-error');
    expect(r.stderr).toMatch(/bomb\.xml, line 3, column 2: the file declares XML entities/);
    expect(r.stderr).not.toMatch(/\.ts:\d+/);
  });
});
