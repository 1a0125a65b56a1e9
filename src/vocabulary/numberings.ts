/**
 * The numberings a part number can be in (SPEC §5, §6): what a catalogue row speaks (its source), and what
 * a document speaks (its format). A number means what its numbering means: the same text in two
 * numberings may be two items (BrickLink's `970c04` is not Rebrickable's `970c04`).
 */
export type Numbering = 'bricklink' | 'rebrickable' | 'ldraw';

export const NUMBERING_NAMES: Readonly<Record<Numbering, string>> = {
  bricklink: 'BrickLink',
  rebrickable: 'Rebrickable',
  ldraw: 'LDraw',
};

/** The numbering a catalogue row's source speaks: BrickLink's downloads and API, Rebrickable's downloads. */
export function numberingOfSource(source: string): Numbering | null {
  if (source === 'bricklink-api' || source.startsWith('bricklink:')) return 'bricklink';
  if (source.startsWith('rebrickable:')) return 'rebrickable';
  // Stores from before Rebrickable's files were read hold BrickLink's downloads under other names.
  return source === '' ? null : 'bricklink';
}

/**
 * The numbering a document's numbers are in, by its format (SPEC §6): BrickLink's for orders, wanted lists,
 * BrickStore files and lists whose number column says so (Studio's); Rebrickable's for its part lists;
 * LDraw's for models. Null where the document does not say (a CSV list of no known shape, a format this
 * build does not know): its numbers are read as the catalogue's first, then in any numbering.
 */
export function numberingOfFormat(format: string): Numbering | null {
  switch (format) {
    case 'bricklink-order':
    case 'bricklink-order-csv':
    case 'bricklink-xml':
    case 'brickstore':
    case 'brickstock':
    case 'bricklink-csv':
      return 'bricklink';
    case 'rebrickable-csv':
      return 'rebrickable';
    case 'ldraw-model':
    case 'studio-model':
      return 'ldraw';
    default:
      return null;
  }
}
