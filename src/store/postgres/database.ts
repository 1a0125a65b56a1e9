/**
 * A PostgreSQL store's connection with better-sqlite3's shape (ADR 0027): `prepare(sql)` with `run`,
 * `get`, `all`, `pluck` and `raw`; `exec`; `transaction(fn)` with its `immediate` form, nested as
 * savepoints. The core's statements run unchanged where the dialects agree (`dialect.ts`).
 *
 * One writer at a time, as SQLite has it: the first write of a transaction (or its start, for an
 * `immediate` one) takes the store's advisory lock, held to COMMIT or ROLLBACK; a lone write outside a
 * transaction is made one. Readers take no lock. A wait for the lock past the busy timeout is
 * `store-busy`, as SQLite's.
 *
 * Every round trip is one the other desks wait out while this one holds the lock, so what needs no
 * answer yet waits to go with the next statement that does (one message, one wait): a transaction's
 * BEGIN and lock (the wrapper's; `exec('BEGIN IMMEDIATE')` takes the lock at once, as SQLite's), its
 * savepoints, and a write asked for with `runLater` — whose refusal is thrown by the statement it went
 * with (at the latest the COMMIT, which then never runs). A transaction that sent nothing ends without
 * a round trip.
 */
import { storeBusy } from '../../vocabulary/errors.ts';
import type { OwnerIdentity } from '../../identity/owner.ts';
import type { StoreDb, StoreStatement, StoreTransaction } from '../db.ts';
import { PostgresBridge, PostgresError, serverName, type BridgeOptions } from './bridge.ts';
import type { BridgeAnswer, BridgeStatement } from './bridge-messages.ts';
import { bindValues, isWrite, toPostgres, type PostgresStatement } from './dialect.ts';

/** The advisory lock every writer of a brick-work store takes (any number the database keeps for it). */
const WRITER_LOCK = 0x6272_6b77; // "brkw"

/**
 * Statements prepared on the server (by name) per connection, at most: the core asks some 150 distinct
 * ones again and again, and a server parses and plans each once instead of at every call (a line with
 * its colours and item, a six-table join, took 1.3 ms a call to plan; 0.2 to run). Any more run unnamed.
 */
const NAMED_STATEMENTS = 1_000;

/** Statements waiting for the next round trip, at most: a long run of writes goes in messages of this many. */
const QUEUED_AT_MOST = 200;

/** A statement that waits to go with the next round trip (see the file's comment). */
interface Queued {
  readonly statement: BridgeStatement;
  /** A transaction's own statement (BEGIN, the lock, a savepoint): no answer is ever read of it. */
  readonly control?: 'begin' | 'lock' | 'release' | { readonly savepoint: string };
  /** Its answer, once it has run. */
  answer?: BridgeAnswer;
}

/** A statement as this connection keeps it: with its server-side name, when it has one. */
interface NamedStatement extends PostgresStatement {
  readonly name: string | undefined;
}

export interface RunResult {
  readonly changes: number;
  readonly lastInsertRowid: number;
}

/** A write's count, and the id it answered with (an insert's, or a statement's that gives the id it wrote). */
function runResult(r: BridgeAnswer): RunResult {
  return { changes: r.rowCount, lastInsertRowid: (r.rows[0]?.['id'] as number | undefined) ?? 0 };
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
    return runResult(this.db.execute(this.statement, args));
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
  /** The open transaction's writes take no writer lock (`withoutWriterLock`). */
  private lockFree = false;
  /** What waits to go with the next round trip, in order. */
  private queued: Queued[] = [];
  /** The open transaction has sent something (its BEGIN is on the server). */
  private sent = false;
  private readonly prepared = new Map<string, NamedStatement>();
  /** The connection `writeAside` writes through, made at its first use. */
  private aside: PostgresBridge | null = null;

  private constructor(
    private readonly bridge: PostgresBridge,
    private readonly tablesWithId: ReadonlySet<string>,
    private busyTimeoutMs: number,
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
    this.send('SELECT 1');
    const asked = this.bridge.connection;
    if (this.session !== null && this.session.connection === asked) return this.session.owner;
    const row = this.send(
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
    const rows = this.send(
      `SELECT ${MICROSECONDS('a.backend_start')} AS start FROM pg_stat_activity a WHERE a.pid = $1`,
      [owner.pid],
    ).rows as { start: number | null }[];
    // The server shows a session's start only to its own role (and pg_read_all_stats): a desk logged in
    // as another role sees NULL. Such a session may be the owner, so it is taken as alive — a job is
    // never run twice for want of a privilege; it waits until that session ends (docs/several-desks.md: one role).
    return rows.some((r) => r.start === owner.startTicks || r.start === null);
  }

  /** The `application_name` of the live session `owner` names exactly; null once it is gone. */
  sessionApplication(owner: OwnerIdentity): string | null {
    if (owner.startTicks === null || owner.bootId !== this.sessionOwner().bootId) return null;
    const found = this.send(
      `SELECT a.application_name AS name FROM pg_stat_activity a WHERE a.pid = $1 AND ${MICROSECONDS('a.backend_start')} = $2`,
      [owner.pid, owner.startTicks],
    ).rows[0] as { name: string } | undefined;
    return found?.name ?? null;
  }

  /**
   * Whether the store's writer lock is free now: asked without waiting and let go at once (a lone
   * statement's transaction ends with it), in one round trip. Inside a transaction: it is this one's to take.
   */
  writerLockFree(): boolean {
    if (this.depth > 0) return true;
    return this.send(`SELECT pg_try_advisory_xact_lock(${WRITER_LOCK}) AS free`).rows[0]?.['free'] === 1;
  }

  /**
   * The session holding the store's writer lock now, other than this one (what a writer waits for), with
   * its `application_name`; null when none does, or the server does not show it to this role.
   */
  writerLockHolder(): { owner: OwnerIdentity; application: string } | null {
    const cluster = this.sessionOwner().bootId;
    const row = this.send(
      `SELECT a.pid, ${MICROSECONDS('a.backend_start')} AS start, a.application_name AS name
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1::bigint::oid AND l.objsubid = 1
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.pid <> pg_backend_pid()
        LIMIT 1`,
      [WRITER_LOCK],
    ).rows[0] as { pid: number; start: number | null; name: string | null } | undefined;
    if (row === undefined) return null;
    return { owner: { pid: row.pid, bootId: cluster, startTicks: row.start }, application: row.name ?? '' };
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

  /** The server's address as the store was opened with it (its password in it: never shown). */
  get address(): string {
    return this.bridge.url;
  }

  get name(): string {
    return serverName(this.bridge.url);
  }

  /** How many times this connection has waited for the server (what a writer holding the lock costs the others). */
  get roundTrips(): number {
    return this.bridge.roundTrips;
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
      value = this.send(
        `SELECT version - coalesce(nullif(current_setting('brick_work.own_changes', true), ''), '0')::bigint AS v
           FROM brick_work_data_version`,
      ).rows[0]?.['v'];
    } else if (text === 'user_version' || text === 'application_id') {
      const column = text === 'user_version' ? 'schema_version' : 'application_id';
      value = this.send(`SELECT ${column} AS v FROM brick_work_meta`).rows[0]?.['v'] ?? 0;
    } else if (/^(quick_check|integrity_check)(\(\d+\))?$/.test(text)) {
      value = 'ok';
    } else if (/^busy_timeout ?= ?\d+$/.test(text)) {
      // SQLite's wait for another's write lock: here the writer lock's wait (`lock_timeout`).
      this.busyTimeoutMs = Number(text.replace(/^\D+/, ''));
      return [];
    } else if (text === 'busy_timeout') {
      value = this.busyTimeoutMs;
    } else if (/^(journal_mode|synchronous|cache_size|foreign_keys|wal_checkpoint)\b/.test(text)) {
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
    const statement = this.named(sql);
    // One handle serves every parameter and row type: the types are the caller's promise, as with better-sqlite3.
    return new PostgresStatementHandle(this, statement) as unknown as P extends unknown[]
      ? StoreStatement<P, R>
      : StoreStatement<[P], R>;
  }

  /** The statement of `sql` as this connection keeps it, named on the server while names last. */
  private named(sql: string): NamedStatement {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      const name = this.prepared.size < NAMED_STATEMENTS ? `bw_${this.prepared.size + 1}` : undefined;
      statement = { ...toPostgres(sql, this.tablesWithId), name };
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  /** Runs SQL text of one or more statements without parameters (`BEGIN IMMEDIATE` as SQLite's). */
  exec(sql: string): this {
    const word = sql.trim().toUpperCase();
    if (/^BEGIN\s+IMMEDIATE;?$/.test(word) || /^BEGIN\s+EXCLUSIVE;?$/.test(word)) {
      // As SQLite's: the lock is had (or refused, store-busy) before this returns.
      this.begin(true);
      try {
        this.flush();
      } catch (e) {
        this.end('ROLLBACK');
        throw e;
      }
    } else if (/^BEGIN(\s+DEFERRED)?(\s+TRANSACTION)?;?$/.test(word)) {
      this.begin(false);
    } else if (/^(COMMIT|END)(\s+TRANSACTION)?;?$/.test(word)) {
      this.end('COMMIT');
    } else if (/^ROLLBACK(\s+TRANSACTION)?;?$/.test(word)) {
      this.end('ROLLBACK');
    } else {
      if (!isWrite(sql)) this.send(sql);
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
          this.queue({ statement: { sql: `SAVEPOINT ${savepoint}`, params: [] }, control: { savepoint } });
          this.depth += 1;
        }
        try {
          const result = fn(...args);
          if (outer) this.end('COMMIT');
          else {
            this.queue({
              statement: { sql: `RELEASE SAVEPOINT ${savepoint}`, params: [] },
              control: 'release',
            });
            this.depth -= 1;
          }
          return result;
        } catch (e) {
          if (outer) this.end('ROLLBACK');
          else {
            this.depth -= 1;
            try {
              this.rollbackTo(savepoint);
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

  /**
   * Runs `fn` in a transaction whose writes take no writer lock (ADR 0034: a catalogue file's swap), for
   * rows no desk writes: the server shows them to no other session before COMMIT, so desks neither wait
   * for it nor see a part of it. Its writes leave the data version's one row alone, which every writer's
   * transaction updates first (its statement triggers, told `brick_work.changing`): holding that row would
   * hold every desk, and a look-up waiting for a catalogue row this holds while holding that row would be
   * a deadlock. The version moves after COMMIT instead, in a transaction of its own under the lock. Row
   * locks are waited for up to the busy timeout, as the writer lock is.
   */
  withoutWriterLock<T>(fn: () => T): T {
    if (this.depth !== 0) throw new Error('withoutWriterLock inside a transaction');
    this.queue({
      statement: {
        sql: `BEGIN; SET LOCAL lock_timeout = '${Math.max(1, Math.round(this.busyTimeoutMs))}ms'; SET LOCAL brick_work.changing = 'yes'`,
        params: [],
      },
      control: 'begin',
    });
    this.depth = 1;
    this.sent = false;
    this.lockFree = true;
    let result: T;
    try {
      result = fn();
    } catch (e) {
      this.end('ROLLBACK');
      throw e;
    }
    this.end('COMMIT');
    // A write of no row: its statement trigger moves the data version and tells the desks, as any write's.
    this.transaction(() => this.write('UPDATE setting SET value = value WHERE false', []))();
    return result;
  }

  close(): void {
    this.closed = true;
    this.queued = [];
    this.aside?.close();
    this.bridge.close();
  }

  /** Runs a prepared statement (called by its handle). */
  execute(statement: NamedStatement, args: readonly unknown[]): BridgeAnswer {
    const values = bindValues(statement, args);
    if (!statement.writes) return this.send(statement.text, values, statement.name);
    if (this.depth === 0) return this.transaction(() => this.write(statement.text, values, statement.name))();
    return this.write(statement.text, values, statement.name);
  }

  /**
   * Runs a write whose answer may wait: inside a transaction it goes with the next round trip (at the
   * latest the COMMIT), a lone one with its own COMMIT. Gives a function that gives its answer (sending
   * it first if it is still waiting). Only for a write whose refusal may surface there: its caller does
   * not catch it itself. A read runs now.
   */
  later(sql: string, args: readonly unknown[]): () => BridgeAnswer {
    const statement = this.named(sql);
    if (!statement.writes) {
      const answer = this.execute(statement, args);
      return () => answer;
    }
    const values = bindValues(statement, args);
    const enqueue = () => this.queueWrite(statement.text, values, statement.name);
    const q = this.depth === 0 ? this.transaction(enqueue)() : enqueue();
    return () => {
      if (q.answer === undefined && this.queued.includes(q)) this.flush();
      if (q.answer === undefined) throw new Error('a statement rolled back before it was sent has no answer');
      return q.answer;
    };
  }

  /** `later`, giving the write's count and id. */
  runLater(sql: string, args: readonly unknown[]): () => RunResult {
    const answer = this.later(sql, args);
    return () => runResult(answer());
  }

  /** Sends one statement, and whatever waits to go before it, in one message; gives its answer. */
  private send(sql: string, values: readonly unknown[] = [], name?: string): BridgeAnswer {
    const queued = this.queued;
    this.queued = [];
    if (this.depth > 0) this.sent = true;
    let r: ReturnType<PostgresBridge['query']>;
    try {
      r = this.bridge.query(
        sql,
        values,
        name,
        queued.map((q) => q.statement),
      );
    } catch (e) {
      // The lock's wait past the busy timeout (the lock went with this message, or a row another desk's
      // transaction holds): the store is busy, as SQLite's.
      if (e instanceof PostgresError && e.sqlstate === '55P03') throw storeBusy(this.name);
      throw e;
    }
    queued.forEach((q, i) => (q.answer = r.before[i]));
    return r;
  }

  /** Sends what waits (the last of it as the statement, the rest before it). */
  private flush(): void {
    const last = this.queued.pop();
    if (last === undefined) return;
    last.answer = this.send(last.statement.sql, last.statement.params, last.statement.name);
  }

  private queue(q: Queued): void {
    this.queued.push(q);
    if (this.queued.length >= QUEUED_AT_MOST) this.flush();
  }

  /** A write sent now, with what waits before it (the lock, the first time). */
  private write(text: string, values: readonly unknown[], name?: string): BridgeAnswer {
    const q = this.queueWrite(text, values, name);
    this.flush();
    return q.answer as BridgeAnswer;
  }

  /** A write that waits for the next round trip, after the writer lock (queued first, the first time). */
  private queueWrite(text: string, values: readonly unknown[], name: string | undefined): Queued {
    if (!this.locked && !this.lockFree) this.lock();
    const q: Queued = { statement: { sql: text, params: values, ...(name === undefined ? {} : { name }) } };
    this.queue(q);
    return q;
  }

  /** BEGIN, and for an `immediate` transaction the writer lock with it: both go with the first statement. */
  private begin(immediate: boolean): void {
    this.queue({ statement: { sql: immediate ? `BEGIN; ${this.lockText()}` : 'BEGIN', params: [] }, control: 'begin' });
    this.depth = 1;
    this.sent = false;
    this.locked = immediate;
  }

  /**
   * COMMIT with what waits, or ROLLBACK without it. A transaction that sent nothing ends here: its BEGIN
   * never went; one that has nothing but its own statements waiting has nothing to commit.
   */
  private end(how: 'COMMIT' | 'ROLLBACK'): void {
    const { sent, queued } = this;
    this.depth = 0;
    this.locked = false;
    this.lockFree = false;
    this.sent = false;
    this.queued = [];
    if (how === 'ROLLBACK') {
      if (sent) this.send('ROLLBACK');
      return;
    }
    if (!sent && queued.every((q) => q.control !== undefined)) return;
    this.queued = queued;
    try {
      this.send('COMMIT');
    } catch (e) {
      // A statement that went with it failed, and the COMMIT never ran: the transaction is still open.
      try {
        this.bridge.query('ROLLBACK');
      } catch {
        // the connection is gone, and its transaction with it
      }
      throw e;
    }
  }

  /**
   * ROLLBACK TO a savepoint: what waits was all written after it, so it is dropped, not sent; a
   * savepoint that never went needs no round trip at all. A lock dropped so is still to be taken.
   */
  private rollbackTo(savepoint: string): void {
    const at = this.queued.findIndex((q) => typeof q.control === 'object' && q.control.savepoint === savepoint);
    const dropped = at < 0 ? this.queued : this.queued.slice(at);
    this.queued = at < 0 ? [] : this.queued.slice(0, at);
    if (dropped.some((q) => q.control === 'lock')) this.locked = false;
    if (at < 0) this.send(`ROLLBACK TO SAVEPOINT ${savepoint}`);
  }

  /** The store's one writer lock, for the rest of this transaction: it goes with the next statement. */
  private lock(): void {
    this.queue({ statement: { sql: this.lockText(), params: [] }, control: 'lock' });
    this.locked = true;
  }

  /** The lock's statements as one text; a wait past the busy timeout fails it (55P03, `store-busy`). */
  private lockText(): string {
    return (
      `SET LOCAL lock_timeout = '${Math.max(1, Math.round(this.busyTimeoutMs))}ms'; ` +
      `SELECT pg_advisory_xact_lock(${WRITER_LOCK})`
    );
  }
}
