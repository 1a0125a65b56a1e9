import { create } from 'zustand';
import type { FileArg, StockInfoView, StockPreviewView } from '../../src/api/contract.ts';
import type { ColourNumbering, WarningCode } from '../../src/vocabulary/reading.ts';
import { plural } from '../format.ts';
import { attempt, useApp } from './app.ts';
import { call, fileArg, messageOf } from './call.ts';
import { importBlocked } from './import.ts';

/**
 * The shop's stock (SPEC §16) as the Catalogue & jobs screen shows it: what it holds, and a stock file's
 * preview and import — the import's own steps (preview first, warnings ticked, then Import, one undo step).
 */
interface StockState {
  /** The current stock; null: none; undefined: not read yet. */
  info: StockInfoView | null | undefined;
  file: FileArg | null;
  /** `remarks`, or the column staff named; null: the default (the lot's remarks). */
  locationFrom: string | null;
  acknowledged: readonly WarningCode[];
  colourNumbering: ColourNumbering | null;
  preview: StockPreviewView | null;
  busy: boolean;
  reload(): Promise<void>;
  choose(file: File): Promise<void>;
  setLocationFrom(locationFrom: string | null): Promise<void>;
  acknowledge(code: WarningCode, seen: boolean): void;
  setColourNumbering(numbering: ColourNumbering | null): Promise<void>;
  refresh(): Promise<void>;
  confirm(): Promise<boolean>;
  reset(): void;
}

/** Each preview's number: an older one's answer, come late, is not shown. */
let ticket = 0;

export const useStock = create<StockState>((set, get) => ({
  info: undefined,
  file: null,
  locationFrom: null,
  acknowledged: [],
  colourNumbering: null,
  preview: null,
  busy: false,
  async reload() {
    try {
      // null: no stock (never imported, or its import taken back).
      set({ info: await call('stock.info', {}) });
    } catch (e) {
      // A refusal is said; what was shown stays rather than saying "no stock".
      useApp.getState().fail(e);
    }
  },
  async choose(file) {
    set({ file: await fileArg(file), acknowledged: [], colourNumbering: null, preview: null });
    await get().refresh();
  },
  async setLocationFrom(locationFrom) {
    set({ locationFrom });
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
    const { file, locationFrom, colourNumbering } = get();
    if (file === null) return;
    const mine = ++ticket;
    set({ busy: true });
    try {
      const preview = await call('stock.preview', { file, locationFrom, colourNumbering });
      if (mine === ticket) set({ preview });
    } catch (e) {
      if (mine !== ticket) return;
      const refusal = messageOf(e);
      // Refused as a whole (not a stock file, unreadable): said where the preview would be, as the import's.
      set({
        preview: {
          previewId: '',
          fileName: file.name,
          documents: [],
          refusal,
          stock: {
            locationFrom: locationFrom ?? 'remarks',
            locations: 0,
            lotsWithoutLocation: 0,
            lotsWithLotId: 0,
            replaces: null,
          },
        },
      });
    } finally {
      if (mine === ticket) set({ busy: false });
    }
  },
  async confirm() {
    const { file, locationFrom, acknowledged, colourNumbering, preview } = get();
    if (file === null || importBlocked(preview, acknowledged)) return false;
    set({ busy: true });
    try {
      const r = await attempt(() =>
        call('stock.import', { file, locationFrom, acknowledge: acknowledged, colourNumbering }),
      );
      if (r === null) return false;
      set({ info: r.stock, file: null, preview: null, acknowledged: [], colourNumbering: null });
      const lots = r.stock;
      useApp
        .getState()
        .say(
          `The stock is now ${file.name}: ${plural(lots.lots, 'lot')} in ${plural(lots.locations, 'location')}, ${lots.unplaced.toLocaleString()} unplaced.` +
            (r.replaced.length > 0
              ? ` It replaces ${r.replaced.map((d) => d.fileName).join(', ')} (Undo takes it back).`
              : ''),
        );
      return true;
    } finally {
      set({ busy: false });
    }
  },
  reset: () => set({ file: null, preview: null, acknowledged: [], colourNumbering: null }),
}));
