import type { StoreDb } from '../store/db.ts';
import { suggestionGeneration } from '../store/memories.ts';
import { catalogueGeneration } from '../store/settings.ts';
import { PreparedCatalogue, SuggestIndex, type IndexedItem, type Suggestion } from './index.ts';
import { colourLookupsOf, type ColourLookups } from '../placement/element-colour.ts';
import { partColours } from './part-colours.ts';
import { catalogueItemsNamed, colourTables, elementTuples, taughtNames } from '../store/suggest-index.ts';
import { foldNumber } from './words.ts';

export const DEFAULT_SUGGESTION_LIMIT = 20;

const cache = new WeakMap<StoreDb, { generation: string; index: SuggestIndex }>();
/** The costly part, per catalogue generation: a new taught name rebuilds the index from it in milliseconds. */
const prepared = new WeakMap<StoreDb, { generation: number; catalogue: PreparedCatalogue }>();

/**
 * The suggestion index of this connection's catalogue (and the names staff taught), rebuilt when they
 * have moved (`suggestionGeneration`: every writer of `catalogue_item` bumps the catalogue generation in
 * the same transaction, whatever the process; taught names are counted).
 */
export function catalogueIndex(db: StoreDb): SuggestIndex {
  const generation = suggestionGeneration(db);
  const cached = cache.get(db);
  if (cached && cached.generation === generation) return cached.index;
  const built = buildCatalogueIndex(db);
  cache.set(db, built);
  return built.index;
}

/** Builds the index of the catalogue as it is now, with the generation it was read at (one read transaction). */
export function buildCatalogueIndex(db: StoreDb): { generation: string; index: SuggestIndex } {
  const read = db.transaction(() => {
    const catalogue = catalogueGeneration(db);
    const kept = prepared.get(db);
    return {
      generation: suggestionGeneration(db),
      catalogue,
      items: kept?.generation === catalogue ? null : catalogueItems(db),
      taught: taughtNames(db),
    };
  });
  const { generation, catalogue, items, taught } = read();
  if (items !== null) prepared.set(db, { generation: catalogue, catalogue: new PreparedCatalogue(items) });
  const base = prepared.get(db)?.catalogue ?? new PreparedCatalogue([]);
  return { generation, index: new SuggestIndex(base, taught) };
}

/**
 * The catalogue's items for the index, each part with what the element tables say of it: how many
 * colours LEGO makes it in (`commonness.ts`: counted per numbering, BrickLink names colours and
 * Rebrickable numbers them, the most either gives) and which of the catalogue's colours
 * (`made-in.ts`, through the colour tables). Read in the caller's transaction.
 */
function catalogueItems(db: StoreDb): IndexedItem[] {
  const items = catalogueItemsNamed(db);
  const rows = elementTuples(db);
  if (rows.length === 0) return items;
  const parts = partColours(rows, colourLookups(db));
  return items.map((it) => {
    if (it.type !== 'P') return it;
    const part = parts.get(foldNumber(it.no));
    if (part === undefined) return { ...it, colours: 0 };
    return { ...it, colours: part.colours, ...(part.madeIn.length > 0 ? { madeIn: part.madeIn } : {}) };
  });
}

/** The colour tables, read whole, as `elementColourId` reads an element's colour. */
function colourLookups(db: StoreDb): ColourLookups {
  const { colours, translations } = colourTables(db);
  return colourLookupsOf(colours, translations);
}

/**
 * Suggestions for what a line gives (SPEC §7): by its name when it has one, else by its number (order
 * XML has no names).
 */
export function suggestFor(
  db: StoreDb,
  given: { name: string | null; no: string | null; colour?: number | null },
  limit = DEFAULT_SUGGESTION_LIMIT,
): Suggestion[] {
  return suggestIn(catalogueIndex(db), given, limit);
}

/** As `suggestFor`, from an index already built (the app's suggestion thread keeps one). */
export function suggestIn(
  index: SuggestIndex,
  given: { name: string | null; no: string | null; colour?: number | null },
  limit = DEFAULT_SUGGESTION_LIMIT,
): Suggestion[] {
  if (given.name?.trim()) return index.byName(given.name, limit, given.colour ?? null);
  if (given.no?.trim()) return index.byNumberPrefix(given.no, limit);
  return [];
}
