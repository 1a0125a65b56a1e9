/** The walk's bookkeeping: marks that are never cleared, and the best entries offered so far (top-k). */
export const NONE_TAKEN: ReadonlySet<number> = new Set();

/** The mark after `mark` for an array of marks that is never cleared: 1 again (and the array cleared) when the int32 range runs out. */
export function nextMark(mark: number, marks: Float64Array): number {
  if (mark < 0x7fffffff) return mark + 1;
  marks.fill(0);
  return 1;
}

/** The best entries offered, at most `limit`, one per item, none of a taken item; best: closer, then lower rank. */
export class TopEntries {
  readonly entries: number[] = [];
  private readonly closeness: number[] = [];
  private readonly rank: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly taken: ReadonlySet<number>,
    private readonly entryItem: Int32Array,
    private readonly multiEntry: Uint8Array,
    /** Where the closeness of the entry offered is. */
    private readonly scored: Float64Array,
  ) {}

  get full(): boolean {
    return this.entries.length >= this.limit;
  }

  /** The closeness of the last place. */
  get worst(): number {
    return this.closeness[this.closeness.length - 1] ?? 0;
  }

  offer(e: number, r: number): void {
    const { entries, closeness, rank, limit } = this;
    const c = this.scored[0] as number;
    const n = entries.length;
    if (limit <= 0) return;
    if (n === limit && !(c > (closeness[n - 1] as number) || (c === closeness[n - 1] && r < (rank[n - 1] as number))))
      return;
    const item = this.entryItem[e] as number;
    if (this.taken.has(item)) return;
    // One entry per item: an item's best entry (its own name, or a name staff taught) stands for it.
    if (this.multiEntry[item] === 1) {
      const at = entries.findIndex((x) => this.entryItem[x] === item);
      if (at >= 0) {
        if (!(c > (closeness[at] as number) || (c === closeness[at] && r < (rank[at] as number)))) return;
        entries.splice(at, 1);
        closeness.splice(at, 1);
        rank.splice(at, 1);
      }
    }
    let at = entries.length;
    while (at > 0 && (c > (closeness[at - 1] as number) || (c === closeness[at - 1] && r < (rank[at - 1] as number))))
      at -= 1;
    entries.splice(at, 0, e);
    closeness.splice(at, 0, c);
    rank.splice(at, 0, r);
    if (entries.length > limit) {
      entries.pop();
      closeness.pop();
      rank.pop();
    }
  }
}
