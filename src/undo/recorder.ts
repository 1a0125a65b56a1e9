import type { Database } from 'better-sqlite3';
import { checkColumns, UNDOABLE_TABLES, type Change, type UndoableTable, type Value, type Values } from './changes.ts';

/**
 * Writes the rows of one user action and keeps, in the same transaction, what each write changed
 * (Actual Budget's way: before-images recorded with the write; undo is an ordinary write of them).
 */
export class StepRecorder {
  readonly changes: Change[] = [];

  constructor(private readonly db: Database) {}

  /** Inserts a row that undo will remove and redo put back. */
  insert(table: UndoableTable, values: Record<string, Value>): number {
    checkColumns(table, values);
    const cols = Object.keys(values);
    const id = Number(
      this.db
        .prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
        .run(...cols.map((c) => values[c] ?? null)).lastInsertRowid,
    );
    this.changes.push({ table, rowId: id, before: null, after: { ...values } });
    return id;
  }

  /** Updates the columns that differ, keeping their old values. */
  update(table: UndoableTable, id: number, values: Record<string, Value>): void {
    checkColumns(table, values);
    const cols = Object.keys(values);
    if (cols.length === 0) return;
    const current = this.db.prepare(`SELECT ${cols.join(', ')} FROM ${table} WHERE id = ?`).get(id) as
      Record<string, Value> | undefined;
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

  /** A change written by the caller, with the before and after it means (e.g. an import: "undone" before). */
  note(table: UndoableTable, id: number, before: Values | null, after: Values | null): void {
    if (before !== null) checkColumns(table, before);
    if (after !== null) checkColumns(table, after);
    this.changes.push({ table, rowId: id, before, after });
  }
}
