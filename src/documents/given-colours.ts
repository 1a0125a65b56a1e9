import { quote } from '../vocabulary/errors.ts';
import { foldName } from '../placement/fold.ts';
import { COLOUR_NUMBERING_NAMES, type ColourNumbering } from '../vocabulary/reading.ts';
import { listedColour, type ColourReader, type ColourTable } from './colour-reader.ts';
import type { DocumentWarning, ParsedLine } from './model.ts';
import { FIELD_LIMITS } from './values.ts';

/** How a document's colour numbers are read against its colour names: in which numbering, and which decides where they disagree. */
export interface ColourRule {
  readonly numbering: ColourNumbering;
  /**
   * Where a line's number and name are two colours: the name, or (BrickStore's files, which wrote
   * BrickLink's own ids; the name may be one the colour had before BrickLink renamed it) the number.
   */
  readonly decides: 'name' | 'number';
}

/** A line whose number and name are two different colours in the numbering read. */
interface Disagreement {
  readonly line: ParsedLine;
  readonly number: number;
  readonly numberName: string;
  readonly name: string;
}

/**
 * A document's colours read against the catalogue's, before its lines are placed (SPEC §8), one rule for
 * every line, in the numbering the document is read in (`rule.numbering`):
 * - a number and a name that are one colour: the line as it is;
 * - a number that numbering's table lacks (or BrickLink's 0, "no colour") beside a name that is a colour:
 *   placed by the name, and its remarks say so;
 * - a number and a name that are two colours: placed as `rule.decides`, its remarks say so, and the
 *   document carries one warning (staff acknowledge it) that states that rule for them all;
 * - a line whose colour leads its name (BrickLink's order download: "Black Plate 1 x 2") gets that colour,
 *   and the rest as its name.
 * Until the catalogue has colours nothing is changed: colours are not checked before then.
 */
export function readGivenColours(
  lines: readonly ParsedLine[],
  reader: ColourReader,
  rule: ColourRule,
): { lines: readonly ParsedLine[]; warnings: DocumentWarning[] } {
  if (reader.table.byId.size === 0) return { lines, warnings: [] };
  const disagreeing: Disagreement[] = [];
  const read = lines.map((line): ParsedLine => {
    const g = line.given;
    if (line.colourInName === true && (g.type ?? 'P') === 'P' && g.colourId === null && g.colourName === null) {
      return g.name === null ? line : colourFromName(line, reader.table);
    }
    const listed = listedColour(line);
    const name = listed?.name?.trim() ?? '';
    if (listed === null || name === '') return line;
    const byNumber = reader.ofNumber(rule.numbering, listed.number);
    const byName = reader.ofName(name);
    if (byNumber === undefined || byName === null || byNumber === byName.id) return line;
    const number = numberWords(rule.numbering, listed.number);
    if (byNumber === null) {
      const why =
        listed.number === 0 && rule.numbering === 'bricklink'
          ? `${number} is no colour in BrickLink's numbering`
          : `${number} is not in ${COLOUR_NUMBERING_NAMES[rule.numbering]}'s colours`;
      return byTheName(line, byName.spelling, `${why}: placed by the name ${name}`);
    }
    const numberName = reader.table.byId.get(byNumber) ?? `colour ${byNumber}`;
    disagreeing.push({ line, number: listed.number, numberName, name });
    const note = `${number} (${numberName}) disagrees with the name ${name}: placed by the ${rule.decides}`;
    return rule.decides === 'name' ? byTheName(line, byName.spelling, note) : noted(line, note);
  });
  const warning = disagreementWarning(disagreeing, rule);
  return { lines: read, warnings: warning === null ? [] : [warning] };
}

/** "colour number 4" (BrickLink's, as its warnings always said), "LDraw colour 4". */
function numberWords(numbering: ColourNumbering, id: number): string {
  return numbering === 'bricklink' ? `colour number ${id}` : `${COLOUR_NUMBERING_NAMES[numbering]} colour ${id}`;
}

/** The line given its colour by its name, spelled as the placement rule reads it, with why in its remarks. */
function byTheName(line: ParsedLine, spelling: string, note: string): ParsedLine {
  const listedName = line.listedColour?.name ?? null;
  // Another numbering's list kept the name in the remarks ("colour Trans Purple"): now the line's colour says it.
  const beside = listedName === null ? null : `colour ${listedName}`;
  const rest =
    beside !== null && line.remarks?.startsWith(beside) === true
      ? line.remarks.slice(beside.length).replace(/^; /, '') || null
      : line.remarks;
  return noted({ ...line, given: { ...line.given, colourId: null, colourName: spelling }, remarks: rest }, note);
}

/** Within the remarks' cap: the note comes first, the file's own remarks after it. */
function noted(line: ParsedLine, note: string): ParsedLine {
  return { ...line, remarks: [note, line.remarks].filter(Boolean).join('; ').slice(0, FIELD_LIMITS.remarks.max) };
}

/** The one warning for every line whose number and name disagree, stating the one rule that places them. */
function disagreementWarning(disagreeing: readonly Disagreement[], rule: ColourRule): DocumentWarning | null {
  const first = disagreeing[0];
  if (first === undefined) return null;
  const one = disagreeing.length === 1;
  const bricklink = rule.numbering === 'bricklink';
  const where = bricklink ? "BrickLink's table" : `${COLOUR_NUMBERING_NAMES[rule.numbering]}'s numbering`;
  const number = bricklink ? String(first.number) : `${COLOUR_NUMBERING_NAMES[rule.numbering]} ${first.number}`;
  return {
    code: 'colour-number-and-name-disagree',
    message:
      `${one ? 'One line gives' : `${disagreeing.length.toLocaleString('en-US')} lines give`} a colour number and a colour name that are different colours in ${where} ` +
      // The document's lot, as the screens number its lines, not a line of the file's text (issue 64 §3).
      `(lot ${first.line.position}: ${number} is ${first.numberName}, the name says "${quote(first.name)}"); ` +
      (rule.decides === 'name'
        ? `${one ? 'it is' : 'they are'} placed by the name.`
        : `the file keeps BrickLink's numbers, so ${one ? 'it is' : 'they are'} placed by the number (the name may be one the colour had before BrickLink renamed it).`),
  };
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
