/** The catalogue tokens one query token reaches, and what each weighs for it: reused token after token. */
export class TokenRoutes {
  ids = new Int32Array(64);
  weights = new Float64Array(64);
  length = 0;

  clear(): void {
    this.length = 0;
  }

  add(id: number, weight: number): void {
    if (this.length === this.ids.length) {
      const ids = new Int32Array(this.length * 2);
      ids.set(this.ids);
      const weights = new Float64Array(this.length * 2);
      weights.set(this.weights);
      this.ids = ids;
      this.weights = weights;
    }
    this.ids[this.length] = id;
    this.weights[this.length] = weight;
    this.length += 1;
  }

  has(id: number): boolean {
    for (let k = 0; k < this.length; k++) if (this.ids[k] === id) return true;
    return false;
  }
}

/**
 * The scratch space of one query of the suggestion index, apart from the index itself: the index's own
 * data is read-only (every field `readonly`, its arrays never written after it is built), and a query
 * writes only here. The index answers one query at a time, so one scratch object serves them all.
 */
export class QueryScratch {
  /** Token → the query's token it stands for (-1: none), what it weighs for it, and whether it is a size that agrees. */
  readonly routeQ: Int32Array;
  readonly routeW: Float64Array;
  readonly routeSize: Uint8Array;
  /** The query tokens an entry matched, and by what weight, while its closeness is counted. */
  readonly matchQ: Int32Array;
  readonly matchW: Float64Array;
  /** Each item's token spans, built when a suggestion first needs them (marks in its name). */
  readonly spans = new Map<number, Int32Array>();
  readonly scored = new Float64Array(1);
  /** The routes of the query token being laid out (`closeness`). */
  readonly via = new TokenRoutes();
  /**
   * The sizes that agree with a size token of a query, and the share of weight each agreement keeps: the
   * same sizes come back query after query (`1 x 2`), and comparing one with all thousand took a third of
   * laying out a query. Cleared when it holds many.
   */
  readonly agreeing = new Map<string, { readonly ids: Int32Array; readonly shares: Float64Array }>();
  /**
   * Each entry's marks, side by side so that one read from memory brings them all: [4e] the last walk
   * that saw it, [4e+1] the query whose closeness [4e+2] holds. Marks are never cleared (see `nextMark`).
   */
  readonly marks: Float64Array;
  walk = 0;
  queries = 0;

  /** For an index of `tokens` distinct tokens and `entries` entries, the longest of which has `longest` tokens. */
  constructor(tokens: number, entries: number, longest: number) {
    this.routeQ = new Int32Array(tokens).fill(-1);
    this.routeW = new Float64Array(tokens);
    this.routeSize = new Uint8Array(tokens);
    this.marks = new Float64Array(entries * 4);
    this.matchQ = new Int32Array(longest);
    this.matchW = new Float64Array(longest);
  }
}
