import { describe, expect, it, vi } from 'vitest';
import type { ImportResultView } from '../src/api/contract.ts';

vi.mock('../renderer/state/call.ts', () => ({ call: () => Promise.resolve(null), fileArg() {}, messageOf() {} }));
vi.mock('../renderer/state/app.ts', () => ({ attempt: (fn: () => Promise<unknown>) => fn(), useApp: {} }));
// Named by a variable: the screens' module is type-checked with the screens (tsconfig.web.json), not here.
const STORE = '../renderer/state/import.ts';
const { importedNotice } = (await import(STORE)) as {
  importedNotice(
    results: readonly ImportResultView[],
    fileName: string,
  ): { text: string; orders?: { orderId: number; reference: string; placed: number; unplaced: number }[] };
};

function result(i: number, unplaced: number): ImportResultView {
  return {
    document: { id: i, key: `bricklink-order:${1000 + i}`, state: 'imported' },
    order: { id: i, reference: String(1000 + i), currency: 'USD' },
    lines: { total: 10, placed: 10 - unplaced, unplaced },
    revived: false,
  } as unknown as ImportResultView;
}

describe('what an import says when it is done (issue 43, point 7)', () => {
  it('a few documents: a sentence each', () => {
    const said = importedNotice([result(1, 0), result(2, 3)], 'orders.xml');
    expect(said.text).toBe(
      'Imported bricklink-order:1001: 10 lines, 0 unplaced. Imported bricklink-order:1002: 10 lines, 3 unplaced.',
    );
    expect(said.orders).toBeUndefined();
  });

  it('a file of 58 orders: one line with their totals, and the 58 orders to open', () => {
    const results = Array.from({ length: 58 }, (_, i) => result(i + 1, i % 2));
    const said = importedNotice(results, 'orders.xml');
    expect(said.text).toBe('Imported 58 documents from orders.xml: 580 lines, 29 unplaced.');
    expect(said.orders).toHaveLength(58);
    expect(said.orders?.[1]).toEqual({ orderId: 2, reference: '1002', placed: 9, unplaced: 1 });
  });
});
