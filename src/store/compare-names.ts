/** The colours' names and swatches a compare's rows are shown with (`src/compare/names.ts`). */
import type { ReadableDb } from './db.ts';

/** Reads a colour's name and swatch by id (null: no such colour); the statement prepared once for all the rows. */
export function colourNameReader(db: ReadableDb): (id: number) => { name: string; rgb: string | null } | null {
  const colour = db.prepare(
    'SELECT c.name, s.rgb FROM colour c LEFT JOIN colour_swatch s ON s.colour_id = c.id WHERE c.id = ?',
  );
  return (id) => (colour.get(id) as { name: string; rgb: string | null } | undefined) ?? null;
}
