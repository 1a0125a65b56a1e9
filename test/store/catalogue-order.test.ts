import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inKeyOrder } from '../../src/store/catalogue.ts';

/**
 * A catalogue load writes its items in the order of the catalogue's key, so that the key's B-tree only
 * appends: that order must be SQLite's own (type, then number under COLLATE NOCASE), or the load is
 * slow again without any test noticing.
 */
describe('the order of the catalogue key', () => {
  it('is the order SQLite keeps the catalogue_item key in, mixed case and all', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE k (item_type TEXT NOT NULL, item_no TEXT NOT NULL COLLATE NOCASE,
               PRIMARY KEY (item_type, item_no)) WITHOUT ROWID`);
    const insert = db.prepare('INSERT OR IGNORE INTO k VALUES (?, ?)');
    const item = fc.record({
      type: fc.constantFrom('P', 'S', 'M', 'B'),
      no: fc.stringMatching(/^[0-9A-Za-z.\-_é]{1,6}$/),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), (items) => {
        db.exec('DELETE FROM k');
        // One of each key as NOCASE sees it (a load keeps the last of several; the order is the point here).
        const seen = new Set<string>();
        const distinct = items.filter((i) => {
          const key = `${i.type} ${i.no.replace(/[A-Z]/g, (c) => c.toLowerCase())}`;
          return seen.has(key) ? false : (seen.add(key), true);
        });
        for (const i of distinct) insert.run(i.type, i.no);
        const sqlite = db.prepare('SELECT item_type AS type, item_no AS no FROM k ORDER BY item_type, item_no').all();
        expect(inKeyOrder(distinct).map((i) => ({ type: i.type, no: i.no }))).toEqual(sqlite);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps items with the same key in the order they came (the later one of a file wins)', () => {
    const rows = [
      { type: 'P', no: 'b2', n: 1 },
      { type: 'P', no: '3001', n: 2 },
      { type: 'P', no: 'B2', n: 3 },
      { type: 'P', no: '3001', n: 4 },
    ];
    expect(inKeyOrder(rows).map((r) => r.n)).toEqual([2, 4, 1, 3]);
  });
});
