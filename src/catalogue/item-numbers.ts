import type { ReadableDb, StoreDb } from '../store/db.ts';
import { NUMBERING_NAMES, numberingOfSource, type Numbering } from '../numberings.ts';
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

/** The numbers of many items at once (a few statements, whatever their count): `get(type, no)`. */
export function itemNumbers(db: ReadableDb, items: readonly ItemKey[]): { get(type: string, no: string): ItemNumbers } {
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
  const blListed = listedInElements(db, 'bricklink', rebrickableParts);
  // BrickLink parts: their Rebrickable numbers (and through them, LDraw's).
  const rbOfBl = grouped(crossReferencedTo(db, 'bricklink', bricklinkParts));
  const rbByElements = grouped(sharedElements(db, 'bricklink', bricklinkParts));
  const rbListed = listedInElements(db, 'rebrickable', bricklinkParts);
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
      numbers = {
        catalogue,
        bricklink: catalogue === 'bricklink' ? i.no : null,
        rebrickable: catalogue === 'rebrickable' ? i.no : null,
        ldraw: null,
      };
    } else if (catalogue === 'rebrickable') {
      numbers = {
        catalogue,
        bricklink:
          chosen(i.no, blOfRb.get(k)) ?? chosen(i.no, blByElements.get(k)) ?? (blListed.has(i.no) ? i.no : null),
        rebrickable: i.no,
        ldraw: chosen(i.no, ldOfRb.get(k)),
      };
    } else {
      const rebrickable = rebrickableOfBricklink.get(k) ?? null;
      numbers = {
        catalogue,
        bricklink: i.no,
        rebrickable,
        ldraw: rebrickable === null ? null : chosen(rebrickable, ldOfBl.get(rebrickable.toLowerCase())),
      };
    }
    byKey.set(itemKey(i.type, i.no), numbers);
  }
  const none: ItemNumbers = { catalogue: null, bricklink: null, rebrickable: null, ldraw: null };
  return { get: (type, no) => byKey.get(itemKey(type, no)) ?? none };
}

/**
 * An item's number as staff read it (SPEC §5, §9): in the shop numbering first, the catalogue's beside it
 * when that differs — `3794 (Rebrickable 3794b)`; the catalogue's, named, when the shop numbering has none
 * (`3794b (Rebrickable)`).
 */
export function shownNumber(catalogueNo: string, numbers: ItemNumbers, shop: Numbering): string {
  const inShop = numbers[shop];
  if (numbers.catalogue === null || numbers.catalogue === shop) return catalogueNo;
  // Not known in the shop's numbering: the catalogue's number, saying whose it is.
  if (inShop === null) return `${catalogueNo} (${NUMBERING_NAMES[numbers.catalogue]})`;
  if (inShop.toLowerCase() === catalogueNo.toLowerCase()) return inShop;
  return `${inShop} (${NUMBERING_NAMES[numbers.catalogue]} ${catalogueNo})`;
}

/**
 * How the screens name many items at once (SPEC §5, §9): `shown(type, no)` is the number in the shop's
 * numbering first, the catalogue's beside it when different. `shop` is the store's `numbering` setting.
 */
export function numberShower(
  db: StoreDb,
  items: readonly ItemKey[],
  shop: Numbering,
): (type: string, no: string) => string {
  const sources = itemSources(db, items);
  const numberingOf = (type: string, no: string) => numberingOfSource(sources.get(`${type}\t${no}`) ?? '');
  // Items in the shop's own numbering are shown as they are: only the others' numbers are read.
  const numbers = itemNumbers(
    db,
    items.filter((i) => {
      const n = numberingOf(i.type, i.no);
      return n !== null && n !== shop;
    }),
  );
  return (type, no) => {
    const n = numberingOf(type, no);
    return n === null || n === shop ? no : shownNumber(no, numbers.get(type, no), shop);
  };
}
