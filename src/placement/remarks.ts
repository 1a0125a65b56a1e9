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
