import type { ReadableDb, StoreDb } from './db.ts';
import { BrickWorkError } from '../vocabulary/errors.ts';
import type { ItemType } from '../vocabulary/item-types.ts';
import { reasonOf, type Reason } from '../vocabulary/reasons.ts';
import { CATALOGUE_GENERATION_SQL } from './settings.ts';
import { idsOfJson, onServer, rowsLater } from './dialect.ts';
import { numberingOfFormat, type Numbering } from '../vocabulary/numberings.ts';

/** What a line's document gave for it: its number, name and colour as written. */
export interface GivenLine {
  readonly type: string | null;
  readonly no: string | null;
  readonly name: string | null;
  readonly colourId: number | null;
  readonly colourName: string | null;
  /** The numbering its document's numbers are in (`numberingOfFormat`); null: not known. */
  readonly numbering?: Numbering | null;
}

/** A stored line as the screens and the CLI show it. */
export interface LineView {
  readonly id: number;
  readonly documentId: number;
  readonly documentKey: string;
  /** Its document's format: the numbering its given number is in (`numberingOfFormat`). */
  readonly documentFormat: string;
  readonly position: number;
  readonly given: GivenLine;
  readonly quantity: number;
  readonly unitPriceE4: number | null;
  readonly condition: 'N' | 'U' | null;
  readonly remarks: string | null;
  readonly placed: {
    readonly type: ItemType;
    readonly no: string;
    readonly colour: number | null;
    /** The colour's name in the catalogue; null when it gives none or the catalogue has no colours. */
    readonly colourName: string | null;
    /** Its swatch, six hex digits, when the catalogue's colour list gave one. */
    readonly colourRgb: string | null;
    readonly by: string;
    readonly name: string | null;
  } | null;
  /** The catalogue's colour for the colour id the line gives (name and swatch); null when it gives none or the catalogue lacks it. */
  readonly givenColour: { readonly name: string; readonly rgb: string | null } | null;
  /** Why it is unplaced, with its stable code; null exactly when it is placed. */
  readonly reason: Reason | null;
}

/**
 * A line's columns, in the order SELECT gives them. Rows come as arrays (`raw`): building an object of
 * two dozen named fields per row in the driver took twice as long as the query and its values (an order
 * of 1,500 lines: 10 ms against 5, on the thread that answers the screens).
 */
type LineRow = [
  id: number,
  documentId: number,
  docKey: string,
  position: number,
  givenType: string | null,
  givenNo: string | null,
  givenName: string | null,
  givenColourId: number | null,
  givenColourName: string | null,
  quantity: number,
  unitPriceE4: number | null,
  condition: 'N' | 'U' | null,
  remarks: string | null,
  itemType: ItemType | null,
  itemNo: string | null,
  colourId: number | null,
  placedBy: string | null,
  unplacedReason: string | null,
  itemName: string | null,
  colourName: string | null,
  colourRgb: string | null,
  givenColourKnown: string | null,
  givenColourRgb: string | null,
  documentFormat: string,
];

const SELECT = `SELECT l.id, l.document_id, d.doc_key, l.position, l.given_type, l.given_no, l.given_name,
       l.given_colour_id, l.given_colour_name, l.quantity, l.unit_price_e4, l.condition, l.remarks,
       l.item_type, l.item_no, l.colour_id, l.placed_by, l.unplaced_reason,
       c.name AS item_name, k.name AS colour_name, ks.rgb AS colour_rgb, g.name AS given_colour_known, gs.rgb AS given_colour_rgb,
       d.format
  FROM order_line l JOIN document d ON d.id = l.document_id
  LEFT JOIN catalogue_item c ON c.item_type = l.item_type AND c.item_no = l.item_no
  LEFT JOIN colour k ON k.id = l.colour_id
  LEFT JOIN colour_swatch ks ON ks.colour_id = l.colour_id
  LEFT JOIN colour g ON g.id = l.given_colour_id
  LEFT JOIN colour_swatch gs ON gs.colour_id = l.given_colour_id`;

function toView(r: LineRow): LineView {
  const [
    id,
    documentId,
    documentKey,
    position,
    type,
    no,
    name,
    colourId,
    colourName,
    quantity,
    unitPriceE4,
    condition,
    remarks,
    itemType,
    itemNo,
    colour,
    placedBy,
    unplacedReason,
    itemName,
    placedColourName,
    colourRgb,
    givenKnown,
    givenRgb,
    documentFormat,
  ] = r;
  return {
    id,
    documentId,
    documentKey,
    documentFormat,
    position,
    given: { type, no, name, colourId, colourName, numbering: numberingOfFormat(documentFormat) },
    quantity,
    unitPriceE4,
    condition,
    remarks,
    placed:
      itemType !== null && itemNo !== null
        ? {
            type: itemType,
            no: itemNo,
            colour,
            colourName: placedColourName,
            colourRgb,
            by: placedBy ?? '',
            name: itemName,
          }
        : null,
    givenColour: givenKnown === null ? null : { name: givenKnown, rgb: givenRgb },
    reason: reasonOf(unplacedReason),
  };
}

/** The rows of SELECT with `where` (and its parameters), as views. */
function linesWhere(db: ReadableDb, where: string, ...params: unknown[]): LineView[] {
  return (
    db
      .prepare(`${SELECT} ${where}`)
      .raw(true)
      .all(...params) as LineRow[]
  ).map(toView);
}

/** The saved lines of an order (lines of its imported documents), in document and position order. */
export function orderLines(db: ReadableDb, orderId: number, options: { unplacedOnly?: boolean } = {}): LineView[] {
  return linesWhere(
    db,
    `WHERE d.order_id = ? AND d.state = 'imported' ${options.unplacedOnly ? 'AND l.item_no IS NULL' : ''} ORDER BY d.id, l.position`,
    orderId,
  );
}

export function getLine(db: ReadableDb, id: number): LineView {
  const [line] = linesWhere(db, 'WHERE l.id = ?', id);
  if (line === undefined) throw new BrickWorkError('not-found', `There is no line ${id}.`);
  return line;
}

/** A line's placement columns as they stand, with the catalogue's generation read in the same statement. */
export interface LinePlacementNow {
  readonly columns: {
    readonly item_type: string | null;
    readonly item_no: string | null;
    readonly colour_id: number | null;
    readonly placed_by: string | null;
    readonly unplaced_reason: string | null;
  };
  readonly catalogueGeneration: number;
}

/**
 * What a write about to change a line's placement reads first, under the writer lock: one statement (a
 * server store pays a round trip a statement, with the other desks waiting on the lock).
 */
export function linePlacementNow(db: StoreDb, id: number): LinePlacementNow {
  const row = db
    .prepare(
      `SELECT item_type, item_no, colour_id, placed_by, unplaced_reason, ${CATALOGUE_GENERATION_SQL} AS generation
         FROM order_line WHERE id = ?`,
    )
    .get(id) as (LinePlacementNow['columns'] & { generation: number | string }) | undefined;
  if (row === undefined) throw new BrickWorkError('not-found', `There is no line ${id}.`);
  const { generation, ...columns } = row;
  return { columns, catalogueGeneration: Number(generation) };
}

/**
 * On a server store: sets a line's placement columns and gives what they held, in one statement — only
 * while the catalogue's generation is still `generation`. The statement goes with the next round trip
 * (the writer lock is held: each one is a wait for the other desks); the function it gives reads its
 * answer: the old columns, or null when the generation moved (nothing written). On a SQLite store, where
 * a read and a write cost no round trips, null: the caller reads with `linePlacementNow` and writes then.
 */
export function replaceLinePlacement(
  db: StoreDb,
  id: number,
  values: LinePlacementNow['columns'],
  generation: number,
): (() => LinePlacementNow['columns'] | null) | null {
  if (!onServer(db)) return null;
  const rows = rowsLater(
    db,
    `UPDATE order_line l
        SET item_type = ?, item_no = ?, colour_id = ?, placed_by = ?, unplaced_reason = ?
       FROM (SELECT id, item_type, item_no, colour_id, placed_by, unplaced_reason
               FROM order_line WHERE id = ? FOR UPDATE) o
      WHERE l.id = o.id AND ${CATALOGUE_GENERATION_SQL} = ?
     RETURNING o.item_type, o.item_no, o.colour_id, o.placed_by, o.unplaced_reason`,
    [values.item_type, values.item_no, values.colour_id, values.placed_by, values.unplaced_reason, id, generation],
  );
  return () => (rows()[0] as LinePlacementNow['columns'] | undefined) ?? null;
}

/** The lines of one document (saved or not), by position. */
export function documentLines(db: ReadableDb, documentId: number): LineView[] {
  return linesWhere(db, 'WHERE l.document_id = ? ORDER BY l.position', documentId);
}

/**
 * A line as a compare reads it (SPEC §13): what it gives, where it is placed, how many, at what price —
 * the columns of `TO_COMPARE` in that order, one array per line as SQLite gives it. No object is made
 * per line: at 200,000 lines a side, making each line's three objects (and collecting them) cost the
 * compare half again the time of reading the rows; a compare makes objects only for the keys it keeps.
 */
export type LineToCompare = readonly [
  givenType: string | null,
  givenNo: string | null,
  givenName: string | null,
  givenColourId: number | null,
  givenColourName: string | null,
  itemType: string | null,
  itemNo: string | null,
  colour: number | null,
  quantity: number,
  unitPriceE4: number | null,
  condition: 'N' | 'U' | null,
  /** Its document's format: the numbering its given number is in. */
  documentFormat: string | null,
  /** How it was placed (`number`, `name`, `remembered`, `hand`); null when unplaced. */
  placedBy: string | null,
];

const TO_COMPARE = `SELECT l.given_type, l.given_no, l.given_name, l.given_colour_id, l.given_colour_name,
  l.item_type, l.item_no, l.colour_id, l.quantity, l.unit_price_e4, l.condition, d.format, l.placed_by
  FROM order_line l JOIN document d ON d.id = l.document_id`;

/** Lines per page of a compare's read: few statements at 200,000 lines, little held at once. */
const COMPARE_PAGE = 4_096;

/**
 * The saved lines of an order, or one document's lines, as a compare reads them: only the columns it
 * matches by, no names (the rows shown are named apart), a page at a time in the documents' order — at
 * 200,000 lines building the full `LineView`s took eight times as long as the query, and holding every
 * line (and every row before it) cost the collector more than the compare itself. Pages, not a row at a
 * time: one call into the engine per page reads the rows faster, and summing an array is quicker than
 * summing an iterator (issue 61 §6). Each page is a range of positions of one document, found by its index.
 */
export function* linePagesToCompare(
  db: ReadableDb,
  side: { orderId: number } | { documentId: number },
  pageSize = COMPARE_PAGE,
): Generator<readonly LineToCompare[]> {
  const documents =
    'orderId' in side
      ? (db
          .prepare(`SELECT id FROM document WHERE order_id = ? AND state = 'imported' ORDER BY id`)
          .pluck()
          .all(side.orderId) as number[])
      : [side.documentId];
  const span = db.prepare<[number, number], { first: number | null; last: number | null }>(
    `SELECT (SELECT min(position) FROM order_line WHERE document_id = ?) AS first,
            (SELECT max(position) FROM order_line WHERE document_id = ?) AS last`,
  );
  const page = db
    .prepare(`${TO_COMPARE} WHERE l.document_id = ? AND l.position >= ? AND l.position < ? ORDER BY l.position`)
    .raw();
  for (const id of documents) {
    const { first, last } = span.get(id, id) ?? { first: null, last: null };
    if (first === null || last === null) continue;
    for (let from = first; from <= last; from += pageSize) {
      const rows = page.all(id, from, from + pageSize) as LineToCompare[];
      if (rows.length > 0) yield rows;
    }
  }
}

/** Whether any saved line of an order (or of one document) gives a condition: one look, no line read. */
export function linesGiveConditions(db: ReadableDb, side: { orderId: number } | { documentId: number }): boolean {
  const found =
    'orderId' in side
      ? db
          .prepare(
            `SELECT 1 FROM order_line l JOIN document d ON d.id = l.document_id
              WHERE d.order_id = ? AND d.state = 'imported' AND l.condition IS NOT NULL LIMIT 1`,
          )
          .get(side.orderId)
      : db
          .prepare('SELECT 1 FROM order_line l WHERE l.document_id = ? AND l.condition IS NOT NULL LIMIT 1')
          .get(side.documentId);
  return found !== undefined;
}

/** What lines give (type, number, colour id) and their document's format, by line id: one statement. */
export function givenOfLines(
  db: ReadableDb,
  ids: readonly number[],
): Map<number, { type: string | null; no: string | null; colourId: number | null; format: string }> {
  const rows = db
    .prepare(
      `SELECT l.id, l.given_type AS type, l.given_no AS no, l.given_colour_id AS colourId, d.format
         FROM order_line l JOIN document d ON d.id = l.document_id WHERE l.id IN (${idsOfJson(db)})`,
    )
    .all(JSON.stringify([...new Set(ids)])) as {
    id: number;
    type: string | null;
    no: string | null;
    colourId: number | null;
    format: string;
  }[];
  return new Map(rows.map(({ id, ...given }) => [id, given]));
}
