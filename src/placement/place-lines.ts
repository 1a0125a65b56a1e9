import type { StoreDb } from '../store/db.ts';
import { catalogueLookup, lookupMemory, type LookupMemory } from './catalogue-lookup.ts';
import { OTHER_COLOUR_NUMBERINGS, placeItem, placementColumns, unchanged } from './rule.ts';
import {
  countUnplacedLines,
  givenLines,
  ruleLineIds,
  setPlacements,
  unplacedLinesAfter,
  type GivenLineRow,
} from '../store/line-placements.ts';

export interface PlaceLinesResult {
  readonly lines: number;
  readonly placed: number;
  /** The lines it placed that were unplaced before. */
  readonly placedIds: readonly number[];
  /** Lines that were placed and are not now (a catalogue's first colours can do that: SPEC §5), with why. */
  readonly unplaced: readonly { readonly id: number; readonly reason: string }[];
}

/**
 * Lines a batch: read in one statement, their answers read ahead on a server, written in one. Large, so a
 * server store's round trips are few (its colour questions are asked again each batch); small enough
 * that a batch's rows and answers take a few MB.
 */
export const LINE_BATCH = 5000;

/**
 * Places a batch of lines by the rule (SPEC §6) and writes what it decided in one statement. On a server
 * store the lookup reads the batch's answers ahead (read-ahead.ts): a few round trips a batch.
 */
function placeBatch(db: StoreDb, rows: readonly GivenLineRow[], into: Tally, memory: LookupMemory): void {
  if (rows.length === 0) return;
  const lookup = catalogueLookup(
    db,
    rows.map((r) => ({ given: r, remarks: r.remarks })),
    memory,
  );
  const decided = rows.map((row) => ({ row, p: placeItem(row, lookup) }));
  // Only what changes is written: colours arriving mostly confirm what lines had.
  setPlacements(
    db,
    decided.flatMap(({ row, p }) => {
      const columns = placementColumns(p);
      return unchanged(columns, row) ? [] : [{ id: row.id, ...columns }];
    }),
  );
  for (const { row, p } of decided) {
    into.lines += 1;
    if (p.item !== null) {
      into.placed += 1;
      if (row.placedBefore === 0) into.placedIds.push(row.id);
    } else if (row.placedBefore === 1 && p.reason !== null) into.unplaced.push({ id: row.id, reason: p.reason });
  }
}

interface Tally {
  lines: number;
  placed: number;
  placedIds: number[];
  unplaced: { id: number; reason: string }[];
}

const tally = (): Tally => ({ lines: 0, placed: 0, placedIds: [], unplaced: [] });

/**
 * Runs the placement rule (SPEC §6) again on every unplaced line of the imported documents, in batches
 * by id so that memory stays flat on big stores. Placed lines, hand placements included, are left alone.
 * The caller owns the transaction.
 */
export function placeUnplacedLines(db: StoreDb, onProgress?: (done: number, total: number) => void): PlaceLinesResult {
  const total = countUnplacedLines(db);
  const t = tally();
  const memory = lookupMemory();
  for (let after = 0; ;) {
    const rows = unplacedLinesAfter(db, after, LINE_BATCH);
    if (rows.length === 0) break;
    placeBatch(db, rows, t, memory);
    after = rows.at(-1)?.id ?? after;
    onProgress?.(t.lines, total);
  }
  return { lines: t.lines, placed: t.placedIds.length, placedIds: t.placedIds, unplaced: [] };
}

/**
 * When a catalogue's first colours arrive, the lines placed before (their colour kept unchecked, as
 * SPEC §6 says) are checked at last: every line placed by the rule that gives a colour is placed
 * again. Lines placed by hand keep the colour staff chose. The caller owns the transaction.
 */
export function placeColouredLinesAgain(
  db: StoreDb,
  onProgress?: (done: number, total: number) => void,
): PlaceLinesResult {
  const ids = ruleLineIds(
    db,
    "l.item_no IS NOT NULL AND (coalesce(l.given_colour_id, 0) <> 0 OR nullif(trim(l.given_colour_name), '') IS NOT NULL)",
  );
  return placeLinesAgain(db, ids, onProgress);
}

/**
 * When the colour table (SPEC §5) arrives, the lines that give a colour in another numbering
 * ("Rebrickable colour 4"), placed until then without it (SPEC §6), are placed again with the colour
 * it translates to, or unplaced for a colour BrickLink has not. Lines placed by hand are left alone.
 */
export function placeOtherNumberingColoursAgain(
  db: StoreDb,
  onProgress?: (done: number, total: number) => void,
): PlaceLinesResult {
  const ids = ruleLineIds(
    db,
    `l.item_no IS NOT NULL AND (${OTHER_COLOUR_NUMBERINGS.map((n) => `l.given_colour_name LIKE '${n} colour %'`).join(' OR ')})`,
  );
  return placeLinesAgain(db, ids, onProgress);
}

/**
 * Places the given lines again, whatever their state, except those placed by hand and those of undone
 * documents: in batches, each read and written in one statement.
 */
export function placeLinesAgain(
  db: StoreDb,
  lineIds: Iterable<number>,
  onProgress?: (done: number, total: number) => void,
): PlaceLinesResult {
  const ids = [...lineIds];
  const t = tally();
  // The batches' lines repeat (a shop's parts do): what one batch read, the next does not read again.
  const memory = lookupMemory();
  for (let i = 0; i < ids.length; i += LINE_BATCH) {
    placeBatch(db, givenLines(db, ids.slice(i, i + LINE_BATCH)), t, memory);
    onProgress?.(Math.min(i + LINE_BATCH, ids.length), ids.length);
  }
  return t;
}
