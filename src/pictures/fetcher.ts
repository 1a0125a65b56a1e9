/**
 * Pictures answered (SPEC §15, issue 48): asked for by what is on screen, answered at once from the cache —
 * never a wait — while what is not there (or too old) is wanted from the fetching (`fetch-queue.ts`, on a
 * thread of its own in the app). Each one fetched is told (`onReady`), so the screens show it when it
 * comes. Failures are quiet for staff (a placeholder) and counted for whoever looks; so are refusals (not
 * a picture, or sent to another host), the last one's why with them. What the cache holds is answered as
 * a picture only by its bytes (a cache an earlier build filled may hold anything a server sent).
 */
import type { CachedPicture, PictureCache } from '../store/picture-cache.ts';
import { FetchQueue, type FetchOutcome } from './fetch-queue.ts';
import { pictureType, type PictureType } from './signature.ts';

export type PictureAnswer =
  | { readonly state: 'ready'; readonly bytes: Uint8Array; readonly type: PictureType }
  /** Being fetched: the screens show a placeholder until `onReady` names it. */
  | { readonly state: 'waiting' }
  /** No picture, and why, in a worker's words; `missing`: the server says it has none (not a failure). */
  | { readonly state: 'none'; readonly why: string; readonly missing?: true };

/** Where pictures are fetched and kept: in this thread (`localFetches`) or on a thread of its own. */
export interface PictureFetches {
  /** Fetch these (the last first); each is told back once done. */
  want(urls: readonly string[]): void;
  /** These were shown at `now`: past the cap, the pictures shown longest ago go first. */
  shown(urls: readonly string[], now: number): void;
  /** The cap in bytes; a smaller one takes effect at once. */
  setCap(bytes: number): void;
  /** After a clear: gives the file's space back. */
  compact(): void;
  stop(): void;
}

export interface FetchOptions {
  readonly fetch?: typeof fetch;
  /** Fetches at once, at most. */
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  /** A picture larger than this is not one (refused, counted as failed). */
  readonly maxBytes?: number;
}

export interface PictureFetcherOptions extends FetchOptions {
  /** The cache the answers are read from. */
  readonly cache: PictureCache;
  /** Network pictures on (a setting: off for a metered connection, then only the cache is used). */
  readonly network: () => boolean;
  /** Days a picture is kept before it is fetched again when shown (the old one shown meanwhile). */
  readonly maxAgeDays: () => number;
  /** Told each address fetched (or found missing, or failed), so the screens ask again. */
  readonly onReady: (url: string) => void;
  readonly now?: () => number;
  /** Where the fetching runs, given what to tell when each is done; default: in this thread, into `cache`. */
  readonly fetches?: (told: (url: string, outcome: FetchOutcome) => void) => PictureFetches;
}

const DAY_MS = 86_400_000;
/** An address that failed or was refused is not asked again before this (not at every look). */
const RETRY_AFTER_MS = 60_000;
const UNREACHED = 'the picture server could not be reached';

export interface PictureCounts {
  readonly fetched: number;
  readonly failed: number;
  /** Answers that were not pictures, or sent elsewhere; `lastRefused` says why of the last. */
  readonly refused: number;
  readonly lastRefused: string | null;
  readonly waiting: number;
}

/** The fetching in this thread, kept in `cache` (tests, and a cache held in memory only). */
export function localFetches(
  cache: PictureCache,
  o: FetchOptions & { readonly now?: () => number },
  told: (url: string, outcome: FetchOutcome) => void,
): PictureFetches {
  const now = () => o.now?.() ?? Date.now();
  const queue = new FetchQueue({ ...o, keep: (url, picture) => cache.put(url, picture, now()), told });
  return {
    want: (urls) => queue.want(urls),
    shown: (urls, at) => cache.markShown(urls, at),
    setCap: (bytes) => cache.setCap(bytes),
    compact: () => cache.compact(),
    stop: () => queue.stop(),
  };
}

export class PictureFetcher {
  /** Wanted and not yet told. */
  private readonly pending = new Set<string>();
  /** When each address last failed or was refused, and the placeholder's why. */
  private readonly failedAt = new Map<string, { readonly at: number; readonly why: string }>();
  private fetched = 0;
  private failed = 0;
  private refused = 0;
  private lastRefused: string | null = null;
  private stopped = false;
  private readonly fetches: PictureFetches;

  constructor(private readonly o: PictureFetcherOptions) {
    const told = (url: string, outcome: FetchOutcome) => this.told(url, outcome);
    this.fetches = o.fetches?.(told) ?? localFetches(o.cache, o, told);
  }

  /** What there is for `url` now (never waits); what is missing or old is fetched meanwhile. */
  answer(url: string): PictureAnswer {
    return this.answers([url])[0] ?? { state: 'waiting' };
  }

  /** What there is for each address now, in order, in one look at the cache; the last is fetched first. */
  answers(urls: readonly string[]): PictureAnswer[] {
    const now = this.now();
    const network = this.o.network();
    const maxAgeMs = this.o.maxAgeDays() * DAY_MS;
    const wanted: string[] = [];
    const shown: string[] = [];
    const out = this.o.cache.batch(() =>
      urls.map((url): PictureAnswer => {
        const kept = pictureOf(this.o.cache.peek(url));
        if (kept !== null) shown.push(url);
        const old = kept !== null && now - kept.fetchedAt > maxAgeMs;
        const failed = this.failedAt.get(url);
        const retry = failed === undefined || now - failed.at >= RETRY_AFTER_MS;
        if ((kept === null || old) && network && !this.stopped && retry) {
          wanted.push(url);
          this.pending.add(url);
        }
        if (kept !== null) {
          return kept.picture === null
            ? { state: 'none', why: 'the picture server has no picture of it', missing: true }
            : { state: 'ready', bytes: kept.picture.bytes, type: kept.picture.type };
        }
        if (!network) return { state: 'none', why: 'network pictures are off (Settings), and none is kept' };
        if (failed !== undefined && !this.pending.has(url)) return { state: 'none', why: failed.why };
        return { state: 'waiting' };
      }),
    );
    if (shown.length > 0) this.fetches.shown(shown, now);
    // The last screenful first; within it, in its order (the top of the screen first).
    if (wanted.length > 0) this.fetches.want(wanted.reverse());
    return out;
  }

  counts(): PictureCounts {
    return {
      fetched: this.fetched,
      failed: this.failed,
      refused: this.refused,
      lastRefused: this.lastRefused,
      waiting: this.pending.size,
    };
  }

  /** The cap in bytes; a smaller one takes effect at once. */
  setCap(bytes: number): void {
    this.fetches.setCap(bytes);
  }

  /** Every picture gone ("clear pictures"); the file's space is given back by the fetching. */
  clear(): void {
    this.o.cache.clear();
    this.fetches.compact();
  }

  /** Stops: nothing more is fetched, and what is under way is given up. */
  stop(): void {
    this.stopped = true;
    this.pending.clear();
    this.fetches.stop();
  }

  private told(url: string, outcome: FetchOutcome): void {
    if (this.stopped) return;
    this.pending.delete(url);
    if (outcome.kind === 'kept') {
      this.fetched += 1;
      this.failedAt.delete(url);
    } else if (outcome.kind === 'refused') {
      this.refused += 1;
      this.lastRefused = outcome.why;
      this.failedAt.set(url, { at: this.now(), why: outcome.why });
    } else {
      this.failed += 1;
      this.failedAt.set(url, { at: this.now(), why: UNREACHED });
    }
    this.o.onReady(url);
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }
}

/** What the cache holds for an address, its type by its bytes; a kept answer that is no picture is none kept. */
function pictureOf(kept: CachedPicture | null): {
  readonly picture: { readonly bytes: Uint8Array; readonly type: PictureType } | null;
  readonly fetchedAt: number;
} | null {
  if (kept === null) return null;
  if (kept.picture === null) return { picture: null, fetchedAt: kept.fetchedAt };
  const type = pictureType(kept.picture.bytes);
  return type === null ? null : { picture: { bytes: kept.picture.bytes, type }, fetchedAt: kept.fetchedAt };
}
