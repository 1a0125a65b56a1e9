/**
 * A PostgreSQL store's connection with better-sqlite3's shape (ADR 0027): `prepare(sql)` with `run`,
 * `get`, `all`, `pluck` and `raw`; `exec`; `transaction(fn)` with its `immediate` form, nested as
 * savepoints. The core's statements run unchanged where the dialects agree (`dialect.ts`).
 *
 * One writer at a time, as SQLite has it: the first write of a transaction (or its start, for an
 * `immediate` one) takes the store's advisory lock, held to COMMIT or ROLLBACK; a lone write outside a
 * transaction is made one. Readers take no lock. A wait for the lock past the busy timeout is
 * `store-busy`, as SQLite's.
 */
import { storeBusy } from '../../errors.ts';
import { PostgresBridge, PostgresError, serverName, type BridgeOptions } from './bridge.ts';
import { bindValues, isWrite, toPostgres, type PostgresStatement } from './dialect.ts';

/** The advisory lock every writer of a brick-work store takes (any number the database keeps for it). */
const WRITER_LOCK = 0x6272_6b77; // "brkw"

export interface RunResult {
  readonly changes: number;
  readonly lastInsertRowid: number;
}

export class PostgresStatementHandle {
  private plucked = false;
  private rawRows = false;

  constructor(
    private readonly db: PostgresDatabase,
    private readonly statement: PostgresStatement,
  ) {}

  pluck(on = true): this {
    this.plucked = on;
    return this;
  }

  raw(on = true): this {
    this.rawRows = on;
    return this;
  }

  run(...args: unknown[]): RunResult {
    const r = this.db.execute(this.statement, args);
    const id = this.statement.returnsId ? (r.rows[0]?.['id'] as number | undefined) : undefined;
    return { changes: r.rowCount, lastInsertRowid: id ?? 0 };
  }

  get(...args: unknown[]): unknown {
    const rows = this.db.execute(this.statement, args).rows;
    return rows[0] === undefined ? undefined : this.shape(rows[0]);
  }

  all(...args: unknown[]): unknown[] {
    return this.db.execute(this.statement, args).rows.map((r) => this.shape(r));
  }

  private shape(row: Record<string, unknown>): unknown {
    if (this.plucked) return Object.values(row)[0];
    return this.rawRows ? Object.values(row) : row;
  }
}

type Transaction<F extends (...args: never[]) => unknown> = F & {
  deferred: F;
  immediate: F;
  exclusive: F;
};

export class PostgresDatabase {
  private depth = 0;
  private locked = false;
  private readonly prepared = new Map<string, PostgresStatement>();

  private constructor(
    private readonly bridge: PostgresBridge,
    private readonly tablesWithId: ReadonlySet<string>,
    private readonly busyTimeoutMs: number,
  ) {}

  /** Connects; `tablesWithId` names the tables keyed by `id` (an insert into one returns it). */
  static connect(
    url: string,
    options: BridgeOptions & { tablesWithId?: ReadonlySet<string>; busyTimeoutMs?: number } = {},
  ): PostgresDatabase {
    const busy = options.busyTimeoutMs ?? 10_000;
    const db = new PostgresDatabase(
      PostgresBridge.connect(url, { ...options, timeoutMs: options.timeoutMs ?? busy + 20_000 }),
      options.tablesWithId ?? new Set(),
      busy,
    );
    return db;
  }

  get name(): string {
    return serverName(this.bridge.url);
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  prepare(sql: string): PostgresStatementHandle {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      statement = toPostgres(sql, this.tablesWithId);
      this.prepared.set(sql, statement);
    }
    return new PostgresStatementHandle(this, statement);
  }

  /** Runs SQL text of one or more statements without parameters (`BEGIN IMMEDIATE` as SQLite's). */
  exec(sql: string): this {
    const word = sql.trim().toUpperCase();
    if (/^BEGIN\s+IMMEDIATE;?$/.test(word) || /^BEGIN\s+EXCLUSIVE;?$/.test(word)) {
      this.begin(true);
    } else if (/^BEGIN(\s+DEFERRED)?(\s+TRANSACTION)?;?$/.test(word)) {
      this.begin(false);
    } else if (/^(COMMIT|END)(\s+TRANSACTION)?;?$/.test(word)) {
      this.end('COMMIT');
    } else if (/^ROLLBACK(\s+TRANSACTION)?;?$/.test(word)) {
      this.end('ROLLBACK');
    } else {
      if (!isWrite(sql)) this.bridge.query(sql);
      else if (this.depth === 0) this.transaction(() => this.write(sql, []))();
      else this.write(sql, []);
    }
    return this;
  }

  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F> {
    const run = (immediate: boolean) =>
      ((...args: Parameters<F>) => {
        const outer = this.depth === 0;
        const savepoint = `bw_${this.depth}`;
        if (outer) this.begin(immediate);
        else {
          this.bridge.query(`SAVEPOINT ${savepoint}`);
          this.depth += 1;
        }
        try {
          const result = fn(...args);
          if (outer) this.end('COMMIT');
          else {
            this.bridge.query(`RELEASE SAVEPOINT ${savepoint}`);
            this.depth -= 1;
          }
          return result;
        } catch (e) {
          if (outer) this.end('ROLLBACK');
          else {
            this.depth -= 1;
            try {
              this.bridge.query(`ROLLBACK TO SAVEPOINT ${savepoint}`);
            } catch {
              // the connection is gone: the outer transaction's ROLLBACK says the rest
            }
          }
          throw e;
        }
      }) as F;
    const deferred = run(false);
    return Object.assign(deferred, { deferred, immediate: run(true), exclusive: run(true) }) as Transaction<F>;
  }

  close(): void {
    this.bridge.close();
  }

  /** Runs a prepared statement (called by its handle). */
  execute(
    statement: PostgresStatement,
    args: readonly unknown[],
  ): { rows: readonly Record<string, unknown>[]; rowCount: number } {
    const values = bindValues(statement, args);
    if (!statement.writes) return this.bridge.query(statement.text, values);
    if (this.depth === 0) return this.transaction(() => this.write(statement.text, values))();
    return this.write(statement.text, values);
  }

  private write(text: string, values: readonly unknown[]) {
    if (!this.locked) this.lock();
    return this.bridge.query(text, values);
  }

  private begin(immediate: boolean): void {
    this.bridge.query('BEGIN');
    this.depth = 1;
    this.locked = false;
    if (immediate) this.lock();
  }

  private end(how: 'COMMIT' | 'ROLLBACK'): void {
    this.depth = 0;
    this.locked = false;
    this.bridge.query(how);
  }

  /** The store's one writer lock, for the rest of this transaction; `store-busy` past the busy timeout. */
  private lock(): void {
    try {
      this.bridge.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.round(this.busyTimeoutMs))}ms'`);
      this.bridge.query('SELECT pg_advisory_xact_lock($1)', [WRITER_LOCK]);
      this.locked = true;
    } catch (e) {
      if (e instanceof PostgresError && e.sqlstate === '55P03') throw storeBusy(this.name);
      throw e;
    }
  }
}
