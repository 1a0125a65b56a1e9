/**
 * What an import's reader tells staff it assumed (SPEC §8), declared once for the core, the contract,
 * the argument checks, the CLI and the screens: the colour numberings a list's colour numbers may be in,
 * and the codes of the warnings a preview can carry, which an import must acknowledge.
 */
export const COLOUR_NUMBERINGS = ['bricklink', 'rebrickable', 'ldraw'] as const;
export type ColourNumbering = (typeof COLOUR_NUMBERINGS)[number];

/** Each numbering as staff call it, in "read as … colour numbers". */
export const COLOUR_NUMBERING_NAMES: Readonly<Record<ColourNumbering, string>> = {
  bricklink: 'BrickLink',
  rebrickable: 'Rebrickable',
  ldraw: 'LDraw',
};

/**
 * How the reader knows the numbering of a document's colour numbers: its format says so (BrickLink XML,
 * BrickStore), a column's title does (`BLColorId`, `LDraw Color`), the list's shape does (Rebrickable's
 * `Part,Color,Quantity`), staff chose it, the lines' colour names bear out one numbering clearly
 * (`names`), or it guessed (a bare `Color` column of numbers: a warning).
 */
export type ColourNumberingHow = 'format' | 'title' | 'shape' | 'chosen' | 'names' | 'guessed';

export const WARNING_CODES = [
  'no-quantity-column',
  'colour-numbering-guessed',
  'colour-number-and-name-disagree',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export function isWarningCode(code: string): code is WarningCode {
  return (WARNING_CODES as readonly string[]).includes(code);
}

export function isColourNumbering(value: string): value is ColourNumbering {
  return (COLOUR_NUMBERINGS as readonly string[]).includes(value);
}
