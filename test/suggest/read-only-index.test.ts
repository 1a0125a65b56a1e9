import { describe, expect, it } from 'vitest';
import { SuggestIndex } from '../../src/suggest/index.ts';

/** The index's own data — every field but the query's scratch space — as plain values. */
function ownData(index: SuggestIndex): string {
  const fields = Object.entries(index as unknown as Record<string, unknown>).filter(([k]) => k !== 'scratch');
  expect(fields.length).toBeGreaterThan(20);
  return JSON.stringify(fields, (_k, v: unknown) =>
    ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v instanceof Map ? [...v] : v,
  );
}

// Issue 27, point 5: the index is split from the scratch space of its queries, so a query can't change it.
describe('the suggestion index', () => {
  it('is not changed by the queries it answers: they write only their scratch space', () => {
    const items = [
      { type: 'P' as const, no: '3001', name: 'Brick 2 x 4' },
      { type: 'P' as const, no: '3003', name: 'Brick 2 x 2' },
      { type: 'P' as const, no: '3023', name: 'Plate 1 x 2' },
      { type: 'P' as const, no: '32028', name: 'Plate, Modified 1 x 2 with Door Rail' },
      { type: 'P' as const, no: '3794a', name: 'Plate, Modified 1 x 2 with 1 Stud without Groove' },
      { type: 'P' as const, no: '3794b', name: 'Plate, Modified 1 x 2 with 1 Stud with Groove' },
      { type: 'M' as const, no: 'sw0001', name: 'Luke Skywalker' },
    ];
    const index = new SuggestIndex(items, [{ type: 'P', no: '3001', name: 'Two by four brick' }]);
    const before = ownData(index);
    for (let round = 0; round < 3; round++) {
      for (const q of ['Brick 2 x 4', 'plate special 1x2 door rail', 'Plat 1 x 2', 'two by four', 'Lukes Skywalker'])
        expect(index.byName(q, 5).length).toBeGreaterThan(0);
      expect(index.byNumberPrefix('3794', 5).map((s) => s.no)).toEqual(['3794a', '3794b']);
      index.search('3001', 5);
    }
    expect(ownData(index)).toBe(before);
  });
});
