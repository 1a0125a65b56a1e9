/**
 * What a reader writes into a line beside what the placement rule reads (SPEC §6): another numbering's
 * colour number as the line's colour name, and the numbers kept in its remarks (an element id beside its
 * number, an LDraw model's part), which the rule reads back.
 */

/** The numberings whose colour numbers a line keeps as its given colour name ("Rebrickable colour 4", SPEC §6). */
export const OTHER_COLOUR_NUMBERINGS = ['Rebrickable', 'LDraw', 'LEGO'] as const;

/** "Rebrickable colour 4": the given colour name of a number in another numbering. */
export function otherNumberingColour(numbering: (typeof OTHER_COLOUR_NUMBERINGS)[number], id: string): string {
  return `${numbering} colour ${id}`;
}

/**
 * "Element 4211050": how a list's LEGO element id beside its number (Studio's `Element ID`) is kept in the
 * line's remarks, among its other numbers ("LDraw 3001 · Element 300121").
 */
export function elementRemark(id: string): string {
  return `Element ${id}`;
}

/** The element id `elementRemark` wrote into remarks, or the one a BrickStore Pick a Brick remark labels; else null. */
export function elementIdBeside(remarks: string | null | undefined): string | null {
  if (remarks === null || remarks === undefined) return null;
  if (remarks.includes('Element ')) {
    const own = ELEMENT_REMARK.exec(remarks)?.[1];
    if (own !== undefined) return own;
  }
  // BrickStore's Pick a Brick files label their remark's numbers themselves (ADR 0030).
  return remarks.startsWith(PAB_REMARK_LABEL) ? (PAB_REMARK.exec(remarks)?.[1] ?? null) : null;
}

const ELEMENT_REMARK = /(?:^|; | · )Element (\d{4,9})(?=$|; | · )/;

/** How an LDraw model's part is kept in its line's remarks (`LDraw part 3001`): its number is LDraw's. */
export function ldrawPartRemark(no: string): string {
  return `LDraw part ${no}`;
}

/** The number `ldrawPartRemark` wrote into remarks, else null. */
export function ldrawBeside(remarks: string | null | undefined): string | null {
  if (remarks === null || remarks === undefined || !remarks.includes('LDraw part ')) return null;
  return LDRAW_REMARK.exec(remarks)?.[1] ?? null;
}

const LDRAW_REMARK = /(?:^|; | · )LDraw part ([^\s;·]+)(?=$|; | · )/;
/** `PAB Element ID, Design ID, Color - Itemname: 4211573, 32123, MEDIUM STONE GREY - 1/2 Bush`. */
const PAB_REMARK_LABEL = 'PAB Element ID, Design ID, Color - Itemname: ';
const PAB_REMARK = /^PAB Element ID, Design ID, Color - Itemname: (\d{4,9}), \d{3,6}[a-z]?, /;

/** Reads back what `otherNumberingColour` wrote. */
export const OTHER_NUMBERING_COLOUR = new RegExp(`^(${OTHER_COLOUR_NUMBERINGS.join('|')}) colour (\\d{1,9})$`, 'i');

/**
 * What the readers wrote into a line's remarks for themselves (issue 64 §4), each as its writer above or
 * in the readers spells it: the LDraw part and ids a list or model gave, an element id beside a number,
 * a list's spare mark, a colour's name beside another numbering's number, a model's notes, and why a
 * colour was read by its number or its name. They help the rule and staff here; they are no shop's words.
 */
const READER_NOTES: readonly RegExp[] = [
  /^LDraw part \S+$/, // ldrawPartRemark
  /^LDraw \S+$/, // a list's LDraw id column
  /^Element \d{4,9}$/, // elementRemark
  /^Spare$/, // a list's spare column
  /^colour [^;·]+$/, // a colour name beside another numbering's colour number (csv.ts)
  /^(?:a part the model holds|a submodel the file names but does not hold)$/, // ldraw.ts
  /: placed by the (?:name|number)\b/, // given-colours.ts
];

/** How a BrickLink order's `DESCRIPTION` is kept after its `REMARKS` (bricklink-item.ts). */
export const DESCRIPTION_LABEL = 'Description: ';

/**
 * A line's remarks as they go back out (issue 64 §4): the document's own words without what the readers
 * noted for themselves, and the description a BrickLink order gave apart (BrickLink's `DESCRIPTION`).
 */
export function remarksToWrite(remarks: string | null): { remarks: string | null; description: string | null } {
  if (remarks === null) return { remarks: null, description: null };
  // The description is always last, and may hold anything: cut at its label first.
  const at = remarks.startsWith(DESCRIPTION_LABEL) ? 0 : remarks.lastIndexOf(`; ${DESCRIPTION_LABEL}`);
  const description = at < 0 ? null : remarks.slice(at + (at === 0 ? 0 : 2) + DESCRIPTION_LABEL.length) || null;
  const rest = at < 0 ? remarks : remarks.slice(0, at);
  const isNote = (text: string) => READER_NOTES.some((note) => note.test(text.trim()));
  // The shop's words as they are, character for character: only whole notes are taken out.
  const own = rest.split('; ').flatMap((part) => {
    const pieces = part.split(' · ');
    const kept = pieces.filter((piece) => !isNote(piece));
    if (kept.length === pieces.length) return part === '' ? [] : [part];
    return kept.length === 0 ? [] : [kept.join(' · ')];
  });
  return { remarks: own.length === 0 ? null : own.join('; '), description };
}
