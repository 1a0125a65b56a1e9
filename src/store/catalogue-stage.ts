/**
 * A catalogue file's rows staged apart, then swapped in (issue 61 §2, ADR 0034). As the file is read its
 * rows go to tables of the loading connection's own — SQLite's `temp` schema, a server session's
 * `pg_temp` — which no other connection sees, which take no lock of the store, and which a process that
 * dies (or a session that is cut) takes with it. Then `swap` merges them into the catalogue, one
 * statement a table, in one transaction (`swapTransaction`): readers see the catalogue before the file
 * or after it, never a part of it, and other desks' writes wait for that transaction alone, if at all.
 * The merge is the catalogue's (`catalogue.ts`): insert or update by key, never delete.
 */
import type { StoreDb } from './db.ts';
import { onServer, rowsOfJson } from './dialect.ts';
import { PostgresError } from './postgres/bridge.ts';
import { PostgresDatabase } from './postgres/database.ts';
import { declared, indexSql, type TableName } from './schema/tables-4.2.ts';
import type { TranslationRecord } from './catalogue.ts';

/** One kind of staged row: the catalogue table it goes to, and how it is merged there. */
interface Staged {
  readonly table: TableName;
  /** A staged row's values, in this order: the table's own columns (a colour's swatch besides). */
  readonly columns: readonly string[];
  /** What a row staged again under a key staged already sets (the later row wins); null: the first stays. */
  readonly again: string | null;
  /** The swap's statements, `{s}` standing for the staging table; `@source` is the file's. */
  readonly swap: readonly string[];
  /**
   * When a staged row (`{s}`) is one the swap would leave as the catalogue has it: such rows are dropped
   * before the swap, so a file loaded again swaps in what changed alone. Null: none are dropped.
   */
  readonly same: string | null;
}

const STAGED = {
  item: {
    table: 'catalogue_item',
    columns: ['item_type', 'item_no', 'name', 'name_key', 'category_id', 'source'],
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
    table: 'colour',
    columns: ['id', 'name', 'name_key', 'source', 'rgb'],
    again: 'name = excluded.name, name_key = excluded.name_key, rgb = coalesce(excluded.rgb, {t}.rgb)',
    swap: [
      `INSERT INTO colour (id, name, name_key, source) SELECT id, name, name_key, @source FROM {s} WHERE true
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, source = excluded.source
        WHERE colour.name IS DISTINCT FROM excluded.name OR colour.source IS DISTINCT FROM excluded.source`,
      `INSERT INTO colour_swatch (colour_id, rgb) SELECT id, rgb FROM {s} WHERE rgb IS NOT NULL
       ON CONFLICT (colour_id) DO UPDATE SET rgb = excluded.rgb WHERE colour_swatch.rgb IS DISTINCT FROM excluded.rgb`,
    ],
    same: null, // a colour list is some hundred rows
  },
  category: {
    table: 'category',
    columns: ['id', 'name', 'source'],
    again: 'name = excluded.name',
    swap: [
      `INSERT INTO category (id, name, source) SELECT id, name, @source FROM {s} WHERE true
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, source = excluded.source
        WHERE category.name IS DISTINCT FROM excluded.name OR category.source IS DISTINCT FROM excluded.source`,
    ],
    same: null,
  },
  element: {
    table: 'element_code',
    columns: ['element_id', 'numbering', 'item_no', 'colour', 'source'],
    again: null,
    swap: [
      `INSERT INTO element_code (element_id, numbering, item_no, colour, source)
       SELECT element_id, numbering, item_no, colour, @source FROM {s} WHERE true ON CONFLICT DO NOTHING`,
    ],
    same: `SELECT 1 FROM element_code c WHERE c.element_id = {s}.element_id AND c.numbering = {s}.numbering
             AND c.item_no = {s}.item_no AND c.colour = {s}.colour`,
  },
  partNumber: {
    table: 'part_number',
    columns: ['rebrickable_no', 'numbering', 'item_no', 'source'],
    again: null,
    swap: [
      `INSERT INTO part_number (rebrickable_no, numbering, item_no, source)
       SELECT rebrickable_no, numbering, item_no, @source FROM {s} WHERE true ON CONFLICT DO NOTHING`,
    ],
    same: `SELECT 1 FROM part_number c WHERE c.rebrickable_no = {s}.rebrickable_no AND c.numbering = {s}.numbering
             AND c.item_no = {s}.item_no`,
  },
  colourTranslation: {
    table: 'colour_translation',
    columns: ['numbering', 'key', 'bricklink_id', 'source'],
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
    table: 'part_relationship',
    columns: ['rel_type', 'child_no', 'parent_no', 'source'],
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
const KIND_OF = {
  element: 'element',
  'part-number': 'partNumber',
  'colour-translation': 'colourTranslation',
  relationship: 'relationship',
} as const satisfies Record<TranslationRecord['kind'], Kind>;

/** Rows staged at once (on a server, one statement: its round trips are few). */
const STAGE_ROWS = 5_000;
/** Rows a SQLite staging statement carries, bound a value a parameter (fewer go one by one). */
const SQLITE_ROWS = 100;

/** The staging table's own name, and as a statement names it: in the connection's own schema. */
const stagedTable = (t: Staged) => `staged_${t.table}`;
const stagedName = (db: StoreDb, t: Staged) => `${onServer(db) ? 'pg_temp' : 'temp'}.${stagedTable(t)}`;

/**
 * The staging table: the catalogue table's shape, keyed as it is (its collation too, so what is staged
 * once is swapped once) — on SQLite its very definition, which lets a first load copy it whole (`swap`).
 * A colour is staged with its swatch, in a table of its own making.
 */
function createSql(db: StoreDb, t: Staged): string {
  const name = stagedTable(t);
  const decl = declared(t.table);
  if (t.table === 'colour') {
    const id = onServer(db) ? 'bigint' : 'INTEGER';
    return `CREATE TEMP TABLE IF NOT EXISTS ${name} (id ${id} PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL, source TEXT NOT NULL, rgb TEXT)`;
  }
  if (onServer(db))
    return `CREATE TEMP TABLE IF NOT EXISTS ${name} (LIKE ${t.table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS, PRIMARY KEY (${decl.primaryKey.join(', ')}))`;
  const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(t.table);
  const head = new RegExp(`^CREATE TABLE\\s+("?)${t.table}\\1\\s*\\(`, 'i');
  if (typeof sql !== 'string' || !head.test(sql)) throw new Error(`the store's ${t.table} table is not as made`);
  return sql.replace(head, `CREATE TEMP TABLE IF NOT EXISTS ${name} (`);
}

/** The staging statement's conflict clause: a key staged again merges as the swap would merge it. */
function onConflict(t: Staged): string {
  const key = declared(t.table).primaryKey.join(', ');
  return t.again === null ? 'DO NOTHING' : `(${key}) DO UPDATE SET ${t.again.replaceAll('{t}', stagedTable(t))}`;
}

/**
 * How rows of a kind are staged. SQLite: many rows a statement, their values bound, in one transaction of
 * its temporary schema (no lock of the store). A server: one JSON parameter a statement (its round trips
 * are what costs); it refuses to merge one key twice in a statement (a file that gives a key twice, in
 * letters its collation folds alike — SQLite takes them one after the other): those rows then one by one.
 */
function stager(db: StoreDb, t: Staged): (rows: readonly unknown[]) => void {
  const width = t.columns.length;
  const into = `INSERT INTO ${stagedName(db, t)} (${t.columns.join(', ')})`;
  if (onServer(db)) {
    const types = new Map(declared(t.table).columns.map((c) => [c.name, c.type]));
    const json = rowsOfJson(
      db,
      t.columns.map((n) => [n, types.get(n) ?? 'text'] as const),
    );
    const insert = db.prepare(`${into} SELECT * FROM (${json}) AS v WHERE true ON CONFLICT ${onConflict(t)}`);
    return (values) => {
      const rows = Array.from({ length: values.length / width }, (_, i) => values.slice(i * width, (i + 1) * width));
      try {
        insert.run(JSON.stringify(rows));
      } catch (e) {
        if (!(e instanceof PostgresError) || e.sqlstate !== '21000') throw e;
        for (const row of rows) insert.run(JSON.stringify([row]));
      }
    };
  }
  const values = (n: number) => Array.from({ length: n }, () => `(${t.columns.map(() => '?').join(', ')})`).join(', ');
  const many = db.prepare(`${into} VALUES ${values(SQLITE_ROWS)} ON CONFLICT ${onConflict(t)}`);
  const one = db.prepare(`${into} VALUES ${values(1)} ON CONFLICT ${onConflict(t)}`);
  const step = SQLITE_ROWS * width;
  return db.transaction((flat: readonly unknown[]) => {
    let i = 0;
    for (; i + step <= flat.length; i += step) many.run(flat.slice(i, i + step));
    for (; i < flat.length; i += width) one.run(flat.slice(i, i + width));
  });
}

/** A file's rows staged: each kind of row by its own method; `settle`, `swap` and `clear` when it is read. */
export interface CatalogueStage {
  item(
    r: { readonly type: string; readonly no: string; readonly name: string; readonly categoryId: number | null },
    nameKey: string,
  ): void;
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
  settle(): void;
  /** Merges what is staged (settled) into the catalogue, in the caller's transaction (`swapTransaction`). */
  swap(): void;
  /** Empties the staging tables (after a swap, a cancel, a failure). */
  clear(): void;
}

/**
 * Stages a file's rows (from `source`) on `db`'s own connection: its staging tables made when they are
 * not there, and emptied. Outside any transaction: the statements write no table of the store.
 */
export function openStage(db: StoreDb, source: string): CatalogueStage {
  for (const kind of KINDS) db.exec(createSql(db, STAGED[kind]));
  // Each kind's rows waiting for a statement, their values one after another.
  const buffers = Object.fromEntries(KINDS.map((k) => [k, [] as unknown[]])) as Record<Kind, unknown[]>;
  const staged = new Set<Kind>();
  const stagers = new Map<Kind, (values: readonly unknown[]) => void>();
  const flush = (kind: Kind) => {
    const values = buffers[kind];
    if (values.length === 0) return;
    buffers[kind] = [];
    let stage = stagers.get(kind);
    if (stage === undefined) stagers.set(kind, (stage = stager(db, STAGED[kind])));
    stage(values);
    staged.add(kind);
  };
  const added = (kind: Kind) => {
    if (buffers[kind].length >= STAGE_ROWS * STAGED[kind].columns.length) flush(kind);
  };
  const clear = () => {
    for (const kind of KINDS) buffers[kind] = [];
    for (const kind of KINDS) db.exec(`DELETE FROM ${stagedName(db, STAGED[kind])}`);
    staged.clear();
  };
  clear();
  return {
    item: (r, nameKey) => {
      buffers.item.push(r.type, r.no, r.name, nameKey, r.categoryId, source);
      added('item');
    },
    colour: (r) => {
      buffers.colour.push(r.id, r.name, r.nameKey, source, r.rgb);
      added('colour');
    },
    category: (r) => {
      buffers.category.push(r.id, r.name, source);
      added('category');
    },
    translation: (r) => {
      if (r.kind === 'element') buffers.element.push(r.elementId, r.numbering, r.no, r.colour, source);
      else if (r.kind === 'part-number') buffers.partNumber.push(r.rebrickable, r.numbering, r.no, source);
      else if (r.kind === 'colour-translation')
        buffers.colourTranslation.push(r.numbering, r.key, r.bricklinkId, source);
      else buffers.relationship.push(r.relType, r.child, r.parent, source);
      added(KIND_OF[r.kind]);
    },
    settle: () => {
      for (const kind of KINDS) flush(kind);
      for (const kind of KINDS) {
        const t: Staged = STAGED[kind];
        if (!staged.has(kind) || t.same === null || isEmpty(db, t.table)) continue;
        // The staging table by its own name in the subquery: SQLite's DELETE takes no alias.
        db.prepare(`DELETE FROM ${stagedName(db, t)} WHERE EXISTS (${t.same.replaceAll('{s}', stagedTable(t))})`).run({
          source,
        });
      }
    },
    swap: () => {
      if (KINDS.some((k) => buffers[k].length > 0)) throw new Error('swap before settle');
      for (const kind of KINDS) if (staged.has(kind)) swapKind(db, STAGED[kind], source);
    },
    clear,
  };
}

function isEmpty(db: StoreDb, table: TableName): boolean {
  return db.prepare(`SELECT NOT EXISTS (SELECT 1 FROM ${table})`).pluck().get() === 1;
}

/**
 * Swaps one kind's staged rows in. Into an empty SQLite table (a first load) they are copied whole —
 * SQLite's transfer of a table to another of its very shape, without a lookup a row — with its declared
 * indexes made after, by one sort each; else merged row by row.
 */
function swapKind(db: StoreDb, t: Staged, source: string): void {
  const from = stagedName(db, t);
  if (!onServer(db) && t.table !== 'colour' && isEmpty(db, t.table)) {
    // Only an index as declared is made again (one otherwise made is left as it is, and the copy is row by row).
    const decl = declared(t.table);
    const present = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?");
    const asDeclared = (present.all(t.table) as { name: string; sql: string | null }[]).filter((i) => {
      const index = decl.indexes.find((d) => d.name === i.name);
      return index !== undefined && indexSql(decl, index) === i.sql;
    });
    for (const i of asDeclared) db.exec(`DROP INDEX ${i.name}`);
    db.exec(`INSERT INTO ${t.table} SELECT * FROM ${from}`);
    for (const i of asDeclared) db.exec(i.sql ?? '');
    return;
  }
  for (const sql of t.swap) db.prepare(sql.replaceAll('{s}', from)).run({ source });
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
