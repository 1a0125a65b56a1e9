/**
 * The store's connection as the core uses it (ADR 0027): the part of better-sqlite3's `Database` the
 * core calls, and nothing more. A SQLite store is better-sqlite3 itself; a PostgreSQL store
 * (`postgres/database.ts`) implements the same, so a phrase only one of them has can't be called.
 */

export interface StoreRunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A statement as a reader holds it: it can't be run as a write. */
export interface ReadStatement<P extends unknown[] = unknown[], R = unknown> {
  get(...params: P): R | undefined;
  all(...params: P): R[];
  /** The rows one at a time, for a caller that keeps only what it makes of them (no array of every row). */
  iterate(...params: P): IterableIterator<R>;
  pluck(on?: boolean): this;
  raw(on?: boolean): this;
}

export interface StoreStatement<P extends unknown[] = unknown[], R = unknown> extends ReadStatement<P, R> {
  run(...params: P): StoreRunResult;
}

// better-sqlite3's own spelling of a transaction's argument (its types use `any` here too).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Fn = (...params: any[]) => unknown;
type Args<F extends Fn> = F extends (...args: infer A) => unknown ? A : never;

export interface StoreTransaction<F extends Fn> {
  (...params: Args<F>): ReturnType<F>;
  deferred(...params: Args<F>): ReturnType<F>;
  immediate(...params: Args<F>): ReturnType<F>;
  exclusive(...params: Args<F>): ReturnType<F>;
}

/**
 * The store as a call that only reads holds it (Signal's `ReadableDB`): statements it can prepare and
 * read, never run as writes, no `exec`, no pragma, no write transaction. A function that only reads takes this; a
 * read-only call's handler is given only this (`api/handlers/define.ts`), so a write it reaches by
 * mistake fails to compile rather than on a store that can't be written. At run time the service hands
 * such a call a connection the engine keeps from writing (`reader.ts`): what the types miss (`.all()` on
 * an `INSERT … RETURNING`) SQLite or the server refuses.
 */
export interface ReadableDb {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare<P extends unknown[] | object = unknown[], R = unknown>(
    sql: string,
  ): P extends unknown[] ? ReadStatement<P, R> : ReadStatement<[P], R>;
}

/** The store as a writer holds it (Signal's `WritableDB`): everything a reader has, and writes. */
export interface StoreDb extends ReadableDb {
  prepare<P extends unknown[] | object = unknown[], R = unknown>(
    sql: string,
  ): P extends unknown[] ? StoreStatement<P, R> : StoreStatement<[P], R>;
  exec(sql: string): this;
  /**
   * SQLite's pragmas, which can write (`user_version = …`, `query_only = 0`): a reader has none. A
   * PostgreSQL store answers the few the core asks (`data_version`, `user_version`, `application_id`,
   * `quick_check`) in its own terms and takes SQLite's connection settings as done.
   */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends Fn>(fn: F): StoreTransaction<F>;
  close(): void;
}
