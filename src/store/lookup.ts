import type { ReadableDb, StoreDb } from './db.ts';
import { onServer } from './dialect.ts';
import { lookupAhead, type LookupAhead } from './lookup-ahead.ts';
import type { ItemType } from '../vocabulary/item-types.ts';

/**
 * The placement rule's reads of a store (schema 4.2): catalogue items, colours, the translation tables,
 * remembered hand placements (items) and colour placements. The placement lookup
 * (`placement/catalogue-lookup.ts`) asks them line by line, or reads them ahead (`lookup-ahead.ts`).
 */

/** An item as these statements give it: its type and its number as the catalogue (or a memory) spells it. */
export interface LookupItem {
  readonly type: ItemType;
  readonly no: string;
}

/** A row of the element tables (BrickLink's codes, Rebrickable's elements) for one element id. */
export interface ElementRow {
  readonly numbering: 'bricklink' | 'rebrickable';
  readonly item_no: string;
  readonly colour: string;
}

/** A remembered hand placement as the rule reads it: its item, and how it was taught where that is recorded. */
export interface MemoryRow {
  readonly id: number;
  readonly type: ItemType;
  readonly no: string;
  readonly createdAt: string;
  /** The newest teaching of this item (null: none recorded, an earlier build's memory). */
  readonly taughtColour: number | null;
  readonly taughtDesk: string | null;
  readonly taughtAt: string | null;
}

/**
 * An element row of a part number in its numbering (`element_code_by_item`): the element and its colour
 * as that table gives it. A popular part has a hundred or more; what each element is in the other
 * numbering is asked only for the colour a line is in (`elementRows`).
 */
export interface NumberElementRow {
  readonly element: string;
  readonly colour: string;
}

/** An item of the other numbering that shares an element with a part number. */
export interface SharedElement {
  readonly given: 'bricklink' | 'rebrickable';
  readonly numbering: 'bricklink' | 'rebrickable';
  readonly no: string;
}

/**
 * Rebrickable's part cross-references read both ways (`part_number`): a Rebrickable number's BrickLink
 * numbers, and the Rebrickable numbers that give a BrickLink (or LDraw) number. Placement and the related
 * suggestions read them alike.
 */
export function crossReferences(db: ReadableDb) {
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

/** A number as the catalogue spells it, and the source of its row (which numbering it is in). */
export interface CatalogueNumber {
  readonly no: string;
  readonly source: string;
}

/** A memory and its newest teaching, where the teaching is of the item it holds now. */
export const MEMORY = `SELECT h.id, h.item_type AS type, h.item_no AS no, h.created_at AS createdAt, t.colour_id AS taughtColour,
         t.desk AS taughtDesk, t.taught_at AS taughtAt
    FROM hand_placement h
    LEFT JOIN hand_placement_teaching t
      ON t.id = (SELECT max(n.id) FROM hand_placement_teaching n WHERE n.placement_id = h.id)
     AND t.item_type = h.item_type AND t.item_no = h.item_no`;

/** A part number's element rows in its numbering: the element and its colour (the index alone answers it). */
export const NUMBER_ELEMENTS =
  'SELECT element_id AS element, colour FROM element_code WHERE item_no = ? AND numbering = ?';

/**
 * The lookup's statements, prepared once (a lookup places thousands of lines) and asked line by line.
 * Whether colours or the colour table are loaded is read when asked: the lookup keeps the answer.
 */
export function lookupReader(db: ReadableDb) {
  const item = db.prepare<[string, string], CatalogueNumber>(
    'SELECT item_no AS no, source FROM catalogue_item WHERE item_type = ? AND item_no = ?',
  );
  // The item only: hand_placement.colour_id is never read (early 0.9.0 builds forced it on every line).
  const byNumber = db.prepare<[string, string], MemoryRow>(`${MEMORY} WHERE h.given_type = ? AND h.given_no = ?`);
  const byName = db.prepare<[string, string], MemoryRow>(
    `${MEMORY} WHERE h.given_type = ? AND h.given_no IS NULL AND h.name_key = ?`,
  );
  const colourById = db
    .prepare<[number], number>(
      "SELECT colour_id FROM colour_placement WHERE numbering = 'bricklink-id' AND given_colour_id = ?",
    )
    .pluck();
  const colourByName = db
    .prepare<[string], number>("SELECT colour_id FROM colour_placement WHERE numbering = 'name' AND given_name_key = ?")
    .pluck();
  const named = db.prepare<[string, string], LookupItem>(
    'SELECT item_type AS type, item_no AS no FROM catalogue_item WHERE item_type = ? AND name_key = ? LIMIT 2',
  );
  const hasColour = db.prepare<[number], number>('SELECT 1 FROM colour WHERE id = ?').pluck();
  const colourNamed = db.prepare<[string], number>('SELECT id FROM colour WHERE name_key = ? LIMIT 2').pluck();
  const colourTranslation = db.prepare<[string, string], { bricklink_id: number | null }>(
    'SELECT bricklink_id FROM colour_translation WHERE numbering = ? AND key = ?',
  );
  const numberElements = db.prepare<[string, string], NumberElementRow>(NUMBER_ELEMENTS);
  const colourNameOf = db.prepare<[number], string>('SELECT name FROM colour WHERE id = ?').pluck();
  const elementRows = db.prepare<[string], ElementRow>(
    'SELECT numbering, item_no, colour FROM element_code WHERE element_id = ?',
  );
  const shared = db.prepare<[string], SharedElement>(
    `SELECT DISTINCT e.numbering AS given, o.numbering, o.item_no AS no FROM element_code e
       JOIN element_code o ON o.element_id = e.element_id AND o.numbering <> e.numbering
      WHERE e.item_no = ? ORDER BY o.item_no`,
  );
  return {
    /** The catalogue's own spelling of the number and the source of its row, or null. */
    item: (type: string, no: string): CatalogueNumber | null => item.get(type, no) ?? null,
    /** The memory for a given number, or null. */
    rememberedByNumber: (type: string, no: string): MemoryRow | null => byNumber.get(type, no) ?? null,
    /** The memory for a folded name given without a number, or null. */
    rememberedByName: (type: string, nameKey: string): MemoryRow | null => byName.get(type, nameKey) ?? null,
    /** A part number's element rows in its numbering. */
    numberElements: (numbering: 'bricklink' | 'rebrickable', no: string): NumberElementRow[] =>
      numberElements.all(no, numbering),
    /** A catalogue colour's name, or null. */
    colourName: (id: number): string | null => colourNameOf.get(id) ?? null,
    /** Up to two items of a folded name (two are enough to know it is not unique). */
    itemsNamed: (type: string, nameKey: string): LookupItem[] => named.all(type, nameKey),
    hasColour: (id: number): boolean => hasColour.get(id) !== undefined,
    /** Up to two colours of a folded name. */
    coloursNamed: (nameKey: string): number[] => colourNamed.all(nameKey),
    /** The colour remembered for a given colour id or folded colour name, or null. */
    colourPlacement: (numbering: 'bricklink-id' | 'name', given: number | string): number | null =>
      (numbering === 'bricklink-id' ? colourById.get(given as number) : colourByName.get(given as string)) ?? null,
    /** BrickLink's id for a colour of another vocabulary: null, no counterpart; undefined, the table does not know it. */
    translateColour: (numbering: string, key: string): number | null | undefined =>
      colourTranslation.get(numbering, key)?.bricklink_id,
    elementRows: (id: string): ElementRow[] => elementRows.all(id),
    /** The other numbering's items that share an element with a part number, in item number order. */
    sharedElements: (no: string): SharedElement[] => shared.all(no),
    coloursLoaded: (): boolean => db.prepare('SELECT EXISTS (SELECT 1 FROM colour)').pluck().get() === 1,
    hasColourTable: (): boolean => db.prepare('SELECT EXISTS (SELECT 1 FROM colour_translation)').pluck().get() === 1,
    /** Whether staff remembered any hand placement (else no line asks for one). */
    hasMemories: (): boolean => db.prepare('SELECT EXISTS (SELECT 1 FROM hand_placement)').pluck().get() === 1,
    /** Whether an element table is loaded (else no number is asked of one). */
    hasElementTable: (): boolean => db.prepare('SELECT EXISTS (SELECT 1 FROM element_code)').pluck().get() === 1,
    /** Whether the cross-references are loaded. */
    hasCrossReferences: (): boolean => db.prepare('SELECT EXISTS (SELECT 1 FROM part_number)').pluck().get() === 1,
  };
}

/**
 * The placement lookup's reader of a store: its questions asked one at a time (`ask`, `references`), and
 * asked for many keys at once where that pays (`ahead`). On a server store every statement is a round trip
 * (ADR 0027), so a few statements for all of a plan's lines beat one a question; a SQLite store is
 * in-process, where a question at a time is as quick, and it gives none (null).
 */
export interface CatalogueReader {
  readonly ask: ReturnType<typeof lookupReader>;
  readonly references: ReturnType<typeof crossReferences>;
  readonly ahead: LookupAhead | null;
}

export function catalogueReader(db: ReadableDb): CatalogueReader {
  return { ask: lookupReader(db), references: crossReferences(db), ahead: onServer(db) ? lookupAhead(db) : null };
}

/** An item of the catalogue: its number as the catalogue spells it, and its folded name. */
export function catalogueItemKey(db: StoreDb, type: string, no: string): { no: string; nameKey: string } | undefined {
  return db
    .prepare('SELECT item_no AS no, name_key AS nameKey FROM catalogue_item WHERE item_type = ? AND item_no = ?')
    .get(type, no) as { no: string; nameKey: string } | undefined;
}
