import { create } from 'zustand';
import type { ApiEvents, ArgsOf, CompareRowView, CompareView } from '../../src/api/contract.ts';
import type { CompareExport, CompareGroup } from '../../src/vocabulary/compare-kinds.ts';
import type { ExportAcknowledgement } from '../../src/vocabulary/export-kinds.ts';
import { attempt, useApp } from './app.ts';
import { call, messageOf } from './call.ts';
import { deliver, useExports } from './exports.ts';

type SideArg = ArgsOf<'compare.run'>['left'];

/** A side as staff chose it: what the core is asked for, and how the screen names it. */
export interface SideChoice {
  readonly arg: SideArg;
  readonly label: string;
  /** The order the side's lines are in, where they are saved (a file's are not): a row jumps there. */
  readonly orderId: number | null;
}

/** Rows the screen asks at first per group, and then per page (SPEC §13: the first groups show at once). */
export const COMPARE_PAGE = 200;

interface CompareState {
  left: SideChoice | null;
  right: SideChoice | null;
  prices: boolean;
  /** Whether the result on screen was asked with prices (its price columns). */
  withPrices: boolean;
  /** Only the groups that differ (the lines that agree are hidden). */
  differencesOnly: boolean;
  running: boolean;
  progress: ApiEvents['compare.progress'] | null;
  view: CompareView | null;
  /** Each group's rows so far: the first page with the answer, the rest as staff reach them. */
  rows: Record<CompareGroup, CompareRowView[]>;
  /** The row selected, by group and index, for the keyboard. */
  selected: { group: CompareGroup; index: number } | null;
  choose(side: 'left' | 'right', choice: SideChoice | null): void;
  setPrices(on: boolean): void;
  setDifferencesOnly(on: boolean): void;
  run(): Promise<void>;
  more(group: CompareGroup): Promise<void>;
  select(group: CompareGroup, index: number): void;
  /**
   * Exports the difference. An item export whose target does not number some lots asks first
   * (`pendingExport`); `accept` is the acknowledgement staff gave for it.
   */
  exportAs(as: CompareExport, accept?: readonly ExportAcknowledgement[]): Promise<void>;
  /** An export waiting for staff to acknowledge the lots it would leave out: its refusal, in words. */
  pendingExport: { as: CompareExport; code: ExportAcknowledgement; message: string } | null;
  cancelExport(): void;
  onProgress(p: ApiEvents['compare.progress']): void;
  /** From an order's screen ("Compare with…"): that order on the left, the other side to choose. */
  startFrom(order: { id: number; reference: string }): void;
  /** The side whose picker takes the focus when the screen shows (the next thing to do: issue 47). */
  focusSide: 'left' | 'right' | null;
  focused(): void;
}

const NO_ROWS = (): Record<CompareGroup, CompareRowView[]> => ({
  onlyLeft: [],
  onlyRight: [],
  quantityDiffers: [],
  priceDiffers: [],
  unplaced: [],
  same: [],
});

export const useCompare = create<CompareState>((set, get) => ({
  left: null,
  right: null,
  prices: false,
  withPrices: false,
  differencesOnly: true,
  running: false,
  progress: null,
  view: null,
  rows: NO_ROWS(),
  selected: null,
  pendingExport: null,
  // A new side makes the shown result stale: it goes, rather than stand beside sides it is not of.
  choose: (side, choice) => set({ [side]: choice, view: null, rows: NO_ROWS(), selected: null }),
  setPrices: (on) => set({ prices: on }),
  setDifferencesOnly(on) {
    set({ differencesOnly: on, selected: null });
    if (!on) void get().more('same');
  },
  async run() {
    const { left, right, prices, differencesOnly } = get();
    if (left === null || right === null) return;
    useApp.getState().clearNotice();
    set({ running: true, progress: null, view: null, rows: NO_ROWS(), selected: null });
    const view = await attempt(() =>
      call('compare.run', {
        left: left.arg,
        right: right.arg,
        first: COMPARE_PAGE,
        // The lines that agree are hidden while "Differences only" is ticked: their rows come when shown.
        ...(differencesOnly ? { sameFirst: 0 } : {}),
        ...(prices ? { prices } : {}),
      }),
    );
    set({ running: false, progress: null });
    // Sides changed meanwhile: this answer is not of them.
    if (view === null || get().left !== left || get().right !== right) return;
    set({
      view,
      withPrices: prices,
      rows: {
        onlyLeft: [...view.onlyLeft],
        onlyRight: [...view.onlyRight],
        quantityDiffers: [...view.quantityDiffers],
        priceDiffers: [...view.priceDiffers],
        unplaced: [...view.unplaced],
        same: [...view.same],
      },
    });
  },
  async more(group) {
    const { view, rows } = get();
    if (view === null || rows[group].length >= view.counts[group]) return;
    const from = rows[group].length;
    const page = await attempt(() =>
      call('compare.rows', { compareId: view.compareId, group, from, count: COMPARE_PAGE }),
    );
    if (page === null || get().view !== view || get().rows[group].length !== from) return;
    set((s) => ({ rows: { ...s.rows, [group]: [...s.rows[group], ...page] } }));
  },
  select: (group, index) => set({ selected: { group, index } }),
  async exportAs(as, accept = []) {
    const view = get().view;
    if (view === null) return;
    let file;
    try {
      file = await call('compare.export', { compareId: view.compareId, as, accept: [...accept] });
    } catch (e) {
      const error = messageOf(e);
      const code = as === 'rebrickable' ? 'no-rebrickable-number' : 'no-bricklink-number';
      if (error.code === 'needs-acknowledgement' && !accept.includes(code))
        set({ pendingExport: { as, code, message: error.message } });
      else useApp.getState().fail(e);
      return;
    }
    set({ pendingExport: null });
    useExports.setState({ last: file });
    deliver(file);
  },
  cancelExport: () => set({ pendingExport: null }),
  onProgress: (p) => set((s) => (s.running ? { progress: p } : {})),
  startFrom(order) {
    get().choose('left', {
      arg: { kind: 'order', orderId: order.id },
      label: `order ${order.reference}`,
      orderId: order.id,
    });
    set({ focusSide: 'right' });
    useApp.getState().go('compare');
  },
  focusSide: null,
  focused: () => set({ focusSide: null }),
}));
