import type { Database } from 'better-sqlite3';
import type { ItemRef, PlacementLookup } from './rule.ts';

/**
 * The placement rule's view of a store (schema 4.2): catalogue items, colours, remembered hand
 * placements (items) and colour placements, through prepared statements. Whether colours are loaded is read once per lookup, so
 * make a new lookup after loading a catalogue.
 */
export function catalogueLookup(db: Database): PlacementLookup {
  const itemNumber = db
    .prepare<[string, string], string>('SELECT item_no FROM catalogue_item WHERE item_type = ? AND item_no = ?')
    .pluck();
  // The item only: hand_placement.colour_id is never read (early 0.9.0 builds forced it on every line).
  const byNumber = db.prepare<[string, string], ItemRef>(
    'SELECT item_type AS type, item_no AS no FROM hand_placement WHERE given_type = ? AND given_no = ?',
  );
  const byName = db.prepare<[string, string], ItemRef>(
    'SELECT item_type AS type, item_no AS no FROM hand_placement WHERE given_type = ? AND given_no IS NULL AND name_key = ?',
  );
  const colourById = db
    .prepare<[number], number>(
      "SELECT colour_id FROM colour_placement WHERE numbering = 'bricklink-id' AND given_colour_id = ?",
    )
    .pluck();
  const colourByName = db
    .prepare<[string], number>("SELECT colour_id FROM colour_placement WHERE numbering = 'name' AND given_name_key = ?")
    .pluck();
  const named = db.prepare<[string, string], ItemRef>(
    'SELECT item_type AS type, item_no AS no FROM catalogue_item WHERE item_type = ? AND name_key = ? LIMIT 2',
  );
  const hasColour = db.prepare<[number], number>('SELECT 1 FROM colour WHERE id = ?').pluck();
  const colourNamed = db.prepare<[string], number>('SELECT id FROM colour WHERE name_key = ? LIMIT 2').pluck();
  let coloursLoaded: boolean | undefined;

  return {
    itemNumber: (type, no) => itemNumber.get(type, no) ?? null,
    remembered(type, no, nameKey): ItemRef | null {
      if (no !== null) return byNumber.get(type, no) ?? null;
      if (nameKey !== null) return byName.get(type, nameKey) ?? null;
      return null;
    },
    itemsNamed: (type, nameKey) => named.all(type, nameKey),
    coloursLoaded() {
      coloursLoaded ??= db.prepare('SELECT EXISTS (SELECT 1 FROM colour)').pluck().get() === 1;
      return coloursLoaded;
    },
    hasColour: (id) => hasColour.get(id) !== undefined,
    colourNamed(nameKey) {
      const ids = colourNamed.all(nameKey);
      return ids.length === 1 ? (ids[0] ?? null) : null;
    },
    colourPlacement: (key) =>
      (key.numbering === 'bricklink-id' ? colourById.get(key.id) : colourByName.get(key.key)) ?? null,
  };
}
