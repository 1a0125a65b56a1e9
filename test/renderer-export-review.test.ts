import { describe, expect, it, vi } from 'vitest';

// The export's calls as the Export screen makes them: a preview that would write nothing, then nothing else.
const calls: string[] = [];
vi.mock('../renderer/state/call.ts', () => ({
  call: (name: string) => {
    calls.push(name);
    return Promise.resolve(
      name === 'export.preview'
        ? {
            target: 'bricklink',
            rows: 0,
            leftOut: [
              { line: 1, where: 'a.bsx #1', what: 'P 3001', quantity: 0, reason: 'no-quantity', text: '0 pieces' },
            ],
            shared: [],
            needs: null,
          }
        : null,
    );
  },
  fileArg() {},
  messageOf() {},
}));
vi.mock('../renderer/state/app.ts', () => ({ attempt: (fn: () => Promise<unknown>) => fn(), useApp: {} }));
// Named by a variable: the screens' modules are type-checked with the screens (tsconfig.web.json), not here.
const STATE = '../renderer/state/exports.ts';
const REVIEW = '../renderer/screens/export/ExportReview.tsx';
const { useExports } = (await import(STATE)) as {
  useExports: { getState(): { order(id: number, t: string): Promise<string>; review: unknown } };
};
const { placeOf } = (await import(REVIEW)) as { placeOf(where: string): { document: string | null; at: string } };

describe('the export review (issue 64 §4)', () => {
  it('an export that would write nothing is said, not written', async () => {
    expect(await useExports.getState().order(1, 'bricklink')).toBe('review');
    expect(calls).toEqual(['export.preview']);
    expect(useExports.getState().review).toMatchObject({ orderId: 1, preview: { rows: 0 } });
  });

  it('a left-out line is named by its place in its document, the document once above', () => {
    expect(placeOf('Inventory for 10190-1 Market Street.bsx #37')).toEqual({
      document: 'Inventory for 10190-1 Market Street.bsx',
      at: '#37',
    });
    // A model's key holds a # of its own.
    expect(placeOf('house.ldr#0a1b2c3d4e5f #2')).toEqual({ document: 'house.ldr#0a1b2c3d4e5f', at: '#2' });
    expect(placeOf('left')).toEqual({ document: null, at: 'left' });
  });
});
