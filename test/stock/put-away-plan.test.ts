import { describe, expect, it } from 'vitest';
import { stockItemKey } from '../../src/stock/items.ts';
import {
  busiestLocation,
  linesForNewLots,
  mostCommonLocation,
  planPutAway,
  STOCK_UNCHANGED_NOTE,
} from '../../src/stock/put-away-plan.ts';
import type { PutAwayPlan } from '../../src/stock/types.ts';
import { brick, lot, placed, unplacedLine } from '../helpers/stock-lines.ts';

/** Each entry as `line: kind location (from)` or `line: lot before→after`, to read a list at a glance. */
const said = (plan: PutAwayPlan) =>
  plan.entries.map((e) =>
    e.kind === 'existing'
      ? `${e.line}: lot ${e.lot} at ${e.location ?? '-'} ${e.before}→${e.after}`
      : `${e.line}: new at ${e.location ?? '-'} (${e.from ?? 'type one'})`,
  );

describe('the put-away list (issue 65 §3)', () => {
  it('puts a line into the lot of its item, colour and condition, with the quantity before and after', () => {
    const a = brick('3001');
    const plan = planPutAway({
      lines: [placed(a, 12, 'N', 1)],
      lots: [lot(a, 30, 'A1', 'U', 11), lot(a, 5, 'B7', 'N', 12), lot(brick('3001', 11), 9, 'A1', 'N', 13)],
    });
    expect(said(plan)).toEqual(['1: lot 12 at B7 5→17']);
    expect(plan.entries[0]).toMatchObject({ kind: 'existing', lotId: '84', quantity: 12, item: a, condition: 'N' });
  });

  it('of several lots of one item, colour and condition, takes the first in walking order', () => {
    const a = brick('3001');
    const plan = planPutAway({
      lines: [placed(a, 1, 'N', 1)],
      lots: [lot(a, 5, 'A10', 'N', 21), lot(a, 5, 'A9', 'N', 22)],
    });
    expect(said(plan)).toEqual(['1: lot 22 at A9 5→6']);
  });

  it('lines into one lot follow each other: the second starts where the first ended', () => {
    const a = brick('3001');
    const plan = planPutAway({
      lines: [placed(a, 12, 'N', 1), placed(a, 3, 'N', 2)],
      lots: [lot(a, 10, 'C2', 'N', 31)],
    });
    expect(said(plan)).toEqual(['1: lot 31 at C2 10→22', '2: lot 31 at C2 22→25']);
  });

  it("a new lot is suggested the location most of the item's other lots sit in (other colours, other condition)", () => {
    const a = brick('3001', 5);
    const plan = planPutAway({
      lines: [placed(a, 4, 'N', 1)],
      lots: [
        lot(brick('3001', 1), 2, 'D4', 'N', 41),
        lot(brick('3001', 11), 2, 'D4', 'N', 42),
        lot(brick('3001', 2), 99, 'A1', 'N', 43),
        lot(brick('3001', 5), 7, 'D4', 'U', 44),
        lot(brick('3001', 3), 1, null, 'N', 45),
      ],
      categoryLots: new Map([[stockItemKey(a), [lot(brick('3002'), 1, 'Z1', 'N', 46)]]]),
    });
    expect(said(plan)).toEqual(['1: new at D4 (item)']);
  });

  it("suggests the same from the item's lots counted by location (as the store counts them) as from the lots themselves", () => {
    const a = brick('3001', 5);
    const b = brick('3002', 5);
    const c = brick('3003', 5);
    const all = [
      lot(brick('3001', 1), 2, 'D4', 'N', 41),
      lot(brick('3001', 11), 2, 'D4', 'N', 42),
      lot(brick('3001', 2), 99, 'A1', 'N', 43),
      lot(brick('3001', 5), 7, 'D4', 'U', 44),
      lot(brick('3001', 3), 1, null, 'N', 45),
      lot(brick('3002', 1), 1, null, 'N', 46),
      lot(b, 4, 'F2', 'N', 47),
    ];
    const lines = [placed(a, 4, 'N', 1), placed(b, 1, 'N', 2), placed(c, 2, 'N', 3)];
    const categoryLots = new Map([
      [stockItemKey(b), [lot(brick('3010'), 1, 'Q2', 'N', 63)]],
      [stockItemKey(c), [lot(brick('3011'), 1, 'Q7', 'N', 64)]],
    ]);
    const byLots = planPutAway({ lines, lots: all, categoryLots });
    // Only the lines' items in their colours, and only the items of lines going into a new lot counted.
    const inTheirColours = all.filter((l) =>
      lines.some((x) => x.item?.no === l.item.no && x.item.colour === l.item.colour),
    );
    const asking = linesForNewLots(lines, inTheirColours).map((l) => stockItemKey(l.item));
    expect(asking).toEqual([stockItemKey(a), stockItemKey(c)]);
    const itemLocations = new Map(
      asking.map((key) => {
        const counts = new Map<string | null, number>();
        for (const l of all.filter((x) => stockItemKey(x.item) === key))
          counts.set(l.location, (counts.get(l.location) ?? 0) + 1);
        return [key, [...counts].map(([location, lots]) => ({ location, lots }))] as const;
      }),
    );
    const counted = planPutAway({ lines, lots: inTheirColours, categoryLots, itemLocations });
    expect(said(counted)).toEqual(said(byLots));
    expect(said(counted)).toEqual(['1: new at D4 (item)', '2: lot 47 at F2 4→5', '3: new at Q7 (category)']);
    expect(
      busiestLocation([
        { location: null, lots: 9 },
        { location: 'B2', lots: 1 },
      ]),
    ).toBe('B2');
  });

  it('breaks a tie between locations by natural order', () => {
    const a = brick('3001', 5);
    const lots = [lot(brick('3001', 1), 1, 'B10', 'N', 51), lot(brick('3001', 2), 1, 'B9', 'N', 52)];
    expect(said(planPutAway({ lines: [placed(a, 1, 'N', 1)], lots }))).toEqual(['1: new at B9 (item)']);
    expect(said(planPutAway({ lines: [placed(a, 1, 'N', 1)], lots: [...lots].reverse() }))).toEqual([
      '1: new at B9 (item)',
    ]);
    expect(mostCommonLocation([])).toBeNull();
    expect(mostCommonLocation([lot(a, 1, '  ', 'N', 53)])).toBeNull();
  });

  it('for an item the stock holds no lot of, suggests from its category\'s lots; else none ("type one")', () => {
    const a = brick('3001');
    const b = brick('3002');
    const c = brick('3003');
    const plan = planPutAway({
      lines: [placed(a, 1, 'N', 1), placed(b, 1, 'N', 2), placed(c, 1, 'N', 3)],
      lots: [lot(brick('3001', 11), 3, 'E1', 'N', 61)],
      categoryLots: new Map([
        // The item's own lots speak first: its category is not asked.
        [stockItemKey(a), [lot(brick('3010'), 1, 'Q1', 'N', 62)]],
        [
          stockItemKey(b),
          [
            lot(brick('3010'), 1, 'Q2', 'N', 63),
            lot(brick('3011'), 1, 'Q2', 'N', 64),
            lot(brick('3012'), 1, 'Q1', 'N', 65),
          ],
        ],
      ]),
    });
    expect(said(plan)).toEqual(['1: new at E1 (item)', '2: new at Q2 (category)', '3: new at - (type one)']);
  });

  it('a typed location replaces the suggestion for a new lot (blank typing does not)', () => {
    const a = brick('3001');
    const b = brick('3002');
    const c = brick('3003');
    const plan = planPutAway({
      lines: [placed(a, 1, 'N', 1), placed(b, 1, 'N', 2), placed(c, 1, 'N', 3)],
      lots: [lot(brick('3001', 11), 3, 'E1', 'N', 71), lot(b, 3, 'F1', 'N', 72)],
      typed: new Map([
        [1, ' K-3 '],
        [2, 'ignored: it goes to its lot'],
        [3, '   '],
      ]),
    });
    expect(said(plan)).toEqual(['2: lot 72 at F1 3→4', '1: new at K-3 (typed)', '3: new at - (type one)']);
  });

  it('a line that gives no condition goes into a lot of unknown condition first, else the first lot of either', () => {
    const a = brick('3001');
    const lots = [lot(a, 1, 'A1', 'U', 81), lot(a, 1, 'B1', null, 82)];
    expect(said(planPutAway({ lines: [placed(a, 2, null, 1)], lots }))).toEqual(['1: lot 82 at B1 1→3']);
    expect(said(planPutAway({ lines: [placed(a, 2, null, 1)], lots: [lots[0]!] }))).toEqual(['1: lot 81 at A1 1→3']);
    // A lot of unknown condition takes a line of either; a lot of the other condition does not.
    expect(said(planPutAway({ lines: [placed(a, 2, 'N', 1)], lots }))).toEqual(['1: lot 82 at B1 1→3']);
    expect(said(planPutAway({ lines: [placed(a, 2, 'N', 1)], lots: [lots[0]!] }))).toEqual(['1: new at A1 (item)']);
  });

  it('lists the entries in walking order (new lots without a location last), lines of 0 pieces and unplaced lines apart', () => {
    const a = brick('3001');
    const b = brick('3002');
    const c = brick('3003');
    const lines = [
      placed(c, 2, 'N', 1),
      unplacedLine(3, 2),
      placed(a, 0, 'N', 3),
      placed(a, 5, 'N', 4),
      placed(b, 1, 'N', 5),
    ];
    const plan = planPutAway({ lines, lots: [lot(a, 1, 'B10', 'N', 91), lot(brick('3002', 9), 1, 'B9', 'N', 92)] });
    expect(said(plan)).toEqual(['5: new at B9 (item)', '4: lot 91 at B10 1→6', '1: new at - (type one)']);
    expect(plan.nothingReceived.map((l) => l.line)).toEqual([3]);
    expect(plan.unplaced).toEqual([
      {
        line: 2,
        position: 2,
        where: 'order.xml #2',
        what: 'P 99999zz',
        quantity: 3,
        reason: 'number-not-in-catalogue',
        text: 'The BrickLink number is not in the catalogue',
      },
    ]);
    expect(STOCK_UNCHANGED_NOTE).toMatch(/stays as it was imported/);
  });
});
