import { create } from 'zustand';
import type { DocumentView, LineRowView, OrderView, SuggestionView } from '../../src/api/contract.ts';
import type { PlacementConfirmation } from '../../src/confirmations.ts';
import { nextUnplacedAfter, placedMessage, type PlaceTarget } from '../desk.ts';
import { attempt, useApp } from './app.ts';
import { call, messageOf } from './call.ts';

/** A placement the core asked staff to confirm (SPEC §9): what it would also do, and the second Enter that does it. */
export interface PendingPlacement {
  readonly lineId: number;
  readonly target: PlaceTarget;
  readonly colourId: number | null;
  readonly confirm: readonly PlacementConfirmation[];
  readonly message: string;
}

/** A search of the catalogue by hand: it belongs to one line, and its results to the query they answer. */
export interface LineSearch {
  readonly lineId: number | null;
  readonly query: string;
  /** The answer to `results.query`: shown only while it is the query in the box (never an older one's). */
  readonly results: { readonly query: string; readonly items: readonly SuggestionView[] } | null;
}

const NO_SEARCH: LineSearch = { lineId: null, query: '', results: null };

interface OrdersState {
  /** How many times the core said its suggestion index is ready: an answer "preparing" that crossed that news is asked again. */
  indexReady: number;
  orders: OrderView[];
  query: string;
  orderId: number | null;
  order: OrderView | null;
  documents: DocumentView[];
  lines: LineRowView[];
  unplacedOnly: boolean;
  selectedLine: number | null;
  /** The suggestions of a line: shown only for that line. */
  suggestions: { readonly lineId: number; readonly items: readonly SuggestionView[] } | null;
  /** True while the suggestions of the selected line are on their way. */
  suggesting: boolean;
  /** True while the core builds its suggestion index: the panel says "Preparing suggestions…", and asks again when it is ready. */
  preparing: boolean;
  /** Set when the core says its suggestion index could not be built, and why: shown instead of "Preparing…". */
  unavailable: string | null;
  highlighted: number;
  search: LineSearch;
  loadingLines: boolean;
  /** The catalogue's colours, for choosing a line's colour. */
  colours: { id: number; name: string; rgb: string | null }[];
  /** The colour chosen for the selected line; null: the line keeps its own colour. */
  colourChoice: number | null;
  chooseColour(id: number | null): void;
  /** A placement waiting for its confirmation; anything else staff do drops it. */
  pending: PendingPlacement | null;
  /** Staff chose to place a line unplaced only for its colour on another item than the one it has (SPEC §9). */
  changingItem: boolean;
  changeItem(on: boolean): void;
  /** Places the selected line, unplaced only for its colour, on its own item in the chosen colour. */
  placeInItsItem(): Promise<void>;
  /** The second Enter: the pending placement, confirmed. */
  confirmPending(): Promise<void>;
  cancelPending(): void;
  setQuery(query: string): Promise<void>;
  loadOrders(): Promise<void>;
  /** `by`: staff opened it (what was said before goes), or the app did after an import (it stays). */
  open(orderId: number, by?: 'staff' | 'app'): Promise<void>;
  close(): void;
  reload(): Promise<void>;
  setUnplacedOnly(on: boolean): Promise<void>;
  /** `by`: staff moved (a message about what happened before is cleared), or the app did (it stays). */
  select(lineId: number | null, by?: 'staff' | 'app'): Promise<void>;
  /** Asks the suggestions of the selected line `lineId`. */
  askSuggestions(lineId: number): Promise<void>;
  /** The search's results for `query`, if it is still the query in the box. */
  askSearch(query: string): Promise<void>;
  /** A new suggestion index is ready (`suggestions.status`): the suggestions and the search on screen are asked again. */
  suggestionsReady(): void;
  /** The core could not build its suggestion index (`suggestions.status` with `why`): the panel says why. */
  suggestionsUnavailable(why: string): void;
  highlight(index: number): void;
  placeOn(s: SuggestionView): Promise<void>;
  setSearch(query: string): Promise<void>;
  leaveSearch(): void;
}

export const useOrders = create<OrdersState>((set, get) => ({
  orders: [],
  query: '',
  orderId: null,
  order: null,
  documents: [],
  lines: [],
  unplacedOnly: false,
  selectedLine: null,
  suggestions: null,
  suggesting: false,
  indexReady: 0,
  preparing: false,
  unavailable: null,
  highlighted: 0,
  search: NO_SEARCH,
  loadingLines: false,
  colours: [],
  colourChoice: null,
  chooseColour: (id) => set({ colourChoice: id, pending: null }),
  pending: null,
  changingItem: false,
  changeItem: (on) => set({ changingItem: on, pending: null, highlighted: 0 }),
  async placeInItsItem() {
    const line = get().lines.find((l) => l.id === get().selectedLine);
    if (!line?.itemFound) return;
    if (get().colourChoice === null) {
      useApp.getState().say(`Choose the colour line ${line.position} is in first.`);
      return;
    }
    await place(line.itemFound);
  },
  async confirmPending() {
    const p = get().pending;
    if (p === null || p.lineId !== get().selectedLine) return;
    await place(p.target, p.confirm, p.colourId);
  },
  cancelPending: () => set({ pending: null }),
  async setQuery(query) {
    set({ query });
    await get().loadOrders();
  },
  async loadOrders() {
    const query = get().query;
    const orders = await attempt(() => call('orders.list', { query }));
    // An answer to an older query is not shown.
    if (orders !== null && get().query === query) set({ orders: [...orders] });
  },
  async open(orderId, by = 'staff') {
    if (by === 'staff') useApp.getState().clearNotice();
    set({
      orderId,
      order: null,
      lines: [],
      selectedLine: null,
      suggestions: null,
      search: NO_SEARCH,
      colourChoice: null,
    });
    await Promise.all([
      get().reload(),
      call('catalogue.colours', {}).then(
        (c) => set({ colours: [...c] }),
        () => undefined,
      ),
    ]);
    // Opening an order selects its first unplaced line (SPEC §9): the work starts there.
    const first = get().lines.find((l) => l.placed === null);
    if (get().orderId === orderId && get().selectedLine === null && first !== undefined)
      await get().select(first.id, 'app');
  },
  close: () =>
    set({
      orderId: null,
      order: null,
      lines: [],
      documents: [],
      selectedLine: null,
      suggestions: null,
      search: NO_SEARCH,
    }),
  async reload() {
    const { orderId, unplacedOnly } = get();
    if (orderId === null) return get().loadOrders();
    set({ loadingLines: true });
    try {
      const [detail, lines] = await Promise.all([
        call('orders.get', { orderId }),
        call('lines.list', { orderId, unplacedOnly }),
      ]);
      if (get().orderId !== orderId) return;
      set({ order: detail.order, documents: [...detail.documents], lines: [...lines] });
      const selected = get().selectedLine;
      if (selected !== null && !lines.some((l) => l.id === selected))
        set({ selectedLine: null, suggestions: null, search: NO_SEARCH });
    } catch (e) {
      useApp.getState().fail(e);
      set({ orderId: null, order: null, lines: [] });
    } finally {
      set({ loadingLines: false });
    }
  },
  async setUnplacedOnly(on) {
    set({ unplacedOnly: on });
    await get().reload();
  },
  async select(lineId, by = 'staff') {
    if (by === 'staff') useApp.getState().clearNotice();
    // The search box belongs to the selected line: moving on clears it (SPEC §9).
    set({
      selectedLine: lineId,
      highlighted: 0,
      suggesting: false,
      colourChoice: null,
      pending: null,
      changingItem: false,
      search: { ...NO_SEARCH, lineId },
    });
    if (lineId === null) return;
    const line = get().lines.find((l) => l.id === lineId);
    if (!line || line.placed !== null) return;
    if (get().suggestions?.lineId === lineId) return;
    await get().askSuggestions(lineId);
  },
  async askSuggestions(lineId) {
    set({ suggesting: true });
    const seen = get().indexReady;
    const answer = await attempt(() => call('lines.suggest', { lineId }));
    if (get().selectedLine !== lineId) return;
    if (answer?.ready === false && get().indexReady !== seen) return get().askSuggestions(lineId);
    set({
      suggesting: false,
      preparing: answer?.ready === false,
      unavailable: answer?.ready === false ? (answer.why?.message ?? null) : null,
      ...(answer?.ready ? { suggestions: { lineId, items: answer.suggestions } } : {}),
    });
  },
  suggestionsReady() {
    set((st) => ({ indexReady: st.indexReady + 1 }));
    set({ preparing: false, unavailable: null });
    // Built at the start, or again after the catalogue changed: what is on screen may be out of date.
    const { selectedLine, search, lines } = get();
    if (search.query.trim() !== '') void get().askSearch(search.query);
    const line = lines.find((l) => l.id === selectedLine);
    if (line !== undefined && line.placed === null) void get().askSuggestions(line.id);
  },
  suggestionsUnavailable: (why) => set((s) => (s.preparing ? { unavailable: why } : {})),
  highlight: (index) => set({ highlighted: index }),
  async placeOn(s) {
    await place(s);
  },
  async setSearch(query) {
    const lineId = get().selectedLine;
    set({
      pending: null,
      search: { lineId, query, results: query.trim() === '' ? null : get().search.results },
      // Nothing highlighted while typing: ↓ (or Enter) goes to the results on the first, as it shows (issue 47).
      highlighted: -1,
    });
    if (query.trim() === '') return;
    await get().askSearch(query);
  },
  async askSearch(query) {
    const lineId = get().selectedLine;
    const seen = get().indexReady;
    const answer = await attempt(() =>
      call('catalogue.search', { query, limit: 20, ...(lineId === null ? {} : { forLine: lineId }) }),
    );
    // Kept only while it answers the query in the box, for the same line.
    const now = get().search;
    if (answer === null || now.query !== query || now.lineId !== lineId) return;
    if (answer.ready) set({ search: { ...now, results: { query, items: answer.suggestions } } });
    else if (get().indexReady !== seen) await get().askSearch(query);
    else set({ preparing: true, unavailable: answer.why?.message ?? null });
  },
  leaveSearch: () => set((st) => ({ search: { ...NO_SEARCH, lineId: st.selectedLine }, highlighted: 0 })),
}));

/**
 * Places the selected line on `target`: in the chosen colour, or its own (the core refuses with
 * `needs-colour` when the catalogue does not know it, and says so). When the core asks for a
 * confirmation first (lines it would move, another item type), the panel says what it asks and the
 * next Enter confirms it; then, as after every placement, the next unplaced line below is selected.
 */
async function place(
  target: PlaceTarget,
  confirm: readonly PlacementConfirmation[] = [],
  colourId: number | null = useOrders.getState().colourChoice,
): Promise<void> {
  const get = useOrders.getState;
  const lineId = get().selectedLine;
  if (lineId === null) return;
  const before = get().lines;
  let result;
  try {
    // The line as this desk shows it: if another desk changed it meanwhile, the core refuses (line-changed).
    const shown = before.find((l) => l.id === lineId)?.placed;
    const seen =
      shown === undefined
        ? undefined
        : shown === null
          ? null
          : { type: shown.type, no: shown.no, colourId: shown.colour };
    result = await call('lines.place', {
      lineId,
      type: target.type,
      no: target.no,
      colourId,
      confirm: [...confirm],
      ...(seen === undefined ? {} : { seen }),
    });
  } catch (e) {
    const error = messageOf(e);
    if (error.code === 'needs-acknowledgement' && error.confirm !== undefined && get().selectedLine === lineId) {
      const more = error.confirm;
      useOrders.setState({
        pending: { lineId, target, colourId, confirm: [...confirm, more], message: error.message },
      });
    } else {
      useApp.getState().fail(e);
      // Another desk changed the line: show it as it is now (SPEC §14).
      if (error.code === 'line-changed') await get().reload();
    }
    return;
  }
  useOrders.setState({ pending: null });
  useApp.getState().say(placedMessage(result, target));
  await get().reload();
  // Go on to the next unplaced line below: fixing lines is a keyboard run.
  await get().select(nextUnplacedAfter(before, get().lines, lineId) ?? lineId, 'app');
}

/** What the suggestion list shows for the selected line now, and whether Enter may act on it. */
export interface ShownOptions {
  readonly mode: 'search' | 'suggestions';
  readonly items: readonly SuggestionView[];
  /** False while the list does not answer what is on screen (a search on its way): Enter must not act. */
  readonly current: boolean;
}

export function shownOptions(st: Pick<OrdersState, 'selectedLine' | 'suggestions' | 'search'>): ShownOptions {
  const searching = st.search.query.trim() !== '';
  if (searching) {
    const answer = st.search.results?.query === st.search.query ? st.search.results.items : null;
    return { mode: 'search', items: answer ?? [], current: answer !== null };
  }
  const own = st.suggestions?.lineId === st.selectedLine ? st.suggestions.items : null;
  return { mode: 'suggestions', items: own ?? [], current: own !== null };
}
