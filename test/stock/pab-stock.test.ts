/**
 * Issue 65 §1 on real data: the Pick a Brick inventory (1,532 lots) as the shop's stock, its bins made by
 * the test (a CSV of its lots with a Location column, as a shop keeps one), read with --location-from.
 * Every lot accounted for: placed with its location, or unplaced with its reason; printed with the results.
 * With ../shared/data absent, it says so and proves nothing here (import.test.ts makes its own stock).
 */
import { describe, expect, it } from 'vitest';
import { stockLotsOf } from '../../src/store/stock.ts';
import { needs } from '../helpers/needs.ts';
import { binOf, pabPresent, pabStore } from '../helpers/pab-stock.ts';
import { ok } from '../helpers/service.ts';

describe.runIf(
  needs(
    pabPresent(),
    '../shared/data (the PAB inventory and the Rebrickable tables)',
    'the PAB inventory as the stock',
  ),
)('the PAB inventory as the stock (issue 65 §1, real data)', () => {
  it('every lot is in the stock with the bin the test gave it, placed or unplaced with its reason', async () => {
    const { store, service, lots, stockFile } = await pabStore();
    expect(lots).toHaveLength(1_532);
    const preview = await ok(service.call('stock.preview', { file: stockFile, locationFrom: 'Location' }));
    expect(preview.refusal).toBeNull();
    const done = await ok(service.call('stock.import', { file: stockFile, locationFrom: 'Location' }));
    const stock = done.stock;
    const unplaced = await ok(service.call('lines.list', { orderId: stock.orderId, unplacedOnly: true }));
    const reasons = new Map<string, number>();
    for (const l of unplaced)
      reasons.set(l.reason?.code ?? '(none)', (reasons.get(l.reason?.code ?? '(none)') ?? 0) + 1);
    console.log(
      `PAB as the stock: ${stock.lots} lots, ${stock.pieces} pieces, ${stock.unplaced} unplaced ` +
        `(${[...reasons].map(([code, n]) => `${code} ${n}`).join(', ')}); ${stock.locations} locations, ` +
        `${stock.lotsWithoutLocation} lots without one. First unplaced: ` +
        unplaced
          .slice(0, 5)
          .map((l) => `${l.given.no}/${l.given.colourId}: ${l.reason?.text}`)
          .join('; '),
    );
    expect(stock).toMatchObject({ lots: 1_532, lotsWithoutLocation: 0, locations: 320 });
    expect(stock.pieces).toBe(lots.reduce((n, l) => n + l.quantity, 0));
    // Every lot accounted for: the unplaced ones listed, each with its reason; the others placed.
    expect(unplaced).toHaveLength(stock.unplaced);
    expect(unplaced.every((l) => l.reason !== null)).toBe(true);
    expect(stock.unplaced).toBeLessThan(stock.lots / 4);

    // A placed lot is found by its item and colour, in the bin it was given.
    const all = await ok(service.call('lines.list', { orderId: stock.orderId }));
    const first = all.find((l) => l.placed !== null && l.placed.colour !== null);
    if (first?.placed == null) throw new Error('no placed lot');
    const found = stockLotsOf(store.db, {
      itemType: first.placed.type,
      itemNo: first.placed.no,
      colourId: first.placed.colour,
    });
    expect(found.map((l) => l.lineId)).toContain(first.id);
    expect(found.find((l) => l.lineId === first.id)?.location).toBe(binOf(first.position - 1));
  }, 300_000);
});
