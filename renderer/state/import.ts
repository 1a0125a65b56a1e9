import { create } from 'zustand';
import type { FileArg, ImportPreviewView, ImportResultView } from '../../src/api/contract.ts';
import { useApp } from './app.ts';
import { call, fileArg, messageOf } from './call.ts';

interface ImportState {
  file: FileArg | null;
  orderId: number | null;
  asNew: boolean;
  preview: ImportPreviewView | null;
  busy: boolean;
  results: ImportResultView[] | null;
  choose(file: File): Promise<void>;
  pick(): Promise<boolean>;
  setTarget(orderId: number | null): Promise<void>;
  setAsNew(asNew: boolean): Promise<void>;
  refresh(): Promise<void>;
  confirm(): Promise<ImportResultView[] | null>;
  reset(): void;
}

export const useImport = create<ImportState>((set, get) => ({
  file: null,
  orderId: null,
  asNew: false,
  preview: null,
  busy: false,
  results: null,
  async choose(file) {
    set({ file: await fileArg(file), results: null, orderId: null, asNew: false });
    await get().refresh();
  },
  async pick() {
    try {
      const file = await call('file.pick', { purpose: 'document' });
      if (file === null) return false;
      set({ file, results: null, orderId: null, asNew: false });
      await get().refresh();
      return true;
    } catch (e) {
      useApp.getState().fail(e);
      return false;
    }
  },
  async setTarget(orderId) {
    set({ orderId });
    await get().refresh();
  },
  async setAsNew(asNew) {
    set({ asNew });
    await get().refresh();
  },
  async refresh() {
    const { file, orderId, asNew } = get();
    if (file === null) return;
    set({ busy: true });
    try {
      set({ preview: await call('import.preview', { file, orderId, asNew }) });
    } catch (e) {
      const error = messageOf(e);
      set({ preview: { fileName: file.name, documents: [], refusal: error } });
    } finally {
      set({ busy: false });
    }
  },
  async confirm() {
    const { file, orderId, asNew } = get();
    if (file === null) return null;
    set({ busy: true });
    try {
      const results = [...(await call('import.confirm', { file, orderId, asNew }))];
      set({ results, preview: null, file: null });
      useApp.getState().say(results.map((r) => `${r.revived ? 'Revived' : 'Imported'} ${r.document.key}: ${r.lines.total} lines, ${r.lines.unplaced} unplaced.`).join(' '));
      return results;
    } catch (e) {
      useApp.getState().fail(e);
      await get().refresh();
      return null;
    } finally {
      set({ busy: false });
    }
  },
  reset: () => set({ file: null, preview: null, results: null, orderId: null, asNew: false }),
}));
