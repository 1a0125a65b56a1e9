import { attempt } from '../app.ts';
import { call } from '../call.ts';
import { NO_SEARCH, type OrdersSlice, type SearchByHand } from './shape.ts';

export const searchByHand: OrdersSlice<SearchByHand> = (set, get) => ({
  search: NO_SEARCH,
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
});
