import { create } from 'zustand';
import type { ExportFileView, ExportPreviewView, OrderView } from '../../src/api/contract.ts';
import type { ExportTarget } from '../../src/vocabulary/export-kinds.ts';
import { attempt, useApp } from './app.ts';
import { call } from './call.ts';

/** Where the app saved an export, or (in the browser host) a download of it; what it left out said beside. */
export function deliver(file: ExportFileView): void {
  const leftOut = file.note === undefined ? '' : ` ${file.note}`;
  if (file.savedTo !== null) {
    useApp.getState().say(`Saved ${file.savedTo}.${leftOut}`);
    return;
  }
  download(file);
  useApp.getState().say(`Exported ${file.name}.${leftOut}`);
}

/** The page's download of a file the core made (the browser host: no save dialog there). */
export function download(file: { readonly name: string; readonly content: string }): void {
  const url = URL.createObjectURL(
    new Blob([file.content], { type: file.name.endsWith('.csv') ? 'text/csv' : 'application/xml' }),
  );
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const TARGET_NAMES: Readonly<Record<ExportTarget, string>> = {
  bricklink: 'BrickLink XML',
  rebrickable: 'Rebrickable CSV',
};

/** An order's export waiting for staff: lines its target does not number, which it would leave out; or nothing it would write. */
export interface ExportReview {
  readonly orderId: number;
  readonly preview: ExportPreviewView;
}

interface ExportState {
  last: ExportFileView | null;
  /**
   * The orders this screen offers: every order, its own list — never the Orders screen's search, which
   * would narrow it behind the worker's back (issue 64 §2).
   */
  orders: readonly OrderView[];
  loadOrders(): Promise<void>;
  /** The order the Export screen exports. */
  orderId: number | null;
  /** Unplaced lines go as their document gave them, where it speaks the target's numbering (SPEC §8). */
  includeUnplaced: boolean;
  review: ExportReview | null;
  choose(orderId: number | null): void;
  setIncludeUnplaced(include: boolean): void;
  summary(): Promise<void>;
  /**
   * Exports an order to `target`. When lines have no number there, nothing is written yet: the review
   * lists them (the Export screen shows it) until staff export without them, or cancel. Returns whether
   * it waits for that review.
   */
  order(orderId: number, target: ExportTarget): Promise<'exported' | 'review' | 'failed'>;
  /** The review's export, leaving out what it lists. */
  confirm(): Promise<void>;
  cancel(): void;
}

export const useExports = create<ExportState>((set, get) => ({
  last: null,
  orders: [],
  async loadOrders() {
    const orders = await attempt(() => call('orders.list', { query: '' }));
    if (orders !== null) set({ orders });
  },
  orderId: null,
  includeUnplaced: false,
  review: null,
  choose(orderId) {
    set({ orderId, review: null });
  },
  setIncludeUnplaced(includeUnplaced) {
    set({ includeUnplaced, review: null });
  },
  async summary() {
    const file = await attempt(() => call('export.summary', {}));
    if (file === null) return;
    set({ last: file });
    deliver(file);
  },
  async order(orderId, target) {
    const includeUnplaced = get().includeUnplaced;
    const preview = await attempt(() => call('export.preview', { orderId, to: target, includeUnplaced }));
    if (preview === null) return 'failed';
    // Lines it can't name wait for staff; an export that would write nothing is said, not written (issue 64 §4).
    if (preview.needs !== null || preview.rows === 0) {
      set({ orderId, review: { orderId, preview } });
      return 'review';
    }
    const file = await attempt(() => call(exportCall(target), { orderId, includeUnplaced }));
    if (file === null) return 'failed';
    set({ last: file, orderId, review: null });
    deliver(file);
    return 'exported';
  },
  async confirm() {
    const review = get().review;
    if (review === null) return;
    const { orderId, preview } = review;
    const file = await attempt(() =>
      call(exportCall(preview.target), {
        orderId,
        includeUnplaced: get().includeUnplaced,
        accept: preview.needs === null ? [] : [preview.needs],
      }),
    );
    if (file === null) return;
    set({ last: file, review: null });
    deliver(file);
  },
  cancel() {
    set({ review: null });
  },
}));

function exportCall(target: ExportTarget): 'export.bricklink' | 'export.rebrickable' {
  return target === 'bricklink' ? 'export.bricklink' : 'export.rebrickable';
}
