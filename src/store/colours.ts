import type { ReadableDb, StoreDb } from './db.ts';

/** The catalogue's colours (tables `colour` and `colour_swatch`): names and swatches as staff see them. */

export interface ColourInfo {
  readonly id: number;
  readonly name: string;
  /** Six hex digits, when the catalogue file gave them. */
  readonly rgb: string | null;
}

export function colourInfo(db: ReadableDb, id: number): ColourInfo | null {
  return (
    (db
      .prepare(
        'SELECT c.id, c.name, s.rgb FROM colour c LEFT JOIN colour_swatch s ON s.colour_id = c.id WHERE c.id = ?',
      )
      .get(id) as ColourInfo | undefined) ?? null
  );
}

/** The colours of `ids` the catalogue knows, each read once however often it comes (a preview's page of 500 lines has a few colours). */
export function coloursOf(db: ReadableDb, ids: Iterable<number>): Map<number, ColourInfo> {
  const out = new Map<number, ColourInfo>();
  for (const id of new Set(ids)) {
    const c = colourInfo(db, id);
    if (c !== null) out.set(id, c);
  }
  return out;
}

/** A colour's name, for messages and labels; null when the catalogue has no such colour. */
export function colourName(db: StoreDb, id: number): string | null {
  return colourInfo(db, id)?.name ?? null;
}

/** Every colour, by name: for choosing a line's colour. */
export function listColours(db: ReadableDb): ColourInfo[] {
  return db
    .prepare(
      'SELECT c.id, c.name, s.rgb FROM colour c LEFT JOIN colour_swatch s ON s.colour_id = c.id ORDER BY c.name COLLATE NOCASE, c.id',
    )
    .all() as ColourInfo[];
}
