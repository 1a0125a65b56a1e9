import type { ReadableDb } from '../store/db.ts';
import { csvCell } from './csv-cell.ts';
import { planOrderExport, refuseUnacknowledged, type ExportPlan, type ExportRow } from './plan.ts';

/** Rebrickable's part-list CSV, as its "Import parts" page reads it. */
export const REBRICKABLE_COLUMNS = ['Part', 'Color', 'Quantity'] as const;

/** Rows of the same part and colour summed, in the order they first come: one row per lot, as Rebrickable keeps them. */
export function rebrickableCsvOf(rows: readonly Pick<ExportRow, 'no' | 'colour' | 'quantity'>[]): string {
  const lots = new Map<string, { no: string; colour: number | null; quantity: number }>();
  for (const r of rows) {
    const k = `${r.no.toLowerCase()}\t${r.colour}`;
    const lot = lots.get(k);
    if (lot === undefined) lots.set(k, { no: r.no, colour: r.colour, quantity: r.quantity });
    else lot.quantity += r.quantity;
  }
  const lines = [...lots.values()].map((l) => [csvCell(l.no), csvCell(l.colour), csvCell(l.quantity)].join(','));
  return `${[REBRICKABLE_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}

/**
 * An order's saved lines as a Rebrickable part list (SPEC §8): Rebrickable's part numbers and colour ids
 * (through the colour table). Refused (`needs-acknowledgement`) while lines have no known Rebrickable
 * number or colour and `accept` does not hold `no-rebrickable-number`; the plan says what was left out.
 */
export function rebrickableCsv(
  db: ReadableDb,
  orderId: number,
  options: { accept?: readonly string[]; includeUnplaced?: boolean } = {},
): { content: string; plan: ExportPlan } {
  const plan = planOrderExport(db, orderId, 'rebrickable', { includeUnplaced: options.includeUnplaced ?? false });
  refuseUnacknowledged(plan, options.accept ?? []);
  return { content: rebrickableCsvOf(plan.rows), plan };
}
