/**
 * The BrickLink look-up job's statements (SPEC §5): the numbers unplaced lines name that are still to
 * ask, and the answers kept (`lookup_answer`); the job's own row is `jobs.ts`'s. Called by
 * `src/catalogue/lookup-job.ts`, in its transactions.
 */
import type { StoreDb } from './db.ts';

/** Given type as the placement rule reads it: trimmed, upper case, P when missing. */
const GIVEN_TYPE = "upper(coalesce(nullif(trim(l.given_type), ''), 'P'))";

/**
 * The distinct (type, number) pairs that unplaced saved lines name, that the catalogue lacks, and that
 * BrickLink has not answered for yet, in order; the type as given (the caller checks it is a kind).
 */
export function numbersStillToAsk(db: StoreDb): { type: string; no: string }[] {
  return db
    .prepare(
      `SELECT DISTINCT ${GIVEN_TYPE} AS type, trim(l.given_no) AS no
         FROM order_line l JOIN document d ON d.id = l.document_id
        WHERE l.item_no IS NULL AND d.state = 'imported' AND nullif(trim(l.given_no), '') IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM catalogue_item c WHERE c.item_type = ${GIVEN_TYPE} AND c.item_no = trim(l.given_no))
          AND NOT EXISTS (SELECT 1 FROM lookup_answer a WHERE a.item_type = ${GIVEN_TYPE} AND a.item_no = trim(l.given_no))
        ORDER BY 1, 2`,
    )
    .all() as { type: string; no: string }[];
}

/** Keeps BrickLink's answer for a number (found or not), over an older one. */
export function recordLookupAnswer(db: StoreDb, type: string, no: string, found: boolean, answeredAt: string): void {
  db.prepare(
    `INSERT INTO lookup_answer (item_type, item_no, found, answered_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (item_type, item_no) DO UPDATE SET found = excluded.found, answered_at = excluded.answered_at`,
  ).run(type, no, found ? 1 : 0, answeredAt);
}

/** The unplaced lines that give this type and number (the number in any case), as the placement rule reads them. */
export function unplacedLinesGiving(db: StoreDb, type: string, no: string): number[] {
  return db
    .prepare(
      `SELECT l.id FROM order_line l WHERE l.item_no IS NULL AND ${GIVEN_TYPE} = ? AND trim(l.given_no) = ? COLLATE NOCASE`,
    )
    .pluck()
    .all(type, no) as number[];
}
