/**
 * Which colours each part is made in, in the catalogue's (BrickLink's) colour ids, from the element
 * tables (SPEC §5), for the order of a line's suggestions (ADR 0029): a line asks for a part in a colour,
 * and of names about as close, staff mean the part LEGO makes in that colour (`Flat Tile 1X1` in
 * Transparent Red is 3070b, not a printed tile made only in white). BrickLink's codes name a colour,
 * Rebrickable's elements number it in Rebrickable's ids: each is read through the colour tables as an
 * element id's colour is when it places a line (`elementColourId`; counted in `part-colours.ts`).
 */

/**
 * How far a part made in the line's colour is pulled towards the line, as `commonness.ts` pulls a common
 * part (the two pulls compose): its distance shrinks by this share. Without element or colour tables,
 * or for a line without a colour, no part is pulled and the order is the names' alone.
 */
export const MADE_IN_COLOUR_PULL = 0.25;

/** The pull of `a` and then `b` as one pull: pulled(pulled(c, a), b) = pulled(c, bothPulls(a, b)). */
export function bothPulls(a: number, b: number): number {
  return 1 - (1 - a) * (1 - b);
}

/** Items by colour, each colour's items as a bitset over item indices: a line's colour is one look-up. */
export function madeInBitsets(made: readonly (readonly number[] | undefined)[]): Map<number, Uint32Array> {
  const words = (made.length + 31) >>> 5;
  const out = new Map<number, Uint32Array>();
  made.forEach((colours, i) => {
    for (const c of colours ?? []) {
      let bits = out.get(c);
      if (bits === undefined) out.set(c, (bits = new Uint32Array(words)));
      bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
    }
  });
  return out;
}

/** Whether item `i` is set in `bits`. */
export function isMadeIn(bits: Uint32Array, i: number): boolean {
  return (((bits[i >>> 5] as number) >>> (i & 31)) & 1) === 1;
}
