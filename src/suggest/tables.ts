import type { ItemType } from '../vocabulary/item-types.ts';
import { closenessTokens, dimensionsOf, nameTokens } from './tokens.ts';
import { foldNumber, suggestKey } from './words.ts';
import { PreparedCatalogue, type IndexedItem } from './prepared.ts';
import { cmp, mergeOrders, push, rankOf, stableByLength } from './sorted-arrays.ts';

/** A name staff taught for an item: the given name of a line they placed on it by hand (SPEC §8). */
export interface TaughtName {
  readonly type: ItemType;
  readonly no: string;
  readonly name: string;
}

/** A size token of the names, with its dimensions. */
export interface SizeToken {
  readonly id: number;
  readonly dims: readonly number[];
}

/** A renamed word's token of the catalogue's naming, with how sure the table is. */
export interface Renamed {
  readonly to: number;
  readonly weight: number;
}

/** The names staff taught that name a catalogue item, laid out as the catalogue's own names are. */
interface TaughtEntries {
  readonly entryItem: number[];
  readonly entryName: string[];
  readonly keys: string[];
  readonly tokens: string[][];
  readonly sizes: boolean[];
}

/** The entries' tokens, interned: the catalogue's (PreparedCatalogue), the taught names' on top. */
interface InternedTokens {
  readonly tokenIds: Map<string, number>;
  readonly df: number[];
  readonly tokenStart: Int32Array;
  readonly entryTokens: Int32Array;
}

/**
 * The catalogue laid out for the rules of SPEC §7, built once per catalogue generation. Every item is
 * an entry, and so is every name staff taught (an entry pointing at its item):
 * - names as folded word strings, sorted, so a whole-word prefix is one binary-searched range (rule 1);
 * - an inverted index word → entries, for "all words" (rule 2);
 * - closeness tokens (`tokens.ts`) with their rarity (idf) and an inverted index token → entries, so
 *   one pass over a name's tokens scores every entry that shares one (rule 3, and the order inside
 *   every group);
 * - folded numbers, sorted, so a character prefix is one range.
 * The walk (`walk.ts`), closeness (`closeness.ts`) and a query's routes (`routes.ts`) read these tables;
 * nothing writes them once built (test/suggest/read-only-index.test.ts): a query writes only its scratch.
 */
export class IndexTables {
  readonly items: readonly IndexedItem[];
  /** entry → item index (entries 0…items.length-1 are the items themselves). */
  readonly entryItem: Int32Array;
  /** 1 for items that have more than one entry (names staff taught): only they need de-duplicating. */
  readonly multiEntry: Uint8Array;
  readonly entryName: readonly string[];
  readonly taughtFrom: number;
  /** Entry indices in order of their folded-name key. */
  readonly byKey: Int32Array;
  readonly keys: readonly string[];
  /** Rank of each entry among names: shorter folded names first, then name, then number. */
  readonly nameRank: Int32Array;
  /** Each entry's position in `byKey`: whether it is in a prefix group is one comparison. */
  readonly keyPosition: Int32Array;
  /** Rules 2 and 3: closeness tokens, distinct per entry, and token → entries (both laid out flat). */
  readonly tokenIds: ReadonlyMap<string, number>;
  /** The tokens as text, sorted: the words an abbreviation begins are one range. */
  readonly sortedTokens: readonly string[];
  readonly tokenIdf: Float64Array;
  readonly postStart: Int32Array;
  readonly tokenPostings: Int32Array;
  readonly entryTokens: Int32Array;
  readonly tokenStart: Int32Array;
  /** How many of an entry's tokens weigh something (idf > 0). */
  readonly entryCounted: Int32Array;
  /** How many of an entry's tokens are common words (idf 0: `with`, `print`). */
  readonly entryCommon: Uint8Array;
  /** Every size token the names have, with its dimensions: a query's size is compared with each (there are about a thousand). */
  readonly sizeTokens: readonly SizeToken[];
  /** 1 for entries whose names have a size. */
  readonly hasSize: Uint8Array;
  /** Renamed words: a token → tokens of the catalogue's naming, with how sure the table is. */
  readonly equivalents: ReadonlyMap<string, readonly Renamed[]>;
  /** Item indices in order of folded number. */
  readonly byNumber: Int32Array;
  readonly numbers: readonly string[];
  readonly numberRank: Int32Array;
  /** Each item's pull for being common (`commonness.ts`), and the most any item has: bounds of the walk. */
  readonly pull: Float64Array;
  readonly maxPull: number;
  /** Each colour's items (`made-in.ts`): a line's colour pulls the parts made in it. */
  readonly madeIn: ReadonlyMap<number, Uint32Array>;

  /**
   * The tables of `catalogue` (its items, or a `PreparedCatalogue` of them, which is reused when only the
   * names staff taught have changed) and of `taught`; `equivalents`: the renamed words.
   */
  constructor(
    catalogue: readonly IndexedItem[] | PreparedCatalogue,
    taught: readonly TaughtName[],
    equivalents: readonly (readonly [from: string, to: string, weight: number])[],
  ) {
    const base = catalogue instanceof PreparedCatalogue ? catalogue : new PreparedCatalogue(catalogue);
    const items = base.items;
    this.items = items;
    const added = taughtEntries(base, taught);
    this.entryItem = Int32Array.from(added.entryItem);
    this.multiEntry = new Uint8Array(items.length);
    for (let e = items.length; e < added.entryItem.length; e++) this.multiEntry[added.entryItem[e] as number] = 1;
    this.entryName = added.entryName;
    this.taughtFrom = items.length;
    const n = added.entryName.length;

    const { tokenIds, df, tokenStart, entryTokens } = internTokens(base, added.tokens, n);
    const keys = [...base.keys, ...added.keys];
    this.keys = keys;
    this.tokenIds = tokenIds;
    this.sortedTokens = [...tokenIds.keys()].filter((tok) => /^\p{L}/u.test(tok)).sort();
    this.postStart = postingStarts(df);
    this.tokenPostings = postings(this.postStart, tokenStart, entryTokens);
    this.entryTokens = entryTokens;
    this.tokenStart = tokenStart;
    const hasSize = new Uint8Array(n);
    hasSize.set(base.hasSize);
    added.sizes.forEach((has, t) => (hasSize[items.length + t] = has ? 1 : 0));
    this.hasSize = hasSize;
    this.tokenIdf = rarity(df, n);
    this.entryCounted = new Int32Array(n);
    this.entryCommon = new Uint8Array(n);
    countWeighty(this.tokenIdf, tokenStart, entryTokens, this.entryCounted, this.entryCommon);
    // Sizes by their dimensions, sorted: a size also reaches the sizes it is part of, or that are part of it.
    const sizeTokens: SizeToken[] = [];
    for (const [tok, id] of tokenIds)
      if (tok.startsWith('#')) sizeTokens.push({ id, dims: dimensionsOf(tok.slice(1)) });
    this.sizeTokens = sizeTokens;
    const renamed = new Map<string, Renamed[]>();
    for (const [from, to, w] of equivalents) {
      const id = tokenIds.get(to);
      if (id !== undefined) push(renamed, from, { to: id, weight: w });
    }
    this.equivalents = renamed;

    // The catalogue's names in key order (sorted once), with the taught ones merged in.
    const taughtOrder = [...added.keys.keys()]
      .map((t) => items.length + t)
      .sort((a, b) => cmp(keys[a] as string, keys[b] as string) || a - b);
    this.byKey = mergeOrders(base.byKey, taughtOrder, keys);
    this.nameRank = rankOf(stableByLength(this.byKey, keys));
    this.keyPosition = rankOf(this.byKey);
    this.numbers = base.numbers;
    this.byNumber = base.byNumber;
    this.numberRank = base.numberRank;
    this.pull = base.pull;
    this.maxPull = base.maxPull;
    this.madeIn = base.madeIn;
  }
}

/** How many entries have token `id`. */
export function df(tables: IndexTables, id: number): number {
  return (tables.postStart[id + 1] as number) - (tables.postStart[id] as number);
}

/** The most tokens any entry has: the size of a query's scratch for one entry's matches. */
export function longestEntry(tables: IndexTables): number {
  const tokenStart = tables.tokenStart;
  let longest = 0;
  for (let e = 0; e < tokenStart.length - 1; e++)
    longest = Math.max(longest, (tokenStart[e + 1] as number) - (tokenStart[e] as number));
  return longest;
}

/** The entries of the names staff taught for items the catalogue has, after the items' own. */
function taughtEntries(base: PreparedCatalogue, taught: readonly TaughtName[]): TaughtEntries {
  const items = base.items;
  const out: TaughtEntries = {
    entryItem: items.map((_, i) => i),
    entryName: items.map((it) => it.name),
    keys: [],
    tokens: [],
    sizes: [],
  };
  for (const t of taught) {
    const i = base.itemIndex.get(`${t.type} ${foldNumber(t.no)}`);
    if (i === undefined) continue;
    out.entryItem.push(i);
    out.entryName.push(t.name);
    out.keys.push(suggestKey(t.name));
    const tok = nameTokens(t.name);
    out.tokens.push(closenessTokens(tok));
    out.sizes.push(tok.sizes.length > 0);
  }
  return out;
}

/** Tokens: the catalogue's, interned once (PreparedCatalogue); the taught names' `taughtTokens` on top, for `n` entries in all. */
function internTokens(base: PreparedCatalogue, taughtTokens: readonly string[][], n: number): InternedTokens {
  const items = base.items;
  const tokenIds = new Map(base.tokenIds);
  const df = [...base.df];
  const tokenStart = new Int32Array(n + 1);
  tokenStart.set(base.tokenStart);
  let used = base.tokenStart[items.length] as number;
  const flat = new Int32Array(used + taughtTokens.reduce((m, t) => m + t.length, 0));
  flat.set(base.entryTokens);
  taughtTokens.forEach((tokens, t) => {
    tokenStart[items.length + t] = used;
    for (const tok of tokens) {
      let id = tokenIds.get(tok);
      if (id === undefined) {
        id = df.length;
        tokenIds.set(tok, id);
        df.push(0);
      }
      flat[used++] = id;
      df[id] = (df[id] as number) + 1;
    }
  });
  tokenStart[n] = used;
  return { tokenIds, df, tokenStart, entryTokens: flat };
}

/** Where each token's posting list starts in the flat postings (and, last, where they end), from how many entries have it. */
function postingStarts(df: readonly number[]): Int32Array {
  const postStart = new Int32Array(df.length + 1);
  for (let id = 0; id < df.length; id++) postStart[id + 1] = (postStart[id] as number) + (df[id] as number);
  return postStart;
}

/** Token → entries, laid out flat: each token's entries in entry order. */
function postings(postStart: Int32Array, tokenStart: Int32Array, entryTokens: Int32Array): Int32Array {
  const n = tokenStart.length - 1;
  const fill = postStart.slice(0, postStart.length - 1);
  const tokenPostings = new Int32Array(tokenStart[n] as number);
  for (let e = 0; e < n; e++) {
    for (let p = tokenStart[e] as number; p < (tokenStart[e + 1] as number); p++) {
      const id = entryTokens[p] as number;
      tokenPostings[(fill[id] as number)++] = e;
    }
  }
  return tokenPostings;
}

/**
 * Rarity (BM25's idf): a word most names have says little, one few have says much (taught names count
 * as names). In a big catalogue, words more than a fifth of all names have (`with`, `print`) say
 * nothing about closeness: they weigh 0, and so their long lists are never walked.
 */
function rarity(df: readonly number[], n: number): Float64Array {
  const idf = new Float64Array(df.length);
  const common = n >= 2_000 ? n / 5 : Infinity;
  df.forEach((d, id) => (idf[id] = d > common ? 0 : Math.log(1 + (n - d + 0.5) / (d + 0.5))));
  return idf;
}

/** The tokens of each entry that weigh something (those the query lacks cost closeness), and its common ones, into `counted` and `common`. */
function countWeighty(
  idf: Float64Array,
  tokenStart: Int32Array,
  entryTokens: Int32Array,
  counted: Int32Array,
  common: Uint8Array,
): void {
  for (let e = 0; e < counted.length; e++) {
    let c = 0;
    let k = 0;
    for (let p = tokenStart[e] as number; p < (tokenStart[e + 1] as number); p++) {
      if ((idf[entryTokens[p] as number] as number) > 0) c += 1;
      else k += 1;
    }
    counted[e] = c;
    common[e] = Math.min(k, 255);
  }
}
