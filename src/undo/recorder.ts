import type { StoreDb } from '../store/db.ts';
import { insertRows } from '../store/insert-rows.ts';
import { deleteRow, insertRow, insertRowUnlessThere, rowValues, updateRow } from '../store/undo-rows.ts';
import type { Clock } from '../platform/clock.ts';
import {
  applySide,
  checkColumns,
  UNDOABLE_TABLES,
  type Change,
  type UndoableTable,
  type Value,
  type Values,
} from './changes.ts';

/**
 * Writes the rows of one user action and keeps, in the same transaction, what each write changed
 * (Actual Budget's way: before-images recorded with the write; undo is an ordinary write of them).
 */
export class StepRecorder {
  /** The changes in the order they were written; a write whose answer is still to come holds its place. */
  private readonly written: (Change | (() => Change | null))[] = [];

  constructor(
    private readonly db: StoreDb,
    private readonly clock: Clock,
  ) {}

  /** What the step changed, in the order it was written (each answer still to come asked for now). */
  get changes(): Change[] {
    const out: Change[] = [];
    for (const [i, w] of this.written.entries()) {
      const change = typeof w === 'function' ? w() : w;
      if (change === null) continue;
      this.written[i] = change;
      out.push(change);
    }
    return out;
  }

  /** Inserts a row that undo will remove and redo put back. */
  insert(table: UndoableTable, values: Record<string, Value>): number {
    checkColumns(table, values);
    const id = insertRow(this.db, table, values);
    this.written.push({ table, rowId: id, before: null, after: { ...values } });
    return id;
  }

  /**
   * Inserts a row unless one with the same unique key is there: one statement where a look first and an
   * insert would be two (a server store pays a round trip a statement). Gives a function that gives the
   * new row's id, or null when one was there (nothing written).
   */
  insertUnlessThere(table: UndoableTable, values: Record<string, Value>): () => number | null {
    checkColumns(table, values);
    // Its answer may come with the next round trip (a server store): asked for when read, or when the
    // step's changes are, whichever comes first.
    const read = insertRowUnlessThere(this.db, table, values);
    this.written.push(() => {
      const rowId = read();
      return rowId === null ? null : { table, rowId, before: null, after: { ...values } };
    });
    return read;
  }

  /**
   * Updates the columns that differ, keeping their old values. `known`: the row's values as the caller
   * read them in this same transaction, under the writer lock (a server store pays a round trip a read).
   */
  update(
    table: UndoableTable,
    id: number,
    values: Record<string, Value>,
    known?: Readonly<Record<string, Value>>,
  ): void {
    checkColumns(table, values);
    const cols = Object.keys(values);
    if (cols.length === 0) return;
    const current = known !== undefined && cols.every((c) => c in known) ? known : rowValues(this.db, table, id, cols);
    if (current === undefined) throw new Error(`${table} ${id} is not there to update`);
    const changed = cols.filter((c) => current[c] !== values[c]);
    if (changed.length === 0) return;
    updateRow(this.db, table, id, changed, values);
    this.written.push({
      table,
      rowId: id,
      before: Object.fromEntries(changed.map((c) => [c, current[c] ?? null])),
      after: Object.fromEntries(changed.map((c) => [c, values[c] ?? null])),
    });
  }

  /**
   * Records an update the caller made itself (one statement that wrote and gave the old values back):
   * the columns that differ, as `update` records them.
   */
  updated(
    table: UndoableTable,
    id: number,
    before: Readonly<Record<string, Value>>,
    after: Record<string, Value>,
  ): void {
    checkColumns(table, after);
    const changed = Object.keys(after).filter((c) => before[c] !== after[c]);
    if (changed.length === 0) return;
    this.written.push({
      table,
      rowId: id,
      before: Object.fromEntries(changed.map((c) => [c, before[c] ?? null])),
      after: Object.fromEntries(changed.map((c) => [c, after[c] ?? null])),
    });
  }

  /** Deletes a row that undo will put back as it was. */
  delete(table: UndoableTable, id: number): void {
    checkColumns(table, {});
    const cols: readonly string[] = UNDOABLE_TABLES[table];
    const current = rowValues(this.db, table, id, cols);
    if (current === undefined) return;
    deleteRow(this.db, table, id);
    this.written.push({ table, rowId: id, before: current, after: null });
  }

  /**
   * Sets columns of a row to `after` (NOW: the time of the write, and of a redo), recording `before` as
   * what undo writes back: a change whose meaning is its state, as taking back a document is.
   */
  set(table: UndoableTable, id: number, before: Values, after: Values): void {
    checkColumns(table, before);
    checkColumns(table, after);
    const change: Change = { table, rowId: id, before, after };
    applySide(this.db, change, 'after', this.clock);
    this.written.push(change);
  }

  /**
   * Inserts a row that undo keeps, writing `undoneAs` over it instead (an import's document: undone, not
   * deleted, so its key can be imported again to revive it, SPEC §8).
   */
  insertKept(table: UndoableTable, values: Record<string, Value>, undoneAs: Values): number {
    checkColumns(table, values);
    checkColumns(table, undoneAs);
    const id = insertRow(this.db, table, values);
    const after = Object.fromEntries(Object.keys(undoneAs).map((c) => [c, values[c] ?? null]));
    this.written.push({ table, rowId: id, before: undoneAs, after });
    return id;
  }

  /**
   * Inserts rows whose life undo leaves to another change of the step (an import's order and lines: undo
   * marks the document undone, and its rows stay, SPEC §8). Many rows, one prepared statement (on a server,
   * a statement for many rows: `insertRows`): an import writes up to 200,000 of them, and records none, so
   * undo's speed does not grow with them.
   */
  insertAllKept<C extends string>(
    table: UndoableTable,
    columns: readonly C[],
    rows: Iterable<Readonly<Record<C, Value>>>,
    wrote: () => void = () => {},
  ): number[] {
    checkColumns(table, Object.fromEntries(columns.map((c) => [c, null])));
    return insertRows(this.db, table, columns, rows, wrote);
  }
}
