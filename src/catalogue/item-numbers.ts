import type { ReadableDb } from '../store/db.ts';
import type { LineView } from '../store/lines.ts';
import { NUMBERING_NAMES, numberingOfFormat, numberingOfSource, type Numbering } from '../vocabulary/numberings.ts';
import { BrickWorkError, quote } from '../vocabulary/errors.ts';
import { DEFAULT_ITEM_TYPE } from '../vocabulary/item-types.ts';
import {
  crossReferencedFrom,
  crossReferencedTo,
  itemSources,
  listedInElements,
  sharedElements,
} from '../store/item-numbers.ts';

/**
 * An item's numbers (SPEC §5): beside its catalogue number, its number in each numbering a loaded table
 * gives it. One rule, here, read by the screens, the exports and Compare. A number is *known* only where
 * a table says so, in this order:
 * 1. the catalogue file is that numbering's own download (its source);
 * 2. Rebrickable's cross-references give it (a BrickLink or LDraw number of a Rebrickable part, or back);
 * 3. the element tables: BrickLink's codes and Rebrickable's elements.csv list the same LEGO elements
 *    under it (the number most of the item's elements share);
 * 4. that numbering's element table lists the item's own number.
 * "Probably the same number" (a Rebrickable set's number, most parts' numbers) is not known.
 */
export { NUMBERING_NAMES, numberingOfSource, type Numbering };

export interface ItemNumbers {
  /** The numbering the catalogue's own number is in (its source), or null when its source does not say. */
  readonly catalogue: Numbering | null;
  readonly bricklink: string | null;
  readonly rebrickable: string | null;
  readonly ldraw: string | null;
  /**
   * Every number a loaded table gives it in each numbering, the one above first: a part that BrickLink's
   * codes or Rebrickable's cross-references list under several numbers is known by each of them.
   */
  readonly known: Readonly<Record<Numbering, readonly string[]>>;
}

export interface ItemKey {
  readonly type: string;
  readonly no: string;
}

const itemKey = (type: string, no: string) => `${type}\t${no.toLowerCase()}`;

/** The first of several known numbers: the item's own number when it is among them, else the first listed. */
function chosen(own: string, found: readonly string[] | undefined): string | null {
  if (found === undefined || found.length === 0) return null;
  return found.find((f) => f.toLowerCase() === own.toLowerCase()) ?? found[0] ?? null;
}

/** `first`, then the others, each once (case folded), nulls left out. */
function allOf(first: string | null, ...lists: (readonly string[] | undefined)[]): string[] {
  const out: string[] = [];
  for (const n of [first, ...lists.flatMap((l) => l ?? [])])
    if (n !== null && !out.some((o) => o.toLowerCase() === n.toLowerCase())) out.push(n);
  return out;
}

function grouped(rows: readonly { from: string; to: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const k = r.from.toLowerCase();
    const list = out.get(k) ?? [];
    if (!list.some((t) => t.toLowerCase() === r.to.toLowerCase())) list.push(r.to);
    out.set(k, list);
  }
  return out;
}

/** Items' numbers as `itemNumbers` reads them: `get(type, no)`; `has`: whether it was asked. */
export interface NumbersOf {
  get(type: string, no: string): ItemNumbers;
  has(type: string, no: string): boolean;
}

/**
 * Rule 4: the numbers `numbering`'s element table lists as its own — unless that numbering's number, by
 * its elements, is another item of the other numbering (BrickLink's codes list 970c04, whose elements are
 * Rebrickable's 970c34: Rebrickable's own 970c04 is not BrickLink's 970c04). "Probably the same" is not known.
 */
function listedUnlessOther(
  db: ReadableDb,
  numbering: 'bricklink' | 'rebrickable',
  numbers: readonly string[],
): Set<string> {
  const listed = listedInElements(db, numbering, numbers);
  const others = grouped(sharedElements(db, numbering, [...listed]));
  return new Set(
    [...listed].filter((no) => {
      const items = others.get(no.toLowerCase());
      return items === undefined || items.some((o) => o.toLowerCase() === no.toLowerCase());
    }),
  );
}

/**
 * Items' numbers and the items numbers name, kept while the catalogue's generation holds (they read the
 * catalogue and its tables alone, which every writer of moves it): its keeper makes a new one when it moves.
 */
export interface NumbersMemo {
  readonly items: Map<string, ItemNumbers>;
  readonly named: Map<string, readonly NamedItem[]>;
}

export function numbersMemo(): NumbersMemo {
  return { items: new Map(), named: new Map() };
}

const NO_NUMBERS: ItemNumbers = {
  catalogue: null,
  bricklink: null,
  rebrickable: null,
  ldraw: null,
  known: { bricklink: [], rebrickable: [], ldraw: [] },
};

/** The numbers of many items at once (a few statements, whatever their count): `get(type, no)`; `memo`: those known. */
export function itemNumbers(db: ReadableDb, items: readonly ItemKey[], memo?: NumbersMemo): NumbersOf {
  if (memo === undefined) return readItemNumbers(db, items);
  const missing = new Map<string, ItemKey>();
  for (const i of items) if (!memo.items.has(itemKey(i.type, i.no))) missing.set(itemKey(i.type, i.no), i);
  if (missing.size > 0) {
    const read = readItemNumbers(db, [...missing.values()]);
    for (const [k, i] of missing) memo.items.set(k, read.get(i.type, i.no));
  }
  return {
    get: (type, no) => memo.items.get(itemKey(type, no)) ?? NO_NUMBERS,
    has: (type, no) => memo.items.has(itemKey(type, no)),
  };
}

function readItemNumbers(db: ReadableDb, items: readonly ItemKey[]): NumbersOf {
  const sources = itemSources(db, items);
  const byKey = new Map<string, ItemNumbers>();
  const sourceOf = (i: ItemKey) => sources.get(`${i.type}\t${i.no}`);
  const parts = items.filter((i) => i.type === 'P');
  const inNumbering = (n: Numbering) =>
    parts.filter((i) => numberingOfSource(sourceOf(i) ?? '') === n).map((i) => i.no);
  const rebrickableParts = inNumbering('rebrickable');
  const bricklinkParts = inNumbering('bricklink');

  // Rebrickable parts: their BrickLink and LDraw numbers.
  const blOfRb = grouped(crossReferencedFrom(db, 'bricklink', rebrickableParts));
  const ldOfRb = grouped(crossReferencedFrom(db, 'ldraw', rebrickableParts));
  const blByElements = grouped(sharedElements(db, 'rebrickable', rebrickableParts));
  // Rule 4 only where the shared elements say nothing: where they do, they name the same number or not.
  const blListed = listedUnlessOther(
    db,
    'bricklink',
    rebrickableParts.filter((no) => !blByElements.has(no.toLowerCase())),
  );
  // BrickLink parts: their Rebrickable numbers (and through them, LDraw's).
  const rbOfBl = grouped(crossReferencedTo(db, 'bricklink', bricklinkParts));
  const rbByElements = grouped(sharedElements(db, 'bricklink', bricklinkParts));
  const rbListed = listedUnlessOther(
    db,
    'rebrickable',
    bricklinkParts.filter((no) => !rbByElements.has(no.toLowerCase())),
  );
  const rebrickableOfBricklink = new Map<string, string | null>();
  for (const no of bricklinkParts) {
    const k = no.toLowerCase();
    rebrickableOfBricklink.set(
      k,
      chosen(no, rbOfBl.get(k)) ?? chosen(no, rbByElements.get(k)) ?? (rbListed.has(no) ? no : null),
    );
  }
  const ldOfBl = grouped(
    crossReferencedFrom(
      db,
      'ldraw',
      [...rebrickableOfBricklink.values()].filter((n): n is string => n !== null),
    ),
  );

  for (const i of items) {
    const catalogue = numberingOfSource(sourceOf(i) ?? '');
    const k = i.no.toLowerCase();
    let numbers: ItemNumbers;
    if (i.type !== 'P' || catalogue === null) {
      // Sets, minifigures and the rest are known only in the numbering of the file that gave them.
      const own = (n: Numbering) => (catalogue === n ? i.no : null);
      numbers = {
        catalogue,
        bricklink: own('bricklink'),
        rebrickable: own('rebrickable'),
        ldraw: null,
        known: { bricklink: allOf(own('bricklink')), rebrickable: allOf(own('rebrickable')), ldraw: [] },
      };
    } else if (catalogue === 'rebrickable') {
      const listed = blListed.has(i.no) ? [i.no] : [];
      const bricklink = chosen(i.no, blOfRb.get(k)) ?? chosen(i.no, blByElements.get(k)) ?? listed[0] ?? null;
      const ldraw = chosen(i.no, ldOfRb.get(k));
      numbers = {
        catalogue,
        bricklink,
        rebrickable: i.no,
        ldraw,
        known: {
          bricklink: allOf(bricklink, blOfRb.get(k), blByElements.get(k), listed),
          rebrickable: [i.no],
          ldraw: allOf(ldraw, ldOfRb.get(k)),
        },
      };
    } else {
      const rebrickable = rebrickableOfBricklink.get(k) ?? null;
      const ldraws = rebrickable === null ? undefined : ldOfBl.get(rebrickable.toLowerCase());
      const ldraw = rebrickable === null ? null : chosen(rebrickable, ldraws);
      numbers = {
        catalogue,
        bricklink: i.no,
        rebrickable,
        ldraw,
        known: {
          bricklink: [i.no],
          rebrickable: allOf(rebrickable, rbOfBl.get(k), rbByElements.get(k), rbListed.has(i.no) ? [i.no] : []),
          ldraw: allOf(ldraw, ldraws),
        },
      };
    }
    byKey.set(itemKey(i.type, i.no), numbers);
  }
  return {
    get: (type, no) => byKey.get(itemKey(type, no)) ?? NO_NUMBERS,
    has: (type, no) => byKey.has(itemKey(type, no)),
  };
}

/** What a line's own document called its item: its given number, in the numbering the document speaks. */
export interface Said {
  readonly numbering: Numbering;
  readonly no: string;
  /** Whether the placement rule found the item by the line's name (its number not in the catalogue). */
  readonly byName: boolean;
}

/**
 * What a line's document said of the item it is placed on (`format`: the document's; `placed.by`: how it
 * was placed): its given number, where the document speaks a numbering and gave the item's type; else null.
 */
export function saidOf(
  format: string,
  given: { readonly type: string | null; readonly no: string | null },
  placed: { readonly type: string; readonly by: string | null },
): Said | null {
  const numbering = numberingOfFormat(format);
  const no = given.no?.trim() ?? '';
  const type = given.type?.trim().toUpperCase() || DEFAULT_ITEM_TYPE;
  return numbering === null || no === '' || type !== placed.type
    ? null
    : { numbering, no, byName: placed.by === 'name' };
}

/** A placed line (or a compare's lot) as its number is asked: its item, and what its document said, if anything. */
export interface NumberedLine extends ItemKey {
  readonly said?: Said | null;
}

/** A saved line as its number is asked (`lineNumber`): its item, and what its document said of it; null: unplaced. */
export function numberedSavedLine(l: LineView): NumberedLine | null {
  return l.placed === null
    ? null
    : { type: l.placed.type, no: l.placed.no, said: saidOf(l.documentFormat, l.given, l.placed) };
}

/**
 * **A line's number in a numbering** (SPEC §5, §8): the one rule the line table, the exports and Compare
 * read, so that the number a screen shows is the number the export writes. `numbers`: its item's.
 * 1. The document's own number, where the document speaks that numbering and a loaded table gives the
 *    line's item that number too: of the numbers an item is filed under (BrickLink lists some parts
 *    under two), the one the shop was given.
 * 2. The document's own number, where no table numbers the item in that numbering at all and the line
 *    was placed on it from its own words: the item is the catalogue's of that very text (the same number
 *    across numberings, said so in its `via`), or the rule found it by the line's name. The document's
 *    word in that numbering is that numbering's, no other's (a BrickLink file's 73436c01 door, found by
 *    its name as Rebrickable's 47899c01, is BrickLink's 73436c01); without it every line of a BrickLink
 *    file against a catalogue loaded without the tables would be left out. Not so for a line placed by
 *    hand or by a memory on an item of another number (a fix says the item, not the number), nor by an
 *    element id its number disagrees with.
 * 3. Otherwise the number the tables know for the item. Where they know one and the document gave
 *    another, the tables' is the one that numbering uses now: BrickLink renumbers (an old file's 3062b
 *    is 3062 today, 3742c01 3742sprue), and an upload under a number its catalogue no longer has is
 *    refused there; and a line placed by an element id or by hand on an item its given number does not
 *    name (x202 placed as 32556) is not its given number.
 * null: no number is known in that numbering.
 */
export function lineNumber(
  numbering: Numbering,
  item: ItemKey,
  numbers: ItemNumbers,
  said: Said | null | undefined,
): string | null {
  const known = numbers.known[numbering];
  if (said != null && said.numbering === numbering) {
    const word = said.no.trim().toLowerCase();
    const same = known.find((k) => k.toLowerCase() === word);
    if (same !== undefined) return same;
    if (known.length === 0 && (item.no.toLowerCase() === word || said.byName)) return said.no.trim();
  }
  return numbers[numbering];
}

/** A catalogue item as staff read it beside another: `Rebrickable 3048c` (its number alone where its source does not say). */
export function catalogueName(item: { readonly no: string; readonly catalogue: Numbering | null }): string {
  return item.catalogue === null ? item.no : `${NUMBERING_NAMES[item.catalogue]} ${item.no}`;
}

export interface NamedItem extends ItemKey {
  /** The numbering of its catalogue number. */
  readonly catalogue: Numbering | null;
}

/**
 * The catalogue items whose number in `numbering` (`itemNumbers`, its chosen one) is each of `numbers`,
 * by `get(type, no)`: the rule read backwards. Two items where the numbering does not tell them apart
 * (BrickLink's 3048c is both of Rebrickable's 3048b and 3048c). A few statements for any number of numbers.
 */
export function itemsNumbered(
  db: ReadableDb,
  numbering: Numbering,
  numbers: readonly ItemKey[],
  /** Items' numbers already read (`itemNumbers`): not read again. */
  known?: NumbersOf,
  memo?: NumbersMemo,
): { get(type: string, no: string): readonly NamedItem[] } {
  if (memo === undefined) return readItemsNumbered(db, numbering, numbers, known);
  const k = (type: string, no: string) => `${numbering}\t${itemKey(type, no)}`;
  const missing = new Map<string, ItemKey>();
  for (const n of numbers) if (!memo.named.has(k(n.type, n.no))) missing.set(k(n.type, n.no), n);
  if (missing.size > 0) {
    const read = readItemsNumbered(db, numbering, [...missing.values()], known);
    for (const [key, n] of missing) memo.named.set(key, read.get(n.type, n.no));
  }
  return { get: (type, no) => memo.named.get(k(type, no)) ?? [] };
}

function readItemsNumbered(
  db: ReadableDb,
  numbering: Numbering,
  numbers: readonly ItemKey[],
  known?: NumbersOf,
): { get(type: string, no: string): readonly NamedItem[] } {
  const candidates = new Map<string, ItemKey[]>();
  const add = (type: string, number: string, no: string) => {
    const list = candidates.get(itemKey(type, number)) ?? [];
    if (!list.some((c) => c.no === no)) list.push({ type, no });
    candidates.set(itemKey(type, number), list);
  };
  for (const n of numbers) add(n.type, n.no, n.no);
  const parts = numbers.filter((n) => n.type === 'P').map((n) => n.no);
  // The items whose numbers `itemNumbers` reads from these tables: each is then asked forwards.
  if (numbering === 'bricklink') {
    for (const r of crossReferencedTo(db, 'bricklink', parts)) add('P', r.from, r.to);
    for (const r of sharedElements(db, 'bricklink', parts)) add('P', r.from, r.to);
  } else if (numbering === 'rebrickable') {
    for (const r of crossReferencedFrom(db, 'bricklink', parts)) add('P', r.from, r.to);
    for (const r of sharedElements(db, 'rebrickable', parts)) add('P', r.from, r.to);
  } else {
    for (const r of crossReferencedTo(db, 'ldraw', parts)) add('P', r.from, r.to);
  }
  const all = [...candidates.values()].flat();
  const forwards = itemNumbers(db, known === undefined ? all : all.filter((c) => !known.has(c.type, c.no)));
  const numbersOf = (c: ItemKey) => (known?.has(c.type, c.no) ? known.get(c.type, c.no) : forwards.get(c.type, c.no));
  return {
    get: (type, no) =>
      (candidates.get(itemKey(type, no)) ?? []).flatMap((c) => {
        const n = numbersOf(c);
        return n[numbering]?.toLowerCase() === no.toLowerCase() ? [{ ...c, catalogue: n.catalogue }] : [];
      }),
  };
}

export interface LineNumber {
  /** The line's number in the numbering asked (`lineNumber`); null: none known. */
  readonly no: string | null;
  /** The other catalogue items that number names too (`Rebrickable 3048c`): the numbering does not tell them apart. */
  readonly sharedWith: readonly string[];
}

/** The numbers of many lines in `numbering` at once (`lineNumber`), each with the other items its number names. */
export function lineNumbers(
  db: ReadableDb,
  numbering: Numbering,
  lines: readonly NumberedLine[],
  memo?: NumbersMemo,
): { get(line: NumberedLine): LineNumber; numbers: NumbersOf } {
  const numbers = itemNumbers(db, lines, memo);
  const noOf = (l: NumberedLine) => lineNumber(numbering, l, numbers.get(l.type, l.no), l.said);
  const asked = lines.flatMap((l) => {
    const no = noOf(l);
    return no === null ? [] : [{ type: l.type, no }];
  });
  const named = itemsNumbered(db, numbering, asked, numbers, memo);
  return {
    numbers,
    get: (l) => {
      const no = noOf(l);
      if (no === null) return { no, sharedWith: [] };
      const others = named
        .get(l.type, no)
        .filter((i) => i.type !== l.type || i.no.toLowerCase() !== l.no.toLowerCase());
      return { no, sharedWith: others.map(catalogueName) };
    },
  };
}

/**
 * An item's number as staff read it (SPEC §5, §9): in the shop numbering first (`inShop`, the line's
 * number in it: `lineNumber`), the catalogue's beside it when that differs — `3794 (Rebrickable 3794b)`;
 * the catalogue's, named, when the shop numbering has none (`3794b (Rebrickable)`).
 */
export function shownNumber(
  catalogueNo: string,
  numbers: ItemNumbers,
  shop: Numbering,
  inShop: string | null = numbers[shop],
): string {
  if (numbers.catalogue === null || numbers.catalogue === shop) return catalogueNo;
  // Not known in the shop's numbering: the catalogue's number, saying whose it is.
  if (inShop === null) return `${catalogueNo} (${NUMBERING_NAMES[numbers.catalogue]})`;
  if (inShop.toLowerCase() === catalogueNo.toLowerCase()) return inShop;
  return `${inShop} (${NUMBERING_NAMES[numbers.catalogue]} ${catalogueNo})`;
}

/** A line's (or an item's) number as the screens show it, and the other catalogue items that number names too. */
export interface ShownNumber {
  readonly shown: string;
  readonly sharedWith: readonly string[];
}

/**
 * How the screens name many lines' items at once (SPEC §5, §9): the number in the shop's numbering
 * (`lineNumber`: what the line's document said counts, as in the exports) first, the catalogue's beside it
 * when different, and the other items that number names. `shop` is the store's `numbering` setting.
 */
export function numberShower(
  db: ReadableDb,
  lines: readonly NumberedLine[],
  shop: Numbering,
  memo?: NumbersMemo,
): (line: NumberedLine) => ShownNumber {
  const numbered = lineNumbers(db, shop, lines, memo);
  return (l) => {
    const n = numbered.get(l);
    return { shown: shownNumber(l.no, numbered.numbers.get(l.type, l.no), shop, n.no), sharedWith: n.sharedWith };
  };
}

/**
 * The catalogue item a hand placement names (SPEC §10 `place`): the catalogue's own number as it is; else
 * a number in the shop numbering that names exactly one catalogue item, as that item — what the screens and
 * `suggest` show first. A number that names several is refused, naming them; one that names none is left
 * to the placement, which refuses it.
 */
export function itemToPlace(db: ReadableDb, shop: Numbering, type: string, no: string): ItemKey {
  const t = type.trim().toUpperCase();
  const n = no.trim();
  if (n === '' || itemSources(db, [{ type: t, no: n }]).size > 0) return { type, no };
  const named = itemsNumbered(db, shop, [{ type: t, no: n }]).get(t, n);
  const [only] = named;
  if (named.length === 1 && only !== undefined) return { type: t, no: only.no };
  if (named.length > 1) {
    throw new BrickWorkError(
      'not-found',
      `${t} ${quote(n)} is not in the catalogue, and ${NUMBERING_NAMES[shop]}'s ${quote(n)} names ${named.length} catalogue items: ` +
        `${named.map(catalogueName).join(', ')}. Place the line on one of them by its catalogue number.`,
    );
  }
  return { type, no };
}
