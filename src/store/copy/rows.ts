/**
 * A table's rows as `store copy` moves and checks them, on either engine: its columns and key read from
 * the engine's own catalogue, its rows read in key order a batch at a time (never the whole table in
 * memory), written back as multi-row INSERTs, and summed up as a count and a hash.
 *
 * Both engines read the rows in the same order: the key columns, texts compared byte by byte (SQLite's
 * BINARY, PostgreSQL's "C"; UTF-8 bytes order code points alike), whatever collation a column has for
 * the core (NOCASE, or the server's locale, which orders texts differently). So one table's hash is the
 * same on both exactly when its rows are: values as the core reads them (the bridge gives int8 as
 * numbers and truths as 1 and 0, as SQLite does).
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { StoreDb, StoreStatement } from '../db.ts';
import { onServer } from '../dialect.ts';

export interface TableShape {
  readonly table: string;
  /** Every column, in the source's order. */
  readonly columns: readonly string[];
  /** The primary key's columns, in the key's order (every column when a table has none). */
  readonly keys: readonly string[];
}

/** A table's rows summed up: how many, and a hash of them in key order. */
export interface RowsDigest {
  readonly rows: number;
  readonly hash: string;
}

export type Row = readonly unknown[];

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface ColumnFact {
  readonly name: string;
  readonly type: string;
  readonly pk: number;
}

function columnFacts(db: StoreDb, table: string): ColumnFact[] {
  const literal = `'${table.replace(/'/g, "''")}'`;
  const sql = onServer(db)
    ? `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
              coalesce((SELECT k.n FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                         WHERE k.attnum = a.attnum), 0) AS pk
         FROM pg_attribute a
         LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
        WHERE a.attrelid = to_regclass(${literal}) AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum`
    : `SELECT name, type, pk FROM pragma_table_info(${literal}) ORDER BY cid`;
  return db.prepare(sql).all() as ColumnFact[];
}

/** Whether `table` is there on `db`. */
export function hasTable(db: StoreDb, table: string): boolean {
  return columnFacts(db, table).length > 0;
}

/** The table's columns and key as `db` has them. */
export function shapeOf(db: StoreDb, table: string): TableShape {
  const facts = columnFacts(db, table);
  const keyed = facts.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  return {
    table,
    columns: facts.map((c) => c.name),
    keys: (keyed.length > 0 ? keyed : facts).map((c) => c.name),
  };
}

/** Whether texts are among `db`'s values of `column`, which then sort byte by byte. */
function textColumns(db: StoreDb, table: string): Set<string> {
  return new Set(
    columnFacts(db, table)
      .filter((c) => (onServer(db) ? c.type === 'text' : /CHAR|CLOB|TEXT/i.test(c.type)))
      .map((c) => c.name),
  );
}

/** The SELECT that reads `shape`'s rows on `db` in the order both engines agree on. */
function selectInKeyOrder(db: StoreDb, shape: TableShape): string {
  const texts = textColumns(db, shape.table);
  const order = shape.keys.map((k) =>
    // SQLite takes BINARY for any value; PostgreSQL takes a collation for texts only.
    onServer(db) ? (texts.has(k) ? `${q(k)} COLLATE "C"` : q(k)) : `${q(k)} COLLATE BINARY`,
  );
  return `SELECT ${shape.columns.map(q).join(', ')} FROM ${q(shape.table)} ORDER BY ${order.join(', ')}`;
}

const CURSOR = 'brick_work_copy';

/**
 * `shape`'s rows on `db` in key order, `size` at a time, each row its values in `shape.columns`' order.
 * On a server through a cursor, so inside the caller's transaction; on SQLite by better-sqlite3's own
 * iterator (a SQLite store *is* better-sqlite3: `StoreDb` leaves `iterate` out, as the core never needs it).
 */
export function* rowsInKeyOrder(db: StoreDb, shape: TableShape, size: number): Generator<Row[]> {
  const sql = selectInKeyOrder(db, shape);
  if (onServer(db)) {
    db.exec(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`);
    const fetch = db.prepare(`FETCH ${size} FROM ${CURSOR}`).raw();
    try {
      for (;;) {
        const rows = fetch.all() as Row[];
        if (rows.length === 0) return;
        yield rows;
      }
    } finally {
      try {
        db.exec(`CLOSE ${CURSOR}`);
      } catch {
        // The transaction failed: its rollback closes the cursor.
      }
    }
  }
  let batch: Row[] = [];
  for (const row of (db as unknown as Database.Database).prepare(sql).raw(true).iterate() as Iterable<Row>) {
    batch.push(row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Counts and hashes rows as they pass, in the order they come. */
export class Digester {
  private readonly hash = createHash('sha256');
  private count = 0;

  add(rows: readonly Row[]): void {
    for (const row of rows) this.hash.update(`${JSON.stringify(row)}\n`);
    this.count += rows.length;
  }

  digest(): RowsDigest {
    return { rows: this.count, hash: this.hash.digest('hex') };
  }
}

/** `shape`'s rows on `db` summed up, less those `skip` says are not to be compared. */
export function digestOf(db: StoreDb, shape: TableShape, size: number, skip?: (row: Row) => boolean): RowsDigest {
  const d = new Digester();
  for (const rows of rowsInKeyOrder(db, shape, size)) d.add(skip === undefined ? rows : rows.filter((r) => !skip(r)));
  return d.digest();
}

/** How many rows of `shape` one statement carries: a few hundred, within both engines' limit of parameters. */
export function batchSize(shape: TableShape): number {
  return Math.max(1, Math.min(500, Math.floor(10_000 / shape.columns.length)));
}

/**
 * Writes rows into `shape`'s table on `db`, each batch as one multi-row INSERT (on a server every
 * statement costs a thread hop and a round trip), ids and all as given. `conflict` is appended as it is.
 */
export function inserter(db: StoreDb, shape: TableShape, conflict = ''): (rows: readonly Row[]) => void {
  const head = `INSERT INTO ${q(shape.table)} (${shape.columns.map(q).join(', ')}) VALUES `;
  const tuple = `(${shape.columns.map(() => '?').join(', ')})`;
  const statements = new Map<number, StoreStatement>();
  return (rows) => {
    if (rows.length === 0) return;
    let statement = statements.get(rows.length);
    if (statement === undefined) {
      statement = db.prepare(`${head}${Array.from({ length: rows.length }, () => tuple).join(', ')}${conflict}`);
      statements.set(rows.length, statement);
    }
    statement.run(...rows.flat());
  };
}

/** How many rows `table` holds on `db`. */
export function countRows(db: StoreDb, table: string, where = ''): number {
  return Number(
    db
      .prepare(`SELECT count(*) FROM ${q(table)}${where === '' ? '' : ` WHERE ${where}`}`)
      .pluck()
      .get(),
  );
}
