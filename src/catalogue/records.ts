import type { ItemType } from '../vocabulary/item-types.ts';
import type { TranslationRecord } from '../store/catalogue.ts';

/** One row a catalogue file gives, in BrickLink's numbering. */
export type CatalogueRecord =
  | {
      readonly kind: 'item';
      readonly type: ItemType;
      readonly no: string;
      readonly name: string;
      readonly categoryId: number | null;
      /** The name folded as `name_key` stores it, when a reader thread folded it already (`read-in-two.ts`). */
      readonly nameKey?: string;
    }
  /** `rgb`: six hex digits, upper case, when the file gives them (BrickLink's colour lists do). */
  | { readonly kind: 'colour'; readonly id: number; readonly name: string; readonly rgb: string | null }
  | { readonly kind: 'category'; readonly id: number; readonly name: string }
  | TranslationRecord;

/** A catalogue file, read and checked whole before anything is written. */
export interface CatalogueFile {
  readonly name: string;
  /** What it is, e.g. "Rebrickable parts.csv", "BrickLink items XML". */
  readonly format: string;
  /** Written into each row's `source`: where the row came from. */
  readonly source: string;
  readonly records: readonly CatalogueRecord[];
}

/** A colour's RGB as six upper-case hex digits, or null for anything else (a missing or odd value is not an error). */
export function rgbOrNull(text: string | null | undefined): string | null {
  const t = (text ?? '').trim().replace(/^#/, '');
  return /^[0-9A-Fa-f]{6}$/.test(t) ? t.toUpperCase() : null;
}

export { COLOUR_VOCABULARIES, RELATIONSHIP_TYPES } from '../store/catalogue.ts';
export type { ColourVocabulary, RelationshipType, TranslationRecord } from '../store/catalogue.ts';
