import { DEFAULT_ITEM_TYPE, isItemType, type ItemType } from '../catalogue/item-types.ts';
import { foldName } from './fold.ts';
import { UNPLACED_REASONS, type UnplacedReason } from './reasons.ts';

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

export interface RememberedPlacement extends ItemRef {
  readonly colourId: number | null;
}

/** How the rule found the item: by number, by a remembered hand placement, or by a unique name. */
export type PlacedBy = 'number' | 'remembered' | 'name';

export type Placement =
  | { readonly item: ItemRef; readonly colourId: number | null; readonly by: PlacedBy; readonly reason: null }
  | { readonly item: null; readonly colourId: null; readonly by: null; readonly reason: UnplacedReason };

/** The catalogue as the rule sees it. The store implements it with prepared statements. */
export interface PlacementLookup {
  /** The catalogue's own spelling of this number (numbers match without regard to case), or null. */
  itemNumber(type: ItemType, no: string): string | null;
  /** A hand placement remembered for this given number, or for this folded name when there is no number. */
  remembered(type: ItemType, no: string | null, nameKey: string | null): RememberedPlacement | null;
  /** Items whose folded name equals `nameKey`; two are enough to know it is ambiguous. */
  itemsNamed(type: ItemType, nameKey: string): readonly ItemRef[];
  /** Whether any colours are loaded: colours are only checked once they are. */
  coloursLoaded(): boolean;
  hasColour(id: number): boolean;
  /** The colour whose folded name equals `nameKey`, if exactly one does. */
  colourNamed(nameKey: string): number | null;
}

function unplaced(reason: UnplacedReason): Placement {
  return { item: null, colourId: null, by: null, reason };
}

function clean(text: string | null): string | null {
  const t = text?.trim();
  return t ? t : null;
}

/**
 * The placement rule of SPEC §6. Finds the item by number, then by a remembered hand placement, then
 * by a unique name; places the line when the item is found and its colour (if given, and once colours
 * are loaded) is known. Otherwise the first reason that fits, in the order of §6.
 */
export function placeItem(given: GivenItem, lookup: PlacementLookup): Placement {
  const no = clean(given.no);
  const name = clean(given.name);
  if (no === null && name === null) return unplaced(UNPLACED_REASONS.noNumberNorName);

  const typeCode = clean(given.type)?.toUpperCase() ?? DEFAULT_ITEM_TYPE;
  if (!isItemType(typeCode)) return unplaced(UNPLACED_REASONS.typeNotKnown);
  const type: ItemType = typeCode;
  const nameKey = name === null ? null : foldName(name);

  let found: { item: ItemRef; by: PlacedBy; colourId?: number | null } | null = null;
  let nameIsAmbiguous = false;

  const catalogueNo = no === null ? null : lookup.itemNumber(type, no);
  if (catalogueNo !== null) {
    found = { item: { type, no: catalogueNo }, by: 'number' };
  }
  if (found === null) {
    const memory = lookup.remembered(type, no, no === null ? nameKey : null);
    if (memory !== null) {
      found = { item: { type: memory.type, no: memory.no }, by: 'remembered', colourId: memory.colourId };
    }
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

  // A remembered placement holds its colour; staff chose it, so it is not checked again.
  if (found.colourId !== undefined && found.colourId !== null) {
    return { item: found.item, colourId: found.colourId, by: found.by, reason: null };
  }

  const colourName = clean(given.colourName);
  // BrickLink's colour 0 is "(Not Applicable)": items without a colour (sets, minifigs) carry it.
  const givenColourId = given.colourId === 0 ? null : given.colourId;
  if (givenColourId === null && colourName === null) {
    return { item: found.item, colourId: null, by: found.by, reason: null };
  }
  if (!lookup.coloursLoaded()) {
    return { item: found.item, colourId: givenColourId, by: found.by, reason: null };
  }
  const colourId =
    givenColourId !== null
      ? lookup.hasColour(givenColourId)
        ? givenColourId
        : null
      : lookup.colourNamed(foldName(colourName ?? ''));
  if (colourId === null) return unplaced(UNPLACED_REASONS.colourNotInCatalogue);
  return { item: found.item, colourId, by: found.by, reason: null };
}
