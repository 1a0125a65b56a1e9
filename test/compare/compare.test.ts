import { describe, expect, it } from 'vitest';
import { compareKey, compareLine, compareSides, type CompareLine } from '../../src/compare/compare.ts';

const placed = (
  no: string,
  colour: number | null,
  quantity: number,
  price: number | null = null,
  given?: string,
  condition: 'N' | 'U' = 'N',
): CompareLine =>
  compareLine({
    given: { type: 'P', no: given ?? no, name: null, colourId: colour, colourName: null },
    placed: { type: 'P', no, colour },
    quantity,
    unitPriceE4: price,
    condition,
  });
const unplaced = (no: string | null, name: string | null, colour: number | null, quantity: number): CompareLine =>
  compareLine({
    given: { type: 'P', no, name, colourId: colour, colourName: null },
    placed: null,
    quantity,
    unitPriceE4: null,
    condition: 'N',
  });

// Issue 28 (SPEC §13): lines matched by what they are after placement; quantities summed per key first.
describe('compare', () => {
  it('puts every key in one group, with the totals of both sides', () => {
    const left = [
      placed('3001', 5, 10, 1000),
      placed('3001', 5, 2, 1000),
      placed('3003', 1, 4, 500),
      placed('3020', 11, 3),
    ];
    const right = [placed('3001', 5, 12, 1000), placed('3003', 1, 1, 500), placed('3710', 2, 6, 250)];
    const r = compareSides(left, right);
    const nos = (rows: readonly { item: { no: string } | null }[]) => rows.map((x) => x.item?.no);
    expect(nos(r.same)).toEqual(['3001']);
    expect(r.same[0]).toMatchObject({ left: 12, right: 12, difference: 0 });
    expect(nos(r.quantityDiffers)).toEqual(['3003']);
    expect(r.quantityDiffers[0]).toMatchObject({ left: 4, right: 1, difference: -3 });
    expect(nos(r.onlyLeft)).toEqual(['3020']);
    expect(nos(r.onlyRight)).toEqual(['3710']);
    expect(r.totals).toEqual({
      left: { lots: 3, pieces: 19 },
      right: { lots: 3, pieces: 19 },
      missing: 3 + 3,
      extra: 6,
      missingValueE4: 3 * 500 + 3 * 0,
      extraValueE4: 6 * 250,
    });
  });

  it('matches lines by what they are: a line placed through another numbering or a remembered fix counts as its item', () => {
    // Ordered as element 4211050, arrived as BrickLink 3001: both placed on P 3001 in colour 5.
    const r = compareSides([placed('3001', 5, 4, null, '4211050')], [placed('3001', 5, 4)]);
    expect(r.same).toHaveLength(1);
    expect(r.onlyLeft).toEqual([]);
  });

  it('keeps colour and condition apart', () => {
    const used = placed('3001', 5, 1, null, undefined, 'U');
    const r = compareSides([placed('3001', 5, 1), placed('3001', 1, 1)], [used, placed('3001', 1, 1)]);
    expect(r.same.map((x) => x.item?.colour)).toEqual([1]);
    expect(r.onlyLeft.map((x) => x.condition)).toEqual(['N']);
    expect(r.onlyRight.map((x) => x.condition)).toEqual(['U']);
  });

  it('keeps the same number of two item types apart, in the same colour and condition too', () => {
    const set = compareLine({
      given: { type: 'S', no: '6020', name: null, colourId: null, colourName: null },
      placed: { type: 'S', no: '6020', colour: null },
      quantity: 1,
      unitPriceE4: null,
      condition: 'N',
    });
    const r = compareSides([placed('6020', null, 2), set, placed('6020', 5, 1)], [set, placed('6020', null, 3)]);
    expect(r.same.map((x) => [x.item.type, x.item.no, x.left])).toEqual([['S', '6020', 1]]);
    expect(r.quantityDiffers.map((x) => [x.item.type, x.item.colour, x.left, x.right])).toEqual([['P', null, 2, 3]]);
    expect(r.onlyLeft.map((x) => [x.item.type, x.item.colour])).toEqual([['P', 5]]);
  });

  it('names a row of unplaced lines by what its first line gave; a placed row by its item alone', () => {
    const r = compareSides([placed('3001', 5, 1, null, '3001old'), unplaced('x7', 'Odd', 5, 1)], []);
    expect(r.onlyLeft[0]).toMatchObject({ item: { type: 'P', no: '3001', colour: 5 }, given: null });
    expect(r.unplaced[0]?.given).toEqual({ type: 'P', no: 'x7', name: 'Odd', colourId: 5, colourName: null });
  });

  it('lists unplaced lines apart, matched only with each other (by number, else folded name, and colour)', () => {
    const left = [unplaced('x99', null, 5, 2), unplaced(null, 'Odd  Part', 5, 1), placed('x98', 5, 1)];
    const right = [unplaced('X99', null, 5, 1), unplaced(null, 'odd part', 5, 1), unplaced('x98', null, 5, 1)];
    const r = compareSides(left, right);
    // The placed x98 is never matched with the unplaced x98.
    expect(r.onlyLeft.map((x) => x.item?.no)).toEqual(['x98']);
    // In the order the left lists them, then the right's own.
    expect(r.unplaced.map((x) => [x.given.no ?? x.given.name, x.left, x.right])).toEqual([
      ['x99', 2, 1],
      ['Odd  Part', 1, 1],
      ['x98', 0, 1],
    ]);
    expect(compareKey(left[0] as CompareLine)).not.toBe(compareKey(left[2] as CompareLine));
  });

  it('on request, the rows on both sides whose unit prices differ (mean over their lines, exact)', () => {
    const left = [placed('3001', 5, 1, 1000), placed('3001', 5, 1, 2000), placed('3003', 5, 1, 700)];
    const right = [placed('3001', 5, 2, 1500), placed('3003', 5, 1, 800)];
    expect(compareSides(left, right).priceDiffers).toEqual([]);
    const r = compareSides(left, right, { prices: true });
    expect(r.priceDiffers.map((x) => [x.item?.no, x.leftUnitPriceE4, x.rightUnitPriceE4])).toEqual([
      ['3003', 700, 800],
    ]);
  });

  it('gives rows in the order the left lists their keys, then the right’s own', () => {
    const r = compareSides(
      [placed('3010', 5, 1), placed('3001', 5, 1), placed('3005', 5, 1), placed('3001', 5, 2)],
      [placed('3009', 5, 1), placed('3005', 5, 1), placed('3001', 5, 3), placed('3002', 5, 1), placed('3010', 5, 1)],
    );
    expect(r.same.map((x) => x.item?.no)).toEqual(['3010', '3001', '3005']);
    expect(r.onlyRight.map((x) => x.item?.no)).toEqual(['3009', '3002']);
  });

  it('counts a lot of 0 pieces as a lot, and either side may be the larger', () => {
    const r = compareSides([placed('3001', 5, 0)], [placed('3001', 5, 0), placed('3002', 5, 9)]);
    expect(r.same).toHaveLength(1);
    expect(r.totals.left).toEqual({ lots: 1, pieces: 0 });
    expect(r.totals.right).toEqual({ lots: 2, pieces: 9 });
  });
});
