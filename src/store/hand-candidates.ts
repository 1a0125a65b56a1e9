import type { StoreDb } from './db.ts';
import { withNumbering, type GivenLineRow } from './line-placements.ts';

/**
 * The saved lines a hand placement's memories may place at once (SPEC §8): lines of imported documents,
 * never the line placed by hand itself (`except`) nor a line placed by hand.
 */

/** A saved line as the placement rule reads it again (how `GivenLineRow` has it), and its order's reference. */
export interface HandCandidate extends Omit<GivenLineRow, 'placedBefore'> {
  readonly orderReference: string;
}

/**
 * The lines come first (CROSS JOIN: SQLite keeps that order), each kind of candidate read by an index of its
 * own (issue 61 §1); read from the documents, SQLite would look in every imported document's lines.
 */
const CANDIDATE = `SELECT l.id, l.given_type AS type, l.given_no AS no, l.given_name AS name, l.given_colour_id AS colourId,
    l.given_colour_name AS colourName, l.item_type AS itemType, l.item_no AS itemNo, l.colour_id AS colour,
    l.placed_by AS placedBy, l.unplaced_reason AS unplacedReason, l.remarks, o.reference AS orderReference, d.format
  FROM order_line l CROSS JOIN document d CROSS JOIN shop_order o
 WHERE d.id = l.document_id AND o.id = d.order_id
   AND d.state = 'imported' AND l.id <> ? AND l.placed_by IS DISTINCT FROM 'hand'`;
type CandidateAsRead = Omit<HandCandidate, 'numbering'> & { format: string };

const GIVEN_TYPE = "upper(coalesce(nullif(trim(l.given_type), ''), 'P'))";
/** An item memory moves unplaced lines and lines a memory placed, never those the catalogue placed. */
const MAY_MOVE = "(l.item_no IS NULL OR l.placed_by = 'remembered')";

/** Lines an item memory may place that give this type and (trimmed, any case) number: `order_line_movable_by_number`'s. */
export function linesGivingNumber(db: StoreDb, except: number, type: string, no: string): HandCandidate[] {
  return withNumbering(
    db
      .prepare(`${CANDIDATE} AND ${MAY_MOVE} AND ${GIVEN_TYPE} = ? AND trim(l.given_no) = ? COLLATE NOCASE`)
      .all(except, type, no) as CandidateAsRead[],
  );
}

/** Lines an item memory may place that give this type and a name but no number (the caller folds the names). */
export function linesGivingOnlyName(db: StoreDb, except: number, type: string): HandCandidate[] {
  return withNumbering(
    db
      .prepare(
        `${CANDIDATE} AND ${MAY_MOVE} AND ${GIVEN_TYPE} = ? AND nullif(trim(l.given_no), '') IS NULL AND l.given_name IS NOT NULL`,
      )
      .all(except, type) as CandidateAsRead[],
  );
}

/** Lines that give this BrickLink colour id. */
export function linesGivingColourId(db: StoreDb, except: number, colourId: number): HandCandidate[] {
  return withNumbering(db.prepare(`${CANDIDATE} AND l.given_colour_id = ?`).all(except, colourId) as CandidateAsRead[]);
}

/** Lines that give a colour name and no colour id (the caller folds the names). */
export function linesGivingOnlyColourName(db: StoreDb, except: number): HandCandidate[] {
  return withNumbering(
    db
      .prepare(`${CANDIDATE} AND coalesce(l.given_colour_id, 0) = 0 AND l.given_colour_name IS NOT NULL`)
      .all(except) as CandidateAsRead[],
  );
}
