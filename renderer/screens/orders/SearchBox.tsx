import { useEffect, useRef, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { SEARCH_THE_CATALOGUE } from '../../menu.ts';
import { useOrders, type ShownOptions } from '../../state/orders.ts';

/**
 * The catalogue search of the selected line (SPEC §9): `/` (and the menu's "Search the catalogue") come
 * here; ↓ or Enter go to its results, Esc leaves it for the line table.
 */
export function SearchBox(props: {
  disabled: boolean;
  shown: ShownOptions;
  list: RefObject<HTMLOListElement | null>;
  leave: () => void;
}) {
  const { query, setSearch, leaveSearch, highlight } = useOrders(
    useShallow((s) => ({
      query: s.search.query,
      setSearch: s.setSearch,
      leaveSearch: s.leaveSearch,
      highlight: s.highlight,
    })),
  );
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onSlash = (e: globalThis.KeyboardEvent) => {
      const typing =
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLSelectElement ||
        e.target instanceof HTMLTextAreaElement;
      if (e.key === '/' && !typing) {
        e.preventDefault();
        box.current?.focus();
      }
    };
    const onMenu = () => box.current?.focus();
    window.addEventListener('keydown', onSlash);
    window.addEventListener(SEARCH_THE_CATALOGUE, onMenu);
    return () => {
      window.removeEventListener('keydown', onSlash);
      window.removeEventListener(SEARCH_THE_CATALOGUE, onMenu);
    };
  }, []);
  return (
    <input
      ref={box}
      className="search"
      type="search"
      placeholder="/ Search the catalogue by name or number"
      aria-label="Search the catalogue"
      data-testid="catalogue-search"
      value={query}
      disabled={props.disabled}
      onChange={(e) => void setSearch(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || e.key === 'Enter') {
          e.preventDefault();
          if (!props.shown.current || props.shown.items.length === 0) return;
          highlight(0);
          props.list.current?.focus();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          leaveSearch();
          props.leave();
        }
      }}
    />
  );
}
