import { describe, expect, it, vi } from 'vitest';

// The Compare screen's store, with the core's answer held back: what staff do meanwhile.
let answer: (v: unknown) => void = () => {};
vi.mock('../renderer/state/call.ts', () => ({
  call: () => new Promise((resolve) => (answer = resolve)),
}));
vi.mock('../renderer/state/app.ts', () => ({
  attempt: (fn: () => Promise<unknown>) => fn(),
  useApp: { getState: () => ({ clearNotice() {}, go() {}, say() {} }) },
}));
vi.mock('../renderer/state/exports.ts', () => ({ deliver() {}, useExports: { setState() {} } }));

// Imported by name at run time: the store is web code (DOM types), outside the Node type-check.
const STORE = '../renderer/state/compare.ts';
type SideChoice = { arg: unknown; label: string; orderId: number | null };
const { useCompare } = (await import(STORE)) as {
  useCompare: {
    getState(): {
      running: boolean;
      view: unknown;
      choose(side: 'left' | 'right', c: SideChoice): void;
      run(): Promise<void>;
    };
  };
};

describe('the Compare screen’s store', () => {
  it('a side changed while a compare runs: its answer is not shown, and Compare can be pressed again', async () => {
    const s = useCompare.getState();
    s.choose('left', { arg: { kind: 'order', orderId: 1 }, label: 'order A', orderId: 1 });
    s.choose('right', { arg: { kind: 'order', orderId: 2 }, label: 'order B', orderId: 2 });
    const running = s.run();
    expect(useCompare.getState().running).toBe(true);
    s.choose('right', { arg: { kind: 'order', orderId: 3 }, label: 'order C', orderId: 3 });
    answer({
      compareId: 'x',
      counts: {},
      onlyLeft: [],
      onlyRight: [],
      quantityDiffers: [],
      priceDiffers: [],
      unplaced: [],
      same: [],
    });
    await running;
    expect(useCompare.getState().view).toBeNull();
    expect(useCompare.getState().running).toBe(false);
  });
});
