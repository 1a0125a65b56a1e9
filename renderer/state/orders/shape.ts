/** The orders screen's state, in the parts its slices hold (`list.ts`, `open.ts`, `suggestions.ts`, `search.ts`, `placing.ts`). */
import type { StateCreator } from 'zustand';
import type { DocumentView, LineRowView, OrderView, SuggestionView } from '../../../src/api/contract.ts';
import type { PlacementConfirmation } from '../../../src/vocabulary/confirmations.ts';
import type { PlaceTarget } from '../../desk.ts';

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

export const NO_SEARCH: LineSearch = { lineId: null, query: '', results: null };

/** The list of orders and its search. */
export interface OrderList {
  orders: OrderView[];
  query: string;
  setQuery(query: string): Promise<void>;
  loadOrders(): Promise<void>;
}

/** The open order: its documents and lines. */
export interface OpenOrder {
  orderId: number | null;
  order: OrderView | null;
  documents: DocumentView[];
  lines: LineRowView[];
  unplacedOnly: boolean;
  loadingLines: boolean;
  /** The catalogue's colours, for choosing a line's colour. */
  colours: { id: number; name: string; rgb: string | null }[];
  /** `by`: staff opened it (what was said before goes), or the app did after an import (it stays). */
  open(orderId: number, by?: 'staff' | 'app'): Promise<void>;
  close(): void;
  /** The order the worker just left (← Orders): the orders list gives it the focus (issue 64 §1). */
  returnTo: number | null;
  /** The list has given it the focus. */
  returned(): void;
  reload(): Promise<void>;
  setUnplacedOnly(on: boolean): Promise<void>;
}

/** The selected line and its suggestions. */
export interface LineSuggestions {
  /** How many times the core said its suggestion index is ready: an answer "preparing" that crossed that news is asked again. */
  indexReady: number;
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
  /** `by`: staff moved (a message about what happened before is cleared), or the app did (it stays). */
  select(lineId: number | null, by?: 'staff' | 'app'): Promise<void>;
  /** Asks the suggestions of the selected line `lineId`. */
  askSuggestions(lineId: number): Promise<void>;
  /** A new suggestion index is ready (`suggestions.status`): the suggestions and the search on screen are asked again. */
  suggestionsReady(): void;
  /** The core could not build its suggestion index (`suggestions.status` with `why`): the panel says why. */
  suggestionsUnavailable(why: string): void;
  highlight(index: number): void;
}

/** The search by hand of the selected line. */
export interface SearchByHand {
  search: LineSearch;
  /** The search's results for `query`, if it is still the query in the box. */
  askSearch(query: string): Promise<void>;
  setSearch(query: string): Promise<void>;
  leaveSearch(): void;
}

/** Placing the selected line: its colour, the item, the confirmation the core may ask for. */
export interface Placing {
  /** The colour chosen for the selected line; null: the line keeps its own colour. */
  colourChoice: number | null;
  chooseColour(id: number | null): void;
  /** A placement waiting for its confirmation; anything else staff do drops it. */
  pending: PendingPlacement | null;
  /**
   * The line whose placement was asked and has no answer yet (it may wait for another desk's work, issue
   * 61 §3): Enter again, or another suggestion, asks nothing more until the answer comes.
   */
  placing: number | null;
  /** Staff chose to place a line unplaced only for its colour on another item than the one it has (SPEC §9). */
  changingItem: boolean;
  changeItem(on: boolean): void;
  /** Places the selected line, unplaced only for its colour, on its own item in the chosen colour. */
  placeInItsItem(): Promise<void>;
  /** The second Enter: the pending placement, confirmed. */
  confirmPending(): Promise<void>;
  cancelPending(): void;
  placeOn(s: SuggestionView): Promise<void>;
  /**
   * Forgets the remembered hand placement that placed the selected line, or refused it (SPEC §6 step 2):
   * one undo step; the lines it placed stay placed.
   */
  forgetLinesMemory(): Promise<void>;
}

export type OrdersState = OrderList & OpenOrder & LineSuggestions & SearchByHand & Placing;

/** One part of the orders state, made with the whole store's `set` and `get`. */
export type OrdersSlice<Part> = StateCreator<OrdersState, [], [], Part>;
