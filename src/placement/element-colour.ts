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

/** The look-ups over the colour tables read whole (a few hundred rows): the catalogue's colours and the translations. */
export function colourLookupsOf(
  colours: Iterable<{ readonly id: number; readonly name: string }>,
  translations: Iterable<{ readonly numbering: string; readonly key: string; readonly id: number | null }>,
): ColourLookups {
  // A name two colours have names neither.
  const named = new Map<string, number | null>();
  for (const c of colours) {
    const key = foldName(c.name);
    named.set(key, named.has(key) && named.get(key) !== c.id ? null : c.id);
  }
  const translated = new Map<string, number | null>();
  for (const t of translations) translated.set(`${t.numbering}\u0000${t.key}`, t.id);
  return {
    colourNamed: (key) => named.get(key) ?? null,
    translate: (numbering, key) => translated.get(`${numbering}\u0000${key}`),
  };
}
