import { describe, expect, it } from 'vitest';
import { lotKeys, pickEntryKey, pickProgress, pickProgressText, planPick } from '../../src/stock/pick-plan.ts';
import type { PickPlan } from '../../src/stock/types.ts';
import { brick, lot, placed, unplacedLine } from '../helpers/stock-lines.ts';

/** Each stop as `location: take×line/lot`, to read a walk at a glance. */
const walk = (plan: PickPlan) => plan.entries.map((e) => `${e.location?.trim() || '-'}: ${e.take}×${e.line}/${e.lot}`);

/** Every line is somewhere: a stop of the walk, missing, of 0 pieces, or unplaced. */
function accounted(plan: PickPlan): number[] {
  return [
    ...new Set([
      ...plan.entries.map((e) => e.line),
      ...plan.missing.map((m) => m.line),
      ...plan.nothingAsked.map((n) => n.line),
      ...plan.unplaced.map((u) => u.line),
    ]),
  ].sort((a, b) => a - b);
}

describe('the pick list (issue 65 §2)', () => {
  it('walks the bins in natural order, whatever order the lines and lots came in', () => {
    const a = brick('3001');
    const b = brick('3003', 11);
    const c = brick('3020', 1);
    const lines = [placed(a, 4, 'N', 1), placed(b, 2, 'N', 2), placed(c, 1, 'N', 3)];
    const lots = [lot(c, 5, 'A10', 'N', 13), lot(a, 10, 'B-1-10', 'N', 11), lot(b, 3, 'A2', 'N', 12)];
    const plan = planPick(lines, lots);
    expect(walk(plan)).toEqual(['A2: 2×2/12', 'A10: 1×3/13', 'B-1-10: 4×1/11']);
    expect(plan.entries.every((e) => e.short === null)).toBe(true);
    expect(plan.entries[0]).toMatchObject({
      key: pickEntryKey(2, 'L84'),
      where: 'order.xml #2',
      item: b,
      ordered: 2,
      lotId: '84',
      condition: 'N',
      inLot: 3,
      take: 2,
    });
  });

  it('keys a mark by the lot as the shop knows it, so a newer import of the same stock keeps it', () => {
    const a = brick('3001');
    const b = brick('3003', 11);
    const first = [
      lot(a, 5, 'A10', 'N', 31),
      { ...lot(a, 2, 'Drawer 3', 'U', 32), lotId: null },
      { ...lot(b, 1, 'A2', null, 33), lotId: null },
    ];
    // The same lots, imported again: new lines in the store, quantities moved on.
    const again = [
      lot(a, 4, 'A10', 'N', 131),
      { ...lot(a, 1, 'Drawer 3', 'U', 132), lotId: null },
      { ...lot(b, 1, 'A2', null, 133), lotId: null },
    ];
    again[0] = { ...again[0]!, lotId: first[0]!.lotId };
    const k1 = lotKeys(first);
    const k2 = lotKeys(again);
    expect(k1.get(31)).toBe(`L${first[0]!.lotId}`);
    expect([k2.get(131), k2.get(132), k2.get(133)]).toEqual([k1.get(31), k1.get(32), k1.get(33)]);
    expect(new Set(k1.values()).size).toBe(3);
    // Lots alike in bin, item, colour and condition, without lot ids: counted in the stock's order.
    const twins = lotKeys([
      { ...lot(a, 1, 'B1', 'N', 41), lotId: null },
      { ...lot(a, 9, 'B1', 'N', 42), lotId: null },
    ]);
    expect(twins.get(42)).toBe(`${twins.get(41)}.2`);
    const plan = planPick([placed(a, 3, 'N', 1)], first);
    expect(plan.entries.map((e) => e.key)).toEqual([pickEntryKey(1, k1.get(31)!)]);
  });

  it('takes a line from several bins: the first in walking order first, then the next, until the line is met', () => {
    const a = brick('3001');
    const lots = [
      lot(a, 5, 'C3', 'N', 21),
      lot(a, 4, 'A10', 'N', 22),
      lot(a, 3, 'A9', 'N', 23),
      lot(a, 50, 'D1', 'N', 24),
    ];
    const plan = planPick([placed(a, 10, 'N', 1)], lots);
    // A9 (3), A10 (4), then 3 of C3's 5; D1 is not needed and never shown.
    expect(walk(plan)).toEqual(['A9: 3×1/23', 'A10: 4×1/22', 'C3: 3×1/21']);
    expect(plan.entries.map((e) => e.key)).toEqual(['1:L161', '1:L154', '1:L147']);
    expect(plan.missing).toEqual([]);
  });

  it('says a line is short when the stock holds less than it asks, on its last stop, with how many are missing', () => {
    const a = brick('3001');
    const plan = planPick([placed(a, 10, 'N', 1)], [lot(a, 4, 'B2', 'N', 31), lot(a, 2, 'A1', 'N', 32)]);
    expect(walk(plan)).toEqual(['A1: 2×1/32', 'B2: 4×1/31']);
    expect(plan.entries[0]?.short).toBeNull();
    expect(plan.entries[1]?.short).toEqual({ kind: 'short', missing: 4, other: null });
  });

  it("names a short line's pieces in the other condition, so staff can offer them", () => {
    const a = brick('3001');
    const plan = planPick(
      [placed(a, 6, 'N', 1)],
      [lot(a, 4, 'A1', 'N', 41), lot(a, 9, 'Z9', 'U', 42), lot(a, 1, 'B1', 'U', 43)],
    );
    expect(walk(plan)).toEqual(['A1: 4×1/41']);
    expect(plan.entries[0]?.short).toEqual({
      kind: 'short',
      missing: 2,
      other: { condition: 'U', quantity: 10, locations: ['B1', 'Z9'] },
    });
  });

  it('lists apart, with nowhere to walk to, a line of which the stock holds none at all', () => {
    const a = brick('3001');
    const other = brick('3001', 11);
    // A lot of 0 pieces (as BrickStore keeps) and another colour's lot are not the item in its colour in stock.
    const plan = planPick([placed(a, 3, 'N', 1)], [lot(a, 0, 'A1', 'N', 51), lot(other, 8, 'A2', 'N', 52)]);
    expect(plan.entries).toEqual([]);
    expect(plan.missing).toEqual([
      {
        line: 1,
        position: 1,
        where: 'order.xml #1',
        what: 'P 3001 (colour 5)',
        quantity: 3,
        item: a,
        condition: 'N',
        short: { kind: 'none', missing: 3, other: null },
      },
    ]);
  });

  it('lists apart a line the stock holds only in the other condition, saying which and how many are there', () => {
    const a = brick('3001');
    const plan = planPick([placed(a, 3, 'U', 1)], [lot(a, 2, 'A1', 'N', 61), lot(a, 5, 'A1', 'N', 62)]);
    expect(plan.entries).toEqual([]);
    expect(plan.missing[0]?.short).toEqual({
      kind: 'other-condition',
      missing: 3,
      other: { condition: 'N', quantity: 7, locations: ['A1'] },
    });
  });

  it('shares the stock between lines of one item, colour and condition: the second takes what the first left', () => {
    const a = brick('3001');
    const lots = [lot(a, 5, 'A1', 'N', 71), lot(a, 3, 'A2', 'N', 72)];
    const plan = planPick([placed(a, 6, 'N', 1), placed(a, 4, 'N', 2)], lots);
    expect(walk(plan)).toEqual(['A1: 5×1/71', 'A2: 1×1/72', 'A2: 2×2/72']);
    expect(plan.entries.find((e) => e.line === 1 && e.lot === 72)?.short).toBeNull();
    expect(plan.entries.find((e) => e.line === 2)?.short).toEqual({ kind: 'short', missing: 2, other: null });
    // Never more taken from a lot than it holds.
    const fromA2 = plan.entries.filter((e) => e.lot === 72).reduce((n, e) => n + e.take, 0);
    expect(fromA2).toBe(3);
  });

  it('a line that finds everything taken by earlier lines is short with nowhere to go, not "none"', () => {
    const a = brick('3001');
    const plan = planPick([placed(a, 5, 'N', 1), placed(a, 2, 'N', 2)], [lot(a, 5, 'A1', 'N', 81)]);
    expect(walk(plan)).toEqual(['A1: 5×1/81']);
    expect(plan.missing.map((m) => [m.line, m.short])).toEqual([[2, { kind: 'short', missing: 2, other: null }]]);
  });

  it('lines of the same item in different conditions take from their own condition only', () => {
    const a = brick('3001');
    const lots = [lot(a, 3, 'A1', 'U', 91), lot(a, 3, 'A2', 'N', 92)];
    const plan = planPick([placed(a, 2, 'N', 1), placed(a, 2, 'U', 2)], lots);
    expect(walk(plan)).toEqual(['A1: 2×2/91', 'A2: 2×1/92']);
  });

  it('a line that gives no condition takes from every lot of its item and colour in walking order, either condition', () => {
    const a = brick('3001');
    const lots = [lot(a, 2, 'B1', 'N', 101), lot(a, 2, 'A1', 'U', 102), lot(a, 9, 'C1', 'N', 103)];
    const plan = planPick([placed(a, 3, null, 1)], lots);
    expect(walk(plan)).toEqual(['A1: 2×1/102', 'B1: 1×1/101']);
    expect(plan.entries.map((e) => e.condition)).toEqual(['U', 'N']);
    // Short of both, it is plainly short: there is no other condition it did not already take.
    const short = planPick([placed(a, 20, null, 2)], lots);
    expect(short.entries.at(-1)?.short).toEqual({ kind: 'short', missing: 7, other: null });
  });

  it("a lot whose condition the stock does not say is taken after the lots of the line's own condition", () => {
    const a = brick('3001');
    const lots = [lot(a, 2, 'A1', null, 111), lot(a, 2, 'B1', 'N', 112), lot(a, 5, 'A0', 'U', 113)];
    const plan = planPick([placed(a, 3, 'N', 1)], lots);
    expect(plan.entries.map((e) => [e.lot, e.take])).toEqual([
      [111, 1],
      [112, 2],
    ]);
  });

  it('lines of 0 pieces need nothing, and unplaced lines are listed apart with their reasons', () => {
    const a = brick('3001');
    const lines = [placed(a, 0, 'N', 1), unplacedLine(4, 2), placed(a, 1, 'N', 3)];
    const plan = planPick(lines, [lot(a, 1, 'A1', 'N', 121)]);
    expect(walk(plan)).toEqual(['A1: 1×3/121']);
    expect(plan.nothingAsked).toEqual([
      { line: 1, position: 1, where: 'order.xml #1', what: 'P 3001 (colour 5)', quantity: 0 },
    ]);
    expect(plan.unplaced).toEqual([
      {
        line: 2,
        position: 2,
        where: 'order.xml #2',
        what: 'P 99999zz',
        quantity: 4,
        reason: 'number-not-in-catalogue',
        text: 'The BrickLink number is not in the catalogue',
      },
    ]);
  });

  it("puts lots without a location at the end of the walk, and groups one item's lots in one bin", () => {
    const a = brick('3001');
    const b = brick('3002');
    const lots = [
      lot(a, 1, null, 'N', 131),
      lot(b, 1, 'A1', 'N', 132),
      lot(a, 1, 'A1', 'N', 133),
      lot(b, 5, '', 'N', 134),
    ];
    const lines = [placed(b, 1, 'N', 1), placed(a, 1, 'N', 2), placed(b, 2, 'N', 3), placed(a, 1, 'N', 4)];
    const plan = planPick(lines, lots);
    // In A1: 3001 before 3002 (one item's lots together), the order's order within an item; then no location.
    expect(walk(plan)).toEqual(['A1: 1×2/133', 'A1: 1×1/132', '-: 1×4/131', '-: 2×3/134']);
  });

  it('accounts for every line of a larger order', () => {
    const items = Array.from({ length: 12 }, (_, i) => brick(String(3000 + i), i % 3));
    const lines = [
      ...items.map((it, i) => placed(it, (i % 4) * 3, i % 5 === 0 ? 'U' : 'N', 200 + i)),
      unplacedLine(2, 300),
      unplacedLine(0, 301),
    ];
    const lots = items.flatMap((it, i) =>
      i % 6 === 5 ? [] : [lot(it, i, `R${i % 4}-${i}`, 'N', 400 + i), lot(it, 2, `S${i}`, 'U', 500 + i)],
    );
    const plan = planPick(lines, lots);
    expect(accounted(plan)).toEqual(lines.map((l) => l.line).sort((a, b) => a - b));
    for (const e of plan.entries) expect(e.take).toBeGreaterThan(0);
    // What is taken plus what is short is exactly what each placed line of some pieces asks.
    for (const l of lines.filter((x) => x.item !== null && x.quantity > 0)) {
      const stops = plan.entries.filter((e) => e.line === l.line);
      const taken = stops.reduce((n, e) => n + e.take, 0);
      const short = stops.find((e) => e.short !== null)?.short ?? plan.missing.find((m) => m.line === l.line)?.short;
      expect(taken + (short?.missing ?? 0), `line ${l.line}`).toBe(l.quantity);
    }
  });
});

describe('picking progress (issue 65 §2)', () => {
  const a = brick('3001');
  const b = brick('3002');
  const plan = planPick(
    [placed(a, 10, 'N', 1), placed(b, 3, 'N', 2)],
    [lot(a, 4, 'A1', 'N', 601), lot(a, 20, 'A2', 'N', 602), lot(b, 3, 'B1', 'N', 603)],
  );

  it('counts lots and pieces from marks: "2 of 3 lots, 7 of 13 pieces"', () => {
    const p = pickProgress(plan.entries, [
      { key: '1:L4207', picked: 4 },
      { key: '2:L4221', picked: 3 },
    ]);
    expect(p).toEqual({ lots: 3, lotsDone: 2, pieces: 13, piecesDone: 7 });
    expect(pickProgressText(p)).toBe('2 of 3 lots, 7 of 13 pieces');
    expect(pickProgressText(pickProgress(plan.entries, []))).toBe('0 of 3 lots, 0 of 13 pieces');
  });

  it('counts a part of a lot as pieces, and the lot once all its pieces are picked', () => {
    expect(pickProgress(plan.entries, [{ key: '1:L4214', picked: 5 }])).toEqual({
      lots: 3,
      lotsDone: 0,
      pieces: 13,
      piecesDone: 5,
    });
    expect(pickProgress(plan.entries, [{ key: '1:L4214', picked: 6 }])).toEqual({
      lots: 3,
      lotsDone: 1,
      pieces: 13,
      piecesDone: 6,
    });
  });

  it('never counts a mark for more than its entry asks, twice, or for an entry the list does not hold', () => {
    const p = pickProgress(plan.entries, [
      { key: '1:L4207', picked: 40 },
      // Two desks marked the same lot: the same pieces, counted once.
      { key: '2:L4221', picked: 2 },
      { key: '2:L4221', picked: 3 },
      { key: '2:L4221', picked: 1 },
      { key: '9:999', picked: 5 },
      { key: '1:L4214', picked: -4 },
    ]);
    expect(p).toEqual({ lots: 3, lotsDone: 2, pieces: 13, piecesDone: 7 });
    expect(pickProgressText({ lots: 1, lotsDone: 1, pieces: 1, piecesDone: 1 })).toBe('1 of 1 lot, 1 of 1 piece');
  });
});
