/**
 * An element table's colour in the catalogue's (BrickLink's) ids (SPEC §5, §6): read the same way when an
 * element id places a line and when the suggestions ask which colours a part is made in.
 */
import { colourNameKey, foldName } from './fold.ts';

/** The colour tables as an element's colour is read through them. */
export interface ColourLookups {
  /** The catalogue colour whose folded name this is, when exactly one colour has it. */
  readonly colourNamed: (nameKey: string) => number | null;
  /** BrickLink's id for a colour of another vocabulary: null, no counterpart; undefined, unknown. */
  readonly translate: (numbering: string, key: string) => number | null | undefined;
}

/**
 * An element table's colour in BrickLink's ids: BrickLink's codes give its colour *name* (the catalogue's,
 * else through the colour table's names); Rebrickable's elements give Rebrickable's id. Null when unknown.
 */
export function elementColourId(numbering: string, colour: string, lookups: ColourLookups): number | null {
  if (numbering === 'rebrickable') return lookups.translate('rebrickable', colour) ?? null;
  return lookups.colourNamed(foldName(colour)) ?? lookups.translate('name', colourNameKey(colour)) ?? null;
}
