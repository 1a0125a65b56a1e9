import type { StoreDb } from './db.ts';
import { BrickWorkError } from '../errors.ts';
import type { ItemType } from '../item-types.ts';
import { reasonOf, type Reason } from '../reasons.ts';

/** What a line's document gave for it: its number, name and colour as written. */
export interface GivenLine {
  readonly type: string | null;
  readonly no: string | null;
  readonly name: string | null;
  readonly colourId: number | null;
  readonly colourName: string | null;
}

/** A stored line as the screens and the CLI show it. */
export interface LineView {
  readonly id: number;
  readonly documentId: number;
  readonly documentKey: string;
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

interface LineRow {
  id: number;
  document_id: number;
  doc_key: string;
  position: number;
  given_type: string | null;
  given_no: string | null;
  given_name: string | null;
  given_colour_id: number | null;
  given_colour_name: string | null;
  quantity: number;
  unit_price_e4: number | null;
  condition: 'N' | 'U' | null;
  remarks: string | null;
  item_type: ItemType | null;
  item_no: string | null;
  colour_id: number | null;
  placed_by: string | null;
  unplaced_reason: string | null;
  item_name: string | null;
  colour_name: string | null;
  colour_rgb: string | null;
  given_colour_known: string | null;
  given_colour_rgb: string | null;
}

const SELECT = `SELECT l.*, d.doc_key, c.name AS item_name, k.name AS colour_name, ks.rgb AS colour_rgb,
       g.name AS given_colour_known, gs.rgb AS given_colour_rgb
  FROM order_line l JOIN document d ON d.id = l.document_id
  LEFT JOIN catalogue_item c ON c.item_type = l.item_type AND c.item_no = l.item_no
  LEFT JOIN colour k ON k.id = l.colour_id
  LEFT JOIN colour_swatch ks ON ks.colour_id = l.colour_id
  LEFT JOIN colour g ON g.id = l.given_colour_id
  LEFT JOIN colour_swatch gs ON gs.colour_id = l.given_colour_id`;

function toView(r: LineRow): LineView {
  return {
    id: r.id,
    documentId: r.document_id,
    documentKey: r.doc_key,
    position: r.position,
    given: {
      type: r.given_type,
      no: r.given_no,
      name: r.given_name,
      colourId: r.given_colour_id,
      colourName: r.given_colour_name,
    },
    quantity: r.quantity,
    unitPriceE4: r.unit_price_e4,
    condition: r.condition,
    remarks: r.remarks,
    placed:
      r.item_type !== null && r.item_no !== null
        ? {
            type: r.item_type,
            no: r.item_no,
            colour: r.colour_id,
            colourName: r.colour_name,
            colourRgb: r.colour_rgb,
            by: r.placed_by ?? '',
            name: r.item_name,
          }
        : null,
    givenColour: r.given_colour_known === null ? null : { name: r.given_colour_known, rgb: r.given_colour_rgb },
    reason: reasonOf(r.unplaced_reason),
  };
}

/** The saved lines of an order (lines of its imported documents), in document and position order. */
export function orderLines(db: StoreDb, orderId: number, options: { unplacedOnly?: boolean } = {}): LineView[] {
  const rows = db
    .prepare(
      `${SELECT} WHERE d.order_id = ? AND d.state = 'imported' ${options.unplacedOnly ? 'AND l.item_no IS NULL' : ''} ORDER BY d.id, l.position`,
    )
    .all(orderId) as LineRow[];
  return rows.map(toView);
}

export function getLine(db: StoreDb, id: number): LineView {
  const row = db.prepare(`${SELECT} WHERE l.id = ?`).get(id) as LineRow | undefined;
  if (row === undefined) throw new BrickWorkError('not-found', `There is no line ${id}.`);
  return toView(row);
}

/** The lines of one document (saved or not), by position. */
export function documentLines(db: StoreDb, documentId: number): LineView[] {
  return (db.prepare(`${SELECT} WHERE l.document_id = ? ORDER BY l.position`).all(documentId) as LineRow[]).map(toView);
}

/** A line as a compare reads it (SPEC §13): what it gives, where it is placed, how many, at what price. */
export interface LineToCompare {
  readonly given: GivenLine;
  readonly placed: { readonly type: string; readonly no: string; readonly colour: number | null } | null;
  readonly quantity: number;
  readonly unitPriceE4: number | null;
  readonly condition: 'N' | 'U' | null;
}

const TO_COMPARE = `SELECT l.given_type, l.given_no, l.given_name, l.given_colour_id, l.given_colour_name,
  l.item_type, l.item_no, l.colour_id, l.quantity, l.unit_price_e4, l.condition FROM order_line l`;

type CompareRow = [
  string | null,
  string | null,
  string | null,
  number | null,
  string | null,
  string | null,
  string | null,
  number | null,
  number,
  number | null,
  'N' | 'U' | null,
];

/**
 * The saved lines of an order, or one document's lines, as a compare reads them: only the columns it
 * matches by, no names (the rows shown are named apart), one at a time as the compare sums them — at
 * 200,000 lines building the full `LineView`s took eight times as long as the query, and holding every
 * line (and every row before it) cost the collector more than the compare itself.
 */
export function* linesToCompare(
  db: StoreDb,
  side: { orderId: number } | { documentId: number },
): Generator<LineToCompare, void, undefined> {
  const rows = (
    'orderId' in side
      ? db
          .prepare(
            `${TO_COMPARE} JOIN document d ON d.id = l.document_id WHERE d.order_id = ? AND d.state = 'imported' ORDER BY d.id, l.position`,
          )
          .raw()
          .iterate(side.orderId)
      : db.prepare(`${TO_COMPARE} WHERE l.document_id = ? ORDER BY l.position`).raw().iterate(side.documentId)
  ) as IterableIterator<CompareRow>;
  for (const r of rows)
    yield {
      given: { type: r[0], no: r[1], name: r[2], colourId: r[3], colourName: r[4] },
      placed: r[5] === null || r[6] === null ? null : { type: r[5], no: r[6], colour: r[7] },
      quantity: r[8],
      unitPriceE4: r[9],
      condition: r[10],
    };
}
