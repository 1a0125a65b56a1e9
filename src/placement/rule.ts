import { DEFAULT_ITEM_TYPE, isItemType, type ItemType } from '../vocabulary/item-types.ts';
import type { Numbering } from '../vocabulary/numberings.ts';
import { colourNameKey, foldName } from './fold.ts';
import { findItem, type Candidate } from './find-item.ts';
import { UNPLACED_REASONS, type UnplacedReason } from '../vocabulary/reasons.ts';
import { elementIdBeside, OTHER_NUMBERING_COLOUR } from './remarks.ts';

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
  /**
   * The numbering its document's numbers are in (SPEC §6: `numberingOfFormat`): a number is read in it.
   * Null or missing: not known, and a number is read as the catalogue's, then as any other numbering's.
   */
  readonly numbering?: Numbering | null;
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
      /** The items the tables give that they can't tell apart (SPEC §6 step 3): they lead the suggestions. */
      readonly candidates?: readonly Candidate[];
    };

/** What LEGO's element id is in the catalogue: an item, and its colour in BrickLink's numbering when known. */
export interface ElementMatch {
  readonly item: ItemRef;
  readonly colourId: number | null;
  /**
   * No table ties the element's number to the catalogue's numbering: the catalogue's item of the same text
   * was taken, in this numbering (its `via` says so, SPEC §6 step 1).
   */
  readonly sameNumberIn?: Numbering;
}

/** A catalogue item another numbering gives for a number, and how ("BrickLink 4073 = Rebrickable 6141"). */
export interface Translation {
  readonly item: ItemRef;
  readonly via: string;
}

/** A catalogue item, and the numbering its number is in (its row's source; null when that does not say). */
export interface CatalogueItem {
  readonly item: ItemRef;
  readonly numbering: Numbering | null;
}

/** A hand placement remembered for a given number or name (SPEC §8): the item, and how it was taught. */
export interface Memory {
  readonly id: number;
  readonly item: ItemRef;
  /** When it was made (ISO-8601). */
  readonly at: string;
  /**
   * Its newest teaching of this item: the colour of the line it was taught from (null: the line had none),
   * by which desk, when. Null where none is recorded (an earlier build's memory): taught in no known colour.
   */
  readonly taught: { readonly colourId: number | null; readonly desk: string; readonly at: string } | null;
}

/**
 * What the element tables say of a part number in one colour (SPEC §6 step 3): the catalogue items they
 * give it as (each with an element that says so), and whether they list the number in that colour at all.
 */
export interface InColour {
  readonly items: readonly { readonly item: ItemRef; readonly element: string }[];
  readonly listed: boolean;
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
  /** The catalogue's item of this number, with the numbering it is in, or null. */
  catalogueItem(type: ItemType, no: string): CatalogueItem | null;
  /** The memory for this given number, or for this folded name when there is no number (an item, never a colour). */
  remembered(type: ItemType, no: string | null, nameKey: string | null): Memory | null;
  /** What the element tables say of part number `no` of `numbering` in catalogue colour `colourId`. */
  inColour(numbering: 'bricklink' | 'rebrickable', no: string, colourId: number): InColour;
  /** The catalogue colours the element tables make `item` in; null where they say nothing of its colours. */
  madeIn(item: ItemRef): readonly number[] | null;
  /** A catalogue colour's name, or null. */
  colourName(id: number): string | null;
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
  /**
   * The catalogue's parts that other numberings' tables give for part number `no` of numbering `from`
   * (itself among them where a table says it is the same); `from` null, any numbering's, not `no` itself.
   */
  translationsOf(no: string, from: Numbering | null): readonly Translation[];
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

export {
  DESCRIPTION_LABEL,
  elementIdBeside,
  elementRemark,
  ldrawBeside,
  ldrawPartRemark,
  OTHER_COLOUR_NUMBERINGS,
  otherNumberingColour,
  remarksToWrite,
} from './remarks.ts';

/**
 * The placement rule of SPEC §6. Finds the item (`find-item.ts`): by its number in the document's
 * numbering, by a remembered hand placement (the item only, in the colours it is made in), through
 * another numbering (the number and its colour together first), by a unique name. Places the line when
 * the item is found and its own colour (if given, and once colours are loaded) is known, or mapped by a
 * colour placement; else the first reason that fits, in the order of §6.
 */
export function placeItem(given: GivenItem, lookup: PlacementLookup): Placement {
  const no = clean(given.no);
  const name = clean(given.name);
  if (no === null && name === null) return unplaced(UNPLACED_REASONS.noNumberNorName);

  const typeCode = clean(given.type)?.toUpperCase() ?? DEFAULT_ITEM_TYPE;
  if (!isItemType(typeCode)) return unplaced(UNPLACED_REASONS.typeNotKnown);
  // The line keeps its own colour whichever way the item is found: a memory never brings one (§8).
  const colour = checkColour(given, lookup);
  const found = findItem(
    {
      type: typeCode,
      no,
      name,
      nameKey: name === null ? null : foldName(name),
      numbering: given.numbering ?? null,
      colourId: colour.status === 'none' ? null : colourOf(colour),
      remarks: given.remarks ?? null,
    },
    lookup,
  );
  if (found.kind === 'unplaced')
    return {
      ...unplaced(found.reason),
      ...(found.found === undefined ? {} : { found: found.found }),
      ...(found.candidates === undefined ? {} : { candidates: found.candidates }),
    };
  return placedIn(given, found, colour, lookup);
}

/** The line placed on the item found, in its colour: the element's, the line's own, or the colour chosen for it. */
function placedIn(
  given: GivenItem,
  found: Extract<ReturnType<typeof findItem>, { kind: 'found' }>,
  colour: ColourCheck,
  lookup: PlacementLookup,
): Placement {
  const forColour = (reason: UnplacedReason): Placement => ({
    item: null,
    colourId: null,
    by: null,
    reason,
    found: found.item,
  });
  let colourId = colourOf(colour);
  const { element } = found;
  if (element !== undefined && element.colourId !== null) {
    // An element is a part in a colour: it brings its colour. A given colour that disagrees is a
    // conflict where the element is the line's number; beside a number, the element decided (its `via`).
    if (found.elementIsTheNumber && colour.status !== 'none' && colourId !== element.colourId)
      return forColour(
        colour.status === 'unknown' && colourId === null
          ? UNPLACED_REASONS.colourNotInCatalogue
          : UNPLACED_REASONS.colourNotTheElements,
      );
    if (lookup.coloursLoaded() && !lookup.hasColour(element.colourId))
      return forColour(UNPLACED_REASONS.colourNotInCatalogue);
    colourId = element.colourId;
  } else {
    if (colour.status === 'unknown' && colourId === null) return forColour(UNPLACED_REASONS.colourNotInCatalogue);
    if (element === undefined && colour.status === 'none' && elementIdBeside(given.remarks) !== null) {
      // Found otherwise (a remembered hand placement) for a line that gave an element id and no colour:
      // the element's colour for that item, where the tables say one (SPEC §6 step 3).
      const elementColour = elementColourFor(given, found.item, lookup);
      if (elementColour !== null && (!lookup.coloursLoaded() || lookup.hasColour(elementColour)))
        colourId = elementColour;
    }
  }
  const how = [found.via, colour.status === 'known' ? colour.via : undefined].filter(Boolean).join('; ');
  return how === ''
    ? { item: found.item, colourId, by: found.by, reason: null }
    : { item: found.item, colourId, by: found.by, reason: null, via: how };
}

/**
 * The memory a stored line's placement (or its refusal) comes from (SPEC §6 step 2): the one for its given
 * number, or for its folded name where it gives none; null when there is none, or its type is not known.
 */
export function memoryFor(given: GivenItem, lookup: Pick<PlacementLookup, 'remembered'>): Memory | null {
  const no = clean(given.no);
  const name = clean(given.name);
  const type = clean(given.type)?.toUpperCase() ?? DEFAULT_ITEM_TYPE;
  if (!isItemType(type)) return null;
  return lookup.remembered(type, no, no === null && name !== null ? foldName(name) : null);
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

/**
 * How a stored line came to its item and colour, in the words the rule gives it (SPEC §6: "element
 * 4211050", "BrickLink 970c00 in Sand Blue = Rebrickable 970c24 (element 4267425)", "remembered — …"),
 * read again from the tables: where the rule places it there now, its `via`; else what the tables say of
 * its number and that item. Null when it is the item's own number, or the tables no longer say.
 */
export function viaOf(
  given: GivenItem,
  placed: ItemRef & { readonly colour: number | null; readonly by?: string },
  lookup: PlacementLookup,
): string | null {
  const now = placeItem(given, lookup);
  if (now.item !== null && sameItemRef(now.item, placed) && now.colourId === placed.colour) return now.via ?? null;
  // Placed by a memory staff have forgotten since (or changed): the line stays, and says what placed it.
  if (placed.by === 'remembered')
    return `remembered — ${clean(given.no) ?? `"${clean(given.name) ?? ''}"`} → ${placed.no} (a placement since forgotten or changed)`;
  // Only a colour given by name (or another numbering's number) can have come through the colour table.
  const colour = given.colourId === null && clean(given.colourName) !== null ? checkColour(given, lookup) : null;
  const how = [
    itemVia(given, placed, lookup),
    colour?.status === 'known' && colour.id === placed.colour ? colour.via : undefined,
  ].filter(Boolean);
  return how.length === 0 ? null : how.join('; ');
}

const sameItemRef = (a: ItemRef, b: ItemRef) => a.type === b.type && a.no.toLowerCase() === b.no.toLowerCase();

function itemVia(given: GivenItem, item: ItemRef, lookup: PlacementLookup): string | undefined {
  const no = clean(given.no);
  if (item.type !== 'P' || no?.toLowerCase() === item.no.toLowerCase()) return undefined;
  for (const id of [no, elementIdBeside(given.remarks)])
    if (id !== null && lookup.elementOf(id).some((m) => sameItemRef(m.item, item))) return `element ${id}`;
  return no === null
    ? undefined
    : lookup.translationsOf(no, given.numbering ?? null).find((t) => sameItemRef(t.item, item))?.via;
}
