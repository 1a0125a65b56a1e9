import type { StoreDb } from '../store/db.ts';
import { catalogueLookup } from './catalogue-lookup.ts';
import { OTHER_COLOUR_NUMBERINGS, placeItem, type GivenItem } from './rule.ts';

export interface PlaceLinesResult {
  readonly lines: number;
  readonly placed: number;
  /** The lines it placed that were unplaced before. */
  readonly placedIds: readonly number[];
  /** Lines that were placed and are not now (a catalogue's first colours can do that: SPEC §5), with why. */
  readonly unplaced: readonly { readonly id: number; readonly reason: string }[];
}

interface StoredGiven extends GivenItem {
  readonly id: number;
  readonly placedBefore: 0 | 1;
}

const SELECT_GIVEN = `SELECT id, given_type AS type, given_no AS no, given_name AS name,
         given_colour_id AS colourId, given_colour_name AS colourName, remarks, item_no IS NOT NULL AS placedBefore
    FROM order_line`;

/**
 * Runs the placement rule (SPEC §6) again on every unplaced line, in batches by id so that memory
 * stays flat on big stores. Placed lines, hand placements included, are left alone. The caller owns
 * the transaction.
 */
export function placeUnplacedLines(db: StoreDb, onProgress?: (done: number, total: number) => void): PlaceLinesResult {
  const total = db.prepare('SELECT count(*) FROM order_line WHERE item_no IS NULL').pluck().get() as number;
  const batch = db.prepare<[number], StoredGiven>(
    `${SELECT_GIVEN} WHERE item_no IS NULL AND id > ? ORDER BY id LIMIT 2000`,
  );
  const lookup = catalogueLookup(db);
  const update = lineUpdater(db);
  let done = 0;
  const placedIds: number[] = [];
  let after = 0;
  for (;;) {
    const rows = batch.all(after);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (update(row.id, placeItem(row, lookup))) placedIds.push(row.id);
      after = row.id;
    }
    done += rows.length;
    onProgress?.(done, total);
  }
  return { lines: done, placed: placedIds.length, placedIds, unplaced: [] };
}

/**
 * When a catalogue's first colours arrive, the lines placed before (their colour kept unchecked, as
 * SPEC §6 says) are checked at last: every line placed by the rule that gives a colour is placed
 * again. Lines placed by hand keep the colour staff chose. The caller owns the transaction.
 */
export function placeColouredLinesAgain(db: StoreDb): PlaceLinesResult {
  const ids = db
    .prepare(
      `SELECT id FROM order_line
        WHERE item_no IS NOT NULL AND placed_by IS DISTINCT FROM 'hand'
          AND (coalesce(given_colour_id, 0) <> 0 OR nullif(trim(given_colour_name), '') IS NOT NULL)`,
    )
    .pluck()
    .all() as number[];
  return placeLinesAgain(db, ids);
}

/**
 * When the colour table (SPEC §5) arrives, the lines that give a colour in another numbering
 * ("Rebrickable colour 4"), placed until then without it (SPEC §6), are placed again with the colour
 * it translates to, or unplaced for a colour BrickLink has not. Lines placed by hand are left alone.
 */
export function placeOtherNumberingColoursAgain(db: StoreDb): PlaceLinesResult {
  const ids = db
    .prepare(
      `SELECT id FROM order_line
        WHERE item_no IS NOT NULL AND placed_by IS DISTINCT FROM 'hand'
          AND (${OTHER_COLOUR_NUMBERINGS.map((n) => `given_colour_name LIKE '${n} colour %'`).join(' OR ')})`,
    )
    .pluck()
    .all() as number[];
  return placeLinesAgain(db, ids);
}

/** Places the given lines again, whatever their state, except those placed by hand. */
export function placeLinesAgain(db: StoreDb, lineIds: Iterable<number>): PlaceLinesResult {
  const select = db.prepare<[number], StoredGiven>(
    `${SELECT_GIVEN} WHERE id = ? AND placed_by IS DISTINCT FROM 'hand'`,
  );
  const lookup = catalogueLookup(db);
  const update = lineUpdater(db);
  let lines = 0;
  let placed = 0;
  const placedIds: number[] = [];
  const unplaced: { id: number; reason: string }[] = [];
  for (const id of lineIds) {
    const row = select.get(id);
    if (row === undefined) continue;
    lines += 1;
    const p = placeItem(row, lookup);
    if (update(row.id, p)) {
      placed += 1;
      if (row.placedBefore === 0) placedIds.push(row.id);
    } else if (row.placedBefore === 1 && p.reason !== null) unplaced.push({ id: row.id, reason: p.reason });
  }
  return { lines, placed, placedIds, unplaced };
}

function lineUpdater(db: StoreDb): (id: number, p: ReturnType<typeof placeItem>) => boolean {
  const stmt = db.prepare<[string | null, string | null, number | null, string | null, string | null, number]>(
    `UPDATE order_line
        SET item_type = ?, item_no = ?, colour_id = ?, placed_by = ?, unplaced_reason = ?
      WHERE id = ?`,
  );
  return (id, p) => {
    stmt.run(p.item?.type ?? null, p.item?.no ?? null, p.colourId, p.by, p.reason, id);
    return p.item !== null;
  };
}
