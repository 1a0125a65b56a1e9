import type { CatalogueNumber, ElementRow, MemoryRow, NumberElementRow, SharedElement } from '../store/lookup.ts';
import type { LookupAhead } from '../store/lookup-ahead.ts';
import { DEFAULT_ITEM_TYPE, isItemType } from '../vocabulary/item-types.ts';
import { foldName } from './fold.ts';
import { numberingOfSource, type Numbering } from '../vocabulary/numberings.ts';
import { elementIdBeside, type GivenItem, type ItemRef } from './rule.ts';

/**
 * A plan's look-ups read ahead, where the store asks many keys at once (`CatalogueReader.ahead`: a server,
 * ADR 0027, where every statement is a round trip of about 0.1 ms, and placing a 10,000-line document asks
 * some 16,000 of them). Given the lines, the answers to what the placement rule will ask of them are read
 * first, a question at a time for all lines at once, with the very conditions of the lookup's own
 * statements (so the same answers); the lookup answers from them and asks the store whatever else it needs. Keys are the rule's (`placeItem`): the
 * trimmed number, the item type, the folded name.
 */
export interface AnswersAhead {
  /** By `key(type, no)`: the catalogue's own spelling of the number and its row's source, or null. */
  readonly itemNumber: ReadonlyMap<string, CatalogueNumber | null>;
  /** By `key(type, no)`: the memory for a given number, or null. */
  readonly rememberedNumber: ReadonlyMap<string, MemoryRow | null>;
  /** By `key(type, nameKey)`: the memory for a folded name given without a number, or null. */
  readonly rememberedName: ReadonlyMap<string, MemoryRow | null>;
  /** By `key(numbering, no)`: the number's element rows in its numbering, each with the other numbering's. */
  readonly numberElements: ReadonlyMap<string, readonly NumberElementRow[]>;
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

/** Each pair once, of those the store can ask ahead (the rest are left to the lookup's own statements). */
function unique(ahead: LookupAhead, pairs: Iterable<readonly [string, string]>): [string, string][] {
  const seen = new Map<string, [string, string]>();
  for (const [a, b] of pairs) if (ahead.askable(a) && ahead.askable(b)) seen.set(key(a, b), [a, b]);
  return [...seen.values()];
}

/** Every asked key answered: those the rows gave, and null (or none) for the rest. */
function answers<V>(asked: readonly [string, string][], found: Map<string, V>, none: V): Map<string, V> {
  for (const [a, b] of asked) if (!found.has(key(a, b))) found.set(key(a, b), none);
  return found;
}

/** What the rule asks about a line: its type, trimmed number, folded name, and an element id beside the number. */
interface LineKey {
  readonly type: string;
  readonly no: string | null;
  readonly nameKey: string | null;
  readonly element: string | null;
  readonly numbering: Numbering | null;
}

function lineKeys(lines: readonly LineToPlace[]): LineKey[] {
  return lines.flatMap(({ given, remarks }) => {
    const type = clean(given.type)?.toUpperCase() ?? DEFAULT_ITEM_TYPE;
    if (!isItemType(type)) return [];
    const no = clean(given.no);
    const name = clean(given.name);
    return [
      {
        type,
        no,
        nameKey: name === null ? null : foldName(name),
        element: elementIdBeside(remarks),
        numbering: given.numbering ?? null,
      },
    ];
  });
}

/** The item alone, without the pair it answers. */
const ref = (r: ItemRef): ItemRef => ({ type: r.type, no: r.no });

/** Each (type, number) pair the keys give, once. */
const numbersOf = (ahead: LookupAhead, keys: readonly LineKey[]) =>
  unique(
    ahead,
    keys.flatMap((k) => (k.no === null ? [] : [[k.type, k.no] as const])),
  );

/**
 * The numbers' element rows in the BrickLink and Rebrickable numberings (a number in its colour, step 3),
 * and those of the items found (the colours a memory's item is made in, step 2): whichever the rule asks.
 */
function numberElementAnswers(ahead: LookupAhead, numbers: readonly string[]): Map<string, NumberElementRow[]> {
  const asked = unique(
    ahead,
    numbers.flatMap((no) => [['bricklink', no] as const, ['rebrickable', no] as const]),
  );
  const out = new Map<string, NumberElementRow[]>(asked.map(([a, b]) => [key(a, b), []]));
  for (const r of ahead.numberElements(asked)) {
    const { a, b, ...row } = r;
    out.get(key(a, b))?.push(row);
  }
  return out;
}

/**
 * Step 3 of the rule, for parts: element ids (the number, one beside it, the elements a number is listed
 * under), and the part tables; and for the lines step 1 placed (`placed`), the element beside the number,
 * which has its say over any step.
 */
function partAnswers(
  ahead: LookupAhead,
  parts: readonly LineKey[],
  placed: readonly LineKey[],
  /** The elements the lines' numbers are listed under (step 3 in a colour asks what each is). */
  numberElementIds: readonly string[],
) {
  const ids = unique(ahead, [
    ...parts.flatMap((k) => [k.no, k.element].flatMap((id) => (id === null ? [] : [['', id] as const]))),
    ...placed.flatMap((k) => (k.element === null ? [] : [['', k.element] as const])),
    ...numberElementIds.map((id) => ['', id] as const),
  ]);
  const elementRows = new Map<string, ElementRow[]>(ids.map(([, id]) => [id, []]));
  for (const r of ahead.elementRows(ids))
    elementRows.get(r.b)?.push({ numbering: r.numbering, item_no: r.item_no, colour: r.colour });
  const partNumbers = unique(
    ahead,
    parts.flatMap((k) => (k.no === null ? [] : [['', k.no] as const])),
  );
  const bricklinkOf = new Map<string, string[]>(partNumbers.map(([, no]) => [no, []]));
  for (const r of ahead.bricklinkNumbers(partNumbers)) bricklinkOf.get(r.b)?.push(r.no);
  const rebrickableOf = new Map<string, string[]>(
    partNumbers.flatMap(([, no]) => [[key('bricklink', no), []] as const, [key('ldraw', no), []] as const]),
  );
  for (const r of ahead.rebrickableNumbers(partNumbers)) rebrickableOf.get(key(r.numbering, r.b))?.push(r.no);

  // …and the items of the other numbering that share an element with the number (elements' fall-through).
  const sharedElements = new Map<string, SharedElement[]>(partNumbers.map(([, no]) => [no, []]));
  const seenShared = new Set<string>();
  for (const r of ahead.sharedElements(partNumbers)) {
    const k = `${r.b}\t${r.given}\t${r.numbering}\t${r.no}`;
    if (seenShared.has(k)) continue; // DISTINCT, as the lookup's own statement reads
    seenShared.add(k);
    sharedElements.get(r.b)?.push({ given: r.given, numbering: r.numbering, no: r.no });
  }
  for (const rows of sharedElements.values()) rows.sort((x, y) => (x.no < y.no ? -1 : x.no > y.no ? 1 : 0));
  return { elementRows, bricklinkOf, rebrickableOf, sharedElements };
}

/** Step 4 of the rule: a unique name. */
function namedAnswers(ahead: LookupAhead, open: readonly LineKey[]): Map<string, ItemRef[]> {
  const names = unique(
    ahead,
    open.flatMap((k) => (k.nameKey === null ? [] : [[k.type, k.nameKey] as const])),
  );
  const named = new Map<string, ItemRef[]>(names.map(([a, b]) => [key(a, b), []]));
  for (const r of ahead.itemsNamed(names)) {
    const found = named.get(key(r.a, r.b));
    // Two are enough to know a name is not unique, as the lookup's own statement reads (LIMIT 2).
    if (found !== undefined && found.length < 2) found.push(ref(r));
  }
  return named;
}

export function readAhead(ahead: LookupAhead, lines: readonly LineToPlace[]): AnswersAhead {
  const keys = lineKeys(lines);

  // Step 1 of the rule: the number in the catalogue — which places a line only in the document's numbering.
  const catalogue = (
    pairs: readonly (readonly [string, string])[],
    into = new Map<string, CatalogueNumber | null>(),
  ) => {
    for (const r of ahead.catalogueNumbers(pairs)) into.set(key(r.a, r.b), { no: r.no, source: r.source });
    return answers(pairs as [string, string][], into, null);
  };
  const itemNumber = catalogue(numbersOf(ahead, keys));
  const placedByNumber = (k: LineKey) => {
    const found = k.no === null ? null : (itemNumber.get(key(k.type, k.no)) ?? null);
    const speaks = found === null ? null : numberingOfSource(found.source);
    return found !== null && (k.numbering === null || speaks === null || speaks === k.numbering);
  };
  // The rest only for the lines it did not place.
  const open = keys.filter((k) => !placedByNumber(k));

  // Step 2: a remembered hand placement, by number, or by name for a line without one.
  const remembered = (asked: [string, string][], read: LookupAhead['rememberedForNumbers']) =>
    answers(asked, new Map(read(asked).map(({ a, b, ...memory }) => [key(a, b), memory])), null as MemoryRow | null);
  const rememberedNumber = remembered(numbersOf(ahead, open), ahead.rememberedForNumbers);
  const nameless = unique(
    ahead,
    open.flatMap((k) => (k.no === null && k.nameKey !== null ? [[k.type, k.nameKey] as const] : [])),
  );
  const rememberedName = remembered(nameless, ahead.rememberedForNames);
  const memoryItems = [...rememberedNumber.values(), ...rememberedName.values()].flatMap((m) =>
    m === null ? [] : [[m.type, m.no] as const],
  );

  // Step 3 in a colour, and the colours a memory's item is made in: the numbers' element rows; then the
  // catalogue's items of the memories and of the other numbering's numbers those elements are.
  const partNumbers = [...open.map((k) => [k.type, k.no] as const), ...memoryItems].flatMap(([type, no]) =>
    type === 'P' && no !== null ? [no] : [],
  );
  const numberElements = numberElementAnswers(ahead, partNumbers);
  const numberElementIds = [...numberElements.values()].flatMap((rows) => rows.map((r) => r.element));

  const parts = partAnswers(
    ahead,
    open.filter((k) => k.type === 'P'),
    keys.filter((k) => k.type === 'P' && placedByNumber(k)),
    numberElementIds,
  );
  // The catalogue's items of the memories, and of the numbers the elements' other table gives.
  const others = [...parts.elementRows.values()].flatMap((rows) => rows.map((r) => ['P', r.item_no] as const));
  catalogue(
    unique(ahead, [...memoryItems, ...others]).filter(([a, b]) => !itemNumber.has(key(a, b))),
    itemNumber,
  );
  const named = namedAnswers(ahead, open);
  return { itemNumber, rememberedNumber, rememberedName, named, numberElements, ...parts };
}
