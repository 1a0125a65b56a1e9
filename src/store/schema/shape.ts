/**
 * How a table of the store is declared (`tables-4.2.ts`): its columns, keys, checks and indexes, once, in
 * terms both engines share. A PostgreSQL store's DDL is made from it (`postgres-ddl.ts`); a SQLite store
 * is made by its frozen upgrade steps and checked against it (test/store/schema/).
 */

export type ColumnType = 'integer' | 'text';

/** An SQL expression the same on both engines, or each engine's own where their phrases differ. */
export type Sql = string | { readonly sqlite: string; readonly postgres: string };

/**
 * Compared ignoring ASCII case: on both engines, or on the server only, where a frozen SQLite step made
 * the column without it (the server's compares like the catalogue_item column it refers to).
 */
export type Nocase = 'both' | 'server only';

export interface ColumnDeclaration {
  readonly name: string;
  readonly type: ColumnType;
  readonly notNull: boolean;
  /** The default as SQL text (`'{}'`, `0`), or null for none. */
  readonly default: string | null;
  readonly nocase: Nocase | null;
  /** A check on this column alone (the server names it after the column). */
  readonly check: Sql | null;
  /** A row id the store allocates when an insert gives none (SQLite's rowid; an identity on the server). */
  readonly identity: boolean;
}

export interface ForeignKey {
  readonly columns: readonly string[];
  readonly table: string;
  readonly to: readonly string[];
}

export interface IndexDeclaration {
  readonly name: string;
  /** The columns it indexes. */
  readonly columns: readonly string[];
  /**
   * Its keys, where they are expressions of its columns rather than the columns themselves (a number folded as
   * it is compared, `trim(given_no) COLLATE NOCASE`): written the same on both engines.
   */
  readonly keys?: readonly string[];
  readonly unique: boolean;
  /** A partial index's condition, or null. */
  readonly where: string | null;
}

export interface TableDeclaration<N extends string = string> {
  readonly name: N;
  readonly columns: readonly ColumnDeclaration[];
  readonly primaryKey: readonly string[];
  readonly unique: readonly (readonly string[])[];
  readonly foreignKeys: readonly ForeignKey[];
  /** Checks over more than one column, in order (the server numbers their names so). */
  readonly checks: readonly Sql[];
  readonly indexes: readonly IndexDeclaration[];
  /** SQLite keeps the rows in the primary key's order, without a rowid; nothing on the server. */
  readonly withoutRowid: boolean;
  /** On the server only: a SQLite store keeps this in a file beside it. */
  readonly serverOnly: boolean;
}

/** A column as written in a declaration: its type and whatever it has besides. */
export interface ColumnSpec {
  readonly type: ColumnType;
  readonly notNull?: boolean;
  readonly default?: string;
  readonly nocase?: Nocase;
  readonly check?: Sql;
  readonly primaryKey?: boolean;
  readonly identity?: boolean;
  /** The parent's table and column, for a key of one column. */
  readonly references?: readonly [table: string, column: string];
}

export interface TableSpec {
  /** A key of more than one column (one of one column is said on the column). */
  readonly primaryKey?: readonly string[];
  readonly unique?: readonly (readonly string[])[];
  /** Keys of more than one column (one of one column is said on the column). */
  readonly foreignKeys?: readonly ForeignKey[];
  readonly checks?: readonly Sql[];
  readonly indexes?: readonly (Omit<IndexDeclaration, 'unique' | 'where'> & Partial<IndexDeclaration>)[];
  readonly withoutRowid?: boolean;
  readonly serverOnly?: boolean;
}

type ColumnOptions = Omit<ColumnSpec, 'type'>;
export const integer = (options: ColumnOptions = {}): ColumnSpec => ({ type: 'integer', ...options });
export const text = (options: ColumnOptions = {}): ColumnSpec => ({ type: 'text', ...options });

/** A table from its columns in order, and its keys, checks and indexes over more than one column. */
export function table<N extends string>(
  name: N,
  columns: Readonly<Record<string, ColumnSpec>>,
  spec: TableSpec = {},
): TableDeclaration<N> {
  const entries = Object.entries(columns);
  const keyed = entries.filter(([, c]) => c.primaryKey === true).map(([column]) => column);
  if (keyed.length > 0 === (spec.primaryKey !== undefined) || keyed.length > 1) {
    throw new Error(`${name}: one primary key, on its column or (of several columns) on the table`);
  }
  return {
    name,
    columns: entries.map(([column, c]) => ({
      name: column,
      type: c.type,
      notNull: c.notNull === true,
      default: c.default ?? null,
      nocase: c.nocase ?? null,
      check: c.check ?? null,
      identity: c.identity === true,
    })),
    primaryKey: spec.primaryKey ?? keyed,
    unique: spec.unique ?? [],
    foreignKeys: [
      ...entries.flatMap(([column, c]) =>
        c.references === undefined ? [] : [{ columns: [column], table: c.references[0], to: [c.references[1]] }],
      ),
      ...(spec.foreignKeys ?? []),
    ],
    checks: spec.checks ?? [],
    indexes: (spec.indexes ?? []).map((i) => ({ unique: false, where: null, ...i })),
    withoutRowid: spec.withoutRowid === true,
    serverOnly: spec.serverOnly === true,
  };
}

/** The engine's own text of an expression. */
export const sqlFor = (sql: Sql, engine: 'sqlite' | 'postgres'): string =>
  typeof sql === 'string' ? sql : sql[engine];
