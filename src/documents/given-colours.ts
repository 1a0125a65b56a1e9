import { quote } from '../errors.ts';
import { foldName } from '../placement/fold.ts';
import type { DocumentWarning, ParsedLine } from './model.ts';
import { FIELD_LIMITS } from './values.ts';

/** The catalogue's colours as this check needs them: BrickLink's ids and names. */
export interface ColourTable {
  readonly byId: ReadonlyMap<number, string>;
  /** Folded name → id, for names that only one colour has. */
  readonly byName: ReadonlyMap<string, number>;
}

export function colourTable(colours: readonly { readonly id: number; readonly name: string }[]): ColourTable {
  const byId = new Map<number, string>();
  const byName = new Map<string, number>();
  const several = new Set<string>();
  for (const c of colours) {
    byId.set(c.id, c.name);
    const key = foldName(c.name);
    if (byName.has(key)) several.add(key);
    byName.set(key, c.id);
  }
  for (const key of several) byName.delete(key);
  return { byId, byName };
}

/**
 * A document's colours read against the catalogue's colour table, before its lines are placed (SPEC §8):
 * - a line whose colour number and colour name are two different colours in BrickLink's table is placed
 *   by the name (`decides`), says so in its remarks, and the document carries a warning staff must
 *   acknowledge. A BrickStore file is the exception: the program wrote BrickLink's own ids, and a name
 *   that disagrees is the colour's name when the file was saved (BrickLink renamed 13 "Trans-Black" to
 *   "Trans-Brown" and gave the old name to a new colour), so there the number decides — still warned of;
 * - a line whose colour leads its name (BrickLink's order download: "Black Plate 1 x 2") gets that colour,
 *   and the rest as its name.
 * `namesAgree`: lines gave both, and every pair is one colour in BrickLink's table. Until the catalogue
 * has colours nothing is changed: colours are not checked before then.
 */
export function readGivenColours(
  lines: readonly ParsedLine[],
  table: ColourTable,
  decides: 'name' | 'number' = 'name',
): { lines: readonly ParsedLine[]; warnings: DocumentWarning[]; namesAgree: boolean } {
  if (table.byId.size === 0) return { lines, warnings: [], namesAgree: false };
  const disagreeing: { line: ParsedLine; number: number; numberName: string; name: string }[] = [];
  let agreeing = 0;
  const read = lines.map((line): ParsedLine => {
    const g = line.given;
    if (
      line.colourInName === true &&
      (g.type ?? 'P') === 'P' &&
      g.colourId === null &&
      g.colourName === null &&
      g.name !== null
    ) {
      return colourFromName(line, table);
    }
    if (g.colourId === null || g.colourId === 0 || g.colourName === null) return line;
    const named = table.byName.get(foldName(g.colourName));
    const numberName = table.byId.get(g.colourId);
    if (named !== undefined && named === g.colourId) agreeing += 1;
    if (named === undefined || numberName === undefined || named === g.colourId) return line;
    disagreeing.push({ line, number: g.colourId, numberName, name: g.colourName });
    const note = `colour number ${g.colourId} (${numberName}) disagrees with the name ${g.colourName}: placed by the ${decides}`;
    return {
      ...line,
      given: decides === 'name' ? { ...g, colourId: null } : g,
      // Within the remarks' cap: the note comes first, the file's own remarks after it.
      remarks: [note, line.remarks].filter(Boolean).join('; ').slice(0, FIELD_LIMITS.remarks.max),
    };
  });
  const first = disagreeing[0];
  const warnings: DocumentWarning[] =
    first === undefined
      ? []
      : [
          {
            code: 'colour-number-and-name-disagree',
            message:
              `${disagreeing.length === 1 ? 'One line gives' : `${disagreeing.length.toLocaleString('en-US')} lines give`} a colour number and a colour name that are different colours in BrickLink's table ` +
              `(line ${first.line.sourceLine}: ${first.number} is ${first.numberName}, the name says "${quote(first.name)}"); ` +
              (decides === 'name'
                ? `${disagreeing.length === 1 ? 'it is' : 'they are'} placed by the name.`
                : `the file keeps BrickLink's numbers, so ${disagreeing.length === 1 ? 'it is' : 'they are'} placed by the number (the name may be one the colour had before BrickLink renamed it).`),
          },
        ];
  // Numbers whose names all agree with BrickLink's table are BrickLink's: no guess is left to warn of.
  return { lines: read, warnings, namesAgree: agreeing > 0 && disagreeing.length === 0 };
}

/** The longest catalogue colour name (up to five words) that leads the line's name, taken as its colour. */
function colourFromName(line: ParsedLine, table: ColourTable): ParsedLine {
  const words = (line.given.name ?? '').trim().split(/\s+/);
  for (let k = Math.min(5, words.length - 1); k >= 1; k -= 1) {
    const id = table.byName.get(foldName(words.slice(0, k).join(' ')));
    if (id === undefined) continue;
    const given = {
      ...line.given,
      name: words.slice(k).join(' '),
      colourId: id,
      colourName: table.byId.get(id) ?? null,
    };
    return { ...line, given };
  }
  return line;
}
