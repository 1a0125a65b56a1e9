import type { StoreDb } from '../store/db.ts';
import { forPairs } from '../store/for-pairs.ts';
import { DEFAULT_ITEM_TYPE, isItemType } from '../item-types.ts';
import { foldName } from './fold.ts';
import { elementIdBeside, type GivenItem, type ItemRef } from './rule.ts';

/**
 * A plan's look-ups read ahead, for a store on a server (ADR 0027): there every statement is a round trip
 * (about 0.1 ms), and placing a 10,000-line document asks some 16,000 of them. Given the lines, the
 * answers to what the placement rule will ask of them are read first, a question at a time for all lines
 * at once, with the very conditions of the lookup's own statements (so the same answers); the lookup
 * answers from them and asks the store whatever else it needs. Keys are the rule's (`placeItem`): the
 * trimmed number, the item type, the folded name. A SQLite store is in-process: its lookup asks line by line.
 */
export interface AnswersAhead {
  /** By `key(type, no)`: the catalogue's own spelling of the number, or null. */
  readonly itemNumber: ReadonlyMap<string, string | null>;
  /** By `key(type, no)`: the item remembered for a given number, or null. */
  readonly rememberedNumber: ReadonlyMap<string, ItemRef | null>;
  /** By `key(type, nameKey)`: the item remembered for a folded name given without a number, or null. */
  readonly rememberedName: ReadonlyMap<string, ItemRef | null>;
  /** By `key(type, nameKey)`: up to two items of that folded name. */
  readonly named: ReadonlyMap<string, readonly ItemRef[]>;
  /** By element id: its rows of the element table. */
  readonly elementRows: ReadonlyMap<string, readonly ElementRow[]>;
  /** By Rebrickable number: the BrickLink numbers it is. */
  readonly bricklinkOf: ReadonlyMap<string, readonly string[]>;
  /** By `key(numbering, no)`: the Rebrickable numbers that give it. */
  readonly rebrickableOf: ReadonlyMap<string, readonly string[]>;
  /** By part number: the other numbering's items that share an element with it (in item number order). */
  readonly sharedElements: ReadonlyMap<string, readonly SharedElement[]>;
}

export interface SharedElement {
  readonly given: 'bricklink' | 'rebrickable';
  readonly numbering: 'bricklink' | 'rebrickable';
  readonly no: string;
}

export interface ElementRow {
  readonly numbering: 'bricklink' | 'rebrickable';
  readonly item_no: string;
  readonly colour: string;
}

/** A line as a plan places it: what it gives, and its remarks (where an element id may be kept). */
export interface LineToPlace {
  readonly given: GivenItem;
  readonly remarks?: string | null;
}

export function key(a: string, b: string): string {
  return `${a}\t${b}`;
}

function clean(text: string | null | undefined): string | null {
  const t = text?.trim();
  return t ? t : null;
}

/** PostgreSQL's text can't hold NUL: such a key is left to the lookup's own statement, and its answer. */
const storable = (s: string) => !s.includes('\u0000');

function unique(pairs: Iterable<readonly [string, string]>): [string, string][] {
  const seen = new Map<string, [string, string]>();
  for (const [a, b] of pairs) if (storable(a) && storable(b)) seen.set(key(a, b), [a, b]);
  return [...seen.values()];
}

/** Every asked key answered: those the rows gave, and null (or none) for the rest. */
function answers<V>(asked: readonly [string, string][], found: Map<string, V>, none: V): Map<string, V> {
  for (const [a, b] of asked) if (!found.has(key(a, b))) found.set(key(a, b), none);
  return found;
}

export function readAhead(db: StoreDb, lines: readonly LineToPlace[]): AnswersAhead {
  const keys = lines.flatMap(({ given, remarks }) => {
    const type = clean(given.type)?.toUpperCase() ?? DEFAULT_ITEM_TYPE;
    if (!isItemType(type)) return [];
    const no = clean(given.no);
    const name = clean(given.name);
    return [{ type, no, nameKey: name === null ? null : foldName(name), element: elementIdBeside(remarks) }];
  });

  // Step 1 of the rule: the number in the catalogue.
  const numbers = unique(keys.flatMap((k) => (k.no === null ? [] : [[k.type, k.no] as const])));
  const itemNumber = answers(
    numbers,
    new Map(
      forPairs<{ a: string; b: string; no: string }>(
        db,
        numbers,
        (pairs) =>
          `SELECT j.a, j.b, c.item_no AS no FROM (${pairs}) j JOIN catalogue_item c ON c.item_type = j.a AND c.item_no = j.b`,
      ).map((r) => [key(r.a, r.b), r.no]),
    ),
    null as string | null,
  );
  // The rest only for the lines the catalogue's numbers did not place.
  const open = keys.filter((k) => k.no === null || itemNumber.get(key(k.type, k.no)) === null);

  // Step 2: a remembered hand placement, by number, or by name for a line without one.
  const ref = (r: { type: string; no: string }) => ({ type: r.type, no: r.no }) as ItemRef;
  const remembered = (asked: [string, string][], on: string) =>
    answers(
      asked,
      new Map(
        forPairs<{ a: string; b: string; type: string; no: string }>(
          db,
          asked,
          (pairs) =>
            `SELECT j.a, j.b, h.item_type AS type, h.item_no AS no FROM (${pairs}) j
               JOIN hand_placement h ON h.given_type = j.a AND ${on}`,
        ).map((r) => [key(r.a, r.b), ref(r)]),
      ),
      null as ItemRef | null,
    );
  const missed = unique(open.flatMap((k) => (k.no === null ? [] : [[k.type, k.no] as const])));
  const rememberedNumber = remembered(missed, 'h.given_no = j.b');
  const nameless = unique(
    open.flatMap((k) => (k.no === null && k.nameKey !== null ? [[k.type, k.nameKey] as const] : [])),
  );
  const rememberedName = remembered(nameless, 'h.given_no IS NULL AND h.name_key = j.b');

  // Step 3: other numberings, for parts: element ids (the number, or one beside it), and the part tables.
  const parts = open.filter((k) => k.type === 'P');
  const ids = unique(parts.flatMap((k) => [k.no, k.element].flatMap((id) => (id === null ? [] : [['', id] as const]))));
  const elementRows = new Map<string, ElementRow[]>(ids.map(([, id]) => [id, []]));
  for (const r of forPairs<ElementRow & { b: string }>(
    db,
    ids,
    (pairs) =>
      `SELECT j.b, e.numbering, e.item_no, e.colour FROM (${pairs}) j JOIN element_code e ON e.element_id = j.b`,
  ))
    elementRows.get(r.b)?.push({ numbering: r.numbering, item_no: r.item_no, colour: r.colour });
  const partNumbers = unique(parts.flatMap((k) => (k.no === null ? [] : [['', k.no] as const])));
  const bricklinkOf = new Map<string, string[]>(partNumbers.map(([, no]) => [no, []]));
  for (const r of forPairs<{ b: string; no: string }>(
    db,
    partNumbers,
    (pairs) =>
      `SELECT j.b, p.item_no AS no FROM (${pairs}) j
         JOIN part_number p ON p.rebrickable_no = j.b AND p.numbering = 'bricklink'`,
  ))
    bricklinkOf.get(r.b)?.push(r.no);
  const rebrickableOf = new Map<string, string[]>(
    partNumbers.flatMap(([, no]) => [[key('bricklink', no), []] as const, [key('ldraw', no), []] as const]),
  );
  for (const r of forPairs<{ b: string; numbering: string; no: string }>(
    db,
    partNumbers,
    (pairs) =>
      `SELECT j.b, p.numbering, p.rebrickable_no AS no FROM (${pairs}) j
         JOIN part_number p ON p.numbering IN ('bricklink', 'ldraw') AND p.item_no = j.b`,
  ))
    rebrickableOf.get(key(r.numbering, r.b))?.push(r.no);

  // …and the items of the other numbering that share an element with the number (elements' fall-through).
  const sharedElements = new Map<string, SharedElement[]>(partNumbers.map(([, no]) => [no, []]));
  const seenShared = new Set<string>();
  for (const r of forPairs<SharedElement & { b: string }>(
    db,
    partNumbers,
    (pairs) =>
      `SELECT j.b, e.numbering AS given, o.numbering, o.item_no AS no FROM (${pairs}) j
         JOIN element_code e ON e.item_no = j.b
         JOIN element_code o ON o.element_id = e.element_id AND o.numbering <> e.numbering`,
  )) {
    const k = `${r.b}\t${r.given}\t${r.numbering}\t${r.no}`;
    if (seenShared.has(k)) continue; // DISTINCT, as the lookup's own statement reads
    seenShared.add(k);
    sharedElements.get(r.b)?.push({ given: r.given, numbering: r.numbering, no: r.no });
  }
  for (const rows of sharedElements.values()) rows.sort((x, y) => (x.no < y.no ? -1 : x.no > y.no ? 1 : 0));

  // Step 4: a unique name.
  const names = unique(open.flatMap((k) => (k.nameKey === null ? [] : [[k.type, k.nameKey] as const])));
  const named = new Map<string, ItemRef[]>(names.map(([a, b]) => [key(a, b), []]));
  for (const r of forPairs<{ a: string; b: string; type: string; no: string }>(
    db,
    names,
    (pairs) =>
      `SELECT j.a, j.b, c.item_type AS type, c.item_no AS no FROM (${pairs}) j
         JOIN catalogue_item c ON c.item_type = j.a AND c.name_key = j.b`,
  )) {
    const found = named.get(key(r.a, r.b));
    // Two are enough to know a name is not unique, as the lookup's own statement reads (LIMIT 2).
    if (found !== undefined && found.length < 2) found.push(ref(r));
  }

  return {
    itemNumber,
    rememberedNumber,
    rememberedName,
    named,
    elementRows,
    bricklinkOf,
    rebrickableOf,
    sharedElements,
  };
}
