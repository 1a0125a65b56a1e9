/**
 * The few phrases a SQLite store and a PostgreSQL store spell differently in substance (ADR 0027 §2),
 * each named once here with both spellings, so a statement that needs one asks for it by name.
 */
import type { ReadableDb, StoreDb } from './db.ts';
import { PostgresDatabase } from './postgres/database.ts';

/** Whether `db` is a store on a PostgreSQL server. */
export function onServer(db: ReadableDb): boolean {
  return db instanceof PostgresDatabase;
}

/**
 * Runs a write whose count may wait for the next round trip (a server store: see `PostgresDatabase`,
 * every round trip is one the other desks wait out under the writer lock); SQLite runs it now. Gives a
 * function that gives its count and id. For a write whose refusal its caller does not catch itself.
 */
export function runLater(
  db: StoreDb,
  sql: string,
  args: readonly unknown[],
): () => { readonly changes: number; readonly lastInsertRowid: number } {
  if (db instanceof PostgresDatabase) return db.runLater(sql, args);
  const r = db.prepare(sql).run(...args);
  const done = { changes: r.changes, lastInsertRowid: Number(r.lastInsertRowid) };
  return () => done;
}

/**
 * Runs a write that answers with rows (`RETURNING`), whose answer may wait for the next round trip as
 * `runLater`'s; SQLite runs it now. Gives a function that gives its rows.
 */
export function rowsLater(
  db: StoreDb,
  sql: string,
  args: readonly unknown[],
): () => readonly Record<string, unknown>[] {
  if (db instanceof PostgresDatabase) {
    const answer = db.later(sql, args);
    return () => answer().rows;
  }
  const rows = db.prepare(sql).all(...args) as Record<string, unknown>[];
  return () => rows;
}

/** A one-column table (`value`, an integer) of the numbers in a JSON array given as one parameter. */
export function idsOfJson(db: ReadableDb): string {
  return onServer(db)
    ? 'SELECT value::bigint AS value FROM json_array_elements_text(?::json) AS value'
    : 'SELECT value FROM json_each(?)';
}

/** A two-column table (`a`, `b`, texts) of the pairs in a JSON array of pairs given as one parameter. */
export function pairsOfJson(db: ReadableDb): string {
  return onServer(db)
    ? 'SELECT p.value ->> 0 AS a, p.value ->> 1 AS b FROM json_array_elements(?::json) AS p(value)'
    : "SELECT p.value ->> '$[0]' AS a, p.value ->> '$[1]' AS b FROM json_each(?) p";
}

/**
 * A table of the rows in a JSON array of arrays given as one parameter, its columns named and typed
 * (`integer` or `text`) in the order of each row's values: many rows written in one statement.
 */
export function rowsOfJson(db: StoreDb, columns: readonly (readonly [string, 'integer' | 'text'])[]): string {
  const server = onServer(db);
  const cols = columns
    .map(([name, type], i) =>
      server
        ? `(p.value ->> ${i})${type === 'integer' ? '::bigint' : ''} AS ${name}`
        : `p.value ->> '$[${i}]' AS ${name}`,
    )
    .join(', ');
  return server ? `SELECT ${cols} FROM json_array_elements(?::json) AS p(value)` : `SELECT ${cols} FROM json_each(?) p`;
}
