/**
 * The store's connection as the core uses it (ADR 0027): the part of better-sqlite3's `Database` the
 * core calls, and nothing more. A SQLite store is better-sqlite3 itself; a PostgreSQL store
 * (`postgres/database.ts`) implements the same, so a phrase only one of them has can't be called.
 */

export interface StoreRunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

export interface StoreStatement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): StoreRunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  /** The rows one at a time, for a caller that keeps only what it makes of them (no array of every row). */
  iterate(...params: P): IterableIterator<R>;
  pluck(on?: boolean): this;
  raw(on?: boolean): this;
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

export interface StoreDb {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare<P extends unknown[] | object = unknown[], R = unknown>(
    sql: string,
  ): P extends unknown[] ? StoreStatement<P, R> : StoreStatement<[P], R>;
  exec(sql: string): this;
  transaction<F extends Fn>(fn: F): StoreTransaction<F>;
  /**
   * SQLite's pragmas. A PostgreSQL store answers the few the core asks (`data_version`, `user_version`,
   * `application_id`, `quick_check`) in its own terms and takes SQLite's connection settings as done.
   */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): void;
}
