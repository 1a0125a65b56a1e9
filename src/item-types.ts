/** BrickLink's item type codes (SPEC §5). */
export const ITEM_TYPES = {
  P: 'Part',
  S: 'Set',
  M: 'Minifig',
  B: 'Book',
  G: 'Gear',
  C: 'Catalog',
  I: 'Instruction',
  O: 'Original box',
} as const;

export type ItemType = keyof typeof ITEM_TYPES;

export const DEFAULT_ITEM_TYPE: ItemType = 'P';

export function isItemType(code: string): code is ItemType {
  return Object.hasOwn(ITEM_TYPES, code);
}
