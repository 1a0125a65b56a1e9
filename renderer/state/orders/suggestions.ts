import { attempt, useApp } from '../app.ts';
import { call } from '../call.ts';
import { NO_SEARCH, type LineSuggestions, type OrdersSlice } from './shape.ts';

export const lineSuggestions: OrdersSlice<LineSuggestions> = (set, get) => ({
  indexReady: 0,
  selectedLine: null,
  suggestions: null,
  suggesting: false,
  preparing: false,
  unavailable: null,
  highlighted: 0,
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
});
