import { create } from 'zustand';
import type { ApiEvents, FileArg, ImportPreviewView, ImportResultView, JobOrderLines } from '../../src/api/contract.ts';
import type { ColourNumbering, WarningCode } from '../../src/vocabulary/reading.ts';
import { plural } from '../format.ts';
import { attempt, useApp } from './app.ts';
import { call, fileArg, messageOf } from './call.ts';

interface ImportState {
  file: FileArg | null;
  orderId: number | null;
  asNew: boolean;
  /** The preview's warnings staff ticked: sent with the import, which is refused while one is left (SPEC §8). */
  acknowledged: readonly WarningCode[];
  /** Staff's choice of the numbering of the list's colour numbers; null: the reader's. */
  colourNumbering: ColourNumbering | null;
  preview: ImportPreviewView | null;
  busy: boolean;
  /** How far the preview or import under way has come (reading, placing, writing); null before it says. */
  progress: ApiEvents['import.progress'] | null;
  results: ImportResultView[] | null;
  /** What is under way, and which preview is the newest: an older one's answer is not shown. */
  running: 'preview' | 'confirm' | null;
  previewTicket: number;
  choose(file: File): Promise<void>;
  pick(): Promise<boolean>;
  /**
   * A document opened from outside (Finder, a file association, a drop anywhere on the window): shown in
   * the preview, as a chosen one is. Refused in words while an import is being written.
   */
  open(file: FileArg): Promise<boolean>;
  setTarget(orderId: number | null): Promise<void>;
  setAsNew(asNew: boolean): Promise<void>;
  acknowledge(code: WarningCode, seen: boolean): void;
  setColourNumbering(numbering: ColourNumbering | null): Promise<void>;
  refresh(): Promise<void>;
  confirm(): Promise<ImportResultView[] | null>;
  /** Stops the preview or import under way, before it writes. */
  cancel(): Promise<void>;
  /** An `import.progress` event. */
  onProgress(p: ApiEvents['import.progress']): void;
  reset(): void;
}

export const useImport = create<ImportState>((set, get) => ({
  file: null,
  orderId: null,
  asNew: false,
  acknowledged: [],
  colourNumbering: null,
  preview: null,
  busy: false,
  progress: null,
  results: null,
  running: null,
  previewTicket: 0,
  async choose(file) {
    set({ file: await fileArg(file), ...FRESH });
    await get().refresh();
  },
  async pick() {
    const file = await attempt(() => call('file.pick', { purpose: 'document' }));
    if (file === null) return false;
    return get().open(file);
  },
  async open(file) {
    if (get().running === 'confirm') {
      useApp.getState().say(`${file.name} was not opened: an import is being written. Open it again once it is done.`);
      return false;
    }
    set({ file, ...FRESH });
    await get().refresh();
    return true;
  },
  async setTarget(orderId) {
    set({ orderId });
    await get().refresh();
  },
  async setAsNew(asNew) {
    set({ asNew });
    await get().refresh();
  },
  acknowledge(code, seen) {
    const others = get().acknowledged.filter((c) => c !== code);
    set({ acknowledged: seen ? [...others, code] : others });
  },
  async setColourNumbering(colourNumbering) {
    set({ colourNumbering });
    await get().refresh();
  },
  async refresh() {
    const { file, orderId, asNew, colourNumbering } = get();
    if (file === null) return;
    // A new preview (another file, another target) replaces one still under way.
    if (get().running === 'preview') await call('import.cancel', {}).catch(() => undefined);
    const ticket = get().previewTicket + 1;
    set({ running: 'preview', previewTicket: ticket, busy: true, progress: null });
    const newest = () => get().previewTicket === ticket;
    try {
      const preview = await call('import.preview', { file, orderId, asNew, colourNumbering });
      if (newest()) set({ preview });
    } catch (e) {
      if (!newest()) return;
      const error = messageOf(e);
      if (error.code === 'cancelled') {
        set({ file: null, preview: null });
        useApp.getState().say(error.message);
      } else set({ preview: { previewId: '', fileName: file.name, documents: [], refusal: error } });
    } finally {
      if (newest()) set({ running: null, busy: false, progress: null });
    }
  },
  async confirm() {
    const { file, orderId, asNew, acknowledged, colourNumbering } = get();
    if (file === null) return null;
    set({ running: 'confirm', busy: true, progress: null });
    try {
      const results = [
        ...(await call('import.confirm', { file, orderId, asNew, acknowledge: acknowledged, colourNumbering })),
      ];
      set({ results, preview: null, file: null });
      // Finished while the worker is elsewhere: told, with a way to each order, and nothing else moves.
      const elsewhere = useApp.getState().screen !== 'import';
      const said = importedNotice(results, file.name, elsewhere);
      useApp.getState().say(said.text, said.orders);
      return results;
    } catch (e) {
      // Cancelled before it wrote: the preview still stands.
      if (messageOf(e).code === 'cancelled') useApp.getState().say(messageOf(e).message);
      else {
        useApp.getState().fail(e);
        set({ running: null });
        await get().refresh();
      }
      return null;
    } finally {
      set((st) => ({ busy: false, progress: null, running: st.running === 'confirm' ? null : st.running }));
    }
  },
  async cancel() {
    if (get().running === null) return;
    await attempt(() => call('import.cancel', {}));
  },
  onProgress(p) {
    if (get().running === p.step) set({ progress: p });
  },
  reset: () => set({ file: null, preview: null, ...FRESH }),
}));

/** What a new file starts from: no target chosen, nothing acknowledged, the reader's numbering. */
const FRESH = { results: null, orderId: null, asNew: false, acknowledged: [], colourNumbering: null } as const;

/**
 * Whether the preview lets the import go ahead once staff ticked `acknowledged`: nothing refuses it but
 * warnings, and every warning is ticked.
 */
export function importBlocked(preview: ImportPreviewView | null, acknowledged: readonly WarningCode[]): boolean {
  if (preview === null || preview.documents.length === 0) return true;
  if (preview.refusal === null) return false;
  if (preview.refusal.code !== 'needs-acknowledgement') return true;
  return preview.documents.some((d) => d.warnings.some((w) => !acknowledged.includes(w.code)));
}

/**
 * What an import says when it is done: a sentence a document for a few; for a file of many orders (a
 * year of BrickLink orders), one line with their totals and the orders to open, never a sentence each.
 */
export function importedNotice(
  results: readonly ImportResultView[],
  fileName: string,
  /** The worker is elsewhere now: each order gets its link (the screen does not open it). */
  links = false,
): { text: string; orders?: JobOrderLines[] } {
  const orders = results.map((r) => ({
    orderId: r.order.id,
    reference: r.order.reference,
    placed: r.lines.placed,
    unplaced: r.lines.unplaced,
  }));
  if (results.length <= 3)
    return {
      text: results
        .map(
          (r) =>
            `${r.revived ? 'Revived' : 'Imported'} ${r.document.key}: ${plural(r.lines.total, 'line')}, ${r.lines.unplaced.toLocaleString()} unplaced.`,
        )
        .join(' '),
      ...(links ? { orders } : {}),
    };
  const lines = results.reduce((n, r) => n + r.lines.total, 0);
  const unplaced = results.reduce((n, r) => n + r.lines.unplaced, 0);
  const revived = results.filter((r) => r.revived).length;
  return {
    text:
      `Imported ${plural(results.length, 'document')} from ${fileName}${revived > 0 ? ` (${revived} revived)` : ''}: ` +
      `${plural(lines, 'line')}, ${unplaced.toLocaleString()} unplaced.`,
    orders,
  };
}
