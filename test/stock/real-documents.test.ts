import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDocumentFile } from '../../src/documents/read-document.ts';
import type { ParsedLine } from '../../src/documents/model.ts';
import { compareLocations } from '../../src/stock/natural-order.ts';
import { pickProgress, pickProgressText, planPick } from '../../src/stock/pick-plan.ts';
import { planPutAway } from '../../src/stock/put-away-plan.ts';
import type { OrderLine, StockLot } from '../../src/stock/types.ts';
import { needs } from '../helpers/needs.ts';
import { sharedFile } from '../helpers/shared-data.ts';

/**
 * The plans on the real BrickStore documents (issue 65, How it is proven), as pure plans: the PAB
 * inventory as the stock, with bins the test makes (`R3-17`), Market Street as an order going out and the
 * Tie Fighter as one coming in. Each line stands for the item its file names (BrickLink's number and
 * colour): placement against a catalogue is the store's part and is not what this proves. Every line is
 * accounted for in each list.
 */
const WHAT = 'the pick and put-away plans on the real BrickStore documents';
const pab = sharedFile('brickstore-bsx', 'PAB_inventory_US_July_22_2012.bsx');
const market = sharedFile('brickstore-bsx', 'Inventory for 10190-1 Market Street.bsx');
const tie = sharedFile('brickstore-bsx', 'Tie Fighter 9492-1.bsx');
const present = pab !== null && market !== null && tie !== null;

function read(file: string): readonly ParsedLine[] {
  const [doc] = readDocumentFile({ name: file, content: fs.readFileSync(file) });
  return doc?.lines ?? [];
}

/** A file's line as an order line, placed on what it names; a line that names no number is unplaced. */
function orderLine(l: ParsedLine, base: number): OrderLine {
  const common = {
    line: base + l.position,
    position: l.position,
    where: `#${l.position}`,
    what: `${l.given.type ?? 'P'} ${l.given.no ?? '?'}`,
    quantity: l.quantity,
    condition: l.condition,
  };
  return l.given.no === null
    ? { ...common, item: null, unplaced: { reason: 'no-number', text: 'The line gives no number' } }
    : { ...common, item: { type: l.given.type ?? 'P', no: l.given.no, colour: l.given.colourId }, unplaced: null };
}

/** Bins made by the test: twelve racks of forty drawers, a lot's drawer from its position; every 50th lot has none. */
function stockOf(lines: readonly ParsedLine[]): StockLot[] {
  return lines.flatMap((l) =>
    l.given.no === null
      ? []
      : [
          {
            lot: 100_000 + l.position,
            lotId: String(5_000_000 + l.position),
            item: { type: l.given.type ?? 'P', no: l.given.no, colour: l.given.colourId },
            condition: l.condition,
            quantity: l.quantity,
            location: l.position % 50 === 0 ? null : `R${(l.position % 12) + 1}-${(l.position * 7) % 40}`,
          },
        ],
  );
}

describe.runIf(needs(present, 'the real BrickStore documents in ../shared/data/brickstore-bsx', WHAT))(WHAT, () => {
  it('picks Market Street from the PAB stock in walking order, every line accounted for', () => {
    const stock = stockOf(read(pab!));
    const order = read(market!).map((l) => orderLine(l, 0));
    const plan = planPick(order, stock);
    const lines = new Set([
      ...plan.entries.map((e) => e.line),
      ...plan.missing.map((m) => m.line),
      ...plan.nothingAsked.map((n) => n.line),
      ...plan.unplaced.map((u) => u.line),
    ]);
    expect(lines.size).toBe(order.length);
    // The walk never goes back: each stop's bin is at or after the one before.
    const racks = plan.entries.map((e) => e.location);
    const located = racks.filter((r): r is string => r !== null);
    expect(racks.slice(0, located.length)).toEqual(located);
    located.forEach((at, i) => expect(compareLocations(located[i - 1] ?? at, at), at).toBeLessThanOrEqual(0));
    for (const l of order.filter((o) => o.item !== null && o.quantity > 0)) {
      const stops = plan.entries.filter((e) => e.line === l.line);
      const short = stops.find((e) => e.short !== null)?.short ?? plan.missing.find((m) => m.line === l.line)?.short;
      expect(stops.reduce((n, e) => n + e.take, 0) + (short?.missing ?? 0)).toBe(l.quantity);
    }
    const kinds = (k: string) =>
      plan.missing.filter((m) => m.short.kind === k).length + plan.entries.filter((e) => e.short?.kind === k).length;
    console.info(
      `Market Street from the PAB stock (${stock.length} lots): ${order.length} lines, ${plan.entries.length} stops ` +
        `(first ${located.slice(0, 3).join(', ')}; last located ${located.at(-1) ?? '-'}), ` +
        `${plan.missing.length} with nothing to take, short ${kinds('short')}, none ${kinds('none')}, ` +
        `only in the other condition ${kinds('other-condition')}, ${plan.nothingAsked.length} of 0 pieces, ` +
        `${plan.unplaced.length} unplaced; ${pickProgressText(pickProgress(plan.entries, []))} to pick`,
    );
  });

  it('puts the Tie Fighter away into the PAB stock, every line accounted for', () => {
    const stock = stockOf(read(pab!));
    const order = read(tie!).map((l) => orderLine(l, 0));
    const plan = planPutAway({ lines: order, lots: stock });
    expect(plan.entries.length + plan.nothingReceived.length + plan.unplaced.length).toBe(order.length);
    for (const e of plan.entries)
      if (e.kind === 'existing') expect(e.after - e.before).toBe(e.quantity);
      else expect(e.location === null, `line ${e.line}`).toBe(e.from === null);
    const by = (f: string | null) => plan.entries.filter((e) => e.kind === 'new' && e.from === f).length;
    console.info(
      `The Tie Fighter into the PAB stock: ${order.length} lines, ${plan.entries.filter((e) => e.kind === 'existing').length} into existing lots, ` +
        `${by('item')} new where the item's other lots are, ${by(null)} new with no location to suggest (no category given), ` +
        `${plan.nothingReceived.length} of 0 pieces, ${plan.unplaced.length} unplaced`,
    );
  });
});
