import { describe, expect, it } from 'vitest';
import { compareLocations, locationSortKey, sortByLocation } from '../../src/stock/natural-order.ts';

const sorted = (xs: readonly (string | null)[]) => [...xs].sort(compareLocations);

describe('natural order of locations (issue 65 §1)', () => {
  it('compares digit runs as numbers: A2 before A10, B-1-9 before B-1-10, 9 before 10', () => {
    expect(sorted(['A10', 'A2', 'A1'])).toEqual(['A1', 'A2', 'A10']);
    expect(sorted(['B-1-10', 'B-1-9', 'B-2-1', 'B-1-1'])).toEqual(['B-1-1', 'B-1-9', 'B-1-10', 'B-2-1']);
    expect(sorted(['10', '9', '100', '1'])).toEqual(['1', '9', '10', '100']);
    // Plain text order would put these the other way round.
    expect(['A10', 'A2'].sort()).toEqual(['A10', 'A2']);
  });

  it('compares numbers of any length exactly, beyond what a float holds', () => {
    const big = '123456789012345678901234567890';
    const bigger = '123456789012345678901234567891';
    expect(sorted([`X${bigger}`, `X${big}`, 'X99'])).toEqual(['X99', `X${big}`, `X${bigger}`]);
    expect(Number(big)).toBe(Number(bigger)); // what a float comparison would have got wrong
  });

  it('is case-insensitive, and orders text that differs only in case the same way every time', () => {
    expect(compareLocations('a3', 'A10')).toBeLessThan(0);
    expect(compareLocations('b1', 'A2')).toBeGreaterThan(0);
    expect(sorted(['a1', 'A1'])).toEqual(['A1', 'a1']);
    expect(sorted(['A1', 'a1'])).toEqual(['A1', 'a1']);
    expect(locationSortKey('Shelf A')).toBe(locationSortKey('SHELF a'));
  });

  it('handles leading zeros stably: A01 and A1 are one number, in one order whatever the input order', () => {
    expect(compareLocations('A01', 'A2')).toBeLessThan(0);
    expect(compareLocations('A010', 'A9')).toBeGreaterThan(0);
    expect(sorted(['A1', 'A01', 'A001'])).toEqual(['A001', 'A01', 'A1']);
    expect(sorted(['A001', 'A1', 'A01'])).toEqual(['A001', 'A01', 'A1']);
    expect(locationSortKey('A01')).toBe(locationSortKey('A1'));
    expect(sorted(['B00', 'B1', 'B0'])).toEqual(['B0', 'B00', 'B1']);
  });

  it('reads spaces and mixed separators as separating only: B-1-10, B 1 10, B.1.10 are one place in the walk', () => {
    expect(locationSortKey('B-1-10')).toBe(locationSortKey('B 1 10'));
    expect(locationSortKey('B.1.10')).toBe(locationSortKey('b/1_10'));
    expect(sorted(['B 1 10', 'B-1-9', 'B.1.11', 'B/1/8'])).toEqual(['B/1/8', 'B-1-9', 'B 1 10', 'B.1.11']);
    expect(locationSortKey('  A2  ')).toBe(locationSortKey('A2'));
    expect(sorted(['Drawer 10', 'Drawer 9', 'Drawer  2'])).toEqual(['Drawer  2', 'Drawer 9', 'Drawer 10']);
  });

  it('puts a shorter location that begins another first, and a number before a word at the same place', () => {
    expect(sorted(['A1', 'A'])).toEqual(['A', 'A1']);
    expect(sorted(['AB', 'A1'])).toEqual(['A1', 'AB']);
    expect(sorted(['A10b', 'A10a', 'A10', 'A9z'])).toEqual(['A9z', 'A10', 'A10a', 'A10b']);
  });

  it('reads unicode letters as words, accents and case aside, and full-width digits as digits', () => {
    expect(sorted(['Ä10', 'Ä2', 'B1'])).toEqual(['Ä2', 'Ä10', 'B1']);
    expect(compareLocations('Étagère 2', 'etagere 10')).toBeLessThan(0);
    expect(locationSortKey('Å1')).toBe(locationSortKey('a1'));
    expect(locationSortKey('Ａ１２')).toBe(locationSortKey('A12'));
    expect(sorted(['棚10', '棚9'])).toEqual(['棚9', '棚10']);
  });

  it('puts a lot without a location (null, empty or blank) after every located one, and ties stay stable', () => {
    expect(sorted([null, 'Z99', '', 'A1', '   '])).toEqual(['A1', 'Z99', null, '', '   ']);
    expect(locationSortKey(null)).toBeNull();
    expect(locationSortKey('')).toBeNull();
    expect(locationSortKey(' \t ')).toBeNull();
    expect(compareLocations(null, null)).toBe(0);
    expect(compareLocations(null, '')).toBe(0);
    expect(compareLocations('A1', 'A1')).toBe(0);
    // Equal locations keep the order they came in (Array.prototype.sort is stable).
    const lots = [
      { id: 1, at: 'A2' },
      { id: 2, at: 'A1' },
      { id: 3, at: 'A2' },
      { id: 4, at: null },
      { id: 5, at: 'A2' },
    ];
    expect([...lots].sort((a, b) => compareLocations(a.at, b.at)).map((l) => l.id)).toEqual([2, 1, 3, 5, 4]);
  });

  it('gives keys that sort as the comparator does, by plain string order (as a C collation would)', () => {
    const all = ['A10', 'a2', 'B-1-10', 'B 1 9', 'A', 'A1', 'Ä3', '10', '9', 'Z', 'x1y2', 'x1y10', '#5'];
    const byKey = [...all].sort((a, b) => {
      const ka = locationSortKey(a) ?? '';
      const kb = locationSortKey(b) ?? '';
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    expect(byKey).toEqual(sorted(all));
    expect(sorted(all)).toEqual([
      '#5',
      '9',
      '10',
      'A',
      'A1',
      'a2',
      'Ä3',
      'A10',
      'B 1 9',
      'B-1-10',
      'x1y2',
      'x1y10',
      'Z',
    ]);
  });

  it('sorts things by their location as the comparator does, then by a tie-break, stably', () => {
    const all = ['A10', 'a2', null, 'B-1-10', 'B 1 9', '', 'A01', 'A1', 'Ä3', '10', '9', 'A1', 'x1y10'];
    const things = all.map((at, i) => ({ at, i }));
    expect(sortByLocation(things, (t) => t.at).map((t) => t.at)).toEqual(sorted(all));
    // Equal locations: by the tie-break, and where it says nothing, in the order given.
    const byTieBreak = sortByLocation(
      things,
      (t) => t.at,
      (a, b) => b.i - a.i,
    );
    expect(byTieBreak.filter((t) => t.at === 'A1').map((t) => t.i)).toEqual([11, 7]);
    expect(byTieBreak.filter((t) => t.at === null || t.at === '').map((t) => t.i)).toEqual([5, 2]);
    expect(
      sortByLocation(things, (t) => t.at)
        .filter((t) => t.at === 'A1')
        .map((t) => t.i),
    ).toEqual([7, 11]);
  });
});
