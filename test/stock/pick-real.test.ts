/**
 * Issue 65 §2 on real data: Market Street (10190-1) picked from the Pick a Brick inventory as the stock,
 * its bins made by the test as pab-stock.test.ts makes them. Every line of the order accounted for — a
 * stop of the walk, missing, of 0 pieces, or unplaced — and each placed line's takes and shortfall adding
 * up to what it asks; the walk and what is missing printed with the results. Without ../shared/data, it
 * says so and proves nothing here (pick.test.ts makes its own stock and order).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareLocations } from '../../src/stock/natural-order.ts';
import { file } from '../helpers/documents.ts';
import { needs } from '../helpers/needs.ts';
import { pabPresent, pabStore } from '../helpers/pab-stock.ts';
import { ok } from '../helpers/service.ts';
import { sharedFile } from '../helpers/shared-data.ts';

const market = sharedFile('brickstore-bsx', 'Inventory for 10190-1 Market Street.bsx');

describe.runIf(
  needs(
    pabPresent(market),
    '../shared/data (the PAB inventory, Market Street and the Rebrickable tables)',
    'Market Street picked from the PAB stock',
  ),
)('Market Street picked from the PAB inventory (issue 65 §2, real data)', () => {
  it('every line of the order is accounted for, and each placed line’s takes and shortfall add up to it', async () => {
    const { service, stockFile } = await pabStore();
    await ok(service.call('stock.import', { file: stockFile, locationFrom: 'Location' }));
    const [imported] = await ok(
      service.call('import.confirm', { file: file(path.basename(market ?? ''), fs.readFileSync(market ?? '')) }),
    );
    const orderId = imported?.order.id ?? 0;
    const lines = await ok(service.call('lines.list', { orderId }));

    const pick = await ok(service.call('pick.list', { orderId }));
    const ids = [
      ...new Set(pick.entries.map((e) => e.line)),
      ...pick.missing.map((m) => m.line),
      ...pick.nothingAsked.map((n) => n.line),
      ...pick.unplaced.map((u) => u.line),
    ];
    // Each line once, in exactly one of the four, and every line of the order there.
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort((a, b) => a - b)).toEqual(lines.map((l) => l.id).sort((a, b) => a - b));
    for (const l of lines) {
      const stops = pick.entries.filter((e) => e.line === l.id);
      if (stops.length === 0) continue;
      const short = stops.find((e) => e.short !== null)?.short?.missing ?? 0;
      expect(stops.reduce((n, e) => n + e.take, 0) + short, `line ${l.id}`).toBe(l.quantity);
    }
    // Walking order: the bins never go back (natural order).
    const bins = pick.entries.map((e) => e.location);
    expect(bins).toEqual([...bins].sort(compareLocations));

    const kinds = new Map<string, number>();
    for (const m of pick.missing) kinds.set(m.short.kind, (kinds.get(m.short.kind) ?? 0) + 1);
    const shortStops = pick.entries.filter((e) => e.short !== null).length;
    console.log(
      `Market Street from the PAB stock: ${lines.length} lines; the walk ${pick.progress.lots} stops, ` +
        `${pick.progress.pieces} pieces over ${new Set(bins).size} bins (${shortStops} short); missing ${pick.missing.length} ` +
        `(${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}); nothing asked ${pick.nothingAsked.length}; ` +
        `unplaced ${pick.unplaced.length}.\nFirst stops:\n` +
        pick.entries
          .slice(0, 8)
          .map(
            (e) =>
              `  ${e.location}: take ${e.take} × ${e.item.shown} ${e.item.name} (${e.item.colour?.name})${e.short ? ` — ${e.short.text}` : ''}`,
          )
          .join('\n') +
        `\nFirst missing:\n${pick.missing
          .slice(0, 5)
          .map((m) => `  ${m.where}: ${m.what} × ${m.quantity} — ${m.short.text}`)
          .join('\n')}`,
    );
    expect(pick.entries.length).toBeGreaterThan(0);

    const printed = await ok(
      service.call('pick.printable', { orderId, paper: 'a4', orientation: 'portrait', pictures: false }),
    );
    expect(printed.html.match(/<td class="tick">/g)?.length).toBe(pick.entries.length);
    expect(printed.html).toContain(`<title>Pick list: order ${pick.order.reference}</title>`);
  }, 300_000);
});
