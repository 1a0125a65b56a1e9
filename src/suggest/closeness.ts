import { pulled } from './commonness.ts';
import { bothPulls, isMadeIn, MADE_IN_COLOUR_PULL } from './made-in.ts';
import type { Query } from './query.ts';
import type { QueryScratch } from './scratch.ts';
import type { IndexTables } from './tables.ts';

/** What each common word (`with`, `print`) a name has beyond the line's costs its closeness, as a share of the line's mean word weight. */
export const COMMON_EXTRA = 1;

/**
 * How close entry `e` is to the query, 0…1: the weight of the query's tokens it has (each by its best
 * route), over the query's weight plus a fixed cost for each token of its own that the query lacks —
 * a rare extra word ("with Groove") is no farther than a common one; 0 when their sizes disagree. A
 * part made in many colours is then pulled a little closer (`commonness.ts`).
 */
export function closenessOf(tables: IndexTables, scratch: QueryScratch, e: number, query: Query): number {
  score(tables, scratch, e, query);
  return scratch.scored[0] as number;
}

/**
 * `closenessOf`, left in `scratch.scored[0]`: the hot loops call this, as a double returned from a call
 * that is not inlined is boxed — thousands of allocations a query.
 */
export function score(tables: IndexTables, scratch: QueryScratch, e: number, query: Query): void {
  const scored = scratch.scored;
  // Each walk of a query meets the same entries again: each is counted once a query.
  const marks = scratch.marks;
  if (marks[4 * e + 1] === query.no) {
    scored[0] = marks[4 * e + 2] as number;
    return;
  }
  marks[4 * e + 1] = query.no;
  marks[4 * e + 2] = 0;
  scored[0] = 0;
  const routeQ = scratch.routeQ;
  const routeW = scratch.routeW;
  const matchQ = scratch.matchQ;
  const matchW = scratch.matchW;
  let matched = 0;
  let s = 0;
  let sizeAgrees = false;
  const end = tables.tokenStart[e + 1] as number;
  for (let p = tables.tokenStart[e] as number; p < end; p++) {
    const id = tables.entryTokens[p] as number;
    const q = routeQ[id] as number;
    if (q === -1) continue;
    const w = routeW[id] as number;
    if (scratch.routeSize[id] === 1) sizeAgrees = true;
    let m = 0;
    while (m < matched && matchQ[m] !== q) m++;
    if (m === matched) {
      matchQ[matched++] = q;
      matchW[m] = w;
      s += w;
    } else if (w > (matchW[m] as number)) {
      s += w - (matchW[m] as number);
      matchW[m] = w;
    }
  }
  if (s === 0) return;
  // Sizes must agree when both names have one: the query's size routes reach exactly the sizes that agree.
  if (query.sizes.length > 0 && tables.hasSize[e] === 1 && !sizeAgrees) return;
  const extra =
    Math.max(0, (tables.entryCounted[e] as number) - matched) +
    COMMON_EXTRA * Math.max(0, (tables.entryCommon[e] as number) - query.common);
  scored[0] = pulled(s / (query.total + query.extraCost * extra), pullOf(tables, tables.entryItem[e] as number, query));
  marks[4 * e + 2] = scored[0] as number;
}

/** How far item `i` is pulled towards the query: for being common, and for being made in the line's colour. */
export function pullOf(tables: IndexTables, i: number, query: Query): number {
  const pull = tables.pull[i] as number;
  return query.madeIn !== null && isMadeIn(query.madeIn, i) ? bothPulls(pull, MADE_IN_COLOUR_PULL) : pull;
}
