/** The exports of an order and what they leave out (SPEC §8 Exports), named once for every side. */

/** Where an export goes: BrickLink (its XML) or Rebrickable (its part-list CSV). */
export const EXPORT_TARGETS = ['bricklink', 'rebrickable'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

/** The acknowledgement that lets an export leave out the lines its target does not number. */
export const NO_NUMBER_CODES = { bricklink: 'no-bricklink-number', rebrickable: 'no-rebrickable-number' } as const;
export const EXPORT_ACKNOWLEDGEMENTS = ['no-bricklink-number', 'no-rebrickable-number'] as const;
export type ExportAcknowledgement = (typeof EXPORT_ACKNOWLEDGEMENTS)[number];

/** Why a saved line is not in an export. */
export const LEFT_OUT_REASONS = [
  'unplaced',
  'no-number',
  'no-colour-number',
  'not-a-part',
  /** A lot of 0 pieces in BrickLink's XML: BrickLink takes no lot of none (issue 64 §4). */
  'no-quantity',
  /** A put-away line into a stock lot that has no BrickLink lot id: a Mass Update names lots by it (issue 65 §3). */
  'no-lot-id',
] as const;
export type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];

/** Reasons the export needs acknowledged before it leaves the line out: its target does not number it. */
export function needsAcknowledging(reason: LeftOutReason): boolean {
  return reason === 'no-number' || reason === 'no-colour-number';
}

/** A saved line (or a compare's lot) an export leaves out, and why. */
export interface LeftOutLine {
  /** The line's id; null for a compare's lot. */
  readonly line: number | null;
  /** Where it is: `document key #position`, or a compare's side. */
  readonly where: string;
  /** What it is, as staff read it: `P 3794b Plate 1 x 2 with Jumper (White)`. */
  readonly what: string;
  readonly quantity: number;
  readonly reason: LeftOutReason;
  readonly text: string;
}

/**
 * A row an export writes under a number that names more than one catalogue item in its target's
 * numbering (BrickLink's 3048c is both of Rebrickable's 3048b and 3048c): never written without saying
 * which item it is.
 */
export interface SharedNumberLine {
  /** The line's id; null for a compare's lot. */
  readonly line: number | null;
  /** Where it is: `document key #position`, or a compare's side. */
  readonly where: string;
  /** The number written. */
  readonly no: string;
  readonly quantity: number;
  /** The catalogue item it is: `Rebrickable 3048b`. */
  readonly item: string;
  /** The other catalogue items the number names: `Rebrickable 3048c`. */
  readonly others: readonly string[];
}
