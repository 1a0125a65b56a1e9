import { bothPulls, MADE_IN_COLOUR_PULL } from './made-in.ts';
import { closenessTokens, dimensionsOf, nameTokens, sizeRelation, wordForm } from './tokens.ts';
import type { PostingLists, Query, Route } from './query.ts';
import type { QueryScratch, TokenRoutes } from './scratch.ts';
import { distinct, push } from './sorted-arrays.ts';
import { df, type IndexTables } from './tables.ts';
import { nextMark } from './top-k.ts';
import { forEachOneEditAway } from './typos.ts';

/** What each word of a name that the line's name lacks costs its closeness, as a share of the line's mean word weight. */
const EXTRA_WORD_COST = 0.35;

/** What a size that agrees with the line's, but is not the same token, weighs (of the lesser of the two tokens' weights). */
const SIZE_WEIGHT = { same: 0.9, near: 0.75, part: 0.5 } as const;

/** How many query sizes' agreeing sizes are kept (`agreeingSizes`). */
const AGREEING_KEPT = 1024;

/** A query's posting lists, gathered token by token in the order met, before they are laid out heaviest first. */
interface ListsMet {
  readonly ids: number[];
  readonly weights: number[];
  /** The query token each list stands for. */
  readonly qs: number[];
}

/**
 * The query of rule 3 for `name`: each of its tokens with the catalogue's tokens that stand for it
 * (itself, renamed words, agreeing sizes, typo corrections, the words an abbreviation begins) and what
 * each weighs for it, laid out in the scratch's route arrays for `closeness.ts` (cleared by `clearRoutes`).
 */
export function queryFor(tables: IndexTables, scratch: QueryScratch, name: string, colour: number | null): Query {
  const t = nameTokens(name);
  const given = closenessTokens(t);
  // Rule 2 needs every token of the name as it is.
  const ids = given.map((tok) => tables.tokenIds.get(tok) ?? -1);
  // A word no name has may be two that names have, run together ("Axlehole", "Pinhole").
  const tokens = distinct(given.flatMap((tok) => (tables.tokenIds.has(tok) ? [tok] : (split(tables, tok) ?? [tok]))));
  let total = 0;
  const routes: Route[] = [];
  const routed: number[] = [];
  const routesOf = new Map<number, number[]>();
  // The dimensions of the name's sizes are tokens too (closenessTokens): each of them, and the size it is of.
  const dimensionOf = new Map<string, number>();
  for (const size of t.sizes) {
    const at = tokens.indexOf(`#${size}`);
    if (at >= 0) for (const d of size.split('x')) if (!dimensionOf.has(d)) dimensionOf.set(d, at);
  }
  // Each token's routes are gathered in the scratch's via arrays (reused, not made per token), then
  // laid out as posting lists: a query made thousands of small objects, and the collector paused for them.
  const via = scratch.via;
  const met: ListsMet = { ids: [], weights: [], qs: [] };
  for (let q = 0; q < tokens.length; q++) {
    const tok = tokens[q] as string;
    const own = tables.tokenIds.get(tok);
    // A token no name has still weighs as the rarest: the names lack it.
    const ownIdf = own === undefined ? Math.log(tables.entryName.length + 1) : (tables.tokenIdf[own] as number);
    total += ownIdf;
    const isSize = tok.startsWith('#');
    gatherRoutes(tables, scratch, via, tok, own, ownIdf);
    for (let k = 0; k < via.length; k++) {
      const id = via.ids[k] as number;
      const weight = via.weights[k] as number;
      push(routesOf, id, q);
      // Words that weigh nothing are never walked (`with` has 36,000 names). A catalogue token that
      // stands for two of the query's tokens counts for the one it weighs more for: one word, one match.
      if (weight <= 0) continue;
      met.ids.push(id);
      met.weights.push(weight);
      met.qs.push(q);
      const before = scratch.routeQ[id] as number;
      if (before === -1) routed.push(id);
      else if ((scratch.routeW[id] as number) >= weight) continue;
      scratch.routeQ[id] = q;
      scratch.routeW[id] = weight;
      scratch.routeSize[id] = isSize ? 1 : 0;
    }
    const size = dimensionOf.get(tok);
    routes.push(
      size === undefined ? { token: tok, weight: ownIdf } : { token: tok, weight: ownIdf, dimensionOf: size },
    );
  }
  const weighed = tokens.filter((tok) => (tables.tokenIdf[tables.tokenIds.get(tok) ?? -1] ?? 1) > 0).length;
  const extraCost = EXTRA_WORD_COST * (weighed > 0 ? total / weighed : 1);
  const common = tokens.filter((tok) => tables.tokenIdf[tables.tokenIds.get(tok) ?? -1] === 0).length;
  const { lists, rest, left } = heaviestFirst(met, routes.length);
  const no = (scratch.queries = nextMark(scratch.queries, scratch.marks));
  const madeIn = colour === null ? null : (tables.madeIn.get(colour) ?? null);
  return {
    no,
    total,
    ids,
    sizes: t.sizes,
    routes,
    routesOf,
    routed,
    extraCost,
    common,
    lists,
    rest,
    left,
    hit: new Uint8Array(routes.length),
    madeIn,
    maxPull: madeIn === null ? tables.maxPull : bothPulls(tables.maxPull, MADE_IN_COLOUR_PULL),
  };
}

/** Clears the route arrays `queryFor` set for `query`, for the next query. */
export function clearRoutes(scratch: QueryScratch, query: Query): void {
  for (const id of query.routed) scratch.routeQ[id] = -1;
}

/**
 * The catalogue tokens that stand for query token `tok` (its id `own`, weighing `ownIdf`), and what
 * each weighs for it, into `via` (cleared first).
 */
function gatherRoutes(
  tables: IndexTables,
  scratch: QueryScratch,
  via: TokenRoutes,
  tok: string,
  own: number | undefined,
  ownIdf: number,
): void {
  via.clear();
  if (own !== undefined) via.add(own, ownIdf);
  for (const eq of tables.equivalents.get(tok) ?? [])
    via.add(eq.to, eq.weight * Math.min(tables.tokenIdf[eq.to] as number, ownIdf));
  // A size reaches the sizes that agree with it: the same dimensions in another order, nearly the
  // same, or one part of the other; each weighs less the looser it agrees.
  if (tok.startsWith('#')) {
    const agree = agreeingSizes(tables, scratch, tok, own);
    for (let k = 0; k < agree.ids.length; k++) {
      const id = agree.ids[k] as number;
      via.add(id, (agree.shares[k] as number) * Math.min(ownIdf, tables.tokenIdf[id] as number));
    }
  }
  // A small typo (one letter added, left out, changed, or two swapped) of a word the names have.
  if (own === undefined && tok.length >= 5 && !/[\d#]/.test(tok)) {
    forEachOneEditAway(tok, (near) => {
      const id = tables.tokenIds.get(near);
      if (id !== undefined && !via.has(id)) via.add(id, 0.8 * (tables.tokenIdf[id] as number));
    });
  }
  // An abbreviation ("Fric.", "Conn.") of words the names have: the words it begins.
  if (own === undefined && tok.length >= 3 && /^\p{L}+$/u.test(tok)) {
    for (const id of tokensBeginning(tables, tok, 8))
      if (!via.has(id)) via.add(id, 0.7 * Math.min(tables.tokenIdf[id] as number, ownIdf));
  }
}

/**
 * The lists heaviest first (equal weights in the order they were met), and for walking them: what an
 * entry that lists[j…] reach first can weigh at most (for each of the `tokens` query tokens, the most
 * any of its lists from the j-th on gives), and how many query tokens those lists stand for.
 */
function heaviestFirst(
  met: ListsMet,
  tokens: number,
): { readonly lists: PostingLists; readonly rest: Float64Array; readonly left: Int32Array } {
  const order = Array.from(met.ids.keys()).sort(
    (a, b) => (met.weights[b] as number) - (met.weights[a] as number) || a - b,
  );
  const n = order.length;
  const lists: PostingLists = {
    length: n,
    ids: Int32Array.from(order, (k) => met.ids[k] as number),
    weights: Float64Array.from(order, (k) => met.weights[k] as number),
  };
  const rest = new Float64Array(n + 1);
  const left = new Int32Array(n + 1);
  const most = new Float64Array(tokens);
  for (let j = n - 1, sum = 0, count = 0; j >= 0; j--) {
    const q = met.qs[order[j] as number] as number;
    const weight = lists.weights[j] as number;
    if (most[q] === 0) count += 1;
    if (weight > (most[q] as number)) {
      sum += weight - (most[q] as number);
      most[q] = weight;
    }
    rest[j] = sum;
    left[j] = count;
  }
  return { lists, rest, left };
}

/** The size tokens that agree with size token `tok` (not `own`, itself), and the share of weight each keeps. */
function agreeingSizes(
  tables: IndexTables,
  scratch: QueryScratch,
  tok: string,
  own: number | undefined,
): { readonly ids: Int32Array; readonly shares: Float64Array } {
  const memo = scratch.agreeing;
  const known = memo.get(tok);
  if (known !== undefined) return known;
  const dims = dimensionsOf(tok.slice(1));
  const ids: number[] = [];
  const shares: number[] = [];
  for (const size of tables.sizeTokens) {
    if (size.id === own) continue;
    const relation = sizeRelation(dims, size.dims);
    if (relation === null) continue;
    ids.push(size.id);
    shares.push(SIZE_WEIGHT[relation]);
  }
  const found = { ids: Int32Array.from(ids), shares: Float64Array.from(shares) };
  if (memo.size >= AGREEING_KEPT) memo.clear();
  memo.set(tok, found);
  return found;
}

/** `word` as two words the names have, each at least 3 letters; null when it is none. */
function split(tables: IndexTables, word: string): string[] | null {
  if (word.length < 6 || !/^\p{L}+$/u.test(word)) return null;
  for (let i = 3; i <= word.length - 3; i++) {
    const a = word.slice(0, i);
    const b = wordForm(word.slice(i));
    if (tables.tokenIds.has(a) && tables.tokenIds.has(b)) return [a, b];
  }
  return null;
}

/** Up to `limit` tokens the names have that begin with `prefix` (and are longer), the most common first. */
function tokensBeginning(tables: IndexTables, prefix: string, limit: number): number[] {
  const sorted = tables.sortedTokens;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < prefix) lo = mid + 1;
    else hi = mid;
  }
  const found: number[] = [];
  for (let p = lo; p < sorted.length && (sorted[p] as string).startsWith(prefix); p++) {
    if (sorted[p] !== prefix) found.push(tables.tokenIds.get(sorted[p] as string) as number);
    if (found.length > 64) return [];
  }
  return found.sort((a, b) => df(tables, b) - df(tables, a)).slice(0, limit);
}
