/**
 * The shop's stock in the store (SPEC §16): which order is the stock (`stock_order`, one per store), its
 * current document (the stock order's imported one; a newer import takes the older back in the same
 * step), and what each stock lot keeps beyond its line (`stock_lot`: its location as given and
 * BrickLink's lot id). A stock lot is an order line of the current stock document, so placement, hand
 * fixes, memories and Undo treat it as any line.
 */
import type { ReadableDb, StoreDb } from './db.ts';
import { onServer, pairsOfJson } from './dialect.ts';
import { insertFromJson, SERVER_BATCH } from './insert-rows.ts';

/** The stock order's id, or null before the first stock import. */
export function stockOrderId(db: ReadableDb): number | null {
  const id = db.prepare('SELECT order_id FROM stock_order WHERE id = 1').pluck().get() as number | undefined;
  return id ?? null;
}

/** Marks `orderId` as the stock: once, at the first stock import (the row stays, as the order does). */
export function markStockOrder(db: StoreDb, orderId: number): void {
  db.prepare('INSERT INTO stock_order (id, order_id) VALUES (1, ?)').run(orderId);
}

/**
 * The current stock's document, as a value a statement compares a line's document with: read once, so that
 * both engines find the stock's lines of an item by the index (document, item) — a join to the stock's
 * document let PostgreSQL's planner, which avoids a join without a condition, hash all 50,000 lines.
 */
const CURRENT_STOCK = `(SELECT max(d.id) FROM stock_order s JOIN document d ON d.order_id = s.order_id AND d.state = 'imported'
  WHERE s.id = 1)`;

/** The current stock document: the newest imported document of the stock order; null when there is none. */
export function currentStockDocumentId(db: ReadableDb): number | null {
  const id = db.prepare(`SELECT ${CURRENT_STOCK}`).pluck().get() as number | null | undefined;
  return id ?? null;
}

/** Every imported document of the stock order: the stock a new import replaces (one, unless taken apart by hand). */
export function importedStockDocumentIds(db: ReadableDb): number[] {
  return db
    .prepare(
      `SELECT d.id FROM stock_order s JOIN document d ON d.order_id = s.order_id AND d.state = 'imported'
        WHERE s.id = 1 ORDER BY d.id`,
    )
    .pluck()
    .all() as number[];
}

/** What a stock lot keeps beyond its line. */
export interface NewStockLot {
  readonly lineId: number;
  /** As the file gave it, trimmed; null where it gave none. */
  readonly location: string | null;
  readonly lotId: string | null;
}

/**
 * Writes the stock lots' locations and lot ids, in the transaction that wrote their lines. Insert-only:
 * a document's rows stay when it is undone, as its lines do. A server store takes a thousand a statement.
 */
export function insertStockLots(db: StoreDb, rows: readonly NewStockLot[]): void {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({ line_id: r.lineId, location: r.location, lot_id: r.lotId }));
  if (onServer(db)) {
    const insert = db.prepare(insertFromJson('stock_lot', ['line_id', 'location', 'lot_id']));
    for (let i = 0; i < values.length; i += SERVER_BATCH) insert.run(JSON.stringify(values.slice(i, i + SERVER_BATCH)));
    return;
  }
  const insert = db.prepare('INSERT INTO stock_lot (line_id, location, lot_id) VALUES (?, ?, ?)');
  for (const v of values) insert.run(v.line_id, v.location, v.lot_id);
}

/** A lot of the current stock, as the pick and put-away lists read it. */
export interface StockLotRow {
  readonly lineId: number;
  readonly position: number;
  /** The catalogue's item and colour it is placed on (a stock lot read for an item is placed). */
  readonly itemType: string;
  readonly itemNo: string;
  readonly colourId: number | null;
  readonly quantity: number;
  readonly condition: 'N' | 'U' | null;
  readonly unitPriceE4: number | null;
  readonly location: string | null;
  readonly lotId: string | null;
}

/**
 * The current stock's lines each row before them asks for, as `l`: `match(l)` the conditions on them (an
 * item, a colour) besides the stock's document. On SQLite a CROSS JOIN, which it keeps in the order written:
 * the rows before, then each one's lines by the index (document, item). On a server a LATERAL subquery,
 * fenced (OFFSET 0) so that its planner looks each up by that index too: joined plainly, it hashed every
 * line of the stock (it takes a JSON list for a hundred rows, and hashing 50,000 item numbers in their
 * case-blind collation took 30 ms of a put-away list's 95).
 */
function stockLinesOf(db: ReadableDb, match: (l: string) => string): string {
  return onServer(db)
    ? `CROSS JOIN LATERAL (SELECT x.* FROM order_line x WHERE x.document_id = ${CURRENT_STOCK} AND ${match('x')} OFFSET 0) l`
    : `CROSS JOIN order_line l ON l.document_id = ${CURRENT_STOCK} AND ${match('l')}`;
}

/**
 * Each line `l`'s stock lot (its location and lot id), as `k`: looked up by the line, on a server fenced as
 * the lines are (`stockLinesOf`), since once it knows how many lots the stock has its planner would rather
 * read every lot of every stock ever imported and merge.
 */
function lotOfLine(db: ReadableDb): string {
  return onServer(db)
    ? 'LEFT JOIN LATERAL (SELECT location, lot_id FROM stock_lot WHERE line_id = l.id OFFSET 0) k ON true'
    : 'LEFT JOIN stock_lot k ON k.line_id = l.id';
}

/**
 * The placed lines of the documents `od` as `o`: by the index (document, position), on a server fenced too
 * — a store whose stock is most of its lines has its planner take one order's lines for hundreds more than
 * they are, and read the stock's too.
 */
function placedLinesOf(db: ReadableDb): string {
  return onServer(db)
    ? 'CROSS JOIN LATERAL (SELECT y.* FROM order_line y WHERE y.document_id = od.id AND y.item_no IS NOT NULL OFFSET 0) o'
    : 'JOIN order_line o ON o.document_id = od.id AND o.item_no IS NOT NULL';
}

const LOT_COLUMNS = `l.id AS lineId, l.position, l.item_type AS itemType, l.item_no AS itemNo,
  l.colour_id AS colourId, l.quantity, l.condition, l.unit_price_e4 AS unitPriceE4, k.location,
  k.lot_id AS lotId`;

/**
 * The current stock's lots of one item — in one colour where `colourId` is given (null: the lots without
 * a colour), else in every colour — in the file's order. `itemNo` is the catalogue's, as a placed line
 * holds it (placement and hand fixes write the catalogue's own spelling), matched exactly, by the index. Read by the stock document's lines of that item
 * (`order_line_by_document_item`), never the stock whole.
 */
export function stockLotsOf(
  db: ReadableDb,
  item: { readonly itemType: string; readonly itemNo: string; readonly colourId?: number | null },
): StockLotRow[] {
  const colour =
    item.colourId === undefined ? '' : item.colourId === null ? 'AND l.colour_id IS NULL' : 'AND l.colour_id = ?';
  const args: unknown[] = [item.itemType, item.itemNo];
  if (item.colourId !== undefined && item.colourId !== null) args.push(item.colourId);
  return db
    .prepare(
      `SELECT ${LOT_COLUMNS}
         FROM order_line l
         ${lotOfLine(db)}
        WHERE l.document_id = ${CURRENT_STOCK} AND l.item_type = ? AND l.item_no = ? ${colour}
        ORDER BY l.position`,
    )
    .all(...args) as StockLotRow[];
}

/**
 * Every lot of the current stock of an item and colour that a placed saved line of order `orderId` has
 * (whatever its condition: a pick list says what is there only in another condition), in one query: the
 * order's lines by their documents, the stock's lots of each by the stock document's lines of that item.
 */
export function stockLotsForOrder(db: ReadableDb, orderId: number): StockLotRow[] {
  return db
    .prepare(
      `SELECT DISTINCT ${LOT_COLUMNS}
         FROM document od
         ${placedLinesOf(db)}
         ${stockLinesOf(
           db,
           (l) =>
             `${l}.item_type = o.item_type AND ${l}.item_no = o.item_no AND coalesce(${l}.colour_id, -1) = coalesce(o.colour_id, -1)`,
         )}
         ${lotOfLine(db)}
        WHERE od.order_id = ? AND od.state = 'imported'
        ORDER BY l.id`,
    )
    .all(orderId) as StockLotRow[];
}

/**
 * Where the current stock keeps each of `items` (in any colour and condition): each location its lots
 * have (null: lots without one), with how many lots are there — what a put-away list suggests a new lot's
 * bin from. Counted here: an item's lots in twenty colours need not be carried out one by one. By each
 * item, then the stock document's lines of it (`order_line_by_document_item`), never the stock whole.
 */
export function stockLocationsOfItems(
  db: ReadableDb,
  items: readonly { readonly type: string; readonly no: string }[],
): { readonly itemType: string; readonly itemNo: string; readonly location: string | null; readonly lots: number }[] {
  if (items.length === 0) return [];
  const rows = db
    .prepare(
      // The items asked, then each one's lines in the stock.
      `SELECT l.item_type AS itemType, l.item_no AS itemNo, k.location AS location, count(*) AS lots
         FROM (${pairsOfJson(db)}) i
         ${stockLinesOf(db, (l) => `${l}.item_type = i.a AND ${l}.item_no = i.b`)}
         ${lotOfLine(db)}
        GROUP BY l.item_type, l.item_no, k.location`,
    )
    .all(JSON.stringify(items.map((i) => [i.type, i.no]))) as {
    itemType: string;
    itemNo: string;
    location: string | null;
    lots: number | string;
  }[];
  return rows.map((r) => ({ ...r, lots: Number(r.lots) }));
}

/** The catalogue's category of each item a placed saved line of order `orderId` has, where it gives one. */
export function categoriesOfOrderItems(
  db: ReadableDb,
  orderId: number,
): { readonly itemType: string; readonly itemNo: string; readonly categoryId: number }[] {
  return db
    .prepare(
      `SELECT DISTINCT c.item_type AS itemType, c.item_no AS itemNo, c.category_id AS categoryId
         FROM document od
         ${placedLinesOf(db)}
         JOIN catalogue_item c ON c.item_type = o.item_type AND c.item_no = o.item_no
        WHERE od.order_id = ? AND od.state = 'imported' AND c.category_id IS NOT NULL`,
    )
    .all(orderId) as { itemType: string; itemNo: string; categoryId: number }[];
}

/**
 * Where the current stock's lots of one catalogue category are: each location its lots have, with how many
 * lots are there — what a put-away list suggests a new lot's bin from when the stock holds nothing of its
 * item (a category's lots are thousands in a large stock: counted here, not carried out one by one). By the
 * category's items (`catalogue_item_by_category`), then the stock document's lines of each
 * (`order_line_by_document_item`).
 */
export function stockLocationsOfCategory(
  db: ReadableDb,
  categoryId: number,
): { readonly location: string; readonly lots: number }[] {
  const rows = db
    .prepare(
      // The category's items, then each one's lines in the stock — where it would otherwise read every line
      // of the stock and look up each one's category.
      `SELECT k.location AS location, count(*) AS lots
         FROM catalogue_item c
         ${stockLinesOf(db, (l) => `${l}.item_type = c.item_type AND ${l}.item_no = c.item_no`)}
         ${lotOfLine(db)}
        WHERE c.category_id = ? AND k.location IS NOT NULL
        GROUP BY k.location`,
    )
    .all(categoryId) as { location: string; lots: number | string }[];
  return rows.map((r) => ({ location: r.location, lots: Number(r.lots) }));
}

/** The current stock as its card shows it (SPEC §16). */
export interface StockSummary {
  readonly orderId: number;
  readonly documentId: number;
  readonly fileName: string;
  readonly importedAt: string;
  /** The desk whose import it was; null when made before desks were named. */
  readonly desk: string | null;
  readonly lots: number;
  readonly pieces: number;
  readonly unplaced: number;
  /** How many different locations its lots are in. */
  readonly locations: number;
  readonly lotsWithoutLocation: number;
  readonly lotsWithLotId: number;
}

/** What a stock document says of its lots beyond its tally, and the desk that imported it. */
interface DocumentFacts {
  readonly where: Pick<StockSummary, 'locations' | 'lotsWithoutLocation' | 'lotsWithLotId'>;
  readonly desk: string | undefined;
}

/**
 * A stock document's locations and lot ids never change once it is imported (its lines and their
 * `stock_lot` rows are written once, and kept when it is taken back), nor does the step that imported it:
 * read once a connection and document, not at every pick list (counting 50,000 lots' locations is most of
 * what a pick list would cost). Asked only of a committed stock: every caller reads it after its import.
 */
const FACTS = new WeakMap<ReadableDb, Map<number, DocumentFacts>>();

function documentFacts(db: ReadableDb, documentId: number): DocumentFacts {
  const kept = FACTS.get(db) ?? new Map<number, DocumentFacts>();
  FACTS.set(db, kept);
  const known = kept.get(documentId);
  if (known !== undefined) return known;
  // The stock document's lines, by their document: one stock's, not the store's.
  const where = db
    .prepare(
      `SELECT count(DISTINCT k.location) AS locations, count(*) - count(k.location) AS lotsWithoutLocation,
              count(k.lot_id) AS lotsWithLotId
         FROM order_line l ${lotOfLine(db)}
        WHERE l.document_id = ?`,
    )
    .get(documentId) as Pick<StockSummary, 'locations' | 'lotsWithoutLocation' | 'lotsWithLotId'>;
  // The desk of the step that imported it: the first that wrote its document's row.
  const desk = db
    .prepare(
      `SELECT k.desk FROM undo_change c JOIN undo_step_desk k ON k.step_id = c.step_id
        WHERE c.table_name = 'document' AND c.row_id = ? ORDER BY c.step_id LIMIT 1`,
    )
    .pluck()
    .get(documentId) as string | undefined;
  const facts = { where, desk };
  kept.set(documentId, facts);
  return facts;
}

/** The current stock with its counts; null when there is none (never imported, or its import undone). */
export function stockSummary(db: ReadableDb): StockSummary | null {
  const head = db
    .prepare(
      `SELECT d.id AS documentId, d.order_id AS orderId, d.file_name AS fileName, d.imported_at AS importedAt,
              coalesce(t.lines, 0) AS lots, coalesce(t.quantity, 0) AS pieces,
              coalesce(t.lines, 0) - coalesce(t.placed, 0) AS unplaced
         FROM document d LEFT JOIN document_tally t ON t.document_id = d.id
        WHERE d.id = ?`,
    )
    .get(currentStockDocumentId(db)) as
    Omit<StockSummary, 'desk' | 'locations' | 'lotsWithoutLocation' | 'lotsWithLotId'> | undefined;
  if (head === undefined) return null;
  const { where, desk } = documentFacts(db, head.documentId);
  return {
    ...head,
    desk: desk ?? null,
    locations: Number(where.locations),
    lotsWithoutLocation: Number(where.lotsWithoutLocation),
    lotsWithLotId: Number(where.lotsWithLotId),
  };
}
