/** Why a line is unplaced: shown to staff exactly as written (SPEC §6), in the order the rule tests them. */
export const UNPLACED_REASONS = {
  noNumberNorName: 'The line has neither a BrickLink number nor a name',
  typeNotKnown: 'The item type is not known',
  nameSeveral: 'The name matches several items',
  /** The line gave a LEGO element id (as its number, or beside it) that no table places. */
  elementNotKnown: 'The element id is not known',
  numberNotInCatalogue: 'The BrickLink number is not in the catalogue',
  /** The same, for a document that speaks Rebrickable's numbers (SPEC §6: the words name its numbering). */
  rebrickableNumberNotInCatalogue: 'The Rebrickable number is not in the catalogue',
  /** …and LDraw's (a model). */
  ldrawNumberNotInCatalogue: 'The LDraw number is not in the catalogue',
  /**
   * The line gave an element id beside its number, and the two are different items or colours that the
   * tables can't settle (SPEC §6 step 3).
   */
  elementConflict: 'The element id and the number disagree',
  /** A hand placement remembered in another colour is for an item the element tables don't make in this one (SPEC §6 step 2). */
  rememberedNotInColour: 'The remembered item is not made in this colour',
  nameNotInCatalogue: 'The name is not in the catalogue',
  colourNotInCatalogue: 'The colour is not in the catalogue',
  /** A LEGO element id (as its number) is a part in one colour, and the line gives another (SPEC §6 step 3). */
  colourNotTheElements: "The colour is not the element's",
} as const;

export type UnplacedReason = (typeof UNPLACED_REASONS)[keyof typeof UNPLACED_REASONS];

/**
 * The one table from a reason's text (as `order_line.unplaced_reason` keeps it) to its stable code:
 * screens and scripts decide by the code, never by the words (SPEC §6).
 */
export const REASON_CODES = {
  [UNPLACED_REASONS.noNumberNorName]: 'no-number-or-name',
  [UNPLACED_REASONS.typeNotKnown]: 'unknown-item-type',
  [UNPLACED_REASONS.nameSeveral]: 'name-matches-several',
  [UNPLACED_REASONS.elementNotKnown]: 'element-not-known',
  [UNPLACED_REASONS.numberNotInCatalogue]: 'number-not-in-catalogue',
  [UNPLACED_REASONS.rebrickableNumberNotInCatalogue]: 'number-not-in-catalogue',
  [UNPLACED_REASONS.ldrawNumberNotInCatalogue]: 'number-not-in-catalogue',
  [UNPLACED_REASONS.elementConflict]: 'element-conflict',
  [UNPLACED_REASONS.rememberedNotInColour]: 'remembered-not-in-colour',
  [UNPLACED_REASONS.nameNotInCatalogue]: 'name-not-in-catalogue',
  [UNPLACED_REASONS.colourNotInCatalogue]: 'colour-not-in-catalogue',
  [UNPLACED_REASONS.colourNotTheElements]: 'colour-not-the-elements',
} as const satisfies Record<UnplacedReason, string>;

/**
 * The reasons of a line whose item is found and whose colour keeps it unplaced (SPEC §9): staff choose a
 * colour, the item stays.
 */
export const FOR_ITS_COLOUR: ReadonlySet<ReasonCode> = new Set(['colour-not-in-catalogue', 'colour-not-the-elements']);

/** `other`: a text this build does not know (never written by it; kept for what a future build may store). */
export type ReasonCode = (typeof REASON_CODES)[UnplacedReason] | 'other';

export interface Reason {
  readonly code: ReasonCode;
  readonly text: string;
}

export function reasonOf(text: string | null): Reason | null {
  if (text === null) return null;
  return { code: Object.hasOwn(REASON_CODES, text) ? REASON_CODES[text as UnplacedReason] : 'other', text };
}
