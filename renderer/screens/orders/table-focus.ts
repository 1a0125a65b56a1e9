import type { RefObject } from 'react';
import { ROW_HEIGHT } from '../../components/LineTable.tsx';

/** How many rows one PageUp/PageDown moves: what the table shows at once. */
export function pageSize(table: RefObject<HTMLDivElement | null>): number {
  const height = table.current?.querySelector<HTMLDivElement>('.line-table')?.clientHeight ?? ROW_HEIGHT * 10;
  return Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
}

/** Gives the line table the focus (after a placement, or leaving the suggestions). */
export function focusTable(table: RefObject<HTMLDivElement | null>): void {
  table.current?.querySelector<HTMLDivElement>('.line-table')?.focus();
}
