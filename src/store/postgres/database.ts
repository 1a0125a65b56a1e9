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
import type { OwnerIdentity } from '../../identity/owner.ts';
import type { StoreDb, StoreStatement, StoreTransaction } from '../db.ts';
import { PostgresBridge, PostgresError, serverName, type BridgeOptions } from './bridge.ts';
import { bindValues, isWrite, toPostgres, type PostgresStatement } from './dialect.ts';

/** The advisory lock every writer of a brick-work store takes (any number the database keeps for it). */
const WRITER_LOCK = 0x6272_6b77; // "brkw"

/**
 * Statements prepared on the server (by name) per connection, at most: the core asks some 150 distinct
 * ones again and again, and a server parses and plans each once instead of at every call (a line with
 * its colours and item, a six-table join, took 1.3 ms a call to plan; 0.2 to run). Any more run unnamed.
 */
const NAMED_STATEMENTS = 1_000;

/** A statement as this connection keeps it: with its server-side name, when it has one. */
interface NamedStatement extends PostgresStatement {
  readonly name: string | undefined;
}

export interface RunResult {
  readonly changes: number;
  readonly lastInsertRowid: number;
}

export class PostgresStatementHandle {
  private plucked = false;
  private rawRows = false;

  constructor(
    private readonly db: PostgresDatabase,
    private readonly statement: NamedStatement,
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

  /** The server's answer comes whole; its rows are shaped one at a time. */
  *iterate(...args: unknown[]): IterableIterator<unknown> {
    for (const r of this.db.execute(this.statement, args).rows) yield this.shape(r);
  }

  private shape(row: Record<string, unknown>): unknown {
    if (this.plucked) return Object.values(row)[0];
    if (this.rawRows) return Object.values(row);
    const aliases = this.statement.aliases;
    if (aliases.size === 0) return row;
    const named: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) named[aliases.get(key) ?? key] = value;
    return named;
  }
}

export interface PostgresConnectOptions extends BridgeOptions {
  /** How long a writer waits for another's lock before it is `store-busy` (SQLite's busy timeout). */
  readonly busyTimeoutMs?: number;
}

/** A job owner that is a server session is marked so in `boot_id`, before the cluster's identifier. */
export const SESSION_PREFIX = 'postgres:';

/** A timestamp as whole microseconds since the epoch, computed exactly by the server (no double). */
const MICROSECONDS = (column: string) =>
  `(extract(epoch FROM date_trunc('second', ${column}))::int8 * 1000000 + extract(microseconds FROM ${column})::int8 % 1000000)`;

export class PostgresDatabase implements StoreDb {
  private session: { connection: string; owner: OwnerIdentity } | null = null;
  private depth = 0;
  private closed = false;
  private locked = false;
  private readonly prepared = new Map<string, NamedStatement>();
  /** The connection `writeAside` writes through, made at its first use. */
  private aside: PostgresBridge | null = null;

  private constructor(
    private readonly bridge: PostgresBridge,
    private readonly tablesWithId: ReadonlySet<string>,
    private readonly busyTimeoutMs: number,
  ) {}

  /** Connects; `tablesWithId` names the tables keyed by `id` (an insert into one returns it). */
  static connect(
    url: string,
    options: PostgresConnectOptions & { tablesWithId?: ReadonlySet<string> } = {},
  ): PostgresDatabase {
    const busy = options.busyTimeoutMs ?? 10_000;
    const db = new PostgresDatabase(
      PostgresBridge.connect(url, { ...options, timeoutMs: options.timeoutMs ?? busy + 20_000 }),
      options.tablesWithId ?? new Set(),
      busy,
    );
    return db;
  }

  /**
   * This connection's server session as a job's owner (ADR 0027 §5): the backend's pid, the cluster's
   * system identifier, and the session's start in whole microseconds, read by the server as an integer.
   * Asked of the server each time (one round trip); its identity is read again only when the bridge
   * connected again (a new session).
   */
  sessionOwner(): OwnerIdentity {
    // One round trip says which connection answers now: a session cut since is a new one by then.
    this.bridge.query('SELECT 1');
    const asked = this.bridge.connection;
    if (this.session !== null && this.session.connection === asked) return this.session.owner;
    const row = this.bridge.query(
      `SELECT a.pid, ${MICROSECONDS('a.backend_start')} AS start, s.system_identifier::text AS cluster
         FROM pg_stat_activity a, pg_control_system() s WHERE a.pid = pg_backend_pid()`,
    ).rows[0] as { pid: number; start: number; cluster: string };
    const owner = { pid: row.pid, bootId: `${SESSION_PREFIX}${row.cluster}`, startTicks: row.start };
    this.session = { connection: this.bridge.connection, owner };
    return owner;
  }

  /** Whether `owner`'s session is still on this server: that pid, started at that very microsecond. */
  sessionAlive(owner: OwnerIdentity): boolean {
    if (owner.startTicks === null || owner.bootId !== this.sessionOwner().bootId) return false;
    const rows = this.bridge.query(
      `SELECT ${MICROSECONDS('a.backend_start')} AS start FROM pg_stat_activity a WHERE a.pid = $1`,
      [owner.pid],
    ).rows as { start: number | null }[];
    // The server shows a session's start only to its own role (and pg_read_all_stats): a desk logged in
    // as another role sees NULL. Such a session may be the owner, so it is taken as alive — a job is
    // never run twice for want of a privilege; it waits until that session ends (README: one role).
    return rows.some((r) => r.start === owner.startTicks || r.start === null);
  }

  /** The `application_name` of the live session `owner` names exactly; null once it is gone. */
  sessionApplication(owner: OwnerIdentity): string | null {
    if (owner.startTicks === null || owner.bootId !== this.sessionOwner().bootId) return null;
    const found = this.bridge.query(
      `SELECT a.application_name AS name FROM pg_stat_activity a WHERE a.pid = $1 AND ${MICROSECONDS('a.backend_start')} = $2`,
      [owner.pid, owner.startTicks],
    ).rows[0] as { name: string } | undefined;
    return found?.name ?? null;
  }

  /**
   * Writes one statement at once, on a connection of its own, so that other desks see it while this
   * connection's transaction is still open (a catalogue load's progress, in the transaction of its merge;
   * SQLite's loads write theirs to a file beside the store). Without the writer lock, which this
   * connection's transaction holds, and without moving the data version, whose row it holds too. Best
   * effort: a row locked for more than a second, or a server that does not answer, and it is not
   * written (false). Never for a row this connection's transaction wrote: that would wait the second out.
   */
  writeAside(sql: string, args: readonly unknown[]): boolean {
    const statement = toPostgres(sql, this.tablesWithId);
    try {
      this.aside ??= PostgresBridge.connect(this.bridge.url, { timeoutMs: 5_000 });
      this.aside.query("BEGIN; SET LOCAL lock_timeout = '1000ms'; SET LOCAL brick_work.changing = 'yes'");
      this.aside.query(statement.text, bindValues(statement, args));
      this.aside.query('COMMIT');
      return true;
    } catch {
      try {
        this.aside?.query('ROLLBACK');
      } catch {
        // the connection is gone: it is made again at the next write
      }
      return false;
    }
  }

  get name(): string {
    return serverName(this.bridge.url);
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  get open(): boolean {
    return !this.closed;
  }

  /**
   * SQLite's pragmas the core asks, in a PostgreSQL store's terms (ADR 0027): `data_version` is the
   * version every committed write transaction moves, less this session's own moves (SQLite's moves
   * only for other connections' commits); `user_version` and `application_id` are the meta row's; the
   * quick check is PostgreSQL's own business (it answers "ok"). SQLite's connection settings mean nothing here.
   */
  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const text = source.trim().toLowerCase().replace(/\s+/g, ' ');
    const set = /^(user_version|application_id) ?= ?(\d+)$/.exec(text);
    let value: unknown;
    if (set) {
      const column = set[1] === 'user_version' ? 'schema_version' : 'application_id';
      this.exec(`UPDATE brick_work_meta SET ${column} = ${Number(set[2])}`);
      return [];
    } else if (text === 'data_version') {
      value = this.bridge.query(
        `SELECT version - coalesce(nullif(current_setting('brick_work.own_changes', true), ''), '0')::bigint AS v
           FROM brick_work_data_version`,
      ).rows[0]?.['v'];
    } else if (text === 'user_version' || text === 'application_id') {
      const column = text === 'user_version' ? 'schema_version' : 'application_id';
      value = this.bridge.query(`SELECT ${column} AS v FROM brick_work_meta`).rows[0]?.['v'] ?? 0;
    } else if (/^(quick_check|integrity_check)(\(\d+\))?$/.test(text)) {
      value = 'ok';
    } else if (/^(journal_mode|synchronous|cache_size|foreign_keys|busy_timeout|wal_checkpoint)\b/.test(text)) {
      return [];
    } else {
      throw new Error(`a PostgreSQL store has no pragma ${source}`);
    }
    const key = text.replace(/\(.*$/, '');
    return options.simple ? value : [{ [key]: value }];
  }

  prepare<P extends unknown[] | object = unknown[], R = unknown>(
    sql: string,
  ): P extends unknown[] ? StoreStatement<P, R> : StoreStatement<[P], R> {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      const name = this.prepared.size < NAMED_STATEMENTS ? `bw_${this.prepared.size + 1}` : undefined;
      statement = { ...toPostgres(sql, this.tablesWithId), name };
      this.prepared.set(sql, statement);
    }
    // One handle serves every parameter and row type: the types are the caller's promise, as with better-sqlite3.
    return new PostgresStatementHandle(this, statement) as unknown as P extends unknown[]
      ? StoreStatement<P, R>
      : StoreStatement<[P], R>;
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

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- better-sqlite3's own signature
  transaction<F extends (...args: any[]) => unknown>(fn: F): StoreTransaction<F> {
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
    return Object.assign(deferred, {
      deferred,
      immediate: run(true),
      exclusive: run(true),
    }) as unknown as StoreTransaction<F>;
  }

  close(): void {
    this.closed = true;
    this.aside?.close();
    this.bridge.close();
  }

  /** Runs a prepared statement (called by its handle). */
  execute(
    statement: NamedStatement,
    args: readonly unknown[],
  ): { rows: readonly Record<string, unknown>[]; rowCount: number } {
    const values = bindValues(statement, args);
    if (!statement.writes) return this.bridge.query(statement.text, values, statement.name);
    if (this.depth === 0) return this.transaction(() => this.write(statement.text, values, statement.name))();
    return this.write(statement.text, values, statement.name);
  }

  private write(text: string, values: readonly unknown[], name?: string) {
    if (!this.locked) this.lock();
    return this.bridge.query(text, values, name);
  }

  /**
   * BEGIN, and for an `immediate` transaction the writer lock with it, in one round trip. A lock not
   * had in time (`store-busy`) leaves no transaction open behind it.
   */
  private begin(immediate: boolean): void {
    if (!immediate) this.bridge.query('BEGIN');
    else {
      try {
        this.takeLock('BEGIN; ');
      } catch (e) {
        try {
          this.bridge.query('ROLLBACK');
        } catch {
          // the connection is gone, and its transaction with it
        }
        throw e;
      }
    }
    this.depth = 1;
    this.locked = immediate;
  }

  private end(how: 'COMMIT' | 'ROLLBACK'): void {
    this.depth = 0;
    this.locked = false;
    this.bridge.query(how);
  }

  /** The store's one writer lock, for the rest of this transaction; `store-busy` past the busy timeout. */
  private lock(): void {
    this.takeLock('');
    this.locked = true;
  }

  /** The lock's statements, after `before`, as one text: one round trip, in their order. */
  private takeLock(before: string): void {
    try {
      this.bridge.query(
        `${before}SET LOCAL lock_timeout = '${Math.max(1, Math.round(this.busyTimeoutMs))}ms'; ` +
          `SELECT pg_advisory_xact_lock(${WRITER_LOCK})`,
      );
    } catch (e) {
      if (e instanceof PostgresError && e.sqlstate === '55P03') throw storeBusy(this.name);
      throw e;
    }
  }
}
