/** A query as the suggestion index reads it: its tokens, the routes to the catalogue's, its posting lists. */
export interface Route {
  readonly token: string;
  /** What the token weighs (its idf). */
  readonly weight: number;
  /** For a dimension of one of the name's sizes: that size's route. */
  readonly dimensionOf?: number;
}

/** The catalogue tokens whose entries a query's tokens reach, heaviest first, and what each weighs for its token. */
export interface PostingLists {
  readonly length: number;
  readonly ids: Int32Array;
  readonly weights: Float64Array;
}

export interface Query {
  /** Numbers the queries, for the memo of closeness (never 0). */
  readonly no: number;
  /** Σ idf of the query's tokens. */
  readonly total: number;
  /** The query's token ids (-1: a token no name has), for rule 2. */
  readonly ids: readonly number[];
  readonly sizes: readonly string[];
  /** What each token of an entry that the query lacks costs (a share of the query's mean token weight). */
  readonly extraCost: number;
  /** How many of the query's tokens are common words. */
  readonly common: number;
  /** Each token of the query, and the tokens that stand for it. */
  readonly routes: readonly Route[];
  /** Catalogue token → the query's tokens it stands for (for saying which words a suggestion matched). */
  readonly routesOf: ReadonlyMap<number, readonly number[]>;
  /** The catalogue tokens set in the route arrays (to clear). */
  readonly routed: readonly number[];
  /** Scratch: which of the routes a suggestion matched. */
  readonly hit: Uint8Array;
  /** The posting lists that weigh something, heaviest first, and what an entry first reached by lists[j] can weigh at most. */
  readonly lists: PostingLists;
  readonly rest: Float64Array;
  /** How many of the query's tokens lists[j…] stand for: the most an entry first reached there can match. */
  readonly left: Int32Array;
  /** The items made in the line's colour (`made-in.ts`), null for a line without one; and so the most any item is pulled. */
  readonly madeIn: Uint32Array | null;
  readonly maxPull: number;
}
