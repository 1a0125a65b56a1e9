/**
 * Each pick list entry's mark (SPEC §16): how many of its pieces are picked, by which desk, when — one
 * row an entry (`UNIQUE (order_id, entry_key)`), so two desks marking the same lot never add up. Marks are
 * written through an undo step's recorder (`pick_mark` is an undoable table); these are its reads.
 */
import type { ReadableDb } from './db.ts';

export interface PickMarkRow {
  readonly id: number;
  readonly key: string;
  readonly picked: number;
  readonly desk: string;
  readonly markedAt: string;
}

const COLUMNS = 'id, entry_key AS key, picked, desk, marked_at AS markedAt';

/** Every mark of an order (every desk's), by its unique key's index. */
export function pickMarksOfOrder(db: ReadableDb, orderId: number): PickMarkRow[] {
  return db.prepare(`SELECT ${COLUMNS} FROM pick_mark WHERE order_id = ? ORDER BY id`).all(orderId) as PickMarkRow[];
}

/** One entry's mark, or null: none was ever set. */
export function pickMarkOf(db: ReadableDb, orderId: number, key: string): PickMarkRow | null {
  const row = db.prepare(`SELECT ${COLUMNS} FROM pick_mark WHERE order_id = ? AND entry_key = ?`).get(orderId, key) as
    PickMarkRow | undefined;
  return row ?? null;
}
