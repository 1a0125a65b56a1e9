/**
 * FROZEN with schema 4.2: the placement rule of SPEC §6 as brick-work 0.9.0 wrote it, for the code
 * that writes stores during an upgrade (the 4.1 → 4.2 step, the 0.9.0 fix-ups). Never import the live
 * rule (src/placement/) here and never edit this file: an upgrade step must write the same rows next
 * year as today, whatever later builds do to the rule, and it reads only 4.2's tables. A later schema
 * that needs another rule gets its own frozen copy beside its own step.
 */
import type { StoreDb } from '../../db.ts';

const TYPES = new Set(['P', 'S', 'M', 'B', 'G', 'C', 'I', 'O']);

const REASON = {
  noNumberNorName: 'The line has neither a BrickLink number nor a name',
  typeNotKnown: 'The item type is not known',
  nameSeveral: 'The name matches several items',
  numberNotInCatalogue: 'The BrickLink number is not in the catalogue',
  nameNotInCatalogue: 'The name is not in the catalogue',
  colourNotInCatalogue: 'The colour is not in the catalogue',
} as const;

/** `catalogue_item.name_key` and `colour.name_key` as 0.9.0 folds them: case and spacing. */
export function foldName42(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

export interface Given42 {
  readonly type: string | null;
  readonly no: string | null;
  readonly name: string | null;
  readonly colourId: number | null;
  readonly colourName: string | null;
}

export interface Placed42 {
  readonly itemType: string | null;
  readonly itemNo: string | null;
  readonly colourId: number | null;
  readonly by: 'number' | 'remembered' | 'name' | null;
  readonly reason: string | null;
}

function clean(text: string | null): string | null {
  const t = text?.trim();
  return t ? t : null;
}

/** The lookups of the rule, over 4.2's tables only. */
function lookup42(db: StoreDb) {
  const itemNumber = db.prepare('SELECT item_no FROM catalogue_item WHERE item_type = ? AND item_no = ?').pluck();
  const byNumber = db.prepare(
    'SELECT item_type AS type, item_no AS no FROM hand_placement WHERE given_type = ? AND given_no = ?',
  );
  const byName = db.prepare(
    'SELECT item_type AS type, item_no AS no FROM hand_placement WHERE given_type = ? AND given_no IS NULL AND name_key = ?',
  );
  const named = db.prepare(
    'SELECT item_type AS type, item_no AS no FROM catalogue_item WHERE item_type = ? AND name_key = ? LIMIT 2',
  );
  const hasColour = db.prepare('SELECT 1 FROM colour WHERE id = ?').pluck();
  const colourNamed = db.prepare('SELECT id FROM colour WHERE name_key = ? LIMIT 2').pluck();
  const colourById = db
    .prepare("SELECT colour_id FROM colour_placement WHERE numbering = 'bricklink-id' AND given_colour_id = ?")
    .pluck();
  const colourByName = db
    .prepare("SELECT colour_id FROM colour_placement WHERE numbering = 'name' AND given_name_key = ?")
    .pluck();
  const coloursLoaded = db.prepare('SELECT EXISTS (SELECT 1 FROM colour)').pluck().get() === 1;
  type Ref = { type: string; no: string };
  return {
    itemNumber: (type: string, no: string) => (itemNumber.get(type, no) as string | undefined) ?? null,
    remembered: (type: string, no: string | null, nameKey: string | null): Ref | null =>
      no !== null
        ? ((byNumber.get(type, no) as Ref | undefined) ?? null)
        : nameKey !== null
          ? ((byName.get(type, nameKey) as Ref | undefined) ?? null)
          : null,
    named: (type: string, nameKey: string) => named.all(type, nameKey) as Ref[],
    coloursLoaded,
    hasColour: (id: number) => hasColour.get(id) !== undefined,
    colourNamed(nameKey: string): number | null {
      const ids = colourNamed.all(nameKey) as number[];
      return ids.length === 1 ? (ids[0] ?? null) : null;
    },
    colourPlacedById: (id: number) => (colourById.get(id) as number | undefined) ?? null,
    colourPlacedByName: (key: string) => (colourByName.get(key) as number | undefined) ?? null,
  };
}

type Lookup42 = ReturnType<typeof lookup42>;

function unplaced(reason: string): Placed42 {
  return { itemType: null, itemNo: null, colourId: null, by: null, reason };
}

/** SPEC §6 as of 0.9.0: number, then a remembered item (never its colour), then a unique name; then the colour. */
function place42(given: Given42, l: Lookup42): Placed42 {
  const no = clean(given.no);
  const name = clean(given.name);
  if (no === null && name === null) return unplaced(REASON.noNumberNorName);
  const type = clean(given.type)?.toUpperCase() ?? 'P';
  if (!TYPES.has(type)) return unplaced(REASON.typeNotKnown);
  const nameKey = name === null ? null : foldName42(name);

  let item: { type: string; no: string } | null = null;
  let by: Placed42['by'] = null;
  let ambiguous = false;
  const catalogueNo = no === null ? null : l.itemNumber(type, no);
  if (catalogueNo !== null) [item, by] = [{ type, no: catalogueNo }, 'number'];
  if (item === null) {
    const memory = l.remembered(type, no, no === null ? nameKey : null);
    if (memory !== null) [item, by] = [memory, 'remembered'];
  }
  if (item === null && nameKey !== null) {
    const named = l.named(type, nameKey);
    if (named.length === 1 && named[0] !== undefined) [item, by] = [named[0], 'name'];
    else if (named.length > 1) ambiguous = true;
  }
  if (item === null) {
    if (ambiguous) return unplaced(REASON.nameSeveral);
    return unplaced(no !== null ? REASON.numberNotInCatalogue : REASON.nameNotInCatalogue);
  }

  const colourName = clean(given.colourName);
  const givenId = given.colourId === 0 ? null : given.colourId;
  const placed = (colourId: number | null): Placed42 => ({
    itemType: item.type,
    itemNo: item.no,
    colourId,
    by,
    reason: null,
  });
  if (givenId === null && colourName === null) return placed(null);
  if (!l.coloursLoaded) return placed(givenId);
  let colourId: number | null;
  if (givenId !== null) colourId = l.hasColour(givenId) ? givenId : l.colourPlacedById(givenId);
  else {
    const key = foldName42(colourName ?? '');
    colourId = l.colourNamed(key) ?? l.colourPlacedByName(key);
  }
  return colourId === null ? unplaced(REASON.colourNotInCatalogue) : placed(colourId);
}

const SELECT_GIVEN = `SELECT id, given_type AS type, given_no AS no, given_name AS name,
    given_colour_id AS colourId, given_colour_name AS colourName FROM order_line`;

function writer(db: StoreDb) {
  const update = db.prepare(
    'UPDATE order_line SET item_type = ?, item_no = ?, colour_id = ?, placed_by = ?, unplaced_reason = ? WHERE id = ?',
  );
  return (id: number, p: Placed42) => update.run(p.itemType, p.itemNo, p.colourId, p.by, p.reason, id);
}

/** Runs the rule on every line whose placement `where` selects, in batches by id. Caller owns the transaction. */
export function placeLines42(
  db: StoreDb,
  where: string,
  onProgress?: (done: number, total: number) => void,
): { lines: number; placed: number } {
  const total = db.prepare(`SELECT count(*) FROM order_line WHERE ${where}`).pluck().get() as number;
  const batch = db.prepare(`${SELECT_GIVEN} WHERE (${where}) AND id > ? ORDER BY id LIMIT 2000`);
  const l = lookup42(db);
  const write = writer(db);
  let [done, placed, after] = [0, 0, 0];
  for (;;) {
    const rows = batch.all(after) as (Given42 & { id: number })[];
    if (rows.length === 0) break;
    for (const row of rows) {
      const p = place42(row, l);
      write(row.id, p);
      if (p.itemNo !== null) placed += 1;
      after = row.id;
    }
    done += rows.length;
    onProgress?.(done, total);
  }
  return { lines: done, placed };
}

/** How a colour placement keys a given colour: by its BrickLink id, or by its folded name when it gives no id. */
export type ColourKey42 =
  { readonly numbering: 'bricklink-id'; readonly id: number } | { readonly numbering: 'name'; readonly key: string };

/**
 * For each line's given colour, its colour-placement key when the catalogue does not know that colour;
 * null when it gives none, when the catalogue knows it, or when no colours are loaded (nothing is unknown then).
 */
export function unknownColours42(db: StoreDb): (given: Pick<Given42, 'colourId' | 'colourName'>) => ColourKey42 | null {
  const l = lookup42(db);
  return (given) => {
    if (!l.coloursLoaded) return null;
    const id = given.colourId === 0 ? null : given.colourId;
    if (id !== null) return l.hasColour(id) ? null : { numbering: 'bricklink-id', id };
    const name = clean(given.colourName);
    if (name === null) return null;
    const key = foldName42(name);
    return l.colourNamed(key) === null ? { numbering: 'name', key } : null;
  };
}
