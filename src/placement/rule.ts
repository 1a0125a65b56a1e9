import { DEFAULT_ITEM_TYPE, isItemType, type ItemType } from '../item-types.ts';
import { colourNameKey, foldName } from './fold.ts';
import { UNPLACED_REASONS, type UnplacedReason } from '../reasons.ts';

/** What a document line says about its item; every field may be missing. */
export interface GivenItem {
  readonly type: string | null;
  readonly no: string | null;
  readonly name: string | null;
  readonly colourId: number | null;
  readonly colourName: string | null;
  /**
   * The line's remarks, where a list's LEGO element id beside its number is kept (`elementRemark`): step 3
   * places by it when the number can't. Lines read without remarks have none.
   */
  readonly remarks?: string | null;
}

export interface ItemRef {
  readonly type: ItemType;
  readonly no: string;
}

/**
 * How a colour placement keys a given colour (SPEC §8): by the document's colour numbering — a BrickLink
 * colour id, or (for a line that gives no id) its folded colour name — so it never maps another numbering.
 */
export type ColourKey =
  { readonly numbering: 'bricklink-id'; readonly id: number } | { readonly numbering: 'name'; readonly key: string };

/** What the line's own colour is, against the catalogue. */
export type ColourCheck =
  /** The line gives no colour (or BrickLink's 0, "not applicable"). */
  | { readonly status: 'none' }
  /** No colours are loaded yet: the given id is kept unchecked. */
  | { readonly status: 'unchecked'; readonly id: number | null }
  /** `via`: how the colour table translated it ("Rebrickable colour 4 = BrickLink colour 5"). */
  | { readonly status: 'known'; readonly id: number; readonly via?: string }
  /** The catalogue does not know it; `placed` is the colour a colour placement maps it to, if any. */
  | { readonly status: 'unknown'; readonly key: ColourKey; readonly placed: number | null };

/** The catalogue colour a checked colour comes to: its id, or the colour staff chose for it; null for none. */
export function colourOf(check: ColourCheck): number | null {
  return check.status === 'none' ? null : check.status === 'unknown' ? check.placed : check.id;
}

/** How the rule found the item: by number, by a remembered hand placement, or by a unique name. */
export type PlacedBy = 'number' | 'remembered' | 'name';

export type Placement =
  | {
      readonly item: ItemRef;
      readonly colourId: number | null;
      readonly by: PlacedBy;
      readonly reason: null;
      /** How another numbering placed it (SPEC §6 step 3): "element 4211050", "BrickLink 4073 = Rebrickable 6141". */
      readonly via?: string;
    }
  | {
      readonly item: null;
      readonly colourId: null;
      readonly by: null;
      readonly reason: UnplacedReason;
      /** Unplaced only for its colour: the item the rule found (SPEC §9: staff choose a colour, the item stays). */
      readonly found?: ItemRef;
    };

/** What LEGO's element id is in the catalogue: an item, and its colour in BrickLink's numbering when known. */
export interface ElementMatch {
  readonly item: ItemRef;
  readonly colourId: number | null;
}

/** A catalogue item another numbering gives for a number, and how ("BrickLink 4073 = Rebrickable 6141"). */
export interface Translation {
  readonly item: ItemRef;
  readonly via: string;
}

/** The catalogue as the rule sees it. The store implements it with prepared statements. */
/** A line's placement as its columns hold it (what the rule decided, ready to write). */
export type PlacementColumns = {
  readonly item_type: string | null;
  readonly item_no: string | null;
  readonly colour_id: number | null;
  readonly placed_by: string | null;
  readonly unplaced_reason: string | null;
};

/** A line's placement as read back from the store. */
export interface StoredPlacement {
  readonly itemType: string | null;
  readonly itemNo: string | null;
  readonly colour: number | null;
  readonly placedBy: string | null;
  readonly unplacedReason: string | null;
}

export function placementColumns(p: Placement): PlacementColumns {
  return {
    item_type: p.item?.type ?? null,
    item_no: p.item?.no ?? null,
    colour_id: p.colourId,
    placed_by: p.by,
    unplaced_reason: p.reason,
  };
}

/** Whether placing a line again changes nothing of what it holds (then nothing is written). */
export function unchanged(columns: PlacementColumns, stored: StoredPlacement): boolean {
  return (
    columns.item_type === stored.itemType &&
    columns.item_no === stored.itemNo &&
    columns.colour_id === stored.colour &&
    columns.placed_by === stored.placedBy &&
    columns.unplaced_reason === stored.unplacedReason
  );
}

export interface PlacementLookup {
  /** The catalogue's own spelling of this number (numbers match without regard to case), or null. */
  itemNumber(type: ItemType, no: string): string | null;
  /** The item remembered for this given number, or for this folded name when there is no number (never a colour). */
  remembered(type: ItemType, no: string | null, nameKey: string | null): ItemRef | null;
  /** Items whose folded name equals `nameKey`; two are enough to know it is ambiguous. */
  itemsNamed(type: ItemType, nameKey: string): readonly ItemRef[];
  /** Whether any colours are loaded: colours are only checked once they are. */
  coloursLoaded(): boolean;
  hasColour(id: number): boolean;
  /** The colour whose folded name equals `nameKey`, if exactly one does. */
  colourNamed(nameKey: string): number | null;
  /** The colour staff chose for this unknown given colour, if they did. */
  colourPlacement(key: ColourKey): number | null;
  /** Whether the colour table (SPEC §5: Rebrickable's colours with their external ids) is loaded. */
  hasColourTable(): boolean;
  /**
   * BrickLink's id for a colour of another vocabulary (`rebrickable`, `ldraw`, `lego` ids, or a `name` as
   * `colourNameKey` folds it): null when it has no BrickLink counterpart, undefined when the table does not know it.
   */
  translateColour(numbering: 'rebrickable' | 'ldraw' | 'lego' | 'name', key: string): number | null | undefined;
  /** What the element id `id` is in the catalogue (SPEC §6 step 3), each distinct item and colour once. */
  elementOf(id: string): readonly ElementMatch[];
  /** The catalogue's parts that other numberings give for the part number `no` (not `no` itself). */
  translationsOf(no: string): readonly Translation[];
  /** The catalogue's parts the cross-references give for the LDraw id `no`, its own number among them. */
  ldrawParts(no: string): readonly Translation[];
}

function unplaced(reason: UnplacedReason): Placement {
  return { item: null, colourId: null, by: null, reason };
}

function clean(text: string | null): string | null {
  const t = text?.trim();
  return t ? t : null;
}

/** Checks a line's own colour against the catalogue, and its colour placement when the catalogue lacks it. */
export function checkColour(given: Pick<GivenItem, 'colourId' | 'colourName'>, lookup: PlacementLookup): ColourCheck {
  // BrickLink's colour 0 is "(Not Applicable)": items without a colour (sets, minifigs) carry it, with
  // that name beside it in BrickStore's files and none in BrickLink's XML — no colour either way.
  if (given.colourId === 0) return { status: 'none' };
  const colourName = clean(given.colourName);
  const givenColourId = given.colourId;
  if (givenColourId === null && colourName === null) return { status: 'none' };
  if (!lookup.coloursLoaded()) return { status: 'unchecked', id: givenColourId };
  if (givenColourId !== null) {
    if (lookup.hasColour(givenColourId)) return { status: 'known', id: givenColourId };
    const key: ColourKey = { numbering: 'bricklink-id', id: givenColourId };
    return { status: 'unknown', key, placed: lookup.colourPlacement(key) };
  }
  const nameKey = foldName(colourName ?? '');
  const key: ColourKey = { numbering: 'name', key: nameKey };
  const unknown = (): ColourCheck => ({ status: 'unknown', key, placed: lookup.colourPlacement(key) });
  // A number in another numbering, kept as its name ("Rebrickable colour 4"): until the colour table is
  // loaded it is only shown (the line is placed without a colour); then it is BrickLink's, or unknown.
  const other = OTHER_NUMBERING_COLOUR.exec(colourName ?? '');
  if (other !== null) {
    if (!lookup.hasColourTable()) return { status: 'none' };
    const id = lookup.translateColour(other[1]?.toLowerCase() as 'rebrickable' | 'ldraw' | 'lego', other[2] ?? '');
    return id !== null && id !== undefined && lookup.hasColour(id)
      ? { status: 'known', id, via: `${colourName ?? ''} = BrickLink colour ${id}` }
      : unknown();
  }
  const named = lookup.colourNamed(nameKey);
  if (named !== null) return { status: 'known', id: named };
  // A name in LEGO's, LDraw's or Rebrickable's words ("BRICK YELLOW", "Dark Stone Grey"), through the colour table.
  const translated = lookup.translateColour('name', colourNameKey(colourName ?? ''));
  if (translated !== null && translated !== undefined && lookup.hasColour(translated))
    return { status: 'known', id: translated, via: `colour ${colourName ?? ''} = BrickLink colour ${translated}` };
  return unknown();
}

/** The numberings whose colour numbers a line keeps as its given colour name ("Rebrickable colour 4", SPEC §6). */
export const OTHER_COLOUR_NUMBERINGS = ['Rebrickable', 'LDraw', 'LEGO'] as const;

/** "Rebrickable colour 4": the given colour name of a number in another numbering. */
export function otherNumberingColour(numbering: (typeof OTHER_COLOUR_NUMBERINGS)[number], id: string): string {
  return `${numbering} colour ${id}`;
}

/**
 * "Element 4211050": how a list's LEGO element id beside its number (Studio's `Element ID`) is kept in the
 * line's remarks, among its other numbers ("LDraw 3001 · Element 300121").
 */
export function elementRemark(id: string): string {
  return `Element ${id}`;
}

/** The element id `elementRemark` wrote into remarks, or the one a BrickStore Pick a Brick remark labels; else null. */
export function elementIdBeside(remarks: string | null | undefined): string | null {
  if (remarks === null || remarks === undefined) return null;
  if (remarks.includes('Element ')) {
    const own = ELEMENT_REMARK.exec(remarks)?.[1];
    if (own !== undefined) return own;
  }
  // BrickStore's Pick a Brick files label their remark's numbers themselves (ADR 0030).
  return remarks.startsWith(PAB_REMARK_LABEL) ? (PAB_REMARK.exec(remarks)?.[1] ?? null) : null;
}

const ELEMENT_REMARK = /(?:^|; | · )Element (\d{4,9})(?=$|; | · )/;

/** How an LDraw model's part is kept in its line's remarks (`LDraw part 3001`): its number is LDraw's. */
export function ldrawPartRemark(no: string): string {
  return `LDraw part ${no}`;
}

/** The number `ldrawPartRemark` wrote into remarks, else null. */
export function ldrawBeside(remarks: string | null | undefined): string | null {
  if (remarks === null || remarks === undefined || !remarks.includes('LDraw part ')) return null;
  return LDRAW_REMARK.exec(remarks)?.[1] ?? null;
}

const LDRAW_REMARK = /(?:^|; | · )LDraw part ([^\s;·]+)(?=$|; | · )/;
/** `PAB Element ID, Design ID, Color - Itemname: 4211573, 32123, MEDIUM STONE GREY - 1/2 Bush`. */
const PAB_REMARK_LABEL = 'PAB Element ID, Design ID, Color - Itemname: ';
const PAB_REMARK = /^PAB Element ID, Design ID, Color - Itemname: (\d{4,9}), \d{3,6}[a-z]?, /;

/** Reads back what `otherNumberingColour` wrote. */
const OTHER_NUMBERING_COLOUR = new RegExp(`^(${OTHER_COLOUR_NUMBERINGS.join('|')}) colour (\\d{1,9})$`, 'i');

/**
 * The placement rule of SPEC §6. Finds the item by number, then by a remembered hand placement (the item
 * only), then by a unique name; places the line when the item is found and its own colour (if given,
 * and once colours are loaded) is known, or mapped by a colour placement. Otherwise the first reason
 * that fits, in the order of §6.
 */
export function placeItem(given: GivenItem, lookup: PlacementLookup): Placement {
  const no = clean(given.no);
  const name = clean(given.name);
  if (no === null && name === null) return unplaced(UNPLACED_REASONS.noNumberNorName);

  const typeCode = clean(given.type)?.toUpperCase() ?? DEFAULT_ITEM_TYPE;
  if (!isItemType(typeCode)) return unplaced(UNPLACED_REASONS.typeNotKnown);
  const type: ItemType = typeCode;
  const nameKey = name === null ? null : foldName(name);

  let found: { item: ItemRef; by: PlacedBy } | null = null;
  let nameIsAmbiguous = false;

  let via: string | undefined;
  // An LDraw model's part (`LDraw part 3001` beside it): the cross-references' LDraw ids first, then as a number.
  if (type === 'P' && no !== null && ldrawBeside(given.remarks) === no) {
    const byLdraw = lookup.ldrawParts(no);
    // One part the LDraw id is: it (named when it is another number). Several: the number decides below.
    if (byLdraw.length === 1 && byLdraw[0] !== undefined) {
      found = { item: byLdraw[0].item, by: 'number' };
      if (byLdraw[0].item.no.toLowerCase() !== no.toLowerCase()) via = byLdraw[0].via;
    }
  }
  const catalogueNo = found !== null || no === null ? null : lookup.itemNumber(type, no);
  if (catalogueNo !== null) {
    found = { item: { type, no: catalogueNo }, by: 'number' };
  }
  if (found === null) {
    const memory = lookup.remembered(type, no, no === null ? nameKey : null);
    if (memory !== null) found = { item: memory, by: 'remembered' };
  }
  // Step 3: another numbering — LEGO's element id (item and colour), the element id the list gives beside
  // its number, or a number a table translates.
  let element: ElementMatch | null = null;
  let severalByTable = false;
  // The line gave an element id: beside its number, or as its number in a list of element ids (whose
  // reader notes it in the remarks too: a bare number can't say it is one).
  const elementBeside = elementIdBeside(given.remarks);
  const gaveElement = elementBeside !== null;
  if (found === null && type === 'P') {
    for (const id of new Set([no, elementBeside])) {
      if (id === null || found !== null || severalByTable) continue;
      const elements = distinctItems(lookup.elementOf(id));
      if (elements.length === 1 && elements[0] !== undefined) {
        element = elements[0];
        found = { item: element.item, by: 'number' };
        via = `element ${id}`;
      } else if (elements.length > 1) severalByTable = true;
    }
    if (found === null && !severalByTable && no !== null) {
      const translations = lookup.translationsOf(no);
      if (translations.length === 1 && translations[0] !== undefined) {
        found = { item: translations[0].item, by: 'number' };
        via = translations[0].via;
      } else if (translations.length > 1) severalByTable = true;
    }
  }
  if (found === null && !severalByTable && nameKey !== null) {
    const named = lookup.itemsNamed(type, nameKey);
    if (named.length === 1 && named[0] !== undefined) found = { item: named[0], by: 'name' };
    else if (named.length > 1) nameIsAmbiguous = true;
  }

  if (found === null) {
    if (nameIsAmbiguous) return unplaced(UNPLACED_REASONS.nameSeveral);
    if (gaveElement) return unplaced(UNPLACED_REASONS.elementNotKnown);
    if (no !== null) return unplaced(UNPLACED_REASONS.numberNotInCatalogue);
    return unplaced(UNPLACED_REASONS.nameNotInCatalogue);
  }

  // The line keeps its own colour whichever way the item was found: a memory never brings one (§8).
  const colour = checkColour(given, lookup);
  let colourId = colourOf(colour);
  const forColour: Placement = {
    item: null,
    colourId: null,
    by: null,
    reason: UNPLACED_REASONS.colourNotInCatalogue,
    found: found.item,
  };
  if (colour.status === 'unknown' && colourId === null) return forColour;
  if (element !== null && element.colourId !== null) {
    // An element is a part in a colour: it brings its colour, and a given colour that disagrees is a conflict.
    if (colourId !== null && colourId !== element.colourId) return forColour;
    if (lookup.coloursLoaded() && !lookup.hasColour(element.colourId)) return forColour;
    colourId = element.colourId;
  } else if (element === null && colour.status === 'none' && gaveElement) {
    // Found otherwise (a remembered hand placement) for a line that gave an element id and no colour:
    // the element's colour for that item, where the tables say one (SPEC §6 step 3).
    const elementColour = elementColourFor(given, found.item, lookup);
    if (elementColour !== null && (!lookup.coloursLoaded() || lookup.hasColour(elementColour)))
      colourId = elementColour;
  }
  const how = [via, colour.status === 'known' ? colour.via : undefined].filter(Boolean).join('; ');
  return how === ''
    ? { item: found.item, colourId, by: found.by, reason: null }
    : { item: found.item, colourId, by: found.by, reason: null, via: how };
}

/**
 * The colour of the element a line gave (as its number, or beside it) on `item`, when the element tables
 * give exactly one: what a hand placement of an element-id line keeps, and its memory brings (issue 43).
 */
export function elementColourFor(
  given: Pick<GivenItem, 'no' | 'remarks'>,
  item: ItemRef,
  lookup: Pick<PlacementLookup, 'elementOf'>,
): number | null {
  const same = (i: ItemRef) => i.type === item.type && i.no.toLowerCase() === item.no.toLowerCase();
  const colours = new Set<number>();
  for (const id of new Set([clean(given.no ?? null), elementIdBeside(given.remarks)])) {
    if (id === null) continue;
    for (const m of lookup.elementOf(id)) if (same(m.item) && m.colourId !== null) colours.add(m.colourId);
  }
  return colours.size === 1 ? ([...colours][0] ?? null) : null;
}

/** Element matches that name one item and colour once; two different ones are several candidates. */
function distinctItems(matches: readonly ElementMatch[]): ElementMatch[] {
  const seen = new Map<string, ElementMatch>();
  for (const m of matches) seen.set(`${m.item.type}\u0000${m.item.no.toLowerCase()}\u0000${m.colourId}`, m);
  return [...seen.values()];
}

/**
 * How a stored line placed by its number came to its item when the number is not the item's own
 * (SPEC §6 step 3: "element 4211050", "BrickLink 4073 = Rebrickable 6141"), read again from the tables;
 * null when it is the item's own number, or the tables no longer say.
 */
export function viaOf(
  given: GivenItem,
  placed: ItemRef & { readonly colour: number | null },
  lookup: PlacementLookup,
): string | null {
  // Only a colour given by name (or another numbering's number) can have come through the colour table.
  const colour = given.colourId === null && clean(given.colourName) !== null ? checkColour(given, lookup) : null;
  const how = [
    itemVia(given, placed, lookup),
    colour?.status === 'known' && colour.id === placed.colour ? colour.via : undefined,
  ].filter(Boolean);
  return how.length === 0 ? null : how.join('; ');
}

function itemVia(given: GivenItem, item: ItemRef, lookup: PlacementLookup): string | undefined {
  const no = clean(given.no);
  if (item.type !== 'P' || no?.toLowerCase() === item.no.toLowerCase()) return undefined;
  const same = (i: ItemRef) => i.type === item.type && i.no.toLowerCase() === item.no.toLowerCase();
  for (const id of [no, elementIdBeside(given.remarks)])
    if (id !== null && lookup.elementOf(id).some((m) => same(m.item))) return `element ${id}`;
  return no === null ? undefined : lookup.translationsOf(no).find((t) => same(t.item))?.via;
}
