/**
 * A list on paper (SPEC §16): a pick list, or a put-away list, as rows in walking order with a box to
 * tick, the location large and the picture where chosen. One shape for both writers (HTML for Electron's
 * printing and the CLI, PDF for the CLI), so what is printed is decided once.
 */

export type Paper = 'a4' | 'letter';
export type Orientation = 'portrait' | 'landscape';

export const PAPERS: readonly Paper[] = ['a4', 'letter'];
export const ORIENTATIONS: readonly Orientation[] = ['portrait', 'landscape'];

/** How the list is laid on paper. */
export interface PrintLayout {
  readonly paper: Paper;
  readonly orientation: Orientation;
  /** Each row's picture beside it (a list without them is shorter and prints faster). */
  readonly pictures: boolean;
}

export const DEFAULT_LAYOUT: PrintLayout = { paper: 'a4', orientation: 'portrait', pictures: true };

/** A paper's width and height in PostScript points, portrait (ISO 216's A4; US Letter). */
export const PAPER_POINTS: Readonly<Record<Paper, readonly [number, number]>> = {
  a4: [595.28, 841.89],
  letter: [612, 792],
};

/** The page's width and height in points, as the layout turns it. */
export function pageSize(layout: Pick<PrintLayout, 'paper' | 'orientation'>): readonly [number, number] {
  const [w, h] = PAPER_POINTS[layout.paper];
  return layout.orientation === 'portrait' ? [w, h] : [h, w];
}

/** One row of the walk: where, what, how many. */
export interface PrintRow {
  /** As the stock gives it; null: the lot has none (said on the row). */
  readonly location: string | null;
  /** The item as the shop numbers it, with its type: "P 3001". */
  readonly item: string;
  readonly name: string | null;
  readonly colour: string | null;
  /** Pieces to take (or to put away). */
  readonly quantity: number;
  /** What is short, or where the lot goes: a few words; null: nothing to say. */
  readonly note: string | null;
  /** The item's picture in its colour (PNG), where one is at hand. */
  readonly picture: Uint8Array | null;
}

/** Lines that are no part of the walk (unplaced, none in stock), listed after it in words. */
export interface PrintApart {
  readonly heading: string;
  readonly lines: readonly string[];
}

export interface PrintableList {
  /** "Pick list: order 28632481". */
  readonly title: string;
  /** What the list is of, and the stock it was made from. */
  readonly subtitle: string;
  /** The quantity column's heading ("Take", "Put away"). */
  readonly quantityHeading: string;
  readonly rows: readonly PrintRow[];
  readonly apart: readonly PrintApart[];
}

/** What a row says of its item in one line of text: "P 3001 Brick 2 x 4". */
export function rowWhat(row: PrintRow): string {
  return row.name === null ? row.item : `${row.item} ${row.name}`;
}

/** A row's location as printed: as given, or said missing. */
export function rowWhere(row: PrintRow): string {
  return row.location ?? '(no location)';
}
