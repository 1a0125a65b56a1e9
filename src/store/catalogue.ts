import type { Database } from 'better-sqlite3';

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
export function catalogueWriters(db: Database) {
  const item = db.prepare(
    `INSERT INTO catalogue_item (item_type, item_no, name, name_key, category_id, source) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (item_type, item_no) DO UPDATE
        SET name = excluded.name, name_key = excluded.name_key,
            category_id = coalesce(excluded.category_id, catalogue_item.category_id), source = excluded.source
      WHERE name IS NOT excluded.name OR category_id IS NOT coalesce(excluded.category_id, category_id)
         OR source IS NOT excluded.source`,
  );
  const colour = db.prepare(
    `INSERT INTO colour (id, name, name_key, source) VALUES (?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, source = excluded.source
      WHERE name IS NOT excluded.name OR source IS NOT excluded.source`,
  );
  const swatch = db.prepare(
    `INSERT INTO colour_swatch (colour_id, rgb) VALUES (?, ?)
     ON CONFLICT (colour_id) DO UPDATE SET rgb = excluded.rgb WHERE rgb IS NOT excluded.rgb`,
  );
  const category = db.prepare(
    `INSERT INTO category (id, name, source) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, source = excluded.source
      WHERE name IS NOT excluded.name OR source IS NOT excluded.source`,
  );
  return {
    item(r: CatalogueItemRow, source: string): void {
      item.run(r.type, r.no, r.name, r.nameKey, r.categoryId, source);
    },
    colour(r: { id: number; name: string; nameKey: string; rgb: string | null }, source: string): void {
      colour.run(r.id, r.name, r.nameKey, source);
      if (r.rgb !== null) swatch.run(r.id, r.rgb);
    },
    category(r: { id: number; name: string }, source: string): void {
      category.run(r.id, r.name, source);
    },
  };
}
