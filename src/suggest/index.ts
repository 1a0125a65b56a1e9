import type { ItemType } from '../vocabulary/item-types.ts';
import { closenessTokens, nameTokens, tokenSpans, type TokenSpan } from './tokens.ts';
import { foldNumber, suggestWords } from './words.ts';
import { EQUIVALENTS } from './equivalents.ts';
import { PreparedCatalogue, type IndexedItem } from './prepared.ts';
import type { Query } from './query.ts';
import { QueryScratch } from './scratch.ts';
import { best, lowerBound } from './sorted-arrays.ts';
import { closenessOf } from './closeness.ts';
import { clearRoutes, queryFor } from './routes.ts';
import { df, IndexTables, longestEntry, type TaughtName } from './tables.ts';
import { NONE_TAKEN } from './top-k.ts';
import { closest, closestIn, closestReached } from './walk.ts';

import type { SuggestionRule } from '../vocabulary/suggestion-rules.ts';

export type { SuggestionRule, TaughtName };

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

/** A prefix of several words is weak evidence too when the words it covers weigh less than this share of the line's name. */
const STRONG_PREFIX_SHARE = 0.7;

/** A group of rule 1 whose common prefix is one word, for a longer name, shows at most this many (SPEC §7). */
export const ONE_WORD_PREFIX_CAP = 5;

/** How many items' token positions are kept for marking the words that matched. */
const SPANS_KEPT = 16_384;

/**
 * The suggestions of SPEC §7 over the catalogue's tables (`tables.ts`): the prefix groups of rule 1,
 * the all-words group of rule 2, and the closest names of rule 3 (the walk, `walk.ts`, scoring by
 * `closeness.ts` the routes `routes.ts` lays out for a name).
 */
export class SuggestIndex extends IndexTables {
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
    super(catalogue, taught, equivalents);
    this.scratch = new QueryScratch(this.tokenIdf.length, this.entryItem.length, longestEntry(this));
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
    const query = queryFor(this, this.scratch, name, colour);
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
          const [outside] = closestReached(this, this.scratch, 1, query, NONE_TAKEN, { from, to, inside: true });
          const floor = outside === undefined ? 0 : closenessOf(this, this.scratch, outside, query);
          const cap = Math.min(limit, ONE_WORD_PREFIX_CAP);
          // With a floor above 0, only the group's entries that reach it are wanted: the walk finds them all.
          const group =
            floor > 0
              ? closestReached(this, this.scratch, cap, query, takenItems, { from, to, inside: false }, floor)
              : closestIn(this, this.scratch, from, to, cap, query, takenItems);
          for (const e of group) if (closenessOf(this, this.scratch, e, query) >= floor) take(e, 'prefix');
        } else {
          for (const e of closestIn(this, this.scratch, from, to, limit, query, takenItems)) take(e, 'prefix');
        }
        break;
      }

      // 2. All words, any order: the entries holding every token of the name (from the rarest token's
      //    list), then checked word by word as rule 2 folds them (case, spacing and punctuation only).
      if (out.length < limit && query.ids.length > 0 && !query.ids.includes(-1)) {
        const ids = [...query.ids].sort((a, b) => df(this, a) - df(this, b));
        const [rarest, ...rest] = ids as [number, ...number[]];
        const wanted = [...new Set(words)].map((w) => ` ${w} `);
        const matches: number[] = [];
        for (let p = this.postStart[rarest] as number; p < (this.postStart[rarest + 1] as number); p++) {
          const e = this.tokenPostings[p] as number;
          if (!this.hasTokens(e, rest)) continue;
          const key = ` ${this.keys[e] as string} `;
          if (wanted.every((w) => key.includes(w))) matches.push(e);
        }
        for (const e of closest(this, this.scratch, matches, limit - out.length, query, takenItems)) take(e, 'words');
      }

      // 3. Closest names, for the places left: the entries sharing a token (or a renamed or mistyped word).
      if (out.length < limit) {
        for (const e of closestReached(this, this.scratch, limit - out.length, query, takenItems)) take(e, 'close');
      }
      return out;
    } finally {
      clearRoutes(this.scratch, query);
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
