import type { ItemType } from './item-types.ts';

/** One row a catalogue file gives, in BrickLink's numbering. */
export type CatalogueRecord =
  | { readonly kind: 'item'; readonly type: ItemType; readonly no: string; readonly name: string; readonly categoryId: number | null }
  | { readonly kind: 'colour'; readonly id: number; readonly name: string }
  | { readonly kind: 'category'; readonly id: number; readonly name: string };

/** A catalogue file, read and checked whole before anything is written. */
export interface CatalogueFile {
  readonly name: string;
  /** What it is, e.g. "Rebrickable parts.csv", "BrickLink items XML". */
  readonly format: string;
  /** Written into each row's `source`: where the row came from. */
  readonly source: string;
  readonly records: readonly CatalogueRecord[];
}
