import { pulled, unpulled } from './commonness.ts';
import { COMMON_EXTRA, pullOf, score } from './closeness.ts';
import type { Query } from './query.ts';
import type { QueryScratch } from './scratch.ts';
import type { IndexTables } from './tables.ts';
import { nextMark, TopEntries } from './top-k.ts';

/**
 * Entries a walk passes over: those whose key position is inside the prefix group byKey[from, to)
 * (`inside`), or those outside it. A range, not a callback: the walk's inner loop stays one function.
 */
export interface SkipRange {
  readonly from: number;
  readonly to: number;
  readonly inside: boolean;
}

/** A prefix group bigger than this is searched through the postings (`closestIn`), not entry by entry. */
const WALK_GROUPS_OVER = 256;

/**
 * A walk starts no further posting list once it has counted this many entries and filled its places: a
 * long name of common words (a minifig's clothes) would otherwise count a sixth of the catalogue for
 * names that are all far. The lists are heaviest first, so what is left unread is the commonest words;
 * on the development sets it changes 9 of 1,937 answers and no hit (bench/quality.bench.ts).
 */
const WALK_BUDGET = 3000;

/** The `limit` closest entries of `entries` whose items are not taken yet, one entry per item; ties: shorter name, then number. */
export function closest(
  tables: IndexTables,
  scratch: QueryScratch,
  entries: ArrayLike<number>,
  limit: number,
  query: Query,
  taken: ReadonlySet<number>,
): number[] {
  const top = new TopEntries(limit, taken, tables.entryItem, tables.multiEntry, scratch.scored);
  for (let p = 0; p < entries.length; p++) {
    const e = entries[p] as number;
    score(tables, scratch, e, query);
    top.offer(e, tables.nameRank[e] as number);
  }
  return top.entries;
}

/**
 * The `limit` closest entries of the prefix group byKey[from, to). A big group (`Minifig …` has 6,000)
 * is not scored entry by entry: its closest share a weighty token with the query, so the walk of the
 * postings finds them — unless fewer than `limit` do, and then the rest are as far as can be (0), and
 * the group is scored whole after all.
 */
export function closestIn(
  tables: IndexTables,
  scratch: QueryScratch,
  from: number,
  to: number,
  limit: number,
  query: Query,
  taken: ReadonlySet<number>,
): number[] {
  if (to - from > WALK_GROUPS_OVER) {
    const found = closestReached(tables, scratch, limit, query, taken, { from, to, inside: false });
    if (found.length === limit) return found;
  }
  return closest(tables, scratch, tables.byKey.subarray(from, to), limit, query, taken);
}

/**
 * The `limit` closest entries that share a token with the query (by any route) and are not skipped,
 * not taken and not 0. The postings are walked heaviest token first (MaxScore): once the tokens left
 * could not lift an entry they alone reach above the last place, their long lists of common words
 * are left unread.
 */
export function closestReached(
  tables: IndexTables,
  scratch: QueryScratch,
  limit: number,
  query: Query,
  taken: ReadonlySet<number>,
  skip: SkipRange | null = null,
  atLeast = 0,
): number[] {
  const top = new TopEntries(limit, taken, tables.entryItem, tables.multiEntry, scratch.scored);
  const walk = (scratch.walk = nextMark(scratch.walk, scratch.marks));
  const marks = scratch.marks;
  const keyPosition = tables.keyPosition;
  let counted = 0;
  // The closeness an entry must have before its pull to reach the last place (or `atLeast`) after it,
  // for the most common part: kept while the last place stays.
  let needFor = -1;
  let needAny = 0;
  for (let j = 0; j < query.lists.length; j++) {
    // The most an entry first reached here can be: all the lists left, and the most common part's pull.
    const most = pulled((query.rest[j] as number) / query.total, query.maxPull);
    if (most < atLeast || (top.full && most < top.worst)) break;
    if (counted > WALK_BUDGET && top.full) break;
    const id = query.lists.ids[j] as number;
    const end = tables.postStart[id + 1] as number;
    const rest = query.rest[j] as number;
    const left = query.left[j] as number;
    for (let p = tables.postStart[id] as number; p < end; p++) {
      const e = tables.tokenPostings[p] as number;
      if (marks[4 * e] === walk) continue;
      marks[4 * e] = walk;
      if (skip !== null) {
        const at = keyPosition[e] as number;
        if ((at >= skip.from && at < skip.to) === skip.inside) continue;
      }
      if (marks[4 * e + 1] !== query.no) {
        // Not counted yet: first what it could weigh at most, with the words of its own that the
        // query's tokens left could not match (one read, where counting reads all its tokens).
        const need = Math.max(atLeast, top.full ? top.worst : 0);
        if (need !== needFor) {
          needFor = need;
          needAny = unpulled(need, query.maxPull);
        }
        const extra =
          Math.max(0, (tables.entryCounted[e] as number) - left) +
          COMMON_EXTRA * Math.max(0, (tables.entryCommon[e] as number) - query.common);
        // (With room for rounding: `rest` sums the weights in another order than the count does.)
        const most = rest * (1 + 1e-9);
        const room = query.total + query.extraCost * extra;
        // Out of reach even pulled as far as any part is (one multiplication: this loop reads
        // thousands of entries a query); then, for one that is not, pulled as far as it is.
        if (most < needAny * room) continue;
        const pull = pullOf(tables, tables.entryItem[e] as number, query);
        if (pull < query.maxPull && most < unpulled(need, pull) * room) continue;
      }
      counted += 1;
      score(tables, scratch, e, query);
      const c = scratch.scored[0] as number;
      if (c > 0 && c >= atLeast) top.offer(e, tables.nameRank[e] as number);
    }
  }
  return top.entries;
}
