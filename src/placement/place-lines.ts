import type { StoreDb } from '../store/db.ts';
import { catalogueLookup, lookupMemory, type LookupMemory } from './catalogue-lookup.ts';
import { OTHER_COLOUR_NUMBERINGS, placeItem, placementColumns, unchanged } from './rule.ts';
import {
  countLinesToPlace,
  givenLines,
  linesToPlaceAfter,
  setPlacements,
  setWaitingLines,
  waitingLines,
  type GivenLineRow,
  type PlacingScope,
} from '../store/line-placements.ts';
import { dataVersion } from '../store/data-version.ts';

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

export interface Tally {
  lines: number;
  placed: number;
  placedIds: number[];
  unplaced: { id: number; reason: string }[];
}

const tally = (): Tally => ({ lines: 0, placed: 0, placedIds: [], unplaced: [] });

/** What places lines again in batches: the batches' answers, and what every batch placed and unplaced. */
export interface PlacingAgain {
  readonly tally: Tally;
  memory: LookupMemory;
  /** The store's data version when `memory` was filled: another writer since, and what it read may be stale. */
  seen: unknown;
}

export function placingAgain(): PlacingAgain {
  return { tally: tally(), memory: lookupMemory(), seen: null };
}

const WORDS = { otherNumberings: OTHER_COLOUR_NUMBERINGS };

/**
 * Asks for the lines of `scope` to be placed again (SPEC §5: after a catalogue's merge, in its
 * transaction): added to those waiting already, from the first line, since the merge may answer lines
 * a batch placed before it.
 */
export function askToPlaceAgain(db: StoreDb, scope: readonly PlacingScope[]): void {
  const had = waitingLines(db);
  const all = new Set<PlacingScope>([...(had?.scope ?? []), ...scope]);
  setWaitingLines(db, { scope: [...all], after: 0 });
}

/** How many lines wait to be placed again (for a progress bar's total). */
export function linesWaiting(db: StoreDb): number {
  const waiting = waitingLines(db);
  return waiting === null ? 0 : countLinesToPlace(db, waiting.scope, WORDS, waiting.after);
}

/**
 * Places the next batch of the lines waiting (`askToPlaceAgain`) and records how far it got — or that
 * none wait any more — in the caller's transaction. False when none were waiting.
 */
export function placeNextBatch(db: StoreDb, run: PlacingAgain): boolean {
  const waiting = waitingLines(db);
  if (waiting === null) return false;
  // Another desk or process wrote between the batches: what the memory read may have changed (a look-up's
  // item, a taught name), so it is read again.
  const version = dataVersion(db);
  if (version !== run.seen) {
    run.memory = lookupMemory();
    run.seen = version;
  }
  const rows = linesToPlaceAfter(db, waiting.scope, WORDS, waiting.after, LINE_BATCH);
  placeBatch(db, rows, run.tally, run.memory);
  const last = rows.at(-1)?.id;
  setWaitingLines(db, rows.length < LINE_BATCH || last === undefined ? null : { scope: waiting.scope, after: last });
  return true;
}

/**
 * Places every line waiting now, in the caller's transaction (a recovery, a small merge): batch after
 * batch, none committed apart.
 */
export function placeWaitingLinesNow(db: StoreDb): PlaceLinesResult {
  const run = placingAgain();
  while (placeNextBatch(db, run));
  return { ...run.tally, placed: run.tally.placedIds.length };
}

/**
 * Runs the placement rule (SPEC §6) again on every unplaced line of the imported documents, in batches
 * by id so that memory stays flat on big stores. Placed lines, hand placements included, are left alone.
 * The caller owns the transaction.
 */
export function placeUnplacedLines(db: StoreDb): PlaceLinesResult {
  askToPlaceAgain(db, ['unplaced']);
  return placeWaitingLinesNow(db);
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
