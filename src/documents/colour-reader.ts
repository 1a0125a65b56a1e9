import { foldName, looseColourKey } from '../placement/fold.ts';
import { checkColour, otherNumberingColour, type PlacementLookup } from '../placement/rule.ts';
import { COLOUR_NUMBERING_NAMES, type ColourNumbering, type ParsedLine } from './model.ts';

/** The catalogue's colours as the import reads a list's colours by: BrickLink's ids and names. */
export interface ColourTable {
  readonly byId: ReadonlyMap<number, string>;
  /** Folded name → id, for names that only one colour has. */
  readonly byName: ReadonlyMap<string, number>;
  /** `looseColourKey` → id, for keys that only one colour has. */
  readonly byLooseName: ReadonlyMap<string, number>;
}

export function colourTable(colours: readonly { readonly id: number; readonly name: string }[]): ColourTable {
  const byId = new Map<number, string>();
  for (const c of colours) byId.set(c.id, c.name);
  return { byId, byName: uniqueKeys(colours, foldName), byLooseName: uniqueKeys(colours, looseColourKey) };
}

function uniqueKeys(
  colours: readonly { readonly id: number; readonly name: string }[],
  key: (name: string) => string,
): Map<string, number> {
  const byKey = new Map<string, number>();
  const several = new Set<string>();
  for (const c of colours) {
    const k = key(c.name);
    if (byKey.has(k) && byKey.get(k) !== c.id) several.add(k);
    byKey.set(k, c.id);
  }
  for (const k of several) byKey.delete(k);
  return byKey;
}

/** A colour name read as a colour: the catalogue's id, and the spelling of the name the placement rule reads it by. */
export interface NamedColour {
  readonly id: number;
  readonly spelling: string;
}

/**
 * What a list's colour numbers and colour names are, read as the placement rule reads a line's colour
 * (`checkColour`), so that what the import says of a line is what placing it does.
 */
export interface ColourReader {
  /** The colour a name names, as it is or as folded (`looseColourKey`); null when none, or "no colour". */
  ofName(name: string): NamedColour | null;
  /** The colour a number is in a numbering: null when the numbering's table lacks it; undefined when that table is not loaded. */
  ofNumber(numbering: ColourNumbering, id: number): number | null | undefined;
  readonly table: ColourTable;
}

export function colourReader(lookup: PlacementLookup, table: ColourTable): ColourReader {
  const names = new Map<string, NamedColour | null>();
  const numbers = new Map<string, number | null | undefined>();
  const known = (colourId: number | null, colourName: string | null) => checkColour({ colourId, colourName }, lookup);
  const ofName = (name: string): NamedColour | null => {
    for (const spelling of spellings(name, table)) {
      const c = known(null, spelling);
      // BrickLink's 0 is "(Not Applicable)": a name that means it names no colour.
      if (c.status === 'known') return c.id === 0 ? null : { id: c.id, spelling };
    }
    return null;
  };
  const ofNumber = (numbering: ColourNumbering, id: number): number | null | undefined => {
    const c =
      numbering === 'bricklink'
        ? known(id, null)
        : known(null, otherNumberingColour(COLOUR_NUMBERING_NAMES[numbering] as 'Rebrickable' | 'LDraw', String(id)));
    if (c.status === 'known') return c.id;
    if (c.status === 'unknown') return null;
    // BrickLink's 0 means no colour; another numbering's `none` is its table not loaded.
    return c.status === 'none' && numbering === 'bricklink' ? null : undefined;
  };
  return {
    table,
    ofName: (name) => cached(names, name, () => ofName(name)),
    ofNumber: (numbering, id) => cached(numbers, `${numbering} ${id}`, () => ofNumber(numbering, id)),
  };
}

function cached<T>(cache: Map<string, T>, key: string, answer: () => T): T {
  if (cache.has(key)) return cache.get(key) as T;
  const value = answer();
  cache.set(key, value);
  return value;
}

/**
 * The spellings a name is tried in, first the list's own: the catalogue's name of the colour it folds to
 * (`looseColourKey`), then LDraw's, LEGO's and Rebrickable's ways of writing it for the colour table.
 */
function spellings(name: string, table: ColourTable): string[] {
  const own = table.byLooseName.get(looseColourKey(name));
  const spaced = name.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
  const plain = spaced.replace(/\b(t)ransparent\b/gi, '$1rans');
  const variants = [plain, plain.replace(/-/g, ' '), plain.replace(/\b(trans)[\s-]+/gi, '$1-')].flatMap((v) => [
    v,
    v.replace(/\b(gr)e(y)\b/gi, '$1a$2'),
    v.replace(/\b(gr)a(y)\b/gi, '$1e$2'),
  ]);
  return [...new Set([name, ...(own === undefined ? [] : [table.byId.get(own) ?? name]), ...variants])];
}

/** A line's colour as the list gave it: a number and the name beside it, if any; null when it gives no number. */
export function listedColour(line: ParsedLine): { readonly number: number; readonly name: string | null } | null {
  if (line.listedColour !== undefined) return line.listedColour;
  const g = line.given;
  return g.colourId === null ? null : { number: g.colourId, name: g.colourName };
}
