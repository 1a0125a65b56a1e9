import type { KeyboardEvent, RefObject } from 'react';
import type { LineRowView } from '../../../src/api/contract.ts';
import { shownOptions, useOrders } from '../../state/orders.ts';
import { pageSize } from './table-focus.ts';

/** The lines holding every word of `query` in what they give (number, name, colour, remarks) or are placed on. */
export function linesMatching(lines: readonly LineRowView[], query: string): readonly LineRowView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return lines;
  return lines.filter((l) => {
    const text = [
      l.given.no,
      l.given.name,
      l.given.colourName,
      l.givenColour?.name,
      l.remarks,
      l.placed
        ? `${l.placed.no} ${l.placed.shown ?? ''} ${l.placed.name ?? ''} ${l.placed.colourName ?? ''} ${l.placed.via ?? ''}`
        : l.reason?.text,
    ]
      .filter(Boolean)
      .join(' ')
      .toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/**
 * N: the next unplaced line below (Shift+N: above), wrapping; with the filter off too. The line table's
 * key, and the suggestions' (issue 47: a worker going through the unplaced lines from the list). True
 * when it was N.
 */
export function nextUnplacedKey(e: KeyboardEvent, lines: readonly LineRowView[]): boolean {
  if ((e.key !== 'n' && e.key !== 'N') || e.ctrlKey || e.metaKey || e.altKey || lines.length === 0) return false;
  e.preventDefault();
  const { selectedLine, select } = useOrders.getState();
  const index = lines.findIndex((l) => l.id === selectedLine);
  const step = e.key === 'N' ? -1 : 1;
  for (let k = 1; k <= lines.length; k++) {
    const candidate = lines[(((index + step * k) % lines.length) + lines.length) % lines.length];
    if (candidate && candidate.placed === null) {
      void select(candidate.id);
      break;
    }
  }
  return true;
}

/**
 * The line table's keys (SPEC §9): ↑/↓, PageUp/PageDown, Home/End move; N / Shift+N go to the next or
 * previous unplaced line; F forgets the memory that placed the line; Enter or → go to the suggestions —
 * or, for a line unplaced only for its colour, to its colour.
 */
export function lineTableKeys(lines: readonly LineRowView[], table: RefObject<HTMLDivElement | null>) {
  return (e: KeyboardEvent<HTMLDivElement>): void => {
    if (nextUnplacedKey(e, lines)) return;
    if ((e.key === 'f' || e.key === 'F') && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // F: forget the remembered placement that placed (or refused) the selected line (SPEC §6 step 2).
      const { selectedLine, forgetLinesMemory } = useOrders.getState();
      if (lines.find((l) => l.id === selectedLine)?.memory) {
        e.preventDefault();
        void forgetLinesMemory();
      }
      return;
    }
    const { selectedLine, select, highlight } = useOrders.getState();
    const index = lines.findIndex((l) => l.id === selectedLine);
    const last = lines.length - 1;
    const to: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + pageSize(table),
      PageUp: index - pageSize(table),
      Home: 0,
      End: last,
    };
    if (e.key in to && last >= 0) {
      e.preventDefault();
      const next = lines[Math.max(0, Math.min(last, index < 0 && e.key !== 'End' ? 0 : (to[e.key] ?? 0)))];
      if (next) void select(next.id);
    } else if (e.key === 'Enter' || e.key === 'ArrowRight') {
      const st = useOrders.getState();
      const selected = lines[index];
      if (selected?.itemFound && !st.changingItem) {
        // Unplaced only for its colour: its item stays, staff choose the colour (SPEC §9).
        e.preventDefault();
        table.current?.parentElement?.querySelector<HTMLSelectElement>('[data-testid="colour-for-item"]')?.focus();
        return;
      }
      const shown = shownOptions(st);
      if (!shown.current || shown.items.length === 0) return;
      e.preventDefault();
      highlight(0);
      table.current?.parentElement?.querySelector<HTMLOListElement>('.suggestions')?.focus();
    }
  };
}
