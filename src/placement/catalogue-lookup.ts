import type { Database } from 'better-sqlite3';
import { colourNameKey } from './fold.ts';
import type { ElementMatch, ItemRef, PlacementLookup, Translation } from './rule.ts';

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
  let colourTable: boolean | undefined;
  const colourTranslationRow = db.prepare<[string, string], { bricklink_id: number | null }>(
    'SELECT bricklink_id FROM colour_translation WHERE numbering = ? AND key = ?',
  );

  // Other numberings (SPEC §6 step 3), through the translation tables, whichever numbering the catalogue speaks.
  const partNo = db
    .prepare<[string], string>("SELECT item_no FROM catalogue_item WHERE item_type = 'P' AND item_no = ?")
    .pluck();
  const elementRows = db.prepare<[string], { numbering: 'bricklink' | 'rebrickable'; item_no: string; colour: string }>(
    'SELECT numbering, item_no, colour FROM element_code WHERE element_id = ?',
  );
  const bricklinkOf = db
    .prepare<[string], string>("SELECT item_no FROM part_number WHERE rebrickable_no = ? AND numbering = 'bricklink'")
    .pluck();
  const rebrickableOf = db
    .prepare<[string, string], string>('SELECT rebrickable_no FROM part_number WHERE numbering = ? AND item_no = ?')
    .pluck();
  const colourTranslation = db
    .prepare<[string, string], number | null>(
      'SELECT bricklink_id FROM colour_translation WHERE numbering = ? AND key = ?',
    )
    .pluck();
  /** A part number in `numbering` as the catalogue has it: itself, or through the cross-references. */
  const partIn = (numbering: 'bricklink' | 'rebrickable', no: string): string[] => {
    const own = partNo.get(no);
    if (own !== undefined) return [own];
    const others = numbering === 'rebrickable' ? bricklinkOf.all(no) : rebrickableOf.all('bricklink', no);
    return others.flatMap((o) => partNo.get(o) ?? []);
  };
  /** A colour an element table gives, in BrickLink's ids: BrickLink's name, or Rebrickable's id, through the colour table. */
  const elementColour = (numbering: 'bricklink' | 'rebrickable', colour: string): number | null => {
    if (numbering === 'rebrickable') return colourTranslation.get('rebrickable', colour) ?? null;
    const ids = colourNamed.all(colourNameKey(colour));
    if (ids.length === 1) return ids[0] ?? null;
    return colourTranslation.get('name', colourNameKey(colour)) ?? null;
  };

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
    hasColourTable() {
      colourTable ??= db.prepare('SELECT EXISTS (SELECT 1 FROM colour_translation)').pluck().get() === 1;
      return colourTable;
    },
    translateColour(numbering, key) {
      const row = colourTranslationRow.get(numbering, key);
      return row === undefined ? undefined : row.bricklink_id;
    },
    elementOf(id): ElementMatch[] {
      const rows = elementRows.all(id);
      if (rows.length === 0) return [];
      const matches = (numbering: 'bricklink' | 'rebrickable') =>
        rows
          .filter((r) => r.numbering === numbering)
          .flatMap((r) =>
            partIn(numbering, r.item_no).map((no) => ({
              item: { type: 'P' as const, no },
              colourId: elementColour(numbering, r.colour),
            })),
          );
      // BrickLink's own codes first: they speak the catalogue's numbering; Rebrickable's where BrickLink's place
      // nothing, or to tell which of the items BrickLink lists for one element (2453a, 2453b) it is.
      const bricklink = matches('bricklink');
      if (bricklink.length === 0) return matches('rebrickable');
      const items = new Set(bricklink.map((m) => m.item.no.toLowerCase()));
      if (items.size === 1) return bricklink;
      const agreed = new Set(
        matches('rebrickable')
          .map((m) => m.item.no.toLowerCase())
          .filter((no) => items.has(no)),
      );
      if (agreed.size !== 1) return bricklink;
      return bricklink.filter((m) => agreed.has(m.item.no.toLowerCase()));
    },
    translationsOf(no): Translation[] {
      const found = new Map<string, Translation>();
      const add = (item: string, via: string) => {
        if (item.toLowerCase() !== no.toLowerCase() && !found.has(item))
          found.set(item, { item: { type: 'P', no: item }, via });
      };
      // A Rebrickable number, in a catalogue of BrickLink's numbers.
      for (const b of bricklinkOf.all(no)) {
        const own = partNo.get(b);
        if (own !== undefined) add(own, `Rebrickable ${no} = BrickLink ${own}`);
      }
      // A BrickLink or LDraw number, in a catalogue of Rebrickable's numbers (or of BrickLink's, by way of it).
      for (const numbering of ['bricklink', 'ldraw'] as const) {
        const name = numbering === 'bricklink' ? 'BrickLink' : 'LDraw';
        for (const r of rebrickableOf.all(numbering, no)) {
          const own = partNo.get(r);
          if (own !== undefined) add(own, `${name} ${no} = Rebrickable ${own}`);
          if (numbering === 'ldraw') {
            for (const b of bricklinkOf.all(r)) {
              const bl = partNo.get(b);
              if (bl !== undefined) add(bl, `LDraw ${no} = BrickLink ${bl}`);
            }
          }
        }
      }
      return [...found.values()];
    },
  };
}
