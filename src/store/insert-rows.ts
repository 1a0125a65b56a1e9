import type { StoreDb } from './db.ts';
import { onServer } from './dialect.ts';

/** A value of a row written whole (text, an integer, or none). */
export type RowValue = string | number | null;

/** Rows a statement on a server: an import's 10,000 lines are ten statements, not 10,000 round trips. */
export const SERVER_BATCH = 1_000;

/**
 * Inserts rows into a table keyed by `id`, in their order, and gives their ids in that order; `wrote()`
 * after each row is written. A SQLite store writes a statement a row (in-process, nothing to save); a
 * server store is a round trip away (ADR 0027), so it takes a thousand rows a statement, as JSON, with
 * the columns' own types.
 */
export function insertRows<C extends string>(
  db: StoreDb,
  table: string,
  columns: readonly C[],
  rows: Iterable<Readonly<Record<C, RowValue>>>,
  wrote: () => void = () => {},
): number[] {
  return onServer(db)
    ? insertInBatches(db, table, columns, rows, wrote)
    : insertOneByOne(db, table, columns, rows, wrote);
}

/**
 * A server's insert of many rows given as one JSON array (`?`), with the columns' own types, in the
 * array's order, so the identity column numbers them in that order.
 */
export function insertFromJson(table: string, columns: readonly string[]): string {
  const list = columns.join(', ');
  return `INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, ?::json)
       WITH ORDINALITY AS r ORDER BY r.ordinality`;
}

function insertOneByOne<C extends string>(
  db: StoreDb,
  table: string,
  columns: readonly C[],
  rows: Iterable<Readonly<Record<C, RowValue>>>,
  wrote: () => void,
): number[] {
  const insert = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  const ids: number[] = [];
  const args: RowValue[] = new Array<RowValue>(columns.length);
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) args[i] = row[columns[i] as C] ?? null;
    ids.push(Number(insert.run(...args).lastInsertRowid));
    wrote();
  }
  return ids;
}

function insertInBatches<C extends string>(
  db: StoreDb,
  table: string,
  columns: readonly C[],
  rows: Iterable<Readonly<Record<C, RowValue>>>,
  wrote: () => void,
): number[] {
  // Ids come back sorted to match the rows' order.
  const insert = db.prepare(`${insertFromJson(table, columns)} RETURNING id`);
  const ids: number[] = [];
  let batch: Record<string, RowValue>[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    const written = (insert.all(JSON.stringify(batch)) as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
    ids.push(...written);
    for (let i = 0; i < batch.length; i++) wrote();
    batch = [];
  };
  for (const row of rows) {
    const values: Record<string, RowValue> = {};
    for (const c of columns) values[c] = row[c] ?? null;
    batch.push(values);
    if (batch.length === SERVER_BATCH) flush();
  }
  flush();
  return ids;
}
