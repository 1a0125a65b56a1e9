import path from 'node:path';
import { writeSession } from '../../src/store/session.ts';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { readCatalogueFile } from '../../src/catalogue/read-file.ts';
import { BrickWorkError } from '../../src/vocabulary/errors.ts';
import { confirmImport, planImport } from '../../src/documents/import.ts';
import { DOCUMENT_LINE_LIMIT, DOCUMENT_SIZE_LIMIT, readDocumentFile } from '../../src/documents/read-document.ts';
import { FIELD_LIMITS, type LimitedField } from '../../src/documents/values.ts';
import { openStore } from '../../src/store/open.ts';
import { setSetting } from '../../src/store/settings.ts';
import { cliJson } from '../helpers/cli.ts';
import { bsx, csv, file, inventoryXml, orderXml } from '../helpers/documents.ts';
import { refusalOf } from '../helpers/refusal.ts';
import { dumpRows, insertDocument, insertItem, insertOrder } from '../helpers/store-builder.ts';
import { tempDir } from '../helpers/temp.ts';

const good = orderXml([{ id: '77', seller: 'shop', lines: [{ no: '3001', qty: 2 }] }]);

/** "line L, column C" of the first `needle` in a text with LF line ends: where a refusal must point. */
function at(text: string, needle: string): string {
  const before = text.slice(0, text.indexOf(needle)).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

const NINETEEN_MB = 19 * 1024 * 1024;
const controlXml = inventoryXml([{ no: '3001' }, { no: '3003', remarks: 'bin A\u0001' }]);
const controlRef = orderXml([{ id: '78', lines: [{ no: '3001' }, { no: '3003', remarks: 'bin &#1;A' }] }]);

const BAD: { name: string; content: string | Uint8Array; reason: RegExp }[] = [
  {
    name: 'malformed.xml',
    content: '<ORDERS><ORDER><ORDERID>1</ORDERID><ITEM><ITEMID>3001</ITEMNAME></ITEM></ORDER></ORDERS>',
    reason: /line 1, column 54: expected <\/ITEMID> here, found <\/ITEMNAME>/,
  },
  {
    name: 'truncated.xml',
    content: good.slice(0, Math.floor(good.length * 0.6)),
    reason: /the file ends inside <\w+>: it is cut short/,
  },
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
  {
    name: 'nested-itemid.xml',
    content: `<?xml version="1.0"?>\n<INVENTORY>\n<ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID><a>3001</a></ITEMID><MINQTY>2</MINQTY></ITEM>\n</INVENTORY>`,
    reason:
      /^nested-itemid\.xml: line 3: <ITEMID> holds markup \(<a>\) where its value belongs; a field holds text only$/,
  },
  {
    name: 'nested-qty.bsx',
    content: `<?xml version="1.0"?>\n<BrickStoreXML><Inventory>\n<Item><ItemID>3001</ItemID><ItemTypeID>P</ItemTypeID><Qty><b>4</b></Qty></Item>\n</Inventory></BrickStoreXML>`,
    reason: /^nested-qty\.bsx: line 3: <Qty> holds markup \(<b>\) where its value belongs/,
  },
  {
    name: 'oversized.csv',
    content: new Uint8Array(DOCUMENT_SIZE_LIMIT + 1).fill(0x41),
    reason: /^oversized\.csv is 20,971,521 bytes, over the 20 MB a document may be; it was not read\.$/,
  },
  {
    name: 'latin1.csv',
    content: Buffer.from('number,name,quantity\n3001,Br\u00e9ck,1\n', 'latin1'),
    reason: /line 2, column 8: byte 0xE9 is not UTF-8 text/,
  },
  {
    name: 'negative.csv',
    content: csv(
      ['number', 'quantity'],
      [
        ['3001', 2],
        ['3003', -4],
      ],
    ),
    reason: /line 3: the quantity -4 is negative/,
  },
  {
    name: 'fraction.xml',
    content: inventoryXml([{ no: '3001', qty: '2.5' }]),
    reason: /the quantity 2\.5 is not a whole number/,
  },
  {
    name: 'fraction.bsx',
    content: bsx([{ no: '3001', qty: '1.25' }]),
    reason: /the quantity 1\.25 is not a whole number/,
  },
  {
    name: 'mixed.csv',
    content: csv(
      ['number', 'quantity', 'price', 'currency'],
      [
        ['3001', 1, '0.10', 'USD'],
        ['3003', 1, '0.20', 'EUR'],
      ],
    ),
    reason: /line 3: mixed currencies in one document: USD \(line 2\) and EUR/,
  },
  {
    name: 'price.csv',
    content: csv(['number', 'quantity', 'price'], [['3001', 1, '0.12345']]),
    reason: /the price 0\.12345 has more than 4 decimal places/,
  },
  {
    name: 'twice.xml',
    content: orderXml([
      { id: '9', lines: [{ no: '3001' }] },
      { id: '9', currency: 'EUR', lines: [{ no: '3003' }] },
    ]),
    reason: /bricklink-order:9 is in the file twice/,
  },
  { name: 'empty.csv', content: '', reason: /the file is empty/ },
  { name: 'stranger.xml', content: '<svg><rect/></svg>', reason: /not a document brick-work imports/ },
  // SPEC §11: control characters, with their line and column (NUL and 0x01 in remarks once made an unreadable export).
  {
    name: 'control.csv',
    content: csv(['number', 'quantity', 'remarks'], [['3001', 1, 'bin\u0000A\u0001']]),
    reason: /^control\.csv, line 2, column 11: a control character \(U\+0000\)/,
  },
  {
    name: 'control.xml',
    content: controlXml,
    reason: new RegExp(`^control\\.xml, ${at(controlXml, '\u0001')}: a control character \\(U\\+0001\\)`),
  },
  {
    name: 'reference.xml',
    content: controlRef,
    reason: new RegExp(
      `^reference\\.xml, ${at(controlRef, '&#1;')}: the character reference &#1; stands for a control character`,
    ),
  },
  // Field lengths (a 19 MB ItemID was stored) and short quotes (a 19 MB currency came back as a 19.9 MB message).
  {
    name: 'itemid.bsx',
    content: bsx([{ no: '3'.repeat(NINETEEN_MB) }]),
    reason:
      /^itemid\.bsx: line 5: the item number field holds 19,922,944 characters; brick-work takes at most 40 there \("3{79}…"\)$/,
  },
  {
    name: 'currency.xml',
    content: orderXml([{ id: '79', currency: 'E'.repeat(NINETEEN_MB), lines: [{ no: '3001' }] }]),
    reason: /^currency\.xml: line 3: the currency "E{79}…" is not a three-letter code$/,
  },
  {
    name: 'quantity.csv',
    content: csv(['number', 'quantity'], [['3001', '1234567890123']]),
    reason: /^quantity\.csv: line 2: the quantity 1234567890123 is too large \(at most 999,999,999\)$/,
  },
  {
    name: 'quantity.xml',
    content: orderXml([{ id: '80', lines: [{ no: '3001', qty: '1,234,567,890' }] }]),
    reason: /line 8: the quantity 1,234,567,890 is too large \(at most 999,999,999\)/,
  },
  // Documents without lines are refused, not made into empty orders.
  {
    name: 'no-items.xml',
    content: orderXml([{ id: '81', lines: [] }], { root: 'ORDER' }),
    reason: /^no-items\.xml: line 2: the order has no items \(ORDERID 81\)$/,
  },
  {
    name: 'one-empty.xml',
    content: orderXml([
      { id: '82', lines: [{ no: '3001' }] },
      { id: '83', lines: [] },
    ]),
    reason: /the order has no items \(ORDERID 83\)/,
  },
  {
    name: 'no-items-inventory.xml',
    content: inventoryXml([]),
    reason: /^no-items-inventory\.xml: line 1: the document has no items$/,
  },
  { name: 'no-items.bsx', content: bsx([]), reason: /^no-items\.bsx: line 4: the document has no items$/ },
  // Line numbers with CR-only line ends (every error once said line 1).
  {
    name: 'cr.xml',
    content: '<INVENTORY>\r<ITEM>\r<ITEMID>3001</ITEMNAME>\r</ITEM>\r</INVENTORY>',
    reason:
      /^cr\.xml: the file is cut short or damaged near line 3 \(line 3, column 13: expected <\/ITEMID> here, found <\/ITEMNAME>\)$/,
  },
  {
    name: 'cr.bsx',
    content: bsx([{ no: '3001' }, { no: '3003', qty: -2 }]).replace(/\n/g, '\r'),
    reason: /^cr\.bsx: line 12: the quantity -2 is negative/,
  },
  {
    name: 'cr-quoted.csv',
    content: 'number,name,quantity\r3001,"two\rlines",1\r3003,x,-1\r',
    reason: /^cr-quoted\.csv: line 4: the quantity -1 is negative/,
  },
  {
    name: 'cr-unclosed.csv',
    content: 'number,name\r3001,x\r3003,"abc',
    reason: /^cr-unclosed\.csv, line 3, column 6: a quoted field is never closed$/,
  },
  {
    name: 'cr-latin1.csv',
    content: Buffer.from('number,name,quantity\r3001,x,1\r3003,Br\u00e9ck,1\r', 'latin1'),
    reason: /^cr-latin1\.csv, line 3, column 8: byte 0xE9 is not UTF-8 text/,
  },
  // Issue 62 §5: a field given twice, saying two things, is refused; reading one would drop the other unseen.
  {
    name: 'twice-itemid.xml',
    content:
      '<INVENTORY>\n<ITEM><ITEMTYPE>P</ITEMTYPE><ITEMID>3001</ITEMID><ITEMID>3003</ITEMID><QTY>2</QTY></ITEM>\n</INVENTORY>',
    reason:
      /^twice-itemid\.xml: line 2: <ITEMID> is given twice in one item \("3001" and "3003"\); an item gives each field once, so which is meant can't be told$/,
  },
  {
    name: 'twice-qty-order.xml',
    content: orderXml([{ id: '79', lines: [{ no: '3001', qty: 2 }] }]).replace(
      '<QTY>2</QTY>',
      '<QTY>2</QTY><QTY>20</QTY>',
    ),
    reason: /^twice-qty-order\.xml: line \d+: <QTY> is given twice in one item \("2" and "20"\)/,
  },
  {
    name: 'twice-colour.bsx',
    content: bsx([{ no: '3001', colour: 5 }]).replace(
      '<ColorID>5</ColorID>',
      '<ColorID>5</ColorID><ColorID>11</ColorID>',
    ),
    reason: /^twice-colour\.bsx: line \d+: <ColorID> is given twice in one item \("5" and "11"\)/,
  },
];

describe('bad files are refused with their reason, and the store stays exactly as it was', () => {
  for (const bad of BAD) {
    it(bad.name, async () => {
      const store = await openStore(path.join(tempDir(), 'brick-work.sqlite'));
      onTestFinished(() => store.close());
      insertItem(store.db, { no: '3001', name: 'Brick 2 x 4' });
      confirmImport(writeSession(store.db), { file: file('before.xml', good) }, SYSTEM_CLOCK);
      const before = dumpRows(store.db);

      const plan = planImport(store.db, { file: file(bad.name, bad.content) });
      expect(plan.refusal?.message).toMatch(bad.reason);
      let refusal: unknown;
      try {
        confirmImport(writeSession(store.db), { file: file(bad.name, bad.content) }, SYSTEM_CLOCK);
      } catch (e) {
        refusal = e;
      }
      expect(refusal).toBeInstanceOf(BrickWorkError);
      expect((refusal as BrickWorkError).message).toMatch(bad.reason);
      expect(['parse-error', 'duplicate-document', 'too-big']).toContain((refusal as BrickWorkError).code);
      expect(dumpRows(store.db)).toEqual(before);
      // SPEC §11: a message quotes at most ~80 characters of a bad value.
      expect((refusal as BrickWorkError).message.length).toBeLessThan(400);
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

/** The one refusal of reading `text` as a document named `name`. */
function readRefusal(name: string, text: string | Uint8Array): BrickWorkError {
  return refusalOf(() => readDocumentFile(file(name, text)));
}

describe('each document field has a maximum length (SPEC §11)', () => {
  const CASES: { field: LimitedField; name: string; doc: (value: string) => string; line: number }[] = [
    { field: 'no', name: 'number.csv', doc: (v) => csv(['number', 'quantity'], [[v, 1]]), line: 2 },
    { field: 'no', name: 'number.bsx', doc: (v) => bsx([{ no: v }]), line: 5 },
    { field: 'no', name: 'number.xml', doc: (v) => inventoryXml([{ no: '3001' }, { no: v }]), line: 3 },
    { field: 'type', name: 'type.csv', doc: (v) => csv(['type', 'number'], [[v, '3001']]), line: 2 },
    { field: 'type', name: 'type.xml', doc: (v) => orderXml([{ id: '1', lines: [{ type: v, no: '3001' }] }]), line: 8 },
    {
      field: 'name',
      name: 'name.csv',
      doc: (v) =>
        csv(
          ['number', 'name'],
          [
            ['3001', 'Brick'],
            ['', v],
          ],
        ),
      line: 3,
    },
    { field: 'name', name: 'name.bsx', doc: (v) => bsx([{ no: '3001', name: v }]), line: 5 },
    { field: 'colourName', name: 'colour.csv', doc: (v) => csv(['number', 'colour'], [['3001', v]]), line: 2 },
    { field: 'colourName', name: 'colour.bsx', doc: (v) => bsx([{ no: '3001', colourName: v }]), line: 5 },
    { field: 'remarks', name: 'remarks.csv', doc: (v) => csv(['number', 'remarks'], [['3001', v]]), line: 2 },
    {
      field: 'remarks',
      name: 'remarks.xml',
      doc: (v) => orderXml([{ id: '1', lines: [{ no: '3001', remarks: v }] }]),
      line: 8,
    },
    { field: 'remarks', name: 'remarks.bsx', doc: (v) => bsx([{ no: '3001', remarks: v }]), line: 5 },
    { field: 'lotId', name: 'lot.csv', doc: (v) => csv(['number', 'lot id'], [['3001', v]]), line: 2 },
    { field: 'reference', name: 'reference.xml', doc: (v) => orderXml([{ id: v, lines: [{ no: '3001' }] }]), line: 3 },
    {
      field: 'counterparty',
      name: 'seller.xml',
      doc: (v) => orderXml([{ id: '1', seller: v, lines: [{ no: '3001' }] }]),
      line: 3,
    },
    {
      field: 'counterparty',
      name: 'buyer.xml',
      doc: (v) => orderXml([{ id: '1', buyer: v, lines: [{ no: '3001' }] }]),
      line: 3,
    },
  ];

  it('the limits are sensible and in one table', () => {
    expect(Object.fromEntries(Object.entries(FIELD_LIMITS).map(([k, v]) => [k, v.max]))).toEqual({
      type: 20,
      no: 40,
      name: 300,
      colourName: 100,
      remarks: 2_000,
      reference: 100,
      counterparty: 200,
      currency: 3,
      lotId: 40,
      kept: 2_000,
    });
  });

  for (const c of CASES) {
    const { what, max } = FIELD_LIMITS[c.field];
    it(`${c.name}: ${what} of ${max} characters is read, one more is refused naming the file, line, field and limit`, () => {
      expect(readDocumentFile(file(c.name, c.doc('x'.repeat(max))))).toHaveLength(1);
      const refusal = readRefusal(c.name, c.doc('x'.repeat(max + 1)));
      expect(refusal.code).toBe('parse-error');
      expect(refusal.message).toBe(
        `${c.name}: line ${c.line}: the ${what} field holds ${(max + 1).toLocaleString('en-US')} characters; ` +
          `brick-work takes at most ${max.toLocaleString('en-US')} there ("${max + 1 > 80 ? `${'x'.repeat(79)}…` : 'x'.repeat(max + 1)}")`,
      );
    });
  }
});

describe('control characters in a document are refused with their line and column (SPEC §11)', () => {
  const CASES: { name: string; text: string; at: string; what: RegExp }[] = [
    {
      name: 'nul.csv',
      text: csv(
        ['number', 'quantity', 'remarks'],
        [
          ['3001', 1, 'top'],
          ['3003', 2, 'a\u0000b'],
        ],
      ),
      at: '\u0000',
      what: /control character \(U\+0000\)/,
    },
    {
      name: 'ff.csv',
      text: csv(['number', 'name', 'quantity'], [['3001', 'Brick\u000C', 1]], ';'),
      at: '\u000C',
      what: /U\+000C/,
    },
    {
      name: 'vt.txt',
      text: csv(['Part #', 'Description', 'Qty.'], [['30\u000B01', 'Brick', 1]], '\t'),
      at: '\u000B',
      what: /U\+000B/,
    },
    { name: 'del.xml', text: inventoryXml([{ no: '3001\u007F' }]), at: '\u007F', what: /U\+007F/ },
    { name: 'esc.bsx', text: bsx([{ no: '3001', name: 'Brick \u001B[31m' }]), at: '\u001B', what: /U\+001B/ },
    {
      name: 'raw-order.xml',
      text: orderXml([{ id: '1', seller: 'sh\u0008op', lines: [{ no: '3001' }] }]),
      at: '\u0008',
      what: /U\+0008/,
    },
    { name: 'attribute.bsx', text: bsx([{ no: '3001' }], 'E\u0001R'), at: '\u0001', what: /U\+0001/ },
    {
      name: 'ref.xml',
      text: inventoryXml([{ no: '3001', remarks: 'a&#1;' }]),
      at: '&#1;',
      what: /the character reference &#1; stands for a control character/,
    },
    { name: 'hex-ref.bsx', text: bsx([{ no: '3001', remarks: 'a &#x1F;' }]), at: '&#x1F;', what: /&#x1F;/ },
    { name: 'del-ref.xml', text: orderXml([{ id: '1', lines: [{ no: '3001&#127;' }] }]), at: '&#127;', what: /&#127;/ },
    { name: 'nul-ref.xml', text: orderXml([{ id: '&#0;1', lines: [{ no: '3001' }] }]), at: '&#0;', what: /&#0;/ },
    { name: 'attribute-ref.bsx', text: bsx([{ no: '3001' }], '&#x07;'), at: '&#x07;', what: /&#x07;/ },
  ];
  for (const c of CASES) {
    it(c.name, () => {
      const refusal = readRefusal(c.name, c.text);
      expect(refusal.code).toBe('parse-error');
      expect(refusal.message.startsWith(`${c.name}, ${at(c.text, c.at)}: `), refusal.message).toBe(true);
      expect(refusal.message).toMatch(c.what);
    });
  }

  it('tab, line feed and carriage return are text, raw or as references', () => {
    const [doc] = readDocumentFile(
      file(
        'white.bsx',
        bsx([
          { no: '3001', remarks: 'a\tb' },
          { no: '3003', remarks: 'c&#9;d&#10;e&#xD;f' },
        ]),
      ),
    );
    expect(doc?.lines.map((l) => l.remarks)).toEqual(['a\tb', 'c\td\ne\rf']);
  });
});

describe('line numbers are the same with LF, CR and CRLF line ends (SPEC §11)', () => {
  const DOCS: { name: string; text: string; reason: RegExp }[] = [
    {
      name: 'tags.xml',
      text: orderXml([{ id: '1', lines: [{ no: '3001' }] }]).replace('</ORDERBATCH>', '</ORDERBATCHX>'),
      reason:
        /^tags\.xml: the file is cut short or damaged near line 16 \(line 16, column 14: expected <\/ORDERBATCH> here/,
    },
    {
      name: 'value.xml',
      text: orderXml([{ id: '1', lines: [{ no: '3001' }, { no: '3003', qty: 'two' }] }]),
      reason: /^value\.xml: line 18: the quantity "two" is not a whole number$/,
    },
    {
      name: 'value.bsx',
      text: bsx([{ no: '3001' }, { no: '3003', price: '-1' }]),
      reason: /^value\.bsx: line 12: the price -1 is negative$/,
    },
    {
      name: 'reference.xml',
      text: inventoryXml([{ no: '3001' }, { no: '3003', remarks: 'x&#2;' }]),
      reason: /^reference\.xml, line 3, column 115: the character reference &#2;/,
    },
    {
      name: 'control.bsx',
      text: bsx([{ no: '3001' }, { no: '3003', name: 'x\u0002' }]),
      reason: /^control\.bsx, line 15, column 15: a control character/,
    },
    {
      name: 'quoted.csv',
      text: 'number,name,quantity\n3001,"one\ntwo\nthree",1\n3003,"a\nb",x\n',
      reason: /^quoted\.csv: line 5: the quantity "x" is not a whole number$/,
    },
    {
      name: 'unclosed.csv',
      text: 'number,name,quantity\n3001,"one\ntwo",1\n3003,x,"open\n',
      reason: /^unclosed\.csv, line 4, column 8: a quoted field is never closed$/,
    },
  ];
  for (const d of DOCS) {
    it(d.name, () => {
      const messages = ['\n', '\r', '\r\n'].map((end) => readRefusal(d.name, d.text.replace(/\n/g, end)).message);
      expect(messages[0]).toMatch(d.reason);
      expect(messages).toEqual([messages[0], messages[0], messages[0]]);
    });
  }

  it('a byte that is not UTF-8 is placed on its line with any line ends', () => {
    for (const end of ['\n', '\r', '\r\n']) {
      const bytes = Buffer.from(['number,name,quantity', '3001,Brick,1', '3003,Br\u00e9ck,1', ''].join(end), 'latin1');
      expect(readRefusal('latin1.csv', bytes).message).toMatch(/^latin1\.csv, line 3, column 8: byte 0xE9/);
    }
  });
});

describe(`a document of more than ${DOCUMENT_LINE_LIMIT.toLocaleString('en-US')} lines is refused as soon as the reader counts past it (SPEC §11)`, () => {
  it('2.5 million CSV rows under 20 MB: refused quickly, naming the count, with bounded memory and the store unchanged', async () => {
    const store = await openStore(path.join(tempDir(), 'brick-work.sqlite'));
    onTestFinished(() => store.close());
    insertItem(store.db, { no: '3001', name: 'Brick 2 x 4' });
    const content = new TextEncoder().encode(`number,quantity\n${'3001,1\n'.repeat(2_500_000)}`);
    expect(content.byteLength).toBeLessThan(DOCUMENT_SIZE_LIMIT);
    const before = dumpRows(store.db);

    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const plan = planImport(store.db, { file: { name: 'bulk.csv', content } });
    const took = performance.now() - started;
    const grew = process.memoryUsage().heapUsed - heapBefore;

    expect(plan.refusal).toEqual({
      code: 'parse-error',
      message:
        'bulk.csv has more than 200,000 lines (the reader stopped at line 200,001, text line 200,002); ' +
        'brick-work imports at most 200,000 lines per document — split the file.',
    });
    expect(plan.documents).toEqual([]);
    // Reading all 2.5 million rows took seconds and gigabytes; stopping at 200,001 takes a fraction.
    expect(took).toBeLessThan(5_000);
    expect(grew).toBeLessThan(400 * 1024 * 1024);
    expect(
      refusalOf(() => confirmImport(writeSession(store.db), { file: { name: 'bulk.csv', content } }, SYSTEM_CLOCK))
        .message,
    ).toBe(plan.refusal?.message);
    expect(dumpRows(store.db)).toEqual(before);
  }, 20_000);

  it('XML items: the 200,001st ITEM stops the reader, naming its text line', () => {
    const text = `<INVENTORY>\n${'<ITEM><ITEMID>3001</ITEMID></ITEM>\n'.repeat(DOCUMENT_LINE_LIMIT + 50_000)}</INVENTORY>\n`;
    expect(readRefusal('many.xml', text).message).toBe(
      'many.xml has more than 200,000 lines (the reader stopped at line 200,001, text line 200,002); ' +
        'brick-work imports at most 200,000 lines per document — split the file.',
    );
  }, 20_000);

  it('exactly 200,000 lines are read; the limit is per document, so two ORDERs of 100,001 items each are read', () => {
    const [csvDoc] = readDocumentFile(file('full.csv', `number,quantity\n${'3001,1\n'.repeat(DOCUMENT_LINE_LIMIT)}`));
    expect(csvDoc?.lines).toHaveLength(DOCUMENT_LINE_LIMIT);
    const order = (id: string) =>
      `<ORDER><ORDERID>${id}</ORDERID>${'<ITEM><ITEMID>1</ITEMID><QTY>1</QTY></ITEM>'.repeat(100_001)}</ORDER>`;
    const docs = readDocumentFile(file('two.xml', `<ORDERS>${order('1')}${order('2')}</ORDERS>`));
    expect(docs.map((d) => d.lines.length)).toEqual([100_001, 100_001]);
  }, 20_000);
});

describe('a message quotes at most ~80 characters of a bad value (SPEC §11)', () => {
  const huge = (ch: string) => ch.repeat(1_000_000);
  const CASES: { what: string; refuse: () => unknown }[] = [
    {
      what: 'a quantity',
      refuse: () => readDocumentFile(file('q.csv', csv(['number', 'quantity'], [['3001', huge('x')]]))),
    },
    {
      what: 'a negative quantity',
      refuse: () => readDocumentFile(file('q.csv', csv(['number', 'quantity'], [['3001', `-${huge('1')}`]]))),
    },
    { what: 'a price', refuse: () => readDocumentFile(file('p.csv', csv(['number', 'price'], [['3001', huge('p')]]))) },
    {
      what: 'a price too large',
      refuse: () => readDocumentFile(file('p.xml', inventoryXml([{ no: '3001', price: huge('9') }]))),
    },
    { what: 'a condition', refuse: () => readDocumentFile(file('c.bsx', bsx([{ no: '3001', condition: huge('c') }]))) },
    {
      what: 'a colour id',
      refuse: () =>
        readDocumentFile(
          file('c.xml', inventoryXml([{ no: '3001', colour: 7 }]).replace('<COLOR>7<', `<COLOR>${huge('7')}<`)),
        ),
    },
    {
      what: 'a CSV colour number',
      refuse: () => readDocumentFile(file('c.csv', csv(['number', 'colour'], [['3001', huge('7')]]))),
    },
    {
      what: 'an order date',
      refuse: () => readDocumentFile(file('d.xml', orderXml([{ id: '1', date: huge('d'), lines: [{ no: '3001' }] }]))),
    },
    { what: 'a currency', refuse: () => readDocumentFile(file('c.bsx', bsx([{ no: '3001' }], huge('E')))) },
    {
      what: 'an element name',
      refuse: () => readDocumentFile(file('e.xml', `<INVENTORY><ITEM><${huge('A')}></B></ITEM></INVENTORY>`)),
    },
    { what: 'a root element', refuse: () => readDocumentFile(file('r.xml', `<${huge('R')}/>`)) },
    { what: 'an unclosed element', refuse: () => readDocumentFile(file('u.xml', `<INVENTORY><${huge('U')}>`)) },
    { what: 'an attribute', refuse: () => readDocumentFile(file('a.xml', `<INVENTORY ${huge('a')}></INVENTORY>`)) },
    { what: 'a CSV header', refuse: () => readDocumentFile(file('h.csv', `${huge('h')}\n1\n`)) },
    { what: 'a setting', refuse: () => setSetting(null as never, 'currency', huge('$')) },
    { what: 'a call limit', refuse: () => setSetting(null as never, 'daily-call-limit', huge('n')) },
    { what: 'an API URL', refuse: () => setSetting(null as never, 'api-url', huge('u')) },
    { what: 'an API URL scheme', refuse: () => setSetting(null as never, 'api-url', `ftp://${huge('u')}`) },
    {
      what: 'a catalogue id',
      refuse: () =>
        readCatalogueFile(file('parts.csv', `part_num,name,part_cat_id\n3001,Brick,${huge('i')}\n`), { type: 'P' }),
    },
    {
      what: 'a catalogue item type',
      refuse: () =>
        readCatalogueFile(
          file(
            'items.xml',
            `<CATALOG><ITEM><ITEMTYPE>${huge('T')}</ITEMTYPE><ITEMID>1</ITEMID><ITEMNAME>x</ITEMNAME></ITEM></CATALOG>`,
          ),
          { type: 'P' },
        ),
    },
    {
      what: 'a catalogue header',
      refuse: () => readCatalogueFile(file('odd.csv', `${huge('h')}\n1\n`), { type: 'P' }),
    },
  ];
  for (const c of CASES) {
    it(c.what, () => {
      const refusal = refusalOf(c.refuse);
      expect(refusal.message.length, refusal.message.slice(0, 300)).toBeLessThan(400);
      expect(refusal.message).toMatch(/…/);
    });
  }

  it('header and currency mismatches and duplicates quote the references and counterparties', async () => {
    const store = await openStore(path.join(tempDir(), 'brick-work.sqlite'));
    onTestFinished(() => store.close());
    // Orders written before field lengths were capped may hold huge values.
    const byReference = insertOrder(store.db, { reference: huge('r'), currency: 'EUR' });
    const byCounterparty = insertOrder(store.db, { reference: '5', counterparty: huge('c'), currency: 'EUR' });
    const byCurrency = insertOrder(store.db, { reference: '6', currency: 'EUR' });
    insertDocument(store.db, { orderId: byReference, key: 'bricklink-order:7' });
    const before = dumpRows(store.db);
    const refusals = [
      planImport(store.db, {
        file: file('a.xml', orderXml([{ id: '4', currency: 'EUR', lines: [{ no: '3001' }] }])),
        orderId: byReference,
      }).refusal,
      planImport(store.db, {
        file: file('b.xml', orderXml([{ id: '5', seller: 'ann', currency: 'EUR', lines: [{ no: '3001' }] }])),
        orderId: byCounterparty,
      }).refusal,
      planImport(store.db, {
        file: file('c.xml', orderXml([{ id: '6', currency: 'USD', lines: [{ no: '3001' }] }])),
        orderId: byCurrency,
      }).refusal,
      planImport(store.db, { file: file('d.xml', orderXml([{ id: '7', lines: [{ no: '3001' }] }])) }).refusal,
    ];
    expect(refusals.map((r) => r?.code)).toEqual([
      'header-mismatch',
      'header-mismatch',
      'currency-mismatch',
      'duplicate-document',
    ]);
    for (const r of refusals) expect(r?.message.length).toBeLessThan(400);
    expect(refusals[0]?.message).toBe(
      `The file's order reference is "4", but order ${'r'.repeat(79)}… (#${byReference}) has "${'r'.repeat(79)}…".`,
    );
    expect(dumpRows(store.db)).toEqual(before);
  });
});

describe('files that are not documents at all say what they are (issue 10)', () => {
  const cases: [string, number[], RegExp][] = [
    [
      'photo.png',
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13],
      /^This is a PNG image, not an order document \(photo\.png\)\. brick-work imports /,
    ],
    ['scan.jpg', [0xff, 0xd8, 0xff, 0xe0, 0, 16], /^This is a JPEG image, not an order document/],
    [
      'order.pdf',
      [...Buffer.from('%PDF-1.7\n')],
      /^This is a PDF document, not an order document \(order\.pdf\): export the order/,
    ],
    [
      'order.xlsx',
      [0x50, 0x4b, 0x03, 0x04, 20, 0],
      /^This is a ZIP archive \(an Excel or LibreOffice sheet is one\), not an order document \(order\.xlsx\): save the sheet as CSV/,
    ],
    [
      'list.csv.gz',
      [0x1f, 0x8b, 8, 0],
      /^This is a gzip-compressed file, not an order document \(list\.csv\.gz\): unpack it first/,
    ],
  ];
  for (const [name, bytes, message] of cases) {
    it(name, () => {
      const refusal = refusalOf(() => readDocumentFile({ name, content: new Uint8Array(bytes) }));
      expect(refusal.code).toBe('parse-error');
      expect(refusal.message).toMatch(message);
      expect(refusal.message).not.toMatch(/UTF-8|byte 0x/);
    });
  }
});

describe('UTF-16 and UTF-32 text are named as what they are, with a byte order mark or without (issue 62 §5)', () => {
  const list = 'number,quantity\n3001,2\n';
  const xml = '<?xml version="1.0"?>\n<INVENTORY><ITEM><ITEMID>3001</ITEMID></ITEM></INVENTORY>\n';
  /** `text` in UTF-32, each character four bytes, little- or big-endian. */
  const utf32 = (text: string, bigEndian: boolean): Buffer => {
    const chars = [...text];
    const b = Buffer.alloc(chars.length * 4);
    chars.forEach((c, i) =>
      bigEndian ? b.writeUInt32BE(c.codePointAt(0) ?? 0, i * 4) : b.writeUInt32LE(c.codePointAt(0) ?? 0, i * 4),
    );
    return b;
  };
  const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();
  const cases: [string, Uint8Array, 'UTF-16' | 'UTF-32'][] = [
    ['le-bom.csv', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), utf32(list, false)]), 'UTF-32'],
    ['be-bom.csv', Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), utf32(list, true)]), 'UTF-32'],
    ['le.xml', utf32(xml, false), 'UTF-32'],
    ['be.csv', utf32(list, true), 'UTF-32'],
    ['le16-bom.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(list, 'utf16le')]), 'UTF-16'],
    ['be16.xml', utf16be(xml), 'UTF-16'],
    ['le16.csv', Buffer.from(list, 'utf16le'), 'UTF-16'],
  ];
  for (const [name, bytes, encoding] of cases) {
    it(`${name}: ${encoding}, as a document and as a catalogue file`, () => {
      const message = `${name}: the file is ${encoding} text; save it as UTF-8`;
      expect(readRefusal(name, bytes).message).toBe(message);
      expect(refusalOf(() => readCatalogueFile(file(name, bytes), { type: 'P' })).message).toBe(message);
    });
  }
});
