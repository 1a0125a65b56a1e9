/**
 * What the service asks of pictures (SPEC §15): the port the app's and the browser host's picture service
 * (`service.ts`) and the CLI's kept pictures (`kept.ts`) give, and the service context carries. It lives
 * here, not in src/api, so that api imports pictures and never the reverse (issue 66 §4).
 */
import type { CachedPicture, PictureCacheStats } from '../store/picture-cache.ts';
import type { PictureBases } from './address.ts';
import type { PictureAnswer, PictureCounts } from './fetcher.ts';

/** Where pictures come from: the cache and its fetcher, and the bases of their addresses. */
export interface PicturePort {
  readonly bases: () => PictureBases;
  readonly network: () => boolean;
  /** What there is for each address now, in order (never waits; what is missing is fetched meanwhile). */
  answers(urls: readonly string[]): PictureAnswer[];
  /**
   * The pictures the cache keeps for each address, in order (null: none kept), with nothing fetched: what a
   * list on paper takes. Absent: none is kept.
   */
  kept?(urls: readonly string[]): (CachedPicture['picture'] | null)[];
  counts(): PictureCounts;
  cached(): PictureCacheStats;
  /** Why pictures are kept in memory for this start (the cache's file left as it is); null: in the file. */
  inMemory(): string | null;
  clear(): void;
}
