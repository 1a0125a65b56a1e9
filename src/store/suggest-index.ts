/**
 * What the suggestion index (`src/suggest/catalogue-index.ts`) is built from, each read whole, in the
 * caller's read transaction: the catalogue's items, the names staff taught, the element tables and the
 * colour tables.
 */
import type { ReadableDb, StoreDb } from './db.ts';
import type { ItemType } from '../vocabulary/item-types.ts';

/** An item by its kind, number and name: as the catalogue keeps it, or as staff taught a name for it. */
export interface NamedItem {
  readonly type: ItemType;
  readonly no: string;
  readonly name: string;
}

/** One element row: numbering (`bricklink`, `rebrickable`), part number, colour as given. */
export type ElementTuple = readonly [numbering: string, no: string, colour: string];

/** The names staff taught (SPEC §8), in the order they were taught. */
export function taughtNames(db: ReadableDb): NamedItem[] {
  return db.prepare('SELECT item_type AS type, item_no AS no, name FROM taught_name ORDER BY id').all() as NamedItem[];
}

export function catalogueItemsNamed(db: StoreDb): NamedItem[] {
  return db.prepare('SELECT item_type AS type, item_no AS no, name FROM catalogue_item').all() as NamedItem[];
}

/** Every element row, as tuples (a quarter of a million on the real tables). */
export function elementTuples(db: StoreDb): ElementTuple[] {
  return db.prepare('SELECT numbering, item_no, colour FROM element_code').raw(true).all() as ElementTuple[];
}

/** The colour tables: the catalogue's colours by name, and the other numberings' colours with their BrickLink ids. */
export function colourTables(db: StoreDb): {
  colours: { id: number; name: string }[];
  translations: { numbering: string; key: string; id: number | null }[];
} {
  return {
    colours: db.prepare('SELECT id, name FROM colour').all() as { id: number; name: string }[],
    translations: db.prepare('SELECT numbering, key, bricklink_id AS id FROM colour_translation').all() as {
      numbering: string;
      key: string;
      id: number | null;
    }[],
  };
}
