import type { ReadableDb, StoreDb } from './db.ts';
import type { ItemType } from '../vocabulary/item-types.ts';

/**
 * What staff taught by placing lines by hand (SPEC §8), tables `hand_placement` (the item for a given
 * number or name — never a colour) and `colour_placement` (the colour for a given colour the catalogue
 * does not know). Writes go through the undo recorder; these are the reads.
 */

export interface ItemMemory {
  readonly id: number;
  /** What the lines gave: a type and a number, or (without a number) a folded name. */
  readonly given: { readonly type: string; readonly no: string | null; readonly name: string | null };
  readonly item: { readonly type: ItemType; readonly no: string; readonly name: string | null };
  readonly createdAt: string;
}

export type ColourNumbering = 'bricklink-id' | 'name';

export interface ColourMemory {
  readonly id: number;
  /** The given colour: a BrickLink colour id, or a folded colour name for lines without an id. */
  readonly given: {
    readonly numbering: ColourNumbering;
    readonly colourId: number | null;
    readonly name: string | null;
  };
  readonly colour: { readonly id: number; readonly name: string | null };
  readonly createdAt: string;
}

/** The memory of a given number, or of a folded name when there is no number; null when there is none. */
export function findItemMemory(
  db: StoreDb,
  type: string,
  no: string | null,
  nameKey: string | null,
): { id: number; itemType: string; itemNo: string } | null {
  const row =
    no !== null
      ? db
          .prepare(
            'SELECT id, item_type AS itemType, item_no AS itemNo FROM hand_placement WHERE given_type = ? AND given_no = ?',
          )
          .get(type, no)
      : db
          .prepare(
            'SELECT id, item_type AS itemType, item_no AS itemNo FROM hand_placement WHERE given_type = ? AND given_no IS NULL AND name_key = ?',
          )
          .get(type, nameKey);
  return (row as { id: number; itemType: string; itemNo: string } | undefined) ?? null;
}

export function findColourMemory(
  db: StoreDb,
  key: { numbering: 'bricklink-id'; id: number } | { numbering: 'name'; key: string },
): { id: number; colourId: number } | null {
  const row =
    key.numbering === 'bricklink-id'
      ? db
          .prepare(
            "SELECT id, colour_id AS colourId FROM colour_placement WHERE numbering = 'bricklink-id' AND given_colour_id = ?",
          )
          .get(key.id)
      : db
          .prepare(
            "SELECT id, colour_id AS colourId FROM colour_placement WHERE numbering = 'name' AND given_name_key = ?",
          )
          .get(key.key);
  return (row as { id: number; colourId: number } | undefined) ?? null;
}

export function itemMemories(db: ReadableDb): ItemMemory[] {
  const rows = db
    .prepare(
      `SELECT h.id, h.given_type, h.given_no, h.name_key, h.item_type, h.item_no, c.name AS item_name, h.created_at
         FROM hand_placement h LEFT JOIN catalogue_item c ON c.item_type = h.item_type AND c.item_no = h.item_no
        ORDER BY h.id`,
    )
    .all() as {
    id: number;
    given_type: string;
    given_no: string | null;
    name_key: string | null;
    item_type: ItemType;
    item_no: string;
    item_name: string | null;
    created_at: string;
  }[];
  return rows.map((r) => ({
    id: r.id,
    given: { type: r.given_type, no: r.given_no, name: r.name_key },
    item: { type: r.item_type, no: r.item_no, name: r.item_name },
    createdAt: r.created_at,
  }));
}

export function colourMemories(db: ReadableDb): ColourMemory[] {
  const rows = db
    .prepare(
      `SELECT p.id, p.numbering, p.given_colour_id, p.given_name_key, p.colour_id, c.name AS colour_name, p.created_at
         FROM colour_placement p LEFT JOIN colour c ON c.id = p.colour_id ORDER BY p.id`,
    )
    .all() as {
    id: number;
    numbering: ColourNumbering;
    given_colour_id: number | null;
    given_name_key: string | null;
    colour_id: number;
    colour_name: string | null;
    created_at: string;
  }[];
  return rows.map((r) => ({
    id: r.id,
    given: { numbering: r.numbering, colourId: r.given_colour_id, name: r.given_name_key },
    colour: { id: r.colour_id, name: r.colour_name },
    createdAt: r.created_at,
  }));
}

export interface TaughtNameMemory {
  readonly id: number;
  /** The name as the line gave it. */
  readonly name: string;
  readonly item: { readonly type: ItemType; readonly no: string; readonly name: string | null };
  readonly createdAt: string;
}

/** The names staff taught items by placing lines by hand (extra names for suggestions). */
export function taughtNames(db: ReadableDb): TaughtNameMemory[] {
  const rows = db
    .prepare(
      `SELECT t.id, t.name, t.item_type, t.item_no, c.name AS item_name, t.created_at
         FROM taught_name t LEFT JOIN catalogue_item c ON c.item_type = t.item_type AND c.item_no = t.item_no
        ORDER BY t.id`,
    )
    .all() as {
    id: number;
    name: string;
    item_type: ItemType;
    item_no: string;
    item_name: string | null;
    created_at: string;
  }[];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    item: { type: r.item_type, no: r.item_no, name: r.item_name },
    createdAt: r.created_at,
  }));
}

/** Whether this item was already taught this (folded) name. */
export function findTaughtName(db: StoreDb, type: string, no: string, nameKey: string): number | null {
  return (
    (db
      .prepare('SELECT id FROM taught_name WHERE item_type = ? AND item_no = ? AND name_key = ?')
      .pluck()
      .get(type, no, nameKey) as number | undefined) ?? null
  );
}

/**
 * A number that moves whenever what suggestions search moves — the catalogue (its generation) or the
 * names staff taught — so that an index built from them knows it is stale, in any process.
 */
export function suggestionGeneration(db: StoreDb): string {
  const read = db
    .prepare("SELECT key, value FROM setting WHERE key IN ('catalogue.generation', 'taught.generation')")
    .all() as { key: string; value: string }[];
  const value = (key: string) => read.find((r) => r.key === key)?.value ?? '0';
  return `${value('catalogue.generation')}:${value('taught.generation')}`;
}
