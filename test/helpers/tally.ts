import type { StoreDb } from '../../src/store/db.ts';

/**
 * Each document's tally against its lines counted afresh: the documents where they differ (empty when
 * the triggers kept every count). A document without lines may have no tally row, or one of zeros.
 */
export function tallyMismatches(db: StoreDb): unknown[] {
  return db
    .prepare(
      `WITH counted AS (
         SELECT d.id AS document_id, count(l.id) AS lines, count(l.item_no) AS placed,
                coalesce(sum(l.quantity), 0) AS quantity, coalesce(sum(l.quantity * coalesce(l.unit_price_e4, 0)), 0) AS value_e4
           FROM document d LEFT JOIN order_line l ON l.document_id = d.id GROUP BY d.id),
       kept AS (
         SELECT c.document_id, coalesce(t.lines, 0) AS lines, coalesce(t.placed, 0) AS placed,
                coalesce(t.quantity, 0) AS quantity, coalesce(t.value_e4, 0) AS value_e4
           FROM counted c LEFT JOIN document_tally t ON t.document_id = c.document_id)
       SELECT 'counted' AS side, * FROM (SELECT * FROM counted EXCEPT SELECT * FROM kept) AS only_counted
       UNION ALL
       SELECT 'kept' AS side, * FROM (SELECT * FROM kept EXCEPT SELECT * FROM counted) AS only_kept`,
    )
    .all();
}

/** How many documents have a tally row: a test that checks the tally must have something to check. */
export function talliedDocuments(db: StoreDb): number {
  return db.prepare('SELECT count(*) FROM document_tally WHERE lines > 0').pluck().get() as number;
}
