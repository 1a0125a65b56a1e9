/**
 * The catalogue's names for a compare's rows: each item's name and each colour's name and swatch, the
 * items of a page or an export in one statement (a compare can name tens of thousands of rows: an export
 * of a big difference; the screen names only the rows it shows).
 */
import type { ReadableDb } from '../store/db.ts';
import { catalogueItemName, itemKey, itemNames } from '../store/catalogue.ts';
import { colourNameReader } from '../store/compare-names.ts';
import type { CompareRow } from './compare.ts';

export interface RowNames {
  readonly name: string | null;
  readonly colourName: string | null;
  readonly colourRgb: string | null;
}

/**
 * Names for `rows` (the rows about to be shown or exported): their items' names read in one statement,
 * their colours' once each. Asked for another row, it reads that one's name alone. `known`: names read
 * before (the service's, while the catalogue's generation holds), asked no more and added to.
 */
export function rowNamer(
  db: ReadableDb,
  rows: readonly CompareRow[],
  known: Map<string, string | null> = new Map(),
): (row: CompareRow) => RowNames {
  const names = known;
  const asked = rows.flatMap((r) => (r.item === null || names.has(itemKey(r.item.type, r.item.no)) ? [] : [r.item]));
  // The catalogue has no name for an item it lacks: remembered as none, not asked again.
  for (const i of asked) names.set(itemKey(i.type, i.no), null);
  for (const [key, name] of itemNames(db, asked)) names.set(key, name);
  const colour = colourNameReader(db);
  const colours = new Map<number, { name: string; rgb: string | null } | null>();
  const colourOf = (id: number) => {
    if (!colours.has(id)) colours.set(id, colour(id));
    return colours.get(id) ?? null;
  };
  return (row) => {
    if (row.item === null) return { name: null, colourName: null, colourRgb: null };
    const c = row.item.colour === null ? null : colourOf(row.item.colour);
    const key = itemKey(row.item.type, row.item.no);
    if (!names.has(key)) names.set(key, catalogueItemName(db, row.item.type, row.item.no));
    return { name: names.get(key) ?? null, colourName: c?.name ?? null, colourRgb: c?.rgb ?? null };
  };
}
