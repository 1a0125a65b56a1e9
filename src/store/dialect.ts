/**
 * The few phrases a SQLite store and a PostgreSQL store spell differently in substance (ADR 0027 §2),
 * each named once here with both spellings, so a statement that needs one asks for it by name.
 */
import type { StoreDb } from './db.ts';
import { PostgresDatabase } from './postgres/database.ts';

/** Whether `db` is a store on a PostgreSQL server. */
export function onServer(db: StoreDb): boolean {
  return db instanceof PostgresDatabase;
}

/** A one-column table (`value`, an integer) of the numbers in a JSON array given as one parameter. */
export function idsOfJson(db: StoreDb): string {
  return onServer(db)
    ? 'SELECT value::bigint AS value FROM json_array_elements_text(?::json) AS value'
    : 'SELECT value FROM json_each(?)';
}

/** A two-column table (`a`, `b`, texts) of the pairs in a JSON array of pairs given as one parameter. */
export function pairsOfJson(db: StoreDb): string {
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
