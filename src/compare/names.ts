/**
 * The catalogue's names for a compare's rows: each item's name and each colour's name and swatch, read
 * with statements prepared once (a compare can name tens of thousands of rows: an export of a big
 * difference, or the screen's pages).
 */
import type { Database } from 'better-sqlite3';
import type { CompareRow } from './compare.ts';

export interface RowNames {
  readonly name: string | null;
  readonly colourName: string | null;
  readonly colourRgb: string | null;
}

export function rowNamer(db: Database): (row: CompareRow) => RowNames {
  const item = db.prepare('SELECT name FROM catalogue_item WHERE item_type = ? AND item_no = ?').pluck();
  const colour = db.prepare(
    'SELECT c.name, s.rgb FROM colour c LEFT JOIN colour_swatch s ON s.colour_id = c.id WHERE c.id = ?',
  );
  const colours = new Map<number, { name: string; rgb: string | null } | null>();
  const colourOf = (id: number) => {
    if (!colours.has(id)) colours.set(id, (colour.get(id) as { name: string; rgb: string | null } | undefined) ?? null);
    return colours.get(id) ?? null;
  };
  return (row) => {
    if (row.item === null) return { name: null, colourName: null, colourRgb: null };
    const c = row.item.colour === null ? null : colourOf(row.item.colour);
    return {
      name: (item.get(row.item.type, row.item.no) as string | undefined) ?? null,
      colourName: c?.name ?? null,
      colourRgb: c?.rgb ?? null,
    };
  };
}
