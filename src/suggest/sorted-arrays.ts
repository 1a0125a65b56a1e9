/**
 * Helpers of the suggestion index's data layout: orders of items as Int32Arrays sorted by a string key,
 * ranks, binary search, and the best few of a range without sorting it.
 */
export function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `base` (in key order) with `extra` (in key order) merged in; ties: base first. */
export function mergeOrders(base: Int32Array, extra: readonly number[], keys: readonly string[]): Int32Array {
  if (extra.length === 0) return base;
  const out = new Int32Array(base.length + extra.length);
  let [i, j, k] = [0, 0, 0];
  while (i < base.length || j < extra.length) {
    const b = base[i];
    const x = extra[j];
    if (x === undefined || (b !== undefined && cmp(keys[b] as string, keys[x] as string) <= 0))
      out[k++] = base[i++] as number;
    else out[k++] = extra[j++] as number;
  }
  return out;
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * Entry indices ordered by their string (UTF-16 code units, as `<` compares), ties by `tie`. The distinct
 * strings are sorted by the engine's own sort, far faster than a comparator over every entry.
 */
export function orderByString(values: readonly string[], tie: (a: number, b: number) => number): Int32Array {
  // Each distinct string's first entry, and the rest chained behind it (no array per string).
  const first = new Map<string, number>();
  const next = new Int32Array(values.length).fill(-1);
  const last = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as string;
    const f = first.get(v);
    if (f === undefined) {
      first.set(v, i);
      last[i] = i;
    } else {
      next[last[f] as number] = i;
      last[f] = i;
    }
  }
  const out = new Int32Array(values.length);
  let p = 0;
  for (const v of [...first.keys()].sort()) {
    const f = first.get(v) as number;
    if (next[f] === -1) {
      out[p++] = f;
      continue;
    }
    const group: number[] = [];
    for (let i = f; i !== -1; i = next[i] as number) group.push(i);
    group.sort(tie);
    for (const i of group) out[p++] = i;
  }
  return out;
}

/** `order`, stably re-sorted by the length of each entry's string (a counting sort): shorter first. */
export function stableByLength(order: Int32Array, values: readonly string[]): Int32Array {
  const counts = new Int32Array(1 + values.reduce((m, v) => Math.max(m, v.length), 0) + 1);
  for (const v of values) (counts[v.length + 1] as number)++;
  for (let k = 1; k < counts.length; k++) counts[k] = (counts[k] as number) + (counts[k - 1] as number);
  const out = new Int32Array(order.length);
  for (const i of order) out[(counts[(values[i] as string).length] as number)++] = i;
  return out;
}

export function rankOf(order: Int32Array): Int32Array {
  const rank = new Int32Array(order.length);
  order.forEach((item, r) => (rank[item] = r));
  return rank;
}

/** First position in `order` whose key is ≥ `key`. */
export function lowerBound(order: Int32Array, keys: readonly string[], key: string): number {
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
export function best(order: Int32Array, from: number, to: number, rank: Int32Array, limit: number): number[] {
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
