import { create } from 'zustand';
import type { ErrorValue, PickEntryView, PickListView, PickProgressView } from '../../src/api/contract.ts';
import { pickProgressText } from '../../src/stock/pick-plan.ts';
import { useApp } from './app.ts';
import { call, messageOf, Refusal } from './call.ts';

/**
 * An order's pick list while the picking screen is open (SPEC §16): the walk, the selected stop, and the
 * marks. A key answers at once: the row changes as staff pressed, then the call's answer (or its refusal,
 * in words) settles it — marks are kept in the store, one undo step each, and every desk sees them.
 */
interface PickState {
  /** The order being picked; null: the screen is closed. */
  orderId: number | null;
  list: PickListView | null;
  /** The walk's stops by key, and their keys in walking order (the same array while the walk is the same). */
  byKey: ReadonlyMap<string, PickEntryView>;
  keys: readonly string[];
  /** Why there is no list (no stock yet, the stock order itself): in words, on the screen. */
  refusal: ErrorValue | null;
  /** The selected stop's key (kept when the walk is read again). */
  selected: string | null;
  /** A part quantity being typed for the selected stop; null: none. */
  typing: string | null;
  open(orderId: number): Promise<void>;
  close(): void;
  reload(): Promise<void>;
  /**
   * The store changed (a mark here or at another desk, Undo): read again once it has been quiet a moment,
   * so that a run of keys is not kept waiting behind a reading after each of their marks.
   */
  reloadSoon(): void;
  move(by: number): void;
  select(key: string): void;
  /** Space: the selected stop's whole take marked, or its mark taken back when it has all of it. */
  toggle(): void;
  /** A digit typed: a part quantity begins, or goes on. */
  digit(d: string): void;
  /** Backspace while typing a quantity. */
  backspace(): void;
  /** Escape: the quantity typed goes, nothing marked. */
  cancelTyping(): void;
  /** Enter: that many of the selected stop marked. */
  commitTyping(): void;
}

/** Marks sent and not answered yet, by entry key: the picked count shown meanwhile. */
const pending = new Map<string, number>();
/** Each entry's calls go in the order pressed (a mark, then its unmark, never the other way round). */
let chain: Promise<unknown> = Promise.resolve();
/** The quiet a reload after a change waits for (a worker's keys come faster than this). */
const RELOAD_AFTER_MS = 250;
let reloadTimer: ReturnType<typeof setTimeout> | null = null;
/** Each list read: an older one's answer, come late, is not shown. */
let ticket = 0;

/** The progress counted from the entries as shown (a mark pressed and not answered yet included). */
export function progressOf(entries: readonly PickEntryView[]): PickProgressView {
  let lotsDone = 0;
  let pieces = 0;
  let piecesDone = 0;
  for (const e of entries) {
    const done = Math.min(e.take, Math.max(0, e.picked));
    pieces += e.take;
    piecesDone += done;
    if (done === e.take) lotsDone += 1;
  }
  const p = { lots: entries.length, lotsDone, pieces, piecesDone };
  return { ...p, text: pickProgressText(p) };
}

/**
 * The list read again, its stops that did not change kept as they were (the same objects): a reload after
 * every mark (store.changed) draws only the rows that changed, and a key pressed meanwhile is not kept waiting.
 */
function keptFrom(before: PickListView | null, after: PickListView): PickListView {
  if (before === null) return after;
  const old = new Map(before.entries.map((e) => [e.key, e]));
  const entries = after.entries.map((e) => {
    const was = old.get(e.key);
    return was !== undefined && JSON.stringify(was) === JSON.stringify(e) ? was : e;
  });
  return { ...after, entries };
}

const NO_LIST = { list: null, byKey: new Map<string, PickEntryView>(), keys: [] as readonly string[] };

/** What the screen reads of a list: it, its stops by key, and its keys (kept while they are the same). */
function showing(list: PickListView, keysBefore: readonly string[]): Pick<PickState, 'list' | 'byKey' | 'keys'> {
  const keys = list.entries.map((e) => e.key);
  const same = keys.length === keysBefore.length && keys.every((k, i) => k === keysBefore[i]);
  return { list, byKey: new Map(list.entries.map((e) => [e.key, e])), keys: same ? keysBefore : keys };
}

/** The list with the marks not answered yet as pressed. */
function withPending(list: PickListView): PickListView {
  if (pending.size === 0) return list;
  const entries = list.entries.map((e) => {
    const p = pending.get(e.key);
    return p === undefined ? e : { ...e, picked: p };
  });
  return { ...list, entries, progress: progressOf(entries) };
}

/** "4 × 3001 from A10" as a mark's refusal or step names it. */
const stopWords = (e: PickEntryView) => `${e.item.shown}${e.location ? ` from ${e.location}` : ''}`;

/** Shows `picked` on the entry at once, then asks the core; its answer (or refusal) settles the row. */
function sendMark(
  get: () => PickState,
  set: (s: Partial<PickState>) => void,
  entry: PickEntryView,
  picked: number,
): void {
  const { orderId, list } = get();
  if (orderId === null || list === null) return;
  const key = entry.key;
  pending.set(key, picked);
  set(showing(withPending(list), get().keys));
  chain = chain.then(async () => {
    try {
      const r =
        picked === 0 ? await call('pick.unmark', { orderId, key }) : await call('pick.mark', { orderId, key, picked });
      if (pending.get(key) === picked) pending.delete(key);
      const now = get().list;
      if (get().orderId !== orderId || now === null) return;
      const entries = now.entries.map((e) =>
        e.key === key ? { ...r.entry, picked: pending.get(key) ?? r.entry.picked } : e,
      );
      set(showing(withPending({ ...now, entries, progress: r.progress }), get().keys));
    } catch (e) {
      if (pending.get(key) === picked) pending.delete(key);
      // Refused (the walk changed, another desk's mark): said in words, and the list read again as it stands.
      const error = messageOf(e);
      useApp.getState().fail(new Refusal({ ...error, message: `${stopWords(entry)}: ${error.message}` }));
      await get().reload();
    }
  });
}

export const usePick = create<PickState>((set, get) => {
  const mark = (entry: PickEntryView, picked: number) => sendMark(get, set, entry, picked);
  const current = (): PickEntryView | null => {
    const { list, selected } = get();
    return list?.entries.find((e) => e.key === selected) ?? null;
  };
  return {
    orderId: null,
    ...NO_LIST,
    refusal: null,
    selected: null,
    typing: null,
    async open(orderId) {
      useApp.getState().clearNotice();
      pending.clear();
      set({ orderId, ...NO_LIST, refusal: null, selected: null, typing: null });
      await get().reload();
    },
    close() {
      pending.clear();
      set({ orderId: null, ...NO_LIST, refusal: null, selected: null, typing: null });
    },
    async reload() {
      const orderId = get().orderId;
      if (orderId === null) return;
      const mine = ++ticket;
      try {
        const list = await call('pick.list', { orderId });
        if (mine !== ticket || get().orderId !== orderId) return;
        const shown = withPending(keptFrom(get().list, list));
        const selected = get().selected;
        // The selected stop stays; a first open (or a stop gone) selects the first not picked yet.
        const keep = shown.entries.some((e) => e.key === selected)
          ? selected
          : ((shown.entries.find((e) => e.picked < e.take) ?? shown.entries[0])?.key ?? null);
        set({ ...showing(shown, get().keys), refusal: null, selected: keep });
      } catch (e) {
        if (mine === ticket && get().orderId === orderId) set({ ...NO_LIST, refusal: messageOf(e) });
      }
    },
    reloadSoon() {
      if (reloadTimer !== null) clearTimeout(reloadTimer);
      reloadTimer = setTimeout(() => {
        reloadTimer = null;
        void get().reload();
      }, RELOAD_AFTER_MS);
    },
    move(by) {
      const { list, selected } = get();
      if (list === null || list.entries.length === 0) return;
      const at = list.entries.findIndex((e) => e.key === selected);
      const to = Math.max(0, Math.min(list.entries.length - 1, (at < 0 ? 0 : at) + by));
      set({ selected: list.entries[to]?.key ?? null, typing: null });
    },
    select: (key) => set({ selected: key, typing: null }),
    toggle() {
      const e = current();
      if (e === null) return;
      set({ typing: null });
      if (e.picked >= e.take) {
        mark(e, 0);
        return;
      }
      mark(e, e.take);
      // Its whole take marked: on to the next stop of the walk.
      get().move(1);
    },
    digit(d) {
      if (current() === null) return;
      const typed = `${get().typing ?? ''}${d}`.replace(/^0+(?=\d)/, '');
      set({ typing: typed.slice(0, 6) });
    },
    backspace() {
      const typing = get().typing;
      if (typing === null) return;
      set({ typing: typing.length <= 1 ? null : typing.slice(0, -1) });
    },
    cancelTyping: () => set({ typing: null }),
    commitTyping() {
      const e = current();
      const typing = get().typing;
      if (e === null || typing === null) return;
      const n = Number(typing);
      if (n === 0) {
        set({ typing: null });
        if (e.picked > 0) mark(e, 0);
        return;
      }
      if (n > e.take) {
        // Said before anything is sent: the typed number stays to be put right.
        useApp.getState().fail(
          new Refusal({
            code: 'invalid-argument',
            message: `Only ${e.take.toLocaleString()} to take from ${e.location ?? 'this lot'}: type 1 to ${e.take.toLocaleString()}, or Space for all of them.`,
          }),
        );
        return;
      }
      set({ typing: null });
      mark(e, n);
    },
  };
});
