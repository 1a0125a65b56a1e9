import { DEFAULT_ITEM_TYPE, isItemType, type ItemType } from '../item-types.ts';
import { foldName } from './fold.ts';
import { UNPLACED_REASONS, type UnplacedReason } from '../reasons.ts';

/** What a document line says about its item; every field may be missing. */
export interface GivenItem {
  readonly type: string | null;
  readonly no: string | null;
  readonly name: string | null;
  readonly colourId: number | null;
  readonly colourName: string | null;
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
  | { readonly status: 'known'; readonly id: number }
  /** The catalogue does not know it; `placed` is the colour a colour placement maps it to, if any. */
  | { readonly status: 'unknown'; readonly key: ColourKey; readonly placed: number | null };

/** How the rule found the item: by number, by a remembered hand placement, or by a unique name. */
export type PlacedBy = 'number' | 'remembered' | 'name';

export type Placement =
  | { readonly item: ItemRef; readonly colourId: number | null; readonly by: PlacedBy; readonly reason: null }
  | { readonly item: null; readonly colourId: null; readonly by: null; readonly reason: UnplacedReason };

/** The catalogue as the rule sees it. The store implements it with prepared statements. */
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
  const colourName = clean(given.colourName);
  // BrickLink's colour 0 is "(Not Applicable)": items without a colour (sets, minifigs) carry it.
  const givenColourId = given.colourId === 0 ? null : given.colourId;
  if (givenColourId === null && colourName === null) return { status: 'none' };
  if (!lookup.coloursLoaded()) return { status: 'unchecked', id: givenColourId };
  if (givenColourId !== null) {
    if (lookup.hasColour(givenColourId)) return { status: 'known', id: givenColourId };
    const key: ColourKey = { numbering: 'bricklink-id', id: givenColourId };
    return { status: 'unknown', key, placed: lookup.colourPlacement(key) };
  }
  const nameKey = foldName(colourName ?? '');
  const named = lookup.colourNamed(nameKey);
  if (named !== null) return { status: 'known', id: named };
  const key: ColourKey = { numbering: 'name', key: nameKey };
  return { status: 'unknown', key, placed: lookup.colourPlacement(key) };
}

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

  const catalogueNo = no === null ? null : lookup.itemNumber(type, no);
  if (catalogueNo !== null) {
    found = { item: { type, no: catalogueNo }, by: 'number' };
  }
  if (found === null) {
    const memory = lookup.remembered(type, no, no === null ? nameKey : null);
    if (memory !== null) found = { item: memory, by: 'remembered' };
  }
  if (found === null && nameKey !== null) {
    const named = lookup.itemsNamed(type, nameKey);
    if (named.length === 1 && named[0] !== undefined) found = { item: named[0], by: 'name' };
    else if (named.length > 1) nameIsAmbiguous = true;
  }

  if (found === null) {
    if (nameIsAmbiguous) return unplaced(UNPLACED_REASONS.nameSeveral);
    if (no !== null) return unplaced(UNPLACED_REASONS.numberNotInCatalogue);
    return unplaced(UNPLACED_REASONS.nameNotInCatalogue);
  }

  // The line keeps its own colour whichever way the item was found: a memory never brings one (§8).
  const colour = checkColour(given, lookup);
  const colourId = colour.status === 'none' ? null : colour.status === 'unknown' ? colour.placed : colour.id;
  if (colour.status === 'unknown' && colourId === null) return unplaced(UNPLACED_REASONS.colourNotInCatalogue);
  return { item: found.item, colourId, by: found.by, reason: null };
}
