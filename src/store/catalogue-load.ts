/**
 * What a catalogue load (`src/catalogue/load.ts`) asks the store besides its merges
 * (`catalogue.ts`): whether colours were there before, the saved lines it could place, what it did to
 * them by order.
 */
import type { StoreDb } from './db.ts';
import { idsOfJson } from './dialect.ts';

/** Whether the catalogue has any colours: until it has, lines keep their colours unchecked (SPEC §6). */
export function hasColours(db: StoreDb): boolean {
  return db.prepare('SELECT EXISTS (SELECT 1 FROM colour)').pluck().get() === 1;
}

/** Whether the colour table (Rebrickable's colours with their external ids) is loaded. */
export function hasColourTable(db: StoreDb): boolean {
  return db.prepare('SELECT EXISTS (SELECT 1 FROM colour_translation)').pluck().get() === 1;
}

/** Unplaced saved lines (of imported documents): those a load could place. */
export function unplacedSavedLines(db: StoreDb): number {
  return db
    .prepare(
      `SELECT count(*) FROM order_line l JOIN document d ON d.id = l.document_id AND d.state = 'imported'
        WHERE l.item_no IS NULL`,
    )
    .pluck()
    .get() as number;
}

/** Of these lines, the placed ones of imported documents: how many per order, by order. */
export function placedLinesByOrder(
  db: StoreDb,
  lineIds: readonly number[],
): { orderId: number; reference: string; placed: number }[] {
  return db
    .prepare(
      `SELECT o.id AS orderId, o.reference, count(*) AS placed ${savedLinesOf(db)}
        WHERE l.item_no IS NOT NULL GROUP BY o.id ORDER BY o.id`,
    )
    .all(JSON.stringify(lineIds)) as { orderId: number; reference: string; placed: number }[];
}

/** Of these lines, the unplaced ones of imported documents: how many per order and reason, by order, most first. */
export function unplacedLinesByOrder(
  db: StoreDb,
  lineIds: readonly number[],
): { orderId: number; reference: string; reason: string; n: number }[] {
  return db
    .prepare(
      `SELECT o.id AS orderId, o.reference, l.unplaced_reason AS reason, count(*) AS n ${savedLinesOf(db)}
        WHERE l.item_no IS NULL GROUP BY o.id, l.unplaced_reason ORDER BY o.id, n DESC`,
    )
    .all(JSON.stringify(lineIds)) as { orderId: number; reference: string; reason: string; n: number }[];
}

/** The lines whose ids are the statement's one parameter (a JSON array), of imported documents, with their orders. */
function savedLinesOf(db: StoreDb): string {
  return `FROM (${idsOfJson(db)}) j JOIN order_line l ON l.id = j.value
         JOIN document d ON d.id = l.document_id AND d.state = 'imported' JOIN shop_order o ON o.id = d.order_id`;
}
