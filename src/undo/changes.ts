import type { StoreDb } from '../store/db.ts';
import { isoNow, type Clock } from '../platform/clock.ts';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import { deleteRow, insertRowWithId, rowExists, updateRow } from '../store/undo-rows.ts';

/**
 * The rows an undo step may change, and their columns: undo and redo only ever write these, with
 * values recorded by brick-work itself.
 */
export const UNDOABLE_TABLES = {
  shop_order: ['reference', 'counterparty', 'counterparty_role', 'currency', 'order_date', 'created_at'],
  document: [
    'order_id',
    'doc_key',
    'file_name',
    'format',
    'state',
    'reference',
    'counterparty',
    'currency',
    'imported_at',
    'undone_at',
  ],
  order_line: [
    'document_id',
    'position',
    'given_type',
    'given_no',
    'given_name',
    'given_colour_id',
    'given_colour_name',
    'quantity',
    'unit_price_e4',
    'condition',
    'remarks',
    'item_type',
    'item_no',
    'colour_id',
    'placed_by',
    'unplaced_reason',
  ],
  // colour_id stays undoable only so that steps written by early 0.9.0 builds still apply; it is never read.
  hand_placement: ['given_type', 'given_no', 'name_key', 'item_type', 'item_no', 'colour_id', 'created_at'],
  colour_placement: ['numbering', 'given_colour_id', 'given_name_key', 'colour_id', 'created_at'],
  taught_name: ['item_type', 'item_no', 'name', 'name_key', 'created_at'],
  hand_placement_teaching: ['placement_id', 'item_type', 'item_no', 'colour_id', 'desk', 'taught_at'],
  pick_mark: ['order_id', 'entry_key', 'picked', 'desk', 'marked_at'],
} as const;

export type UndoableTable = keyof typeof UNDOABLE_TABLES;
export type Value = string | number | null;
/** A value resolved when the change is applied: the time of the undo (e.g. when a document was undone). */
export const NOW = { $now: true } as const;
export type RecordedValue = Value | typeof NOW;
export type Values = Record<string, RecordedValue>;

export interface Change {
  readonly table: UndoableTable;
  readonly rowId: number;
  /** The row's values before the step (only the columns it changed); null: the step made the row. */
  readonly before: Values | null;
  /** …and after it; null: the step removed the row. */
  readonly after: Values | null;
}

/**
 * Refuses a table or column undo can't write back: the one guard every writer of a step and every undo
 * passes. A step read from the store that fails it was not written by brick-work: the store's history is
 * damaged, said so in words (never `internal`), and nothing is written.
 */
export function checkColumns(table: UndoableTable, values: Values): void {
  if (!Object.hasOwn(UNDOABLE_TABLES, table)) throw foreignStep(`${String(table)} is not an undoable table`);
  const allowed: readonly string[] = UNDOABLE_TABLES[table];
  for (const c of Object.keys(values))
    if (!allowed.includes(c)) throw foreignStep(`${table}.${c} is not an undoable column`);
}

function foreignStep(what: string): BrickWorkError {
  return new BrickWorkError(
    'store-damaged',
    `The undo history names something undo never writes (${quote(what)}): it was not written by brick-work, so ` +
      'nothing was changed. Put back a copy of the store from a backup, or ask for help.',
  );
}

function resolve(values: Values, clock: Clock): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(values)) out[k] = typeof v === 'object' && v !== null ? isoNow(clock) : v;
  return out;
}

/**
 * Writes one side of a change (`before` to undo, `after` to redo) as an ordinary write: a row the side
 * says did not exist is deleted, a row it holds is inserted or updated to those values.
 */
export function applySide(db: StoreDb, change: Change, side: 'before' | 'after', clock: Clock): void {
  const values = change[side];
  const { table, rowId } = change;
  // Before any SQL names the table: a delete too (the table name comes from the store).
  checkColumns(table, values ?? {});
  if (values === null) {
    deleteRow(db, table, rowId);
    return;
  }
  const row = resolve(values, clock);
  if (rowExists(db, table, rowId)) {
    const cols = Object.keys(row);
    if (cols.length === 0) return;
    updateRow(db, table, rowId, cols, row);
  } else {
    insertRowWithId(db, table, rowId, row);
  }
}
