import type { ReadableDb, StoreDb, StoreStatement } from './db.ts';
import { declaredIndexSql } from './schema/tables-4.2.ts';
import { onServer, pairsOfJson } from './dialect.ts';

/**
 * A row of a translation table (SPEC §5: other numberings), loaded beside the catalogue and never an
 * item of it: what a document's number or colour in another numbering is in the catalogue's.
 */
export type TranslationRecord =
  /**
   * LEGO's element id: a part in a colour. BrickLink's codes download gives BrickLink's number and
   * BrickLink's colour *name*; Rebrickable's elements.csv gives Rebrickable's part and colour id.
   */
  | {
      readonly kind: 'element';
      readonly elementId: string;
      readonly numbering: 'bricklink' | 'rebrickable';
      readonly no: string;
      readonly colour: string;
    }
  /** A Rebrickable part number and the number another numbering gives the same part. */
  | {
      readonly kind: 'part-number';
      readonly rebrickable: string;
      readonly numbering: 'bricklink' | 'ldraw';
      readonly no: string;
    }
  /**
   * A colour in another numbering or vocabulary and its BrickLink id (null: BrickLink has no such colour):
   * Rebrickable's, LDraw's and LEGO's ids, and names (folded) in any of their words.
   */
  | {
      readonly kind: 'colour-translation';
      readonly numbering: ColourVocabulary;
      readonly key: string;
      readonly bricklinkId: number | null;
    }
  /** Rebrickable's part relationships: `child` is an alternate (A), mould (M), print (P), pattern (T), sub-part (B) or pair (R) of `parent`. */
  | {
      readonly kind: 'relationship';
      readonly relType: RelationshipType;
      readonly child: string;
      readonly parent: string;
    };

export const COLOUR_VOCABULARIES = ['rebrickable', 'ldraw', 'lego', 'name'] as const;
export type ColourVocabulary = (typeof COLOUR_VOCABULARIES)[number];

export const RELATIONSHIP_TYPES = ['A', 'M', 'P', 'T', 'B', 'R'] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

/** An item as the catalogue keeps it; `nameKey` is its name folded as the placement rule compares names. */
export interface CatalogueItemRow {
  readonly type: string;
  readonly no: string;
  readonly name: string;
  readonly nameKey: string;
  readonly categoryId: number | null;
}

/**
 * The catalogue's writes, prepared once for a load of many rows: each merges by key (insert, or update
 * what differs), never deletes (lines may point at any item, SPEC §5). The catalogue job and the look-up
 * job both write through these. Each statement leaves a row that would not change alone, so a reload of
 * the same file writes next to nothing.
 */
export function catalogueWriters(db: StoreDb) {
  // The source is the same for every row of a load: bound once (@source), not once a row.
  const itemSql = (rows: number) =>
    `INSERT INTO catalogue_item (item_type, item_no, name, name_key, category_id, source)
     VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, @source)').join(', ')}
     ON CONFLICT (item_type, item_no) DO UPDATE
        SET name = excluded.name, name_key = excluded.name_key,
            category_id = coalesce(excluded.category_id, catalogue_item.category_id), source = excluded.source
      WHERE catalogue_item.name IS DISTINCT FROM excluded.name
         OR catalogue_item.category_id IS DISTINCT FROM coalesce(excluded.category_id, catalogue_item.category_id)
         OR catalogue_item.source IS DISTINCT FROM excluded.source`;
  const item = db.prepare(itemSql(1));
  let batch: { rows: number; statement: StoreStatement<[unknown[], { source: string }]> } | null = null;
  const colour = db.prepare(
    `INSERT INTO colour (id, name, name_key, source) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, source = excluded.source
      WHERE colour.name IS DISTINCT FROM excluded.name OR colour.source IS DISTINCT FROM excluded.source`,
  );
  const swatch = db.prepare(
    `INSERT INTO colour_swatch (colour_id, rgb) VALUES (?, ?)
     ON CONFLICT (colour_id) DO UPDATE SET rgb = excluded.rgb WHERE colour_swatch.rgb IS DISTINCT FROM excluded.rgb`,
  );
  const element = db.prepare(
    'INSERT INTO element_code (element_id, numbering, item_no, colour, source) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const partNumber = db.prepare(
    'INSERT INTO part_number (rebrickable_no, numbering, item_no, source) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const colourTranslation = db.prepare(
    `INSERT INTO colour_translation (numbering, key, bricklink_id, source) VALUES (?, ?, ?, ?)
     ON CONFLICT (numbering, key) DO UPDATE SET bricklink_id = excluded.bricklink_id, source = excluded.source
      WHERE colour_translation.bricklink_id IS DISTINCT FROM excluded.bricklink_id
         OR colour_translation.source IS DISTINCT FROM excluded.source`,
  );
  const relationship = db.prepare(
    'INSERT INTO part_relationship (rel_type, child_no, parent_no, source) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const category = db.prepare(
    `INSERT INTO category (id, name, source) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, source = excluded.source
      WHERE category.name IS DISTINCT FROM excluded.name OR category.source IS DISTINCT FROM excluded.source`,
  );
  return {
    item(r: CatalogueItemRow, source: string): void {
      item.run(r.type, r.no, r.name, r.nameKey, r.categoryId, { source });
    },
    /**
     * Merges many items, ITEM_BATCH rows a statement (a call into SQLite per row costs more than the row).
     * Give them in key order (`inKeyOrder`): the key's B-tree then only appends, and a batch out of order
     * goes row by row. `distinct`: the caller knows they are in key order with no key twice
     * (`inStrictKeyOrder`), and no batch is checked.
     */
    items<R extends Omit<CatalogueItemRow, 'nameKey'>>(
      rows: readonly R[],
      source: string,
      nameKey: (row: R) => string,
      distinct = false,
    ): void {
      let i = 0;
      if (rows.length >= ITEM_BATCH) {
        batch ??= { rows: ITEM_BATCH, statement: db.prepare(itemSql(ITEM_BATCH)) };
        const args: unknown[] = new Array<unknown>(ITEM_BATCH * 5);
        const named = { source };
        for (; i + ITEM_BATCH <= rows.length; i += ITEM_BATCH) {
          // Rows not in key order may give a key twice in one statement: then each row merges into the
          // one before it, one by one (PostgreSQL refuses to touch a row twice in one statement; SQLite's
          // answer is the same).
          if (!distinct && !inStrictKeyOrder(rows, i, i + ITEM_BATCH)) {
            for (let j = i; j < i + ITEM_BATCH; j++) {
              const r = rows[j] as R;
              this.item(
                { type: r.type, no: r.no, name: r.name, categoryId: r.categoryId, nameKey: nameKey(r) },
                source,
              );
            }
            continue;
          }
          for (let j = 0; j < ITEM_BATCH; j++) {
            const r = rows[i + j] as R;
            const at = j * 5;
            args[at] = r.type;
            args[at + 1] = r.no;
            args[at + 2] = r.name;
            args[at + 3] = nameKey(r);
            args[at + 4] = r.categoryId;
          }
          batch.statement.run(args, named);
        }
      }
      for (; i < rows.length; i++) {
        const r = rows[i] as R;
        this.item({ type: r.type, no: r.no, name: r.name, categoryId: r.categoryId, nameKey: nameKey(r) }, source);
      }
    },
    colour(r: { id: number; name: string; nameKey: string; rgb: string | null }, source: string): void {
      colour.run(r.id, r.name, r.nameKey, source);
      if (r.rgb !== null) swatch.run(r.id, r.rgb);
    },
    category(r: { id: number; name: string }, source: string): void {
      category.run(r.id, r.name, source);
    },
    /** A row of a translation table (SPEC §5): merged, never deleted. */
    translation(r: TranslationRecord, source: string): void {
      if (r.kind === 'element') element.run(r.elementId, r.numbering, r.no, r.colour, source);
      else if (r.kind === 'part-number') partNumber.run(r.rebrickable, r.numbering, r.no, source);
      else if (r.kind === 'colour-translation') colourTranslation.run(r.numbering, r.key, r.bricklinkId, source);
      else relationship.run(r.relType, r.child, r.parent, source);
    },
  };
}

/** Items a statement of `items` merges; fewer go one by one. */
export const ITEM_BATCH = 200;

/** Whether rows[from, to) are in key order with no key twice (a repeat in key order is next to its first). */
export function inStrictKeyOrder(rows: readonly { type: string; no: string }[], from = 0, to = rows.length): boolean {
  const end = Math.min(to, rows.length);
  for (let j = from + 1; j < end; j++) {
    if (compareKeys(rows[j - 1] as { type: string; no: string }, rows[j] as { type: string; no: string }) >= 0)
      return false;
  }
  return true;
}

/**
 * Items in the order of the catalogue's key: type, then number as `COLLATE NOCASE` compares it (ASCII
 * letters folded). Catalogue downloads come nearly in that order already, which the sort (a merge sort
 * that finds runs) passes through in one sweep; no key is built per row.
 */
export function inKeyOrder<T extends { type: string; no: string }>(rows: readonly T[]): T[] {
  return [...rows].sort(compareKeys);
}

function compareKeys(a: { type: string; no: string }, b: { type: string; no: string }): number {
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  const x = a.no;
  const y = b.no;
  const n = x.length < y.length ? x.length : y.length;
  for (let i = 0; i < n; i++) {
    let c = x.charCodeAt(i);
    let d = y.charCodeAt(i);
    if (c === d) continue;
    if (c >= 65 && c <= 90) c += 32;
    if (d >= 65 && d <= 90) d += 32;
    if (c !== d) return c - d;
  }
  return x.length - y.length;
}

/** The name index as the schema makes it (the same text, so a store's schema reads the same after a load). */
const NAME_INDEX = declaredIndexSql('catalogue_item', 'catalogue_item_by_name_key');

/**
 * Runs a load into the catalogue; when the catalogue is empty (a first load), without the name index,
 * which is built once at the end — one sort instead of an index kept up row by row. In the caller's
 * transaction, so a load cut short leaves the index as it was.
 */
export function loadingItems<T>(db: StoreDb, load: () => T): T {
  const loaded = startLoadingItems(db);
  const out = load();
  loaded();
  return out;
}

/**
 * The catalogue's tables as a server's planner needs to know them after a load: its statistics, read
 * again (else it plans the first look-ups after a first load as for an empty table: 2 ms each, not 0.1).
 */
const ANALYZE_CATALOGUE =
  'ANALYZE catalogue_item, colour, element_code, part_number, colour_translation, part_relationship';

/** After a load, on a server: the catalogue's statistics read again (`ANALYZE_CATALOGUE`). */
export function analyzeCatalogue(db: StoreDb): void {
  if (onServer(db)) db.exec(ANALYZE_CATALOGUE);
}

/** `loadingItems` for a load written piece by piece: call what it returns when the last item is written. */
export function startLoadingItems(db: StoreDb): () => void {
  // A server keeps its indexes up as it goes; SQLite's first load is faster without this one.
  if (onServer(db)) return () => analyzeCatalogue(db);
  const empty = db.prepare('SELECT NOT EXISTS (SELECT 1 FROM catalogue_item)').pluck().get() === 1;
  const indexed =
    db
      .prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'catalogue_item_by_name_key'")
      .pluck()
      .get() === NAME_INDEX;
  if (!empty || !indexed) return () => undefined;
  db.exec('DROP INDEX catalogue_item_by_name_key');
  return () => db.exec(NAME_INDEX);
}

/** The key `itemNames` answers by. */
export function itemKey(type: string, no: string): string {
  return `${type}\t${no}`;
}

/** The catalogue's names of many items in one statement, by `itemKey`: those it has. */
export function itemNames(db: ReadableDb, items: readonly { type: string; no: string }[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  if (items.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT j.a AS type, j.b AS no, c.name FROM (${pairsOfJson(db)}) j
         JOIN catalogue_item c ON c.item_type = j.a AND c.item_no = j.b`,
    )
    .raw()
    .all(JSON.stringify(items.map((i) => [i.type, i.no]))) as [string, string, string][];
  for (const [type, no, name] of rows) out.set(itemKey(type, no), name);
  return out;
}

export function catalogueItemName(db: ReadableDb, type: string, no: string): string | null {
  return (
    (db.prepare('SELECT name FROM catalogue_item WHERE item_type = ? AND item_no = ?').pluck().get(type, no) as
      string | undefined) ?? null
  );
}

/** What the translation tables hold, as the catalogue's status counts it (SPEC §5). */
export function translationCounts(db: StoreDb): {
  elementIds: number;
  colourTranslations: number;
  partTranslations: number;
  relationships: number;
} {
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    elementIds: count('SELECT count(DISTINCT element_id) FROM element_code'),
    colourTranslations: count(
      "SELECT count(*) FROM colour_translation WHERE numbering = 'rebrickable' AND bricklink_id IS NOT NULL",
    ),
    partTranslations: count("SELECT count(DISTINCT rebrickable_no) FROM part_number WHERE numbering = 'bricklink'"),
    relationships: count('SELECT count(*) FROM part_relationship'),
  };
}

/** The catalogue's items by the source each came from, largest first. */
export function itemsBySource(db: StoreDb): { source: string; items: number }[] {
  return db
    .prepare('SELECT source, count(*) AS items FROM catalogue_item GROUP BY source ORDER BY items DESC')
    .all() as { source: string; items: number }[];
}

/** How many colours and categories the catalogue has. */
export function colourAndCategoryCounts(db: ReadableDb): { colours: number; categories: number } {
  return db
    .prepare('SELECT (SELECT count(*) FROM colour) AS colours, (SELECT count(*) FROM category) AS categories')
    .get() as { colours: number; categories: number };
}

/**
 * What the catalogue holds of each kind a load counts, as its status shows it: items, colours and
 * categories, and the translation tables (`translationCounts`). Counted once, after a load.
 */
export function catalogueHeld(db: StoreDb): CatalogueHeld {
  const items = db.prepare('SELECT count(*) FROM catalogue_item').pluck().get() as number;
  return { items, ...colourAndCategoryCounts(db), ...translationCounts(db) };
}

export interface CatalogueHeld {
  readonly items: number;
  readonly colours: number;
  readonly categories: number;
  readonly elementIds: number;
  readonly colourTranslations: number;
  readonly partTranslations: number;
  readonly relationships: number;
}

/** Whether the catalogue has this part number (a prepared question, asked many times). */
export function partNumbers(db: StoreDb): (no: string) => boolean {
  const part = db.prepare("SELECT 1 FROM catalogue_item WHERE item_type = 'P' AND item_no = ?").pluck();
  return (no) => part.get(no.trim()) !== undefined;
}
