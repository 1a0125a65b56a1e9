import { create } from 'zustand';
import type { ErrorValue, StepView, StoreView } from '../../src/api/contract.ts';
import { platformOf, type Platform } from '../shortcuts.ts';
import { call, messageOf } from './call.ts';

export type Screen = 'orders' | 'import' | 'catalogue' | 'export' | 'settings';

interface AppState {
  screen: Screen;
  platform: Platform;
  store: StoreView | null;
  history: { undo: StepView | null; redo: StepView | null };
  /** The last thing that happened, in plain words: a refusal or a note. */
  notice: { kind: 'error' | 'info'; text: string; code?: string } | null;
  /** Bumped on every store.changed event: screens reload what they show. */
  revision: number;
  go(screen: Screen): void;
  start(): Promise<void>;
  refreshHistory(): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  say(text: string): void;
  fail(e: unknown): ErrorValue;
  changed(): void;
}

export const useApp = create<AppState>((set, get) => ({
  screen: 'orders',
  platform: platformOf(navigator.userAgent),
  store: null,
  history: { undo: null, redo: null },
  notice: null,
  revision: 0,
  go: (screen) => set({ screen }),
  async start() {
    try {
      const store = await call('store.info', {});
      set({ store });
      if (store.upgrade) get().say(`The store was upgraded from schema ${store.upgrade.from} to ${store.upgrade.to}; the old file is backed up at ${store.upgrade.backup}.`);
      else if (store.recovered.length > 0) get().say(`${store.recovered.length} job(s) left running by a closed brick-work were put back in the queue.`);
      await get().refreshHistory();
    } catch (e) {
      get().fail(e);
    }
  },
  async refreshHistory() {
    try {
      set({ history: await call('history.state', {}) });
    } catch (e) {
      get().fail(e);
    }
  },
  // Undo and Redo carry the step their label names (SPEC §8). When the history has moved on meanwhile
  // (another window, the CLI), the core refuses and changes nothing: show why and the new label; never retry.
  async undo() {
    const expected = get().history.undo;
    if (expected === null) return;
    try {
      const step = await call('history.undo', { expectedStep: expected.id });
      get().say(`Undone: ${step.label}`);
    } catch (e) {
      get().fail(e);
      await get().refreshHistory();
    }
  },
  async redo() {
    const expected = get().history.redo;
    if (expected === null) return;
    try {
      const step = await call('history.redo', { expectedStep: expected.id });
      get().say(`Redone: ${step.label}`);
    } catch (e) {
      get().fail(e);
      await get().refreshHistory();
    }
  },
  say: (text) => set({ notice: { kind: 'info', text } }),
  fail(e) {
    const error = messageOf(e);
    set({ notice: { kind: 'error', text: error.message, code: error.code } });
    return error;
  },
  changed() {
    set((s) => ({ revision: s.revision + 1 }));
    void get().refreshHistory();
  },
}));

/**
 * What the banner says when the store can't be written (SPEC §11): why, that reads work and changes
 * are refused, and when the screens show a private copy, that they do. Null on a writable store.
 */
export function readOnlyBanner(store: StoreView | null): string | null {
  if (!store?.readOnly) return null;
  const copy = store.readOnly.snapshot
    ? ' You are looking at a private copy taken when brick-work started: changes made elsewhere since then do not show here.'
    : '';
  return (
    `Read only: this store can't be written — ${store.readOnly.reason}. You can look and export; changes are refused. ` +
    `To change it, ask whoever manages this computer to make it writable, then start brick-work again.${copy}`
  );
}
