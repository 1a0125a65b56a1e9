import type { ReadableDb } from './db.ts';
import { forPairs } from './for-pairs.ts';

/**
 * What the loaded tables say of items' numbers in other numberings (SPEC §5 "An item's numbers"), read
 * for many items at once; the rule that reads them is `catalogue/item-numbers.ts`.
 */

/** PostgreSQL's text can't hold NUL; no catalogue number does either. */
const storable = (s: string) => !s.includes('\u0000');

function pairsOf(numbers: Iterable<string>): [string, string][] {
  return [...new Set(numbers)].filter(storable).map((no) => ['', no]);
}

/**
 * Whether Rebrickable's cross-references hold any number of `numbering`, and whether any element table is
 * loaded: a shop without them is asked nothing of them (a question of hundreds of numbers costs about a
 * millisecond; this one, a look at an index).
 */
function anyCrossReferences(db: ReadableDb, numbering: 'bricklink' | 'ldraw'): boolean {
  return db.prepare('SELECT EXISTS (SELECT 1 FROM part_number WHERE numbering = ?)').pluck().get(numbering) === 1;
}

function anyElements(db: ReadableDb): boolean {
  return db.prepare('SELECT EXISTS (SELECT 1 FROM element_code)').pluck().get() === 1;
}

/** Each item's source (`bricklink:Parts.txt`, `rebrickable:parts.csv`, `bricklink-api`), by `type\tno` as asked. */
export function itemSources(db: ReadableDb, items: readonly { type: string; no: string }[]): Map<string, string> {
  const pairs = [...new Map(items.map((i) => [`${i.type}\t${i.no}`, [i.type, i.no] as [string, string]])).values()];
  const out = new Map<string, string>();
  for (const r of forPairs<{ a: string; b: string; source: string }>(
    db,
    pairs.filter(([, no]) => storable(no)),
    (p) =>
      `SELECT j.a, j.b, c.source FROM (${p}) j CROSS JOIN catalogue_item c WHERE c.item_type = j.a AND c.item_no = j.b`,
  ))
    out.set(`${r.a}\t${r.b}`, r.source);
  return out;
}

/** Rebrickable's cross-references from Rebrickable numbers: each one's numbers in `numbering`, as asked. */
export function crossReferencedFrom(
  db: ReadableDb,
  numbering: 'bricklink' | 'ldraw',
  rebrickable: Iterable<string>,
): { from: string; to: string }[] {
  if (!anyCrossReferences(db, numbering)) return [];
  return forPairs<{ b: string; no: string }>(
    db,
    pairsOf(rebrickable),
    (p) =>
      `SELECT j.b, x.item_no AS no FROM (${p}) j
         CROSS JOIN part_number x WHERE x.rebrickable_no = j.b AND x.numbering = '${numbering}' ORDER BY j.b, x.item_no`,
  ).map((r) => ({ from: r.b, to: r.no }));
}

/** Rebrickable's cross-references read back: the Rebrickable numbers that give each number of `numbering`. */
export function crossReferencedTo(
  db: ReadableDb,
  numbering: 'bricklink' | 'ldraw',
  numbers: Iterable<string>,
): { from: string; to: string }[] {
  if (!anyCrossReferences(db, numbering)) return [];
  return forPairs<{ b: string; no: string }>(
    db,
    pairsOf(numbers),
    (p) =>
      // CROSS JOIN: the pairs outside, the index inside (SQLite would otherwise scan the table for each pair).
      `SELECT j.b, x.rebrickable_no AS no FROM (${p}) j
         CROSS JOIN part_number x WHERE x.numbering = '${numbering}' AND x.item_no = j.b ORDER BY j.b, x.rebrickable_no`,
  ).map((r) => ({ from: r.b, to: r.no }));
}

/**
 * Numbers that share LEGO element ids across the two element tables: for each number of `from`'s table,
 * the numbers the other table gives the same elements, with how many elements say so (most first).
 */
export function sharedElements(
  db: ReadableDb,
  from: 'bricklink' | 'rebrickable',
  numbers: Iterable<string>,
): { from: string; to: string; elements: number }[] {
  const other = from === 'bricklink' ? 'rebrickable' : 'bricklink';
  if (!anyElements(db)) return [];
  return forPairs<{ b: string; no: string; n: number | string }>(
    db,
    pairsOf(numbers),
    (p) =>
      `SELECT j.b, o.item_no AS no, count(DISTINCT o.element_id) AS n FROM (${p}) j
         CROSS JOIN element_code e CROSS JOIN element_code o
        WHERE e.numbering = '${from}' AND e.item_no = j.b AND o.element_id = e.element_id AND o.numbering = '${other}'
        GROUP BY j.b, o.item_no ORDER BY j.b, n DESC, o.item_no`,
  ).map((r) => ({ from: r.b, to: r.no, elements: Number(r.n) }));
}

/** The numbers a numbering's element table lists as its own (BrickLink's codes, Rebrickable's elements.csv). */
export function listedInElements(
  db: ReadableDb,
  numbering: 'bricklink' | 'rebrickable',
  numbers: Iterable<string>,
): Set<string> {
  if (!anyElements(db)) return new Set();
  const found = forPairs<{ b: string }>(
    db,
    pairsOf(numbers),
    (p) =>
      `SELECT j.b FROM (${p}) j
        WHERE EXISTS (SELECT 1 FROM element_code e WHERE e.numbering = '${numbering}' AND e.item_no = j.b)`,
  );
  return new Set(found.map((r) => r.b));
}

/** The colour table read back: each BrickLink colour id's ids in `numbering` (Rebrickable's, LDraw's). */
export function colourIdsFromBrickLink(
  db: ReadableDb,
  numbering: 'rebrickable' | 'ldraw',
  bricklinkIds: Iterable<number>,
): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const r of forPairs<{ b: string; key: string }>(
    db,
    [...new Set(bricklinkIds)].map((id) => ['', String(id)]),
    (p) =>
      `SELECT j.b, t.key FROM (${p}) j
         JOIN colour_translation t ON t.numbering = '${numbering}' AND t.bricklink_id = CAST(j.b AS INTEGER)`,
  )) {
    const id = Number(r.key);
    if (!Number.isInteger(id)) continue;
    const list = out.get(Number(r.b)) ?? [];
    list.push(id);
    out.set(Number(r.b), list);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}
