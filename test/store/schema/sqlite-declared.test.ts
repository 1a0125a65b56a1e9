import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoreDb } from '../../../src/store/db.ts';
import { openStore } from '../../../src/store/open.ts';
import { sqlFor, type TableDeclaration } from '../../../src/store/schema/shape.ts';
import { TABLES_4_2 } from '../../../src/store/schema/tables-4.2.ts';
import { buildEarly090Store } from '../../helpers/early-store.ts';
import { populate41 } from '../../helpers/fixtures.ts';
import { buildStore } from '../../helpers/store-builder.ts';
import { tempDir } from '../../helpers/temp.ts';

// Issue 50: the schema is declared once (src/store/schema/tables-4.2.ts). A SQLite store is still made by
// its frozen steps; whichever way it was made, it must be exactly the declared schema, so that the two
// can't drift apart without this failing (checked without a PostgreSQL server).

/** A table as a store has it, or as the declaration says SQLite has it: the same shape, compared whole. */
interface TableShape {
  readonly withoutRowid: boolean;
  readonly columns: readonly {
    readonly name: string;
    readonly type: string;
    readonly notNull: boolean;
    readonly default: string | null;
    /** Its place in the primary key, from 1; 0 when not in it. */
    readonly pk: number;
    readonly collation: string | null;
    readonly check: string | null;
  }[];
  /** Checks over the row, in order. */
  readonly checks: readonly string[];
  readonly foreignKeys: readonly string[];
  /** Every index: made by name (`c`), or for a unique constraint (`u`) or the primary key (`pk`). */
  readonly indexes: readonly string[];
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** The parts of a CREATE TABLE between its outer parentheses: each column, then each table constraint. */
function definitions(createTable: string): string[] {
  const body = createTable.slice(createTable.indexOf('(') + 1, createTable.lastIndexOf(')'));
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === "'") quoted = !quoted;
    else if (!quoted && ch === '(') depth++;
    else if (!quoted && ch === ')') depth--;
    else if (!quoted && depth === 0 && ch === ',') {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts.map(oneLine);
}

/** The expression of each `CHECK (…)` in a definition. */
function checksIn(definition: string): string[] {
  const found: string[] = [];
  for (const m of definition.matchAll(/\bCHECK\s*\(/gi)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; depth > 0 && i < definition.length; i++) {
      if (definition[i] === '(') depth++;
      else if (definition[i] === ')') depth--;
    }
    found.push(oneLine(definition.slice(m.index + m[0].length, i - 1)));
  }
  return found;
}

const fkText = (k: { columns: readonly string[]; table: string; to: readonly string[] }, onDelete: string) =>
  `(${k.columns.join(', ')}) → ${k.table} (${k.to.join(', ')}) on delete ${onDelete}`;

const indexText = (
  origin: string,
  name: string | null,
  columns: readonly string[],
  unique: boolean,
  where: string | null,
) =>
  `${origin} ${name ?? ''} (${columns.join(', ')})${unique ? ' unique' : ''}${where === null ? '' : ` where ${where}`}`;

/** The keys of a CREATE INDEX, as written between the parentheses after its table. */
function keysOf(createIndex: string): string[] {
  return definitions(/\bON\s+\w+\s*(\(.*)$/is.exec(createIndex)?.[1] ?? '').map(oneLine);
}

/** What the store holds: its pragmas, and its CREATE statements for what no pragma tells (collations, checks, conditions). */
function read(db: StoreDb, table: string): TableShape {
  const sqlOf = db.prepare('SELECT sql FROM main.sqlite_master WHERE name = ?').pluck();
  const parts = definitions(sqlOf.get(table) as string);
  const columnParts = new Map(parts.map((p) => [p.split(' ')[0] ?? '', p]));
  const info = db.prepare(`PRAGMA main.table_info("${table}")`).all() as {
    name: string;
    type: string;
    notnull: number;
    dflt_value: string | null;
    pk: number;
  }[];
  const foreignKeys = new Map<number, { columns: string[]; table: string; to: string[]; onDelete: string }>();
  for (const f of db.prepare(`PRAGMA main.foreign_key_list("${table}")`).all() as {
    id: number;
    table: string;
    from: string;
    to: string;
    on_update: string;
    on_delete: string;
  }[]) {
    const key = foreignKeys.get(f.id) ?? { columns: [], table: f.table, to: [], onDelete: f.on_delete };
    key.columns.push(f.from);
    key.to.push(f.to);
    // No key of the store acts on an update of its parent (the declaration has no such thing).
    expect(f.on_update, `${table} foreign key`).toBe('NO ACTION');
    foreignKeys.set(f.id, key);
  }
  const indexes = (
    db.prepare(`PRAGMA main.index_list("${table}")`).all() as { name: string; unique: number; origin: string }[]
  ).map((i) => {
    const named = (db.prepare(`PRAGMA main.index_info("${i.name}")`).all() as { name: string | null }[]).map(
      (c) => c.name,
    );
    // An expression's key has no column name: its text is read from the CREATE INDEX.
    const columns = named.includes(null) ? keysOf(sqlOf.get(i.name) as string) : (named as string[]);
    const where = i.origin === 'c' ? /\bWHERE\s+(.*)$/is.exec(sqlOf.get(i.name) as string)?.[1] : undefined;
    const name = i.origin === 'c' ? i.name : null;
    return indexText(i.origin, name, columns, i.unique === 1, where === undefined ? null : oneLine(where));
  });
  return {
    withoutRowid:
      db.prepare('SELECT wr FROM pragma_table_list WHERE schema = ? AND name = ?').pluck().get('main', table) === 1,
    columns: info.map((c) => {
      const definition = columnParts.get(c.name) ?? '';
      return {
        name: c.name,
        type: c.type,
        notNull: c.notnull === 1,
        default: c.dflt_value,
        pk: c.pk,
        collation: /\bCOLLATE\s+(\w+)/i.exec(definition)?.[1]?.toUpperCase() ?? null,
        check: checksIn(definition)[0] ?? null,
      };
    }),
    checks: parts.filter((p) => /^CHECK\b/i.test(p)).flatMap(checksIn),
    foreignKeys: [...foreignKeys.values()].map((k) => fkText(k, k.onDelete)).sort(),
    indexes: indexes.sort(),
  };
}

/** What the declaration says a SQLite store holds. */
function expected(t: TableDeclaration): TableShape {
  // An INTEGER key of one column in a table with rowids is the rowid itself: no index of its own.
  const rowidKey =
    !t.withoutRowid &&
    t.primaryKey.length === 1 &&
    t.columns.find((c) => c.name === t.primaryKey[0])?.type === 'integer';
  return {
    withoutRowid: t.withoutRowid,
    columns: t.columns.map((c) => ({
      name: c.name,
      type: c.type.toUpperCase(),
      // SQLite holds a key of a table without rowids NOT NULL, as the server holds every key.
      notNull: c.notNull || (t.withoutRowid && t.primaryKey.includes(c.name)),
      default: c.default,
      pk: t.primaryKey.indexOf(c.name) + 1,
      collation: c.nocase === 'both' ? 'NOCASE' : null,
      check: c.check === null ? null : oneLine(sqlFor(c.check, 'sqlite')),
    })),
    checks: t.checks.map((c) => oneLine(sqlFor(c, 'sqlite'))),
    foreignKeys: t.foreignKeys.map((k) => fkText(k, 'NO ACTION')).sort(),
    indexes: [
      ...t.indexes.map((i) => indexText('c', i.name, i.keys ?? i.columns, i.unique, i.where)),
      ...t.unique.map((columns) => indexText('u', null, columns, true, null)),
      ...(rowidKey ? [] : [indexText('pk', null, t.primaryKey, true, null)]),
    ].sort(),
  };
}

function expectDeclaredSchema(db: StoreDb): void {
  const onFile = TABLES_4_2.filter((t) => !t.serverOnly);
  const tables = db
    .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all();
  expect(tables).toEqual(onFile.map((t) => t.name).sort());
  for (const t of onFile) expect(read(db, t.name), t.name).toEqual(expected(t));
}

describe('a SQLite store has exactly the declared schema', () => {
  it('made new: the 4.1 baseline, the 4.2 step and its fix-ups marked done', async () => {
    const store = await openStore(path.join(tempDir(), 'new.sqlite'));
    expect(store.created).toBe(true);
    expectDeclaredSchema(store.db);
    store.close();
  });

  it('upgraded from a 4.1 store with rows', async () => {
    const file = path.join(tempDir(), 'old.sqlite');
    const db41 = buildStore(file, '4.1');
    populate41(db41);
    db41.close();
    const store = await openStore(file);
    expect(store.upgrade?.from).toBe('4.1');
    expectDeclaredSchema(store.db);
    store.close();
  });

  it('written by an early 0.9.0 build, and repaired at its first read-write open', async () => {
    const file = path.join(tempDir(), 'early.sqlite');
    buildEarly090Store(file).close();
    const store = await openStore(file);
    expectDeclaredSchema(store.db);
    store.close();
  });
});
