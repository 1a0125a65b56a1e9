import type { ReadableDb } from './db.ts';
import { forPairs } from './for-pairs.ts';
import type { ElementRow, LookupItem, MemoryRow, NumberElementRow, SharedElement } from './lookup.ts';

/**
 * The lookup's questions asked for many keys at once (`placement/read-ahead.ts`), each with the very
 * conditions of its line-by-line statement (`lookup.ts`), so the same answers. Each row names the pair
 * it answers (`a`, `b`); a key that gives no row has no answer. The store hands them out where they pay
 * (`catalogueReader` in lookup.ts): a server, where every statement is a round trip.
 */

type Pairs = readonly (readonly [string, string])[];

/** The questions for many keys at once, bound to a store (`lookupAhead`). */
export interface LookupAhead {
  /**
   * Whether a key can be asked ahead: PostgreSQL's text can't hold NUL, so such a key is left to the
   * lookup's own statement, and its answer.
   */
  askable(text: string): boolean;
  catalogueNumbers(pairs: Pairs): ReturnType<typeof catalogueNumbersOf>;
  numberElements(pairs: Pairs): ReturnType<typeof numberElementsOf>;
  rememberedForNumbers(pairs: Pairs): MemoryOfPair[];
  rememberedForNames(pairs: Pairs): MemoryOfPair[];
  elementRows(pairs: Pairs): ReturnType<typeof elementRowsOf>;
  bricklinkNumbers(pairs: Pairs): ReturnType<typeof bricklinkNumbersOf>;
  rebrickableNumbers(pairs: Pairs): ReturnType<typeof rebrickableNumbersOf>;
  sharedElements(pairs: Pairs): ReturnType<typeof sharedElementsOf>;
  itemsNamed(pairs: Pairs): ItemOfPair[];
}

/** The questions of a server store, asked ahead (the only store `catalogueReader` gives them for). */
export function lookupAhead(db: ReadableDb): LookupAhead {
  return {
    askable: (text) => !text.includes('\u0000'),
    catalogueNumbers: (pairs) => catalogueNumbersOf(db, pairs),
    numberElements: (pairs) => numberElementsOf(db, pairs),
    rememberedForNumbers: (pairs) => rememberedForNumbers(db, pairs),
    rememberedForNames: (pairs) => rememberedForNames(db, pairs),
    elementRows: (pairs) => elementRowsOf(db, pairs),
    bricklinkNumbers: (pairs) => bricklinkNumbersOf(db, pairs),
    rebrickableNumbers: (pairs) => rebrickableNumbersOf(db, pairs),
    sharedElements: (pairs) => sharedElementsOf(db, pairs),
    itemsNamed: (pairs) => itemsNamedOf(db, pairs),
  };
}

/** For (type, number) pairs: the catalogue's own spelling of the number, and its row's source. */
function catalogueNumbersOf(db: ReadableDb, pairs: Pairs): { a: string; b: string; no: string; source: string }[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.a, j.b, c.item_no AS no, c.source FROM (${p}) j JOIN catalogue_item c ON c.item_type = j.a AND c.item_no = j.b`,
  );
}

/** For (numbering, part number) pairs: the number's element rows in that numbering (as `numberElements` reads them). */
function numberElementsOf(db: ReadableDb, pairs: Pairs): (NumberElementRow & { a: string; b: string })[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.a, j.b, e.element_id AS element, e.colour
         FROM (${p}) j JOIN element_code e ON e.item_no = j.b AND e.numbering = j.a`,
  );
}

/** An item found for a pair. */
type ItemOfPair = { a: string; b: string } & LookupItem;

/** A memory found for a pair. */
type MemoryOfPair = { a: string; b: string } & MemoryRow;

/** For (type, number) pairs: the memory for the given number. */
function rememberedForNumbers(db: ReadableDb, pairs: Pairs): MemoryOfPair[] {
  return remembered(db, pairs, 'h.given_no = j.b');
}

/** For (type, folded name) pairs: the memory for the name given without a number. */
function rememberedForNames(db: ReadableDb, pairs: Pairs): MemoryOfPair[] {
  return remembered(db, pairs, 'h.given_no IS NULL AND h.name_key = j.b');
}

/** The memory and its newest teaching of the item it holds, as `MEMORY` (lookup.ts) reads them. */
function remembered(db: ReadableDb, pairs: Pairs, on: string): MemoryOfPair[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.a, j.b, h.id, h.item_type AS type, h.item_no AS no, h.created_at AS createdAt, t.colour_id AS taughtColour,
              t.desk AS taughtDesk, t.taught_at AS taughtAt
         FROM (${p}) j JOIN hand_placement h ON h.given_type = j.a AND ${on}
         LEFT JOIN hand_placement_teaching t
           ON t.id = (SELECT max(n.id) FROM hand_placement_teaching n WHERE n.placement_id = h.id)
          AND t.item_type = h.item_type AND t.item_no = h.item_no`,
  );
}

/** For ('', element id) pairs: the element tables' rows of the id (`b`). */
function elementRowsOf(db: ReadableDb, pairs: Pairs): (ElementRow & { b: string })[] {
  return forPairs(
    db,
    pairs,
    (p) => `SELECT j.b, e.numbering, e.item_no, e.colour FROM (${p}) j JOIN element_code e ON e.element_id = j.b`,
  );
}

/** For ('', Rebrickable number) pairs: the BrickLink numbers it is (`no`). */
function bricklinkNumbersOf(db: ReadableDb, pairs: Pairs): { b: string; no: string }[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.b, p.item_no AS no FROM (${p}) j
         JOIN part_number p ON p.rebrickable_no = j.b AND p.numbering = 'bricklink'`,
  );
}

/** For ('', number) pairs: the Rebrickable numbers (`no`) that give it as a BrickLink or LDraw number. */
function rebrickableNumbersOf(db: ReadableDb, pairs: Pairs): { b: string; numbering: string; no: string }[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.b, p.numbering, p.rebrickable_no AS no FROM (${p}) j
         JOIN part_number p ON p.numbering IN ('bricklink', 'ldraw') AND p.item_no = j.b`,
  );
}

/**
 * For ('', part number) pairs: the other numbering's items that share an element with it, a row per
 * element shared (the caller keeps each once, in item number order, as `sharedElements` reads).
 */
function sharedElementsOf(db: ReadableDb, pairs: Pairs): (SharedElement & { b: string })[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.b, e.numbering AS given, o.numbering, o.item_no AS no FROM (${p}) j
         JOIN element_code e ON e.item_no = j.b
         JOIN element_code o ON o.element_id = e.element_id AND o.numbering <> e.numbering`,
  );
}

/** For (type, folded name) pairs: the items of that name (the caller keeps two, as `itemsNamed` reads). */
function itemsNamedOf(db: ReadableDb, pairs: Pairs): ItemOfPair[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.a, j.b, c.item_type AS type, c.item_no AS no FROM (${p}) j
         JOIN catalogue_item c ON c.item_type = j.a AND c.name_key = j.b`,
  );
}
