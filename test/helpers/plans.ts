/**
 * What a store's statements cost as it grows (issue 61 §1): every statement a connection prepares,
 * recorded as it is prepared (statements built at run time too, which no reading of the source sees) with
 * the values of its first run and the call that ran it; and each statement's plan, read for the tables it
 * reads whole.
 */
import type { ReadableDb, StoreDb } from '../../src/store/db.ts';
import { readerOf } from '../../src/store/reader.ts';
import { onServer } from '../../src/store/dialect.ts';
import { toPostgres } from '../../src/store/postgres/dialect.ts';

/** The tables that grow with the shop: its lines, documents, orders, history and memories. */
export const GROWING = [
  'order_line',
  'document',
  'document_tally',
  'shop_order',
  'undo_step',
  'undo_step_desk',
  'undo_step_catalogue',
  'undo_change',
  'hand_placement',
  'hand_placement_teaching',
  'colour_placement',
  'taught_name',
  'stock_lot',
  'pick_mark',
] as const;

export interface Prepared {
  readonly sql: string;
  /** The values of its first run; null when it was prepared and never run. */
  args: unknown[] | null;
  /** The calls (or other work) that prepared or ran it. */
  readonly by: Set<string>;
}

export interface Recorder {
  readonly prepared: ReadonlyMap<string, Prepared>;
  /** Names the work that runs from now on (a call's name). */
  during(name: string): void;
}

/**
 * Records every statement `db` prepares from now on: better-sqlite3's `prepare`, and on a server store the
 * writes that wait for the next round trip (`later`), which go by their text alone.
 */
export function recordStatements(db: StoreDb): Recorder {
  const prepared = new Map<string, Prepared>();
  let now = 'setup';
  const seen = (sql: string): Prepared => {
    let p = prepared.get(sql);
    if (p === undefined) prepared.set(sql, (p = { sql, args: null, by: new Set() }));
    p.by.add(now);
    return p;
  };
  const ran = (p: Prepared, args: unknown[]) => {
    p.by.add(now);
    if (p.args === null) p.args = args;
  };
  const watch = (connection: ReadableDb) => {
    const prepare = connection.prepare.bind(connection);
    Object.assign(connection, {
      prepare(sql: string) {
        const p = seen(sql);
        const statement = prepare(sql) as unknown as Record<string, (...args: unknown[]) => unknown>;
        for (const method of ['run', 'get', 'all', 'iterate']) {
          const own = statement[method]?.bind(statement);
          if (own === undefined) continue;
          statement[method] = (...args: unknown[]) => {
            ran(p, args);
            return own(...args);
          };
        }
        return statement;
      },
    });
  };
  // The writer's connection, and the reader beside it that a call which only reads goes through (issue 66 §2).
  watch(db);
  const reader = readerOf(db);
  if (reader !== db) watch(reader);
  const server = db as unknown as { later?: (sql: string, args: readonly unknown[]) => unknown };
  if (onServer(db) && server.later !== undefined) {
    const later = server.later.bind(db);
    server.later = (sql: string, args: readonly unknown[]) => {
      ran(seen(sql), [...args]);
      return later(sql, args);
    };
  }
  return {
    prepared,
    during: (name) => {
      now = name;
    },
  };
}

/** A table a plan reads whole, and how the plan says so. */
export interface Scan {
  readonly table: string;
  readonly plan: string;
}

/** Values for a statement never run: NULL for each of its parameters, positional or named. */
function nullsFor(sql: string): unknown[] {
  const params = toPostgres(sql).params;
  const named = params.filter((p): p is string => p !== null);
  const positional = params.filter((p) => p === null).map(() => null);
  return named.length === 0 ? positional : [...positional, Object.fromEntries(named.map((n) => [n, null]))];
}

/** The statements that have a plan to read (not a transaction's, a pragma, nor a table or index made). */
export const explainable = (sql: string): boolean => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql);

/**
 * The tables of `tables` SQLite's plan reads whole: a SCAN of the table (by its rows, or every entry of
 * an index), where a SEARCH would look up only the rows asked for.
 */
export function sqliteScans(db: StoreDb, p: Prepared, tables: readonly string[]): Scan[] {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${p.sql}`).all(...(p.args ?? nullsFor(p.sql))) as { detail: string }[];
  const names = tableNames(p.sql);
  return rows.flatMap(({ detail }) => {
    const m = /^SCAN (\S+)/.exec(detail);
    const table = m === null ? undefined : (names.get(m[1] ?? '') ?? m[1]);
    return table !== undefined && tables.includes(table) ? [{ table, plan: detail }] : [];
  });
}

/** Each name a statement reads a table by (the table's own, or the alias it gives it), and the table. */
function tableNames(sql: string): Map<string, string> {
  const names = new Map<string, string>();
  const keywords = /^(ON|WHERE|JOIN|LEFT|INNER|CROSS|GROUP|ORDER|LIMIT|USING|SET|AS|WITH|UNION|NATURAL|FOR|VALUES)$/i;
  for (const m of sql.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+([a-z_]+)(?:\s+(?:AS\s+)?([a-z_]+))?/gi)) {
    const table = (m[1] ?? '').toLowerCase();
    names.set(table, table);
    const alias = m[2];
    if (alias !== undefined && !keywords.test(alias)) names.set(alias, table);
  }
  return names;
}

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly 'Index Cond'?: string;
  readonly Plans?: readonly PlanNode[];
}

/**
 * The tables of `tables` PostgreSQL's plan reads whole: a sequential scan, or an index walked from end
 * to end (no condition on the index). The caller sets the session to plan as SQLite does (nested loops, no
 * sequential scan where an index answers), so that what is asked is whether an index can answer.
 */
export function postgresScans(db: StoreDb, p: Prepared, tables: readonly string[]): Scan[] {
  const [row] = db.prepare(`EXPLAIN (FORMAT JSON) ${p.sql}`).all(...(p.args ?? nullsFor(p.sql))) as Record<
    string,
    unknown
  >[];
  const json = Object.values(row ?? {})[0];
  const plans = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: PlanNode }[];
  const scans: Scan[] = [];
  const visit = (node: PlanNode) => {
    const table = node['Relation Name'];
    const whole =
      node['Node Type'] === 'Seq Scan' ||
      (/^Index (Only )?Scan$/.test(node['Node Type']) && node['Index Cond'] === undefined);
    if (table !== undefined && whole && tables.includes(table))
      scans.push({
        table,
        plan: `${node['Node Type']} on ${table}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`,
      });
    for (const child of node.Plans ?? []) visit(child);
  };
  for (const plan of plans) visit(plan.Plan);
  return scans;
}
