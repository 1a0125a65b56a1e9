/**
 * The plain shapes the pick list and the put-away list are made from and made of (issue 65 §2–§3,
 * SPEC §16). No store handle, no SQL: the store reads an order's lines and the stock's lots into these,
 * and the plans (`pick-plan.ts`, `put-away-plan.ts`) give plain data back.
 */

export type Condition = 'N' | 'U';

/** A catalogue item in a colour: what a line is placed on, and what a stock lot holds. */
export interface ItemInColour {
  readonly type: string;
  readonly no: string;
  /** The colour's id; null: the item has none (sets, minifigures, books). */
  readonly colour: number | null;
}

/** Why a line is unplaced, as placement stores it (§6): its code and its words for staff. */
export interface UnplacedReason {
  readonly reason: string;
  readonly text: string;
}

interface LineBase {
  /** The order line's id. */
  readonly line: number;
  /** Its position in its document, the order the lines were given in. */
  readonly position: number;
  /** Where it is, as staff read it: `document key #position`. */
  readonly where: string;
  /** What it is, as staff read it: `P 3794b Plate 1 x 2 with Jumper (White)`. */
  readonly what: string;
  readonly quantity: number;
  /** N or U; null: the document does not say. */
  readonly condition: Condition | null;
}

/** A saved line of an order (going out or coming in): placed on a catalogue item, or unplaced with its reason. */
export type OrderLine =
  | (LineBase & { readonly item: ItemInColour; readonly unplaced: null })
  | (LineBase & { readonly item: null; readonly unplaced: UnplacedReason });

export type PlacedOrderLine = Extract<OrderLine, { item: ItemInColour }>;
export type UnplacedOrderLine = Extract<OrderLine, { item: null }>;

/** An order line the plan has nothing to do with, kept so that every line is accounted for. */
export interface LineApart {
  readonly line: number;
  readonly position: number;
  readonly where: string;
  readonly what: string;
  readonly quantity: number;
}

/** An unplaced line, listed apart with its reason (it can't be matched with any stock). */
export interface UnplacedLineApart extends LineApart, UnplacedReason {}

/** A lot of the shop's stock, placed on a catalogue item as every line is (§6). */
export interface StockLot {
  /** The stock line's id (the store's). */
  readonly lot: number;
  /** BrickLink's lot id, where the stock's source gave one (a Mass Update needs it). */
  readonly lotId: string | null;
  readonly item: ItemInColour;
  /** N or U; null: the stock's source does not say. */
  readonly condition: Condition | null;
  readonly quantity: number;
  /** Its bin, as given (the lot's Remarks by default); null: none. */
  readonly location: string | null;
}

// ── The pick list ──────────────────────────────────────────────────────────────────────────────────────

/**
 * What a line lacks once every lot it may take from is taken:
 * - `short`: the stock holds less than the order asks (after what earlier lines of the order took);
 * - `none`: no lot of the item in that colour at all;
 * - `other-condition`: lots of the item in that colour, but only in the other condition.
 * `missing` is how many pieces are not found; `other` says what the other condition holds, where it
 * holds any, so that staff can offer it.
 */
export interface Shortfall {
  readonly kind: 'short' | 'none' | 'other-condition';
  readonly missing: number;
  readonly other: OtherCondition | null;
}

export interface OtherCondition {
  readonly condition: Condition;
  /** Pieces left there (after earlier lines of the order took theirs). */
  readonly quantity: number;
  /** Its lots' locations, in walking order, each once; lots without one are not named. */
  readonly locations: readonly string[];
}

/** One stop of the walk: take `take` pieces from one lot for one order line. */
export interface PickEntry {
  /** The entry's key, as marks name it: `pickEntryKey(line, lot key)` (`lotKeys`). */
  readonly key: string;
  readonly line: number;
  readonly position: number;
  readonly where: string;
  readonly what: string;
  readonly item: ItemInColour;
  /** How many the order line asks for, all its entries together. */
  readonly ordered: number;
  readonly lot: number;
  readonly lotId: string | null;
  readonly location: string | null;
  /** The lot's condition (a line that does not say may take either). */
  readonly condition: Condition | null;
  /** What the lot holds, as imported. */
  readonly inLot: number;
  readonly take: number;
  /** On the line's last stop in walking order: what it still lacks after it; null: nothing. */
  readonly short: Shortfall | null;
}

/** A line of the order that has nowhere to be taken from (nothing in stock it may take). */
export interface PickMissing extends LineApart {
  readonly item: ItemInColour;
  readonly condition: Condition | null;
  readonly short: Shortfall;
}

export interface PickPlan {
  /** The walk: every lot to take from, in walking order (lots without a location last). */
  readonly entries: readonly PickEntry[];
  /** Placed lines with nothing to take anywhere: for whoever answers the customer, not for the walk. */
  readonly missing: readonly PickMissing[];
  /** Lines of 0 pieces: nothing to take. */
  readonly nothingAsked: readonly LineApart[];
  /** The order's unplaced lines, with their reasons. */
  readonly unplaced: readonly UnplacedLineApart[];
}

/** A mark: how many were picked for one entry (by its key). */
export interface PickMark {
  readonly key: string;
  readonly picked: number;
}

/** How far the picking is: "31 of 58 lots, 412 of 530 pieces". */
export interface PickProgress {
  readonly lots: number;
  readonly lotsDone: number;
  readonly pieces: number;
  readonly piecesDone: number;
}

// ── The put-away list ──────────────────────────────────────────────────────────────────────────────────

/** A received line the put-away list places: what it is and how many, as every line apart says it. */
interface PutAwayLine extends LineApart {
  readonly item: ItemInColour;
  readonly condition: Condition | null;
}

/** A received line that goes into a lot the stock holds (same item, colour and condition). */
export interface PutAwayToLot extends PutAwayLine {
  readonly kind: 'existing';
  readonly lot: number;
  readonly lotId: string | null;
  readonly location: string | null;
  /** The lot's quantity before this line, and after it (earlier lines of the order to it counted). */
  readonly before: number;
  readonly after: number;
}

/** Where a new lot's location comes from: typed by staff, the item's other lots, its category's lots; null: none. */
export type LocationSource = 'typed' | 'item' | 'category' | null;

/** A received line the stock holds no lot for: a new lot, with a location suggested or typed. */
export interface PutAwayNew extends PutAwayLine {
  readonly kind: 'new';
  /** Null: nothing to suggest from, and none typed ("type one"). */
  readonly location: string | null;
  readonly from: LocationSource;
}

export type PutAwayEntry = PutAwayToLot | PutAwayNew;

export interface PutAwayPlan {
  /** Every placed line of some pieces, in walking order (lines without a location last). */
  readonly entries: readonly PutAwayEntry[];
  /** Lines of 0 pieces: nothing to put away. */
  readonly nothingReceived: readonly LineApart[];
  readonly unplaced: readonly UnplacedLineApart[];
}
