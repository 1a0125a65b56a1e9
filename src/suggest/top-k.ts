/** The walk's bookkeeping: marks that are never cleared, and the best entries offered so far (top-k). */
export const NONE_TAKEN: ReadonlySet<number> = new Set();

/** The mark after `mark` for an array of marks that is never cleared: 1 again (and the array cleared) when the int32 range runs out. */
export function nextMark(mark: number, marks: Float64Array): number {
  if (mark < 0x7fffffff) return mark + 1;
  marks.fill(0);
  return 1;
}

/**
 * The best entries offered, at most `limit`, one per item, none of a taken item; best: closer, then lower
 * rank. Kept in arrays of fixed size, sorted, and moved along by hand: a query offers thousands of
 * entries, and growing and splicing arrays for each made garbage that the collector then paused a query for.
 */
export class TopEntries {
  private readonly place: Int32Array;
  private readonly closeness: Float64Array;
  private readonly rank: Int32Array;
  private n = 0;

  constructor(
    private readonly limit: number,
    private readonly taken: ReadonlySet<number>,
    private readonly entryItem: Int32Array,
    private readonly multiEntry: Uint8Array,
    /** Where the closeness of the entry offered is. */
    private readonly scored: Float64Array,
  ) {
    const size = Math.max(0, limit);
    this.place = new Int32Array(size);
    this.closeness = new Float64Array(size);
    this.rank = new Int32Array(size);
  }

  /** The entries kept, best first. */
  get entries(): number[] {
    return Array.from(this.place.subarray(0, this.n));
  }

  get full(): boolean {
    return this.n >= this.limit;
  }

  /** The closeness of the last place. */
  get worst(): number {
    return this.n === 0 ? 0 : (this.closeness[this.n - 1] as number);
  }

  offer(e: number, r: number): void {
    const { place, closeness, rank, limit } = this;
    const c = this.scored[0] as number;
    let n = this.n;
    if (limit <= 0) return;
    if (n === limit && !(c > (closeness[n - 1] as number) || (c === closeness[n - 1] && r < (rank[n - 1] as number))))
      return;
    const item = this.entryItem[e] as number;
    if (this.taken.has(item)) return;
    // One entry per item: an item's best entry (its own name, or a name staff taught) stands for it.
    if (this.multiEntry[item] === 1) {
      let at = 0;
      while (at < n && this.entryItem[place[at] as number] !== item) at++;
      if (at < n) {
        if (!(c > (closeness[at] as number) || (c === closeness[at] && r < (rank[at] as number)))) return;
        place.copyWithin(at, at + 1, n);
        closeness.copyWithin(at, at + 1, n);
        rank.copyWithin(at, at + 1, n);
        n -= 1;
      }
    }
    // Past the last place when full: the last one drops out.
    let at = n < limit ? n : limit - 1;
    while (at > 0 && (c > (closeness[at - 1] as number) || (c === closeness[at - 1] && r < (rank[at - 1] as number)))) {
      place[at] = place[at - 1] as number;
      closeness[at] = closeness[at - 1] as number;
      rank[at] = rank[at - 1] as number;
      at -= 1;
    }
    place[at] = e;
    closeness[at] = c;
    rank[at] = r;
    this.n = Math.min(n + 1, limit);
  }
}
