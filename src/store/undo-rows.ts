/**
 * The rows an undo step writes and reads by name, one row by its `id`: what a step's writer records and
 * what Undo and Redo write back (ordinary writes). The table and column names come from undo's own list
 * (`UNDOABLE_TABLES`), checked by the caller before any of these names them.
 */
import type { StoreDb } from './db.ts';
import { runLater } from './dialect.ts';
import type { RowValue } from './insert-rows.ts';

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Inserts a row; gives its id. */
export function insertRow(db: StoreDb, table: string, values: Readonly<Record<string, RowValue>>): number {
  const cols = Object.keys(values);
  return Number(
    db
      .prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${placeholders(cols.length)})`)
      .run(...cols.map((c) => values[c] ?? null)).lastInsertRowid,
  );
}

/**
 * Inserts a row unless one with the same unique key is there: one statement where a look first and an
 * insert would be two (a server store pays a round trip a statement). Its answer may come with the next
 * round trip (a server store): gives a function that gives the new row's id, or null when one was there
 * (nothing written), asked for the first time it is called.
 */
export function insertRowUnlessThere(
  db: StoreDb,
  table: string,
  values: Readonly<Record<string, RowValue>>,
): () => number | null {
  const cols = Object.keys(values);
  const answer = runLater(
    db,
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${placeholders(cols.length)}) ON CONFLICT DO NOTHING`,
    cols.map((c) => values[c] ?? null),
  );
  let id: number | null | undefined;
  return () => {
    if (id === undefined) {
      const r = answer();
      id = r.changes === 0 ? null : Number(r.lastInsertRowid);
    }
    return id;
  };
}

/** Inserts a row under a given id (a row an undo or redo brings back). */
export function insertRowWithId(
  db: StoreDb,
  table: string,
  id: number,
  values: Readonly<Record<string, RowValue>>,
): void {
  const cols = Object.keys(values);
  db.prepare(`INSERT INTO ${table} (id, ${cols.join(', ')}) VALUES (?, ${placeholders(cols.length)})`).run(
    id,
    ...cols.map((c) => values[c] ?? null),
  );
}

/** Row `id`'s values of `columns`; undefined when there is no such row. */
export function rowValues(
  db: StoreDb,
  table: string,
  id: number,
  columns: readonly string[],
): Record<string, RowValue> | undefined {
  return db.prepare(`SELECT ${columns.join(', ')} FROM ${table} WHERE id = ?`).get(id) as
    Record<string, RowValue> | undefined;
}

export function rowExists(db: StoreDb, table: string, id: number): boolean {
  return db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== undefined;
}

/** Sets `columns` (at least one) of row `id` to their `values`. */
export function updateRow(
  db: StoreDb,
  table: string,
  id: number,
  cols: readonly string[],
  values: Readonly<Record<string, RowValue>>,
): void {
  db.prepare(`UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(
    ...cols.map((c) => values[c] ?? null),
    id,
  );
}

export function deleteRow(db: StoreDb, table: string, id: number): void {
  db.prepare(`DELETE FROM ${table} WHERE id = ?`).run(id);
}

/** The ids of a document's lines, asked document by document: read once, asked for each. */
export function lineIdsOfDocuments(db: StoreDb): (documentId: number) => number[] {
  const ofDocument = db.prepare('SELECT id FROM order_line WHERE document_id = ?').pluck();
  return (documentId) => ofDocument.all(documentId) as number[];
}
