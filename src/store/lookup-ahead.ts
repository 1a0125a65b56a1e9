import type { ReadableDb } from './db.ts';
import { forPairs } from './for-pairs.ts';
import type { ElementRow, LookupItem, SharedElement } from './lookup.ts';

/**
 * The lookup's questions asked for many keys at once (`placement/read-ahead.ts`), each with the very
 * conditions of its line-by-line statement (`lookup.ts`), so the same answers. Each row names the pair
 * it answers (`a`, `b`); a key that gives no row has no answer.
 */

type Pairs = readonly (readonly [string, string])[];

/** For (type, number) pairs: the catalogue's own spelling of the number. */
export function catalogueNumbersOf(db: ReadableDb, pairs: Pairs): { a: string; b: string; no: string }[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.a, j.b, c.item_no AS no FROM (${p}) j JOIN catalogue_item c ON c.item_type = j.a AND c.item_no = j.b`,
  );
}

/** An item found for a pair. */
type ItemOfPair = { a: string; b: string } & LookupItem;

/** For (type, number) pairs: the item remembered for the given number. */
export function rememberedForNumbers(db: ReadableDb, pairs: Pairs): ItemOfPair[] {
  return remembered(db, pairs, 'h.given_no = j.b');
}

/** For (type, folded name) pairs: the item remembered for the name given without a number. */
export function rememberedForNames(db: ReadableDb, pairs: Pairs): ItemOfPair[] {
  return remembered(db, pairs, 'h.given_no IS NULL AND h.name_key = j.b');
}

function remembered(db: ReadableDb, pairs: Pairs, on: string): ItemOfPair[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.a, j.b, h.item_type AS type, h.item_no AS no FROM (${p}) j
         JOIN hand_placement h ON h.given_type = j.a AND ${on}`,
  );
}

/** For ('', element id) pairs: the element tables' rows of the id (`b`). */
export function elementRowsOf(db: ReadableDb, pairs: Pairs): (ElementRow & { b: string })[] {
  return forPairs(
    db,
    pairs,
    (p) => `SELECT j.b, e.numbering, e.item_no, e.colour FROM (${p}) j JOIN element_code e ON e.element_id = j.b`,
  );
}

/** For ('', Rebrickable number) pairs: the BrickLink numbers it is (`no`). */
export function bricklinkNumbersOf(db: ReadableDb, pairs: Pairs): { b: string; no: string }[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.b, p.item_no AS no FROM (${p}) j
         JOIN part_number p ON p.rebrickable_no = j.b AND p.numbering = 'bricklink'`,
  );
}

/** For ('', number) pairs: the Rebrickable numbers (`no`) that give it as a BrickLink or LDraw number. */
export function rebrickableNumbersOf(db: ReadableDb, pairs: Pairs): { b: string; numbering: string; no: string }[] {
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
export function sharedElementsOf(db: ReadableDb, pairs: Pairs): (SharedElement & { b: string })[] {
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
export function itemsNamedOf(db: ReadableDb, pairs: Pairs): ItemOfPair[] {
  return forPairs(
    db,
    pairs,
    (p) =>
      `SELECT j.a, j.b, c.item_type AS type, c.item_no AS no FROM (${p}) j
         JOIN catalogue_item c ON c.item_type = j.a AND c.name_key = j.b`,
  );
}
