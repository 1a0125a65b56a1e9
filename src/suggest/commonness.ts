/**
 * How common a part is, for the order of suggestions (SPEC §7 rule 3, ADR 0028): the number of colours
 * LEGO makes it in, by the element tables the catalogue loads (BrickLink's codes, Rebrickable's
 * elements; SPEC §5). Among names about as close, staff mean the part a shop stocks in thirty colours
 * far more often than its print, its Duplo namesake or a mould no one sells (`Flat Tile 1X1` is
 * 3070b, not one of the hundred printed 1 x 1 tiles). Without element tables every part counts 0 and
 * the order is the names' alone.
 */

/** A part in this many colours or more is as common as a part gets (the most made are in about 80). */
const COLOURS_FOR_FULL = 64;

/**
 * How far a part at full commonness is pulled towards its line: its distance (1 − closeness) shrinks by
 * this share, less for fewer colours. A pull on the distance, not a bonus on the closeness, so that a
 * name that is the line's own (closeness 1) is never passed by a common part.
 */
export const COMMON_PART_PULL = 0.15;

/** The share of COMMON_PART_PULL a part made in `colours` colours gets: 0 for none, 1 from COLOURS_FOR_FULL on. */
export function commonness(colours: number): number {
  if (!(colours > 0)) return 0;
  return Math.min(1, Math.log1p(colours) / Math.log1p(COLOURS_FOR_FULL));
}

/** Closeness `c` (0…1) of a part pulled by `pull` (0…COMMON_PART_PULL): 0 stays 0, 1 stays 1. */
export function pulled(c: number, pull: number): number {
  return c > 0 ? 1 - (1 - c) * (1 - pull) : 0;
}

/** The closeness before a pull of `pull` that `pulled` takes to `c` (what a walk must see to reach `c`); `c` ≤ 0 stays. */
export function unpulled(c: number, pull: number): number {
  return c > 0 ? 1 - (1 - c) / (1 - pull) : c;
}
