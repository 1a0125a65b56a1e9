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
  const items = db.prepare('SELECT item_type AS type, item_no AS no, name FROM catalogue_item').all() as {
    type: ItemType;
    no: string;
    name: string;
  }[];
  const index = new SuggestIndex(items);
  cache.set(db, { generation, index });
  return index;
}

/**
 * Suggestions for what a line gives (SPEC §7): by its name when it has one, else by its number (order
 * XML has no names).
 */
export function suggestFor(db: Database, given: { name: string | null; no: string | null }, limit = DEFAULT_SUGGESTION_LIMIT): Suggestion[] {
  const index = catalogueIndex(db);
  if (given.name?.trim()) return index.byName(given.name, limit);
  if (given.no?.trim()) return index.byNumberPrefix(given.no, limit);
  return [];
}
