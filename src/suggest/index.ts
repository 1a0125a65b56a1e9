import type { ItemType } from '../item-types.ts';
import { pulled, unpulled } from './commonness.ts';
import { bothPulls, isMadeIn, MADE_IN_COLOUR_PULL } from './made-in.ts';
import { EQUIVALENTS } from './equivalents.ts';
import {
  closenessTokens,
  dimensionsOf,
  nameTokens,
  sizeRelation,
  tokenSpans,
  wordForm,
  type TokenSpan,
} from './tokens.ts';
import { foldNumber, suggestKey, suggestWords } from './words.ts';
import { PreparedCatalogue, type IndexedItem } from './prepared.ts';
import type { PostingLists, Query, Route } from './query.ts';
import { QueryScratch } from './scratch.ts';
import { best, cmp, distinct, lowerBound, mergeOrders, push, rankOf, stableByLength } from './sorted-arrays.ts';
import { NONE_TAKEN, nextMark, TopEntries } from './top-k.ts';
import { forEachOneEditAway } from './typos.ts';

import type { SuggestionRule } from '../suggestion-rules.ts';

export type { SuggestionRule };

export interface Suggestion {
  readonly type: ItemType;
  readonly no: string;
  readonly name: string;
  /** Which rule of SPEC §7 found it. */
  readonly rule: SuggestionRule;
  /** The line's words that this suggestion matched (folded), for the screen to show. */
  readonly matched: readonly string[];
  /** Where the words that matched stand in `name` (UTF-16 offsets, end exclusive), for the screen to highlight. */
  readonly marks: readonly (readonly [number, number])[];
  /** For rule `related`: how it is related to the line's number (SPEC §7). */
  readonly related?: 'numbering' | 'alternate' | 'mould' | 'plain' | 'print';
  /** Set when it was found by a name staff taught (SPEC §7, §8)… */
  readonly via?: 'taught';
  /** …and then the name it was found by. */
  readonly taughtName?: string;
}

/** A name staff taught for an item: the given name of a line they placed on it by hand (SPEC §8). */
export interface TaughtName {
  readonly type: ItemType;
  readonly no: string;
  readonly name: string;
}

/** What each word of a name that the line's name lacks costs its closeness, as a share of the line's mean word weight. */
const EXTRA_WORD_COST = 0.35;
/** …and each common word (`with`, `print`) it has beyond the line's, as a share of the same. */
const COMMON_EXTRA = 1;
/** A prefix of several words is weak evidence too when the words it covers weigh less than this share of the line's name. */
const STRONG_PREFIX_SHARE = 0.7;
/** What a size that agrees with the line's, but is not the same token, weighs (of the lesser of the two tokens' weights). */
const SIZE_WEIGHT = { same: 0.9, near: 0.75, part: 0.5 } as const;

/**
 * Entries a walk passes over: those whose key position is inside the prefix group byKey[from, to)
 * (`inside`), or those outside it. A range, not a callback: the walk's inner loop stays one function.
 */
interface SkipRange {
  readonly from: number;
  readonly to: number;
  readonly inside: boolean;
}

/** A group of rule 1 whose common prefix is one word, for a longer name, shows at most this many (SPEC §7). */
export const ONE_WORD_PREFIX_CAP = 5;

/** A prefix group bigger than this is searched through the postings (`closestIn`), not entry by entry. */
const WALK_GROUPS_OVER = 256;

/**
 * A walk starts no further posting list once it has counted this many entries and filled its places: a
 * long name of common words (a minifig's clothes) would otherwise count a sixth of the catalogue for
 * names that are all far. The lists are heaviest first, so what is left unread is the commonest words;
 * on the development sets it changes 9 of 1,937 answers and no hit (bench/quality.bench.ts).
 */
const WALK_BUDGET = 3000;

/** How many query sizes' agreeing sizes are kept (`agreeingSizes`). */
const AGREEING_KEPT = 1024;

/** How many items' token positions are kept for marking the words that matched. */
const SPANS_KEPT = 16_384;

/**
 * The catalogue laid out for the rules of SPEC §7, built once per catalogue generation. Every item is
 * an entry, and so is every name staff taught (an entry pointing at its item):
 * - names as folded word strings, sorted, so a whole-word prefix is one binary-searched range (rule 1);
 * - an inverted index word → entries, for "all words" (rule 2);
 * - closeness tokens (`tokens.ts`) with their rarity (idf) and an inverted index token → entries, so
 *   one pass over a name's tokens scores every entry that shares one (rule 3, and the order inside
 *   every group);
 * - folded numbers, sorted, so a character prefix is one range.
 */
export class SuggestIndex {
  private readonly items: readonly IndexedItem[];
  /** entry → item index (entries 0…items.length-1 are the items themselves). */
  private readonly entryItem: Int32Array;
  /** 1 for items that have more than one entry (names staff taught): only they need de-duplicating. */
  private readonly multiEntry: Uint8Array;
  private readonly entryName: readonly string[];
  private readonly taughtFrom: number;
  /** Entry indices in order of their folded-name key. */
  private readonly byKey: Int32Array;
  private readonly keys: readonly string[];
  /** Rank of each entry among names: shorter folded names first, then name, then number. */
  private readonly nameRank: Int32Array;
  /** Each entry's position in `byKey`: whether it is in a prefix group is one comparison. */
  private readonly keyPosition: Int32Array;
  /** Rules 2 and 3: closeness tokens, distinct per entry, and token → entries (both laid out flat). */
  private readonly tokenIds: ReadonlyMap<string, number>;
  /** The tokens as text, sorted: the words an abbreviation begins are one range. */
  private readonly sortedTokens: readonly string[];
  private readonly tokenIdf: Float64Array;
  private readonly postStart: Int32Array;
  private readonly tokenPostings: Int32Array;
  private readonly entryTokens: Int32Array;
  private readonly tokenStart: Int32Array;
  /** How many of an entry's tokens weigh something (idf > 0). */
  private readonly entryCounted: Int32Array;
  /** How many of an entry's tokens are common words (idf 0: `with`, `print`). */
  private readonly entryCommon: Uint8Array;
  /** Size tokens by their sorted dimensions, and by every part of their dimensions. */
  /** Every size token the names have, with its dimensions: a query's size is compared with each (there are about a thousand). */
  private readonly sizeTokens: readonly { readonly id: number; readonly dims: readonly number[] }[];
  /** 1 for entries whose names have a size. */
  private readonly hasSize: Uint8Array;
  /** Renamed words: a token → tokens of the catalogue's naming, with how sure the table is. */
  private readonly equivalents: ReadonlyMap<string, readonly { readonly to: number; readonly weight: number }[]>;
  /** Item indices in order of folded number. */
  private readonly byNumber: Int32Array;
  private readonly numbers: readonly string[];
  private readonly numberRank: Int32Array;
  /** Each item's pull for being common (`commonness.ts`), and the most any item has: bounds of the walk. */
  private readonly pull: Float64Array;
  private readonly maxPull: number;
  /** Each colour's items (`made-in.ts`): a line's colour pulls the parts made in it. */
  private readonly madeIn: ReadonlyMap<number, Uint32Array>;
  /** What a query writes, apart from the index's own data (see QueryScratch). */
  private readonly scratch: QueryScratch;

  /**
   * The index of `catalogue` (its items, or a `PreparedCatalogue` of them, which is reused when only the
   * names staff taught have changed) and of `taught`.
   */
  /** `equivalents`: the renamed words (the generated table; another only where a bench measures one). */
  constructor(
    catalogue: readonly IndexedItem[] | PreparedCatalogue,
    taught: readonly TaughtName[] = [],
    equivalents: readonly (readonly [from: string, to: string, weight: number])[] = EQUIVALENTS,
  ) {
    const base = catalogue instanceof PreparedCatalogue ? catalogue : new PreparedCatalogue(catalogue);
    const items = base.items;
    this.items = items;
    const entryItem: number[] = items.map((_, i) => i);
    const entryName: string[] = items.map((it) => it.name);
    this.taughtFrom = items.length;
    const taughtTokens: string[][] = [];
    const taughtKeys: string[] = [];
    const taughtSizes: boolean[] = [];
    for (const t of taught) {
      const i = base.itemIndex.get(`${t.type} ${foldNumber(t.no)}`);
      if (i === undefined) continue;
      entryItem.push(i);
      entryName.push(t.name);
      taughtKeys.push(suggestKey(t.name));
      const tok = nameTokens(t.name);
      taughtTokens.push(closenessTokens(tok));
      taughtSizes.push(tok.sizes.length > 0);
    }
    this.entryItem = Int32Array.from(entryItem);
    this.multiEntry = new Uint8Array(items.length);
    for (let e = items.length; e < entryItem.length; e++) this.multiEntry[entryItem[e] as number] = 1;
    this.entryName = entryName;
    const n = entryName.length;

    // Tokens: the catalogue's, interned once (PreparedCatalogue); the taught names' on top.
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
    const entryTokens = flat;
    const postStart = new Int32Array(df.length + 1);
    for (let id = 0; id < df.length; id++) postStart[id + 1] = (postStart[id] as number) + (df[id] as number);
    const fill = postStart.slice(0, df.length);
    const tokenPostings = new Int32Array(used);
    for (let e = 0; e < n; e++) {
      for (let p = tokenStart[e] as number; p < (tokenStart[e + 1] as number); p++) {
        const id = entryTokens[p] as number;
        tokenPostings[(fill[id] as number)++] = e;
      }
    }
    const keys = [...base.keys, ...taughtKeys];
    this.keys = keys;
    this.tokenIds = tokenIds;
    this.sortedTokens = [...tokenIds.keys()].filter((tok) => /^\p{L}/u.test(tok)).sort();
    this.postStart = postStart;
    this.tokenPostings = tokenPostings;
    this.entryTokens = entryTokens;
    this.tokenStart = tokenStart;
    const hasSize = new Uint8Array(n);
    hasSize.set(base.hasSize);
    taughtSizes.forEach((has, t) => (hasSize[items.length + t] = has ? 1 : 0));
    this.hasSize = hasSize;
    // Rarity (BM25's idf): a word most names have says little, one few have says much (taught names count
    // as names). In a big catalogue, words more than a fifth of all names have (`with`, `print`) say
    // nothing about closeness: they weigh 0, and so their long lists are never walked.
    const idf = new Float64Array(df.length);
    const common = n >= 2_000 ? n / 5 : Infinity;
    df.forEach((d, id) => (idf[id] = d > common ? 0 : Math.log(1 + (n - d + 0.5) / (d + 0.5))));
    this.tokenIdf = idf;
    // The tokens of each entry that weigh something: those the query lacks cost closeness.
    const counted = new Int32Array(n);
    const commonCount = new Uint8Array(n);
    for (let e = 0; e < n; e++) {
      let c = 0;
      let k = 0;
      for (let p = tokenStart[e] as number; p < (tokenStart[e + 1] as number); p++) {
        if ((idf[entryTokens[p] as number] as number) > 0) c += 1;
        else k += 1;
      }
      counted[e] = c;
      commonCount[e] = Math.min(k, 255);
    }
    this.entryCounted = counted;
    this.entryCommon = commonCount;
    // Sizes by their dimensions, sorted: a size also reaches the sizes it is part of, or that are part of it.
    const sizeTokens: { id: number; dims: number[] }[] = [];
    for (const [tok, id] of tokenIds)
      if (tok.startsWith('#')) sizeTokens.push({ id, dims: dimensionsOf(tok.slice(1)) });
    this.sizeTokens = sizeTokens;
    const renamed = new Map<string, { to: number; weight: number }[]>();
    for (const [from, to, w] of equivalents) {
      const id = tokenIds.get(to);
      if (id !== undefined) push(renamed, from, { to: id, weight: w });
    }
    this.equivalents = renamed;

    // The catalogue's names in key order (sorted once), with the taught ones merged in.
    const taughtOrder = [...taughtKeys.keys()]
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

    let longest = 0;
    for (let e = 0; e < n; e++) longest = Math.max(longest, (tokenStart[e + 1] as number) - (tokenStart[e] as number));
    this.scratch = new QueryScratch(df.length, n, longest);
  }

  get size(): number {
    return this.items.length;
  }

  /**
   * Suggestions for a name (SPEC §7): the longest whole-word prefix group, then the all-words group,
   * then the closest names; each group closest first (then shorter name, then number). A one-word
   * prefix group for a longer name shows at most its 5 closest. Items repeat in no group. A line's
   * `colour` (the catalogue's id) pulls the parts made in it a little closer (`made-in.ts`).
   */
  byName(name: string, limit: number, colour: number | null = null): Suggestion[] {
    const words = suggestWords(name);
    if (words.length === 0 || limit <= 0) return [];
    const query = this.closeness(name, colour);
    try {
      const out: Suggestion[] = [];
      const takenItems = new Set<number>();
      const take = (e: number, rule: SuggestionRule) => {
        const item = this.entryItem[e] as number;
        if (takenItems.has(item)) return;
        takenItems.add(item);
        out.push(this.suggestion(e, rule, query));
      };

      // 1. Longest prefix, in whole words: the longest k for which some name starts with the first k words.
      for (let k = words.length; k >= 1; k--) {
        const prefix = words.slice(0, k).join(' ');
        // Keys equal to the prefix or continuing it with " …" sort together: ' ' is below every letter or digit.
        const from = lowerBound(this.byKey, this.keys, prefix);
        const to = lowerBound(this.byKey, this.keys, `${prefix}!`);
        if (to === from) continue;
        if (this.weakPrefix(prefix, query)) {
          // A one-word prefix is weak evidence (and so is one word and part of a size: "Wheel 8 x" of
          // "Wheel 8 x 35"): at most its 5 closest, and none less close than the best name the other rules
          // find — so that their stronger matches are seen (SPEC §7).
          const [outside] = this.closestReached(1, query, NONE_TAKEN, { from, to, inside: true });
          const floor = outside === undefined ? 0 : this.closenessOf(outside, query);
          const cap = Math.min(limit, ONE_WORD_PREFIX_CAP);
          // With a floor above 0, only the group's entries that reach it are wanted: the walk finds them all.
          const group =
            floor > 0
              ? this.closestReached(cap, query, takenItems, { from, to, inside: false }, floor)
              : this.closestIn(from, to, cap, query, takenItems);
          for (const e of group) if (this.closenessOf(e, query) >= floor) take(e, 'prefix');
        } else {
          for (const e of this.closestIn(from, to, limit, query, takenItems)) take(e, 'prefix');
        }
        break;
      }

      // 2. All words, any order: the entries holding every token of the name (from the rarest token's
      //    list), then checked word by word as rule 2 folds them (case, spacing and punctuation only).
      if (out.length < limit && query.ids.length > 0 && !query.ids.includes(-1)) {
        const ids = [...query.ids].sort((a, b) => this.df(a) - this.df(b));
        const [rarest, ...rest] = ids as [number, ...number[]];
        const wanted = [...new Set(words)].map((w) => ` ${w} `);
        const matches: number[] = [];
        for (let p = this.postStart[rarest] as number; p < (this.postStart[rarest + 1] as number); p++) {
          const e = this.tokenPostings[p] as number;
          if (!this.hasTokens(e, rest)) continue;
          const key = ` ${this.keys[e] as string} `;
          if (wanted.every((w) => key.includes(w))) matches.push(e);
        }
        for (const e of this.closest(matches, limit - out.length, query, takenItems)) take(e, 'words');
      }

      // 3. Closest names, for the places left: the entries sharing a token (or a renamed or mistyped word).
      if (out.length < limit) {
        for (const e of this.closestReached(limit - out.length, query, takenItems)) take(e, 'close');
      }
      return out;
    } finally {
      this.reset(query);
    }
  }

  /** The catalogue colours the element tables make item `type no` in; null where they say nothing of it. */
  coloursOf(type: string, no: string): readonly number[] | null {
    const q = foldNumber(no);
    for (let at = lowerBound(this.byNumber, this.numbers, q); at < this.byNumber.length; at++) {
      const i = this.byNumber[at] as number;
      if (this.numbers[i] !== q) break;
      const it = this.items[i] as IndexedItem;
      if (it.type === type && it.no === no) return it.madeIn !== undefined && it.madeIn.length > 0 ? it.madeIn : null;
    }
    return null;
  }

  /**
   * Suggestions for a number (SPEC §7): first the same number's letter variants (`3794` → `3794a`,
   * `3794b`), then the items whose numbers share the longest prefix with it, in characters, shortest first.
   */
  byNumberPrefix(no: string, limit: number): Suggestion[] {
    const q = foldNumber(no);
    if (q === '' || limit <= 0) return [];
    const suggestion = (i: number): Suggestion => {
      const it = this.items[i] as IndexedItem;
      return { type: it.type, no: it.no, name: it.name, rule: 'number' as const, matched: [q], marks: [] };
    };
    for (let k = q.length; k >= 1; k--) {
      const prefix = q.slice(0, k);
      const from = lowerBound(this.byNumber, this.numbers, prefix);
      const to = lowerBound(this.byNumber, this.numbers, `${prefix}\uffff`);
      if (to > from) {
        // The number with letters after it is the same part in another version: before any other number.
        // They sort together, after the same number with digits after it: only that stretch is looked at.
        const variants: number[] = [];
        if (k === q.length) {
          const first = lowerBound(this.byNumber, this.numbers, `${q}a`);
          const end = lowerBound(this.byNumber, this.numbers, `${q}{`);
          for (let at = first; at < end && variants.length < limit; at++) {
            const e = this.byNumber[at] as number;
            if (/^[a-z]+$/.test((this.numbers[e] as string).slice(q.length))) variants.push(e);
          }
        }
        const taken = new Set(variants.slice(0, limit));
        const rest = best(this.byNumber, from, to, this.numberRank, limit + taken.size).filter((e) => !taken.has(e));
        return [...taken, ...rest].slice(0, limit).map(suggestion);
      }
    }
    return [];
  }

  /** The search box (SPEC §7): by name, and by number, with the same matching; no repeats. */
  search(query: string, limit: number, colour: number | null = null): Suggestion[] {
    const out = this.byName(query, limit, colour);
    if (out.length < limit && /^\S+$/.test(query.trim())) {
      const seen = new Set(out.map((s) => `${s.type} ${s.no}`));
      for (const s of this.byNumberPrefix(query, limit)) {
        if (out.length >= limit) break;
        if (!seen.has(`${s.type} ${s.no}`)) out.push(s);
      }
    }
    return out;
  }

  /**
   * Whether a common prefix is a single word of a longer name, counting as rule 3 does: a size is one
   * word, and part of a size is none.
   */
  private weakPrefix(prefix: string, query: Query): boolean {
    const own = new Set(query.routes.map((r) => r.token));
    if (own.size <= 1) return false;
    const inPrefix = new Set(closenessTokens(nameTokens(prefix)));
    const covered = query.routes.filter((r) => inPrefix.has(r.token));
    if (covered.length <= 1) return true;
    const share = covered.reduce((m, r) => m + r.weight, 0) / query.total;
    return share < STRONG_PREFIX_SHARE;
  }

  private df(id: number): number {
    return (this.postStart[id + 1] as number) - (this.postStart[id] as number);
  }

  /**
   * The query of rule 3 for `name`: each of its tokens with the catalogue's tokens that stand for it
   * (itself, renamed words, agreeing sizes, typo corrections, the words an abbreviation begins) and what
   * each weighs for it, laid out in the route arrays for `closenessOf` (cleared by `reset`).
   */
  private closeness(name: string, colour: number | null): Query {
    const t = nameTokens(name);
    const given = closenessTokens(t);
    // Rule 2 needs every token of the name as it is.
    const ids = given.map((tok) => this.tokenIds.get(tok) ?? -1);
    // A word no name has may be two that names have, run together ("Axlehole", "Pinhole").
    const tokens = distinct(given.flatMap((tok) => (this.tokenIds.has(tok) ? [tok] : (this.split(tok) ?? [tok]))));
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
    const via = this.scratch.via;
    const listIds: number[] = [];
    const listWeights: number[] = [];
    const listQs: number[] = [];
    for (let q = 0; q < tokens.length; q++) {
      const tok = tokens[q] as string;
      const own = this.tokenIds.get(tok);
      // A token no name has still weighs as the rarest: the names lack it.
      const ownIdf = own === undefined ? Math.log(this.entryName.length + 1) : (this.tokenIdf[own] as number);
      total += ownIdf;
      via.clear();
      if (own !== undefined) via.add(own, ownIdf);
      for (const eq of this.equivalents.get(tok) ?? [])
        via.add(eq.to, eq.weight * Math.min(this.tokenIdf[eq.to] as number, ownIdf));
      // A size reaches the sizes that agree with it: the same dimensions in another order, nearly the
      // same, or one part of the other; each weighs less the looser it agrees.
      const isSize = tok.startsWith('#');
      if (isSize) {
        const agree = this.agreeingSizes(tok, own);
        for (let k = 0; k < agree.ids.length; k++) {
          const id = agree.ids[k] as number;
          via.add(id, (agree.shares[k] as number) * Math.min(ownIdf, this.tokenIdf[id] as number));
        }
      }
      // A small typo (one letter added, left out, changed, or two swapped) of a word the names have.
      if (own === undefined && tok.length >= 5 && !/[\d#]/.test(tok)) {
        forEachOneEditAway(tok, (near) => {
          const id = this.tokenIds.get(near);
          if (id !== undefined && !via.has(id)) via.add(id, 0.8 * (this.tokenIdf[id] as number));
        });
      }
      // An abbreviation ("Fric.", "Conn.") of words the names have: the words it begins.
      if (own === undefined && tok.length >= 3 && /^\p{L}+$/u.test(tok)) {
        for (const id of this.tokensBeginning(tok, 8))
          if (!via.has(id)) via.add(id, 0.7 * Math.min(this.tokenIdf[id] as number, ownIdf));
      }
      for (let k = 0; k < via.length; k++) {
        const id = via.ids[k] as number;
        const weight = via.weights[k] as number;
        push(routesOf, id, q);
        // Words that weigh nothing are never walked (`with` has 36,000 names). A catalogue token that
        // stands for two of the query's tokens counts for the one it weighs more for: one word, one match.
        if (weight <= 0) continue;
        listIds.push(id);
        listWeights.push(weight);
        listQs.push(q);
        const before = this.scratch.routeQ[id] as number;
        if (before === -1) routed.push(id);
        else if ((this.scratch.routeW[id] as number) >= weight) continue;
        this.scratch.routeQ[id] = q;
        this.scratch.routeW[id] = weight;
        this.scratch.routeSize[id] = isSize ? 1 : 0;
      }
      const size = dimensionOf.get(tok);
      routes.push(
        size === undefined ? { token: tok, weight: ownIdf } : { token: tok, weight: ownIdf, dimensionOf: size },
      );
    }
    const weighed = tokens.filter((tok) => (this.tokenIdf[this.tokenIds.get(tok) ?? -1] ?? 1) > 0).length;
    const extraCost = EXTRA_WORD_COST * (weighed > 0 ? total / weighed : 1);
    const common = tokens.filter((tok) => this.tokenIdf[this.tokenIds.get(tok) ?? -1] === 0).length;
    // The lists heaviest first (equal weights in the order they were met), and for walking them: what an
    // entry that lists[j…] reach first can weigh at most (for each query token, the most any of its lists
    // from the j-th on gives).
    const order = Array.from(listIds.keys()).sort(
      (a, b) => (listWeights[b] as number) - (listWeights[a] as number) || a - b,
    );
    const n = order.length;
    const lists: PostingLists = {
      length: n,
      ids: Int32Array.from(order, (k) => listIds[k] as number),
      weights: Float64Array.from(order, (k) => listWeights[k] as number),
    };
    const rest = new Float64Array(n + 1);
    const left = new Int32Array(n + 1);
    const most = new Float64Array(routes.length);
    for (let j = n - 1, sum = 0, count = 0; j >= 0; j--) {
      const q = listQs[order[j] as number] as number;
      const weight = lists.weights[j] as number;
      if (most[q] === 0) count += 1;
      if (weight > (most[q] as number)) {
        sum += weight - (most[q] as number);
        most[q] = weight;
      }
      rest[j] = sum;
      left[j] = count;
    }
    const no = (this.scratch.queries = nextMark(this.scratch.queries, this.scratch.marks));
    const madeIn = colour === null ? null : (this.madeIn.get(colour) ?? null);
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
      maxPull: madeIn === null ? this.maxPull : bothPulls(this.maxPull, MADE_IN_COLOUR_PULL),
    };
  }

  /** The size tokens that agree with size token `tok` (not `own`, itself), and the share of weight each keeps. */
  private agreeingSizes(
    tok: string,
    own: number | undefined,
  ): { readonly ids: Int32Array; readonly shares: Float64Array } {
    const memo = this.scratch.agreeing;
    const known = memo.get(tok);
    if (known !== undefined) return known;
    const dims = dimensionsOf(tok.slice(1));
    const ids: number[] = [];
    const shares: number[] = [];
    for (let k = 0; k < this.sizeTokens.length; k++) {
      const size = this.sizeTokens[k] as { readonly id: number; readonly dims: readonly number[] };
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

  /** Whether entry `e` has every token of `ids`. */
  private hasTokens(e: number, ids: readonly number[]): boolean {
    const from = this.tokenStart[e] as number;
    const to = this.tokenStart[e + 1] as number;
    for (const id of ids) {
      let p = from;
      while (p < to && this.entryTokens[p] !== id) p++;
      if (p === to) return false;
    }
    return true;
  }

  /** `word` as two words the names have, each at least 3 letters; null when it is none. */
  private split(word: string): string[] | null {
    if (word.length < 6 || !/^\p{L}+$/u.test(word)) return null;
    for (let i = 3; i <= word.length - 3; i++) {
      const a = word.slice(0, i);
      const b = wordForm(word.slice(i));
      if (this.tokenIds.has(a) && this.tokenIds.has(b)) return [a, b];
    }
    return null;
  }

  /** Up to `limit` tokens the names have that begin with `prefix` (and are longer), the most common first. */
  private tokensBeginning(prefix: string, limit: number): number[] {
    const sorted = this.sortedTokens;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as string) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: number[] = [];
    for (let p = lo; p < sorted.length && (sorted[p] as string).startsWith(prefix); p++) {
      if (sorted[p] !== prefix) found.push(this.tokenIds.get(sorted[p] as string) as number);
      if (found.length > 64) return [];
    }
    return found.sort((a, b) => this.df(b) - this.df(a)).slice(0, limit);
  }

  /**
   * How close an entry is to the query, 0…1: the weight of the query's tokens it has (each by its best
   * route), over the query's weight plus a fixed cost for each token of its own that the query lacks —
   * a rare extra word ("with Groove") is no farther than a common one; 0 when their sizes disagree. A
   * part made in many colours is then pulled a little closer (`commonness.ts`).
   */
  private closenessOf(e: number, query: Query): number {
    this.score(e, query);
    return this.scratch.scored[0] as number;
  }

  /**
   * `closenessOf`, left in `scored[0]`: the hot loops call this, as a double returned from a call that
   * is not inlined is boxed — thousands of allocations a query.
   */
  private score(e: number, query: Query): void {
    const scored = this.scratch.scored;
    // Each walk of a query meets the same entries again: each is counted once a query.
    const marks = this.scratch.marks;
    if (marks[4 * e + 1] === query.no) {
      scored[0] = marks[4 * e + 2] as number;
      return;
    }
    marks[4 * e + 1] = query.no;
    marks[4 * e + 2] = 0;
    scored[0] = 0;
    const routeQ = this.scratch.routeQ;
    const routeW = this.scratch.routeW;
    const matchQ = this.scratch.matchQ;
    const matchW = this.scratch.matchW;
    let matched = 0;
    let s = 0;
    let sizeAgrees = false;
    const end = this.tokenStart[e + 1] as number;
    for (let p = this.tokenStart[e] as number; p < end; p++) {
      const id = this.entryTokens[p] as number;
      const q = routeQ[id] as number;
      if (q === -1) continue;
      const w = routeW[id] as number;
      if (this.scratch.routeSize[id] === 1) sizeAgrees = true;
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
    if (query.sizes.length > 0 && this.hasSize[e] === 1 && !sizeAgrees) return;
    const extra =
      Math.max(0, (this.entryCounted[e] as number) - matched) +
      COMMON_EXTRA * Math.max(0, (this.entryCommon[e] as number) - query.common);
    scored[0] = pulled(s / (query.total + query.extraCost * extra), this.pullOf(this.entryItem[e] as number, query));
    marks[4 * e + 2] = scored[0] as number;
  }

  /** How far item `i` is pulled towards the query: for being common, and for being made in the line's colour. */
  private pullOf(i: number, query: Query): number {
    const pull = this.pull[i] as number;
    return query.madeIn !== null && isMadeIn(query.madeIn, i) ? bothPulls(pull, MADE_IN_COLOUR_PULL) : pull;
  }

  /** The `limit` closest entries of `entries` whose items are not taken yet, one entry per item; ties: shorter name, then number. */
  private closest(entries: ArrayLike<number>, limit: number, query: Query, taken: ReadonlySet<number>): number[] {
    const top = new TopEntries(limit, taken, this.entryItem, this.multiEntry, this.scratch.scored);
    for (let p = 0; p < entries.length; p++) {
      const e = entries[p] as number;
      this.score(e, query);
      top.offer(e, this.nameRank[e] as number);
    }
    return top.entries;
  }

  /**
   * The `limit` closest entries of the prefix group byKey[from, to). A big group (`Minifig …` has 6,000)
   * is not scored entry by entry: its closest share a weighty token with the query, so the walk of the
   * postings finds them — unless fewer than `limit` do, and then the rest are as far as can be (0), and
   * the group is scored whole after all.
   */
  private closestIn(from: number, to: number, limit: number, query: Query, taken: ReadonlySet<number>): number[] {
    if (to - from > WALK_GROUPS_OVER) {
      const found = this.closestReached(limit, query, taken, { from, to, inside: false });
      if (found.length === limit) return found;
    }
    return this.closest(this.byKey.subarray(from, to), limit, query, taken);
  }

  /**
   * The `limit` closest entries that share a token with the query (by any route) and are not skipped,
   * not taken and not 0. The postings are walked heaviest token first (MaxScore): once the tokens left
   * could not lift an entry they alone reach above the last place, their long lists of common words
   * are left unread.
   */
  private closestReached(
    limit: number,
    query: Query,
    taken: ReadonlySet<number>,
    skip: SkipRange | null = null,
    atLeast = 0,
  ): number[] {
    const top = new TopEntries(limit, taken, this.entryItem, this.multiEntry, this.scratch.scored);
    const walk = (this.scratch.walk = nextMark(this.scratch.walk, this.scratch.marks));
    const marks = this.scratch.marks;
    const keyPosition = this.keyPosition;
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
      const end = this.postStart[id + 1] as number;
      const rest = query.rest[j] as number;
      const left = query.left[j] as number;
      for (let p = this.postStart[id] as number; p < end; p++) {
        const e = this.tokenPostings[p] as number;
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
            Math.max(0, (this.entryCounted[e] as number) - left) +
            COMMON_EXTRA * Math.max(0, (this.entryCommon[e] as number) - query.common);
          // (With room for rounding: `rest` sums the weights in another order than the count does.)
          const most = rest * (1 + 1e-9);
          const room = query.total + query.extraCost * extra;
          // Out of reach even pulled as far as any part is (one multiplication: this loop reads
          // thousands of entries a query); then, for one that is not, pulled as far as it is.
          if (most < needAny * room) continue;
          const pull = this.pullOf(this.entryItem[e] as number, query);
          if (pull < query.maxPull && most < unpulled(need, pull) * room) continue;
        }
        counted += 1;
        this.score(e, query);
        const c = this.scratch.scored[0] as number;
        if (c > 0 && c >= atLeast) top.offer(e, this.nameRank[e] as number);
      }
    }
    return top.entries;
  }

  private reset(query: Query): void {
    for (const id of query.routed) this.scratch.routeQ[id] = -1;
  }

  private suggestion(e: number, rule: SuggestionRule, query: Query): Suggestion {
    const item = this.entryItem[e] as number;
    const it = this.items[item] as IndexedItem;
    // The line's tokens this entry has, by any route.
    const hit = query.hit;
    hit.fill(0);
    const from = this.tokenStart[e] as number;
    const to = this.tokenStart[e + 1] as number;
    for (let p = from; p < to; p++) {
      const qs = query.routesOf.get(this.entryTokens[p] as number);
      if (qs !== undefined) for (const q of qs) hit[q] = 1;
    }
    const matched: string[] = [];
    query.routes.forEach((r, q) => {
      // A dimension is a word of its own only where its size did not match ("4" of "Axle 4").
      if (hit[q] === 1 && !(r.dimensionOf !== undefined && hit[r.dimensionOf] === 1))
        matched.push(r.token.startsWith('#') ? r.token.slice(1) : r.token);
    });
    // Where the item's own words that matched stand (for a name staff taught: those it shares with the item's name).
    const marks: (readonly [number, number])[] = [];
    const spans = this.spansOf(item);
    for (let k = 0; k < spans.length; k += 3) {
      const id = spans[k] as number;
      if (!query.routesOf.has(id)) continue;
      if (e >= this.taughtFrom && !this.entryTokens.subarray(from, to).includes(id)) continue;
      marks.push([spans[k + 1] as number, spans[k + 2] as number]);
    }
    return {
      type: it.type,
      no: it.no,
      name: it.name,
      rule,
      matched,
      marks,
      ...(e >= this.taughtFrom ? { via: 'taught' as const, taughtName: this.entryName[e] as string } : {}),
    };
  }

  /**
   * Where an item's tokens stand in its name, as (token id, start, end) triples: kept for the items
   * suggested lately, as the same ones come back line after line.
   */
  private spansOf(item: number): Int32Array {
    let spans = this.scratch.spans.get(item);
    if (spans === undefined) {
      if (this.scratch.spans.size >= SPANS_KEPT) this.scratch.spans.clear();
      const found = tokenSpans((this.items[item] as IndexedItem).name);
      spans = new Int32Array(found.length * 3);
      for (let k = 0; k < found.length; k++) {
        const span = found[k] as TokenSpan;
        spans[k * 3] = this.tokenIds.get(span.token) ?? -1;
        spans[k * 3 + 1] = span.start;
        spans[k * 3 + 2] = span.end;
      }
      this.scratch.spans.set(item, spans);
    }
    return spans;
  }
}

export { PreparedCatalogue, type IndexedItem };
