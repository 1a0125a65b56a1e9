import { create } from 'zustand';
import type { ErrorValue, PutAwayExportView, PutAwayListView } from '../../src/api/contract.ts';
import { plural } from '../format.ts';
import { useApp } from './app.ts';
import { call, messageOf } from './call.ts';
import { download } from './exports.ts';

/**
 * An incoming order's put-away list (SPEC §16) while its screen is open: each line to its lot or a new
 * one, the locations staff type for new lots (kept while the screen is open, sent with every call), and
 * its BrickLink files.
 */
interface PutAwayState {
  /** The order whose list is on screen; null: the screen is closed. */
  orderId: number | null;
  list: PutAwayListView | null;
  /** Why there is no list (no stock yet, the stock order itself): in words, on the screen. */
  refusal: ErrorValue | null;
  /** Staff's typed locations for new lots, by order line id. */
  locations: Readonly<Record<string, string>>;
  /** The last export: its files and what it left out. */
  exported: PutAwayExportView | null;
  /** The export waits for staff: lines BrickLink does not number, which it would leave out. */
  needs: ErrorValue | null;
  open(orderId: number): Promise<void>;
  close(): void;
  reload(): Promise<void>;
  /** A location typed for a new lot's line; empty: back to the suggestion. */
  type(line: number, location: string): Promise<void>;
  export(accept?: boolean): Promise<void>;
}

/** Each list asked: an older one's answer, come late, is not shown. */
let ticket = 0;

export const usePutAway = create<PutAwayState>((set, get) => ({
  orderId: null,
  list: null,
  refusal: null,
  locations: {},
  exported: null,
  needs: null,
  async open(orderId) {
    useApp.getState().clearNotice();
    set({ orderId, list: null, refusal: null, locations: {}, exported: null, needs: null });
    await get().reload();
  },
  close: () => set({ orderId: null, list: null, refusal: null, locations: {}, exported: null, needs: null }),
  async reload() {
    const { orderId, locations } = get();
    if (orderId === null) return;
    const mine = ++ticket;
    try {
      const list = await call('putAway.list', { orderId, locations });
      if (mine === ticket && get().orderId === orderId) set({ list, refusal: null });
    } catch (e) {
      if (mine === ticket && get().orderId === orderId) set({ list: null, refusal: messageOf(e) });
    }
  },
  async type(line, location) {
    const others = Object.fromEntries(Object.entries(get().locations).filter(([k]) => k !== String(line)));
    const typed = location.trim();
    set({ locations: typed === '' ? others : { ...others, [String(line)]: typed } });
    await get().reload();
  },
  async export(accept = false) {
    const { orderId, locations } = get();
    if (orderId === null) return;
    let r: PutAwayExportView;
    try {
      r = await call('putAway.export', {
        orderId,
        locations,
        ...(accept ? { accept: ['no-bricklink-number'] } : {}),
      });
    } catch (e) {
      const error = messageOf(e);
      // Lines BrickLink does not number: said on the screen, with a button to export without them.
      if (error.code === 'needs-acknowledgement') set({ needs: error });
      else useApp.getState().fail(e);
      return;
    }
    set({ exported: r, needs: null });
    const files = [r.update, r.upload].filter((f) => f !== null);
    for (const file of files) if (file.savedTo === null) download(file);
    // Said once for both files; what was left out stays listed on the screen.
    const left = r.leftOut.length > 0 ? ` ${plural(r.leftOut.length, 'line')} left out (listed below).` : '';
    useApp
      .getState()
      .say(
        files.length === 0
          ? `Nothing to write for BrickLink.${left}`
          : `${files.map((f) => (f.savedTo === null ? `Exported ${f.name}` : `Saved ${f.savedTo}`)).join('; ')}.${left}`,
      );
  },
}));
