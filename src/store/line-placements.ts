/**
 * Lines placed again in sets (issue 45, point 4): after a catalogue load, a look-up, an undo that moved
 * the catalogue. A batch of lines is read in one statement and written in one, so a store on a server
 * pays two round trips a batch, not two a line. Lines placed by hand, and the lines of undone documents
 * (a revival places them afresh), are left alone.
 */
import type { StoreDb } from './db.ts';
import { idsOfJson, rowsOfJson } from './dialect.ts';

/** A line as the placement rule reads it, and whether it was placed before. */
export interface GivenLineRow {
  readonly id: number;
  readonly type: string | null;
  readonly no: string | null;
  readonly name: string | null;
  readonly colourId: number | null;
  readonly colourName: string | null;
  readonly remarks: string | null;
  readonly placedBefore: 0 | 1;
  /** Its placement now: a decision that changes none of it is not written. */
  readonly itemType: string | null;
  readonly itemNo: string | null;
  readonly colour: number | null;
  readonly placedBy: string | null;
  readonly unplacedReason: string | null;
}

/** What the rule decided for a line, as its columns hold it. */
export interface LinePlacement {
  readonly id: number;
  readonly item_type: string | null;
  readonly item_no: string | null;
  readonly colour_id: number | null;
  readonly placed_by: string | null;
  readonly unplaced_reason: string | null;
}

const GIVEN = `SELECT l.id, l.given_type AS type, l.given_no AS no, l.given_name AS name,
         l.given_colour_id AS colourId, l.given_colour_name AS colourName, l.remarks,
         CASE WHEN l.item_no IS NULL THEN 0 ELSE 1 END AS placedBefore,
         l.item_type AS itemType, l.item_no AS itemNo, l.colour_id AS colour, l.placed_by AS placedBy,
         l.unplaced_reason AS unplacedReason
    FROM order_line l JOIN document d ON d.id = l.document_id`;

/** Not placed by hand, in a document that is imported (not undone). */
const OURS = `l.placed_by IS DISTINCT FROM 'hand' AND d.state = 'imported'`;

/** The given lines among `ids` that are placed again, in id order: one statement. */
export function givenLines(db: StoreDb, ids: readonly number[]): GivenLineRow[] {
  if (ids.length === 0) return [];
  return db
    .prepare(`${GIVEN} WHERE l.id IN (${idsOfJson(db)}) AND ${OURS} ORDER BY l.id`)
    .all(JSON.stringify(ids)) as GivenLineRow[];
}

/** The next unplaced lines after `after`, in id order, at most `limit`. */
export function unplacedLinesAfter(db: StoreDb, after: number, limit: number): GivenLineRow[] {
  return db
    .prepare(`${GIVEN} WHERE l.item_no IS NULL AND l.id > ? AND d.state = 'imported' ORDER BY l.id LIMIT ?`)
    .all(after, limit) as GivenLineRow[];
}

export function countUnplacedLines(db: StoreDb): number {
  return db
    .prepare(
      `SELECT count(*) FROM order_line l JOIN document d ON d.id = l.document_id WHERE l.item_no IS NULL AND d.state = 'imported'`,
    )
    .pluck()
    .get() as number;
}

/** The ids of lines placed by the rule (not by hand) in imported documents that match `where` (on `l`). */
export function ruleLineIds(db: StoreDb, where: string): number[] {
  return db
    .prepare(
      `SELECT l.id FROM order_line l JOIN document d ON d.id = l.document_id WHERE ${OURS} AND (${where}) ORDER BY l.id`,
    )
    .pluck()
    .all() as number[];
}

/** Writes the rule's decisions for a batch of lines: one statement. */
export function setPlacements(db: StoreDb, placements: readonly LinePlacement[]): void {
  if (placements.length === 0) return;
  const rows = rowsOfJson(db, [
    ['id', 'integer'],
    ['t', 'text'],
    ['n', 'text'],
    ['c', 'integer'],
    ['b', 'text'],
    ['r', 'text'],
  ]);
  db.prepare(
    `UPDATE order_line SET item_type = v.t, item_no = v.n, colour_id = v.c, placed_by = v.b, unplaced_reason = v.r
       FROM (${rows}) AS v WHERE order_line.id = v.id`,
  ).run(
    JSON.stringify(placements.map((p) => [p.id, p.item_type, p.item_no, p.colour_id, p.placed_by, p.unplaced_reason])),
  );
}
