import { create } from 'zustand';
import type { DocumentView, LineRowView, OrderView, PlaceResultView, SuggestionView } from '../../src/api/contract.ts';
import { useApp } from './app.ts';
import { call } from './call.ts';

interface OrdersState {
  orders: OrderView[];
  query: string;
  orderId: number | null;
  order: OrderView | null;
  documents: DocumentView[];
  lines: LineRowView[];
  unplacedOnly: boolean;
  selectedLine: number | null;
  suggestions: SuggestionView[];
  /** True while the suggestions of the selected line are on their way. */
  suggesting: boolean;
  highlighted: number;
  searchQuery: string;
  searchResults: SuggestionView[];
  loadingLines: boolean;
  /** The catalogue's colours, for choosing a line's colour. */
  colours: { id: number; name: string }[];
  /** The colour chosen for the selected line; null: the line keeps its own colour. */
  colourChoice: number | null;
  chooseColour(id: number | null): void;
  setQuery(query: string): Promise<void>;
  loadOrders(): Promise<void>;
  open(orderId: number): Promise<void>;
  close(): void;
  reload(): Promise<void>;
  setUnplacedOnly(on: boolean): Promise<void>;
  select(lineId: number | null): Promise<void>;
  highlight(index: number): void;
  placeOn(s: SuggestionView): Promise<void>;
  search(query: string): Promise<void>;
}

/** What a hand placement did, in a shop worker's words: the line, and the other lines it placed or moved. */
function placedMessage(r: PlaceResultView, s: SuggestionView): string {
  const l = r.line;
  const colour = l.placed?.colourName ? ` in ${l.placed.colourName}` : '';
  const given = l.given.no ?? (l.given.name ? `“${l.given.name}”` : 'the same');
  const more = [
    r.others.placed > 0 ? `${r.others.placed} more line${r.others.placed === 1 ? '' : 's'} giving ${given}` : '',
    r.others.moved > 0 ? `moved ${r.others.moved} line${r.others.moved === 1 ? '' : 's'} the old memory had placed` : '',
  ].filter(Boolean);
  const rest = more.length > 0 ? `, and ${more.join(', and ')}, each in its own colour` : '';
  const still = r.others.unplaced > 0 ? ` ${r.others.unplaced} other line${r.others.unplaced === 1 ? '' : 's'} giving it stay unplaced.` : '';
  return `Placed line ${l.position} on ${s.type} ${s.no} (${s.name})${colour}${rest}.${still}`;
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
  suggestions: [],
  suggesting: false,
  highlighted: 0,
  searchQuery: '',
  searchResults: [],
  loadingLines: false,
  colours: [],
  colourChoice: null,
  chooseColour: (id) => set({ colourChoice: id }),
  async setQuery(query) {
    set({ query });
    await get().loadOrders();
  },
  async loadOrders() {
    try {
      set({ orders: [...(await call('orders.list', { query: get().query }))] });
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
  async open(orderId) {
    set({ orderId, selectedLine: null, suggestions: [], searchResults: [], searchQuery: '', colourChoice: null });
    await Promise.all([get().reload(), call('catalogue.colours', {}).then((c) => set({ colours: [...c] }), () => undefined)]);
  },
  close: () => set({ orderId: null, order: null, lines: [], documents: [], selectedLine: null, suggestions: [] }),
  async reload() {
    const { orderId, unplacedOnly } = get();
    if (orderId === null) return get().loadOrders();
    set({ loadingLines: true });
    try {
      const [detail, lines] = await Promise.all([call('orders.get', { orderId }), call('lines.list', { orderId, unplacedOnly })]);
      set({ order: detail.order, documents: [...detail.documents], lines: [...lines] });
      const selected = get().selectedLine;
      if (selected !== null && !lines.some((l) => l.id === selected)) set({ selectedLine: null, suggestions: [] });
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
  async select(lineId) {
    set({ selectedLine: lineId, highlighted: 0, suggestions: [], suggesting: false, colourChoice: null });
    if (lineId === null) return;
    const line = get().lines.find((l) => l.id === lineId);
    if (!line || line.placed !== null) return;
    set({ suggesting: true });
    try {
      const suggestions = await call('lines.suggest', { lineId });
      if (get().selectedLine === lineId) set({ suggestions: [...suggestions] });
    } catch (e) {
      useApp.getState().fail(e);
    } finally {
      if (get().selectedLine === lineId) set({ suggesting: false });
    }
  },
  highlight: (index) => set({ highlighted: index }),
  async placeOn(s) {
    const lineId = get().selectedLine;
    if (lineId === null) return;
    try {
      // Without a chosen colour the line keeps its own; the core refuses (needs-colour) when the
      // catalogue does not know it, and says so.
      const result = await call('lines.place', { lineId, type: s.type, no: s.no, colourId: get().colourChoice });
      useApp.getState().say(placedMessage(result, s));
      await get().reload();
      // Move on to the next unplaced line: fixing lines is a keyboard run.
      const next = get().lines.find((l) => l.placed === null && l.id !== lineId);
      await get().select(next?.id ?? lineId);
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
  async search(query) {
    set({ searchQuery: query });
    if (query.trim() === '') return set({ searchResults: [] });
    try {
      const results = await call('catalogue.search', { query, limit: 20 });
      if (get().searchQuery === query) set({ searchResults: [...results] });
    } catch (e) {
      useApp.getState().fail(e);
    }
  },
}));
