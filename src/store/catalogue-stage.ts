/**
 * A catalogue file's rows staged apart, then swapped in (issue 61 §2, ADR 0034). As the file is read its
 * rows go to tables of the loading connection's own — SQLite's `temp` schema, a server session's
 * `pg_temp` — which no other connection sees, which take no lock of the store, and which a process that
 * dies (or a session that is cut) takes with it. Then `swapStaged` merges them into the catalogue, one
 * statement a table, in one transaction (`swapTransaction`): readers see the catalogue before the file
 * or after it, never a part of it, and other desks' writes wait for that transaction alone, if at all.
 * The merge is the catalogue's (`catalogue.ts`): insert or update by key, never delete.
 */
import type { StoreDb, StoreStatement } from './db.ts';
import { onServer, rowsOfJson } from './dialect.ts';
import { PostgresError } from './postgres/bridge.ts';
import { PostgresDatabase } from './postgres/database.ts';
import type { TranslationRecord } from './catalogue.ts';

type Column = readonly [name: string, type: 'integer' | 'text', nocase?: 'nocase'];

/** One staging table: its columns (in a row's order), its key, and how its rows are swapped in. */
interface Staged {
  readonly name: string;
  readonly columns: readonly Column[];
  readonly key: readonly string[];
  /** What a row staged again under a key already staged sets (later rows win); null: the first is kept. */
  readonly again: string | null;
  /** The swap's statements, `{s}` standing for the staging table; `@source` is the file's. */
  readonly swap: readonly string[];
  /**
   * A staged row the swap would leave as the catalogue has it, `{s}` standing for it: such rows are
   * dropped before the swap, so a file loaded again swaps in what changed alone. Null: none dropped.
   */
  readonly same: string | null;
}

const STAGED = {
  item: {
    name: 'staged_item',
    columns: [
      ['item_type', 'text'],
      ['item_no', 'text', 'nocase'],
      ['name', 'text'],
      ['name_key', 'text'],
      ['category_id', 'integer'],
    ],
    key: ['item_type', 'item_no'],
    again:
      'name = excluded.name, name_key = excluded.name_key, category_id = coalesce(excluded.category_id, {t}.category_id)',
    // As `catalogueWriters`' items: a row that would not change is left alone.
    swap: [
      `INSERT INTO catalogue_item (item_type, item_no, name, name_key, category_id, source)
       SELECT item_type, item_no, name, name_key, category_id, @source FROM {s} WHERE true
       ON CONFLICT (item_type, item_no) DO UPDATE
          SET name = excluded.name, name_key = excluded.name_key,
              category_id = coalesce(excluded.category_id, catalogue_item.category_id), source = excluded.source
        WHERE catalogue_item.name IS DISTINCT FROM excluded.name
           OR catalogue_item.category_id IS DISTINCT FROM coalesce(excluded.category_id, catalogue_item.category_id)
           OR catalogue_item.source IS DISTINCT FROM excluded.source`,
    ],
    same: `SELECT 1 FROM catalogue_item c WHERE c.item_type = {s}.item_type AND c.item_no = {s}.item_no
             AND c.name = {s}.name AND c.category_id IS NOT DISTINCT FROM coalesce({s}.category_id, c.category_id)
             AND c.source = @source`,
  },
  colour: {
    name: 'staged_colour',
    columns: [
      ['id', 'integer'],
      ['name', 'text'],
      ['name_key', 'text'],
      ['rgb', 'text'],
    ],
    key: ['id'],
    again: 'name = excluded.name, name_key = excluded.name_key, rgb = coalesce(excluded.rgb, {t}.rgb)',
    swap: [
      `INSERT INTO colour (id, name, name_key, source) SELECT id, name, name_key, @source FROM {s} WHERE true
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, source = excluded.source
        WHERE colour.name IS DISTINCT FROM excluded.name OR colour.source IS DISTINCT FROM excluded.source`,
      `INSERT INTO colour_swatch (colour_id, rgb) SELECT id, rgb FROM {s} WHERE rgb IS NOT NULL
       ON CONFLICT (colour_id) DO UPDATE SET rgb = excluded.rgb WHERE colour_swatch.rgb IS DISTINCT FROM excluded.rgb`,
    ],
    same: null,
  },
  category: {
    name: 'staged_category',
    columns: [
      ['id', 'integer'],
      ['name', 'text'],
    ],
    key: ['id'],
    again: 'name = excluded.name',
    swap: [
      `INSERT INTO category (id, name, source) SELECT id, name, @source FROM {s} WHERE true
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, source = excluded.source
        WHERE category.name IS DISTINCT FROM excluded.name OR category.source IS DISTINCT FROM excluded.source`,
    ],
    same: null,
  },
  element: {
    name: 'staged_element',
    columns: [
      ['element_id', 'text'],
      ['numbering', 'text'],
      ['item_no', 'text', 'nocase'],
      ['colour', 'text'],
    ],
    key: ['element_id', 'numbering', 'item_no', 'colour'],
    again: null,
    swap: [
      `INSERT INTO element_code (element_id, numbering, item_no, colour, source)
       SELECT element_id, numbering, item_no, colour, @source FROM {s} WHERE true ON CONFLICT DO NOTHING`,
    ],
    same: `SELECT 1 FROM element_code c WHERE c.element_id = {s}.element_id AND c.numbering = {s}.numbering
             AND c.item_no = {s}.item_no AND c.colour = {s}.colour`,
  },
  partNumber: {
    name: 'staged_part_number',
    columns: [
      ['rebrickable_no', 'text', 'nocase'],
      ['numbering', 'text'],
      ['item_no', 'text', 'nocase'],
    ],
    key: ['rebrickable_no', 'numbering', 'item_no'],
    again: null,
    swap: [
      `INSERT INTO part_number (rebrickable_no, numbering, item_no, source)
       SELECT rebrickable_no, numbering, item_no, @source FROM {s} WHERE true ON CONFLICT DO NOTHING`,
    ],
    same: `SELECT 1 FROM part_number c WHERE c.rebrickable_no = {s}.rebrickable_no AND c.numbering = {s}.numbering
             AND c.item_no = {s}.item_no`,
  },
  colourTranslation: {
    name: 'staged_colour_translation',
    columns: [
      ['numbering', 'text'],
      ['key', 'text'],
      ['bricklink_id', 'integer'],
    ],
    key: ['numbering', 'key'],
    again: 'bricklink_id = excluded.bricklink_id',
    swap: [
      `INSERT INTO colour_translation (numbering, key, bricklink_id, source)
       SELECT numbering, key, bricklink_id, @source FROM {s} WHERE true
       ON CONFLICT (numbering, key) DO UPDATE SET bricklink_id = excluded.bricklink_id, source = excluded.source
        WHERE colour_translation.bricklink_id IS DISTINCT FROM excluded.bricklink_id
           OR colour_translation.source IS DISTINCT FROM excluded.source`,
    ],
    same: `SELECT 1 FROM colour_translation c WHERE c.numbering = {s}.numbering AND c.key = {s}.key
             AND c.bricklink_id IS NOT DISTINCT FROM {s}.bricklink_id AND c.source = @source`,
  },
  relationship: {
    name: 'staged_relationship',
    columns: [
      ['rel_type', 'text'],
      ['child_no', 'text', 'nocase'],
      ['parent_no', 'text', 'nocase'],
    ],
    key: ['child_no', 'rel_type', 'parent_no'],
    again: null,
    swap: [
      `INSERT INTO part_relationship (rel_type, child_no, parent_no, source)
       SELECT rel_type, child_no, parent_no, @source FROM {s} WHERE true ON CONFLICT DO NOTHING`,
    ],
    same: `SELECT 1 FROM part_relationship c WHERE c.child_no = {s}.child_no AND c.rel_type = {s}.rel_type
             AND c.parent_no = {s}.parent_no`,
  },
} as const satisfies Record<string, Staged>;

type Kind = keyof typeof STAGED;
const KINDS = Object.keys(STAGED) as Kind[];

/** Rows a staging statement carries (one JSON parameter): a server's round trips are few. */
const STAGE_ROWS = 5_000;

/** A staging table as a statement names it: in the connection's own schema. */
function stagedName(db: StoreDb, t: Staged): string {
  return `${onServer(db) ? 'pg_temp' : 'temp'}.${t.name}`;
}

function createSql(db: StoreDb, t: Staged): string {
  const server = onServer(db);
  const cols = t.columns.map(
    ([name, type, nocase]) =>
      `${name} ${type === 'integer' ? (server ? 'bigint' : 'INTEGER') : 'TEXT'}${nocase ? ' COLLATE nocase' : ''}`,
  );
  // The key's uniqueness is the catalogue table's (its collation too), so what is staged once is swapped once.
  const body = `(${cols.join(', ')}, PRIMARY KEY (${t.key.join(', ')}))`;
  return server
    ? `CREATE TEMP TABLE IF NOT EXISTS ${t.name} ${body}`
    : `CREATE TEMP TABLE IF NOT EXISTS ${t.name} ${body} WITHOUT ROWID`;
}

function insertSql(db: StoreDb, t: Staged): string {
  const names = t.columns.map(([n]) => n).join(', ');
  const onConflict =
    t.again === null ? 'DO NOTHING' : `(${t.key.join(', ')}) DO UPDATE SET ${t.again.replaceAll('{t}', t.name)}`;
  return `INSERT INTO ${stagedName(db, t)} (${names}) SELECT ${names} FROM (${rowsOfJson(
    db,
    t.columns.map(([n, type]) => [n, type] as const),
  )}) AS v WHERE true ON CONFLICT ${onConflict}`;
}

/** A file's rows staged: each kind of row by its own method; `swap` and `clear` when the file is read. */
export interface CatalogueStage {
  item(r: {
    readonly type: string;
    readonly no: string;
    readonly name: string;
    readonly nameKey: string;
    readonly categoryId: number | null;
  }): void;
  colour(r: {
    readonly id: number;
    readonly name: string;
    readonly nameKey: string;
    readonly rgb: string | null;
  }): void;
  category(r: { readonly id: number; readonly name: string }): void;
  translation(r: TranslationRecord): void;
  /**
   * Stages what waits to fill a statement, and drops the staged rows the catalogue holds as they are:
   * before the swap's transaction, which neither may hold up.
   */
  settle(source: string): void;
  /** Merges what is staged (settled) into the catalogue, in the caller's transaction (`swapTransaction`). */
  swap(source: string): void;
  /** Empties the staging tables (after a swap, a cancel, a failure). */
  clear(): void;
}

/**
 * Stages a file's rows on `db`'s own connection: its staging tables made when they are not there, and
 * emptied. Outside any transaction: the statements write no table of the store, so they take no lock.
 */
export function openStage(db: StoreDb): CatalogueStage {
  for (const kind of KINDS) db.exec(createSql(db, STAGED[kind]));
  const buffers = new Map<Kind, unknown[][]>(KINDS.map((k) => [k, []]));
  const staged = new Set<Kind>();
  const inserts = new Map<Kind, StoreStatement>();
  const flush = (kind: Kind) => {
    const rows = buffers.get(kind) ?? [];
    if (rows.length === 0) return;
    buffers.set(kind, []);
    let insert = inserts.get(kind);
    if (insert === undefined) inserts.set(kind, (insert = db.prepare(insertSql(db, STAGED[kind]))));
    stageRows(insert, rows);
    staged.add(kind);
  };
  const add = (kind: Kind, row: unknown[]) => {
    const rows = buffers.get(kind) ?? [];
    rows.push(row);
    buffers.set(kind, rows);
    if (rows.length >= STAGE_ROWS) flush(kind);
  };
  const clear = () => {
    for (const kind of KINDS) buffers.set(kind, []);
    for (const kind of KINDS) db.exec(`DELETE FROM ${stagedName(db, STAGED[kind])}`);
    staged.clear();
  };
  clear();
  return {
    item: (r) => add('item', [r.type, r.no, r.name, r.nameKey, r.categoryId]),
    colour: (r) => add('colour', [r.id, r.name, r.nameKey, r.rgb]),
    category: (r) => add('category', [r.id, r.name]),
    translation: (r) => {
      if (r.kind === 'element') add('element', [r.elementId, r.numbering, r.no, r.colour]);
      else if (r.kind === 'part-number') add('partNumber', [r.rebrickable, r.numbering, r.no]);
      else if (r.kind === 'colour-translation') add('colourTranslation', [r.numbering, r.key, r.bricklinkId]);
      else add('relationship', [r.relType, r.child, r.parent]);
    },
    settle: (source) => {
      for (const kind of KINDS) flush(kind);
      for (const kind of KINDS) {
        const t: Staged = STAGED[kind];
        if (!staged.has(kind) || t.same === null) continue;
        const table = stagedName(db, t);
        // The staging table by its own name in the subquery: SQLite's DELETE takes no alias.
        db.prepare(`DELETE FROM ${table} WHERE EXISTS (${t.same.replaceAll('{s}', t.name)})`).run({ source });
      }
    },
    swap: (source) => {
      if (KINDS.some((k) => (buffers.get(k) ?? []).length > 0)) throw new Error('swap before settle');
      for (const kind of KINDS) {
        if (!staged.has(kind)) continue;
        const t: Staged = STAGED[kind];
        for (const sql of t.swap) db.prepare(sql.replaceAll('{s}', stagedName(db, t))).run({ source });
      }
    },
    clear,
  };
}

/**
 * Stages rows in one statement. A server refuses to merge one key twice in a statement (a file that gives
 * a key twice, in letters its collation folds: SQLite takes them one after the other): then one by one.
 */
function stageRows(insert: StoreStatement, rows: readonly unknown[][]): void {
  try {
    insert.run(JSON.stringify(rows));
  } catch (e) {
    if (!(e instanceof PostgresError) || e.sqlstate !== '21000') throw e;
    for (const row of rows) insert.run(JSON.stringify([row]));
  }
}

/**
 * The transaction a staged file is swapped in. SQLite's: BEGIN IMMEDIATE (its one writer), as short as
 * the file's rows take to merge. A server store's takes no writer lock at all (`withoutWriterLock`): its
 * rows are catalogue rows, which no desk writes, and the server shows them to no other session before
 * COMMIT; so no desk waits for it, however long a large file takes there.
 */
export function swapTransaction<T>(db: StoreDb, fn: () => T): T {
  if (db instanceof PostgresDatabase) return db.withoutWriterLock(fn);
  return db.transaction(fn).immediate();
}
