/**
 * BrickLink's item type codes (SPEC §5), with what staff call a list of each: the one declaration the
 * contract, the argument checks, the CLI and the screens derive theirs from. (The frozen 4.1 baseline
 * and 4.2 rule keep their own copies, as frozen code must.)
 */
export const ITEM_TYPES = {
  P: 'Parts',
  S: 'Sets',
  M: 'Minifigs',
  B: 'Books',
  G: 'Gear',
  C: 'Catalogs',
  I: 'Instructions',
  O: 'Original boxes',
} as const;

export type ItemType = keyof typeof ITEM_TYPES;

export const ITEM_TYPE_CODES = Object.keys(ITEM_TYPES) as readonly ItemType[];

export const DEFAULT_ITEM_TYPE: ItemType = 'P';

/** One item of a type, as staff say it ("a minifig"). */
export const ITEM_TYPE_ONE: Readonly<Record<ItemType, string>> = {
  P: 'a part',
  S: 'a set',
  M: 'a minifig',
  B: 'a book',
  G: 'gear',
  C: 'a catalog',
  I: 'instructions',
  O: 'an original box',
};

export function isItemType(code: string): code is ItemType {
  return Object.hasOwn(ITEM_TYPES, code);
}

/** Item types by the words files use for them (BrickLink's order download says "Part", "Minifig"). */
const TYPE_WORDS: Readonly<Record<string, ItemType>> = {
  part: 'P',
  parts: 'P',
  set: 'S',
  sets: 'S',
  minifig: 'M',
  minifigs: 'M',
  minifigure: 'M',
  minifigures: 'M',
  book: 'B',
  books: 'B',
  gear: 'G',
  catalog: 'C',
  catalogs: 'C',
  instruction: 'I',
  instructions: 'I',
  'original box': 'O',
  'original boxes': 'O',
  box: 'O',
};

/** A file's item type as BrickLink's code when it spells one out as a word ("Part" → P); anything else as it is. */
export function itemTypeCode(text: string): string {
  return TYPE_WORDS[text.trim().toLowerCase().replace(/\s+/g, ' ')] ?? text;
}

/** BrickLink's names for its catalogue downloads, one file per item type (SPEC §5). */
export const BRICKLINK_DOWNLOAD_NAMES: Readonly<Record<ItemType, string>> = {
  P: 'Parts',
  M: 'Minifigures',
  S: 'Sets',
  G: 'Gear',
  B: 'Books',
  C: 'Catalogs',
  I: 'Instructions',
  O: 'Original Boxes',
};

/**
 * The item type BrickLink's catalogue download names a file for (`Parts.txt`, `Minifigures.txt.gz`,
 * `Original Boxes.txt`; SPEC §5): its items files carry no type column. Null for any other name. A
 * browser's copy mark (`Sets (1).txt`) and any folder are passed over.
 */
export function itemTypeOfFileName(name: string): ItemType | null {
  const base = (name.split(/[\\/]/).pop() ?? '')
    .replace(/(\.(gz|txt|tsv|csv|tab))+$/i, '')
    .replace(/\s*\(\d+\)$/, '')
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2');
  const type = itemTypeCode(base);
  return isItemType(type) && type !== base ? type : null;
}
