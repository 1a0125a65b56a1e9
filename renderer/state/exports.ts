import { create } from 'zustand';
import type { ExportFileView } from '../../src/api/contract.ts';
import { attempt, useApp } from './app.ts';
import { call } from './call.ts';

/** Where the app saved an export, or (in the browser host) a download of it. */
export function deliver(file: ExportFileView): void {
  if (file.savedTo !== null) {
    useApp.getState().say(`Saved ${file.savedTo}`);
    return;
  }
  const url = URL.createObjectURL(
    new Blob([file.content], { type: file.name.endsWith('.csv') ? 'text/csv' : 'application/xml' }),
  );
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  useApp.getState().say(`Exported ${file.name}`);
}

interface ExportState {
  last: ExportFileView | null;
  summary(): Promise<void>;
  bricklink(orderId: number): Promise<void>;
}

export const useExports = create<ExportState>((set) => ({
  last: null,
  async summary() {
    const file = await attempt(() => call('export.summary', {}));
    if (file === null) return;
    set({ last: file });
    deliver(file);
  },
  async bricklink(orderId) {
    const file = await attempt(() => call('export.bricklink', { orderId }));
    if (file === null) return;
    set({ last: file });
    deliver(file);
  },
}));
