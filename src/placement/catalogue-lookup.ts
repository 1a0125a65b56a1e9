import type { ReadableDb } from '../store/db.ts';
import {
  catalogueReader,
  type CatalogueNumber,
  type CatalogueReader,
  type ElementRow,
  type MemoryRow,
} from '../store/lookup.ts';
import type { LookupAhead } from '../store/lookup-ahead.ts';
import { NUMBERING_NAMES, numberingOfSource, type Numbering } from '../vocabulary/numberings.ts';
import { elementColourId } from './element-colour.ts';
import { key, readAhead, type AnswersAhead, type LineToPlace } from './read-ahead.ts';
import type { CatalogueItem, ElementMatch, InColour, ItemRef, Memory, PlacementLookup, Translation } from './rule.ts';

/** An answer read ahead for this key, else the store's: `ask()`. */
function known<V>(ahead: ReadonlyMap<string, V> | undefined, k: string, ask: () => V): V {
  return ahead !== undefined && ahead.has(k) ? (ahead.get(k) as V) : ask();
}

/** The same question asked once: a plan's colours are few, its lines many. */
function once<A extends unknown[], V>(ask: (...args: A) => V, answered = new Map<string, V>()): (...args: A) => V {
  return (...args) => {
    const k = JSON.stringify(args);
    if (!answered.has(k)) answered.set(k, ask(...args));
    return answered.get(k) as V;
  };
}

/**
 * What lookups made one after another (the batches of one re-placement) have already read from a server
 * store: the answers read ahead and the lines they were read for, and each question asked once. Valid
 * while the catalogue and the remembered placements do not change (within one transaction).
 */
export interface LookupMemory {
  ahead: AnswersAhead | null;
  readonly seen: Set<string>;
  readonly asked: Map<string, Map<string, unknown>>;
}

export function lookupMemory(): LookupMemory {
  return { ahead: null, seen: new Set(), asked: new Map() };
}

/**
 * Answers of the catalogue alone — its items, colours and tables, never the shop's memories — for lookups
 * that only read (a list of lines shown): valid while the catalogue's generation holds (every writer of
 * the catalogue moves it), so its keeper makes a new one when it moves (`api/service.ts`).
 */
export interface CatalogueAnswers {
  readonly asked: Map<string, Map<string, unknown>>;
  /** Each number's elements by the catalogue colour they are in (`numberColours`). */
  readonly byNumber: Map<string, Map<number, string[]>>;
}

export function catalogueAnswers(): CatalogueAnswers {
  return { asked: new Map(), byNumber: new Map() };
}

function askedIn(asked: Map<string, Map<string, unknown>>, name: string): Map<string, never> {
  let answers = asked.get(name);
  if (answers === undefined) asked.set(name, (answers = new Map()));
  return answers as Map<string, never>;
}

/** What a line's read-ahead depends on: lines alike need it once. */
function signature(line: LineToPlace): string {
  const g = line.given;
  return JSON.stringify([g.type, g.no, g.name, line.remarks ?? null]);
}

/** The answers read ahead for the lines a memory has not seen, added to those it has. */
function aheadWith(reads: LookupAhead, lines: readonly LineToPlace[], memory: LookupMemory): AnswersAhead {
  const fresh = lines.filter((l) => !memory.seen.has(signature(l)));
  for (const l of fresh) memory.seen.add(signature(l));
  if (fresh.length === 0 && memory.ahead !== null) return memory.ahead;
  const read = readAhead(reads, fresh);
  if (memory.ahead === null) return (memory.ahead = read);
  for (const name of Object.keys(read) as (keyof AnswersAhead)[]) {
    const into = memory.ahead[name] as Map<string, unknown>;
    for (const [k, v] of read[name]) into.set(k, v);
  }
  return memory.ahead;
}

/**
 * The lookup's questions of the store, each answered from the answers read ahead where there are some
 * (`ahead`), else by the store's statements (prepared once: `CatalogueReader.ask`) — a colour question once per
 * plan, or per memory, where answers are read ahead.
 */
function questions(
  store: CatalogueReader,
  ahead: AnswersAhead | null,
  memory: LookupMemory | undefined,
  snapshot: CatalogueAnswers | undefined,
) {
  /** A question of the catalogue alone: in a snapshot, answered once while the catalogue's generation holds. */
  const memo = <A extends unknown[], V>(name: string, ask: (...args: A) => V) => {
    if (snapshot !== undefined) return once(ask, askedIn(snapshot.asked, name));
    if (ahead === null) return ask;
    if (memory === undefined) return once(ask);
    return once(ask, askedIn(memory.asked, name));
  };
  /** A question of the shop's own data (memories): in a snapshot, once a lookup. */
  const shop = <A extends unknown[], V>(ask: (...args: A) => V) => (snapshot !== undefined ? once(ask) : ask);
  const reader = store.ask;
  const references = store.references;
  let coloursLoaded: boolean | undefined;
  let colourTable: boolean | undefined;
  // A line's own questions of the catalogue are asked once each only in a snapshot: a list's lines repeat them.
  const each = <A extends unknown[], V>(name: string, ask: (...args: A) => V) =>
    snapshot !== undefined ? once(ask, askedIn(snapshot.asked, name)) : ask;
  const item = each('item', (type: string, no: string): CatalogueNumber | null =>
    known(ahead?.itemNumber, key(type, no), () => reader.item(type, no)),
  );
  const itemNumber = (type: string, no: string): string | undefined => item(type, no)?.no;
  const colourNamed = memo('colourOfName', (nameKey: string): number | null => {
    const ids = reader.coloursNamed(nameKey);
    return ids.length === 1 ? (ids[0] ?? null) : null;
  });
  return {
    item,
    itemNumber,
    /** A part number as the catalogue spells it. */
    partNo: (no: string): string | undefined => itemNumber('P', no),
    /** A part number of `numbering` as the catalogue has it in that numbering (or in one its source does not say). */
    partIn: (numbering: Numbering, no: string): string | undefined => {
      const found = item('P', no);
      const speaks = found === null ? null : numberingOfSource(found.source);
      return found === null || (speaks !== null && speaks !== numbering) ? undefined : found.no;
    },
    rememberedByNumber: shop((type: string, no: string): MemoryRow | null =>
      known(ahead?.rememberedNumber, key(type, no), () => reader.rememberedByNumber(type, no)),
    ),
    rememberedByName: shop((type: string, nameKey: string): MemoryRow | null =>
      known(ahead?.rememberedName, key(type, nameKey), () => reader.rememberedByName(type, nameKey)),
    ),
    numberElements: memo('numberElements', (numbering: 'bricklink' | 'rebrickable', no: string) =>
      known(ahead?.numberElements, key(numbering, no), () => reader.numberElements(numbering, no)),
    ),
    colourName: memo('colourName', reader.colourName),
    itemsNamed: each('itemsNamed', (type: string, nameKey: string): readonly ItemRef[] =>
      known(ahead?.named, key(type, nameKey), () => reader.itemsNamed(type, nameKey)),
    ),
    coloursLoaded: (): boolean => (coloursLoaded ??= memo('coloursLoaded', reader.coloursLoaded)()),
    hasColour: memo('hasColour', reader.hasColour),
    /** The catalogue colour of a folded name, when exactly one colour has it. */
    colourNamed,
    // The shop's own: a colour staff chose (a hand placement's step may have just made one).
    colourPlacement:
      snapshot !== undefined ? shop(reader.colourPlacement) : memo('colourPlacement', reader.colourPlacement),
    hasColourTable: (): boolean => (colourTable ??= memo('hasColourTable', reader.hasColourTable)()),
    /** Whether any memory is kept (the shop's own: asked once a lookup). */
    hasMemories: once(reader.hasMemories),
    /** Which translation tables are loaded: a catalogue of one numbering's parts alone asks none (asked once). */
    hasElementTable: once(memo('hasElementTable', reader.hasElementTable)),
    hasCrossReferences: once(memo('hasCrossReferences', reader.hasCrossReferences)),
    translateColour: memo('translateColour', reader.translateColour),
    elementRows: each('elementRows', (id: string): readonly ElementRow[] =>
      known(ahead?.elementRows, id, () => reader.elementRows(id)),
    ),
    sharedElements: memo('sharedElements', (no: string) =>
      known(ahead?.sharedElements, no, () => reader.sharedElements(no)),
    ),
    bricklinkOf: each('bricklinkOf', (rebrickable: string): readonly string[] =>
      known(ahead?.bricklinkOf, rebrickable, () => references.bricklinkOf(rebrickable)),
    ),
    rebrickableOf: each('rebrickableOf', (numbering: 'bricklink' | 'ldraw', no: string): readonly string[] =>
      known(ahead?.rebrickableOf, key(numbering, no), () => references.rebrickableOf(numbering, no)),
    ),
  };
}

type Questions = ReturnType<typeof questions>;

/** A part number in `numbering` as the catalogue has it: itself, or through the cross-references. */
function partIn(q: Questions, numbering: 'bricklink' | 'rebrickable', no: string): readonly string[] {
  const own = q.partIn(numbering, no);
  if (own !== undefined) return [own];
  const others = numbering === 'rebrickable' ? q.bricklinkOf(no) : q.rebrickableOf('bricklink', no);
  const other = numbering === 'rebrickable' ? 'bricklink' : 'rebrickable';
  return others.flatMap((o) => q.partIn(other, o) ?? []);
}

/** The colour tables as an element's colour is read through them. */
const colourLookupsOf = (q: Questions) => ({ colourNamed: q.colourNamed, translate: q.translateColour });

/** The catalogue parts an element id is (SPEC §6 step 3), through the element tables, each in its colour. */
function elementOf(q: Questions, id: string): ElementMatch[] {
  if (!q.hasElementTable()) return [];
  const rows = q.elementRows(id);
  if (rows.length === 0) return [];
  /** A colour an element table gives, in BrickLink's ids: BrickLink's name, or Rebrickable's id, through the colour table. */
  const colourLookups = colourLookupsOf(q);
  const match = (r: ElementRow, no: string): ElementMatch => ({
    item: { type: 'P' as const, no },
    colourId: elementColourId(r.numbering, r.colour, colourLookups),
  });
  /** A table's rows whose number the catalogue has as it is, in that table's numbering. */
  const direct = (numbering: 'bricklink' | 'rebrickable') =>
    rows
      .filter((r) => r.numbering === numbering)
      .flatMap((r) => {
        const own = q.partIn(numbering, r.item_no);
        return own === undefined ? [] : [match(r, own)];
      });
  /** …and through the cross-references too. */
  const matches = (numbering: 'bricklink' | 'rebrickable') =>
    rows
      .filter((r) => r.numbering === numbering)
      .flatMap((r) => partIn(q, numbering, r.item_no).map((no) => match(r, no)));
  // BrickLink's own codes first where the catalogue has the number they name; Rebrickable's to tell
  // which of the items BrickLink lists for one element (2453a, 2453b) it is, or to name the one part.
  const bricklink = direct('bricklink');
  if (bricklink.length > 0) {
    const items = new Set(bricklink.map((m) => m.item.no.toLowerCase()));
    if (items.size === 1) return bricklink;
    const agreed = new Set(
      matches('rebrickable')
        .map((m) => m.item.no.toLowerCase())
        .filter((no) => items.has(no)),
    );
    if (agreed.size === 1) return bricklink.filter((m) => agreed.has(m.item.no.toLowerCase()));
    // BrickLink lists several and Rebrickable's elements name one other catalogue part: the table that
    // names exactly one decides (BrickLink 3794a/3794b, Rebrickable 15573).
    const rebrickable = direct('rebrickable');
    return new Set(rebrickable.map((m) => m.item.no.toLowerCase())).size === 1 ? rebrickable : bricklink;
  }
  // BrickLink's codes name a number the catalogue lacks (or none): the next table decides (SPEC §6
  // step 3) — Rebrickable's elements where the catalogue has their number, then either table's
  // number through the cross-references.
  const rebrickable = direct('rebrickable');
  if (rebrickable.length > 0) return rebrickable;
  const translated = matches('bricklink');
  if (translated.length > 0) return translated;
  const throughRebrickable = matches('rebrickable');
  if (throughRebrickable.length > 0) return throughRebrickable;
  // No table ties the element's numbers to the catalogue's numbering (BrickLink's codes beside a catalogue
  // of Rebrickable's parts, and nothing else): the same text, said so — never silently.
  return rows.flatMap((r) => {
    const other = catalogueItemOf(q, 'P', r.item_no);
    if (other === null || other.numbering === null || other.numbering === r.numbering) return [];
    return [{ ...match(r, other.item.no), sameNumberIn: other.numbering }];
  });
}

/**
 * What the element tables say of part number `no` of `numbering` in catalogue colour `colour` (SPEC §6
 * step 3): the elements they list it under in that colour, and the catalogue parts the other numbering's
 * table gives each element as — the catalogue's own number where it speaks the other numbering.
 */
function inColour(
  q: Questions,
  colours: NumberColours,
  numbering: 'bricklink' | 'rebrickable',
  no: string,
  colour: number,
): InColour {
  if (!q.hasElementTable()) return { items: [], listed: false };
  const elements = colours.of(numbering, no).get(colour);
  if (elements === undefined) return { items: [], listed: false };
  const items = new Map<string, { item: ItemRef; element: string }>();
  for (const element of elements)
    for (const r of q.elementRows(element)) {
      if (r.numbering === numbering) continue;
      const own = q.partIn(r.numbering, r.item_no);
      if (own !== undefined && !items.has(own.toLowerCase()))
        items.set(own.toLowerCase(), { item: { type: 'P', no: own }, element });
    }
  return { items: [...items.values()], listed: true };
}

/**
 * A number's elements by the catalogue colour each is in, worked out once a lookup (a plan asks one number
 * in many colours, and a popular part has a hundred elements); each table's colour read once.
 */
interface NumberColours {
  of(numbering: 'bricklink' | 'rebrickable', no: string): ReadonlyMap<number, readonly string[]>;
}

function numberColours(q: Questions, byNumber = new Map<string, Map<number, string[]>>()): NumberColours {
  const colourIds = new Map<string, number | null>();
  const lookups = colourLookupsOf(q);
  const colourOf = (numbering: 'bricklink' | 'rebrickable', colour: string) => {
    const k = key(numbering, colour);
    if (!colourIds.has(k)) colourIds.set(k, elementColourId(numbering, colour, lookups));
    return colourIds.get(k) ?? null;
  };
  return {
    of(numbering, no) {
      const k = key(numbering, no.toLowerCase());
      let found = byNumber.get(k);
      if (found === undefined) {
        found = new Map();
        for (const r of q.numberElements(numbering, no)) {
          const id = colourOf(numbering, r.colour);
          if (id === null) continue;
          const list = found.get(id);
          if (list === undefined) found.set(id, [r.element]);
          else list.push(r.element);
        }
        byNumber.set(k, found);
      }
      return found;
    },
  };
}

/**
 * The catalogue colours the element tables make a catalogue part in: its own numbering's rows, else (no
 * table of its numbering lists it) the other's rows of the same number, as the suggestions read them
 * (`suggest/part-colours.ts`) — a check that can only keep a memory from a colour. Null: they say nothing.
 */
function madeIn(q: Questions, colours: NumberColours, item: ItemRef): readonly number[] | null {
  if (item.type !== 'P' || !q.hasElementTable()) return null;
  const found = q.item('P', item.no);
  if (found === null) return null;
  const speaks = numberingOfSource(found.source);
  const coloursIn = (numbering: 'bricklink' | 'rebrickable') => [...colours.of(numbering, found.no).keys()];
  const own = speaks === 'bricklink' || speaks === 'rebrickable' ? coloursIn(speaks) : [];
  const all = new Set(own.length > 0 ? own : [...coloursIn('bricklink'), ...coloursIn('rebrickable')]);
  // Rows whose colours no table names say nothing the line's colour can be checked against.
  return all.size === 0 ? null : [...all];
}

/** The catalogue parts an LDraw number is, through Rebrickable's numbers (and their BrickLink numbers). */
function ldrawParts(q: Questions, no: string): Translation[] {
  if (!q.hasCrossReferences()) return [];
  const found = new Map<string, Translation>();
  for (const r of q.rebrickableOf('ldraw', no)) {
    const own = q.partIn('rebrickable', r);
    if (own !== undefined) {
      if (!found.has(own)) found.set(own, { item: { type: 'P', no: own }, via: `LDraw ${no} = Rebrickable ${own}` });
      continue;
    }
    for (const b of q.bricklinkOf(r)) {
      const bl = q.partIn('bricklink', b);
      if (bl !== undefined && !found.has(bl))
        found.set(bl, { item: { type: 'P', no: bl }, via: `LDraw ${no} = BrickLink ${bl}` });
    }
  }
  return [...found.values()];
}

/**
 * The catalogue parts another numbering's tables give number `no` of numbering `from` as (SPEC §6 step 3),
 * with how each was found: the number itself among them where a table says so. `from` null (not known):
 * the number read in every numbering, itself left out (the catalogue's own number is asked first).
 */
function translationsOf(q: Questions, no: string, from: Numbering | null): Translation[] {
  if (!q.hasCrossReferences() && !q.hasElementTable()) return [];
  const found = new Map<string, Translation>();
  const add = (item: string, via: string) => {
    if (from === null && item.toLowerCase() === no.toLowerCase()) return;
    if (!found.has(item.toLowerCase())) found.set(item.toLowerCase(), { item: { type: 'P', no: item }, via });
  };
  const reads = (numbering: Numbering) => from === null || from === numbering;
  // A Rebrickable number, in a catalogue of BrickLink's numbers.
  if (reads('rebrickable'))
    for (const b of q.bricklinkOf(no)) {
      const own = q.partIn('bricklink', b);
      if (own !== undefined) add(own, `Rebrickable ${no} = BrickLink ${own}`);
    }
  // A BrickLink or LDraw number, in a catalogue of Rebrickable's numbers (or of BrickLink's, by way of it).
  for (const numbering of ['bricklink', 'ldraw'] as const) {
    if (!reads(numbering)) continue;
    const name = NUMBERING_NAMES[numbering];
    for (const r of q.rebrickableOf(numbering, no)) {
      const own = q.partIn('rebrickable', r);
      if (own !== undefined) add(own, `${name} ${no} = Rebrickable ${own}`);
      if (numbering === 'ldraw') {
        for (const b of q.bricklinkOf(r)) {
          const bl = q.partIn('bricklink', b);
          if (bl !== undefined) add(bl, `LDraw ${no} = BrickLink ${bl}`);
        }
      }
    }
  }
  // Neither cross-reference knows it: the element tables may — BrickLink's codes and Rebrickable's
  // elements.csv listing the same LEGO elements under this number and a catalogue part (BrickLink
  // 73436c01 = Rebrickable 47899c01).
  if (found.size === 0) {
    for (const r of q.sharedElements(no)) {
      if (!reads(r.given)) continue;
      const own = q.partIn(r.numbering, r.no);
      if (own !== undefined)
        add(own, `${NUMBERING_NAMES[r.given]} ${no} = ${NUMBERING_NAMES[r.numbering]} ${own} (same elements)`);
    }
  }
  return [...found.values()];
}

/** A memory as the rule reads it. */
function memoryOf(row: MemoryRow | null): Memory | null {
  if (row === null) return null;
  const taught =
    row.taughtDesk === null || row.taughtAt === null
      ? null
      : { colourId: row.taughtColour, desk: row.taughtDesk, at: row.taughtAt };
  return { id: row.id, item: { type: row.type, no: row.no }, at: row.createdAt, taught };
}

/** The catalogue's item of a number, with the numbering its source speaks. */
function catalogueItemOf(q: Questions, type: CatalogueItem['item']['type'], no: string): CatalogueItem | null {
  const found = q.item(type, no);
  return found === null ? null : { item: { type, no: found.no }, numbering: numberingOfSource(found.source) };
}

/**
 * The placement rule's view of a store (schema 4.2): catalogue items, colours, remembered hand
 * placements (items) and colour placements, through prepared statements (`store/lookup.ts`). Whether
 * colours are loaded is read once per lookup, so make a new lookup after loading a catalogue.
 *
 * `lines`: the lines a plan will place. Where the store asks many keys at once (`CatalogueReader.ahead`:
 * a server) their answers are read ahead (`read-ahead.ts`) and each colour question asked once, so a plan
 * makes a few round trips, not one a question; elsewhere each question is asked as it comes.
 */
export function catalogueLookup(
  db: ReadableDb,
  lines: readonly LineToPlace[] = [],
  memory?: LookupMemory,
  /**
   * For reading lines in one snapshot (no write in between): each question asked once, and the catalogue's
   * answers kept in `snapshot` for later lookups while the catalogue's generation holds.
   */
  snapshot?: CatalogueAnswers,
): PlacementLookup {
  const store = catalogueReader(db);
  const reads = lines.length > 0 ? store.ahead : null;
  const ahead = reads === null ? null : memory ? aheadWith(reads, lines, memory) : readAhead(reads, lines);
  const q = questions(store, ahead, memory, snapshot);
  const colours = numberColours(q, snapshot?.byNumber);
  return {
    itemNumber: (type, no) => q.itemNumber(type, no) ?? null,
    catalogueItem: (type, no) => catalogueItemOf(q, type, no),
    remembered(type, no, nameKey): Memory | null {
      if (!q.hasMemories()) return null;
      if (no !== null) return memoryOf(q.rememberedByNumber(type, no));
      if (nameKey !== null) return memoryOf(q.rememberedByName(type, nameKey));
      return null;
    },
    inColour: (numbering, no, colour) => inColour(q, colours, numbering, no, colour),
    madeIn: (item) => madeIn(q, colours, item),
    colourName: q.colourName,
    itemsNamed: q.itemsNamed,
    coloursLoaded: q.coloursLoaded,
    hasColour: q.hasColour,
    colourNamed: q.colourNamed,
    colourPlacement: (given) =>
      given.numbering === 'bricklink-id'
        ? q.colourPlacement('bricklink-id', given.id)
        : q.colourPlacement('name', given.key),
    hasColourTable: q.hasColourTable,
    translateColour: q.translateColour,
    elementOf: (id) => elementOf(q, id),
    ldrawParts: (no) => ldrawParts(q, no),
    translationsOf: (no, from) => translationsOf(q, no, from),
  };
}
