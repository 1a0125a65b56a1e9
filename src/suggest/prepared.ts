import type { ItemType } from '../vocabulary/item-types.ts';
import { COMMON_PART_PULL, commonness } from './commonness.ts';
import { madeInBitsets } from './made-in.ts';
import { closenessTokens, nameTokens } from './tokens.ts';
import { orderByString, rankOf, stableByLength } from './sorted-arrays.ts';
import { foldNumber, suggestKey } from './words.ts';

export interface IndexedItem {
  readonly type: ItemType;
  readonly no: string;
  readonly name: string;
  /** How many colours LEGO makes it in, by the element tables (`commonness.ts`); none known: 0. */
  readonly colours?: number;
  /** The catalogue colours the element tables make it in (`made-in.ts`); none known: absent. */
  readonly madeIn?: readonly number[];
}

/**
 * The costly part of an index, which depends on the catalogue alone: every item's name folded into
 * rule 1's key and rule 3's tokens, interned, and the items in key and number order. Built once per
 * catalogue generation; an index of it and the names staff taught is then quick to make (SuggestIndex).
 */
export class PreparedCatalogue {
  readonly itemIndex: ReadonlyMap<string, number>;
  readonly keys: readonly string[];
  readonly tokenIds: ReadonlyMap<string, number>;
  /** How many items have each token. */
  readonly df: readonly number[];
  readonly entryTokens: Int32Array;
  readonly tokenStart: Int32Array;
  readonly hasSize: Uint8Array;
  readonly byKey: Int32Array;
  readonly numbers: readonly string[];
  readonly byNumber: Int32Array;
  readonly numberRank: Int32Array;
  /** Each item's pull towards a line for being common (`commonness.ts`), and the most any item has. */
  readonly pull: Float64Array;
  readonly maxPull: number;
  /** Each colour's items, as a bitset over item indices (`made-in.ts`). */
  readonly madeIn: ReadonlyMap<number, Uint32Array>;

  constructor(readonly items: readonly IndexedItem[]) {
    const n = items.length;
    const itemIndex = new Map<string, number>();
    items.forEach((it, i) => itemIndex.set(`${it.type} ${foldNumber(it.no)}`, i));
    this.itemIndex = itemIndex;
    const keys: string[] = new Array<string>(n);
    const tokenIds = new Map<string, number>();
    const df: number[] = [];
    let flat = new Int32Array(n * 12);
    let used = 0;
    const tokenStart = new Int32Array(n + 1);
    const hasSize = new Uint8Array(n);
    for (let e = 0; e < n; e++) {
      const name = (items[e] as IndexedItem).name;
      keys[e] = suggestKey(name);
      const t = nameTokens(name);
      if (t.sizes.length > 0) hasSize[e] = 1;
      tokenStart[e] = used;
      const from = used;
      const add = (tok: string) => {
        let id = tokenIds.get(tok);
        if (id === undefined) {
          id = df.length;
          tokenIds.set(tok, id);
          df.push(0);
        }
        for (let p = from; p < used; p++) if (flat[p] === id) return;
        if (used === flat.length) {
          const grown = new Int32Array(flat.length * 2);
          grown.set(flat);
          flat = grown;
        }
        flat[used++] = id;
        df[id] = (df[id] as number) + 1;
      };
      for (const tok of closenessTokens(t)) add(tok);
    }
    tokenStart[n] = used;
    this.keys = keys;
    this.tokenIds = tokenIds;
    this.df = df;
    this.entryTokens = flat.slice(0, used);
    this.tokenStart = tokenStart;
    this.hasSize = hasSize;
    const byNo = (a: number, b: number) => {
      const x = (items[a] as IndexedItem).no;
      const y = (items[b] as IndexedItem).no;
      return x.length - y.length || (x < y ? -1 : x > y ? 1 : a - b);
    };
    this.byKey = orderByString(keys, byNo);
    const numbers = items.map((it) => foldNumber(it.no));
    this.numbers = numbers;
    this.byNumber = orderByString(numbers, (a, b) => a - b);
    this.numberRank = rankOf(stableByLength(this.byNumber, numbers));
    const pull = new Float64Array(n);
    let maxPull = 0;
    for (let i = 0; i < n; i++) {
      pull[i] = COMMON_PART_PULL * commonness((items[i] as IndexedItem).colours ?? 0);
      maxPull = Math.max(maxPull, pull[i] as number);
    }
    this.pull = pull;
    this.maxPull = maxPull;
    this.madeIn = madeInBitsets(items.map((it) => it.madeIn));
  }
}
