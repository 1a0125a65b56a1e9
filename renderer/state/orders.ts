import { create } from 'zustand';
import type { DocumentView, LineRowView, OrderView, SuggestionView } from '../../src/api/contract.ts';
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
    set({ orderId, selectedLine: null, suggestions: [], searchResults: [], searchQuery: '' });
    await get().reload();
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
    set({ selectedLine: lineId, highlighted: 0, suggestions: [], suggesting: false });
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
      const given = get().lines.find((l) => l.id === lineId);
      // The line's own colour goes with it, unless that colour is what kept it unplaced.
      const colourId = given?.reason === 'The colour is not in the catalogue' ? null : (given?.given.colourId ?? null);
      const line = await call('lines.place', { lineId, type: s.type, no: s.no, colourId });
      useApp.getState().say(`Line ${line.position} placed on ${s.type} ${s.no} (${s.name}).`);
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
