/**
 * Issue 61 §1 (SPEC §12 "cost as the store grows"): no call reads a table that grows with the shop from
 * end to end, unless it must (a list of every order, a catalogue load placing every line again); those
 * are named below, each with its reason. Every statement the store prepares while every call of the
 * contract runs once, on a store of 100,000 lines, is put to the engine's planner with the values it ran
 * with: SQLite's `EXPLAIN QUERY PLAN`, PostgreSQL's `EXPLAIN`.
 */
import { expect, it, onTestFinished } from 'vitest';
import { openStore } from '../../src/store/open.ts';
import { driveEveryCall, undriven } from '../helpers/every-call.ts';
import { growStore, loadGrownCatalogue } from '../helpers/grown-store.ts';
import {
  explainable,
  GROWING,
  postgresScans,
  recordStatements,
  sqliteScans,
  type Prepared,
  type Scan,
} from '../helpers/plans.ts';
import { describeEachStore } from '../helpers/stores.ts';

const LINES = 100_000;
/** Orders of a hundred lines: a shop's many small orders, so the lists and the history grow as the lines do. */
const ORDER_LINES = 100;

/**
 * Reads of a growing table from end to end that are meant, each with its reason: the answer is the whole
 * list, or the walk stops after a few rows, or the work is a whole store's. A statement is named by a piece
 * of its text (`sql`), or by the only work that runs it (`by`).
 */
const DELIBERATE: readonly { sql?: string; by?: string; table: string; why: string }[] = [
  {
    sql: 'FROM shop_order o LEFT JOIN document d ON d.order_id = o.id',
    table: 'shop_order',
    why: "orders.list and the summary export list every order (one look-up of each one's documents and tallies)",
  },
  {
    sql: 'FROM shop_order o LEFT JOIN document d ON d.order_id = o.id',
    table: 'document',
    why: "the same list's documents",
  },
  {
    sql: 'FROM shop_order o LEFT JOIN document d ON d.order_id = o.id',
    table: 'document_tally',
    why: "the same list's tallies, on PostgreSQL read in one walk beside the orders'",
  },
  {
    sql: 'FROM document d ORDER BY d.id',
    table: 'document',
    why: 'documents.list without an order lists every document',
  },
  {
    sql: 'SELECT EXISTS (SELECT 1 FROM hand_placement)',
    table: 'hand_placement',
    why: 'whether any memory is kept at all: the first row answers',
  },
  {
    sql: 'FROM undo_step s ORDER BY s.id DESC LIMIT ?',
    table: 'undo_step',
    why: 'history.list: the newest steps, walked from the newest, stopping at the limit',
  },
  {
    sql: "FROM undo_step s WHERE s.state = 'done' AND NOT coalesce(",
    table: 'undo_step',
    why: "a desk's Undo: its newest step, walked from the newest (PostgreSQL by id, SQLite by state), stopping at the desk's first",
  },
  {
    sql: 'FROM taught_name ORDER BY id',
    table: 'taught_name',
    why: 'the suggestion index holds every taught name: read whole when they change, not at each suggestion',
  },
  { sql: 'FROM hand_placement h LEFT JOIN', table: 'hand_placement', why: 'placements.list lists every memory' },
  { sql: 'FROM colour_placement p LEFT JOIN', table: 'colour_placement', why: 'placements.list lists every memory' },
  { sql: 'FROM taught_name t LEFT JOIN', table: 'taught_name', why: 'placements.list lists every memory' },
  {
    sql: "AND nullif(trim(l.given_no), '') IS NULL AND l.given_name IS NOT NULL",
    table: 'order_line',
    why:
      'a memory by name: its names are folded in code, so the lines read are those giving a name and no ' +
      'number that a memory may still move (their own index), not every line',
  },
  {
    sql: 'AND coalesce(l.given_colour_id, 0) = 0 AND l.given_colour_name IS NOT NULL',
    table: 'order_line',
    why:
      'a colour memory by name: folded in code, so the lines read are those giving a colour by name and no ' +
      'id (their own index), not every line',
  },
  { by: 'catalogue.load', table: 'order_line', why: 'a catalogue load places every unplaced saved line again' },
  { by: 'catalogue.load', table: 'document', why: 'a catalogue load places every unplaced saved line again' },
  { by: 'catalogue.load', table: 'shop_order', why: 'a catalogue load says what it placed in every order' },
];

/** Whether a scan of `p` is one of `DELIBERATE`. */
function meant(p: Prepared, scan: Scan): boolean {
  const sql = p.sql.replace(/\s+/g, ' ');
  return DELIBERATE.some(
    (d) =>
      d.table === scan.table &&
      (d.sql === undefined || sql.includes(d.sql)) &&
      (d.by === undefined || (p.by.has(d.by) && p.by.size === 1)),
  );
}

describeEachStore('every statement a call runs is answered by an index (issue 61 §1)', (stores) => {
  it(`on a store of ${LINES.toLocaleString('en')} lines, no call reads a growing table whole but those named`, async () => {
    const location = stores.location();
    const store = await openStore(location);
    onTestFinished(() => store.close());
    await loadGrownCatalogue(store.db, location);
    const grown = await growStore(store.db, location, LINES, ORDER_LINES);
    expect(grown.lines).toBeGreaterThanOrEqual(LINES);

    const rec = recordStatements(store.db);
    const driven = await driveEveryCall(store.db, location, rec, ORDER_LINES);
    rec.during('explain');
    // Every call of the contract ran, but those outside the store.
    expect(undriven(driven)).toEqual([]);

    const server = stores.kind === 'postgres';
    // Planned as SQLite plans, by nested loops and an index wherever one answers: the question is whether
    // an index can answer, not what the planner picks for a table's size today (a memory table of a few
    // hundred rows is rightly read whole; the growth bench times what it picks at a million lines).
    if (server) store.db.exec('SET enable_seqscan = off; SET enable_hashjoin = off; SET enable_mergejoin = off');
    const statements = [...rec.prepared.values()].filter((p) => explainable(p.sql));
    expect(statements.length).toBeGreaterThan(100);
    const found: { p: Prepared; scan: Scan }[] = [];
    for (const p of statements) {
      const scans = server ? postgresScans(store.db, p, GROWING) : sqliteScans(store.db, p, GROWING);
      for (const scan of scans) {
        if (!meant(p, scan)) found.push({ p, scan });
      }
    }
    const said = found.map(
      ({ p, scan }) => `${scan.plan} [${[...p.by].join(', ')}]\n    ${p.sql.replace(/\s+/g, ' ').slice(0, 400)}`,
    );
    expect(said).toEqual([]);
  }, 600_000);
});
