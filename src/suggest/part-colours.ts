/**
 * What the element tables (SPEC §5) say of each part, for the order of suggestions, in one pass over
 * their rows (a quarter of a million on the real tables, read once per catalogue generation): how many
 * colours it is made in (`commonness.ts`) and which of the catalogue's colours (`made-in.ts`).
 */
import { elementColourId, type ColourLookups } from '../placement/element-colour.ts';
import { foldNumber } from './words.ts';
import type { ElementTuple } from '../store/suggest-index.ts';

export interface PartColours {
  /** Distinct colours per numbering (BrickLink names colours, Rebrickable numbers them: never counted together), the most either gives. */
  readonly colours: number;
  /** The catalogue colours it is made in, ascending; empty without colour tables, or when none is known. */
  readonly madeIn: readonly number[];
}

/** Each part number (folded) → its colours; `lookups` null: counted only. */
export function partColours(rows: Iterable<ElementTuple>, lookups: ColourLookups | null): Map<string, PartColours> {
  // Colours interned per numbering (a few hundred) and part numbers folded once each (a part is listed
  // in every colour); each row becomes one number, (part, numbering, colour), and one typed sort puts
  // each part's colours together, each once: no object or set per part (there are 80,000).
  const interned = [new Map<string, number>(), new Map<string, number>()] as const;
  const catalogueId: (number | null)[] = [];
  const partOf = new Map<string, number>();
  const parts: string[] = [];
  const partIds: number[] = [];
  const colourIds: number[] = [];
  const sides: number[] = [];
  for (const [numbering, no, colour] of rows) {
    const side = numbering === 'bricklink' ? 0 : 1;
    let c = interned[side].get(colour);
    if (c === undefined) {
      c = catalogueId.length;
      interned[side].set(colour, c);
      catalogueId.push(lookups === null ? null : elementColourId(numbering, colour, lookups));
    }
    let part = partOf.get(no);
    if (part === undefined) {
      const folded = foldNumber(no);
      part = partOf.get(folded);
      if (part === undefined) {
        part = parts.length;
        parts.push(folded);
        partOf.set(folded, part);
      }
      partOf.set(no, part);
    }
    partIds.push(part);
    colourIds.push(c);
    sides.push(side);
  }
  const span = Math.max(1, catalogueId.length);
  const keys = new Float64Array(partIds.length);
  for (let r = 0; r < keys.length; r++)
    keys[r] = ((partIds[r] as number) * 2 + (sides[r] as number)) * span + (colourIds[r] as number);
  keys.sort();
  const out = new Map<string, PartColours>();
  let r = 0;
  while (r < keys.length) {
    const part = Math.floor((keys[r] as number) / (2 * span));
    const counted = [0, 0];
    const made: number[] = [];
    for (let last = -1; r < keys.length && Math.floor((keys[r] as number) / (2 * span)) === part; r++) {
      const key = keys[r] as number;
      if (key === last) continue;
      last = key;
      const side = Math.floor(key / span) % 2;
      counted[side] = (counted[side] as number) + 1;
      const id = catalogueId[key % span];
      if (id !== null && id !== undefined) made.push(id);
    }
    made.sort((a, b) => a - b);
    out.set(parts[part] as string, {
      colours: Math.max(counted[0] as number, counted[1] as number),
      madeIn: made.filter((id, k) => k === 0 || made[k - 1] !== id),
    });
  }
  return out;
}
