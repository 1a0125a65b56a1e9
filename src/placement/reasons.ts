/** Why a line is unplaced: shown to staff exactly as written (SPEC §6), in the order the rule tests them. */
export const UNPLACED_REASONS = {
  noNumberNorName: 'The line has neither a BrickLink number nor a name',
  typeNotKnown: 'The item type is not known',
  nameSeveral: 'The name matches several items',
  numberNotInCatalogue: 'The BrickLink number is not in the catalogue',
  nameNotInCatalogue: 'The name is not in the catalogue',
  colourNotInCatalogue: 'The colour is not in the catalogue',
} as const;

export type UnplacedReason = (typeof UNPLACED_REASONS)[keyof typeof UNPLACED_REASONS];
