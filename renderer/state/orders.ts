import { create } from 'zustand';
import type { SuggestionView } from '../../src/api/contract.ts';
import { orderList } from './orders/list.ts';
import { openOrder } from './orders/open.ts';
import { placing } from './orders/placing.ts';
import { searchByHand } from './orders/search.ts';
import type { OrdersState } from './orders/shape.ts';
import { lineSuggestions } from './orders/suggestions.ts';

/**
 * The orders screen's store: the list of orders, the open order, its selected line's suggestions and
 * search by hand, and placing it — each part a slice of its own (`orders/`), one store for the components.
 */
export const useOrders = create<OrdersState>()((...a) => ({
  ...orderList(...a),
  ...openOrder(...a),
  ...lineSuggestions(...a),
  ...searchByHand(...a),
  ...placing(...a),
}));

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
