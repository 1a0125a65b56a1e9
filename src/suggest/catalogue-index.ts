import type { Database } from 'better-sqlite3';
import type { ItemType } from '../catalogue/item-types.ts';
import { catalogueGeneration } from '../store/settings.ts';
import { SuggestIndex, type Suggestion } from './index.ts';

export const DEFAULT_SUGGESTION_LIMIT = 20;

const cache = new WeakMap<Database, { generation: number; index: SuggestIndex }>();

/**
 * The suggestion index of this connection's catalogue, rebuilt when the catalogue generation has
 * moved (every writer of `catalogue_item` bumps it in the same transaction, whatever the process).
 */
export function catalogueIndex(db: Database): SuggestIndex {
  const generation = catalogueGeneration(db);
  const cached = cache.get(db);
  if (cached && cached.generation === generation) return cached.index;
  const built = buildCatalogueIndex(db);
  cache.set(db, built);
  return built.index;
}

/** Builds the index of the catalogue as it is now, with the generation it was read at (one read transaction). */
export function buildCatalogueIndex(db: Database): { generation: number; index: SuggestIndex } {
  const read = db.transaction(() => ({
    generation: catalogueGeneration(db),
    items: db.prepare('SELECT item_type AS type, item_no AS no, name FROM catalogue_item').all() as { type: ItemType; no: string; name: string }[],
  }));
  const { generation, items } = read();
  return { generation, index: new SuggestIndex(items) };
}

/**
 * Suggestions for what a line gives (SPEC §7): by its name when it has one, else by its number (order
 * XML has no names).
 */
export function suggestFor(db: Database, given: { name: string | null; no: string | null }, limit = DEFAULT_SUGGESTION_LIMIT): Suggestion[] {
  return suggestIn(catalogueIndex(db), given, limit);
}

/** As `suggestFor`, from an index already built (the app's suggestion thread keeps one). */
export function suggestIn(index: SuggestIndex, given: { name: string | null; no: string | null }, limit = DEFAULT_SUGGESTION_LIMIT): Suggestion[] {
  if (given.name?.trim()) return index.byName(given.name, limit);
  if (given.no?.trim()) return index.byNumberPrefix(given.no, limit);
  return [];
}
