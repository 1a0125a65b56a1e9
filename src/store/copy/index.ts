/**
 * `store copy` (SPEC §14, ADR 0027 §8): moves a shop's store between a SQLite file and a PostgreSQL
 * server, either way (or file to file, server to server), table by table in key order, in ONE write
 * transaction on the receiving side — a failure, or a kill, leaves it without a row — into an empty
 * store only, and checked inside that transaction before it commits: each table's rows equal the
 * source's (count and a hash of them in key order), and so do the documents' tallies.
 *
 * What is not carried, and why:
 * - `document_tally` is not copied: the receiving side counts the lines that arrive (SQLite by its
 *   triggers, a server in one statement after them: `withTallyCountedAfter`), so its tally equal to the
 *   source's kept one IS the check that the lines came over whole. Only rows of zeros (a document whose
 *   lines are all gone keeps one) are written as they are.
 * - The catalogue job's record (catalogue-job.json beside a file, `catalogue_job_state` on a server):
 *   it tells of a job that ran on the other store, owned by a process or session of that place; what it
 *   loaded is in the catalogue's tables, which are copied. A `running` one is never carried, and a
 *   finished one is not either: the copy starts with no catalogue job.
 * - The receiving store's own fix-up marks (a new SQLite store's `fixup.…` settings) stay, beside the
 *   source's settings: a copy into a file must not be "repaired" again by its next open.
 */
import { BrickWorkError, isBrickWorkError, quote } from '../../vocabulary/errors.ts';
import { isServerAddress, storeName } from '../../vocabulary/store-location.ts';
import path from 'node:path';
import type { StoreDb } from '../db.ts';
import { onServer } from '../dialect.ts';
import { PostgresError } from '../postgres/bridge.ts';
import { TABLES, TABLES_WITH_ID } from '../schema/tables-4.2.ts';
import { notEmpty, openDestination, openSource, refuseUnlessEmpty, rowsIn, type Progress } from './ends.ts';
import {
  batchSize,
  countRows,
  Digester,
  digestOf,
  inserter,
  rowsInKeyOrder,
  shapeOf,
  type Row,
  type RowsDigest,
  type TableShape,
} from './rows.ts';

export interface CopyOptions {
  /** Told what the copy is doing (a line at a time, for a log or stderr). */
  readonly onProgress?: Progress;
}

export interface CopiedTable {
  readonly table: string;
  readonly rows: number;
}

export interface CopyReport {
  /** The two stores as staff name them (a server without its password). */
  readonly from: string;
  readonly to: string;
  /** The source's schema when it was older: it was upgraded in a private copy, never in place. */
  readonly upgradedFrom: string | null;
  /** Each table copied, in the order it was, with its rows (each checked equal to the source's). */
  readonly tables: readonly CopiedTable[];
  readonly rows: number;
  /** Documents whose tallies were checked equal to the source's. */
  readonly tallies: number;
  readonly ms: number;
}

const TALLY = 'document_tally';
const LINES = 'order_line';
const SETTING = 'setting';
/** Kept where each store keeps it; see the head of this file. */
const NOT_CARRIED = new Set<string>([TALLY, 'catalogue_job_state']);

/**
 * The tables in the order they are filled: parents before children, and the settings last, as the
 * taught names' triggers write one (`taught.generation`) that the source's value then replaces.
 */
export const COPY_ORDER: readonly string[] = [...TABLES.filter((t) => !NOT_CARRIED.has(t) && t !== SETTING), SETTING];

/** How often a long table says how far it is. */
const PROGRESS_EVERY = 50_000;

export async function copyStore(from: string, to: string, options: CopyOptions = {}): Promise<CopyReport> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  if (sameStore(from, to)) {
    throw new BrickWorkError('invalid-argument', `--from and --to name the same store (${storeName(from)}).`);
  }
  const was = await refuseUnlessEmpty(to);
  const source = await openSource(from, progress);
  try {
    const destination = await openDestination(to, was, progress);
    let copied: { tables: CopiedTable[]; tallies: number };
    try {
      copied = copyRows(source.db, destination.db, { from, to }, progress);
    } catch (e) {
      destination.discard();
      throw e;
    }
    try {
      // A server plans its queries by statistics: have them now, not at autovacuum's next round.
      if (onServer(destination.db)) destination.db.exec('ANALYZE');
    } finally {
      destination.close();
    }
    return {
      from: storeName(from),
      to: storeName(to),
      upgradedFrom: source.upgradedFrom,
      tables: copied.tables,
      rows: copied.tables.reduce((n, t) => n + t.rows, 0),
      tallies: copied.tallies,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    source.close();
  }
}

function sameStore(a: string, b: string): boolean {
  if (isServerAddress(a) !== isServerAddress(b)) return false;
  return isServerAddress(a) ? storeName(a) === storeName(b) : path.resolve(a) === path.resolve(b);
}

interface Names {
  readonly from: string;
  readonly to: string;
}

/** Every row, in one write transaction on `dst`, read from one snapshot of `src`; checked before it commits. */
function copyRows(
  src: StoreDb,
  dst: StoreDb,
  names: Names,
  progress: Progress,
): { tables: CopiedTable[]; tallies: number } {
  return dst
    .transaction(() => {
      // Looked at again under the write lock: no other desk wrote into it since.
      const there = rowsIn(dst);
      if (there.total > 0) throw notEmpty(names.to, `${there.total} rows (${there.tables.join(', ')})`);
      const born = new Map(
        (dst.prepare('SELECT key, value FROM setting').raw().all() as [string, string][]).map(([k, v]) => [k, v]),
      );
      const shapes = new Map<string, TableShape>();
      const sourceDigests = new Map<string, RowsDigest>();
      let sourceSettings = new Set<string>();

      readSnapshot(src, () => {
        for (const table of COPY_ORDER) {
          const shape = sameShape(src, dst, table);
          shapes.set(table, shape);
          const total = countRows(src, table);
          progress(`copying ${table}: ${total} rows`);
          if (table === SETTING) {
            // The triggers' `taught.generation` and the new store's own marks go; the marks come back
            // where the source has none of its own.
            sourceSettings = new Set(src.prepare('SELECT key FROM setting').pluck().all() as string[]);
            dst.prepare('DELETE FROM setting').run();
            const kept = [...born].filter(([k]) => !sourceSettings.has(k));
            inserter(dst, shape)(kept.map(([k, v]) => reorder(shape, k, v)));
          }
          if (table === LINES && onServer(dst)) {
            sourceDigests.set(
              table,
              withTallyCountedAfter(dst, () => copyTable(src, dst, shape, total, names, progress)),
            );
          } else sourceDigests.set(table, copyTable(src, dst, shape, total, names, progress));
        }
        const tally = sameShape(src, dst, TALLY);
        shapes.set(TALLY, tally);
        sourceDigests.set(TALLY, digestOf(src, tally, batchSize(tally)));
        // A tally of zeros is what a document whose lines are all gone keeps: no line brings it over.
        const zeros = 'lines = 0 AND placed = 0 AND quantity = 0 AND value_e4 = 0';
        copyTable(src, dst, tally, countRows(src, TALLY, zeros), names, () => {}, zeros, ' ON CONFLICT DO NOTHING');
      });

      progress('checking the copy: every table row for row, and the tally');
      const bornOnly = new Set([...born.keys()].filter((k) => !sourceSettings.has(k)));
      const tables: CopiedTable[] = [];
      for (const table of [...COPY_ORDER, TALLY]) {
        const shape = shapes.get(table) as TableShape;
        const key = shape.columns.indexOf('key');
        const copy = digestOf(
          dst,
          shape,
          batchSize(shape),
          table === SETTING ? (row) => bornOnly.has(String(row[key])) : undefined,
        );
        const original = sourceDigests.get(table) as RowsDigest;
        if (copy.rows !== original.rows || copy.hash !== original.hash) throw differs(table, original, copy, names);
        if (table !== TALLY) tables.push({ table, rows: copy.rows });
      }
      if (onServer(dst)) {
        // Ids came over as they were; each table's identity goes on past its largest, so the next insert doesn't collide.
        for (const table of TABLES_WITH_ID) {
          dst.prepare(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), max(id)) FROM "${table}"`).get();
        }
      }
      return { tables, tallies: countRows(dst, TALLY, 'lines > 0') };
    })
    .immediate();
}

/**
 * On a server, the lines go in with the tally's insert trigger off, and the tallies are then counted
 * from them in one statement. The trigger updates its document's one tally row per line, and
 * PostgreSQL keeps every version of a row a transaction updated: 50,000 lines of one document took 29 s
 * that way, 3 s this way. SQLite's trigger costs nothing like it and stays on. Either way the tally
 * is counted from the copied lines and then checked against the source's own, kept one.
 */
function withTallyCountedAfter<T>(dst: StoreDb, fn: () => T): T {
  dst.exec('ALTER TABLE order_line DISABLE TRIGGER document_tally_line_insert');
  const result = fn();
  dst.exec(
    `INSERT INTO document_tally (document_id, lines, placed, quantity, value_e4)
       SELECT document_id, count(*), count(item_no), sum(quantity), sum(quantity * coalesce(unit_price_e4, 0))
         FROM order_line GROUP BY document_id`,
  );
  dst.exec('ALTER TABLE order_line ENABLE TRIGGER document_tally_line_insert');
  return result;
}

/**
 * Runs `fn` reading one moment of `src`: a SQLite read transaction (the private copy has no other
 * writer anyway), or on a server REPEATABLE READ, so that no desk's write lands between two tables.
 */
function readSnapshot(src: StoreDb, fn: () => void): void {
  src.transaction(() => {
    if (onServer(src)) src.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    fn();
  })();
}

/** The table's shape, the same on both ends (both are this build's schema: anything else is a bug). */
function sameShape(src: StoreDb, dst: StoreDb, table: string): TableShape {
  const a = shapeOf(src, table);
  const b = shapeOf(dst, table);
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((c, i) => c === y[i]);
  if (a.columns.length === 0 || !same([...a.columns].sort(), [...b.columns].sort()) || !same(a.keys, b.keys)) {
    throw new Error(`store copy: ${table} is not the same table on both ends`);
  }
  return a;
}

/** A setting row in `shape`'s column order. */
function reorder(shape: TableShape, key: string, value: string): Row {
  return shape.columns.map((c) => (c === 'key' ? key : value));
}

/** Copies one table's rows (those `where` picks), hashing them as they pass. */
function copyTable(
  src: StoreDb,
  dst: StoreDb,
  shape: TableShape,
  total: number,
  names: Names,
  progress: Progress,
  where = '',
  conflict = '',
): RowsDigest {
  const size = batchSize(shape);
  const write = inserter(dst, shape, conflict);
  const digest = new Digester();
  let done = 0;
  let told = 0;
  const read = where === '' ? rowsInKeyOrder(src, shape, size) : picked(src, shape, where, size);
  for (const rows of read) {
    try {
      write(rows);
    } catch (e) {
      throw refusedRow(shape.table, e, names);
    }
    digest.add(rows);
    done += rows.length;
    if (done - told >= PROGRESS_EVERY) {
      told = done;
      progress(`copying ${shape.table}: ${done} of ${total} rows`);
    }
  }
  return digest.digest();
}

/** The few rows of a table `where` picks (the tally's zeros): a plain read, in key order. */
function* picked(src: StoreDb, shape: TableShape, where: string, size: number): Generator<Row[]> {
  const cols = shape.columns.map((c) => `"${c}"`).join(', ');
  const rows = src
    .prepare(
      `SELECT ${cols} FROM "${shape.table}" WHERE ${where} ORDER BY ${shape.keys.map((k) => `"${k}"`).join(', ')}`,
    )
    .raw()
    .all() as Row[];
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/**
 * A row the receiving store refused: it breaks one of the store's own rules there (a key, a foreign key,
 * a check), or holds a value the engine can't keep. A store that only brick-work wrote has none, so it
 * is the source that is not sound; the copy is not made.
 */
function refusedRow(table: string, e: unknown, names: Names): unknown {
  if (isBrickWorkError(e)) return e;
  const sqlite = String((e as { code?: unknown }).code ?? '');
  const rule =
    (e instanceof PostgresError && /^2[23]/.test(e.sqlstate ?? '')) ||
    sqlite.startsWith('SQLITE_CONSTRAINT') ||
    sqlite === 'SQLITE_MISMATCH';
  if (!rule) return e;
  return new BrickWorkError(
    'store-damaged',
    `The copy was not made: a row of ${table} in ${storeName(names.from)} breaks the store's rules, so ` +
      `${storeName(names.to)} refused it (${quote((e as Error).message)}). Nothing of it was kept in ` +
      `${storeName(names.to)}, and ${storeName(names.from)} was not changed.`,
  );
}

function differs(table: string, original: RowsDigest, copy: RowsDigest, names: Names): BrickWorkError {
  const what =
    table === TALLY
      ? `the documents' tallies counted from the copied lines differ from ${storeName(names.from)}'s own`
      : original.rows === copy.rows
        ? `its ${table} holds ${copy.rows} rows as the source does, but not the same ones`
        : `its ${table} holds ${copy.rows} rows, the source ${original.rows}`;
  return new BrickWorkError(
    'store-damaged',
    `The copy was not kept: ${what}. Nothing of it was kept in ${storeName(names.to)}, and ` +
      `${storeName(names.from)} was not changed.`,
  );
}
