import type { ItemType } from '../catalogue/item-types.ts';
import { foldNumber, suggestWords } from './words.ts';

export type SuggestionRule = 'prefix' | 'words' | 'number';

export interface Suggestion {
  readonly type: ItemType;
  readonly no: string;
  readonly name: string;
  /** Which rule of SPEC §7 found it. */
  readonly rule: SuggestionRule;
}

export interface IndexedItem {
  readonly type: ItemType;
  readonly no: string;
  readonly name: string;
}

/**
 * The catalogue laid out for the rules of SPEC §7, built once per catalogue generation:
 * - names as folded word strings, sorted, so a whole-word prefix is one binary-searched range;
 * - an inverted index word → items, for "all words" (intersected from the rarest word);
 * - folded numbers, sorted, so a character prefix is one range;
 * - a rank per item (shorter names first) and per number (shorter numbers first), so a range yields
 *   its best few without sorting it.
 */
export class SuggestIndex {
  private readonly items: readonly IndexedItem[];
  /** Item indices in order of their folded-name key. */
  private readonly byKey: Int32Array;
  private readonly keys: readonly string[];
  /** Rank of each item among names: shorter folded names first, then name, then number. */
  private readonly nameRank: Int32Array;
  /** Distinct word ids of every item, one after another; item i's are [wordStart[i], wordStart[i + 1]). */
  private readonly itemWords: Int32Array;
  private readonly wordStart: Int32Array;
  private readonly wordIds: ReadonlyMap<string, number>;
  /** word id → item indices holding it, ascending. */
  private readonly postings: readonly Int32Array[];
  /** Item indices in order of folded number. */
  private readonly byNumber: Int32Array;
  private readonly numbers: readonly string[];
  private readonly numberRank: Int32Array;

  constructor(items: readonly IndexedItem[]) {
    this.items = items;
    const n = items.length;
    const keys: string[] = new Array<string>(n);
    const wordIds = new Map<string, number>();
    const postingLists: number[][] = [];
    const itemWords: number[] = [];
    const wordStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const words = suggestWords((items[i] as IndexedItem).name);
      keys[i] = words.join(' ');
      wordStart[i] = itemWords.length;
      for (const w of words) {
        let id = wordIds.get(w);
        if (id === undefined) {
          id = postingLists.length;
          wordIds.set(w, id);
          postingLists.push([]);
        }
        const list = postingLists[id] as number[];
        if (list[list.length - 1] !== i) {
          list.push(i);
          itemWords.push(id);
        }
      }
    }
    this.keys = keys;
    this.wordIds = wordIds;
    this.postings = postingLists.map((p) => Int32Array.from(p));
    wordStart[n] = itemWords.length;
    this.itemWords = Int32Array.from(itemWords);
    this.wordStart = wordStart;

    const byNo = (a: number, b: number) => {
      const x = (items[a] as IndexedItem).no;
      const y = (items[b] as IndexedItem).no;
      return x.length - y.length || (x < y ? -1 : x > y ? 1 : a - b);
    };
    this.byKey = orderByString(keys, byNo);
    this.nameRank = rankOf(stableByLength(this.byKey, keys));
    const numbers = items.map((it) => foldNumber(it.no));
    this.numbers = numbers;
    this.byNumber = orderByString(numbers, (a, b) => a - b);
    this.numberRank = rankOf(stableByLength(this.byNumber, numbers));
  }

  get size(): number {
    return this.items.length;
  }

  /** Suggestions for a name: the longest whole-word prefix group, then the all-words group (SPEC §7). */
  byName(name: string, limit: number): Suggestion[] {
    const words = suggestWords(name);
    if (words.length === 0 || limit <= 0) return [];
    const out: Suggestion[] = [];
    const taken = new Set<number>();

    // 1. Longest prefix, in whole words: the longest k for which some name starts with the first k words.
    for (let k = words.length; k >= 1; k--) {
      const prefix = words.slice(0, k).join(' ');
      // Keys equal to the prefix or continuing it with " …" sort together: ' ' is below every letter or digit.
      const from = lowerBound(this.byKey, this.keys, prefix);
      const to = lowerBound(this.byKey, this.keys, `${prefix}!`);
      if (to > from) {
        for (const i of best(this.byKey, from, to, this.nameRank, limit)) {
          taken.add(i);
          out.push(this.suggestion(i, 'prefix'));
        }
        break;
      }
    }
    if (out.length >= limit) return out;

    // 2. All words, any order: intersect the posting lists, rarest first; fewest extra words first.
    const ids: number[] = [];
    for (const w of new Set(words)) {
      const id = this.wordIds.get(w);
      if (id === undefined) return out;
      ids.push(id);
    }
    ids.sort((a, b) => (this.postings[a] as Int32Array).length - (this.postings[b] as Int32Array).length);
    const [rarest, ...rest] = ids;
    const matches: { i: number; extra: number }[] = [];
    for (const i of this.postings[rarest as number] as Int32Array) {
      if (taken.has(i)) continue;
      const own = this.itemWords.subarray(this.wordStart[i], this.wordStart[i + 1]);
      if (rest.every((id) => own.includes(id))) matches.push({ i, extra: own.length - ids.length });
    }
    matches.sort((a, b) => a.extra - b.extra || (this.nameRank[a.i] as number) - (this.nameRank[b.i] as number));
    for (const m of matches.slice(0, limit - out.length)) out.push(this.suggestion(m.i, 'words'));
    return out;
  }

  /** Suggestions for a number: the items whose numbers share the longest prefix with it, in characters, shortest first. */
  byNumberPrefix(no: string, limit: number): Suggestion[] {
    const q = foldNumber(no);
    if (q === '' || limit <= 0) return [];
    for (let k = q.length; k >= 1; k--) {
      const prefix = q.slice(0, k);
      const from = lowerBound(this.byNumber, this.numbers, prefix);
      const to = lowerBound(this.byNumber, this.numbers, `${prefix}\uffff`);
      if (to > from) return best(this.byNumber, from, to, this.numberRank, limit).map((i) => this.suggestion(i, 'number'));
    }
    return [];
  }

  /** The search box (SPEC §7): by name, and by number, with the same matching; no repeats. */
  search(query: string, limit: number): Suggestion[] {
    const out = this.byName(query, limit);
    if (out.length < limit && /^\S+$/.test(query.trim())) {
      const seen = new Set(out.map((s) => `${s.type} ${s.no}`));
      for (const s of this.byNumberPrefix(query, limit)) {
        if (out.length >= limit) break;
        if (!seen.has(`${s.type} ${s.no}`)) out.push(s);
      }
    }
    return out;
  }

  private suggestion(i: number, rule: SuggestionRule): Suggestion {
    const it = this.items[i] as IndexedItem;
    return { type: it.type, no: it.no, name: it.name, rule };
  }
}

/**
 * Item indices ordered by their string (UTF-16 code units, as `<` compares), ties by `tie`. The distinct
 * strings are sorted by the engine's own sort, far faster than a comparator over every item.
 */
function orderByString(values: readonly string[], tie: (a: number, b: number) => number): Int32Array {
  const groups = new Map<string, number[]>();
  values.forEach((v, i) => {
    const g = groups.get(v);
    if (g) g.push(i);
    else groups.set(v, [i]);
  });
  const out = new Int32Array(values.length);
  let p = 0;
  for (const v of [...groups.keys()].sort()) {
    const g = groups.get(v) as number[];
    if (g.length > 1) g.sort(tie);
    for (const i of g) out[p++] = i;
  }
  return out;
}

/** `order`, stably re-sorted by the length of each item's string (a counting sort): shorter first. */
function stableByLength(order: Int32Array, values: readonly string[]): Int32Array {
  const counts = new Int32Array(1 + values.reduce((m, v) => Math.max(m, v.length), 0) + 1);
  for (const v of values) (counts[v.length + 1] as number)++;
  for (let k = 1; k < counts.length; k++) counts[k] = (counts[k] as number) + (counts[k - 1] as number);
  const out = new Int32Array(order.length);
  for (const i of order) out[(counts[(values[i] as string).length] as number)++] = i;
  return out;
}

function rankOf(order: Int32Array): Int32Array {
  const rank = new Int32Array(order.length);
  order.forEach((item, r) => (rank[item] = r));
  return rank;
}

/** First position in `order` whose key is ≥ `key`. */
function lowerBound(order: Int32Array, keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[order[mid] as number] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The `limit` items of order[from, to) with the lowest rank, best first, without sorting the range. */
function best(order: Int32Array, from: number, to: number, rank: Int32Array, limit: number): number[] {
  const top: number[] = [];
  for (let p = from; p < to; p++) {
    const i = order[p] as number;
    const r = rank[i] as number;
    if (top.length === limit && r >= (rank[top[limit - 1] as number] as number)) continue;
    let at = top.length;
    while (at > 0 && (rank[top[at - 1] as number] as number) > r) at -= 1;
    top.splice(at, 0, i);
    if (top.length > limit) top.pop();
  }
  return top;
}
