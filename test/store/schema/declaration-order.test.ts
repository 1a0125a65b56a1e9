import { describe, expect, it } from 'vitest';
import { TABLES, TABLES_4_2 } from '../../../src/store/schema/tables-4.2.ts';

// A copy fills the tables in the declaration's order (src/store/copy/), with the foreign keys checked.
describe('the declared tables', () => {
  it('list every parent before its children', () => {
    const order: readonly string[] = TABLES;
    for (const t of TABLES_4_2) {
      for (const k of t.foreignKeys) {
        expect(order.indexOf(k.table), `${t.name} → ${k.table}`).toBeGreaterThanOrEqual(0);
        expect(order.indexOf(k.table), `${t.name} → ${k.table}`).toBeLessThan(order.indexOf(t.name));
      }
    }
  });

  it('name each table and index once, and key and index only columns they have', () => {
    const indexes = TABLES_4_2.flatMap((t) => t.indexes.map((i) => i.name));
    expect(new Set(indexes).size).toBe(indexes.length);
    expect(new Set(TABLES).size).toBe(TABLES.length);
    for (const t of TABLES_4_2) {
      const columns = t.columns.map((c) => c.name);
      const keyed = [
        ...t.primaryKey,
        ...t.unique.flat(),
        ...t.foreignKeys.flatMap((k) => k.columns),
        ...t.indexes.flatMap((i) => i.columns),
      ];
      for (const c of keyed) expect(columns, t.name).toContain(c);
      for (const k of t.foreignKeys) {
        const parent = TABLES_4_2.find((p) => p.name === k.table)?.columns.map((c) => c.name);
        for (const c of k.to) expect(parent, `${t.name} → ${k.table}`).toContain(c);
      }
    }
  });
});
