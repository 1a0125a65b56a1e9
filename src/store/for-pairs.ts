import type { ReadableDb } from './db.ts';
import { pairsOfJson } from './dialect.ts';

/** Keys per statement: many thousands of keys are read in a few statements each, not one huge one. */
const CHUNK = 20_000;

/**
 * Rows for many pairs at once, in one statement a chunk on either store: `sql` joins the pairs (`j.a`,
 * `j.b`) to a table. On a server store each statement is a round trip; a question per key would be thousands.
 */
export function forPairs<R>(
  db: ReadableDb,
  pairs: readonly (readonly [string, string])[],
  sql: (pairs: string) => string,
): R[] {
  const out: R[] = [];
  if (pairs.length === 0) return out;
  const statement = db.prepare(sql(pairsOfJson(db)));
  for (let i = 0; i < pairs.length; i += CHUNK)
    out.push(...(statement.all(JSON.stringify(pairs.slice(i, i + CHUNK))) as R[]));
  return out;
}
