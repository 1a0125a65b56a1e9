/**
 * Issue 66 §6: PostgreSQL problems found before PostgreSQL. The store writes its statements in SQLite's
 * dialect and a server store translates each as it is prepared (`store/postgres/dialect.ts`), refusing a
 * phrase only SQLite reads. Here, on a SQLite file and without a server, every statement the store prepares
 * while every call of the contract runs once (the plan test's run, issue 61 §1, recorded the same way, on a
 * small store) is put to that translation: a new query with such a phrase fails the quick lane, not only
 * the full suite's PostgreSQL half.
 */
import { expect, it, onTestFinished } from 'vitest';
import type { ReadableDb } from '../../src/store/db.ts';
import { idsOfJson, pairsOfJson } from '../../src/store/dialect.ts';
import { openStore } from '../../src/store/open.ts';
import { toPostgres } from '../../src/store/postgres/dialect.ts';
import { driveEveryCall, undriven } from '../helpers/every-call.ts';
import { growStore, loadGrownCatalogue } from '../helpers/grown-store.ts';
import { recordStatements } from '../helpers/plans.ts';
import { newStoreLocation } from '../helpers/stores.ts';

/** Orders of a hundred lines, two thousand lines in all: enough for every call to have what it names. */
const ORDER_LINES = 100;
const LINES = 2_000;

/**
 * The statements the store prepares on a SQLite store only, each with where the server is given its own
 * (named by a piece of their text). Each must still be prepared: a piece no statement holds is stale.
 */
const SQLITE_ONLY: readonly { sql: string; why: string }[] = [
  {
    sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?",
    why: "catalogue-stage.ts: a staged table made from its table's own SQL; the server's is made LIKE the table",
  },
  {
    sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?",
    why: "catalogue-stage.ts: SQLite's transfer into an empty table makes its indexes again; the server's merges",
  },
];

/**
 * The phrases `store/dialect.ts` spells for each engine, as it spells them for SQLite (`db`): a statement
 * that holds one is given the server's spelling there, so the rest of it is what is checked.
 */
const dialectPhrases = (db: ReadableDb): string[] => [idsOfJson(db), pairsOfJson(db)];

/** Why the translation refuses `sql`, or null: it reaches a server as it is. */
function refusal(sql: string, phrases: readonly string[]): string | null {
  let rest = sql;
  for (const phrase of phrases) rest = rest.replaceAll(phrase, 'SELECT NULL AS value');
  try {
    toPostgres(rest);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The statements of `statements` the translation refuses, but those named in `SQLITE_ONLY`. */
function refused(statements: Iterable<string>, phrases: readonly string[]): string[] {
  return [...statements].flatMap((sql) => {
    if (SQLITE_ONLY.some((s) => sql.includes(s.sql))) return [];
    const why = refusal(sql, phrases);
    return why === null ? [] : [why];
  });
}

it('the check refuses a statement with a phrase only SQLite reads, where the dialect’s own phrases pass', async () => {
  const store = await openStore(newStoreLocation());
  onTestFinished(() => store.close());
  const phrases = dialectPhrases(store.db);
  expect(
    refused(
      [
        'INSERT OR IGNORE INTO setting (key, value) VALUES (?, ?)',
        'SELECT id FROM order_line WHERE given_no IS ?',
        `SELECT l.id FROM (${idsOfJson(store.db)}) j JOIN order_line l ON l.id = j.value WHERE l.given_no GLOB ?`,
        "SELECT name FROM sqlite_master WHERE type = 'table'",
        `SELECT l.id FROM order_line l WHERE l.id IN (${idsOfJson(store.db)})`,
        `SELECT c.name FROM (${pairsOfJson(store.db)}) j JOIN catalogue_item c ON c.item_no = j.b`,
        "SELECT json_extract(d.reading, '$.columns') FROM document d",
      ],
      phrases,
    ),
  ).toEqual([
    expect.stringContaining('(INSERT OR …)'),
    expect.stringContaining('(IS / IS NOT between values'),
    expect.stringContaining('(GLOB)'),
    expect.stringContaining("(SQLite's own tables)"),
    // SQLite's JSON written by hand, not a phrase of the dialect: the server would refuse it.
    expect.stringContaining("(SQLite's JSON functions)"),
  ]);
});

it('every statement the store prepares for the calls of the contract is one the PostgreSQL translation takes', async () => {
  const location = newStoreLocation();
  const store = await openStore(location);
  onTestFinished(() => store.close());
  // From the first catalogue load on: a load into an empty store prepares what later ones do not.
  const rec = recordStatements(store.db);
  await loadGrownCatalogue(store.db, location);
  await growStore(store.db, location, LINES, ORDER_LINES);
  const driven = await driveEveryCall(store.db, location, rec, ORDER_LINES);
  expect(undriven(driven)).toEqual([]);

  const statements = [...rec.prepared.keys()];
  expect(statements.length).toBeGreaterThan(150);
  expect(refused(statements, dialectPhrases(store.db))).toEqual([]);
  // Each statement named as SQLite's own is still prepared, and still refused by the translation.
  for (const { sql } of SQLITE_ONLY) {
    const held = statements.filter((s) => s.includes(sql));
    expect(held, sql).not.toEqual([]);
    for (const s of held) expect(refusal(s, []), sql).not.toBeNull();
  }
}, 120_000);
