import path from 'node:path';
import { writeSession } from '../../src/store/session.ts';
import { expect, it, onTestFinished } from 'vitest';
import type { Clock } from '../../src/platform/clock.ts';
import { confirmImport, planImport } from '../../src/documents/import.ts';
import { openStore } from '../../src/store/open.ts';
import { setSetting } from '../../src/store/settings.ts';
import { cliJson } from '../helpers/cli.ts';
import { bsx, file, orderXml } from '../helpers/documents.ts';
import { dumpRows, insertItem, insertOrder } from '../helpers/store-builder.ts';
import { refusalOf } from '../helpers/refusal.ts';
import { tempDir } from '../helpers/temp.ts';
import { describeEachStore, newStoreLocation } from '../helpers/stores.ts';

const clock: Clock = { now: () => new Date('2026-04-01T09:30:00Z') };

async function newStore() {
  const store = await openStore(newStoreLocation());
  onTestFinished(() => store.close());
  insertItem(store.db, { no: '3001', name: 'Brick 2 x 4' });
  return store.db;
}

const refused = refusalOf;

describeEachStore('where an import goes', () => {
  it('a header-less file makes a new order named by its key, in the shop’s currency', async () => {
    const db = await newStore();
    setSetting(db, 'currency', 'DKK');
    const [r] = confirmImport(writeSession(db), { file: file('Falcon.bsx', bsx([{ no: '3001' }])) }, clock);
    expect(r?.order).toMatchObject({ reference: 'Falcon.bsx', currency: 'DKK' });
    const [eur] = confirmImport(writeSession(db), { file: file('Euro.bsx', bsx([{ no: '3001' }], 'EUR')) }, clock);
    expect(eur?.order.currency).toBe('EUR');
  });

  it('into a chosen order: matching header and currency are taken; mismatches are refused naming both values', async () => {
    const db = await newStore();
    const [first] = confirmImport(
      writeSession(db),
      { file: file('a.xml', orderXml([{ id: '500', seller: 'ann', currency: 'EUR', lines: [{ no: '3001' }] }])) },
      clock,
    );
    const orderId = first?.order.id ?? 0;
    // A header-less file without a currency takes the order's.
    const [into] = confirmImport(writeSession(db), { file: file('extra.bsx', bsx([{ no: '3001' }])), orderId }, clock);
    expect(into?.order).toEqual({ id: orderId, reference: '500', currency: 'EUR' });

    const before = dumpRows(db);
    const ref = refused(() =>
      confirmImport(
        writeSession(db),
        {
          file: file('b.xml', orderXml([{ id: '501', seller: 'ann', currency: 'EUR', lines: [{ no: '3001' }] }])),
          orderId,
        },
        clock,
      ),
    );
    expect(ref.code).toBe('header-mismatch');
    expect(ref.message).toContain('"501"');
    expect(ref.message).toContain('"500"');
    expect(dumpRows(db)).toEqual(before);
    // An order with the same reference and another counterparty (made some other way than from this key).
    const other = insertOrder(db, { reference: '600', counterparty: 'ann', currency: 'EUR' });
    const withOther = dumpRows(db);
    const who = refused(() =>
      confirmImport(
        writeSession(db),
        {
          file: file('c.xml', orderXml([{ id: '600', seller: 'bob', currency: 'EUR', lines: [{ no: '3001' }] }])),
          orderId: other,
        },
        clock,
      ),
    );
    expect(who.code).toBe('header-mismatch');
    expect(who.message).toBe(`The file's counterparty is "bob", but order 600 (#${other}) has "ann".`);
    const cur = refused(() =>
      confirmImport(writeSession(db), { file: file('d.bsx', bsx([{ no: '3001' }], 'USD')), orderId }, clock),
    );
    expect(cur.code).toBe('currency-mismatch');
    expect(cur.message).toBe(`The file is in USD, but order 500 (#${orderId}) is in EUR.`);
    expect(dumpRows(db)).toEqual(withOther);
    expect(
      refused(() =>
        confirmImport(writeSession(db), { file: file('e.bsx', bsx([{ no: '3001' }])), orderId: 999 }, clock),
      ).code,
    ).toBe('not-found');
  });

  it('a duplicate is refused, naming when and where it was imported', async () => {
    const db = await newStore();
    const text = orderXml([{ id: '42', seller: 'ann', lines: [{ no: '3001' }] }]);
    const [r] = confirmImport(writeSession(db), { file: file('a.xml', text) }, clock);
    const dup = refused(() => confirmImport(writeSession(db), { file: file('renamed.xml', text) }, clock));
    expect(dup.code).toBe('duplicate-document');
    expect(dup.message).toBe(
      `bricklink-order:42 was already imported on 2026-04-01 09:30 into order 42 (#${r?.order.id}); ` +
        `take that import back first (Take back this import, or brick-work take-back ${r?.document.id}) to import it again.`,
    );
  });

  it('a preview writes nothing, shows every line with its placement, and says what would refuse it', async () => {
    const db = await newStore();
    const before = dumpRows(db);
    const plan = planImport(db, {
      file: file('p.xml', orderXml([{ id: '1', lines: [{ no: '3001' }, { no: '4242' }] }])),
    });
    expect(plan.refusal).toBeNull();
    expect(plan.documents[0]?.target).toMatchObject({ kind: 'new', reference: '1', currency: 'USD' });
    expect(plan.documents[0]?.lines.map((l) => [l.position, l.placement.item?.no ?? null, l.placement.reason])).toEqual(
      [
        [1, '3001', null],
        [2, null, 'The BrickLink number is not in the catalogue'],
      ],
    );
    expect(dumpRows(db)).toEqual(before);
  });

  it('import --json and --dry-run --json through the CLI', async () => {
    const dir = tempDir();
    const store = path.join(dir, 'brick-work.sqlite');
    const doc = path.join(dir, 'orders.xml');
    await import('node:fs').then((fs) =>
      fs.writeFileSync(
        doc,
        orderXml([
          { id: '1', lines: [{ no: '3001' }] },
          { id: '2', currency: 'EUR', lines: [{ no: '3001' }, { no: 'x' }] },
        ]),
      ),
    );
    const dry = await cliJson(['--db', store, 'import', doc, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    // The preview's own view (import.preview): one entry per document, nothing written.
    expect(dry.json.documents.map((d: { key: string; refusal: unknown }) => [d.key, d.refusal])).toEqual([
      ['bricklink-order:1', null],
      ['bricklink-order:2', null],
    ]);
    const r = await cliJson(['--db', store, 'import', doc]);
    expect(r.json).toEqual({
      imports: [
        {
          document: { id: 1, key: 'bricklink-order:1', state: 'imported' },
          order: { id: 1, reference: '1', currency: 'USD' },
          lines: { total: 1, placed: 0, unplaced: 1 },
          revived: false,
        },
        {
          document: { id: 2, key: 'bricklink-order:2', state: 'imported' },
          order: { id: 2, reference: '2', currency: 'EUR' },
          lines: { total: 2, placed: 0, unplaced: 2 },
          revived: false,
        },
      ],
    });
    const lines = await cliJson(['--db', store, 'lines', '2', '--unplaced']);
    expect(lines.json.lines[0]).toMatchObject({
      id: 2,
      position: 1,
      given: { type: 'P', no: '3001' },
      placed: null,
      reason: { code: 'number-not-in-catalogue', text: 'The BrickLink number is not in the catalogue' },
    });
  });
});
