import fs from 'node:fs';
import { writeSession } from '../../src/store/session.ts';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/platform/clock.ts';
import { confirmImport } from '../../src/documents/import.ts';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import { bricklinkXml } from '../../src/exports/bricklink-xml.ts';
import { csvCell } from '../../src/exports/csv-cell.ts';
import { summaryCsv } from '../../src/exports/summary.ts';
import { orderLines } from '../../src/store/lines.ts';
import { undoNewest } from '../helpers/history.ts';
import { cli, cliJson } from '../helpers/cli.ts';
import { bsx, file, orderXml } from '../helpers/documents.ts';
import { insertDocument, insertItem, insertLine, insertOrder, storeWithCatalogue } from '../helpers/store-builder.ts';
import { strictXmlProblem } from '../helpers/xml-check.ts';
import { describeEachStore, storeKind } from '../helpers/stores.ts';
import { tempDir } from '../helpers/temp.ts';

const setUp = storeWithCatalogue;

describeEachStore('exports (SPEC §8)', () => {
  it('the summary lists only orders with saved lines, with exact totals and formula cells escaped', async () => {
    const { db } = await setUp();
    confirmImport(
      writeSession(db),
      {
        file: file(
          'a.xml',
          orderXml([
            {
              id: '=HYPERLINK("x")',
              seller: '+shop',
              currency: 'EUR',
              lines: [
                { no: '3001', qty: 3, price: '0.1' },
                { no: '9', qty: '1,000', price: '0.0001' },
              ],
            },
          ]),
        ),
      },
      SYSTEM_CLOCK,
    );
    confirmImport(writeSession(db), { file: file('gone.bsx', bsx([{ no: '3003', qty: 1 }])) }, SYSTEM_CLOCK);
    undoNewest(db, SYSTEM_CLOCK); // gone.bsx: its order has no saved lines now
    confirmImport(
      writeSession(db),
      {
        file: file(
          'b.bsx',
          bsx([
            { no: '3003', qty: 7, price: '0.3333' },
            { no: '3001', qty: 1, price: '12.5' },
          ]),
        ),
      },
      SYSTEM_CLOCK,
    );
    expect(summaryCsv(db)).toBe(
      [
        'reference,counterparty,currency,documents,lines,placed,unplaced,total quantity,total value',
        `"'=HYPERLINK(""x"")",'+shop,EUR,1,2,1,1,1003,0.40`,
        'b.bsx,,USD,1,2,2,0,8,14.8331',
        '',
      ].join('\r\n'),
    );
    expect([csvCell('-5'), csvCell('@SUM(A1)'), csvCell('plain'), csvCell('a,b')]).toEqual([
      "'-5",
      "'@SUM(A1)",
      'plain',
      '"a,b"',
    ]);
  });

  it('the BrickLink XML of an order’s placed lines re-imports through our own parser to the same lines', async () => {
    const { db } = await setUp();
    const [r] = confirmImport(
      writeSession(db),
      {
        file: file(
          'a.bsx',
          bsx([
            {
              no: '3001',
              colour: 5,
              qty: 12,
              price: '0.0825',
              condition: 'U',
              remarks: 'bin &lt;A7&gt; &amp; &quot;top&quot;',
            },
            { no: '3003', qty: 0 },
            { no: '4242', qty: 3 },
          ]),
        ),
      },
      SYSTEM_CLOCK,
    );
    const xml = bricklinkXml(db, r?.order.id ?? 0).content;
    expect(strictXmlProblem(xml)).toBeNull();
    const [doc] = readDocumentFile(file('upload.xml', xml));
    const placed = orderLines(db, r?.order.id ?? 0).filter((l) => l.placed !== null);
    expect(doc?.format).toBe('bricklink-xml');
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
    ).toEqual(
      // BrickLink takes no lot of 0 pieces (issue 64 §4): left out, and said.
      placed
        .filter((l) => l.quantity > 0)
        .map((l) => [
          l.placed?.type,
          l.placed?.no,
          // BrickLink's XML always has COLOR: 0 for an item without a colour.
          l.placed?.colour ?? 0,
          l.quantity,
          // A price in BrickLink's thousandths (0.0825 → 0.083).
          l.unitPriceE4 === 825 ? 830 : l.unitPriceE4,
          l.condition,
          l.remarks,
        ]),
    );
    expect(placed.map((l) => l.unitPriceE4)).toContain(825);
    expect(doc?.lines).toHaveLength(1);
    expect(bricklinkXml(db, r?.order.id ?? 0).plan.leftOut.map((l) => l.reason)).toEqual(['no-quantity', 'unplaced']);
  });

  it('export summary and export bricklink through the CLI, to stdout or to a file', async () => {
    const { db, dbPath } = await setUp();
    confirmImport(writeSession(db), { file: file('a.bsx', bsx([{ no: '3001', qty: 2, price: '1.5' }])) }, SYSTEM_CLOCK);
    const out = path.join(tempDir(), 'summary.csv');
    const r = await cliJson(['--db', dbPath, 'export', 'summary', '--out', out]);
    expect(r.json).toMatchObject({ name: 'brick-work-summary.csv', savedTo: out });
    expect(fs.readFileSync(out, 'utf8')).toContain('a.bsx,,USD,1,1,1,0,2,3.00');
    const xml = await cli(['--db', dbPath, 'export', 'bricklink', '1']);
    expect(xml.stdout).toContain('<ITEMID>3001</ITEMID>');
    expect(strictXmlProblem(xml.stdout)).toBeNull();
    expect((await cliJson(['--db', dbPath, 'export', 'bricklink', '99'])).json.error.code).toBe('not-found');
  });

  it('the BrickLink XML never holds a character XML forbids, even from lines an older version stored with them (SPEC §11)', async () => {
    const { db, dbPath } = await setUp();
    // brick-work 0.9 stored a CSV's NUL and 0x01 in remarks as they were; the catalogue may hold anything.
    insertItem(db, { no: 'x\u0002y', name: 'Brick from a damaged catalogue file' });
    const orderId = insertOrder(db, { reference: 'old' });
    const documentId = insertDocument(db, { orderId, key: 'old.csv' });
    const stored = [
      // A server's text can't hold NUL at all (PostgreSQL refuses it): another control character there.
      { no: '3001', remarks: `bin${storeKind() === 'postgres' ? '\u0008' : '\u0000'}A\u0001 & <top>` },
      { no: 'x\u0002y', remarks: 'tab\tline\nreturn\r ok' },
      { no: '3003', remarks: 'not a character: \uFFFE\uFFFF, and \u001F\u000B\u000C' },
    ];
    stored.forEach((l, i) => {
      const id = insertLine(db, {
        documentId,
        position: i + 1,
        given: { no: l.no },
        placed: { type: 'P', no: l.no, by: 'number' },
      });
      db.prepare('UPDATE order_line SET remarks = ? WHERE id = ?').run(l.remarks, id);
    });
    insertLine(db, { documentId, position: 4, given: { no: 'unplaced\u0003' } });

    const xml = bricklinkXml(db, orderId).content;
    expect(strictXmlProblem(xml)).toBeNull();
    const [doc] = readDocumentFile(file('upload.xml', xml));
    expect(doc?.lines.map((l) => [l.given.no, l.remarks])).toEqual([
      ['3001', 'bin\uFFFDA\uFFFD & <top>'],
      ['x\uFFFDy', 'tab\tline\nreturn\r ok'],
      ['3003', 'not a character: \uFFFD\uFFFD, and \uFFFD\uFFFD\uFFFD'],
    ]);

    const out = path.join(tempDir(), 'upload.xml');
    const r = await cli(['--db', dbPath, 'export', 'bricklink', String(orderId), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(strictXmlProblem(fs.readFileSync(out, 'utf8'))).toBeNull();
  });

  it('the strict check used on every export above finds what XML forbids', () => {
    expect(strictXmlProblem('<A>ok &amp; &#9; &#x1F600;</A>')).toBeNull();
    expect(strictXmlProblem('<A>a\u0001</A>')).toMatch(/U\+0001/);
    expect(strictXmlProblem('<A>\uD800</A>')).toMatch(/U\+D800/);
    expect(strictXmlProblem('<A>\uFFFF</A>')).toMatch(/U\+FFFF/);
    expect(strictXmlProblem('<A>&#1;</A>')).toMatch(/&#1;/);
    expect(strictXmlProblem('<A>a & b</A>')).toMatch(/bare "&"/);
    expect(strictXmlProblem('<A>a</B>')).toMatch(/expected <\/A>/);
  });
});
