import type { ReadableDb } from '../store/db.ts';
import { formatMoneyE4 } from '../documents/values.ts';
import { listOrders } from '../store/orders.ts';
import { csvCell } from './csv-cell.ts';

export const SUMMARY_COLUMNS = [
  'reference',
  'counterparty',
  'currency',
  'documents',
  'lines',
  'placed',
  'unplaced',
  'total quantity',
  'total value',
] as const;

/** The summary export (SPEC §8): one row per order with saved lines; exact totals; formula cells escaped. */
export function summaryCsv(db: ReadableDb): string {
  const rows = listOrders(db, { savedOnly: true }).map((o) =>
    [
      csvCell(o.reference),
      csvCell(o.counterparty),
      csvCell(o.currency),
      csvCell(o.documents),
      csvCell(o.lines),
      csvCell(o.placed),
      csvCell(o.unplaced),
      csvCell(o.totalQuantity),
      csvCell(formatMoneyE4(o.totalValueE4)),
    ].join(','),
  );
  return `${[SUMMARY_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
