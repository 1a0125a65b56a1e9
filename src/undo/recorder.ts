import type { StoreDb } from '../store/db.ts';
import { insertRows } from '../store/insert-rows.ts';
import type { Clock } from '../clock.ts';
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
  readonly changes: Change[] = [];

  constructor(
    private readonly db: StoreDb,
    private readonly clock: Clock,
  ) {}

  /** Inserts a row that undo will remove and redo put back. */
  insert(table: UndoableTable, values: Record<string, Value>): number {
    checkColumns(table, values);
    const id = this.insertRow(table, values);
    this.changes.push({ table, rowId: id, before: null, after: { ...values } });
    return id;
  }

  /**
   * Inserts a row unless one with the same unique key is there (then nothing, and null): one statement
   * where a look first and an insert would be two (a server store pays a round trip a statement).
   */
  insertUnlessThere(table: UndoableTable, values: Record<string, Value>): number | null {
    checkColumns(table, values);
    const cols = Object.keys(values);
    const r = this.db
      .prepare(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`,
      )
      .run(...cols.map((c) => values[c] ?? null));
    if (r.changes === 0) return null;
    const id = Number(r.lastInsertRowid);
    this.changes.push({ table, rowId: id, before: null, after: { ...values } });
    return id;
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
    const current =
      known !== undefined && cols.every((c) => c in known)
        ? known
        : (this.db.prepare(`SELECT ${cols.join(', ')} FROM ${table} WHERE id = ?`).get(id) as
            Record<string, Value> | undefined);
    if (current === undefined) throw new Error(`${table} ${id} is not there to update`);
    const changed = cols.filter((c) => current[c] !== values[c]);
    if (changed.length === 0) return;
    this.db
      .prepare(`UPDATE ${table} SET ${changed.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`)
      .run(...changed.map((c) => values[c] ?? null), id);
    this.changes.push({
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
    this.changes.push({
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
    const current = this.db.prepare(`SELECT ${cols.join(', ')} FROM ${table} WHERE id = ?`).get(id) as
      Record<string, Value> | undefined;
    if (current === undefined) return;
    this.db.prepare(`DELETE FROM ${table} WHERE id = ?`).run(id);
    this.changes.push({ table, rowId: id, before: current, after: null });
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
    this.changes.push(change);
  }

  /**
   * Inserts a row that undo keeps, writing `undoneAs` over it instead (an import's document: undone, not
   * deleted, so its key can be imported again to revive it, SPEC §8).
   */
  insertKept(table: UndoableTable, values: Record<string, Value>, undoneAs: Values): number {
    checkColumns(table, values);
    checkColumns(table, undoneAs);
    const id = this.insertRow(table, values);
    const after = Object.fromEntries(Object.keys(undoneAs).map((c) => [c, values[c] ?? null]));
    this.changes.push({ table, rowId: id, before: undoneAs, after });
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

  private insertRow(table: UndoableTable, values: Record<string, Value>): number {
    const cols = Object.keys(values);
    return Number(
      this.db
        .prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
        .run(...cols.map((c) => values[c] ?? null)).lastInsertRowid,
    );
  }
}
