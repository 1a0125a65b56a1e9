import { create } from 'zustand';
import {
  STORE_DAMAGED,
  type ErrorValue,
  type JobOrderLines,
  type StepView,
  type StoreView,
} from '../../src/api/contract.ts';
import { platformOf, type Platform } from '../shortcuts.ts';
import { call, callsInFlight, messageOf, onCallSettled } from './call.ts';

export type Screen = 'orders' | 'import' | 'compare' | 'catalogue' | 'export' | 'settings';

interface AppState {
  screen: Screen;
  platform: Platform;
  store: StoreView | null;
  history: { undo: StepView | null; redo: StepView | null };
  /**
   * The last thing that happened, in plain words: a refusal or a note. It stays until read: dismissed, or
   * a few seconds after staff's next action (`clearNotice`), never at the moment focus moves (issue 64 §2).
   */
  notice: {
    kind: 'error' | 'info';
    text: string;
    code?: string;
    /** Orders the note is about, each a way to its lines (a catalogue load's: SPEC §9). */
    orders?: readonly JobOrderLines[];
    /** A history step the refusal names (another desk's, `step-conflict`): the notice offers to show it. */
    step?: number;
    /** Staff moved on: it goes once `NOTICE_LINGERS_MS` have passed (unless another takes its place). */
    fading?: boolean;
  } | null;
  /** What was said lately, newest first (the History panel lists them), each with when. */
  said: readonly { readonly kind: 'error' | 'info'; readonly text: string; readonly at: number }[];
  /** Staff closed the notice: it goes now. */
  dismissNotice(): void;
  /**
   * A write this desk asked for waits for another desk's work (the core's `store.waiting`, issue 61 §3):
   * what it says, shown until every call asked before it was said has its answer.
   */
  waiting: { readonly message: string; readonly calls: ReadonlySet<number> } | null;
  /** The core says a write waits (`store.waiting`): shown while a call of this page is unanswered. */
  waitingFor(message: string): void;
  /** The history panel, when open: every desk's steps; `step`, the one it was opened to show. */
  historyPanel: { step: number | null } | null;
  showHistory(step?: number): void;
  hideHistory(): void;
  /** Bumped on every store.changed event: screens reload what they show. */
  revision: number;
  /** `by`: staff went there (what was said before goes), or the app did after an action (it stays). */
  go(screen: Screen, by?: 'staff' | 'app'): void;
  start(): Promise<void>;
  refreshHistory(): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  say(text: string, orders?: readonly JobOrderLines[]): void;
  fail(e: unknown): ErrorValue;
  /** Staff moved on (another screen, another line): what was said goes a few seconds later, read by then. */
  clearNotice(): void;
  /** The store changed (`reason` as the event says); a store found damaged is shown as such at once. */
  changed(reason?: string): void;
}

/** What had the focus when the History panel opened. */
let historyOpenedFrom: Element | null = null;

/** How long a notice stays once staff moved on: long enough to read a sentence while typing on. */
export const NOTICE_LINGERS_MS = 6_000;
/** How many of what was said the History panel lists. */
const SAID_KEPT = 50;

function kept(said: AppState['said'], kind: 'error' | 'info', text: string): AppState['said'] {
  return [{ kind, text, at: Date.now() }, ...said].slice(0, SAID_KEPT);
}

export const useApp = create<AppState>((set, get) => ({
  screen: 'orders',
  platform: platformOf(navigator.userAgent),
  store: null,
  history: { undo: null, redo: null },
  notice: null,
  said: [],
  historyPanel: null,
  waiting: null,
  waitingFor(message) {
    // Another page's write, with none of this page's calls unanswered: nothing of this page waits.
    const calls = callsInFlight();
    if (calls.size > 0) set({ waiting: { message, calls } });
  },
  revision: 0,
  showHistory(step) {
    // Where the worker was, to go back to when it closes (issue 64 §1); opened again, it keeps the first.
    if (get().historyPanel === null) historyOpenedFrom = document.activeElement;
    set({ historyPanel: { step: step ?? null } });
  },
  hideHistory() {
    set({ historyPanel: null });
    const back = historyOpenedFrom;
    historyOpenedFrom = null;
    // Back where the worker was, once the panel is gone; the page's start when that is gone too.
    setTimeout(() => {
      if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
      else document.querySelector<HTMLElement>('main')?.focus();
    }, 0);
  },
  go(screen, by = 'staff') {
    if (get().screen === screen) return;
    set({ screen });
    if (by === 'staff') get().clearNotice();
  },
  async start() {
    const store = await attempt(() => call('store.info', {}));
    if (store !== null) {
      set({ store });
      if (store.upgrade)
        get().say(
          `The store was upgraded from schema ${store.upgrade.from} to ${store.upgrade.to}; the old file is backed up at ${store.upgrade.backup}.`,
        );
      else if (store.recovered.length > 0) {
        get().say(
          store.recovered.length === 1
            ? 'A job that a closed brick-work left running was put back in the queue; it goes on by itself.'
            : `${store.recovered.length} jobs that a closed brick-work left running were put back in the queue; they go on by themselves.`,
        );
      }
      await get().refreshHistory();
    }
  },
  async refreshHistory() {
    const history = await attempt(() => call('history.state', {}));
    if (history !== null) set({ history });
  },
  // Undo and Redo carry the step their label names (SPEC §8). When the history has moved on meanwhile
  // (another window, the CLI), the core refuses and changes nothing: show why and the new label; never retry.
  async undo() {
    const expected = get().history.undo;
    if (expected === null) return;
    const step = await attempt(() => call('history.undo', { expectedStep: expected.id }));
    if (step !== null) get().say(`Undone: ${step.label}`);
    else await get().refreshHistory();
  },
  async redo() {
    const expected = get().history.redo;
    if (expected === null) return;
    const step = await attempt(() => call('history.redo', { expectedStep: expected.id }));
    if (step !== null) get().say(`Redone: ${step.label}`);
    else await get().refreshHistory();
  },
  say: (text, orders) =>
    set((s) => ({
      notice: orders && orders.length > 0 ? { kind: 'info', text, orders } : { kind: 'info', text },
      said: kept(s.said, 'info', text),
    })),
  clearNotice() {
    const notice = get().notice;
    if (notice === null || notice.fading === true) return;
    set({ notice: { ...notice, fading: true } });
    // The same notice, still fading: another said since takes its place and is not touched.
    setTimeout(() => {
      const now = get().notice;
      if (now !== null && now.text === notice.text && now.fading === true) set({ notice: null });
    }, NOTICE_LINGERS_MS);
  },
  dismissNotice: () => set({ notice: null }),
  fail(e) {
    const error = messageOf(e);
    set((s) => ({
      notice: {
        kind: 'error',
        text: error.message,
        code: error.code,
        ...(error.step === undefined ? {} : { step: error.step }),
      },
      said: kept(s.said, 'error', error.message),
    }));
    return error;
  },
  changed(reason) {
    set((s) => ({ revision: s.revision + 1 }));
    void get().refreshHistory();
    // Found damaged while open (SPEC §11): the banner says so, and how to go back to a backup.
    if (reason === STORE_DAMAGED)
      void attempt(() => call('store.info', {})).then((store) => store !== null && set({ store }));
  },
}));

/**
 * The screens' one error path: runs a call, and on a refusal shows it (in plain words, with its code)
 * and gives null. Every store's action goes through it.
 */
export async function attempt<T>(fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (e) {
    useApp.getState().fail(e);
    return null;
  }
}

// The waiting line goes once the calls it was said for are answered.
onCallSettled((id) => {
  const waiting = useApp.getState().waiting;
  if (waiting === null || !waiting.calls.has(id)) return;
  const calls = new Set(waiting.calls);
  calls.delete(id);
  useApp.setState({ waiting: calls.size === 0 ? null : { ...waiting, calls } });
});
