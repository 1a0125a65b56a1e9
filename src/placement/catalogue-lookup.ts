import type { StoreDb } from '../store/db.ts';
import { onServer } from '../store/dialect.ts';
import { elementColourId } from './element-colour.ts';
import { key, readAhead, type AnswersAhead, type ElementRow, type LineToPlace } from './read-ahead.ts';
import type { ElementMatch, ItemRef, PlacementLookup, Translation } from './rule.ts';

/**
 * The placement rule's view of a store (schema 4.2): catalogue items, colours, remembered hand
 * placements (items) and colour placements, through prepared statements. Whether colours are loaded is read once per lookup, so
 * make a new lookup after loading a catalogue.
 */
/**
 * Rebrickable's part cross-references read both ways (`part_number`): a Rebrickable number's BrickLink
 * numbers, and the Rebrickable numbers that give a BrickLink (or LDraw) number. Placement and the related
 * suggestions read them alike.
 */
export function crossReferences(db: StoreDb) {
  const bricklinkOf = db
    .prepare<[string], string>("SELECT item_no FROM part_number WHERE rebrickable_no = ? AND numbering = 'bricklink'")
    .pluck();
  const rebrickableOf = db
    .prepare<[string, string], string>('SELECT rebrickable_no FROM part_number WHERE numbering = ? AND item_no = ?')
    .pluck();
  return {
    bricklinkOf: (rebrickable: string): string[] => bricklinkOf.all(rebrickable),
    rebrickableOf: (numbering: 'bricklink' | 'ldraw', no: string): string[] => rebrickableOf.all(numbering, no),
  };
}

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

/** What a line's read-ahead depends on: lines alike need it once. */
function signature(line: LineToPlace): string {
  const g = line.given;
  return JSON.stringify([g.type, g.no, g.name, line.remarks ?? null]);
}

/** The answers read ahead for the lines a memory has not seen, added to those it has. */
function aheadWith(db: StoreDb, lines: readonly LineToPlace[], memory: LookupMemory): AnswersAhead {
  const fresh = lines.filter((l) => !memory.seen.has(signature(l)));
  for (const l of fresh) memory.seen.add(signature(l));
  if (fresh.length === 0 && memory.ahead !== null) return memory.ahead;
  const read = readAhead(db, fresh);
  if (memory.ahead === null) return (memory.ahead = read);
  for (const name of Object.keys(read) as (keyof AnswersAhead)[]) {
    const into = memory.ahead[name] as Map<string, unknown>;
    for (const [k, v] of read[name]) into.set(k, v);
  }
  return memory.ahead;
}

/**
 * `lines`: the lines a plan will place. On a server store their answers are read ahead (`read-ahead.ts`)
 * and each colour question asked once, so a plan makes a few round trips, not one a question; a SQLite
 * store asks each question as it comes.
 */
export function catalogueLookup(
  db: StoreDb,
  lines: readonly LineToPlace[] = [],
  memory?: LookupMemory,
): PlacementLookup {
  const server = lines.length > 0 && onServer(db);
  const ahead = !server ? null : memory ? aheadWith(db, lines, memory) : readAhead(db, lines);
  const memo = <A extends unknown[], V>(name: string, ask: (...args: A) => V) => {
    if (ahead === null) return ask;
    if (memory === undefined) return once(ask);
    if (!memory.asked.has(name)) memory.asked.set(name, new Map());
    return once(ask, memory.asked.get(name) as Map<string, V>);
  };
  const itemNumberStatement = db
    .prepare<[string, string], string>('SELECT item_no FROM catalogue_item WHERE item_type = ? AND item_no = ?')
    .pluck();
  const itemNumber = {
    get: (type: string, no: string): string | undefined =>
      known(ahead?.itemNumber, key(type, no), () => itemNumberStatement.get(type, no) ?? null) ?? undefined,
  };
  // The item only: hand_placement.colour_id is never read (early 0.9.0 builds forced it on every line).
  const byNumber = db.prepare<[string, string], ItemRef>(
    'SELECT item_type AS type, item_no AS no FROM hand_placement WHERE given_type = ? AND given_no = ?',
  );
  const byName = db.prepare<[string, string], ItemRef>(
    'SELECT item_type AS type, item_no AS no FROM hand_placement WHERE given_type = ? AND given_no IS NULL AND name_key = ?',
  );
  const colourById = db
    .prepare<[number], number>(
      "SELECT colour_id FROM colour_placement WHERE numbering = 'bricklink-id' AND given_colour_id = ?",
    )
    .pluck();
  const colourByName = db
    .prepare<[string], number>("SELECT colour_id FROM colour_placement WHERE numbering = 'name' AND given_name_key = ?")
    .pluck();
  const named = db.prepare<[string, string], ItemRef>(
    'SELECT item_type AS type, item_no AS no FROM catalogue_item WHERE item_type = ? AND name_key = ? LIMIT 2',
  );
  const hasColourStatement = db.prepare<[number], number>('SELECT 1 FROM colour WHERE id = ?').pluck();
  const hasColour = memo('hasColour', (id: number) => hasColourStatement.get(id) !== undefined);
  const colourNamed = db.prepare<[string], number>('SELECT id FROM colour WHERE name_key = ? LIMIT 2').pluck();
  let coloursLoaded: boolean | undefined;
  let colourTable: boolean | undefined;
  const colourTranslation = db.prepare<[string, string], { bricklink_id: number | null }>(
    'SELECT bricklink_id FROM colour_translation WHERE numbering = ? AND key = ?',
  );
  /** BrickLink's id for a colour of another vocabulary: null, no counterpart; undefined, the table does not know it. */
  const translateColour = memo(
    'translateColour',
    (numbering: string, key: string): number | null | undefined => colourTranslation.get(numbering, key)?.bricklink_id,
  );
  /** The catalogue colour of a folded name, when exactly one colour has it. */
  const colourOfName = memo('colourOfName', (nameKey: string): number | null => {
    const ids = colourNamed.all(nameKey);
    return ids.length === 1 ? (ids[0] ?? null) : null;
  });
  const colourPlacement = memo(
    'colourPlacement',
    (numbering: 'bricklink-id' | 'name', given: number | string): number | null =>
      (numbering === 'bricklink-id' ? colourById.get(given as number) : colourByName.get(given as string)) ?? null,
  );

  // Other numberings (SPEC §6 step 3), through the translation tables, whichever numbering the catalogue speaks.
  const partNo = (no: string): string | undefined => itemNumber.get('P', no);
  const elementStatement = db.prepare<[string], ElementRow>(
    'SELECT numbering, item_no, colour FROM element_code WHERE element_id = ?',
  );
  const elementRows = {
    all: (id: string): readonly ElementRow[] => known(ahead?.elementRows, id, () => elementStatement.all(id)),
  };
  const references = crossReferences(db);
  const sharedStatement = db.prepare<
    [string],
    { given: 'bricklink' | 'rebrickable'; numbering: 'bricklink' | 'rebrickable'; no: string }
  >(
    `SELECT DISTINCT e.numbering AS given, o.numbering, o.item_no AS no FROM element_code e
       JOIN element_code o ON o.element_id = e.element_id AND o.numbering <> e.numbering
      WHERE e.item_no = ? ORDER BY o.item_no`,
  );
  const sharedElements = memo('sharedElements', (no: string) =>
    known(ahead?.sharedElements, no, () => sharedStatement.all(no)),
  );
  const bricklinkOf = (rebrickable: string): readonly string[] =>
    known(ahead?.bricklinkOf, rebrickable, () => references.bricklinkOf(rebrickable));
  const rebrickableOf = (numbering: 'bricklink' | 'ldraw', no: string): readonly string[] =>
    known(ahead?.rebrickableOf, key(numbering, no), () => references.rebrickableOf(numbering, no));
  /** A part number in `numbering` as the catalogue has it: itself, or through the cross-references. */
  const partIn = (numbering: 'bricklink' | 'rebrickable', no: string): readonly string[] => {
    const own = partNo(no);
    if (own !== undefined) return [own];
    const others = numbering === 'rebrickable' ? bricklinkOf(no) : rebrickableOf('bricklink', no);
    return others.flatMap((o) => partNo(o) ?? []);
  };
  /** A colour an element table gives, in BrickLink's ids: BrickLink's name, or Rebrickable's id, through the colour table. */
  const colourLookups = { colourNamed: colourOfName, translate: translateColour };
  const elementColour = (numbering: 'bricklink' | 'rebrickable', colour: string): number | null =>
    elementColourId(numbering, colour, colourLookups);

  return {
    itemNumber: (type, no) => itemNumber.get(type, no) ?? null,
    remembered(type, no, nameKey): ItemRef | null {
      if (no !== null) return known(ahead?.rememberedNumber, key(type, no), () => byNumber.get(type, no) ?? null);
      if (nameKey !== null)
        return known(ahead?.rememberedName, key(type, nameKey), () => byName.get(type, nameKey) ?? null);
      return null;
    },
    itemsNamed: (type, nameKey) => known(ahead?.named, key(type, nameKey), () => named.all(type, nameKey)),
    coloursLoaded() {
      coloursLoaded ??= db.prepare('SELECT EXISTS (SELECT 1 FROM colour)').pluck().get() === 1;
      return coloursLoaded;
    },
    hasColour,
    colourNamed: colourOfName,
    colourPlacement: (given) =>
      given.numbering === 'bricklink-id'
        ? colourPlacement('bricklink-id', given.id)
        : colourPlacement('name', given.key),
    hasColourTable() {
      colourTable ??= db.prepare('SELECT EXISTS (SELECT 1 FROM colour_translation)').pluck().get() === 1;
      return colourTable;
    },
    translateColour,
    elementOf(id): ElementMatch[] {
      const rows = elementRows.all(id);
      if (rows.length === 0) return [];
      const match = (r: ElementRow, no: string): ElementMatch => ({
        item: { type: 'P' as const, no },
        colourId: elementColour(r.numbering, r.colour),
      });
      /** A table's rows whose number the catalogue has as it is. */
      const direct = (numbering: 'bricklink' | 'rebrickable') =>
        rows
          .filter((r) => r.numbering === numbering)
          .flatMap((r) => {
            const own = partNo(r.item_no);
            return own === undefined ? [] : [match(r, own)];
          });
      /** …and through the cross-references too. */
      const matches = (numbering: 'bricklink' | 'rebrickable') =>
        rows
          .filter((r) => r.numbering === numbering)
          .flatMap((r) => partIn(numbering, r.item_no).map((no) => match(r, no)));
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
      return translated.length > 0 ? translated : matches('rebrickable');
    },
    ldrawParts(no): Translation[] {
      const found = new Map<string, Translation>();
      for (const r of rebrickableOf('ldraw', no)) {
        const own = partNo(r);
        if (own !== undefined) {
          if (!found.has(own))
            found.set(own, { item: { type: 'P', no: own }, via: `LDraw ${no} = Rebrickable ${own}` });
          continue;
        }
        for (const b of bricklinkOf(r)) {
          const bl = partNo(b);
          if (bl !== undefined && !found.has(bl))
            found.set(bl, { item: { type: 'P', no: bl }, via: `LDraw ${no} = BrickLink ${bl}` });
        }
      }
      return [...found.values()];
    },
    translationsOf(no): Translation[] {
      const found = new Map<string, Translation>();
      const add = (item: string, via: string) => {
        if (item.toLowerCase() !== no.toLowerCase() && !found.has(item))
          found.set(item, { item: { type: 'P', no: item }, via });
      };
      // A Rebrickable number, in a catalogue of BrickLink's numbers.
      for (const b of bricklinkOf(no)) {
        const own = partNo(b);
        if (own !== undefined) add(own, `Rebrickable ${no} = BrickLink ${own}`);
      }
      // A BrickLink or LDraw number, in a catalogue of Rebrickable's numbers (or of BrickLink's, by way of it).
      for (const numbering of ['bricklink', 'ldraw'] as const) {
        const name = numbering === 'bricklink' ? 'BrickLink' : 'LDraw';
        for (const r of rebrickableOf(numbering, no)) {
          const own = partNo(r);
          if (own !== undefined) add(own, `${name} ${no} = Rebrickable ${own}`);
          if (numbering === 'ldraw') {
            for (const b of bricklinkOf(r)) {
              const bl = partNo(b);
              if (bl !== undefined) add(bl, `LDraw ${no} = BrickLink ${bl}`);
            }
          }
        }
      }
      // Neither cross-reference knows it: the element tables may — BrickLink's codes and Rebrickable's
      // elements.csv listing the same LEGO elements under this number and a catalogue part (BrickLink
      // 73436c01 = Rebrickable 47899c01).
      if (found.size === 0) {
        const names = { bricklink: 'BrickLink', rebrickable: 'Rebrickable' } as const;
        for (const r of sharedElements(no)) {
          const own = partNo(r.no);
          if (own !== undefined) add(own, `${names[r.given]} ${no} = ${names[r.numbering]} ${own} (same elements)`);
        }
      }
      return [...found.values()];
    },
  };
}
