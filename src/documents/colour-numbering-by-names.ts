import { colourNameKey, foldName } from '../placement/fold.ts';
import type { PlacementLookup } from '../placement/rule.ts';
import type { ColourNumbering } from '../reading.ts';
import type { ParsedLine } from './model.ts';

/**
 * Whose colour numbers a list gives, when its column's title does not say but the colour names beside
 * them do (SPEC §8 `how: names`): 57 "Trans Orange", 126 "Trans Purple", 272 "Dark Blue" are LDraw's.
 * The numbering read is the first of BrickLink's, Rebrickable's and LDraw's in whose table every line's
 * number is the colour its name says, through the loaded tables (BrickLink's colours, the colour table);
 * null when no numbering fits every line, or no line gives both.
 */
export function colourNumberingByNames(
  lines: readonly ParsedLine[],
  lookup: Pick<PlacementLookup, 'colourNamed' | 'translateColour'>,
): ColourNumbering | null {
  const pairs = lines.flatMap((l) => {
    const { colourId, colourName } = l.given;
    return colourId !== null && colourId !== 0 && colourName !== null && colourName.trim() !== ''
      ? [{ id: colourId, name: colourName }]
      : [];
  });
  if (pairs.length === 0) return null;
  const nameCache = new Map<string, number | null>();
  const colourOfName = (name: string): number | null => {
    const cached = nameCache.get(name);
    if (cached !== undefined) return cached;
    const found = bricklinkIdOfName(name, lookup);
    nameCache.set(name, found);
    return found;
  };
  const numberIn = (numbering: ColourNumbering, id: number): number | null =>
    numbering === 'bricklink' ? id : (lookup.translateColour(numbering, String(id)) ?? null);
  for (const numbering of ['bricklink', 'rebrickable', 'ldraw'] as const) {
    if (
      pairs.every((p) => {
        const colour = numberIn(numbering, p.id);
        return colour !== null && colour === colourOfName(p.name);
      })
    )
      return numbering;
  }
  return null;
}

/**
 * A colour name as BrickLink's colour, folded as names are — case, spacing, LDraw's underscores and the
 * hyphens BrickLink writes (`Trans Orange` = `Trans-Orange` = `TRANS ORANGE`): the catalogue's own colour
 * of that name, else the colour table's.
 */
function bricklinkIdOfName(
  name: string,
  lookup: Pick<PlacementLookup, 'colourNamed' | 'translateColour'>,
): number | null {
  const base = colourNameKey(name);
  const spaced = base.replace(/-/g, ' ');
  const spelled = [
    ...new Set([base, spaced, spaced.replace(/ /g, '-'), spaced.replace(/^trans /, 'trans-'), foldName(name)]),
  ];
  for (const key of spelled) {
    const own = lookup.colourNamed(key);
    if (own !== null) return own;
  }
  for (const key of spelled) {
    const translated = lookup.translateColour('name', key);
    if (translated !== null && translated !== undefined) return translated;
  }
  return null;
}
